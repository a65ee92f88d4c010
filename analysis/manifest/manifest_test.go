package manifest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// valid is the spec's example manifest, with commerce.
const valid = `{
  "opengdd": "0.9",
  "id": "getaway-driver",
  "version": "1.0.0",
  "title": "Getaway Driver",
  "designer": { "name": "OpenGDD Examples", "handle": "examples", "contact": "" },
  "target": {
    "platform": "web-2d",
    "genre": "arcade driving",
    "session_minutes": 5,
    "audience": "anyone; one hand on the keyboard"
  },
  "commerce": {
    "license": "opengdd-share-v0",
    "split": { "designer": 70, "builder": 30 },
    "derived_from": { "id": "getaway", "version": "0.3.12" }
  }
}`

// TestGrammars checks the two string grammars of the manifest: version
// strings (MAJOR.MINOR.PATCH) and kebab-case ids.
func TestGrammars(t *testing.T) {
	const version, kebab = "version", "kebab"
	id, _ := jsonshape.At(Shape(), []string{"id"}).(jsonshape.String)
	ver, _ := jsonshape.At(Shape(), []string{"commerce", "derived_from", "version"}).(jsonshape.String)
	grammars := map[string]jsonshape.Shape{version: ver, kebab: id}
	for _, tc := range []struct {
		grammar, s string
		ok         bool
	}{
		{version, "0.0.0", true},
		{version, "1.0.0", true},
		{version, "10.20.30", true},
		{version, "0.9.100", true},
		{version, "01.0.0", false},
		{version, "1.00.0", false},
		{version, "1.0.01", false},
		{version, "1.0", false},
		{version, "1.0.0.0", false},
		{version, "1.0.0-beta", false},
		{version, "1.0.0+build", false},
		{version, "v1.0.0", false},
		{version, " 1.0.0", false},
		{version, "1.0.0\n", false},
		{version, "١.٠.٠", false}, // digits of another script are not decimal here
		{version, "1..0", false},
		{version, "", false},
		{kebab, "getaway-driver", true},
		{kebab, "a", true},
		{kebab, "a1-2b", true},
		{kebab, "007", true},
		{kebab, "Getaway", false},
		{kebab, "getaway_driver", false},
		{kebab, "-getaway", false},
		{kebab, "getaway-", false},
		{kebab, "get--away", false},
		{kebab, "getaway\n", false},
		{kebab, "", false},
		{kebab, "café", false},
	} {
		v, _ := jsonsrc.Parse([]byte(strconv.Quote(tc.s)))
		if got := len(jsonshape.Check(grammars[tc.grammar], v, "the value")) == 0; got != tc.ok {
			t.Errorf("%s %q: match = %v, want %v", tc.grammar, tc.s, got, tc.ok)
		}
	}
}

