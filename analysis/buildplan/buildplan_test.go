package buildplan

import (
	"github.com/gddls/gddls/analysis/analysistest"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/markdown"
)

func TestParseID(t *testing.T) {
	for _, tc := range []struct {
		text         string
		idLen, digit int
	}{
		{"AT-4: Alarm on sight", 4, 1},
		{"AT-12", 5, 2},
		{"AT-4b", 0, 0},
		{"AT-four", 0, 0},
		{"AT-4_x", 0, 0},
		{"AT-", 0, 0},
		{"AT 4", 0, 0},
		{"at-4", 0, 0},
		{"AT-07 — old", 5, 2},
		{"AT-4é", 4, 1},
	} {
		idLen, digits := ParseID(tc.text)
		if idLen != tc.idLen || digits != tc.digit {
			t.Errorf("ParseID(%q) = %d, %d; want %d, %d", tc.text, idLen, digits, tc.idLen, tc.digit)
		}
	}
}

const plan = "# Build plan\n\n## Stage 1: roads\n\nBuild the road.\n\n### AT-1: Spacing\n\n```test\n{\"type\": \"scenario\", \"given\": \"g\", \"when\": [\"w\"], \"then\": \"t\", \"direction_claims\": [\"colors.sky\", 3]}\n```\n\n### AT-3 Unclosed\n\n```test\n{\"type\": \"general\", \"scope\": \"s\", \"holds\": \"h\",\n"

func TestParse(t *testing.T) {
	doc := markdown.Parse([]byte(plan))
	p := Parse(doc)
	if len(p.Stages) != 1 || p.Stages[0].Title != "Stage 1: roads" {
		t.Errorf("stages = %+v", p.Stages)
	}
	if len(p.Tests) != 2 {
		t.Fatalf("tests = %d", len(p.Tests))
	}
	a := p.Tests[0]
	if a.ID != "AT-1" || a.Title != "Spacing" || !a.HasFence || a.Block == nil || a.Type != Scenario {
		t.Fatalf("test 1 = %+v", a)
	}
	if got := plan[a.IDSpan.Start:a.IDSpan.End]; got != "AT-1" {
		t.Errorf("id span holds %q", got)
	}
	if got := plan[a.Block.Get("given").Span().Start:a.Block.Get("given").Span().End]; got != `"g"` {
		t.Errorf("shifted span holds %q", got)
	}
	if len(a.Claims) != 1 || plan[a.Claims[0].Span.Start:a.Claims[0].Span.End] != `"colors.sky"` {
		t.Errorf("claims = %+v", a.Claims)
	}
	b := p.Tests[1]
	if b.Title != "Unclosed" || !b.HasFence || !b.Unclosed || b.SyntaxError != nil || b.Block != nil {
		t.Errorf("test 3 = %+v", b)
	}
	if p.NextNumber() != 4 {
		t.Errorf("NextNumber = %d", p.NextNumber())
	}
	if p.At(a.Block.Span().Start+2) != a || p.Test("AT-3") != b {
		t.Error("At or Test does not find the tests")
	}
}

// codes runs Check on a build plan and lists "CODE⟪text at span⟫".
func codes(src string) []string {
	var out []string
	for _, f := range Check(Parse(markdown.Parse([]byte(src))), "plan") {
		out = append(out, f.Code+"⟪"+src[f.Span.Start:f.Span.End]+"⟫")
	}
	return out
}

func block(json string) string { return "# Plan\n\n### AT-1: T\n\n```test\n" + json + "\n```\n" }

