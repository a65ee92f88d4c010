package collections

import (
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/jsonsrc"
)

func TestParseSchema(t *testing.T) {
	tests := []struct {
		name, schema string
		want         []string // codes in order
		// broken is "file" when the schema as a whole is Broken, else the
		// paths of the Broken fields, space-separated.
		broken string
	}{
		{"empty file", `{}`, nil, ""},
		{"annotations", `{"_a": 1, "record": {"_b": [], "x": {"type": "number", "_c": true}}}`, nil, ""},
		{"unknown top field", `{"fields": {}, "record": {"x": {"type": "number"}}}`, []string{CodeLabelSchema}, ""},
		{"not an object", `[]`, []string{CodeLabelSchema}, "file"},
		{"record not object", `{"record": 1}`, []string{CodeLabelSchema, CodeSchemaShape}, "file"},
		{"shape not object", `{"record": {"x": "number", "y": {"type": "number"}}}`, []string{CodeLabelSchema, CodeSchemaShape}, "x"},
		{"of not object", `{"record": {"x": {"type": "list", "of": []}}}`, []string{CodeLabelSchema, CodeSchemaShape}, "x"},
		{"no type", `{"record": {"x": {}}}`, []string{CodeSchemaShape}, "x"},
		{"retired reference", `{"record": {"x": {"type": "reference", "to": "a"}}}`, []string{CodeSchemaShape}, "x"},
		{"link needs to", `{"record": {"x": {"type": "link"}}}`, []string{CodeSchemaShape}, "x"},
		{"list needs of", `{"record": {"x": {"type": "list"}}}`, []string{CodeSchemaShape}, "x"},
		{"open on string", `{"record": {"x": {"type": "string", "open": true}}}`, []string{CodeSchemaShape}, "x"},
		{"open and required", `{"record": {"x": {"type": "number", "open": true, "required": false}}}`, []string{CodeSchemaShape}, "x"},
		{"required and when", `{"record": {"x": {"type": "number", "required": true, "when": {}}}}`, []string{CodeSchemaShape}, "x"},
		{"when flag", `{"record": {"x": {"type": "number", "when": {"flag": {}}}}}`, []string{CodeSchemaShape}, "x"},
		{"grid in of", `{"record": {"x": {"type": "list", "of": {"g": {"type": "grid"}, "h": {"type": "number"}}}}}`, []string{CodeSchemaShape}, "x[].g"},
		{"loops never", `{"record": {"x": {"type": "link", "to": "a", "loops": "never"}}}`, []string{CodeSchemaShape}, "x"},
		{"field name", `{"record": {"Big": {"type": "number"}}}`, []string{CodeSchemaShape}, ""},
		{"unknown member", `{"record": {"x": {"type": "number", "minimum": 0}, "y": {"type": "string"}}}`, []string{CodeSchemaShape}, "x"},
		{"valid link", `{"record": {"x": {"type": "link", "to": "a", "many": true, "loops": false, "mirrored_by": "y_2"}}}`, nil, ""},
		{"last member wins", `{"record": {"x": {"type": "string", "type": "number", "open": true}}}`, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, errs := jsonsrc.Parse([]byte(tt.schema))
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			s := ParseSchema("s.json", v)
			var got []string
			for _, f := range s.Findings {
				got = append(got, f.Code)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("codes %v, want %v (%v)", got, tt.want, s.Findings)
			}
			if got := brokenParts(s); got != tt.broken {
				t.Errorf("broken %q, want %q", got, tt.broken)
			}
		})
	}
}

// brokenParts says what of a schema is Broken: "file", or the paths of
// the Broken fields.
func brokenParts(s *Schema) string {
	if s.Broken {
		return "file"
	}
	var out []string
	var visit func(r *Record)
	visit = func(r *Record) {
		if r == nil {
			return
		}
		for _, f := range r.Fields {
			if f.Broken {
				out = append(out, f.Path())
			}
			visit(f.Of)
		}
	}
	visit(s.Record)
	return strings.Join(out, " ")
}

