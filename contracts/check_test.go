package contracts

import (
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/source"
)

// fakeResolver is a Resolver over fixed maps.
type fakeResolver struct {
	tuning     map[string]TuningTarget
	unreadable bool
	anchors    map[string]AnchorTarget // "file#anchor"
	adoptions  map[string]*Adoption
}

func (f *fakeResolver) TuningKey(key string) (TuningTarget, bool) {
	t, ok := f.tuning[key]
	return t, ok
}
func (f *fakeResolver) TuningReadable() bool { return !f.unreadable }
func (f *fakeResolver) Anchor(file, anchor string) AnchorTarget {
	if strings.HasPrefix(file, "../") || strings.HasPrefix(file, "/") {
		return AnchorTarget{Outside: true}
	}
	if t, ok := f.anchors[file+"#"+anchor]; ok {
		return t
	}
	return AnchorTarget{FileExists: file == "02-mechanics.md"}
}
func (f *fakeResolver) Adoption(id string) *Adoption { return f.adoptions[id] }

var heading = source.Related{File: "02-mechanics.md", Span: source.Span{Start: 10, End: 20}}

func resolver() *fakeResolver {
	return &fakeResolver{
		tuning: map[string]TuningTarget{
			"combat.cap":      {HasNumber: true, Number: 50},
			"combat.big":      {HasNumber: true, Number: 5000},
			"combat.guess":    {Open: true, HasNumber: true, Number: 3},
			"combat.nothing":  {Open: true},
			"combat.strange":  {},
			"combat.duration": {HasNumber: true, Number: 3},
		},
		anchors: map[string]AnchorTarget{
			"02-mechanics.md#poison":  {FileExists: true, Matches: []source.Related{heading}, Fixed: true},
			"02-mechanics.md#twice":   {FileExists: true, Matches: []source.Related{heading, heading}, Fixed: true},
			"02-mechanics.md#delegee": {FileExists: true, Matches: []source.Related{heading}, NotFixedBecause: &heading},
		},
		adoptions: map[string]*Adoption{},
	}
}

// adopt builds an adoption file from a definition part and a designer
// part, each a list of top-level members without braces.
func adopt(defn, designer string) string {
	return `{
  "contract": "meter",
  "version": 1,
  "origin": "https://catalog.example/meter-1",
  "summary": "A bounded number.",
  "mechanism": ["The number stays inside its limits."],
  ` + defn + `,
  ` + designer + `
}`
}

const (
	qOverflow = `"questions": {
    "overflow": {"asks": "What happens past a limit?", "options": {"clamp": {"meaning": "Stops."}, "refuse": {"meaning": "No change."}}}
  }`
	dMax  = `"declares": {"values": {"maximum": {"description": "Top.", "range": [1, 999]}}}`
	basic = qOverflow + `, ` + dMax
	// A definition with a conditional question and a conditional value.
	condDefn = `"questions": {
    "overflow": {"asks": "What happens past a limit?", "options": {"clamp": {"meaning": "Stops."}, "refuse": {"meaning": "No change."}}},
    "refund": {"asks": "Is the change refunded?", "when": {"flag": {"overflow": ["refuse"]}}, "otherwise": "Nothing is refunded.",
      "options": {"yes": {"meaning": "Refunded."}, "no": {"meaning": "Lost."}}}
  },
  "declares": {"values": {
    "maximum": {"description": "Top.", "range": [1, 999]},
    "cap": {"description": "Cap.", "when": {"flag": {"overflow": ["clamp"]}}}
  }}`
	// A definition with one row set.
	rowsDefn = `"questions": {},
  "declares": {
    "values": {"maximum": {"description": "Top."}},
    "rows": {"windows": {"record": {
      "id": {"type": "string", "required": true, "pattern": "kebab-case", "unique": true},
      "unit": {"type": "string", "required": true, "options": ["seconds", "turns"]},
      "pause": {"type": "string", "when": {"row": {"unit": ["seconds"]}}, "options": ["stops", "runs"]},
      "length": {"type": "number", "within": [1, "maximum"]},
      "opens-at": {"type": "citation"}
    }}}
  }`
)

type codeCase struct {
	name      string
	file      string
	data      string
	code      string
	severity  source.Severity
	text      string // exact source text under the span
	dependent bool
	silent    string // a near miss that must not raise code
}

