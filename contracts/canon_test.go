package contracts

import (
	"crypto/sha256"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/source"
)

func TestDefinitionText(t *testing.T) {
	src := `{
  "answers": {"q": "a"},
  "_note": "dropped",
  "declares": {},
  "version": 1.0,
  "contract": "meter",
  "questions": {"q": {"_why": "dropped", "asks": "Line\nbreak \"quoted\" é", "options": {"b": {"meaning": "B"}, "a": {"meaning": "A"}}}},
  "mechanism": ["m"],
  "summary": "s",
  "values": {},
  "rules": {"r": "x > 1e21"},
  "rows": {},
  "verification": {}
}`
	want := `{
  "contract": "meter",
  "version": 1,
  "summary": "s",
  "mechanism": [
    "m"
  ],
  "questions": {
    "q": {
      "asks": "Line\nbreak \"quoted\" é",
      "options": {
        "b": {
          "meaning": "B"
        },
        "a": {
          "meaning": "A"
        }
      }
    }
  },
  "declares": {},
  "rules": {
    "r": "x > 1e21"
  }
}`
	got := DefinitionText(ParseAdoption("contracts/m.json", []byte(src)))
	if got != want {
		t.Errorf("DefinitionText:\n%s\nwant:\n%s", got, want)
	}
	if DefinitionText(ParseAdoption("x.json", []byte(`[1]`))) != "" {
		t.Errorf("non-object should give empty text")
	}
}

func TestCheckDivergence(t *testing.T) {
	base := adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`)
	same := adopt(basic, `"answers": {"overflow": "refuse"}, "values": {"maximum": 9}, "_x": 1`)
	// Same members, different order: a difference.
	reordered := strings.Replace(base, `"clamp": {"meaning": "Stops."}, "refuse": {"meaning": "No change."}`,
		`"refuse": {"meaning": "No change."}, "clamp": {"meaning": "Stops."}`, 1)
	a := ParseAdoption("contracts/a.json", []byte(base))
	b := ParseAdoption("contracts/b.json", []byte(same))
	c := ParseAdoption("contracts/c.json", []byte(reordered))
	if fs := CheckDivergence([]*Adoption{a, b}); len(fs) != 0 {
		t.Errorf("equal copies reported:\n%s", dump(fs))
	}
	fs := CheckDivergence([]*Adoption{a, b, c})
	if len(fs) != 3 {
		t.Fatalf("want 3 findings, got:\n%s", dump(fs))
	}
	for _, f := range fs {
		if f.Code != "CONTRACT_DEFINITION_DIVERGENT" || base[f.Span.Start:f.Span.End] != `"contract"` {
			t.Errorf("bad finding %s", f)
		}
	}
	if len(fs[2].Related) != 2 || fs[2].File != "contracts/c.json" {
		t.Errorf("c should relate to a and b: %+v", fs[2])
	}
}

func FuzzParseAdoption(f *testing.F) {
	f.Add([]byte(condAdoption))
	f.Add([]byte(adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "p", "unit": "turns", "length": 9}]}`)))
	f.Add([]byte(adopt(basic+`, "rules": {"r": "maximum / 0 > 1", "f": {"forbid": {"any": [{"flag": {"overflow": ["clamp"]}}]}, "message": "m"}}`,
		`"answers": {"overflow": "clamp"}, "values": {"maximum": "contracts.meter.maximum"}`)))
	f.Add([]byte(`{"contract": 1, "questions": {"a": {"when": {"flag": {"a": ["x"]}}}}}`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a := ParseAdoption("contracts/meter.json", data)
		check := func(fs []source.Finding) {
			for _, f := range fs {
				if f.Span.Start < 0 || f.Span.End > len(data) || f.Span.Start > f.Span.End {
					t.Fatalf("span out of bounds: %s", f)
				}
			}
		}
		check(Check(a, resolver()))
		check(Check(a, nil))
		check(CheckDivergence([]*Adoption{a, ParseAdoption("contracts/other.json", data)}))
		s := Evaluate(a, resolver())
		for _, q := range a.Questions {
			s.Asked(q.Name.Text)
			s.Holds(q.When, nil)
		}
		_ = DefinitionText(a)
	})
}

// TestDefinitionDigest checks that the digest, written through a buffer
// into the hash, is the SHA-256 of DefinitionText, for adoptions whose text
// is larger than the buffer (512 bytes) too.
func TestDefinitionDigest(t *testing.T) {
	long := strings.Repeat(`"a long summary \"quoted\" é `, 400)
	for _, src := range []string{
		`[1]`,
		`{}`,
		`{"contract":"m","version":1,"_note":"x","summary":"s","rows":{"r":[{"a":1}]}}`,
		`{"contract":"m","version":1,"summary":"` + strings.ReplaceAll(long, `"`, `'`) + `","questions":[{"id":"q","ask":"?"}]}`,
	} {
		a := ParseAdoption("contracts/m.json", []byte(src))
		if got, want := DefinitionDigest(a), sha256.Sum256([]byte(DefinitionText(a))); got != want {
			t.Errorf("DefinitionDigest(%.40s…) = %x, want %x", src, got, want)
		}
	}
}

// TestDigestCache: a digest shared through the cache is the digest each
// adoption has on its own, for copies written alike, written differently
// (same canonical text) and different definitions.
func TestDigestCache(t *testing.T) {
	const def = `"contract": "meter", "version": 1, "summary": "A meter."`
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{"copies written alike", `{` + def + `, "answers": {"x": "a"}}`, `{` + def + `, "answers": {"y": "b"}}`, true},
		{"copies written differently", `{` + def + `}`, `{"summary": "A meter.", "version": 1, "contract": "meter"}`, true},
		{"another summary", `{` + def + `}`, `{"contract": "meter", "version": 1, "summary": "A gauge."}`, false},
		{"same bytes elsewhere", `{"contract": "meter", "version": 1, "x": "A meter."}`, `{"contract": "meter", "version": 1, "summary": "A meter."}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var c DigestCache
			a := ParseAdoption("contracts/a.json", []byte(tc.a))
			b := ParseAdoption("contracts/b.json", []byte(tc.b))
			da, db := c.DefinitionDigest(a), c.DefinitionDigest(b)
			alone := DefinitionDigest(ParseAdoption("contracts/b.json", []byte(tc.b)))
			if db != alone {
				t.Errorf("the cached digest of b differs from its own")
			}
			if (da == db) != tc.same {
				t.Errorf("digests equal: %v, want %v", da == db, tc.same)
			}
			// Len counts the definitions as written, not the adoptions.
			if want := map[bool]int{true: 1, false: 2}[strings.HasPrefix(tc.name, "copies")]; c.Len() != want {
				t.Errorf("Len = %d, want %d", c.Len(), want)
			}
		})
	}
}