// TestCheckRecordBrokenField checks the records of a schema with one
// malformed field shape against every other field (§1b rule 2): only what
// depends on the broken field is skipped.
func TestCheckRecordBrokenField(t *testing.T) {
	const schema = `{"record": {
		"n": {"type": "integer", "minimum": 0},
		"k": {"type": "string", "options": ["a", "b"]},
		"one": {"type": "link", "to": "c", "colour": 1},
		"u": {"type": "number", "unique": true, "when": {"row": {"n": [1]}}, "bogus": true},
		"parts": {"type": "list", "of": {"p": {"type": "number", "min": 1}, "q": {"type": "string"}}}
	}}`
	v, _ := jsonsrc.Parse([]byte(schema))
	s := ParseSchema("s.json", v)
	if got := brokenParts(s); got != "n one u parts[].p" {
		t.Fatalf("broken %q (%v)", got, s.Findings)
	}
	tests := []struct {
		name, record string
		want         []string
	}{
		{"broken fields take anything", `{"n": "many", "one": 7, "u": [], "parts": [{"p": "x", "q": "y"}]}`, nil},
		{"other fields are checked", `{"n": 1, "k": "c", "parts": [{"q": 2}]}`, []string{CodeRecordSchema, CodeRecordSchema}},
		{"undeclared fields are reported", `{"z": 1, "parts": [{"r": 1}]}`, []string{CodeRecordSchema, CodeRecordSchema}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := checkRecordCodes(t, s.Record, tt.record, tt.want)
			if len(c.Links) != 0 || len(c.Uniques) != 0 {
				t.Errorf("links %v, uniques %v of broken fields", c.Links, c.Uniques)
			}
		})
	}
}

func TestCheckRecord(t *testing.T) {
	const schema = `{"record": {
		"n": {"type": "integer", "open": true},
		"k": {"type": "string", "options": ["a", "b"]},
		"w": {"type": "number", "when": {"row": {"k": ["b"]}}},
		"one": {"type": "link", "to": "c"},
		"many": {"type": "link", "to": "c", "many": true},
		"req": {"type": "link", "to": "c", "when": {"row": {"k": ["a"]}}}
	}}`
	v, _ := jsonsrc.Parse([]byte(schema))
	s := ParseSchema("s.json", v)
	if s.Broken {
		t.Fatal(s.Findings)
	}
	tests := []struct {
		name, record string
		want         []string
		links        int
	}{
		{"empty", `{}`, nil, 0},
		{"null open", `{"n": null}`, nil, 0},
		{"fraction", `{"n": 1.5}`, []string{CodeRecordSchema}, 0},
		{"option", `{"k": "c"}`, []string{CodeRecordSchema}, 0},
		{"when holds, missing", `{"k": "b"}`, []string{CodeRecordSchema}, 0},
		{"when fails, present", `{"w": 1}`, []string{CodeRecordSchema}, 0},
		{"required link empty", `{"k": "a", "req": []}`, []string{CodeRecordSchema}, 0},
		{"links", `{"k": "a", "req": "x", "one": "y", "many": ["x", "y"]}`, nil, 4},
		{"zero links", `{"one": null, "many": []}`, nil, 0},
		{"one as array", `{"one": ["x"]}`, []string{CodeLinkType}, 0},
		{"many as string", `{"many": "x"}`, []string{CodeLinkType}, 0},
		{"many with number", `{"many": ["x", 2]}`, []string{CodeLinkType}, 0},
		{"duplicate", `{"many": ["x", "x"]}`, []string{CodeLinkDuplicate}, 1},
		{"undeclared", `{"z": 1, "_note": 2}`, []string{CodeRecordSchema}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := checkRecordCodes(t, s.Record, tt.record, tt.want)
			if len(c.Links) != tt.links {
				t.Errorf("%d links, want %d", len(c.Links), tt.links)
			}
		})
	}
}

func TestRetiredCount(t *testing.T) {
	for token, want := range map[string]bool{
		"collections:enemies:count": true,
		"collections.enemies:count": true,
		"collections:":              true,
		"collections:<n>":           false,
		"collectionsets:a":          false,
		"collections_x:a":           false,
		"collections.enemies":       false,
		"enemies:count":             false,
	} {
		if got := RetiredCount(token) != ""; got != want {
			t.Errorf("RetiredCount(%q) retired = %v, want %v", token, got, want)
		}
	}
}

// checkRecordCodes checks the record written as text against r and fails
// t unless its findings have the codes want, in order.
func checkRecordCodes(t *testing.T, r *Record, text string, want []string) *Checked {
	t.Helper()
	c := CheckRecord(r, "r.json", analysistest.ParseJSON(t, text))
	var got []string
	for _, f := range c.Findings {
		got = append(got, f.Code)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("codes %v, want %v (%v)", got, want, c.Findings)
	}
	return c
}