// edit replaces the first occurrence of old in the valid manifest.
func edit(old, new string) string {
	if !strings.Contains(valid, old) {
		panic("no " + old + " in the valid manifest")
	}
	return strings.Replace(valid, old, new, 1)
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		// want lists "CODE|text at the span|message fragment".
		want []string
	}{
		{"valid", valid, nil},
		{"minimal", `{"opengdd": "0.9", "id": "a", "version": "0.1.0", "title": "T", "designer": {"name": "D"}, "target": {"platform": "web-3d", "genre": "g"}}`, nil},
		{"not an object", `[]`, []string{`MANIFEST_SCHEMA|[]|must be an object`}},
		{"format version", edit(`"0.9"`, `"1.0"`), []string{`MANIFEST_SCHEMA|"1.0"|must be "0.9"`}},
		{"format version as a number", edit(`"0.9"`, `0.9`), []string{`MANIFEST_SCHEMA|0.9|not a number`}},
		{"id", edit(`"getaway-driver"`, `"Getaway_Driver"`), []string{`MANIFEST_SCHEMA|"Getaway_Driver"|kebab-case`}},
		{"version", edit(`"1.0.0"`, `"1.0"`), []string{`MANIFEST_SCHEMA|"1.0"|MAJOR.MINOR.PATCH`}},
		{"empty title", edit(`"Getaway Driver"`, `""`), []string{`MANIFEST_SCHEMA|""|is empty`}},
		{"missing title", edit(`"title": "Getaway Driver",`, ``), []string{`MANIFEST_SCHEMA|{|lacks the required field "title"`}},
		{"unknown member", edit(`"title"`, `"tilte": "x", "title"`), []string{`MANIFEST_SCHEMA|"tilte"|did you mean "title"`}},
		{"schema member", edit(`"opengdd"`, `"$schema": "https://opengdd.org/schema/core/v0.9/manifest.schema.json", "opengdd"`), []string{`MANIFEST_SCHEMA|"$schema"|not a field`}},
		{"annotation is not allowed", edit(`"opengdd"`, `"_note": 1, "opengdd"`), []string{`MANIFEST_SCHEMA|"_note"|not a field`}},
		{"designer name", edit(`"OpenGDD Examples"`, `""`), []string{`MANIFEST_SCHEMA|""|"designer.name" is empty`}},
		{"designer member", edit(`"handle"`, `"email": "", "handle"`), []string{`MANIFEST_SCHEMA|"email"|not a field`}},
		{"designer handle type", edit(`"examples"`, `7`), []string{`MANIFEST_SCHEMA|7|"designer.handle" must be a string`}},
		{"platform", edit(`"web-2d"`, `"web2d"`), []string{`MANIFEST_SCHEMA|"web2d"|did you mean "web-2d"`}},
		{"platform beyond web", edit(`"web-2d"`, `"mobile"`), []string{`MANIFEST_SCHEMA|"mobile"|"web-2d" or "web-3d"`}},
		{"genre missing", edit(`"genre": "arcade driving",`, ``), []string{`MANIFEST_SCHEMA|{|lacks the required field "genre"`}},
		{"session minutes negative", edit(`5`, `-1`), []string{`MANIFEST_SCHEMA|-1|at least 0`}},
		{"session minutes zero", edit(`: 5`, `: 0`), nil},
		{"session minutes fraction", edit(`: 5`, `: 2.5`), nil},
		{"session minutes string", edit(`: 5`, `: "5"`), []string{`MANIFEST_SCHEMA|"5"|must be a number`}},
		{"session minutes not finite", edit(`: 5`, `: 1e400`), []string{`MANIFEST_SCHEMA|1e400|too large to be finite`}},
		{"license", edit(`"opengdd-share-v0"`, `"mit"`), []string{`MANIFEST_SCHEMA|"mit"|"opengdd-share-v0"`}},
		{"split missing", edit(`"split": { "designer": 70, "builder": 30 },`, ``), []string{`MANIFEST_SCHEMA|{|lacks the required field "split"`}},
		{"split share missing", edit(`"designer": 70, `, ``), []string{`MANIFEST_SCHEMA|{|lacks the required field "designer"`}},
		{"split sum", edit(`"builder": 30`, `"builder": 20`), []string{`COMMERCE_SPLIT|20|sum to 90`}},
		{"split sum within tolerance", edit(`"designer": 70, "builder": 30`, `"designer": 50.0000000008, "builder": 50`), nil},
		{"split sum just beyond tolerance", edit(`"designer": 70, "builder": 30`, `"designer": 50.000000002, "builder": 50`), []string{`COMMERCE_SPLIT|50|not 100`}},
		{"split thirds", edit(`"designer": 70, "builder": 30`, `"designer": 33.3333333333, "builder": 66.6666666667`), nil},
		{"split sum beyond tolerance", edit(`"designer": 70, "builder": 30`, `"designer": 33.333, "builder": 66.666`), []string{`COMMERCE_SPLIT|66.666|not 100`}},
		{"split small fractions", edit(`"designer": 70, "builder": 30`, `"designer": 0.1, "builder": 0.2`), []string{`COMMERCE_SPLIT|0.2|sum to 0.3, not 100`}},
		{"split fractions", edit(`"designer": 70, "builder": 30`, `"designer": 0.1, "builder": 99.9`), nil},
		{"split share out of bounds", edit(`"designer": 70, "builder": 30`, `"designer": 120, "builder": -20`), []string{
			`MANIFEST_SCHEMA|120|from 0 to 100`, `MANIFEST_SCHEMA|-20|from 0 to 100`}},
		{"split share out of bounds and sum", edit(`"designer": 70`, `"designer": 170`), []string{
			`MANIFEST_SCHEMA|170|from 0 to 100`, `COMMERCE_SPLIT|30|sum to 200`}},
		{"split share not a number", edit(`"builder": 30`, `"builder": "30"`), []string{`MANIFEST_SCHEMA|"30"|must be a number`}},
		{"split share not finite", edit(`"builder": 30`, `"builder": 1e999`), []string{`MANIFEST_SCHEMA|1e999|too large`}},
		{"split not an object", edit(`{ "designer": 70, "builder": 30 }`, `[70, 30]`), []string{`MANIFEST_SCHEMA|[70, 30]|must be an object`}},
		{"split member", edit(`"builder": 30`, `"builder": 30, "platform": 0`), []string{`MANIFEST_SCHEMA|"platform"|not a field`}},
		{"derived id", edit(`"getaway", "version"`, `"Getaway", "version"`), []string{`MANIFEST_SCHEMA|"Getaway"|kebab-case`}},
		{"derived version", edit(`"0.3.12"`, `"0.3.12-rc1"`), []string{`MANIFEST_SCHEMA|"0.3.12-rc1"|MAJOR.MINOR.PATCH`}},
		{"derived member", edit(`"0.3.12" }`, `"0.3.12", "url": "" }`), []string{`MANIFEST_SCHEMA|"url"|not a field`}},
		{"repeated member, last counts", edit(`"title": "Getaway Driver"`, `"title": 3, "title": "Getaway Driver"`), nil},
		{"repeated member, last is wrong", edit(`"title": "Getaway Driver"`, `"title": "Getaway Driver", "title": ""`), []string{`MANIFEST_SCHEMA|""|is empty`}},
		{"repeated share, last counts", edit(`"builder": 30`, `"builder": 30, "builder": 40`), []string{`COMMERCE_SPLIT|40|sum to 110`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, errs := jsonsrc.Parse([]byte(tc.json))
			if len(errs) > 0 {
				t.Fatalf("bad test JSON: %v", errs)
			}
			got := Parse("manifest.json", v).Findings
			if len(got) != len(tc.want) {
				t.Fatalf("got %d findings, want %d: %v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				parts := strings.SplitN(w, "|", 3)
				f := got[i]
				if f.Code != parts[0] || f.Severity != source.Error {
					t.Errorf("finding %d is %s %s, want error %s", i, f.Severity, f.Code, parts[0])
				}
				if at := tc.json[f.Span.Start:f.Span.End]; at != parts[1] {
					t.Errorf("finding %d at %q, want at %q", i, at, parts[1])
				}
				if !strings.Contains(f.Message, parts[2]) {
					t.Errorf("finding %d: %q does not say %q", i, f.Message, parts[2])
				}
				if f.File != "manifest.json" {
					t.Errorf("finding %d in %q", i, f.File)
				}
			}
		})
	}
}

