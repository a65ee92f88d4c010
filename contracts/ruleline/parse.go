package ruleline

import (
	"fmt"
	"strings"
)

// maxDepth bounds the nesting of parentheses, calls and unary minus.
const maxDepth = 64

// function arities: the least and the greatest number of arguments; -1 is
// unbounded.
func arity(name string) (least, most int, ok bool) {
	switch name {
	case "min", "max":
		return 1, -1, true
	case "floor":
		return 1, 1, true
	}
	return 0, 0, false
}

// Functions returns the names of the functions a rule line can call.
func Functions() []string { return []string{"floor", "max", "min"} }

type parser struct {
	line  string
	toks  []token
	pos   int
	depth int
}

// Parse reads one rule line. It returns a syntax error for a line that is
// empty, holds no comparison or more than one, calls a function other than
// min, max and floor or with the wrong number of arguments, or is otherwise
// not in the grammar. It does not check whether the names exist.
func Parse(line string) (*Rule, *SyntaxError) {
	if strings.TrimLeft(line, " \t") == "" {
		return nil, &SyntaxError{Start: 0, End: len(line), Msg: "rule line is empty; write one comparison, such as a.b <= c.d"}
	}
	toks, err := lex(line)
	if err != nil {
		return nil, err
	}
	p := &parser{line: line, toks: toks}
	left, err := p.side()
	if err != nil {
		return nil, err
	}
	opTok := p.peek()
	op := comparison(opTok)
	if op == 0 {
		if opTok.kind == tEOF {
			return nil, &SyntaxError{Start: 0, End: len(line), Msg: "rule line has no comparison; join two sides with ==, !=, <, <=, > or >="}
		}
		return nil, p.unexpected(opTok, "expected a comparison operator (==, !=, <, <=, >, >=) or an arithmetic operator")
	}
	p.pos++
	right, err := p.side()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		if comparison(t) != 0 {
			return nil, &SyntaxError{Start: t.start, End: t.end, Msg: "a rule line holds exactly one comparison; write each comparison as its own rule"}
		}
		return nil, p.unexpected(t, "expected the end of the rule line")
	}
	return &Rule{Source: line, Left: left, Right: right, Op: op, OpStart: opTok.start, OpEnd: opTok.end}, nil
}

func comparison(t token) Op {
	if t.kind != tOp {
		return 0
	}
	switch t.text {
	case "==":
		return Eq
	case "!=":
		return Ne
	case "<":
		return Lt
	case "<=":
		return Le
	case ">":
		return Gt
	case ">=":
		return Ge
	}
	return 0
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) isOp(text string) bool {
	t := p.toks[p.pos]
	return t.kind == tOp && t.text == text
}

// unexpected describes token t, which the grammar does not allow here. At
// the end of the line the error points at the last token, which is where
// something is missing.
func (p *parser) unexpected(t token, want string) *SyntaxError {
	if t.kind == tEOF {
		start, end := len(p.line), len(p.line)
		if p.pos > 0 {
			prev := p.toks[p.pos-1]
			start, end = prev.start, prev.end
		}
		return &SyntaxError{Start: start, End: end, Msg: "rule line ends too early: " + want}
	}
	return &SyntaxError{Start: t.start, End: t.end, Msg: fmt.Sprintf("unexpected %q: %s", t.text, want)}
}

// side parses additive := term (('+'|'-') term)*.
func (p *parser) side() (Expr, *SyntaxError) {
	x, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.isOp("+") || p.isOp("-") {
		t := p.peek()
		p.pos++
		y, err := p.term()
		if err != nil {
			return nil, err
		}
		x = &Binary{Op: t.text[0], X: x, Y: y, OpStart: t.start}
	}
	return x, nil
}

// term parses term := unary (('*'|'/') unary)*.
func (p *parser) term() (Expr, *SyntaxError) {
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.isOp("*") || p.isOp("/") {
		t := p.peek()
		p.pos++
		y, err := p.unary()
		if err != nil {
			return nil, err
		}
		x = &Binary{Op: t.text[0], X: x, Y: y, OpStart: t.start}
	}
	return x, nil
}

func (p *parser) enter(t token) *SyntaxError {
	p.depth++
	if p.depth > maxDepth {
		return &SyntaxError{Start: t.start, End: t.end, Msg: fmt.Sprintf("rule line is nested too deeply: more than %d levels", maxDepth)}
	}
	return nil
}

// unary parses unary := '-' unary | primary.
func (p *parser) unary() (Expr, *SyntaxError) {
	if !p.isOp("-") {
		return p.primary()
	}
	t := p.peek()
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.pos++
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	return &Neg{X: x, Start: t.start}, nil
}

const operandWanted = "expected a number, a name, a function call or a parenthesis"

// primary parses a number, a name, a call or a parenthesized side.
func (p *parser) primary() (Expr, *SyntaxError) {
	t := p.peek()
	switch {
	case t.kind == tNumber:
		p.pos++
		return &Number{Value: t.num, Raw: t.text, Start: t.start, End: t.end}, nil
	case t.kind == tName:
		p.pos++
		if p.isOp("(") {
			return p.call(t)
		}
		return &Ref{Name: t.text, Start: t.start, End: t.end}, nil
	case p.isOp("("):
		if err := p.enter(t); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		p.pos++
		x, err := p.side()
		if err != nil {
			return nil, err
		}
		if !p.isOp(")") {
			if p.peek().kind == tEOF {
				return nil, &SyntaxError{Start: t.start, End: t.end, Msg: `parenthesis is never closed; add ")"`}
			}
			return nil, p.unexpected(p.peek(), `expected ")"`)
		}
		end := p.peek().end
		p.pos++
		return &Paren{X: x, Start: t.start, End: end}, nil
	}
	return nil, p.unexpected(t, operandWanted)
}

// call parses the arguments of a call of name; the current token is "(".
func (p *parser) call(name token) (Expr, *SyntaxError) {
	least, most, ok := arity(name.text)
	if !ok {
		return nil, &SyntaxError{Start: name.start, End: name.end, Msg: fmt.Sprintf("unknown function %q; a rule line can call min, max and floor", name.text)}
	}
	open := p.peek()
	if err := p.enter(open); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.pos++
	var args []Expr
	if !p.isOp(")") {
		for {
			a, err := p.side()
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			if !p.isOp(",") {
				break
			}
			p.pos++
		}
	}
	if !p.isOp(")") {
		if p.peek().kind == tEOF {
			return nil, &SyntaxError{Start: open.start, End: open.end, Msg: fmt.Sprintf(`call of %s is never closed; add ")"`, name.text)}
		}
		return nil, p.unexpected(p.peek(), `expected "," or ")"`)
	}
	end := p.peek().end
	p.pos++
	if len(args) < least || most >= 0 && len(args) > most {
		want := "one or more arguments"
		if most == 1 {
			want = "exactly one argument"
		}
		return nil, &SyntaxError{Start: name.start, End: end, Msg: fmt.Sprintf("%s takes %s, not %d", name.text, want, len(args))}
	}
	return &Call{Func: name.text, Args: args, Start: name.start, NameEnd: name.end, End: end}, nil
}
