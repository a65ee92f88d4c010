package personalization

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

func read(t testing.TB, src string) *File {
	t.Helper()
	v, errs := jsonsrc.Parse([]byte(src))
	if len(errs) > 0 {
		t.Fatalf("bad test JSON %s: %v", src, errs)
	}
	return Parse("personalization.json", v)
}

// brief renders findings as "CODE⟪text at the span⟫", in order.
func brief(src string, fs []source.Finding) string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s⟪%s⟫", f.Code, src[f.Span.Start:f.Span.End]))
	}
	return strings.Join(out, " ")
}

const choice = `{"id": "pace", "prompt": "P?", "type": "choice", "options": [{"id": "slow", "label": "S", "sets": {"a.b": 1}}, {"id": "fast", "label": "F", "sets": {"a.b": 2, "o.x": 3}}], "default": "fast"}`

func TestFindings(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"valid", `{"questions": [` + choice + `, {"id": "n", "prompt": "N?", "type": "number", "default": 2, "sets": "o.x", "notes": ""}, {"id": "t", "prompt": "T?", "type": "text", "default": ""}]}`, ""},
		{"empty", `{"questions": []}`, ""},
		{"no questions", `{}`, `PERSONALIZATION_SCHEMA⟪{⟫`},
		{"top-level field", `{"questions": [], "resolution": 1}`, `PERSONALIZATION_SCHEMA⟪"resolution"⟫`},
		{"not an object", `[]`, `PERSONALIZATION_SCHEMA⟪[]⟫`},
		{"id with a space", `{"questions": [{"id": "a b", "prompt": "?", "type": "text", "default": ""}]}`, `PERSONALIZATION_SCHEMA⟪"a b"⟫`},
		{"id with a tab escape", `{"questions": [{"id": "a\tb", "prompt": "?", "type": "text", "default": ""}]}`, `PERSONALIZATION_SCHEMA⟪"a\tb"⟫`},
		{"id with an ideographic space", `{"questions": [{"id": "a　b", "prompt": "?", "type": "text", "default": ""}]}`, `PERSONALIZATION_SCHEMA⟪"a　b"⟫`},
		{"id with a zero-width joiner", `{"questions": [{"id": "a\u200db", "prompt": "?", "type": "text", "default": ""}]}`, ""},
		{"options on a number question", `{"questions": [{"id": "n", "prompt": "?", "type": "number", "default": 1, "options": [{"id": "a", "label": "A"}]}]}`, `PERSONALIZATION_SCHEMA⟪"options"⟫`},
		{"text default a number", `{"questions": [{"id": "t", "prompt": "?", "type": "text", "default": 1}]}`, `PERSONALIZATION_SCHEMA⟪1⟫`},
		{"default absent", `{"questions": [{"id": "t", "prompt": "?", "type": "text"}]}`, `PERSONALIZATION_SCHEMA⟪{⟫`},
		{"empty options", `{"questions": [{"id": "c", "prompt": "?", "type": "choice", "options": [], "default": "a"}]}`, `PERSONALIZATION_SCHEMA⟪[]⟫`},
		{"sets value not a number", `{"questions": [{"id": "c", "prompt": "?", "type": "choice", "options": [{"id": "a", "label": "A", "sets": {"a.b": null}}], "default": "a"}]}`, `PERSONALIZATION_SCHEMA⟪null⟫`},
		{"sets key with a reserved extension is in the grammar", `{"questions": [{"id": "n", "prompt": "?", "type": "number", "default": 1, "sets": "a.json"}]}`, ""},
		{"sets key ending in a hyphen", `{"questions": [{"id": "n", "prompt": "?", "type": "number", "default": 1, "sets": "a.b-"}]}`, `PERSONALIZATION_SCHEMA⟪"a.b-"⟫`},
		{"duplicate question", `{"questions": [{"id": "q", "prompt": "?", "type": "text", "default": ""}, {"id": "q", "prompt": "?", "type": "text", "default": ""}, {"id": "q", "prompt": "?", "type": "text", "default": ""}]}`,
			`PERSONALIZATION_QUESTION_ID⟪"q"⟫ PERSONALIZATION_QUESTION_ID⟪"q"⟫`},
		{"duplicate option", `{"questions": [{"id": "c", "prompt": "?", "type": "choice", "options": [{"id": "a", "label": "A"}, {"id": "a", "label": "B"}], "default": "a"}]}`, `PERSONALIZATION_OPTION_ID⟪"a"⟫`},
		{"default names no option", `{"questions": [{"id": "c", "prompt": "?", "type": "choice", "options": [{"id": "a", "label": "A"}], "default": "b"}]}`, `PERSONALIZATION_DEFAULT_OPTION⟪"b"⟫`},
		{"sets on a choice question", `{"questions": [{"id": "c", "prompt": "?", "type": "choice", "options": [{"id": "a", "label": "A"}], "default": "a", "sets": "a.b"}]}`, `PERSONALIZATION_SETS_TYPE⟪"sets"⟫`},
		{"sets on a text question", `{"questions": [{"id": "t", "prompt": "?", "type": "text", "default": "", "sets": "a.b"}]}`, `PERSONALIZATION_SETS_TYPE⟪"sets"⟫`},
		{"sets on a question without a type", `{"questions": [{"id": "t", "prompt": "?", "default": "", "sets": "a.b"}]}`, `PERSONALIZATION_SCHEMA⟪{⟫`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := read(t, tc.src)
			if got := brief(tc.src, f.Findings); got != tc.want {
				t.Errorf("findings\n got %s\nwant %s", got, tc.want)
			}
			for _, fd := range f.Findings {
				if fd.File != "personalization.json" || fd.Severity != source.Error || fd.Message == "" {
					t.Errorf("finding %+v: want an error with a message in personalization.json", fd)
				}
			}
		})
	}
}