func TestSplitRelated(t *testing.T) {
	src := edit(`"builder": 30`, `"builder": 20`)
	v, _ := jsonsrc.Parse([]byte(src))
	got := Parse("manifest.json", v).Findings
	if len(got) != 1 || len(got[0].Related) != 1 {
		t.Fatalf("want one finding with one related place, got %v", got)
	}
	r := got[0].Related[0]
	if at := src[r.Span.Start:r.Span.End]; at != "70" || r.File != "manifest.json" {
		t.Errorf("related place %q in %q, want the designer's 70", at, r.File)
	}
	if !strings.Contains(got[0].Message, "make the builder's share 30") {
		t.Errorf("message %q does not say how to fix it", got[0].Message)
	}
}

func TestSchemaURL(t *testing.T) {
	if got, want := SchemaURL("manifest.schema.json"), "https://opengdd.org/schema/core/v0.9/manifest.schema.json"; got != want {
		t.Errorf("SchemaURL = %s, want %s", got, want)
	}
}

func TestModel(t *testing.T) {
	v, _ := jsonsrc.Parse([]byte(valid))
	m := Parse("manifest.json", v)
	if m.ID != "getaway-driver" || m.Version != "1.0.0" || m.Title != "Getaway Driver" || m.Platform != "web-2d" || m.Root != v {
		t.Errorf("model = %+v", m)
	}
	if m := Parse("manifest.json", nil); m == nil || len(m.Findings) != 0 {
		t.Errorf("Parse(nil) = %+v", m)
	}
	v, _ = jsonsrc.Parse([]byte(`{"id": 3, "target": "web-2d"}`))
	if m := Parse("manifest.json", v); m.ID != "" || m.Platform != "" {
		t.Errorf("values of the wrong type are not read: %+v", m)
	}
}

// TestShapeAgreesWithSpec checks the members of each object and which are
// required, as SPEC §3's tables list them.
func TestShapeAgreesWithSpec(t *testing.T) {
	for _, tc := range []struct {
		path []string
		want string // members, required ones marked with *
	}{
		{nil, "opengdd* id* version* title* designer* target* commerce"},
		{[]string{"designer"}, "name* handle contact"},
		{[]string{"target"}, "platform* genre* session_minutes audience"},
		{[]string{"commerce"}, "license* split* derived_from"},
		{[]string{"commerce", "split"}, "designer* builder*"},
		{[]string{"commerce", "derived_from"}, "id* version*"},
	} {
		o, ok := jsonshape.At(Shape(), tc.path).(jsonshape.Object)
		if !ok {
			t.Errorf("%v is not an object", tc.path)
			continue
		}
		var got []string
		for _, f := range o.Fields {
			name := f.Name
			if f.Required {
				name += "*"
			}
			got = append(got, name)
			if f.Doc == "" {
				t.Errorf("%v.%s has no doc", tc.path, f.Name)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%v members = %s, want %s", tc.path, strings.Join(got, " "), tc.want)
		}
		if o.Rest != nil || o.Annotations {
			t.Errorf("%v is not closed", tc.path)
		}
	}
}
