package tuning

import (
	"testing"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

// FuzzEnvironments feeds arbitrary tuning.json, personalization.json, record
// and record-schema texts to CheckEnvironments: it must not panic, and
// every finding must point inside tuning.json or, for a related place,
// inside personalization.json.
func FuzzEnvironments(f *testing.F) {
	for _, c := range envCases {
		f.Add(c.tuning, c.pers, `{"hull": 2, "speed": 1.5}`, `{"record": {"hull": {"type": "integer", "open": true}}}`)
	}
	f.Add(`{"values": {"a.b": 1}, "rules": {"p": "collections.ships.skiff.hull == a.b * 2"}}`, ``, `{"hull": null}`, `{"record": {"hull": {"type": "number", "open": true}}}`)
	f.Fuzz(func(t *testing.T, tuningSrc, persSrc, recordSrc, schemaSrc string) {
		file := Parse("tuning.json", []byte(tuningSrc))
		record, _ := jsonsrc.Parse([]byte(recordSrc))
		schema, _ := jsonsrc.Parse([]byte(schemaSrc))
		lookup := func(id string) (*Collection, bool) {
			return &Collection{HasSchema: true, Schema: schema, Records: map[string]*jsonsrc.Value{"skiff": record, "barge": record}}, true
		}
		for _, fd := range file.CheckEnvironments(lookup, readPersonalization(persSrc)) {
			if fd.Span.Start < 0 || fd.Span.End > len(tuningSrc) || fd.Span.Start > fd.Span.End {
				t.Fatalf("finding %v outside tuning.json (%d bytes)", fd, len(tuningSrc))
			}
			for _, r := range fd.Related {
				limit := len(tuningSrc)
				if r.File == "personalization.json" {
					limit = len(persSrc)
				}
				if r.Span.Start < 0 || r.Span.End > limit || r.Span.Start > r.Span.End {
					t.Fatalf("related place %v out of bounds", r)
				}
			}
		}
	})
}