func run(t *testing.T, file, data string, r Resolver) []source.Finding {
	t.Helper()
	if file == "" {
		file = "contracts/meter.json"
	}
	a := ParseAdoption(file, []byte(data))
	fs := Check(a, r)
	for _, f := range fs {
		if f.Span.Start < 0 || f.Span.End > len(data) || f.Span.Start > f.Span.End {
			t.Fatalf("span out of bounds: %v", f)
		}
	}
	return fs
}

func TestCodes(t *testing.T) {
	cases := []codeCase{
		{name: "json", data: `{"contract": "meter",, "version": 1}`, code: "CONTRACT_INSTANCE_JSON", text: ",",
			silent: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`)},
		{name: "filename", file: "contracts/Meter.json", data: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`),
			code: "CONTRACT_INSTANCE_FILENAME", text: ""},
		{name: "filename dot", file: "contracts/meter.v2.json", data: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`),
			code: "CONTRACT_INSTANCE_FILENAME", text: ""},
		{name: "required top", data: `{"contract": "meter", "version": 1, "origin": "o", "mechanism": ["m"], ` + basic + `, "answers": {"overflow": "clamp"}, "values": {"maximum": 5}}`,
			code: "CONTRACT_ENVELOPE_REQUIRED", text: "{",
			silent: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`)},
		{name: "required asks", data: adopt(`"questions": {"overflow": {"options": {"clamp": {"meaning": "m"}}}}, `+dMax, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`),
			code: "CONTRACT_ENVELOPE_REQUIRED", text: `"overflow"`},
		{name: "unknown", data: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}, "format": 2`),
			code: "CONTRACT_ENVELOPE_UNKNOWN", text: `"format"`,
			silent: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}, "_format": 2`)},
		{name: "type empty summary", data: strings.Replace(adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`), `"A bounded number."`, `""`, 1),
			code: "CONTRACT_ENVELOPE_TYPE", text: `""`},
		{name: "type empty options", data: adopt(`"questions": {"overflow": {"asks": "a", "options": {}}}, `+dMax, `"answers": {}, "values": {"maximum": 5}`),
			code: "CONTRACT_ENVELOPE_TYPE", text: `{}`},
		{name: "type field type", data: adopt(strings.Replace(rowsDefn, `"type": "number"`, `"type": "grid"`, 1), `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`),
			code: "CONTRACT_ENVELOPE_TYPE", text: `"grid"`,
			silent: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`)},
		{name: "origin", data: strings.Replace(adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`), `"origin": "https://catalog.example/meter-1",`, ``, 1),
			code: "CONTRACT_ORIGIN_ABSENT", severity: source.Warning, text: `"contract"`,
			silent: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`)},
		{name: "name grammar", data: adopt(strings.Replace(basic, `"overflow": {`, `"Overflow": {`, 1), `"answers": {"Overflow": "clamp"}, "values": {"maximum": 5}`),
			code: "CONTRACT_NAME_GRAMMAR", text: `"Overflow"`,
			silent: adopt(strings.Replace(basic, `"overflow": {`, `"over-flow": {`, 1), `"answers": {"over-flow": "clamp"}, "values": {"maximum": 5}`)},
		{name: "name grammar value reserved", data: adopt(qOverflow+`, "declares": {"values": {"not": {"description": "d"}}}`, `"answers": {"overflow": "clamp"}, "values": {"not": 1}`),
			code: "CONTRACT_NAME_GRAMMAR", text: `"not"`},
		{name: "name grammar row pattern", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "Poison", "unit": "turns"}]}`),
			code: "CONTRACT_NAME_GRAMMAR", text: `"Poison"`,
			silent: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns"}]}`)},
		{name: "question condition", data: adopt(strings.Replace(condDefn, `"when": {"flag": {"overflow": ["refuse"]}}`, `"when": {"row": {"overflow": ["refuse"]}}`, 1),
			`"answers": {"overflow": "refuse"}, "values": {"maximum": 5}`),
			code: "CONTRACT_QUESTION_CONDITION", text: `"row"`,
			silent: adopt(condDefn, `"answers": {"overflow": "refuse", "refund": "yes"}, "values": {"maximum": 5}`)},
		{name: "question cycle", data: adopt(`"questions": {
    "a": {"asks": "A?", "when": {"flag": {"b": ["x"]}}, "options": {"x": {"meaning": "m"}}},
    "b": {"asks": "B?", "when": {"flag": {"a": ["x"]}}, "options": {"x": {"meaning": "m"}}}
  }, "declares": {}`, `"answers": {"a": "x", "b": "x"}, "values": {}`),
			code: "CONTRACT_QUESTION_CYCLE", text: `"b"`,
			silent: adopt(`"questions": {
    "a": {"asks": "A?", "options": {"x": {"meaning": "m"}}},
    "b": {"asks": "B?", "when": {"flag": {"a": ["x"]}}, "options": {"x": {"meaning": "m"}}}
  }, "declares": {}`, `"answers": {"a": "x", "b": "x"}, "values": {}`)},
		{name: "question otherwise", data: adopt(strings.Replace(condDefn, `"otherwise": "Nothing is refunded.",`, ``, 1),
			`"answers": {"overflow": "refuse", "refund": "yes"}, "values": {"maximum": 5}`),
			code: "CONTRACT_QUESTION_OTHERWISE", text: `"refund"`,
			silent: adopt(condDefn, `"answers": {"overflow": "refuse", "refund": "yes"}, "values": {"maximum": 5}`)},
		{name: "question otherwise empty", data: adopt(strings.Replace(condDefn, `"Nothing is refunded."`, `""`, 1),
			`"answers": {"overflow": "refuse", "refund": "yes"}, "values": {"maximum": 5}`),
			code: "CONTRACT_QUESTION_OTHERWISE", text: `""`},
		{name: "answer missing", data: adopt(basic, `"answers": {}, "values": {"maximum": 5}`),
			code: "CONTRACT_ANSWER_MISSING", text: `"answers"`,
			silent: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`)},
		{name: "answer unknown", data: adopt(basic, `"answers": {"overflow": "spill"}, "values": {"maximum": 5}`),
			code: "CONTRACT_ANSWER_UNKNOWN", text: `"spill"`,
			silent: adopt(basic, `"answers": {"overflow": "refuse"}, "values": {"maximum": 5}`)},
		{name: "answer unknown question", data: adopt(basic, `"answers": {"overflow": "clamp", "underflow": "clamp"}, "values": {"maximum": 5}`),
			code: "CONTRACT_ANSWER_UNKNOWN", text: `"underflow"`},
		{name: "answer not asked", data: adopt(condDefn, `"answers": {"overflow": "clamp", "refund": "yes"}, "values": {"maximum": 5, "cap": 3}`),
			code: "CONTRACT_ANSWER_NOT_ASKED", severity: source.Warning, text: `"refund"`,
			silent: adopt(condDefn, `"answers": {"overflow": "refuse", "refund": "yes"}, "values": {"maximum": 5}`)},
		{name: "value condition", data: adopt(strings.Replace(condDefn, `"when": {"flag": {"overflow": ["clamp"]}}`, `"when": {"flag": {"overflow": ["spill"]}}`, 1),
			`"answers": {"overflow": "refuse", "refund": "yes"}, "values": {"maximum": 5}`),
			code: "CONTRACT_VALUE_CONDITION", text: `"spill"`,
			silent: adopt(condDefn, `"answers": {"overflow": "refuse", "refund": "yes"}, "values": {"maximum": 5}`)},
		{name: "value form", data: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "forms": ["text"]}}}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`),
			code: "CONTRACT_VALUE_FORM", text: `["text"]`,
			silent: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "forms": ["number", "citation"]}}}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`)},
		{name: "value type", data: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": true}`),
			code: "CONTRACT_VALUE_TYPE", text: `true`,
			silent: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 7}`)},
		{name: "value type citation not accepted", data: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": "combat.cap"}`),
			code: "CONTRACT_VALUE_TYPE", text: `"combat.cap"`},
		{name: "value missing", data: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {}`),
			code: "CONTRACT_VALUE_MISSING", text: `"values"`,
			silent: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 7}`)},
		{name: "value inactive", data: adopt(condDefn, `"answers": {"overflow": "refuse", "refund": "no"}, "values": {"maximum": 5, "cap": 3}`),
			code: "CONTRACT_VALUE_INACTIVE", text: `"cap"`,
			silent: adopt(condDefn, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5, "cap": 3}`)},
		{name: "value inactive dependent", data: adopt(condDefn, `"answers": {}, "values": {"maximum": 5, "cap": 3}`),
			code: "CONTRACT_VALUE_INACTIVE", text: `"cap"`, dependent: true},
		{name: "value unknown", data: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5, "maximun": 5}`),
			code: "CONTRACT_VALUE_UNKNOWN", text: `"maximun"`,
			silent: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5, "_maximun": 5}`)},
		{name: "value range", data: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 1000}`),
			code: "CONTRACT_VALUE_RANGE", text: `1000`,
			silent: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 999}`)},
		{name: "value range citation", data: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "range": [1, 999], "forms": ["citation"]}}}`,
			`"answers": {"overflow": "clamp"}, "values": {"maximum": "combat.big"}`),
			code: "CONTRACT_VALUE_RANGE", text: `"combat.big"`,
			silent: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "range": [1, 999], "forms": ["citation"]}}}`,
				`"answers": {"overflow": "clamp"}, "values": {"maximum": "combat.cap"}`)},
		{name: "value range shape", data: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "range": [9, 1]}}}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`),
			code: "CONTRACT_VALUE_RANGE", text: `[9, 1]`},
		{name: "name unique", data: adopt(qOverflow+`, "declares": {"values": {"overflow": {"description": "d"}}}`, `"answers": {"overflow": "clamp"}, "values": {"overflow": 5}`),
			code: "CONTRACT_NAME_UNIQUE", text: `"overflow"`,
			silent: adopt(basic, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`)},
		{name: "rows shape", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": 5}`),
			code: "CONTRACT_ROWS_SHAPE", text: `5`,
			silent: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`)},
		{name: "rows shape row", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": ["poison"]}`),
			code: "CONTRACT_ROWS_SHAPE", text: `"poison"`},
		{name: "rows binding", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {}`),
			code: "CONTRACT_ROWS_BINDING", text: `"rows"`,
			silent: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`)},
		{name: "rows binding extra", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [], "doors": []}`),
			code: "CONTRACT_ROWS_BINDING", text: `"doors"`},
		{name: "row field shape", data: adopt(strings.Replace(rowsDefn, `"when": {"row"`, `"required": false, "when": {"row"`, 1), `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`),
			code: "CONTRACT_ROW_FIELD_SHAPE", text: `"required"`,
			silent: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`)},
		{name: "row field shape within order", data: adopt(strings.Replace(rowsDefn, `[1, "maximum"]`, `[9, 2]`, 1), `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`),
			code: "CONTRACT_ROW_FIELD_SHAPE", text: `[9, 2]`},
		{name: "row field shape within resolved", data: adopt(strings.Replace(rowsDefn, `[1, "maximum"]`, `["maximum", 2]`, 1), `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`),
			code: "CONTRACT_ROW_FIELD_SHAPE", text: `["maximum", 2]`},
		{name: "row field missing", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"unit": "turns"}]}`),
			code: "CONTRACT_ROW_FIELD", text: `{`,
			silent: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns"}]}`)},
		{name: "row field undeclared", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "colour": "red"}]}`),
			code: "CONTRACT_ROW_FIELD", text: `"colour"`},
		{name: "row field when not holding", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "pause": "stops"}]}`),
			code: "CONTRACT_ROW_FIELD", text: `"pause"`,
			silent: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "seconds", "pause": "stops"}]}`)},
		{name: "row field when holding missing", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "seconds"}]}`),
			code: "CONTRACT_ROW_FIELD", text: `{`},
		{name: "row field type", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "length": "long"}]}`),
			code: "CONTRACT_ROW_FIELD", text: `"long"`},
		{name: "row field unique", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns"}, {"id": "poison", "unit": "seconds", "pause": "runs"}]}`),
			code: "CONTRACT_ROW_FIELD", text: `"poison"`,
			silent: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns"}, {"id": "stun", "unit": "seconds", "pause": "runs"}]}`)},
		{name: "row choice", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "weeks"}]}`),
			code: "CONTRACT_ROW_CHOICE", text: `"weeks"`,
			silent: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns"}]}`)},
		{name: "row range", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "length": 6}]}`),
			code: "CONTRACT_ROW_RANGE", text: `6`,
			silent: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "length": 5}]}`)},
		{name: "row when empty", data: adopt(strings.Replace(rowsDefn, `"maximum": {"description": "Top."}`, `"maximum": {"description": "Top.", "forms": ["number"]}`, 1),
			`"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`),
			code: "CONTRACT_ROW_WHEN_EMPTY", text: `"windows"`,
			silent: adopt(strings.Replace(strings.Replace(rowsDefn, `"maximum": {"description": "Top."}`, `"maximum": {"description": "Top.", "forms": ["number"]}`, 1),
				`"windows": {"record"`, `"windows": {"when-empty": "No window exists.", "record"`, 1),
				`"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`)},
		{name: "rule invalid name", data: adopt(basic+`, "rules": {"top": "maximum > minimum"}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`),
			code: "CONTRACT_RULE_INVALID", text: `minimum`,
			silent: adopt(basic+`, "rules": {"top": "maximum > 1"}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`)},
		{name: "rule invalid syntax", data: adopt(basic+`, "rules": {"top": "maximum >"}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`),
			code: "CONTRACT_RULE_INVALID"},
		{name: "rule invalid rule name", data: adopt(basic+`, "rules": {"Top": "maximum > 1"}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`),
			code: "CONTRACT_RULE_INVALID", text: `"Top"`},
		{name: "rule invalid missing value", data: adopt(basic+`, "rules": {"top": "maximum > 1"}`, `"answers": {"overflow": "clamp"}, "values": {}`),
			code: "CONTRACT_RULE_INVALID", text: `"maximum > 1"`, dependent: true},
		{name: "rule invalid forbid", data: adopt(basic+`, "rules": {"no": {"forbid": {"row": {"x": ["y"]}}, "message": "m"}}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`),
			code: "CONTRACT_RULE_INVALID", text: `"row"`},
		{name: "rule failed", data: adopt(basic+`, "rules": {"top": "maximum > 200"}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": 100}`),
			code: "CONTRACT_RULE_FAILED", text: `"maximum > 200"`,
			silent: adopt(basic+`, "rules": {"top": "maximum > 200"}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": 300}`)},
		{name: "rule forbidden", data: adopt(basic+`, "rules": {"no-clamp": {"forbid": {"flag": {"overflow": ["clamp"]}}, "message": "Clamping is not supported here.", "severity": "warning"}}`,
			`"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`),
			code: "CONTRACT_RULE_FORBIDDEN", severity: source.Warning, text: `"clamp"`,
			silent: adopt(basic+`, "rules": {"no-clamp": {"forbid": {"flag": {"overflow": ["clamp"]}}, "message": "Clamping is not supported here.", "severity": "warning"}}`,
				`"answers": {"overflow": "refuse"}, "values": {"maximum": 5}`)},
		{name: "citation grammar", data: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "forms": ["citation"]}}}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": "contracts.meter"}`),
			code: "CONTRACT_CITATION_GRAMMAR", text: `"contracts.meter"`,
			silent: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "forms": ["citation"]}}}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": "combat.cap"}`)},
		{name: "citation grammar colon", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "opens-at": "tuning:combat.cap"}]}`),
			code: "CONTRACT_CITATION_GRAMMAR", text: `"tuning:combat.cap"`},
		{name: "citation dangling", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "opens-at": "02-mechanics.md#poision"}]}`),
			code: "CONTRACT_CITATION_DANGLING", text: `"02-mechanics.md#poision"`,
			silent: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "opens-at": "02-mechanics.md#poison"}]}`)},
		{name: "citation dangling outside", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "opens-at": "../x.md#poison"}]}`),
			code: "CONTRACT_CITATION_DANGLING", text: `"../x.md#poison"`},
		{name: "citation dangling tuning", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "opens-at": "combat.nope"}]}`),
			code: "CONTRACT_CITATION_DANGLING", text: `"combat.nope"`},
		{name: "citation dangling unsupplied", data: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "forms": ["citation"]}, "minimum": {"description": "d"}}}`,
			`"answers": {"overflow": "clamp"}, "values": {"maximum": "contracts.meter.minimum"}`),
			code: "CONTRACT_CITATION_DANGLING", text: `"contracts.meter.minimum"`, dependent: true,
			silent: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "forms": ["citation"]}, "minimum": {"description": "d"}}}`,
				`"answers": {"overflow": "clamp"}, "values": {"maximum": "contracts.meter.minimum", "minimum": 3}`)},
		{name: "citation ambiguous", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "opens-at": "02-mechanics.md#twice"}]}`),
			code: "CONTRACT_CITATION_AMBIGUOUS", text: `"02-mechanics.md#twice"`},
		{name: "citation authority", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "opens-at": "02-mechanics.md#delegee"}]}`),
			code: "CONTRACT_CITATION_AUTHORITY", text: `"02-mechanics.md#delegee"`},
		{name: "citation open", data: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "forms": ["citation"]}}}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": "combat.guess"}`),
			code: "CONTRACT_CITATION_OPEN", text: `"combat.guess"`},
		{name: "citation open row", data: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "opens-at": "combat.guess"}]}`),
			code: "CONTRACT_CITATION_OPEN", text: `"combat.guess"`,
			silent: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "opens-at": "combat.cap"}]}`)},
		{name: "citation non numeric", data: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "forms": ["citation"]}}}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": "combat.strange"}`),
			code: "CONTRACT_CITATION_NON_NUMERIC", text: `"combat.strange"`},
		{name: "citation cross adoption", data: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "forms": ["citation"]}}}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": "contracts.other.maximum"}`),
			code: "CONTRACT_CITATION_CROSS_ADOPTION", text: `"contracts.other.maximum"`},
		{name: "citation cycle", data: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "forms": ["citation"]}, "minimum": {"description": "d", "forms": ["citation"]}}}`,
			`"answers": {"overflow": "clamp"}, "values": {"maximum": "contracts.meter.minimum", "minimum": "contracts.meter.maximum"}`),
			code: "CONTRACT_CITATION_CYCLE", text: `"contracts.meter.minimum"`,
			silent: adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "forms": ["citation"]}, "minimum": {"description": "d", "forms": ["citation"]}}}`,
				`"answers": {"overflow": "clamp"}, "values": {"maximum": "contracts.meter.minimum", "minimum": "combat.cap"}`)},
		{name: "reference field flag", data: adopt(strings.Replace(rowsDefn, `"when": {"row": {"unit": ["seconds"]}}`, `"when": {"flag": {"speed": ["fast"]}}`, 1),
			`"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`),
			code: "CONTRACT_REFERENCE", text: `"speed"`,
			silent: adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`)},
		{name: "reference field row", data: adopt(strings.Replace(rowsDefn, `"when": {"row": {"unit": ["seconds"]}}`, `"when": {"row": {"units": ["seconds"]}}`, 1),
			`"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`),
			code: "CONTRACT_REFERENCE", text: `"units"`},
		{name: "reference within", data: adopt(strings.Replace(rowsDefn, `[1, "maximum"]`, `[1, "maximal"]`, 1),
			`"answers": {}, "values": {"maximum": 5}, "rows": {"windows": []}`),
			code: "CONTRACT_REFERENCE", text: `"maximal"`},
		{name: "reference question flag", data: adopt(strings.Replace(condDefn, `"when": {"flag": {"overflow": ["refuse"]}}`, `"when": {"flag": {"overfow": ["refuse"]}}`, 1),
			`"answers": {"overflow": "refuse"}, "values": {"maximum": 5}`),
			code: "CONTRACT_REFERENCE", text: `"overfow"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(t, tc.file, tc.data, resolver())
			var got *source.Finding
			for i := range fs {
				if fs[i].Code == tc.code {
					got = &fs[i]
					break
				}
			}
			if got == nil {
				t.Fatalf("no %s; got:\n%s", tc.code, dump(fs))
			}
			if got.Severity != tc.severity {
				t.Errorf("severity %v, want %v", got.Severity, tc.severity)
			}
			if tc.text != "" || tc.code == "CONTRACT_INSTANCE_FILENAME" {
				if s := tc.data[got.Span.Start:got.Span.End]; s != tc.text {
					t.Errorf("span text %q, want %q (%s)", s, tc.text, got)
				}
			}
			if got.Dependent != tc.dependent {
				t.Errorf("dependent %v, want %v (%s)", got.Dependent, tc.dependent, got)
			}
			if got.Message == "" {
				t.Errorf("empty message")
			}
			if tc.silent != "" {
				for _, f := range run(t, tc.file, tc.silent, resolver()) {
					if f.Code == tc.code {
						t.Errorf("near miss raised %s", f)
					}
				}
			}
		})
	}
}

func dump(fs []source.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.String())
		b.WriteString("\n")
	}
	return b.String()
}

// TestCleanAdoptions checks that well-formed adoptions raise nothing.
func TestCleanAdoptions(t *testing.T) {
	for _, data := range []string{
		adopt(basic+`, "rules": {"top": "maximum >= 1"}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5}`),
		adopt(condDefn, `"answers": {"overflow": "refuse", "refund": "no"}, "values": {"maximum": 5}`),
		adopt(condDefn, `"answers": {"overflow": "clamp"}, "values": {"maximum": 5, "cap": 2}`),
		adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [
			{"id": "poison", "unit": "turns", "length": 3, "opens-at": "02-mechanics.md#poison"},
			{"id": "stun", "unit": "seconds", "pause": "stops", "opens-at": "contracts.meter.maximum"}]}`),
	} {
		if fs := run(t, "", data, resolver()); len(fs) > 0 {
			t.Errorf("unexpected findings:\n%s\nin %s", dump(fs), data)
		}
	}
}

