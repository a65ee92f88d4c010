package jsonshape

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// manifestLike is a small closed shape with every kind of member.
var manifestLike = Object{
	Annotations: true,
	Fields: []Field{
		{Name: "id", Required: true, Shape: String{Pattern: kebab, PatternDoc: "kebab-case"}},
		{Name: "title", Required: true, Shape: String{NonEmpty: true}},
		{Name: "kind", Shape: String{Enum: []string{"puzzle", "shooter"}}},
		{Name: "players", Shape: Number{Integer: true, Min: 1, HasMin: true, Max: 8, HasMax: true}},
		{Name: "tags", Shape: Array{Elem: String{NonEmpty: true}, MinItems: 1, Unique: true}},
		{Name: "modes", Shape: Object{Rest: String{Enum: []string{"running", "paused"}}, MinMembers: 1,
			Key: func(k string) string {
				if !kebab.MatchString(k) {
					return "is not a kebab-case mode id"
				}
				return ""
			}}},
		{Name: "size", Shape: OneOf{Shapes: []Shape{Number{HasMin: true, Min: 0}, String{Enum: []string{"any"}}}}},
	},
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		// want lists "⟪text at the span⟫ message fragment" for each problem.
		want []string
	}{
		{"valid", `{"id": "a-b", "title": "T", "_note": 1, "kind": "puzzle", "players": 2, "tags": ["x", "y"], "modes": {"play": "running"}, "size": "any"}`, nil},
		{"missing required", `{"title": "T"}`, []string{`{|lacks the required field "id"`}},
		{"unknown member", `{"id": "a", "title": "T", "titel": 1}`, []string{`"titel"|did you mean "title"`}},
		{"duplicate member", `{"id": "a", "title": "T", "title": "U"}`, []string{`"title"|written twice`}},
		{"wrong type", `{"id": "a", "title": 3}`, []string{`3|must be a non-empty string, not a number`}},
		{"empty string", `{"id": "a", "title": ""}`, []string{`""|is empty`}},
		{"pattern", `{"id": "A_b", "title": "T"}`, []string{`"A_b"|not in kebab-case`}},
		{"enum", `{"id": "a", "title": "T", "kind": "puzle"}`, []string{`"puzle"|did you mean "puzzle"`}},
		{"integer", `{"id": "a", "title": "T", "players": 2.5}`, []string{`2.5|whole number`}},
		{"bounds", `{"id": "a", "title": "T", "players": 9}`, []string{`9|an integer from 1 to 8`}},
		{"too large to be finite", `{"id": "a", "title": "T", "players": 1e400}`, []string{`1e400|too large to be finite`}},
		{"empty array", `{"id": "a", "title": "T", "tags": []}`, []string{`[]|is empty`}},
		{"unique", `{"id": "a", "title": "T", "tags": ["x", "x"]}`, []string{`"x"|repeats "tags[0]"`}},
		{"array element", `{"id": "a", "title": "T", "tags": ["x", 2]}`, []string{`2|"tags[1]" must be a non-empty string`}},
		{"map key", `{"id": "a", "title": "T", "modes": {"Play": "running"}}`, []string{`"Play"|not a kebab-case mode id`}},
		{"map value", `{"id": "a", "title": "T", "modes": {"play": "stopped"}}`, []string{`"stopped"|"modes.play" is "stopped"`}},
		{"empty map", `{"id": "a", "title": "T", "modes": {}}`, []string{`{|is empty`}},
		{"one of, wrong kind", `{"id": "a", "title": "T", "size": true}`, []string{`true|must be a number of at least 0 or "any"`}},
		{"one of, matching kind", `{"id": "a", "title": "T", "size": -1}`, []string{`-1|at least 0`}},
		{"not an object", `[1]`, []string{`[1]|the file must be an object, not an array`}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkProblems(t, manifestLike, "the file", tc.json, tc.want) })
	}
}

// checkProblems checks the problems of a JSON text against s: want lists
// "text at the span|message fragment" for each, in order.
func checkProblems(t *testing.T, s Shape, what, json string, want []string) {
	t.Helper()
	got := checkText(t, s, json, what, len(want))
	for i, w := range want {
		text, msg, _ := strings.Cut(w, "|")
		if at := spanText(json, got[i].Span); !strings.HasPrefix(at, text) {
			t.Errorf("problem %d at %q, want at %q", i, at, text)
		}
		if !strings.Contains(got[i].Msg, msg) {
			t.Errorf("problem %d: %q does not say %q", i, got[i].Msg, msg)
		}
	}
}

func spanText(s string, sp source.Span) string {
	if sp.Start < 0 || sp.End > len(s) || sp.Start > sp.End {
		return "<bad span>"
	}
	return s[sp.Start:sp.End]
}

