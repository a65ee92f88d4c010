package collections

import (
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

func TestParseSchema(t *testing.T) {
	tests := []struct {
		name, schema string
		want         []string // codes in order
	}{
		{"empty file", `{}`, nil},
		{"annotations", `{"_a": 1, "record": {"_b": [], "x": {"type": "number", "_c": true}}}`, nil},
		{"unknown top field", `{"fields": {}}`, []string{CodeLabelSchema}},
		{"record not object", `{"record": 1}`, []string{CodeLabelSchema}},
		{"shape not object", `{"record": {"x": "number"}}`, []string{CodeLabelSchema}},
		{"no type", `{"record": {"x": {}}}`, []string{CodeSchemaShape}},
		{"retired reference", `{"record": {"x": {"type": "reference", "to": "a"}}}`, []string{CodeSchemaShape}},
		{"link needs to", `{"record": {"x": {"type": "link"}}}`, []string{CodeSchemaShape}},
		{"list needs of", `{"record": {"x": {"type": "list"}}}`, []string{CodeSchemaShape}},
		{"open on string", `{"record": {"x": {"type": "string", "open": true}}}`, []string{CodeSchemaShape}},
		{"open and required", `{"record": {"x": {"type": "number", "open": true, "required": false}}}`, []string{CodeSchemaShape}},
		{"required and when", `{"record": {"x": {"type": "number", "required": true, "when": {}}}}`, []string{CodeSchemaShape}},
		{"when flag", `{"record": {"x": {"type": "number", "when": {"flag": {}}}}}`, []string{CodeSchemaShape}},
		{"grid in of", `{"record": {"x": {"type": "list", "of": {"g": {"type": "grid"}}}}}`, []string{CodeSchemaShape}},
		{"loops never", `{"record": {"x": {"type": "link", "to": "a", "loops": "never"}}}`, []string{CodeSchemaShape}},
		{"field name", `{"record": {"Big": {"type": "number"}}}`, []string{CodeSchemaShape}},
		{"valid link", `{"record": {"x": {"type": "link", "to": "a", "many": true, "loops": false, "mirrored_by": "y_2"}}}`, nil},
		{"last member wins", `{"record": {"x": {"type": "string", "type": "number", "open": true}}}`, nil},
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
			if s.Broken != (len(tt.want) > 0) {
				t.Errorf("Broken %v", s.Broken)
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
			rv, errs := jsonsrc.Parse([]byte(tt.record))
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			c := CheckRecord(s.Record, "r.json", rv)
			var got []string
			for _, f := range c.Findings {
				got = append(got, f.Code)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("codes %v, want %v (%v)", got, tt.want, c.Findings)
			}
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
