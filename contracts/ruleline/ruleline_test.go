package ruleline

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// Variables, not constants: Go folds constant arithmetic exactly.
var pointOne, pointTwo = 0.1, 0.2

func lookupMap(m map[string]float64) func(string) (float64, bool) {
	return func(name string) (float64, bool) {
		v, ok := m[name]
		return v, ok
	}
}

func TestEval(t *testing.T) {
	env := map[string]float64{
		"dash.cooldown_seconds": 0.6,
		"dash.duration_seconds": 0.15,
		"level.2":               4,
		"a":                     10,
		"b":                     3,
		"a-b":                   100,
		"maximum":               5,
		"cap-seconds":           8,
		"base":                  4,
		"zero.value":            0,
	}
	tests := []struct {
		line        string
		holds       bool
		left, right float64
	}{
		{"dash.cooldown_seconds >= dash.duration_seconds", true, 0.6, 0.15},
		{"8 / 2 / 2 == 2", true, 2, 2},
		{"10 - 4 - 3 == 3", true, 3, 3},
		{"2 + 3 * 4 == 14", true, 14, 14},
		{"(2 + 3) * 4 == 20", true, 20, 20},
		{"0.1 + 0.2 == 0.3", false, pointOne + pointTwo, 0.3},
		{"0.1 + 0.2 != 0.3", true, pointOne + pointTwo, 0.3},
		{"a-b == 100", true, 100, 100},
		{"a - b == 7", true, 7, 7},
		{"a -b == 7", true, 7, 7},
		{"a- b == 7", true, 7, 7},
		{"2-1 == 1", true, 1, 1},
		{"-a < 0", true, -10, 0},
		{"--a == a", true, 10, 10},
		{"a * -b == -30", true, -30, -30},
		{"-2 * 3 == -6", true, -6, -6},
		{"level.2 * 2 <= 8", true, 8, 8},
		{"min(a, b, 7) == 3", true, 3, 3},
		{"max(a) == 10", true, 10, 10},
		{"max(a, b) > 10", false, 10, 10},
		{"floor(7 / 2) == 3", true, 3, 3},
		{"floor(-0.5) == -1", true, -1, -1},
		{"maximum > 0", true, 5, 0},
		{"cap-seconds >= 2 * base", true, 8, 8},
		{"1e3 == 1000", true, 1000, 1000},
		{"1e+3 == 1e-3 * 1000000", true, 1000, 1000},
		{"\ta\t<\tb", false, 10, 3},
		{"min (a, b) < 4", true, 3, 4},
	}
	for _, tt := range tests {
		r, err := Parse(tt.line)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.line, err)
			continue
		}
		res := r.Eval(lookupMap(env))
		if !res.Computed() {
			t.Errorf("Eval(%q): err %v missing %v", tt.line, res.Err, res.Missing)
			continue
		}
		if res.Holds != tt.holds || res.Left != tt.left || res.Right != tt.right {
			t.Errorf("Eval(%q) = %v (%v, %v), want %v (%v, %v)", tt.line, res.Holds, res.Left, res.Right, tt.holds, tt.left, tt.right)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		line string
		span string // text of line[Start:End]
		msg  string // a fragment of the message
	}{
		{"", "", "empty"},
		{"   ", "   ", "empty"},
		{"a.b + 1", "a.b + 1", "no comparison"},
		{"a.b < c.d < e.f", "<", "exactly one comparison"},
		{"a.b == c.d == 1", "==", "exactly one comparison"},
		{"a.b = 1", "=", `"=="`},
		{"a.b ! 1", "!", `"!="`},
		{"a.b <= ", "<=", "ends too early"},
		{"a.b <= 1 +", "+", "ends too early"},
		{"a.b <= * 2", "*", "unexpected"},
		{"a.b <= (1 + 2", "(", "never closed"},
		{"a.b <= (1 + 2))", ")", "end of the rule line"},
		{"a.b <= 1 2", "2", "end of the rule line"},
		{"min() < 1", "min()", "one or more"},
		{"floor(a, b) < 1", "floor(a, b)", "exactly one"},
		{"floor() < 1", "floor()", "exactly one"},
		{"ceil(a.b) < 1", "ceil", "unknown function"},
		{"abs(a.b) < 1", "abs", "unknown function"},
		{"max(a.b, < 1", "<", "unexpected"},
		{"max(a.b 2) < 1", "2", `"," or ")"`},
		{"max(a.b, 2 < 1", "<", `"," or ")"`},
		{"max(a.b, 2", "(", "never closed"},
		{"1.2.3 < 1", "1.2.3", "malformed number"},
		{"a.b < 1.", "1.", "malformed number"},
		{"a.b < .5", ".5", "malformed number"},
		{"a..b < 1", "a..b", "malformed name"},
		{"a.b. < 1", "a.b.", "malformed name"},
		{"a.-b < 1", "a.-b", "malformed name"},
		{"a.b < 1e400", "1e400", "too large"},
		{"a.b < 1\n", "\n", "one line"},
		{"a.b < 1 and c.d > 2", "and", "end of the rule line"},
		{"a.b < 1 # note", "#", "unexpected character"},
		{"a.b ≤ 1", "≤", "unexpected character"},
		{"a.b < \xff", "\xff", "UTF-8"},
		{strings.Repeat("(", 70) + "1" + strings.Repeat(")", 70) + " < 2", "(", "nested too deeply"},
		{strings.Repeat("-", 70) + "1 < 2", "-", "nested too deeply"},
	}
	for _, tt := range tests {
		r, err := Parse(tt.line)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", tt.line, r)
			continue
		}
		if err.Start < 0 || err.End > len(tt.line) || err.Start > err.End {
			t.Errorf("Parse(%q): span [%d,%d) out of range", tt.line, err.Start, err.End)
			continue
		}
		if got := tt.line[err.Start:err.End]; got != tt.span {
			t.Errorf("Parse(%q): span %q, want %q (%s)", tt.line, got, tt.span, err.Msg)
		}
		if !strings.Contains(err.Msg, tt.msg) {
			t.Errorf("Parse(%q): message %q does not mention %q", tt.line, err.Msg, tt.msg)
		}
	}
}

