package ruleline

import (
	"fmt"
	"math"
	"strconv"
)

// EvalError is a rule that cannot be computed: a division by zero, a result
// that is not finite, or a name whose value is not finite. Start and End
// are the byte offsets of the failing operation in the line; Names are the
// distinct names the failure depends on (the divisor's names for a division
// by zero, the operands' names for an overflow), so that a caller can tell
// whether a guessed number caused it.
type EvalError struct {
	Start, End int
	Msg        string
	Names      []string
}

// Error implements error.
func (e *EvalError) Error() string { return e.Msg }

// Result is the outcome of evaluating a rule.
type Result struct {
	// Holds reports whether the comparison is true. It is false whenever
	// Err is set or Missing is not empty.
	Holds bool
	// Left and Right are the computed sides.
	Left, Right float64
	// Err is set when the rule cannot be computed.
	Err *EvalError
	// Missing lists the distinct names the lookup did not know, in order of
	// first appearance. When it is not empty nothing was computed.
	Missing []string
}

// Computed reports whether both sides were computed.
func (r Result) Computed() bool { return r.Err == nil && len(r.Missing) == 0 }

// Eval computes the rule, asking lookup for the value of each name.
func (r *Rule) Eval(lookup func(name string) (float64, bool)) Result {
	values := map[string]float64{}
	var missing []string
	for _, n := range r.Names() {
		if _, done := values[n.Text]; done {
			continue
		}
		v, ok := lookup(n.Text)
		if !ok {
			if !contains(missing, n.Text) {
				missing = append(missing, n.Text)
			}
			continue
		}
		values[n.Text] = v
	}
	if len(missing) > 0 {
		return Result{Missing: missing}
	}
	left, err := eval(r.Left, values)
	if err != nil {
		return Result{Err: err}
	}
	right, err := eval(r.Right, values)
	if err != nil {
		return Result{Left: left, Err: err}
	}
	return Result{Holds: r.Op.Compare(left, right), Left: left, Right: right}
}

// EvalExpr computes one side or part of a rule. Names the lookup does not
// know are an error.
func EvalExpr(e Expr, lookup func(name string) (float64, bool)) (float64, *EvalError) {
	values := map[string]float64{}
	for _, name := range NamesIn(e) {
		v, ok := lookup(name)
		if !ok {
			start, end := e.Pos()
			return 0, &EvalError{Start: start, End: end, Msg: fmt.Sprintf("no number for %q", name), Names: []string{name}}
		}
		values[name] = v
	}
	return eval(e, values)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func finite(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }

// eval computes e over values, which holds every name of e.
func eval(e Expr, values map[string]float64) (float64, *EvalError) {
	switch x := e.(type) {
	case *Number:
		return x.Value, nil
	case *Ref:
		v := values[x.Name]
		if !finite(v) {
			return 0, &EvalError{Start: x.Start, End: x.End, Msg: fmt.Sprintf("%s is %s, not a finite number", x.Name, FormatNumber(v)), Names: []string{x.Name}}
		}
		return v, nil
	case *Paren:
		return eval(x.X, values)
	case *Neg:
		v, err := eval(x.X, values)
		if err != nil {
			return 0, err
		}
		return -v, nil
	case *Call:
		args := make([]float64, len(x.Args))
		for i, a := range x.Args {
			v, err := eval(a, values)
			if err != nil {
				return 0, err
			}
			args[i] = v
		}
		if len(args) == 0 {
			return 0, &EvalError{Start: x.Start, End: x.End, Msg: x.Func + " has no arguments"}
		}
		v := args[0]
		switch x.Func {
		case "min":
			for _, a := range args[1:] {
				v = math.Min(v, a)
			}
		case "max":
			for _, a := range args[1:] {
				v = math.Max(v, a)
			}
		case "floor":
			v = math.Floor(v)
		default:
			return 0, &EvalError{Start: x.Start, End: x.End, Msg: fmt.Sprintf("unknown function %q", x.Func)}
		}
		return v, nil
	case *Binary:
		a, err := eval(x.X, values)
		if err != nil {
			return 0, err
		}
		b, err := eval(x.Y, values)
		if err != nil {
			return 0, err
		}
		start, end := x.Pos()
		var v float64
		switch x.Op {
		case '+':
			v = a + b
		case '-':
			v = a - b
		case '*':
			v = a * b
		case '/':
			if b == 0 {
				ds, de := x.Y.Pos()
				msg := "division by zero"
				if _, literal := x.Y.(*Number); !literal {
					msg = fmt.Sprintf("division by zero: %s is 0", ExprString(x.Y))
				}
				return 0, &EvalError{Start: ds, End: de, Msg: msg, Names: NamesIn(x.Y)}
			}
			v = a / b
		}
		if !finite(v) {
			return 0, &EvalError{Start: start, End: end, Msg: fmt.Sprintf("%s %c %s is not a finite number", FormatNumber(a), x.Op, FormatNumber(b)), Names: NamesIn(x)}
		}
		return v, nil
	}
	return 0, &EvalError{Msg: "malformed rule"}
}

// FormatNumber writes a number the shortest way that reads back as the same
// binary64 value, as messages show it: plain decimals such as 0.15 or
// 1000000, and an exponent only for very large or very small magnitudes.
func FormatNumber(v float64) string {
	if a := math.Abs(v); a >= 1e21 || a != 0 && a < 1e-6 || !finite(v) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