func TestRelated(t *testing.T) {
	src := `{"questions": [{"id": "q", "prompt": "?", "type": "choice", "options": [{"id": "a", "label": "A"}, {"id": "a", "label": "B"}], "default": "b"}, {"id": "q", "prompt": "?", "type": "text", "default": ""}]}`
	f := read(t, src)
	want := map[string]string{
		CodeOptionID:      `"a"`,
		CodeDefaultOption: `"options"`,
		CodeQuestionID:    `"q"`,
	}
	for _, fd := range f.Findings {
		if len(fd.Related) != 1 {
			t.Errorf("%s: related %v, want one place", fd.Code, fd.Related)
			continue
		}
		r := fd.Related[0]
		if got := src[r.Span.Start:r.Span.End]; got != want[fd.Code] || r.Span.Start >= fd.Span.Start && fd.Code != CodeDefaultOption {
			t.Errorf("%s: related at %q (offset %d), want the earlier %s", fd.Code, got, r.Span.Start, want[fd.Code])
		}
	}
	if len(f.Findings) != 3 {
		t.Errorf("findings %v, want one of each code", f.Findings)
	}
	if msg := f.Findings[1].Message; !strings.Contains(msg, `did you mean "a"?`) {
		t.Errorf("default message %q: want a suggestion", msg)
	}
}

func TestModel(t *testing.T) {
	src := `{"questions": [` + choice + `, {"id": "n", "prompt": "N?", "type": "number", "default": 4, "sets": "o.x"}, {"id": "m", "prompt": "M?", "type": "number", "default": "x", "sets": "o.y"}, {"id": "t", "prompt": "T?", "type": "text", "default": "", "sets": "a.c"}, 7]}`
	f := read(t, src)
	if len(f.Questions) != 4 {
		t.Fatalf("%d questions, want 4 (the number is not one)", len(f.Questions))
	}
	q := f.Question("pace")
	if q == nil || q.Type != Choice || len(q.Options) != 2 || src[q.IDSpan.Start:q.IDSpan.End] != `"pace"` {
		t.Fatalf("question pace: %+v", q)
	}
	if o := q.DefaultOption(); o == nil || o.ID != "fast" || len(o.Sets) != 2 {
		t.Errorf("default option: %+v", o)
	}
	if f.Question("") != nil || f.Question("nope") != nil {
		t.Error("Question found a question that is not there")
	}
	if ids := f.IDs(); len(ids) != 4 || !ids["t"] {
		t.Errorf("IDs = %v", ids)
	}
	if got := strings.Join(f.QuestionIDs(), ","); got != "pace,n,m,t" {
		t.Errorf("QuestionIDs = %s", got)
	}
	describe := func(ts []Target) string {
		var out []string
		for _, t := range ts {
			s := t.Question.ID + ":" + t.Key
			if t.Option != nil {
				s = t.Question.ID + "/" + t.Option.ID + ":" + t.Key
			}
			if t.HasValue {
				s += "=" + src[t.ValueSpan.Start:t.ValueSpan.End]
			}
			out = append(out, s+"@"+src[t.KeySpan.Start:t.KeySpan.End])
		}
		return strings.Join(out, " ")
	}
	if got, want := describe(f.Targets()), `pace/slow:a.b=1@"a.b" pace/fast:a.b=2@"a.b" pace/fast:o.x=3@"o.x" n:o.x=4@"o.x" m:o.y@"o.y"`; got != want {
		t.Errorf("Targets\n got %s\nwant %s", got, want)
	}
	if got, want := describe(f.Defaults()), `pace/fast:a.b=2@"a.b" pace/fast:o.x=3@"o.x" n:o.x=4@"o.x"`; got != want {
		t.Errorf("Defaults\n got %s\nwant %s", got, want)
	}
}