func TestNamesAndCalls(t *testing.T) {
	line := "max(a.b, level.2) - c-d >= floor(a.b) + -e"
	r, err := Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range r.Names() {
		if line[n.Start:n.End] != n.Text {
			t.Errorf("name %q has span text %q", n.Text, line[n.Start:n.End])
		}
		names = append(names, n.Text)
	}
	if want := []string{"a.b", "level.2", "c-d", "a.b", "e"}; !reflect.DeepEqual(names, want) {
		t.Errorf("Names = %v, want %v", names, want)
	}
	var calls []string
	for _, c := range r.Calls() {
		calls = append(calls, line[c.Start:c.End])
	}
	if want := []string{"max", "floor"}; !reflect.DeepEqual(calls, want) {
		t.Errorf("Calls = %v, want %v", calls, want)
	}
	if got := line[r.OpStart:r.OpEnd]; got != ">=" || r.Op != Ge {
		t.Errorf("operator %q %v", got, r.Op)
	}
	if got, want := r.String(), "max(a.b, level.2) - c-d >= floor(a.b) + -e"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}

func TestString(t *testing.T) {
	tests := map[string]string{
		"a.b>=c.d":          "a.b >= c.d",
		"( a.b+1 )*2<3":     "(a.b + 1) * 2 < 3",
		"min(a,b ,c)!=-1":   "min(a, b, c) != -1",
		"  0.10 ==  1e3   ": "0.10 == 1e3",
	}
	for in, want := range tests {
		r, err := Parse(in)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if got := r.String(); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
		if _, err := Parse(r.String()); err != nil {
			t.Errorf("String(%q) does not parse again: %v", in, err)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	env := map[string]float64{"a.b": 1, "zero.z": 0, "big.b": 1e308, "inf.i": math.Inf(1)}
	tests := []struct {
		line  string
		span  string
		names []string
		msg   string
	}{
		{"a.b / 0 > 1", "0", nil, "division by zero"},
		{"a.b / zero.z > 1", "zero.z", []string{"zero.z"}, "division by zero"},
		{"a.b / (zero.z * 2) > 1", "(zero.z * 2)", []string{"zero.z"}, "division by zero"},
		{"1 < a.b / -0", "-0", nil, "division by zero"},
		{"big.b * 10 > 1", "big.b * 10", []string{"big.b"}, "not a finite"},
		{"big.b + big.b > 1", "big.b + big.b", []string{"big.b"}, "not a finite"},
		{"inf.i > 1", "inf.i", []string{"inf.i"}, "not a finite"},
	}
	for _, tt := range tests {
		r, perr := Parse(tt.line)
		if perr != nil {
			t.Errorf("Parse(%q): %v", tt.line, perr)
			continue
		}
		res := r.Eval(lookupMap(env))
		if res.Err == nil {
			t.Errorf("Eval(%q) = %+v, want an error", tt.line, res)
			continue
		}
		if res.Holds {
			t.Errorf("Eval(%q) holds despite an error", tt.line)
		}
		if got := tt.line[res.Err.Start:res.Err.End]; got != tt.span {
			t.Errorf("Eval(%q): span %q, want %q", tt.line, got, tt.span)
		}
		if !reflect.DeepEqual(res.Err.Names, tt.names) {
			t.Errorf("Eval(%q): names %v, want %v", tt.line, res.Err.Names, tt.names)
		}
		if !strings.Contains(res.Err.Msg, tt.msg) {
			t.Errorf("Eval(%q): message %q lacks %q", tt.line, res.Err.Msg, tt.msg)
		}
	}
}

func TestEvalMissing(t *testing.T) {
	r, err := Parse("x.y + a.b + x.y >= q.r")
	if err != nil {
		t.Fatal(err)
	}
	res := r.Eval(lookupMap(map[string]float64{"a.b": 1}))
	if want := []string{"x.y", "q.r"}; !reflect.DeepEqual(res.Missing, want) || res.Holds || res.Computed() {
		t.Errorf("Eval = %+v, want missing %v", res, want)
	}
}

func TestLone(t *testing.T) {
	tests := map[string]string{
		"((c.e.r.f)) == 1": "c.e.r.f",
		"c.e.r.f == 1":     "c.e.r.f",
		"-c.e.r.f == 1":    "",
		"c.e.r.f + 0 == 1": "",
		"2 == 1":           "",
	}
	for line, want := range tests {
		r, err := Parse(line)
		if err != nil {
			t.Fatal(err)
		}
		n, ok := Lone(r.Left)
		if ok != (want != "") || n.Text != want {
			t.Errorf("Lone(%q) = %q %v, want %q", line, n.Text, ok, want)
		}
		if ok && line[n.Start:n.End] != want {
			t.Errorf("Lone(%q) span %q", line, line[n.Start:n.End])
		}
	}
}

func TestFormatNumber(t *testing.T) {
	tests := map[float64]string{
		0.15: "0.15", 1000000: "1000000", pointOne + pointTwo: "0.30000000000000004",
		-3: "-3", 1e21: "1e+21", 1e-7: "1e-07", 0: "0",
	}
	for v, want := range tests {
		if got := FormatNumber(v); got != want {
			t.Errorf("FormatNumber(%v) = %q, want %q", v, got, want)
		}
	}
}

// FuzzParse checks that no input panics and that every error span lies
// inside the line.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a.b >= c-d * 2", "min(1,2) == floor(3/2)", "((", "1e", "-", "a.b == 1 == 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		r, err := Parse(line)
		if err != nil {
			if err.Start < 0 || err.End > len(line) || err.Start > err.End {
				t.Fatalf("span [%d,%d) outside %q", err.Start, err.End, line)
			}
			return
		}
		for _, n := range r.Names() {
			if line[n.Start:n.End] != n.Text {
				t.Fatalf("name span mismatch in %q", line)
			}
		}
		r.Eval(func(string) (float64, bool) { return 0, true })
		if _, err := Parse(r.String()); err != nil {
			t.Fatalf("String %q of %q does not parse: %v", r.String(), line, err)
		}
	})
}