func TestCheck(t *testing.T) {
	const scen = `"type": "scenario", "given": "g", "when": "w", "then": "t"`
	const gen = `"type": "general", "scope": "s", "holds": "h"`
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"valid scenario", block(`{` + scen + `, "diagnostics": ["log"], "target": 3, "tolerance": 0.5, "replay": {"a": 1}, "extensions": {"my-rig": {"x": 1}}, "unchanged": {"anything": true}}`), nil},
		{"valid general", block(`{` + gen + `, "seeds": ["s1"], "direction_claims": ["colors.sky"]}`), nil},
		{"order", "### AT-2: a\n\n```test\n{" + gen + "}\n```\n\n### AT-2: b\n\n```test\n{" + gen + "}\n```\n\n### AT-0: c\n\n```test\n{" + gen + "}\n```\n\n### AT-1: d\n\n```test\n{" + gen + "}\n```\n",
			[]string{"VERIFICATION_AT_ORDER⟪AT-2⟫", "VERIFICATION_AT_ORDER⟪AT-0⟫"}},
		{"leading zero and gaps", "### AT-1: a\n\n```test\n{" + gen + "}\n```\n\n### AT-010: b\n\n```test\n{" + gen + "}\n```\n\n### AT-9: c\n\n```test\n{" + gen + "}\n```\n",
			[]string{"VERIFICATION_AT_ORDER⟪AT-9⟫"}},
		{"no block", "### AT-1: a\n\nSome prose.\n\n```test\n{" + gen + "}\n```\n", []string{"VERIFICATION_BLOCK⟪AT-1⟫"}},
		{"wrong tag", "### AT-1: a\n\n```json\n{" + gen + "}\n```\n", []string{"VERIFICATION_BLOCK⟪AT-1⟫"}},
		{"at the end", "### AT-1: a\n", []string{"VERIFICATION_BLOCK⟪AT-1⟫"}},
		// §6 writes a test block between two fence lines: a fence that
		// runs to the end of the file is no block, even when what it
		// swallows starts with a valid object.
		{"never closed", "### AT-1: a\n\n```test\n{" + gen + "}\n\n### AT-2: b\n\nprose\n", []string{"VERIFICATION_BLOCK⟪```test⟫"}},
		{"closed by a shorter fence", "### AT-1: a\n\n````test\n{" + gen + "}\n```\n", []string{"VERIFICATION_BLOCK⟪````test⟫"}},
		{"not a test heading", "### AT-1b: a\n\nprose\n", nil},
		{"json", block(`{"type": "general",}`), []string{"VERIFICATION_JSON⟪,⟫"}},
		{"shape", block(`["type"]`), []string{`VERIFICATION_SHAPE⟪["type"]⟫`}},
		{"class", block(`{"type": "soak", "given": "g"}`), []string{`VERIFICATION_CLASS⟪"soak"⟫`}},
		{"class missing", block(`{"holds": 3}`), []string{`VERIFICATION_CLASS⟪{⟫`, `VERIFICATION_GENERAL_HOLDS⟪3⟫`}},
		{"retired", block(`{"type": "property", "domain": "d", "given": 1}`), []string{`VERIFICATION_TYPE_RETIRED⟪"property"⟫`}},
		{"field missing", block(`{"type": "scenario", "given": "g", "then": ""}`), []string{`VERIFICATION_FIELD⟪{⟫`, `VERIFICATION_FIELD⟪""⟫`}},
		{"field empty array", block(`{"type": "scenario", "given": [], "when": "w", "then": "t"}`), []string{`VERIFICATION_FIELD⟪[]⟫`}},
		{"field type", block(`{"type": "scenario", "given": 1, "when": ["w", ""], "then": "t", "diagnostics": "log", "tolerance": "1", "target": 1}`),
			[]string{`VERIFICATION_FIELD_TYPE⟪1⟫`, `VERIFICATION_FIELD_TYPE⟪""⟫`, `VERIFICATION_FIELD_TYPE⟪"log"⟫`, `VERIFICATION_FIELD_TYPE⟪"1"⟫`}},
		{"general fields", block(`{"type": "general", "scope": "", "seeds": []}`),
			[]string{`VERIFICATION_GENERAL_HOLDS⟪{⟫`, `VERIFICATION_GENERAL_SCOPE⟪""⟫`, `VERIFICATION_GENERAL_SEEDS⟪[]⟫`}},
		{"unknown", block(`{` + scen + `, "scope": "s", "freeze_invariant": {}, "fixture": "x", "_note": 1}`),
			[]string{`VERIFICATION_FIELD_UNKNOWN⟪"scope"⟫`, `VERIFICATION_FIELD_UNKNOWN⟪"freeze_invariant"⟫`, `VERIFICATION_FIELD_UNKNOWN⟪"fixture"⟫`, `VERIFICATION_FIELD_UNKNOWN⟪"_note"⟫`}},
		{"seeds in scenario", block(`{` + scen + `, "seeds": ["a"]}`), []string{`VERIFICATION_FIELD_UNKNOWN⟪"seeds"⟫`}},
		{"extensions", block(`{` + gen + `, "extensions": {"My_Rig": {}, "rig": 1}}`), []string{`VERIFICATION_EXTENSIONS⟪"My_Rig"⟫`, `VERIFICATION_EXTENSIONS⟪1⟫`}},
		{"extensions not object", block(`{` + gen + `, "extensions": []}`), []string{`VERIFICATION_EXTENSIONS⟪[]⟫`}},
		{"replay", block(`{` + gen + `, "replay": "file.bin"}`), []string{`VERIFICATION_REPLAY⟪"file.bin"⟫`}},
		{"tolerance", block(`{` + gen + `, "tolerance": 2}`), []string{`VERIFICATION_TOLERANCE_TARGET⟪"tolerance"⟫`}},
		{"claims shape", block(`{` + gen + `, "direction_claims": []}`), []string{`DIRECTION_CLAIMS_SHAPE⟪[]⟫`}},
		{"claims entry", block(`{` + gen + `, "direction_claims": ["colors.sky", 4]}`), []string{`DIRECTION_CLAIMS_SHAPE⟪4⟫`}},
		{"written twice: the last counts", block(`{"type": "general", "scope": "s", "holds": "", "holds": "h", "replay": {"a": 1, "a": 2}, "extensions": {"rig": 1, "rig": {}}}`), nil},
		{"written twice: the last is checked", block(`{"type": "general", "scope": "s", "holds": "h", "holds": ""}`), []string{`VERIFICATION_GENERAL_HOLDS⟪""⟫`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := codes(tc.src)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestSplitClaim(t *testing.T) {
	for _, tc := range []struct {
		path, section, key string
		ok                 bool
	}{
		{"colors.sky", "colors", "sky", true},
		{"timing.fade.in", "timing", "fade.in", true},
		{"palette.sky", "palette", "sky", false},
		{"colors.", "colors", "", false},
		{"colors", "colors", "", false},
	} {
		s, k, ok := SplitClaim(tc.path)
		if s != tc.section || k != tc.key || ok != tc.ok {
			t.Errorf("SplitClaim(%q) = %q %q %v", tc.path, s, k, ok)
		}
	}
}

func TestClassSuggestion(t *testing.T) {
	for typ, want := range map[string]string{"Scenario": `did you mean "scenario"`, "generl": `did you mean "general"`, "soak": ""} {
		ps := CheckBlock(analysistest.ParseJSON(t, `{"type": "`+typ+`"}`), "test AT-1")
		if len(ps) == 0 || ps[0].Code != CodeClass {
			t.Fatalf("%s: %+v", typ, ps)
		}
		if got := ps[0].Msg; want != "" && !strings.Contains(got, want) || want == "" && strings.Contains(got, "did you mean") {
			t.Errorf("%s: message %q", typ, got)
		}
	}
}