func TestDuplicateSetsKey(t *testing.T) {
	src := `{"questions": [{"id": "c", "prompt": "?", "type": "choice", "options": [{"id": "a", "label": "A", "sets": {"a.b": 1, "a.b": 2}}], "default": "a"}]}`
	f := read(t, src)
	d := f.Defaults()
	if len(d) != 1 || d[0].Value != 2 {
		t.Errorf("Defaults = %+v, want the later a.b = 2 only", d)
	}
}

func TestAbsent(t *testing.T) {
	f := Parse("personalization.json", nil)
	if len(f.Questions) != 0 || len(f.Findings) != 0 || f.Targets() != nil || f.Defaults() != nil || len(f.IDs()) != 0 {
		t.Errorf("an absent file has content: %+v", f)
	}
}

func TestValidKey(t *testing.T) {
	for key, want := range map[string]bool{
		"a.b": true, "A_1.b-c.d": true, "1.2": true, "a": false, "a..b": false, ".a.b": false,
		"a.b.": false, "a.-b": false, "a.b c": false, "a.é": false, "": false,
	} {
		if got := ValidKey(key); got != want {
			t.Errorf("ValidKey(%q) = %v, want %v", key, got, want)
		}
	}
}

// FuzzParse reads arbitrary JSON: Parse never panics, every finding and
// every target lies inside the text, and the defaults are targets.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"questions": [` + choice + `]}`,
		`{"questions": [{"id": "n", "prompt": "?", "type": "number", "default": 1e400, "sets": "a.b"}]}`,
		`{"questions": [{"id": "c", "type": "choice", "options": [{"id": 1, "sets": {"": 1, "a.b": [1]}}, null], "default": {}}]}`,
		`{"questions": {"id": "x"}, "questions": [1]}`,
		`{"questions": [{"id": "q", "prompt": "?", "type": "text", "default": "", "sets": {"a.b": 1}, "options": 3}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, _ := jsonsrc.Parse(data)
		p := Parse("personalization.json", v)
		inside := func(what string, s source.Span) {
			if s.Start < 0 || s.End > len(data) || s.Start > s.End {
				t.Fatalf("%s at %v, outside the %d bytes", what, s, len(data))
			}
		}
		for _, fd := range p.Findings {
			inside(fd.Code, fd.Span)
			for _, r := range fd.Related {
				inside(fd.Code+" related", r.Span)
			}
		}
		targets := map[source.Span]bool{}
		for _, tg := range p.Targets() {
			inside("target "+tg.Key, tg.KeySpan)
			inside("value of "+tg.Key, tg.ValueSpan)
			if !ValidKey(tg.Key) {
				t.Fatalf("target %q is not a tuning key", tg.Key)
			}
			targets[tg.KeySpan] = true
		}
		for _, d := range p.Defaults() {
			if !targets[d.KeySpan] || !d.HasValue {
				t.Fatalf("default %+v is not a target with a number", d)
			}
		}
	})
}

// TestLastMemberCounts checks that a member written twice counts with its
// last value, as the JSON readers of validators take it.
func TestLastMemberCounts(t *testing.T) {
	src := `{"questions": [{"id": "c", "prompt": "?", "type": "number", "type": "choice", "options": [{"id": "a", "label": "A", "sets": {"a.b": "x", "a.b": 2}}], "default": "a"}]}`
	if f := read(t, src); len(f.Findings) != 0 || f.Questions[0].Type != Choice {
		t.Errorf("findings %v, type %q: want none and the last type", f.Findings, f.Questions[0].Type)
	}
}