// TestNoResolver checks that citations are left alone without a resolver.
func TestNoResolver(t *testing.T) {
	data := adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unit": "turns", "opens-at": "02-mechanics.md#nowhere"}]}`)
	if fs := run(t, "", data, nil); len(fs) > 0 {
		t.Errorf("unexpected findings:\n%s", dump(fs))
	}
	r := resolver()
	r.unreadable = true
	data = adopt(qOverflow+`, "declares": {"values": {"maximum": {"description": "d", "forms": ["citation"]}}}`, `"answers": {"overflow": "clamp"}, "values": {"maximum": "combat.nope"}`)
	if fs := run(t, "", data, r); len(fs) > 0 {
		t.Errorf("unreadable tuning: unexpected findings:\n%s", dump(fs))
	}
}

// TestSeed checks the seed adoption shape parses clean.
func TestSeedShape(t *testing.T) {
	data := `{
  "contract": "timed-window", "version": 2, "origin": "https://catalog.example/timed-window-2",
  "summary": "Windows.", "mechanism": ["Each row is a window."], "questions": {},
  "declares": {"rows": {"windows": {"description": "d", "record": {
    "id": {"type": "string", "required": true, "pattern": "kebab-case", "unique": true},
    "duration": {"type": "citation", "required": true},
    "on-retrigger": {"type": "string", "required": true, "options": ["ignore", "extend-to-cap"]},
    "retrigger-cap": {"type": "citation", "when": {"row": {"on-retrigger": ["extend-to-cap"]}}}
  }}}},
  "pack": "sha256:17a5a688b1156f0eb450003d53e006d9d200942120d829376abff01587728044",
  "answers": {}, "values": {},
  "rows": {"windows": [{"id": "poison", "duration": "combat.duration", "on-retrigger": "extend-to-cap", "retrigger-cap": "combat.cap"}]},
  "verification": {"declared-window-set": {"scope": "the poison window"}}
}`
	if fs := run(t, "contracts/timed-window.json", data, resolver()); len(fs) > 0 {
		t.Errorf("unexpected findings:\n%s", dump(fs))
	}
	a := ParseAdoption("contracts/timed-window.json", []byte(data))
	if a.Identity() != "timed-window-2" || a.ID != "timed-window" {
		t.Errorf("identity %q id %q", a.Identity(), a.ID)
	}
	st := Evaluate(a, nil)
	rows := st.Rows("windows")
	if len(rows) != 1 {
		t.Fatalf("rows: %d", len(rows))
	}
	cap := a.RowSet("windows").Field("retrigger-cap")
	if !st.FieldRequired(rows[0], cap) {
		t.Errorf("retrigger-cap should be required for this row")
	}
}

