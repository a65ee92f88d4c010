package contracts

import (
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// State is an adoption evaluated in the three stages of SPEC §10.3 rule 2:
// the forms of the unconditional values and the row counts, then the asked
// questions and their answers, then the active declarations. It also holds
// the resolved number of each supplied value.
type State struct {
	a *Adoption
	r Resolver

	forms  map[string]string // form of each supplied unconditional value
	counts map[string]int    // length of each declared row set's array

	cycles   [][]*Question // question dependency cycles through flag
	asked    map[string]bool
	askedMis map[string]bool // not asked because an input is missing
	visiting map[string]bool

	active    map[string]bool
	activeMis map[string]bool // inactive because an input is missing

	values  map[string]*resolution
	path    []string            // values being resolved, outermost first
	inCycle map[string]bool     // values on a citation cycle
	cycleOf map[string][]string // the cycle of each such value
}

// resolution is the outcome of resolving one supplied value.
type resolution struct {
	num      float64
	ok       bool
	done     bool
	visiting bool
	fault    *source.Finding // a citation finding, Code set
}

// Evaluate evaluates a. r may be nil; citations are then not resolved and
// only values supplied as numbers have resolved numbers.
func Evaluate(a *Adoption, r Resolver) *State {
	s := &State{a: a, r: r,
		forms: map[string]string{}, counts: map[string]int{},
		asked: map[string]bool{}, askedMis: map[string]bool{}, visiting: map[string]bool{},
		active: map[string]bool{}, activeMis: map[string]bool{},
		values:  map[string]*resolution{},
		inCycle: map[string]bool{}, cycleOf: map[string][]string{},
	}
	if a == nil {
		return s
	}
	// Stage 1: forms of unconditional values, lengths of row arrays.
	for _, d := range a.Values {
		if d.When != nil {
			continue
		}
		if v := a.SuppliedValue(d.Name.Text); v != nil {
			if f := valueForm(v.Value); f != "" {
				s.forms[d.Name.Text] = f
			}
		}
	}
	for _, set := range a.RowSets {
		if ra := a.RowArray(set.Name.Text); ra != nil && ra.Value != nil && ra.Value.Kind() == jsonsrc.Array {
			s.counts[set.Name.Text] = len(ra.Value.Elems())
		}
	}
	// Stage 2: asked questions. A question on a cycle through flag has no
	// defined answer to "is it asked": it counts as asked, so that its
	// answer is still checked. Every other question is decided by its
	// condition as usual.
	s.cycles = questionCycles(a)
	for _, cycle := range s.cycles {
		for _, q := range cycle {
			s.asked[q.Name.Text] = true
		}
	}
	for _, q := range a.Questions {
		s.isAsked(q.Name.Text)
	}
	// Stage 3: active declarations.
	for _, d := range a.Values {
		if d.When == nil {
			s.active[d.Name.Text] = true
			continue
		}
		ok, mis := s.eval(d.When, nil, false, false)
		s.active[d.Name.Text] = ok
		s.activeMis[d.Name.Text] = !ok && mis
	}
	for _, v := range a.Supplied {
		s.resolve(v.Name.Text)
	}
	return s
}

// Adoption returns the evaluated adoption.
func (s *State) Adoption() *Adoption { return s.a }

func (s *State) isAsked(id string) bool {
	if v, ok := s.asked[id]; ok {
		return v
	}
	q := s.a.Question(id)
	if q == nil || s.visiting[id] {
		return false
	}
	if q.When == nil {
		s.asked[id] = true
		return true
	}
	s.visiting[id] = true
	ok, mis := s.eval(q.When, nil, false, false)
	delete(s.visiting, id)
	s.asked[id] = ok
	s.askedMis[id] = !ok && mis
	return ok
}

// Asked reports whether question id is declared and asked.
func (s *State) Asked(id string) bool { return s.asked[id] }

// Answer returns the recorded answer of an asked question.
func (s *State) Answer(id string) (string, bool) {
	if !s.asked[id] {
		return "", false
	}
	ans := s.a.Answer(id)
	if ans == nil || !ans.IsString {
		return "", false
	}
	return ans.Option, true
}

// Active reports whether the value declaration named name is declared and
// active.
func (s *State) Active(name string) bool { return s.active[name] }

// Resolved returns the resolved number of the value named name: the number
// supplied, or the number its citation resolves to. It is false for an
// inactive declaration, a missing value or a citation that does not
// resolve.
func (s *State) Resolved(name string) (float64, bool) {
	r := s.values[name]
	if r == nil || !r.ok || !s.active[name] {
		return 0, false
	}
	return r.num, true
}

// Rows returns the rows of the row set named set, in authored order.
func (s *State) Rows(set string) []*Row {
	if ra := s.a.RowArray(set); ra != nil {
		return ra.Rows
	}
	return nil
}

// Holds evaluates c. row is the object a `row` form reads, or nil (a `row`
// form then holds only when its map is empty). A condition of flag and row
// forms only is read as in a field's or template's when (both must hold);
// any other is read as in a question's or declaration's when. A nil
// condition holds.
func (s *State) Holds(c *Condition, row *Row) bool {
	ok, _ := s.eval(c, row, rowDomain(c), false)
	return ok
}

// HoldsFlag evaluates only the `flag` form of c; it holds when c has none.
func (s *State) HoldsFlag(c *Condition) bool {
	f := c.Form(FormFlag)
	if f == nil {
		return true
	}
	ok, _ := s.flag(f)
	return ok
}

// FieldRequired reports whether row must carry field f: f is required, or
// its when holds for the row.
func (s *State) FieldRequired(row *Row, f *Field) bool {
	if f.When != nil {
		ok, _ := s.eval(f.When, row, true, false)
		return ok
	}
	return f.Required
}

// FieldAllowed reports whether row may carry field f: f has no when, or its
// when holds for the row.
func (s *State) FieldAllowed(row *Row, f *Field) bool {
	if f.When == nil {
		return true
	}
	ok, _ := s.eval(f.When, row, true, false)
	return ok
}

// QuestionCycles returns the question dependency cycles through flag; each
// cycle lists its questions in order.
func (s *State) QuestionCycles() [][]*Question { return s.cycles }

func rowDomain(c *Condition) bool {
	if c == nil {
		return true
	}
	for _, f := range c.Forms {
		switch f.Kind {
		case FormValueForm, FormRowCount, FormAny, FormAll, FormRowHas:
			return false
		}
	}
	return true
}

// eval evaluates c. rowDom reads c as a field or template when (flag and
// row, both must hold); otherwise the first form by priority decides.
// nested marks a member of any or all. mis reports that a false result
// read an absent answer, value, row array or row field.
func (s *State) eval(c *Condition, row *Row, rowDom, nested bool) (ok, mis bool) {
	if c == nil || c.Value == nil || c.Value.Kind() != jsonsrc.Object {
		return true, false
	}
	if rowDom {
		if f := c.Form(FormFlag); f != nil {
			if ok, mis := s.flag(f); !ok {
				return false, mis
			}
		}
		if f := c.Form(FormRow); f != nil {
			if ok, mis := rowMatches(f, row); !ok {
				return false, mis
			}
		}
		return true, false
	}
	for _, k := range []FormKind{FormFlag, FormValueForm, FormRowCount, FormAny, FormAll, FormRowHas} {
		f := c.Form(k)
		if f == nil {
			continue
		}
		switch k {
		case FormFlag:
			return s.flag(f)
		case FormValueForm:
			return s.valueFormHolds(f)
		case FormRowCount:
			return s.rowCount(f)
		case FormAny:
			if nested || f.Value == nil || f.Value.Kind() != jsonsrc.Array {
				return false, false
			}
			anyMis := false
			for _, m := range f.Members {
				ok, mis := s.eval(m, row, false, true)
				if ok {
					return true, false
				}
				anyMis = anyMis || mis
			}
			return false, anyMis
		case FormAll:
			if nested || f.Value == nil || f.Value.Kind() != jsonsrc.Array {
				return false, false
			}
			for _, m := range f.Members {
				if ok, mis := s.eval(m, row, false, true); !ok {
					return false, mis
				}
			}
			return true, false
		case FormRowHas:
			if nested {
				return false, false
			}
			return s.rowHas(f)
		}
	}
	return false, false
}

func (s *State) flag(f *Form) (bool, bool) {
	if f.Value == nil || f.Value.Kind() != jsonsrc.Object {
		return false, false
	}
	for _, e := range f.Entries {
		if !s.isAsked(e.Name.Text) {
			return false, s.askedMis[e.Name.Text]
		}
		ans := s.a.Answer(e.Name.Text)
		if ans == nil {
			return false, true
		}
		if !ans.IsString || !inStrings(e.Items, ans.Option) {
			return false, false
		}
	}
	return true, false
}

func inStrings(items []*jsonsrc.Value, s string) bool {
	for _, it := range items {
		if it.Kind() == jsonsrc.String && it.Str() == s {
			return true
		}
	}
	return false
}

func (s *State) valueFormHolds(f *Form) (bool, bool) {
	if f.Value == nil || f.Value.Kind() != jsonsrc.Object {
		return false, false
	}
	for _, e := range f.Entries {
		form, ok := s.forms[e.Name.Text]
		if !ok {
			d := s.a.Declaration(e.Name.Text)
			return false, d != nil && d.When == nil && s.a.SuppliedValue(e.Name.Text) == nil
		}
		if !inStrings(e.Items, form) {
			return false, false
		}
	}
	return true, false
}

func (s *State) rowCount(f *Form) (bool, bool) {
	if f.Value == nil || f.Value.Kind() != jsonsrc.Object {
		return false, false
	}
	for _, e := range f.Entries {
		n, ok := s.counts[e.Name.Text]
		if !ok {
			return false, s.a.RowSet(e.Name.Text) != nil && s.a.RowArray(e.Name.Text) == nil
		}
		if e.Value == nil || e.Value.Kind() != jsonsrc.String {
			return false, false
		}
		switch e.Value.Str() {
		case "empty":
			ok = n == 0
		case "non-empty":
			ok = n >= 1
		case "at-least-two":
			ok = n >= 2
		default:
			ok = false
		}
		if !ok {
			return false, false
		}
	}
	return true, false
}

func (s *State) rowHas(f *Form) (bool, bool) {
	if f.Value == nil || f.Value.Kind() != jsonsrc.Object {
		return false, false
	}
	for _, e := range f.Entries {
		if _, ok := s.counts[e.Name.Text]; !ok {
			return false, s.a.RowSet(e.Name.Text) != nil && s.a.RowArray(e.Name.Text) == nil
		}
		if e.Inner == nil || e.Value == nil || e.Value.Kind() != jsonsrc.Object {
			return false, false
		}
		found := false
		for _, row := range s.Rows(e.Name.Text) {
			if ok, _ := rowMatches(e.Inner, row); ok {
				found = true
				break
			}
		}
		if !found {
			return false, false
		}
	}
	return true, false
}

// rowMatches evaluates a row map against row (SPEC §12.3 rule 3).
func rowMatches(f *Form, row *Row) (bool, bool) {
	if f.Value == nil || f.Value.Kind() != jsonsrc.Object {
		return false, false
	}
	for _, e := range f.Entries {
		if row == nil {
			return false, false
		}
		rf := row.Get(e.Name.Text)
		if rf == nil {
			return false, true
		}
		if e.Value == nil || e.Value.Kind() != jsonsrc.Array {
			return false, false
		}
		match := false
		for _, it := range e.Items {
			if jsonsrc.SameScalar(it, rf.Value) {
				match = true
				break
			}
		}
		if !match {
			return false, false
		}
	}
	return true, false
}

// flagDeps returns the flag entries of c's top-level flag and of the flags
// inside its any or all members.
func flagDeps(c *Condition) []*Entry {
	if c == nil {
		return nil
	}
	var out []*Entry
	for _, f := range c.Forms {
		switch f.Kind {
		case FormFlag:
			out = append(out, f.Entries...)
		case FormAny, FormAll:
			for _, m := range f.Members {
				for _, mf := range m.Forms {
					if mf.Kind == FormFlag {
						out = append(out, mf.Entries...)
					}
				}
			}
		}
	}
	return out
}

// questionCycles finds the strongly connected components of the question
// dependency graph that form cycles (Tarjan's algorithm).
func questionCycles(a *Adoption) [][]*Question {
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var out [][]*Question
	n := 0
	var strong func(id string)
	strong = func(id string) {
		index[id], low[id] = n, n
		n++
		stack = append(stack, id)
		onStack[id] = true
		self := false
		for _, e := range flagDeps(a.Question(id).When) {
			dep := e.Name.Text
			if a.Question(dep) == nil {
				continue
			}
			if dep == id {
				self = true
			}
			if _, seen := index[dep]; !seen {
				strong(dep)
				low[id] = min(low[id], low[dep])
			} else if onStack[dep] {
				low[id] = min(low[id], index[dep])
			}
		}
		if low[id] == index[id] {
			var comp []string
			for {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[top] = false
				comp = append(comp, top)
				if top == id {
					break
				}
			}
			if len(comp) > 1 || self {
				var qs []*Question
				for i := len(comp) - 1; i >= 0; i-- {
					qs = append(qs, a.Question(comp[i]))
				}
				out = append(out, qs)
			}
		}
	}
	for _, q := range a.Questions {
		if _, seen := index[q.Name.Text]; !seen {
			strong(q.Name.Text)
		}
	}
	return out
}

// Explain says in a short phrase why c does not hold, for messages and
// code lenses. It returns "" for a nil condition.
func (s *State) Explain(c *Condition) string {
	if c == nil {
		return ""
	}
	for _, f := range c.Forms {
		switch f.Kind {
		case FormFlag:
			for _, e := range f.Entries {
				if !s.isAsked(e.Name.Text) {
					return "question " + strconv.Quote(e.Name.Text) + " is not asked"
				}
				ans := s.a.Answer(e.Name.Text)
				want := s.a.itemTexts(e.Items)
				if ans == nil {
					return "question " + strconv.Quote(e.Name.Text) + " has no answer (it must be one of " + want + ")"
				}
				if !ans.IsString || !inStrings(e.Items, ans.Option) {
					return "the answer of " + strconv.Quote(e.Name.Text) + " is " + string(s.a.text(ans.Value.Span())) + ", not one of " + want
				}
			}
		case FormValueForm:
			for _, e := range f.Entries {
				form := s.forms[e.Name.Text]
				if !inStrings(e.Items, form) {
					if form == "" {
						form = "not supplied"
					}
					return "value " + strconv.Quote(e.Name.Text) + " is " + form + ", not " + s.a.itemTexts(e.Items)
				}
			}
		case FormRowCount:
			for _, e := range f.Entries {
				n, ok := s.counts[e.Name.Text]
				if !ok {
					return "row set " + strconv.Quote(e.Name.Text) + " has no rows array"
				}
				if ok, _ := s.rowCount(&Form{Kind: FormRowCount, Value: f.Value, Entries: []*Entry{e}}); !ok {
					return "row set " + strconv.Quote(e.Name.Text) + " has " + strconv.Itoa(n) + " rows"
				}
			}
		case FormAny:
			return "no member of \"any\" holds"
		case FormAll:
			for _, m := range f.Members {
				if ok, _ := s.eval(m, nil, false, true); !ok {
					return s.Explain(m)
				}
			}
		case FormRowHas:
			return "no row matches \"row-has\""
		}
	}
	return "its condition does not hold"
}

func (a *Adoption) itemTexts(items []*jsonsrc.Value) string {
	var out []string
	for _, it := range items {
		if it.Kind() == jsonsrc.String {
			out = append(out, it.Str())
		} else {
			out = append(out, string(a.text(it.Span())))
		}
	}
	return strings.Join(out, ", ")
}

// text returns the source bytes under span, clamped to the data.
func (a *Adoption) text(span source.Span) []byte {
	start, end := max(0, span.Start), min(len(a.Data), span.End)
	if start >= end {
		return nil
	}
	return a.Data[start:end]
}
