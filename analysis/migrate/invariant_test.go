package migrate

import (
	"strings"
	"testing"
)

// TestSplitInvariant checks the reading of old invariant expressions into
// rule lines of one comparison each, and the refusals.
func TestSplitInvariant(t *testing.T) {
	known := func(k string) bool { return k == "a.x" || k == "b.y" || k == "c.z" }
	tests := []struct {
		expr  string
		lines []string
		why   string // a fragment of the refusal
	}{
		{"a.x <= b.y", []string{"a.x <= b.y"}, ""},
		{"a.x * 2 >= b.y && b.y > 0", []string{"a.x * 2 >= b.y", "b.y > 0"}, ""},
		{"1 <= a.x <= 60", []string{"1 <= a.x", "a.x <= 60"}, ""},
		{"min(a.x, b.y) < c.z and c.z != 3", []string{"min(a.x, b.y) < c.z", "c.z != 3"}, ""},
		{"(a.x + b.y) == c.z", []string{"(a.x + b.y) == c.z"}, ""},
		{"a.x > 1 || b.y > 1", nil, "disjunction"},
		{"not a.x > 1", nil, "disjunction"},
		{"!(a.x > 1)", nil, "disjunction"},
		{"a.x", nil, "not a comparison"},
		{"a.x > d.w", nil, "d.w"},
		{"a.x > > 1", nil, "cannot be read"},
		{"a.x > 1\n", nil, "several lines"},
	}
	for _, tt := range tests {
		lines, why := splitInvariant(tt.expr, known)
		if tt.why != "" {
			if why == "" || !strings.Contains(why, tt.why) {
				t.Errorf("%q: refusal %q, want one saying %q", tt.expr, why, tt.why)
			}
			continue
		}
		if why != "" || strings.Join(lines, "|") != strings.Join(tt.lines, "|") {
			t.Errorf("%q: got %q (%s), want %q", tt.expr, lines, why, tt.lines)
		}
	}
}

// TestEvalInvariant checks the invariant's own reading, which the rules
// written for it must agree with.
func TestEvalInvariant(t *testing.T) {
	nums := map[string]float64{"a.x": 2, "b.y": 5}
	tests := []struct {
		expr     string
		holds    bool
		computed bool
	}{
		{"a.x < b.y", true, true},
		{"a.x < b.y && b.y < 4", false, true},
		{"1 <= a.x <= 2", true, true},
		{"1 <= a.x < 2", false, true},
		{"a.x / 0 > 1", false, false},
		{"a.x < q.q", false, false},
	}
	for _, tt := range tests {
		holds, ok := evalInvariant(tt.expr, nums)
		if holds != tt.holds || ok != tt.computed {
			t.Errorf("%q: holds %v computed %v, want %v %v", tt.expr, holds, ok, tt.holds, tt.computed)
		}
	}
}

// TestVerifyTuning holds the proof against a rewrite that loses a number or
// changes a rule's result.
func TestVerifyTuning(t *testing.T) {
	old := map[string]float64{"a.x": 2, "b.y": 5}
	good := []byte(`{"values": {"a.x": 2, "b.y": 5}, "rules": {"r": "a.x < b.y"}}`)
	if why := verifyTuning(good, old, []proof{{expr: "a.x < b.y", names: []string{"r"}}}); why != "" {
		t.Errorf("a faithful rewrite refused: %s", why)
	}
	lost := []byte(`{"values": {"a.x": 2}, "rules": {"r": "a.x < 9"}}`)
	if why := verifyTuning(lost, old, nil); !strings.Contains(why, "b.y") {
		t.Errorf("a lost number passed: %q", why)
	}
	changed := []byte(`{"values": {"a.x": 2, "b.y": 5}, "rules": {"r": "a.x > b.y"}}`)
	if why := verifyTuning(changed, old, []proof{{expr: "a.x < b.y", names: []string{"r"}}}); why == "" {
		t.Error("a rule with another result passed")
	}
}
