package pack

import (
	"reflect"
	"strings"
	"testing"
)

func TestLiveness(t *testing.T) {
	notLiveFlag := edit(t, onceTemplate, `"id": "stops-at-maximum"`, `"id": "not-live-flag"`, `"overflow": ["clamp"]`, `"overflow": ["refuse"]`)
	unasked := edit(t, onceTemplate, `"id": "stops-at-maximum"`, `"id": "noticed"`, `"overflow": ["clamp"]`, `"notice": ["show"]`)
	bindsUnasked := edit(t, onceTemplate, `"id": "stops-at-maximum"`, `"id": "binds-notice"`, `"overflow": ["clamp"]`, `"overflow": ["clamp", "refuse"]`, `"expand": "once",`, `"expand": "once", "bindings": { "n": { "flag": "notice", "map": { "show": "s", "hide": "h" } } },`)
	inactiveCite := edit(t, onceTemplate, `"id": "stops-at-maximum"`, `"id": "cites-penalty"`, `"overflow": ["clamp"]`, `"overflow": ["clamp", "refuse"]`, `"A gain never`, `"{{value-cite:penalty}} never`)
	turnsOnly := edit(t, perRowTemplate, `"id": "window-closes"`, `"id": "turn-windows"`, `"collection": "windows",`, `"collection": "windows", "when": { "row": { "unit": ["turns"] } },`)
	readsCap := edit(t, perRowTemplate, `"id": "window-closes"`, `"id": "capped"`, `"Per row."`, `"Cap {{row.cap}}."`)
	noRows := edit(t, perRowTemplate, `"id": "window-closes"`, `"id": "no-minutes"`, `"collection": "windows",`, `"collection": "windows", "when": { "row": { "unit": ["minutes"] } },`)
	packText := packOf(onceTemplate, notLiveFlag, unasked, bindsUnasked, inactiveCite, perRowTemplate, turnsOnly, readsCap, noRows)

	tests := []struct {
		name    string
		adopt   []string
		live    map[string]int // template id -> tests; absent ids are not live
		waiting []string
	}{
		{name: "clamp", live: map[string]int{"stops-at-maximum": 1, "window-closes": 2, "turn-windows": 1, "capped": 1}},
		{name: "refuse without notice answer", adopt: []string{`"overflow": "clamp"`, `"overflow": "refuse"`, `"values": { "maximum": 100 }`, `"values": { "maximum": 100, "penalty": 2 }`},
			live: map[string]int{"not-live-flag": 1, "binds-notice": 1, "cites-penalty": 1, "window-closes": 2, "turn-windows": 1, "capped": 1}, waiting: []string{"noticed"}},
		{name: "refuse with notice", adopt: []string{`"overflow": "clamp"`, `"overflow": "refuse", "notice": "show"`},
			live: map[string]int{"not-live-flag": 1, "noticed": 1, "binds-notice": 1, "cites-penalty": 1, "window-closes": 2, "turn-windows": 1, "capped": 1}},
		{name: "no rows", adopt: []string{`[ { "id": "poison", "unit": "turns", "cap": 3 }, { "id": "stun", "unit": "seconds" } ]`, `[]`},
			live: map[string]int{"stops-at-maximum": 1}},
		{name: "row lacking a conditional field", adopt: []string{`"cap": 3 `, `"cap2": 3 `},
			live: map[string]int{"stops-at-maximum": 1, "window-closes": 2, "turn-windows": 1}, waiting: []string{"capped"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, a, s := setup(t, packText, edit(t, baseAdoption, tc.adopt...))
			if len(p.Findings) != 0 {
				t.Fatalf("pack findings: %v", p.Findings)
			}
			sts := Live(a, s, p)
			if len(sts) != 9 {
				t.Fatalf("got %d statuses", len(sts))
			}
			for _, st := range sts {
				want, ok := tc.live[st.ID]
				if ok && want == 0 {
					ok = false
				}
				if st.Live != ok || (ok && st.Tests != want) {
					t.Errorf("%s: live=%v tests=%d, want live=%v tests=%d (reason %q)", st.ID, st.Live, st.Tests, ok, want, st.Reason)
				}
				if !st.Live && st.Reason == "" {
					t.Errorf("%s: not live without a reason", st.ID)
				}
				isWaiting := false
				for _, w := range tc.waiting {
					isWaiting = isWaiting || w == st.ID
				}
				if st.Waiting != isWaiting {
					t.Errorf("%s: waiting=%v, want %v (%s)", st.ID, st.Waiting, isWaiting, st.Reason)
				}
			}
		})
	}
}