func TestForbiddenRelatedAndRuleRefs(t *testing.T) {
	data := adopt(condDefn+`, "rules": {
    "no-refund": {"forbid": {"all": [{"flag": {"overflow": ["refuse"]}}, {"flag": {"refund": ["yes"]}}]}, "message": "Refusing and refunding clash."},
    "cap-below-top": "cap < maximum"
  }`, `"answers": {"overflow": "refuse", "refund": "yes"}, "values": {"maximum": 5}`)
	a := ParseAdoption("contracts/meter.json", []byte(data))
	var got *source.Finding
	fs := Check(a, resolver())
	for i := range fs {
		if fs[i].Code == "CONTRACT_RULE_FORBIDDEN" {
			got = &fs[i]
		}
	}
	if got == nil || got.Severity != source.Error || got.Message != "Refusing and refunding clash." {
		t.Fatalf("forbidden not reported right:\n%s", dump(fs))
	}
	if data[got.Span.Start:got.Span.End] != `"refuse"` || len(got.Related) != 2 || data[got.Related[0].Span.Start:got.Related[0].Span.End] != `"yes"` {
		t.Errorf("spans: %s related %+v", got, got.Related)
	}
	// cap is inactive, so the comparison is skipped (SPEC §10.6 rule 2).
	for _, f := range fs {
		if strings.HasPrefix(f.Code, "CONTRACT_RULE_") && f.Code != "CONTRACT_RULE_FORBIDDEN" {
			t.Errorf("unexpected %s", f)
		}
	}
	refs := a.RuleRefs(a.Rules[1])
	if len(refs) != 2 || data[refs[0].Span.Start:refs[0].Span.End] != "cap" || data[refs[1].Span.Start:refs[1].Span.End] != "maximum" {
		t.Errorf("RuleRefs: %+v", refs)
	}
	if e := Evaluate(a, nil).Explain(a.Declaration("cap").When); !strings.Contains(e, "clamp") {
		t.Errorf("Explain: %q", e)
	}
}

