package pack

import (
	"reflect"
	"testing"

	"github.com/gddls/gddls/contracts/source"
)

// TestCheckTestsMemo checks the adoption of each case after the base one
// with the same pack: the case says whether the rendering of the base
// adoption serves it, the findings are CheckTests' in every case, and the
// tests a rendering hands to the caller's check are CheckTests' tests.
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
			var checked []Test
			count := func(tests []Test) []source.Finding { calls++; checked = tests; return nil }
			if fs := CheckTestsMemo(a, s, p, count); len(fs) != 0 || calls != 1 {
				t.Fatalf("base adoption: %d findings, %d checks of its tests", len(fs), calls)
			}
			_, b, sb := setup(t, packText, edit(t, baseAdoption, tc.edits...))
			got := CheckTestsMemo(b, sb, p, count)
			if reused := calls == 1; reused != tc.reused {
				t.Errorf("rendering reused: %v, want %v", reused, tc.reused)
			}
			want, wantTests := CheckTests(b, sb, p)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("findings differ from CheckTests:\n got %v\nwant %v", got, want)
			}
			if !reflect.DeepEqual(checked, wantTests) {
				t.Errorf("tests checked differ from CheckTests':\n got %+v\nwant %+v", checked, wantTests)
			}
		})
	}
}