// TestPartialTree checks the partial tree of a file cut inside a member:
// the member without a value is left alone.
func TestPartialTree(t *testing.T) {
	v, errs := jsonsrc.Parse([]byte(`{"id": "a", "title"`))
	if len(errs) == 0 {
		t.Fatal("the cut text parsed")
	}
	if got := Check(manifestLike, v, "the file"); len(got) != 0 {
		t.Errorf("problems %v, want none for a member being typed", got)
	}
}

func TestAtValuesMissing(t *testing.T) {
	if got := Values(At(manifestLike, []string{"kind"})); strings.Join(got, ",") != "puzzle,shooter" {
		t.Errorf("Values(kind) = %v", got)
	}
	if got := Values(At(manifestLike, []string{"modes", "play"})); strings.Join(got, ",") != "running,paused" {
		t.Errorf("Values(modes.play) = %v", got)
	}
	if got := At(manifestLike, []string{"tags", "0"}); got == nil || got.Describe() != "a non-empty string" {
		t.Errorf("At(tags.0) = %v", got)
	}
	if At(manifestLike, []string{"nothing"}) != nil {
		t.Error("At(nothing) should be nil in a closed object")
	}
	v, _ := jsonsrc.Parse([]byte(`{"title": "T"}`))
	var names []string
	for _, f := range Missing(manifestLike, v) {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, ","); got != "id,kind,players,tags,modes,size" {
		t.Errorf("Missing = %s (required first, title present)", got)
	}
}

// questionLike picks its fields by its "type" member.
var questionLike = Object{
	Fields: []Field{
		{Name: "type", Required: true, Shape: String{Enum: []string{"choice", "number"}}},
		{Name: "default", Required: true, Shape: OneOf{Shapes: []Shape{String{}, Number{}}}},
		{Name: "options", Shape: Array{Elem: String{}, MinItems: 1}},
		{Name: "notes", Shape: String{}},
	},
	Tag: "type",
	Variants: []Variant{
		{Value: "choice", Fields: []Field{{Name: "options", Required: true, Shape: Array{Elem: String{}, MinItems: 1}}, {Name: "default", Required: true, Shape: String{}}}},
		{Value: "number", Fields: []Field{{Name: "default", Required: true, Shape: Number{}}}, Forbid: []string{"options"}},
	},
}

func TestVariants(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		want       []string
	}{
		{"choice", `{"type": "choice", "options": ["a"], "default": "a"}`, nil},
		{"choice needs options", `{"type": "choice", "default": "a"}`, []string{`{|lacks the required field "options"`}},
		{"choice default is a string", `{"type": "choice", "options": ["a"], "default": 1}`, []string{`1|must be a string, not a number`}},
		{"number", `{"type": "number", "default": 1}`, nil},
		{"number default is a number", `{"type": "number", "default": "1"}`, []string{`"1"|must be a number, not a string`}},
		{"number forbids options", `{"type": "number", "default": 1, "options": ["a"]}`, []string{`"options"|not allowed in the question whose "type" is "number"`}},
		{"unknown type: base fields", `{"type": "text", "default": 1, "options": ["a"]}`, []string{`"text"|must be one of "choice" or "number"`}},
		{"no type: base fields", `{"default": "a"}`, []string{`{|lacks the required field "type"`}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkProblems(t, questionLike, "the question", tc.json, tc.want) })
	}
	missing := func(json string) string {
		v, _ := jsonsrc.Parse([]byte(json))
		var names []string
		for _, f := range Missing(questionLike, v) {
			names = append(names, f.Name)
		}
		return strings.Join(names, ",")
	}
	if got := missing(`{"type": "choice"}`); got != "default,options,notes" {
		t.Errorf("Missing(choice) = %s, want the required options first", got)
	}
	if got := missing(`{"type": "number"}`); got != "default,notes" {
		t.Errorf("Missing(number) = %s, want no options", got)
	}
	if got := missing(`{}`); got != "type,default,options,notes" {
		t.Errorf("Missing({}) = %s", got)
	}
}

func TestProblemKinds(t *testing.T) {
	for _, tc := range []struct {
		name, json   string
		kind         ProblemKind
		member, path string
	}{
		{"missing", `{"title": "T"}`, IsMissing, "id", ""},
		{"unknown", `{"id": "a", "title": "T", "titel": 1}`, IsUnknown, "titel", "titel"},
		{"repeated", `{"id": "a", "title": "T", "title": "U"}`, IsRepeated, "title", "title"},
		{"bad key", `{"id": "a", "title": "T", "modes": {"Play": "running"}}`, IsBadKey, "Play", "modes.Play"},
		{"invalid", `{"id": "a", "title": 3}`, IsInvalid, "", "title"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, errs := jsonsrc.Parse([]byte(tc.json))
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			ps := Check(manifestLike, v, "the file")
			if len(ps) != 1 {
				t.Fatalf("got %d problems, want 1: %v", len(ps), ps)
			}
			if p := ps[0]; p.Kind != tc.kind || p.Member != tc.member || p.Path != tc.path {
				t.Errorf("got kind %d member %q path %q, want %d %q %q", p.Kind, p.Member, p.Path, tc.kind, tc.member, tc.path)
			}
		})
	}
}

