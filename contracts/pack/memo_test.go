package pack

import (
	"reflect"
	"testing"

	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
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

// TestCheckTestsMemoAlike checks which tests CheckTestsMemo gives the
// caller's check: the blocks alone, every test of a template whose blocks
// differ in more than text, and a test of a template whose blocks are
// alike until a check of one of them has found nothing.
func TestCheckTestsMemoAlike(t *testing.T) {
	// wholeTemplate's block holds a whole placeholder, which a value of any
	// kind replaces: its blocks are not alike.
	wholeTemplate := edit(t, perRowTemplate, `"id": "window-closes"`, `"id": "window-whole"`, `"then": "{{row.id}} ages"`, `"then": "{{row.id}}"`)
	packText := packOf(onceTemplate, perRowTemplate, wholeTemplate)
	p, a, s := setup(t, packText, baseAdoption)
	for _, tc := range []struct {
		id    string
		alike bool
	}{{"stops-at-maximum", true}, {"window-closes", true}, {"window-whole", false}} {
		if got := p.Template(tc.id).alike; got != tc.alike {
			t.Errorf("template %s: alike %v, want %v", tc.id, got, tc.alike)
		}
	}
	var checked []string
	var found []source.Finding
	check := func(tests []Test) []source.Finding {
		for _, x := range tests {
			if x.Block == nil || x.Title != "" || x.Text != "" {
				t.Errorf("test %s: block %v, title %q, text %q; want the block alone", x.Name, x.Block, x.Title, x.Text)
			}
			checked = append(checked, x.Name)
		}
		return found
	}
	// The caller's check finds something: nothing is taken as sound.
	found = []source.Finding{{Code: "X", File: adoptionFile}}
	steps := []struct {
		file  string
		found []source.Finding
		want  []string
	}{
		{adoptionFile, found, []string{"meter/stops-at-maximum", "meter/window-closes/poison", "meter/window-closes/stun", "meter/window-whole/poison", "meter/window-whole/stun"}},
		{"contracts/other.json", nil, []string{"other/stops-at-maximum", "other/window-closes/poison", "other/window-closes/stun", "other/window-whole/poison", "other/window-whole/stun"}},
		{"contracts/third.json", nil, []string{"third/window-whole/poison", "third/window-whole/stun"}},
	}
	for i, st := range steps {
		checked, found = nil, st.found
		b := contracts.ParseAdoption(st.file, a.Data)
		got := CheckTestsMemo(b, contracts.Evaluate(b, nil), p, check)
		if !reflect.DeepEqual(checked, st.want) {
			t.Errorf("step %d: checked %q, want %q", i, checked, st.want)
		}
		want, _ := CheckTests(b, s, p)
		want = append(want, st.found...)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("step %d: findings differ:\n got %v\nwant %v", i, got, want)
		}
	}
}

// TestBlocksAlike lists which test blocks render alike.
func TestBlocksAlike(t *testing.T) {
	for _, tc := range []struct {
		test  string
		alike bool
	}{
		{`{"type": "scenario", "given": "a", "when": ["b", "c"], "then": "d"}`, true},
		{`{"type": "scenario", "given": "{{row.id}} is open", "when": ["one {{bind:w}}"], "then": ""}`, true},
		{`{"type": "scenario", "given": "{{row.id}}", "when": "b", "then": "d"}`, false},
		{`{"type": "scenario", "given": "a", "when": ["{{row.a}}{{row.b}}"], "then": "d"}`, false},
		{`{"type": "scenario", "given": "a", "when": "b", "then": "d", "seeds": "{{inputs:seeds}}"}`, false},
		{`{"type": "scenario", "given": "a", "when": "b", "then": "d", "extensions": {"x": {"y": "{{row.z}}"}}}`, false},
		{`{"type": "scenario", "given": "a", "when": "b", "then": "d", "_note": "{{row.z}}"}`, true},
		{`{"type": "{{row.kind}} test", "given": "a", "when": "b", "then": "d"}`, false},
	} {
		v, errs := jsonsrc.Parse([]byte(tc.test))
		if len(errs) != 0 {
			t.Fatalf("%s: %v", tc.test, errs)
		}
		if got := blocksAlike(v); got != tc.alike {
			t.Errorf("%s: alike %v, want %v", tc.test, got, tc.alike)
		}
	}
}
