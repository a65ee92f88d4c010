package contracts

import (
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

// condAdoption declares two questions, an unconditional and a conditional
// value, and a row set with a required and a conditional field.
const condAdoption = `{
  "contract": "c", "version": 1, "origin": "o", "summary": "s", "mechanism": ["m"],
  "questions": {
    "mode": {"asks": "a", "options": {"fast": {"meaning": "m"}, "slow": {"meaning": "m"}}},
    "extra": {"asks": "a", "when": {"flag": {"mode": ["fast"]}}, "otherwise": "o", "options": {"yes": {"meaning": "m"}, "no": {"meaning": "m"}}}
  },
  "declares": {
    "values": {"base": {"description": "d", "forms": ["number", "citation"]}, "bonus": {"description": "d", "when": {"flag": {"mode": ["fast"]}}}},
    "rows": {"items": {"when-empty": "w", "record": {
      "id": {"type": "string", "required": true},
      "kind": {"type": "string", "required": true, "options": ["a", "b"]},
      "note": {"type": "string", "when": {"row": {"kind": ["a"]}}},
      "extra": {"type": "string"}
    }}}
  },
  "answers": {"mode": "fast", "extra": "yes"},
  "values": {"base": 3, "bonus": 1},
  "rows": {"items": [{"id": "one", "kind": "a", "note": "n"}, {"id": "two", "kind": "b"}]}
}`

func TestConditionWhereLegal(t *testing.T) {
	a := ParseAdoption("contracts/c.json", []byte(condAdoption))
	set := a.RowSet("items")
	cases := []struct {
		name string
		ctx  Context
		cond string
		ok   bool
		kind ProblemKind // of the first problem when !ok
	}{
		// Question when: exactly one of flag, value-form, row-count, any, all.
		{"question flag", InQuestion, `{"flag": {"mode": ["fast"]}}`, true, 0},
		{"question value-form", InQuestion, `{"value-form": {"base": ["number"]}}`, true, 0},
		{"question row-count", InQuestion, `{"row-count": {"items": "non-empty"}}`, true, 0},
		{"question any", InQuestion, `{"any": [{"flag": {"mode": ["fast"]}}, {"row-count": {"items": "empty"}}]}`, true, 0},
		{"question all", InQuestion, `{"all": [{"flag": {"mode": ["fast"]}}, {"value-form": {"base": ["citation"]}}]}`, true, 0},
		{"question row", InQuestion, `{"row": {"kind": ["a"]}}`, false, ProblemShape},
		{"question row-has", InQuestion, `{"row-has": {"items": {"kind": ["a"]}}}`, false, ProblemShape},
		{"question two forms", InQuestion, `{"flag": {"mode": ["fast"]}, "row-count": {"items": "empty"}}`, false, ProblemShape},
		{"question empty", InQuestion, `{}`, false, ProblemShape},
		{"question unknown key", InQuestion, `{"flags": {"mode": ["fast"]}}`, false, ProblemUnknownKey},
		{"question not object", InQuestion, `["flag"]`, false, ProblemShape},
		{"question flag undeclared", InQuestion, `{"flag": {"speed": ["fast"]}}`, false, ProblemReference},
		{"question flag bad option", InQuestion, `{"flag": {"mode": ["quick"]}}`, false, ProblemReference},
		{"question any flag undeclared", InQuestion, `{"any": [{"flag": {"speed": ["fast"]}}]}`, false, ProblemName},
		{"question value-form undeclared", InQuestion, `{"value-form": {"nothing": ["number"]}}`, false, ProblemName},
		{"question value-form conditional", InQuestion, `{"value-form": {"bonus": ["number"]}}`, false, ProblemName},
		{"question value-form bad form", InQuestion, `{"value-form": {"base": ["text"]}}`, false, ProblemShape},
		{"question row-count bad", InQuestion, `{"row-count": {"items": "many"}}`, false, ProblemShape},
		{"question row-count undeclared", InQuestion, `{"row-count": {"things": "empty"}}`, false, ProblemName},
		{"empty flag array", InQuestion, `{"flag": {"mode": []}}`, false, ProblemShape},
		{"empty flag map", InQuestion, `{"flag": {}}`, false, ProblemShape},
		{"any nested in all", InQuestion, `{"all": [{"any": [{"flag": {"mode": ["fast"]}}]}]}`, false, ProblemShape},
		{"any in any", InQuestion, `{"any": [{"any": [{"flag": {"mode": ["fast"]}}]}]}`, false, ProblemShape},
		{"empty any", InQuestion, `{"any": []}`, false, ProblemShape},
		{"row in any", InQuestion, `{"any": [{"row": {"kind": ["a"]}}]}`, false, ProblemShape},
		{"annotation ignored", InQuestion, `{"_why": "x", "flag": {"mode": ["fast"]}}`, true, 0},

		// Declaration when: also row-has, not nested.
		{"declaration row-has", InDeclaration, `{"row-has": {"items": {"kind": ["a"]}}}`, true, 0},
		{"declaration row-has in any", InDeclaration, `{"any": [{"row-has": {"items": {"kind": ["a"]}}}]}`, false, ProblemShape},
		{"declaration row-has conditional field", InDeclaration, `{"row-has": {"items": {"note": ["n"]}}}`, false, ProblemName},
		{"declaration row-has optional field", InDeclaration, `{"row-has": {"items": {"extra": ["n"]}}}`, false, ProblemName},
		{"declaration row-has two sets", InDeclaration, `{"row-has": {"items": {"kind": ["a"]}, "more": {"kind": ["a"]}}}`, false, ProblemShape},
		{"declaration row-has empty map", InDeclaration, `{"row-has": {"items": {}}}`, false, ProblemShape},
		{"declaration row-has undeclared set", InDeclaration, `{"row-has": {"things": {"kind": ["a"]}}}`, false, ProblemName},
		{"declaration row", InDeclaration, `{"row": {"kind": ["a"]}}`, false, ProblemShape},
		{"declaration flag undeclared", InDeclaration, `{"flag": {"speed": ["fast"]}}`, false, ProblemReference},

		// Field when: flag, row, or both; empty holds.
		{"field flag and row", InField, `{"flag": {"mode": ["fast"]}, "row": {"kind": ["a"]}}`, true, 0},
		{"field empty", InField, `{}`, true, 0},
		{"field value-form", InField, `{"value-form": {"base": ["number"]}}`, false, ProblemShape},
		{"field any", InField, `{"any": [{"flag": {"mode": ["fast"]}}]}`, false, ProblemShape},
		{"field row undeclared", InField, `{"row": {"size": ["a"]}}`, false, ProblemReference},
		{"field row empty values", InField, `{"row": {"kind": []}}`, false, ProblemShape},
		{"field unknown", InField, `{"rows": {"kind": ["a"]}}`, false, ProblemUnknownKey},

		// Templates.
		{"once flag", InOnceTemplate, `{"flag": {"mode": ["fast"]}}`, true, 0},
		{"once row", InOnceTemplate, `{"row": {"kind": ["a"]}}`, false, ProblemShape},
		{"per-row both", InPerRowTemplate, `{"flag": {"mode": ["fast"]}, "row": {"kind": ["a"]}}`, true, 0},
		{"per-row row-count", InPerRowTemplate, `{"row-count": {"items": "empty"}}`, false, ProblemShape},

		// Forbid: one flag, or any/all of flags.
		{"forbid flag", InForbid, `{"flag": {"mode": ["fast"], "extra": ["yes"]}}`, true, 0},
		{"forbid any flags", InForbid, `{"any": [{"flag": {"mode": ["fast"]}}, {"flag": {"extra": ["no"]}}]}`, true, 0},
		{"forbid all value-form", InForbid, `{"all": [{"flag": {"mode": ["fast"]}}, {"value-form": {"base": ["number"]}}]}`, false, ProblemShape},
		{"forbid row-count", InForbid, `{"row-count": {"items": "empty"}}`, false, ProblemShape},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, errs := jsonsrc.Parse([]byte(tc.cond))
			if len(errs) > 0 {
				t.Fatalf("bad fixture: %v", errs)
			}
			probs := CheckCondition(ParseCondition(v), tc.ctx, a, set)
			if tc.ok {
				if len(probs) > 0 {
					t.Fatalf("unexpected problems: %+v", probs)
				}
				return
			}
			if len(probs) == 0 {
				t.Fatalf("no problem reported")
			}
			if probs[0].Kind != tc.kind {
				t.Errorf("kind %v, want %v (%s)", probs[0].Kind, tc.kind, probs[0].Msg)
			}
			p := probs[0]
			if p.Span.Start < 0 || p.Span.End > len(tc.cond) || p.Span.Start >= p.Span.End {
				t.Errorf("bad span %v", p.Span)
			}
		})
	}
}