func TestPlural(t *testing.T) {
	for in, want := range map[string]string{
		"a non-empty string":     "non-empty strings",
		"an integer from 1 to 8": "integers from 1 to 8",
		"a string":               "strings",
		"any JSON value":         "any JSON value",
	} {
		if got := plural(in); got != want {
			t.Errorf("plural(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLastWins(t *testing.T) {
	shape := Object{LastWins: true, Fields: []Field{{Name: "title", Required: true, Shape: String{NonEmpty: true}}}}
	for _, tc := range []struct {
		json string
		want []string
	}{
		{`{"title": 3, "title": "T"}`, nil},
		{`{"title": "T", "title": ""}`, []string{`""|is empty`}},
		{`{"title": "T", "titel": 1, "titel": 2}`, []string{`"titel"|did you mean "title"`}},
	} {
		v, _ := jsonsrc.Parse([]byte(tc.json))
		got := Check(shape, v, "the file")
		if len(got) != len(tc.want) {
			t.Fatalf("%s: got %v, want %d problems", tc.json, got, len(tc.want))
		}
		for i, w := range tc.want {
			text, msg, _ := strings.Cut(w, "|")
			if at := spanText(tc.json, got[i].Span); at != text || !strings.Contains(got[i].Msg, msg) {
				t.Errorf("%s: problem %d is %q at %q, want %q at %q", tc.json, i, got[i].Msg, at, msg, text)
			}
			if got[i].Span.Start != strings.LastIndex(tc.json, text) {
				t.Errorf("%s: problem %d is not on the last member", tc.json, i)
			}
		}
	}
}

func TestPlaceholder(t *testing.T) {
	inner := Object{Fields: []Field{
		{Name: "name", Required: true, Shape: String{NonEmpty: true}, Example: `"Someone"`},
		{Name: "kind", Required: true, Shape: String{Enum: []string{"puzzle", "shooter"}}},
		{Name: "note", Shape: String{}},
	}}
	for _, tc := range []struct {
		field Field
		want  string
	}{
		{Field{Shape: String{}}, `""`},
		{Field{Shape: String{Enum: []string{"web-2d", "web-3d"}}}, `"web-2d"`},
		{Field{Shape: String{NonEmpty: true}, Example: `"Untitled"`}, `"Untitled"`},
		{Field{Shape: Number{}}, `0`},
		{Field{Shape: Number{HasMin: true, Min: 5}}, `5`},
		{Field{Shape: Number{HasMin: true, Min: 0.5, ExclusiveMin: true}}, `1`},
		{Field{Shape: Number{HasMax: true, Max: -2.5}}, `-3`},
		{Field{Shape: Bool{}}, `false`},
		{Field{Shape: Array{Elem: String{}}}, `[]`},
		{Field{Shape: Array{Elem: Number{HasMin: true, Min: 2}, MinItems: 1}}, `[2]`},
		{Field{Shape: inner}, `{ "name": "Someone", "kind": "puzzle" }`},
		{Field{Shape: Object{Rest: Any{}}}, `{}`},
		{Field{Shape: OneOf{Shapes: []Shape{Number{HasMin: true, Min: 1}, String{}}}}, `1`},
		{Field{Shape: Any{}}, `null`},
	} {
		got := Placeholder(tc.field)
		if got != tc.want {
			t.Errorf("Placeholder(%s) = %s, want %s", tc.field.Shape.Describe(), got, tc.want)
			continue
		}
		// A placeholder the shape can accept must be accepted.
		v, errs := jsonsrc.Parse([]byte(got))
		if len(errs) > 0 {
			t.Errorf("Placeholder(%s) = %s is not JSON", tc.field.Shape.Describe(), got)
		} else if _, any := tc.field.Shape.(Any); !any {
			if ps := Check(tc.field.Shape, v, "the value"); len(ps) > 0 {
				t.Errorf("Placeholder(%s) = %s breaks its shape: %v", tc.field.Shape.Describe(), got, ps)
			}
		}
	}
}

func TestSingleValueHasNoGuess(t *testing.T) {
	v, _ := jsonsrc.Parse([]byte(`"0.8"`))
	got := Check(String{Enum: []string{"0.9"}}, v, "the version")
	if len(got) != 1 || got[0].Msg != `the version is "0.8"; it must be "0.9"` {
		t.Errorf("got %v, want one problem without a guess", got)
	}
}

// checkText checks the JSON text against s and requires n problems.
func checkText(t *testing.T, s Shape, text, what string, n int) []Problem {
	t.Helper()
	v, errs := jsonsrc.Parse([]byte(text))
	if len(errs) > 0 {
		t.Fatalf("bad test JSON: %v", errs)
	}
	got := Check(s, v, what)
	if len(got) != n {
		t.Fatalf("got %d problems, want %d: %v", len(got), n, got)
	}
	return got
}

func TestTagged(t *testing.T) {
	clock := Object{Fields: []Field{
		{Name: "unit", Required: true, Shape: Tagged{Tag: "UNIT", Shape: String{NonEmpty: true}}},
		{Name: "modes", Required: true, Shape: Object{
			Rest: Tagged{Tag: "WORD", Shape: String{Enum: []string{"running", "paused"}}},
			Key: func(k string) string {
				if !kebab.MatchString(k) {
					return "is not kebab-case"
				}
				return ""
			}}},
		{Name: "inner", Shape: Tagged{Tag: "OUTER", Shape: Object{Fields: []Field{
			{Name: "x", Shape: Tagged{Tag: "INNER", Shape: Number{}}},
			{Name: "y", Shape: Number{}},
		}}}},
	}}
	for _, tc := range []struct {
		name, json string
		// want lists "text at the span|tag" for each problem.
		want []string
	}{
		{"valid", `{"unit": "s", "modes": {"play": "running"}}`, nil},
		{"missing tagged member", `{"modes": {"play": "running"}}`, []string{`{|UNIT`}},
		{"missing untagged member", `{"unit": "s"}`, []string{`{|`}},
		{"tagged value", `{"unit": "", "modes": {"play": "running"}}`, []string{`""|UNIT`}},
		{"tagged map value, untagged key", `{"unit": "s", "modes": {"play": "stop", "Pause": "paused"}}`, []string{`"stop"|WORD`, `"Pause"|`}},
		{"inner tag wins", `{"unit": "s", "modes": {"p": "paused"}, "inner": {"x": "a", "y": "b", "z": 1}}`, []string{`"a"|INNER`, `"b"|OUTER`, `"z"|OUTER`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkText(t, clock, tc.json, "the clock", len(tc.want))
			fs := Findings(got, "SHAPE", source.Error, "f")
			for i, w := range tc.want {
				text, tag, _ := strings.Cut(w, "|")
				if at := spanText(tc.json, got[i].Span); !strings.HasPrefix(at, text) {
					t.Errorf("problem %d at %q, want at %q", i, at, text)
				}
				if got[i].Tag != tag {
					t.Errorf("problem %d (%s) has tag %q, want %q", i, got[i].Msg, got[i].Tag, tag)
				}
				code := tag
				if code == "" {
					code = "SHAPE"
				}
				if fs[i].Code != code {
					t.Errorf("finding %d has code %s, want %s", i, fs[i].Code, code)
				}
			}
		})
	}
	// A Tagged shape with Both is reported under its tag and the file's
	// code; a tag inside it without Both keeps its own code alone.
	palette := Object{Rest: Tagged{Tag: "PALETTE", Both: true, Shape: Array{MinItems: 1,
		Elem: Tagged{Tag: "ENTRY", Shape: String{NonEmpty: true}}}}}
	for _, tc := range []struct{ json, want string }{
		{`{"a": ["x"]}`, ""},
		{`{"a": []}`, "PALETTE SCHEMA"},
		{`{"a": 3}`, "PALETTE SCHEMA"},
		{`{"a": [""]}`, "ENTRY"},
	} {
		v, errs := jsonsrc.Parse([]byte(tc.json))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		var got []string
		for _, f := range Findings(Check(palette, v, "the file"), "SCHEMA", source.Error, "f") {
			got = append(got, f.Code)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: codes %v, want %q", tc.json, got, tc.want)
		}
	}
	if got := Values(At(clock, []string{"modes", "play"})); strings.Join(got, ",") != "running,paused" {
		t.Errorf("Values through Tagged = %v", got)
	}
	if got := Missing(Tagged{Shape: clock}, nil); len(got) != 3 {
		t.Errorf("Missing through Tagged = %v", got)
	}
}

func TestCheckPartialTree(t *testing.T) {
	for _, text := range []string{`{"id`, `{"id": "a", "tags": [`, `{"tags": ["x",`, `{"modes": {"p"`} {
		v, _ := jsonsrc.Parse([]byte(text))
		Check(manifestLike, v, "the file") // must not panic
	}
}