func TestRender(t *testing.T) {
	general := `{
      "id": "sampled",
      "title": "Sampled for {{instance}}",
      "type": "general",
      "expand": "once",
      "inputs": { "scope": { "default": "every meter" }, "seeds": { "default": ["d1"] } },
      "test": {
        "type": "general",
        "_note": "dropped",
        "scope": "{{inputs:scope}}",
        "holds": "{{instance}} stays below {{value-cite:maximum}} under {{bind:how}}",
        "seeds": "{{inputs:seeds}}",
        "target": "{{row.cap}}x",
        "tolerance": 0.5
      },
      "bindings": { "how": { "flag": "overflow", "map": { "clamp": "clamping of {{instance}}", "refuse": "refusal" } } },
      "text": "Scope {{inputs:scope}}."
    }`
	general = edit(t, general, `"target": "{{row.cap}}x",`, ``)
	perRowCap := edit(t, perRowTemplate, `"id": "window-closes"`, `"id": "caps"`,
		`"collection": "windows",`, `"collection": "windows", "when": { "row": { "unit": ["turns"] } },`,
		`"then": "{{row.id}} ages"`, `"then": "{{row.id}} ages", "target": "{{row.cap}}", "diagnostics": ["{{row.cap}} turns"]`)
	packText := packOf(onceTemplate, general, perRowTemplate, perRowCap)

	cases := []struct {
		name   string
		adopt  []string
		checks func(t *testing.T, tests []Test)
	}{
		{name: "defaults", checks: func(t *testing.T, tests []Test) {
			names := []string{"meter/stops-at-maximum", "meter/sampled", "meter/window-closes/poison", "meter/window-closes/stun", "meter/caps/poison"}
			if len(tests) != len(names) {
				t.Fatalf("got %d tests: %v", len(tests), tests)
			}
			for i, n := range names {
				if tests[i].Name != n {
					t.Errorf("test %d is %q, want %q", i, tests[i].Name, n)
				}
			}
			once := tests[0]
			if once.Title != "meter stops at the maximum" || once.Text != "A gain never moves meter above contracts.meter.maximum." {
				t.Errorf("once title/text: %q / %q", once.Title, once.Text)
			}
			if !strings.Contains(once.JSON(), `"given": "meter is 1 below contracts.meter.maximum"`) || strings.Contains(once.JSON(), "100") {
				t.Errorf("value-cite must render the address, never the number:\n%s", once.JSON())
			}
			g := tests[1].JSON()
			for _, want := range []string{`"scope": "every meter"`, `"seeds": [
    "d1"
  ]`, `"holds": "meter stays below contracts.meter.maximum under clamping of meter"`, `"tolerance": 0.5`} {
				if !strings.Contains(g, want) {
					t.Errorf("general block lacks %s:\n%s", want, g)
				}
			}
			if strings.Contains(g, "_note") {
				t.Errorf("annotation kept:\n%s", g)
			}
			if tests[1].Text != "Scope every meter." || tests[1].Type != "general" {
				t.Errorf("general text %q type %q", tests[1].Text, tests[1].Type)
			}
			if tests[2].Row != "poison" || !strings.Contains(tests[2].JSON(), `"when": "one turn passes"`) || !strings.Contains(tests[3].JSON(), `"when": "one second passes"`) {
				t.Errorf("row binding phrases:\n%s\n%s", tests[2].JSON(), tests[3].JSON())
			}
			caps := tests[4].JSON()
			if !strings.Contains(caps, `"target": 3,`) || !strings.Contains(caps, `"3 turns"`) {
				t.Errorf("a whole-value row number stays a number, in a string it is text:\n%s", caps)
			}
		}},
		{name: "verification inputs", adopt: []string{`"answers"`, `"verification": { "sampled": { "scope": "meters in the arena", "seeds": ["v1", "v2"] } }, "answers"`},
			checks: func(t *testing.T, tests []Test) {
				g := tests[1]
				if !strings.Contains(g.JSON(), `"scope": "meters in the arena"`) || !strings.Contains(g.JSON(), `"v2"`) || strings.Contains(g.JSON(), "d1") {
					t.Errorf("verification inputs must replace defaults:\n%s", g.JSON())
				}
				if g.Text != "Scope meters in the arena." {
					t.Errorf("text %q", g.Text)
				}
			}},
		{name: "adoption text is not rescanned", adopt: []string{`"id": "stun"`, `"id": "stun-{{instance}}"`},
			checks: func(t *testing.T, tests []Test) {
				found := false
				for _, tt := range tests {
					if strings.Contains(tt.JSON(), `"stun-{{instance}} is open"`) {
						found = true
					}
				}
				if !found {
					t.Errorf("a supplied value must be inserted as written: %v", tests)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, a, s := setup(t, packText, edit(t, baseAdoption, tc.adopt...))
			if len(p.Findings) != 0 {
				t.Fatalf("pack findings: %v", p.Findings)
			}
			tests, fs := Render(a, s, p)
			for _, f := range fs {
				t.Errorf("render finding: %v", f)
			}
			tc.checks(t, tests)
			md := Markdown(tests, Live(a, s, p))
			if !strings.Contains(md, "### AT meter/stops-at-maximum — meter stops at the maximum\n\n```test\n{") {
				t.Errorf("markdown heading/fence:\n%s", md)
			}
		})
	}
}

func TestMarkdownListsTemplatesThatAreNotLive(t *testing.T) {
	notLive := edit(t, onceTemplate, `"overflow": ["clamp"]`, `"overflow": ["refuse"]`)
	p, a, s := setup(t, packOf(notLive), baseAdoption)
	tests, _ := Render(a, s, p)
	if len(tests) != 0 {
		t.Fatalf("tests: %v", tests)
	}
	md := Markdown(tests, Live(a, s, p))
	if !strings.Contains(md, "- `stops-at-maximum`: ") || !strings.Contains(md, `"clamp"`) {
		t.Errorf("markdown:\n%s", md)
	}
}

func TestFenceFor(t *testing.T) {
	if got := fenceFor("a ```` b"); got != "`````" {
		t.Errorf("fence %q", got)
	}
	if got := fenceFor("plain"); got != "```" {
		t.Errorf("fence %q", got)
	}
}

// TestCheckTests requires CheckTests to report what Check reports and to
// return the tests Render generates.
func TestCheckTests(t *testing.T) {
	// An input without default that the adoption does not supply is a
	// finding of Check.
	broken := edit(t, onceTemplate, `"expand": "once",`, `"expand": "once", "inputs": { "scope": {} },`,
		`"when": "a gain of 5 arrives",`, `"when": "{{inputs:scope}}",`)
	p, a, st := setup(t, packOf(broken, perRowTemplate), baseAdoption)
	found, tests := CheckTests(a, st, p)
	if want := Check(a, st, p); !reflect.DeepEqual(found, want) || len(found) == 0 {
		t.Errorf("findings %v, want %v (and at least one)", found, want)
	}
	want, _ := Render(a, st, p)
	if !sameTests(tests, want) || len(tests) != 3 {
		t.Errorf("tests %+v, want the 3 tests of Render %+v", tests, want)
	}
	if f, ts := CheckTests(a, st, nil); ts != nil || !reflect.DeepEqual(f, Check(a, st, nil)) {
		t.Errorf("a promised adoption: %v, %v", f, ts)
	}
}

// sameTests reports whether a and b are the same tests, their blocks
// compared as the JSON they print (a tree's nodes point into the blocks of
// its parse, which reflect.DeepEqual compares by address).
func sameTests(a, b []Test) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if (x.Block == nil) != (y.Block == nil) || x.Block != nil && encodeIndent(x.Block) != encodeIndent(y.Block) {
			return false
		}
		x.Block, y.Block = nil, nil
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// TestBindingCycles: a binding whose phrase reads a binding that reads it
// again is reported where the cycle closes, while bindings nested without
// a cycle render, and so does a binding read again after its expansion.
func TestBindingCycles(t *testing.T) {
	tmpl := edit(t, onceTemplate,
		`"expand": "once",`, `"expand": "once", "bindings": { "how": { "flag": "overflow", "map": { "clamp": "{{bind:who}} clamps", "refuse": "x" } }, "who": { "flag": "overflow", "map": { "clamp": "{{bind:how}} and {{instance}}", "refuse": "y" } }, "plain": { "flag": "overflow", "map": { "clamp": "{{bind:name}} first", "refuse": "z" } }, "name": { "flag": "overflow", "map": { "clamp": "the meter", "refuse": "w" } } },`,
		`"when": "a gain of 5 arrives"`, `"when": "{{bind:how}}; {{bind:plain}}, {{bind:name}}"`)
	p, a, s := setup(t, packOf(tmpl), baseAdoption)
	findings, tests := CheckTests(a, s, p)
	var cycles []string
	for _, f := range findings {
		if strings.Contains(f.Message, "reads itself through its phrases") {
			cycles = append(cycles, f.Message)
		}
	}
	if want := []string{`binding "how" of template "stops-at-maximum" reads itself through its phrases; a phrase cannot contain its own binding`}; !reflect.DeepEqual(cycles, want) {
		t.Errorf("cycle findings %q, want %q (all: %v)", cycles, want, findings)
	}
	if len(tests) != 1 || !strings.Contains(tests[0].JSON(), `"when": "{{bind:how}} and meter clamps; the meter first, the meter"`) {
		t.Errorf("tests: %v", tests)
	}
}
