package ruleline

import (
	"math"
	"testing"
)

// FuzzEval parses a line and evaluates it with the names bound to the
// fuzzed numbers, including NaN, infinities and negative zero. Evaluation
// must not panic, a computed result must be finite, an error span must lie
// inside the line, and every side evaluated alone must agree with the rule.
func FuzzEval(f *testing.F) {
	seeds := []struct {
		line string
		a, b float64
	}{
		{"a.b >= c-d * 2", 1, 2},
		{"a / b > 0", 1, 0},
		{"min(a, b, 3) == floor(a / b)", 7, 2},
		{"a * a * a * a > b", 1e300, 1},
		{"-a == a", math.Copysign(0, -1), 0},
		{"a < b", math.NaN(), math.Inf(1)},
		{"max(a) <= min(b)", math.Inf(-1), 5},
		{"floor(a) != a", 0.5, 0},
	}
	for _, s := range seeds {
		f.Add(s.line, s.a, s.b)
	}
	f.Fuzz(func(t *testing.T, line string, a, b float64) {
		r, err := Parse(line)
		if err != nil {
			return
		}
		names := r.Names()
		lookup := func(name string) (float64, bool) {
			if len(names) > 0 && name == names[0].Text {
				return a, true
			}
			return b, true
		}
		res := r.Eval(lookup)
		if len(res.Missing) > 0 {
			t.Fatalf("%q: names missing although the lookup knows every name: %v", line, res.Missing)
		}
		if res.Err != nil {
			if res.Err.Start < 0 || res.Err.End > len(line) || res.Err.Start > res.Err.End {
				t.Fatalf("%q: error span [%d,%d) outside the line", line, res.Err.Start, res.Err.End)
			}
			if res.Err.Msg == "" {
				t.Fatalf("%q: error without a message", line)
			}
			return
		}
		if !finite(res.Left) || !finite(res.Right) {
			t.Fatalf("%q with %v, %v: computed a side that is not finite: %v %v", line, a, b, res.Left, res.Right)
		}
		if res.Holds != r.Op.Compare(res.Left, res.Right) {
			t.Fatalf("%q: Holds disagrees with the comparison of its sides", line)
		}
		left, lerr := EvalExpr(r.Left, lookup)
		if lerr != nil || left != res.Left && !(math.IsNaN(left) && math.IsNaN(res.Left)) {
			t.Fatalf("%q: left side alone gives %v (%v), the rule gave %v", line, left, lerr, res.Left)
		}
		_ = FormatNumber(res.Left)
		_ = FormatNumber(res.Right)
	})
}
