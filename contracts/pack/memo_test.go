package pack

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/source"
)

// TestCheckTestsMemo checks the adoption of each case after the base one
// with the same pack: the case says whether what the rendering for the
// base adoption read serves it, and the findings are CheckTests' in every
// case.
func TestCheckTestsMemo(t *testing.T) {
	packText := packOf(onceTemplate, perRowTemplate)
	tests := []struct {
		name   string
		edits  []string
		reused bool
	}{
		{"the same adoption", nil, true},
		{"an unread answer and value", []string{`"answers": { "overflow": "clamp" }`, `"answers": { "overflow": "clamp", "zz": "x" }`, `"maximum": 100`, `"maximum": 200`}, true},
		{"the text moves", []string{`"summary": "A meter."`, `"summary":    "A meter."`}, true},
		{"a rendered row changes", []string{`"id": "stun"`, `"id": "daze"`}, false},
		{"a row stops matching", []string{`"unit": "seconds" }`, `"unit": "hours" }`}, false},
		{"a template stops being live", []string{`"answers": { "overflow": "clamp" }`, `"answers": { "overflow": "refuse" }`}, false},
		{"a verification input", []string{`"rows": { "windows"`, `"verification": { "window-closes": { "scope": "x" } }, "rows": { "windows"`}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, a, s := setup(t, packText, baseAdoption)
			calls := 0
			count := func([]Test) []source.Finding { calls++; return nil }
			if fs := CheckTestsMemo(a, s, p, count); len(fs) != 0 || calls != 1 {
				t.Fatalf("base adoption: %d findings, %d checks of its tests", len(fs), calls)
			}
			// Forget that the templates' blocks were found sound, so that
			// a rendering calls count again.
			for _, tm := range p.Templates {
				tm.checked.Store(false)
			}
			_, b, sb := setup(t, packText, edit(t, baseAdoption, tc.edits...))
			got := CheckTestsMemo(b, sb, p, count)
			if reused := calls == 1; reused != tc.reused {
				t.Errorf("memo reused: %v, want %v", reused, tc.reused)
			}
			want, _ := CheckTests(b, sb, p)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("findings differ from CheckTests:\n got %v\nwant %v", got, want)
			}
		})
	}
}

// TestCheckTestsOnce: CheckTestsOnce finds what CheckTests finds and
// keeps no memo, so the same adoption checked again renders again.
func TestCheckTestsOnce(t *testing.T) {
	p, a, s := setup(t, packOf(onceTemplate, perRowTemplate), baseAdoption)
	calls := 0
	count := func([]Test) []source.Finding { calls++; return nil }
	for i := 1; i <= 2; i++ {
		for _, tm := range p.Templates {
			tm.checked.Store(false)
		}
		got := CheckTestsOnce(a, s, p, count)
		if calls != i {
			t.Fatalf("check %d: %d checks of the tests, want %d", i, calls, i)
		}
		want, _ := CheckTests(a, s, p)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("check %d: findings differ from CheckTests:\n got %v\nwant %v", i, got, want)
		}
	}
	for _, tm := range p.Templates {
		tm.checked.Store(false)
	}
	if CheckTestsMemo(a, s, p, count); calls != 3 {
		t.Errorf("CheckTestsMemo after CheckTestsOnce: %d checks of the tests, want 3 (no memo was kept)", calls)
	}
}

