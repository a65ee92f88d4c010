package collections

import (
	"testing"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// FuzzSchema reads arbitrary bytes as a schema file and as a record checked
// against it: nothing panics, every finding's span lies inside its input,
// and a schema without findings has nothing Broken.
func FuzzSchema(f *testing.F) {
	f.Add([]byte(`{"record": {"speed": {"type": "number", "open": true}, "mate": {"type": "link", "to": "moths", "many": true, "loops": false, "mirrored_by": "mate"}}}`), []byte(`{"speed": null, "mate": ["a", "a"]}`))
	f.Add([]byte(`{"record": {"parts": {"type": "list", "of": {"n": {"type": "integer", "unique": true, "when": {"row": {"k": ["a", 1]}}}}}}}`), []byte(`{"parts": [{"n": 1}, {"n": 1, "k": "a"}, 3]}`))
	f.Add([]byte(`{"record": {"k": {"type": "string", "options": ["a"], "pattern": "kebab-case", "required": true, "when": {}}}}`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, schema, record []byte) {
		inside := func(what string, fs []source.Finding, n int) {
			for _, x := range fs {
				if x.Span.Start < 0 || x.Span.End > n || x.Span.Start > x.Span.End {
					t.Fatalf("%s: %s span %v outside %d bytes", what, x.Code, x.Span, n)
				}
			}
		}
		sv, _ := jsonsrc.Parse(schema)
		s := ParseSchema("_collection.json", sv)
		inside("schema", s.Findings, len(schema))
		if b := brokenParts(s); b != "" && len(s.Findings) == 0 {
			t.Fatalf("%q broken without a finding", b)
		}
		rv, _ := jsonsrc.Parse(record)
		c := CheckRecord(s.Record, "r.json", rv)
		inside("record", c.Findings, len(record))
		for _, l := range c.Links {
			if l.Span.Start < 0 || l.Span.End > len(record) {
				t.Fatalf("link span %v outside %d bytes", l.Span, len(record))
			}
		}
		inside("unique", Unique([]string{"a.json", "b.json"}, []*Checked{c, c}), len(record))
	})
}