func TestEvaluate(t *testing.T) {
	a := ParseAdoption("contracts/c.json", []byte(condAdoption))
	if fs := Check(a, nil); len(fs) > 0 {
		t.Fatalf("fixture has findings:\n%s", dump(fs))
	}
	s := Evaluate(a, nil)
	if !s.Asked("mode") || !s.Asked("extra") {
		t.Errorf("both questions should be asked")
	}
	if ans, ok := s.Answer("extra"); !ok || ans != "yes" {
		t.Errorf("answer of extra = %q %v", ans, ok)
	}
	if !s.Active("bonus") {
		t.Errorf("bonus should be active")
	}
	if n, ok := s.Resolved("base"); !ok || n != 3 {
		t.Errorf("base resolved %v %v", n, ok)
	}
	rows := s.Rows("items")
	note := a.RowSet("items").Field("note")
	if !s.FieldRequired(rows[0], note) || s.FieldAllowed(rows[1], note) {
		t.Errorf("note applies to the first row only")
	}
	parse := func(src string) *Condition {
		v, _ := jsonsrc.Parse([]byte(src))
		return ParseCondition(v)
	}
	for _, tc := range []struct {
		cond string
		row  *Row
		want bool
	}{
		{`{"flag": {"mode": ["fast"]}}`, nil, true},
		{`{"flag": {"mode": ["slow"]}}`, nil, false},
		{`{"flag": {"extra": ["yes"]}, "row": {"kind": ["a"]}}`, rows[0], true},
		{`{"flag": {"extra": ["yes"]}, "row": {"kind": ["a"]}}`, rows[1], false},
		{`{"row": {"missing": ["a"]}}`, rows[0], false},
		{`{"row": {}}`, nil, true},
		{`{"value-form": {"base": ["number"]}}`, nil, true},
		{`{"value-form": {"base": ["citation"]}}`, nil, false},
		{`{"row-count": {"items": "at-least-two"}}`, nil, true},
		{`{"row-count": {"items": "empty"}}`, nil, false},
		{`{"any": [{"row-count": {"items": "empty"}}, {"flag": {"mode": ["fast"]}}]}`, nil, true},
		{`{"all": [{"row-count": {"items": "empty"}}, {"flag": {"mode": ["fast"]}}]}`, nil, false},
		{`{"all": [{"any": [{"flag": {"mode": ["fast"]}}]}]}`, nil, false},
		{`{"row-has": {"items": {"kind": ["b"]}}}`, nil, true},
		{`{"row-has": {"items": {"kind": ["c"]}}}`, nil, false},
	} {
		if got := s.Holds(parse(tc.cond), tc.row); got != tc.want {
			t.Errorf("Holds(%s) = %v, want %v", tc.cond, got, tc.want)
		}
	}
	if !s.HoldsFlag(parse(`{"flag": {"mode": ["fast"]}, "row": {"kind": ["z"]}}`)) {
		t.Errorf("HoldsFlag should ignore row")
	}
	// An answer recorded for a question that is not asked never satisfies a flag.
	b := ParseAdoption("contracts/c.json", []byte(strings.Replace(condAdoption, `"mode": "fast"`, `"mode": "slow"`, 1)))
	sb := Evaluate(b, nil)
	if sb.Asked("extra") || sb.Holds(parse(`{"flag": {"extra": ["yes"]}}`), nil) || sb.Active("bonus") {
		t.Errorf("extra is not asked when mode is slow")
	}
}
