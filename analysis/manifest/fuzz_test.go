package manifest

import (
	"testing"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

// FuzzParse feeds arbitrary text to Parse: it must not panic, every finding
// must lie inside the text and be one of the package's codes, and a text
// that does not parse as an object gives no COMMERCE_SPLIT.
func FuzzParse(f *testing.F) {
	f.Add(valid)
	f.Add(`{"commerce": {"split": {"designer": 1e400, "builder": -1e400}}}`)
	f.Add(`{"target": {"platform": "web-2d", "platform": 3}, "id": "a--b"}`)
	f.Fuzz(func(t *testing.T, src string) {
		v, errs := jsonsrc.Parse([]byte(src))
		if len(errs) > 0 {
			v = nil // the caller reports MANIFEST_JSON and reads nothing
		}
		m := Parse("manifest.json", v)
		for _, fd := range m.Findings {
			if fd.Code != CodeSchema && fd.Code != CodeSplit {
				t.Fatalf("unknown code %s", fd.Code)
			}
			if fd.Span.Start < 0 || fd.Span.End > len(src) || fd.Span.Start > fd.Span.End {
				t.Fatalf("finding %v outside the text (%d bytes)", fd, len(src))
			}
			for _, r := range fd.Related {
				if r.Span.Start < 0 || r.Span.End > len(src) || r.Span.Start > r.Span.End {
					t.Fatalf("related place %v outside the text", r)
				}
			}
			if fd.Code == CodeSplit && (v == nil || v.Kind() != jsonsrc.Object) {
				t.Fatalf("COMMERCE_SPLIT without a manifest object: %v", fd)
			}
		}
	})
}
