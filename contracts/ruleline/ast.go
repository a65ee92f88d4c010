package ruleline

import (
	"strings"
)

// Op is a comparison operator.
type Op uint8

// The six comparison operators of a rule line.
const (
	Eq Op = iota + 1 // ==
	Ne               // !=
	Lt               // <
	Le               // <=
	Gt               // >
	Ge               // >=
)

// String returns the operator as written in a rule line.
func (o Op) String() string {
	switch o {
	case Eq:
		return "=="
	case Ne:
		return "!="
	case Lt:
		return "<"
	case Le:
		return "<="
	case Gt:
		return ">"
	case Ge:
		return ">="
	}
	return "?"
}

// Compare applies the operator to two numbers, exactly.
func (o Op) Compare(a, b float64) bool {
	switch o {
	case Eq:
		return a == b
	case Ne:
		return a != b
	case Lt:
		return a < b
	case Le:
		return a <= b
	case Gt:
		return a > b
	case Ge:
		return a >= b
	}
	return false
}

// Expr is one node of a side of a rule line: *Number, *Ref, *Neg, *Binary,
// *Paren or *Call. Pos reports the byte offsets of the node in the line.
type Expr interface {
	Pos() (start, end int)
	write(b *strings.Builder)
}

// Number is a literal number.
type Number struct {
	Value      float64
	Raw        string // the literal as written
	Start, End int
}

// Ref is a name: a tuning key, a record-field address or a contract value
// name.
type Ref struct {
	Name       string
	Start, End int
}

// Neg is unary minus.
type Neg struct {
	X     Expr
	Start int // offset of the minus sign
}

// Binary is one of the arithmetic operators + - * /.
type Binary struct {
	Op      byte // '+', '-', '*' or '/'
	X, Y    Expr
	OpStart int // offset of the operator
}

// Paren is a parenthesized expression.
type Paren struct {
	X          Expr
	Start, End int // offsets of "(" and just after ")"
}

// Call is a call of min, max or floor.
type Call struct {
	Func    string
	Args    []Expr
	Start   int // offset of the function name
	NameEnd int // end of the function name
	End     int // just after ")"
}

// Pos implements Expr.
func (n *Number) Pos() (int, int) { return n.Start, n.End }

// Pos implements Expr.
func (r *Ref) Pos() (int, int) { return r.Start, r.End }

// Pos implements Expr.
func (n *Neg) Pos() (int, int) { _, end := n.X.Pos(); return n.Start, end }

// Pos implements Expr.
func (b *Binary) Pos() (int, int) {
	start, _ := b.X.Pos()
	_, end := b.Y.Pos()
	return start, end
}

// Pos implements Expr.
func (p *Paren) Pos() (int, int) { return p.Start, p.End }

// Pos implements Expr.
func (c *Call) Pos() (int, int) { return c.Start, c.End }

func (n *Number) write(b *strings.Builder) { b.WriteString(n.Raw) }
func (r *Ref) write(b *strings.Builder)    { b.WriteString(r.Name) }
func (n *Neg) write(b *strings.Builder)    { b.WriteByte('-'); n.X.write(b) }
func (x *Binary) write(b *strings.Builder) {
	x.X.write(b)
	b.WriteByte(' ')
	b.WriteByte(x.Op)
	b.WriteByte(' ')
	x.Y.write(b)
}
func (p *Paren) write(b *strings.Builder) { b.WriteByte('('); p.X.write(b); b.WriteByte(')') }
func (c *Call) write(b *strings.Builder) {
	b.WriteString(c.Func)
	b.WriteByte('(')
	for i, a := range c.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		a.write(b)
	}
	b.WriteByte(')')
}

// ExprString renders an expression in the canonical spacing of String.
func ExprString(e Expr) string {
	if e == nil {
		return ""
	}
	var b strings.Builder
	e.write(&b)
	return b.String()
}

// Name is one occurrence of a name in a rule line.
type Name struct {
	Text       string
	Start, End int
}

// CallSite is one function call in a rule line, with the span of the
// function name.
type CallSite struct {
	Func       string
	Start, End int
}

// Rule is a parsed rule line.
type Rule struct {
	Source      string // the line as given to Parse
	Left, Right Expr
	Op          Op
	OpStart     int // offset of the comparison operator
	OpEnd       int
}

// String renders the rule with canonical spacing: one space around each
// binary and comparison operator, none inside parentheses.
func (r *Rule) String() string {
	var b strings.Builder
	r.Left.write(&b)
	b.WriteByte(' ')
	b.WriteString(r.Op.String())
	b.WriteByte(' ')
	r.Right.write(&b)
	return b.String()
}

// Names returns every name occurrence, in order of appearance, repeats
// included.
func (r *Rule) Names() []Name {
	var out []Name
	walk(r.Left, func(e Expr) {
		if ref, ok := e.(*Ref); ok {
			out = append(out, Name{Text: ref.Name, Start: ref.Start, End: ref.End})
		}
	})
	walk(r.Right, func(e Expr) {
		if ref, ok := e.(*Ref); ok {
			out = append(out, Name{Text: ref.Name, Start: ref.Start, End: ref.End})
		}
	})
	return out
}

// Calls returns every function call, in order of appearance.
func (r *Rule) Calls() []CallSite {
	var out []CallSite
	visit := func(e Expr) {
		if c, ok := e.(*Call); ok {
			out = append(out, CallSite{Func: c.Func, Start: c.Start, End: c.NameEnd})
		}
	}
	walk(r.Left, visit)
	walk(r.Right, visit)
	return out
}

// NamesIn returns the distinct names of an expression, in order of first
// appearance.
func NamesIn(e Expr) []string {
	var out []string
	seen := map[string]bool{}
	walk(e, func(e Expr) {
		if ref, ok := e.(*Ref); ok && !seen[ref.Name] {
			seen[ref.Name] = true
			out = append(out, ref.Name)
		}
	})
	return out
}

// Lone returns the name that forms a whole expression, looking through
// parentheses; ok is false when the expression is anything else. Pins
// (a lone record address on one side of ==) are recognised with it.
func Lone(e Expr) (Name, bool) {
	for {
		switch x := e.(type) {
		case *Paren:
			e = x.X
		case *Ref:
			return Name{Text: x.Name, Start: x.Start, End: x.End}, true
		default:
			return Name{}, false
		}
	}
}

// walk visits e and its children in source order.
func walk(e Expr, visit func(Expr)) {
	switch x := e.(type) {
	case nil:
		return
	case *Neg:
		visit(x)
		walk(x.X, visit)
	case *Binary:
		walk(x.X, visit)
		visit(x)
		walk(x.Y, visit)
	case *Paren:
		visit(x)
		walk(x.X, visit)
	case *Call:
		visit(x)
		for _, a := range x.Args {
			walk(a, visit)
		}
	default:
		visit(x)
	}
}