func TestRowFieldDependent(t *testing.T) {
	// The row lacks the required "unit", so "pause" (when unit is seconds)
	// cannot be judged: the finding on it is dependent.
	data := adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "pause": "stops"}]}`)
	var dep, missing bool
	for _, f := range run(t, "", data, resolver()) {
		if f.Code == "CONTRACT_ROW_FIELD" && data[f.Span.Start:f.Span.End] == `"pause"` {
			dep = f.Dependent
		}
		if f.Code == "CONTRACT_ROW_FIELD" && data[f.Span.Start:f.Span.End] == `{` && !f.Dependent {
			missing = true
		}
	}
	if !dep || !missing {
		t.Errorf("want a dependent finding on pause and a plain one on the row: dep=%v missing=%v", dep, missing)
	}
}

// TestRowFieldSuggestion: a row field the row set does not declare is
// reported with the declared name nearest to it.
func TestRowFieldSuggestion(t *testing.T) {
	data := adopt(rowsDefn, `"answers": {}, "values": {"maximum": 5}, "rows": {"windows": [{"id": "poison", "unti": "turns"}]}`)
	for _, f := range run(t, "", data, resolver()) {
		if f.Code == "CONTRACT_ROW_FIELD" && data[f.Span.Start:f.Span.End] == `"unti"` {
			if want := `"unti" is not a field of row set "windows"; did you mean "unit"?`; f.Message != want {
				t.Errorf("message %q, want %q", f.Message, want)
			}
			return
		}
	}
	t.Error("no finding on the undeclared field")
}

// TestDefinitionMessages pins the wording of findings on a definition's
// questions, options, values, row sets and fields, whose descriptions the
// parse words only when it reports one.
func TestDefinitionMessages(t *testing.T) {
	defn := strings.NewReplacer(
		`"questions": {}`, `"questions": {"mode": {"asks": "", "rationale": 3, "extra": 1, "options": {"fast": {"meaning": "", "odd": true}, "slow": 5}}}`,
		`"maximum": {"description": "Top."}`, `"maximum": {"description": "", "range": [5, 1]}`,
		`"rows": {"windows": {"record": {`, `"rows": {"windows": {"descriptio": 1, "record": {`,
		`"unique": true}`, `"unique": 1, "colour": "red"}`,
	).Replace(rowsDefn)
	data := adopt(defn, `"answers": {"mode": "fast"}, "values": {"maximum": 5}, "rows": {"windows": []}`)
	got := map[string]bool{}
	for _, f := range run(t, "", data, resolver()) {
		got[f.Message] = true
	}
	for _, want := range []string{
		`"asks" of question "mode" must not be empty`,
		`"rationale" of question "mode" must be a string, not a number`,
		`"extra" is not a field of question "mode"; allowed: asks, options, rationale, guidance, when, otherwise (prefix it with _ to keep it as an annotation)`,
		`"meaning" of option "fast" of question "mode" must not be empty`,
		`"odd" is not a field of option "fast" of question "mode"; allowed: meaning, semantics, rationale (prefix it with _ to keep it as an annotation)`,
		`option "slow" of question "mode" must be an object (a map), not a number`,
		`"description" of value declaration "maximum" must not be empty`,
		`"range" of value declaration "maximum" has its minimum 5 above its maximum 1`,
		`"descriptio" is not a field of row set "windows"; allowed: record, description, when-empty; did you mean "description"? (prefix it with _ to keep it as an annotation)`,
		`"unique" of field "id" of row set "windows" must be true or false, not a number`,
		`"colour" is not a field of field "id" of row set "windows"; allowed: type, required, when, options, pattern, unique, description, within (prefix it with _ to keep it as an annotation)`,
	} {
		if !got[want] {
			t.Errorf("no finding %q", want)
		}
	}
	if t.Failed() {
		t.Logf("findings: %v", got)
	}
}