// TestCheckTestsMemoAlike checks which tests CheckTestsMemo gives the
// caller's check, adoption after adoption (each step a file of its own,
// so that the memo of renderings never serves): the blocks alone; every
// test of a template whose blocks differ in more than text; the first
// test of a template whose blocks for one adoption are alike, unless the
// check finds something there; and none of a template whose blocks are
// alike for every adoption once a check has found one sound.
func TestCheckTestsMemoAlike(t *testing.T) {
	// wholeTemplate's block holds a whole row placeholder, which a value of
	// any kind replaces; inputsTemplate's a whole input, the same value in
	// every test of an adoption.
	wholeTemplate := edit(t, perRowTemplate, `"id": "window-closes"`, `"id": "window-whole"`, `"then": "{{row.id}} ages"`, `"then": "{{row.id}}"`)
	inputsTemplate := edit(t, perRowTemplate, `"id": "window-closes"`, `"id": "window-scope"`,
		`"collection": "windows",`, `"collection": "windows", "inputs": { "seeds": { "default": ["s1"] } },`,
		`"then": "{{row.id}} ages"`, `"then": "{{row.id}} ages", "seeds": "{{inputs:seeds}}"`)
	packText := packOf(onceTemplate, perRowTemplate, wholeTemplate, inputsTemplate)
	p, a, _ := setup(t, packText, baseAdoption)
	if len(p.Findings) != 0 {
		t.Fatalf("pack findings: %v", p.Findings)
	}
	for _, tc := range []struct {
		id                     string
		alike, alikeInAdoption bool
	}{{"stops-at-maximum", true, true}, {"window-closes", true, true}, {"window-whole", false, false}, {"window-scope", false, true}} {
		tm := p.Template(tc.id)
		if tm.alike != tc.alike || tm.alikeInAdoption != tc.alikeInAdoption {
			t.Errorf("template %s: alike %v and in an adoption %v, want %v and %v", tc.id, tm.alike, tm.alikeInAdoption, tc.alike, tc.alikeInAdoption)
		}
	}
	var calls [][]string
	var found []source.Finding
	check := func(tests []Test) []source.Finding {
		var names []string
		for _, x := range tests {
			if x.Block == nil || x.Title != "" || x.Text != "" {
				t.Errorf("test %s: block %v, title %q, text %q; want the block alone", x.Name, x.Block, x.Title, x.Text)
			}
			names = append(names, strings.TrimPrefix(x.Name, x.Adoption+"/"))
		}
		calls = append(calls, names)
		return found
	}
	few := []string{"stops-at-maximum", "window-closes/poison", "window-whole/poison", "window-whole/stun", "window-scope/poison"}
	all := []string{"stops-at-maximum", "window-closes/poison", "window-closes/stun", "window-whole/poison", "window-whole/stun", "window-scope/poison", "window-scope/stun"}
	steps := []struct {
		edits []string
		found []source.Finding
		want  [][]string
	}{
		// The check finds something: every block is checked, and none is
		// taken as sound.
		{nil, []source.Finding{{Code: "X", File: adoptionFile}}, [][]string{few, all}},
		{nil, nil, [][]string{few}},
		{nil, nil, [][]string{{"window-whole/poison", "window-whole/stun", "window-scope/poison"}}},
		// The binding has no phrase for a row: the rendering's findings are
		// the same whether a block is built or not.
		{[]string{`"unit": "seconds"`, `"unit": "hours"`}, nil, [][]string{{"window-whole/poison", "window-whole/stun", "window-scope/poison"}}},
	}
	for i, st := range steps {
		calls, found = nil, st.found
		b := contracts.ParseAdoption(fmt.Sprintf("contracts/step%d.json", i), []byte(edit(t, string(a.Data), st.edits...)))
		sb := contracts.Evaluate(b, nil)
		got := CheckTestsMemo(b, sb, p, check)
		if len(st.edits) > 0 && len(withCode(got, CodePlaceholder)) == 0 {
			t.Errorf("step %d: no placeholder left unresolved: %v", i, got)
		}
		if !reflect.DeepEqual(calls, st.want) {
			t.Errorf("step %d: checked %q, want %q", i, calls, st.want)
		}
		want, _ := CheckTests(b, sb, p)
		want = append(want, st.found...)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("step %d: findings differ:\n got %v\nwant %v", i, got, want)
		}
	}
}

// TestBlocksAlike lists which test blocks render alike, for every
// adoption and within one, in a template with a binding whose phrases all
// have text of their own (w) and one with an empty phrase (e).
func TestBlocksAlike(t *testing.T) {
	for _, tc := range []struct {
		test                   string
		alike, alikeInAdoption bool
	}{
		{`{"type": "scenario", "given": "a", "when": ["b", "c"], "then": "d"}`, true, true},
		{`{"type": "scenario", "given": "{{row.id}} is open", "when": ["one {{bind:w}}"], "then": ""}`, true, true},
		{`{"type": "scenario", "given": "{{row.id}}", "when": "b", "then": "d"}`, false, false},
		{`{"type": "scenario", "given": "a", "when": ["{{row.a}}{{row.b}}"], "then": "d"}`, false, false},
		{`{"type": "scenario", "given": "a", "when": ["{{bind:w}}"], "then": "{{bind:nowhere}}"}`, true, true},
		{`{"type": "scenario", "given": "a", "when": ["{{bind:e}}"], "then": "d"}`, false, false},
		{`{"type": "scenario", "given": "a", "when": "{{instance}}", "then": "d"}`, false, false},
		{`{"type": "general", "scope": "{{inputs:scope}}", "holds": "d", "seeds": "{{inputs:seeds}}"}`, false, true},
		{`{"type": "general", "scope": "{{inputs:scope}} and {{row.a}}", "holds": "d"}`, true, true},
		{`{"type": "scenario", "given": "a", "when": "b", "then": "d", "extensions": {"x": {"y": "{{row.z}}"}}}`, false, false},
		{`{"type": "scenario", "given": "a", "when": "b", "then": "d", "_note": "{{row.z}}"}`, true, true},
		{`{"type": "{{row.kind}} test", "given": "a", "when": "b", "then": "d"}`, false, false},
		{`{"type": "{{inputs:scope}}", "given": "a", "when": "b", "then": "d"}`, false, false},
	} {
		p := ParsePack(packFile, []byte(packOf(`{
      "id": "case", "title": "t", "type": "scenario", "expand": "per-row", "collection": "windows",
      "inputs": { "scope": { "default": "all" }, "seeds": { "default": ["s1"] } },
      "bindings": {
        "w": { "row_field": "unit", "map": { "turns": "a turn", "seconds": "a second of {{row.id}}" } },
        "e": { "row_field": "unit", "map": { "turns": "", "seconds": "x" } }
      },
      "test": `+tc.test+`,
      "text": "x"
    }`)))
		if len(p.Templates) != 1 || p.Templates[0].Test == nil {
			t.Fatalf("%s: the template did not parse: %v", tc.test, p.Findings)
		}
		tm := p.Templates[0]
		if tm.alike != tc.alike || tm.alikeInAdoption != tc.alikeInAdoption {
			t.Errorf("%s: alike %v and in an adoption %v, want %v and %v", tc.test, tm.alike, tm.alikeInAdoption, tc.alike, tc.alikeInAdoption)
		}
	}
}
