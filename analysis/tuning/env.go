package tuning

import (
	"fmt"
	"math"
	"strings"

	"github.com/gddls/gddls/contracts/ruleline"
	"github.com/gddls/gddls/contracts/source"
)

// state is what an environment knows of one number a rule names.
type state uint8

const (
	undecided state = iota // neither decided nor guessed: the build decides it
	decided                // in the base, or pinned
	guessed                // an open guess, used for warnings only
	broken                 // its own finding covers it: the rule is not evaluated
)

// number is one number of an environment.
type number struct {
	v    float64
	st   state
	note string // shown after the number in messages: guess, pinned, default
}

// pin is the number a pin rule gives its open record field.
type pin struct {
	rule *RuleEntry
	v    float64
	bad  bool // the pin cannot be computed or breaks its field's type
}

// scope is one environment of the rule check (SPEC §4, "Environments"):
// the authored numbers, or the package defaults of personalization.json.
type scope struct {
	f *File
	// defaults holds the keys a default answer sets to a number other than
	// the authored one; nil in the authored environment.
	defaults map[string]assignment
	// fields resolves record fields; nil when the collections are not
	// known (then every record field is broken).
	fields *fieldTable
	// pins are the pins of the environment, by record address.
	pins map[string]*pin
	// isPin marks the rules that are pins in this environment.
	isPin map[*RuleEntry]bool
}

// finding is a finding of one environment, before its environment is
// named in the message.
type finding struct {
	rule    *RuleEntry
	code    string
	sev     source.Severity
	span    source.Span
	msg     string
	related []source.Related
}

// lookup returns what the environment knows of a name.
func (s *scope) lookup(name string) number {
	if IsRecordField(name) {
		fd := s.fields.get(name)
		switch {
		case fd == nil || fd.unknown || fd.problem != "":
			return number{st: broken}
		case !fd.open:
			return number{v: fd.num, st: decided}
		}
		if p := s.pins[name]; p != nil {
			if p.bad {
				return number{st: broken}
			}
			return number{v: p.v, st: decided, note: "pinned"}
		}
		if fd.has {
			return number{v: fd.num, st: guessed, note: "guess"}
		}
		return number{st: undecided}
	}
	if a, ok := s.defaults[name]; ok {
		return number{v: a.value, st: decided, note: "default"}
	}
	if v, ok := s.f.Decided(name); ok {
		return number{v: v, st: decided}
	}
	e, ok := s.f.Lookup(name)
	switch {
	case !ok || e.bad || !e.Open:
		return number{st: broken}
	case e.HasNumber:
		return number{v: e.Number, st: guessed, note: "guess"}
	}
	return number{st: undecided}
}

// names returns the distinct names of a rule, left side first.
func names(r *ruleline.Rule) []string {
	out := ruleline.NamesIn(r.Left)
	for _, n := range ruleline.NamesIn(r.Right) {
		if !contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// computePins finds the pins among rules and computes them from the base
// (SPEC §4, "Evaluation" rules 1 to 5). Every pin reads the same base: the
// pins map is filled only after all are computed.
func (s *scope) computePins(rules []*RuleEntry) []finding {
	s.pins = map[string]*pin{}
	s.isPin = map[*RuleEntry]bool{}
	var out []finding
	computed := map[string]*pin{}
	inBase := func(name string) (float64, bool) {
		n := s.lookup(name) // s.pins is empty: no pinned number is in the base
		return n.v, n.st == decided
	}
	for _, r := range rules {
		addr, other, ok := s.pinShape(r)
		if !ok {
			continue
		}
		s.isPin[r] = true
		fd := s.fields.get(addr.Text)
		v, err := ruleline.EvalExpr(other, inBase)
		p := &pin{rule: r, v: v}
		switch {
		case err != nil:
			p.bad = true
			out = append(out, finding{rule: r, code: CodeRuleInvalid, sev: source.Error, span: r.SpanOf(err.Start, err.End),
				msg: fmt.Sprintf("rule %q pins %s but cannot be computed over the decided numbers: %s", r.Name, addr.Text, err.Msg)})
		case fd.integer && v != math.Trunc(v):
			p.bad = true
			out = append(out, finding{rule: r, code: CodeRuleInvalid, sev: source.Error, span: r.LineSpan,
				msg: fmt.Sprintf("rule %q pins the integer field %s to %s, which is not a whole number; change the numbers the pin reads or the field's type", r.Name, addr.Text, ruleline.FormatNumber(v))})
		}
		first, seen := computed[addr.Text]
		switch {
		case !seen:
			computed[addr.Text] = p
		case p.bad || first.bad:
			if p.bad {
				first.bad = true // the field has no trustworthy number
			}
		case first.v != p.v:
			out = append(out, finding{rule: r, code: CodePinConflict, sev: source.Error, span: r.LineSpan,
				msg: fmt.Sprintf("rule %q pins %s to %s, but rule %q already pins it to %s; a field takes one number, so make the pins agree or remove one",
					r.Name, addr.Text, ruleline.FormatNumber(p.v), first.rule.Name, ruleline.FormatNumber(first.v)),
				related: []source.Related{{File: s.f.Name, Span: first.rule.LineSpan, Message: "the first pin of " + addr.Text}}})
		}
	}
	s.pins = computed
	return out
}

// pinShape reports whether r is a pin in this environment: an equality
// with one open record address alone on one side and only base numbers and
// literals on the other. It returns the address and the other side.
func (s *scope) pinShape(r *RuleEntry) (ruleline.Name, ruleline.Expr, bool) {
	if r.Parsed == nil || !r.RecordFields || r.Parsed.Op != ruleline.Eq {
		return ruleline.Name{}, nil, false
	}
	try := func(side, other ruleline.Expr) (ruleline.Name, bool) {
		n, ok := ruleline.Lone(side)
		if !ok {
			return n, false
		}
		fd := s.fields.get(n.Text)
		if fd == nil || fd.unknown || fd.problem != "" || !fd.open {
			return n, false
		}
		for _, m := range ruleline.NamesIn(other) {
			if x := s.lookup(m); x.st != decided {
				return n, false
			}
		}
		return n, true
	}
	if n, ok := try(r.Parsed.Left, r.Parsed.Right); ok {
		return n, r.Parsed.Right, true
	}
	if n, ok := try(r.Parsed.Right, r.Parsed.Left); ok {
		return n, r.Parsed.Left, true
	}
	return ruleline.Name{}, nil, false
}

// evaluate checks one rule that is not a pin (SPEC §4, "Evaluation" rules
// 6 to 8).
func (s *scope) evaluate(r *RuleEntry) []finding {
	if r.Parsed == nil || s.isPin[r] {
		return nil
	}
	list := names(r.Parsed)
	nums := make(map[string]number, len(list))
	allDecided, anyUndecided := true, false
	byGuesses := map[string]bool{}
	for _, n := range list {
		x := s.lookup(n)
		nums[n] = x
		switch x.st {
		case broken:
			return nil
		case guessed:
			allDecided = false
			byGuesses[n] = true
		case undecided:
			allDecided, anyUndecided = false, true
		}
	}
	get := func(name string) (float64, bool) {
		x := nums[name]
		return x.v, x.st == decided || x.st == guessed
	}
	if allDecided {
		res := r.Parsed.Eval(get)
		switch {
		case res.Err != nil:
			return []finding{{rule: r, code: CodeRuleInvalid, sev: source.Error, span: r.SpanOf(res.Err.Start, res.Err.End),
				msg:     fmt.Sprintf("rule %q cannot be computed over the decided numbers: %s", r.Name, res.Err.Msg),
				related: s.defaultsUsed(list)}}
		case !res.Holds:
			return []finding{{rule: r, code: CodeRuleFailed, sev: source.Error, span: r.LineSpan,
				msg: failure(r, res, list, nums, false), related: s.defaultsUsed(list)}}
		}
		return nil
	}
	if anyUndecided {
		return nil // a number with neither a value nor a guess: the build decides it
	}
	res := r.Parsed.Eval(get)
	switch {
	case res.Err != nil:
		byGuess := false
		for _, n := range res.Err.Names {
			byGuess = byGuess || byGuesses[n]
		}
		if byGuess {
			return []finding{{rule: r, code: CodeRuleGuessUncompute, sev: source.Warning, span: r.SpanOf(res.Err.Start, res.Err.End),
				msg:     fmt.Sprintf("rule %q cannot be computed with the guesses of open numbers: %s; check the guesses", r.Name, res.Err.Msg),
				related: s.defaultsUsed(list)}}
		}
		return []finding{{rule: r, code: CodeRuleInvalid, sev: source.Error, span: r.SpanOf(res.Err.Start, res.Err.End),
			msg:     fmt.Sprintf("rule %q cannot be computed: %s", r.Name, res.Err.Msg),
			related: s.defaultsUsed(list)}}
	case !res.Holds:
		return []finding{{rule: r, code: CodeRuleGuessFailed, sev: source.Warning, span: r.LineSpan,
			msg: failure(r, res, list, nums, true), related: s.defaultsUsed(list)}}
	}
	return nil
}

// defaultsUsed points at the default answers that set numbers of the rule.
func (s *scope) defaultsUsed(list []string) []source.Related {
	var out []source.Related
	for _, n := range list {
		if a, ok := s.defaults[n]; ok && a.file != "" {
			by := fmt.Sprintf("the default of question %q", a.question)
			if a.option != "" {
				by = fmt.Sprintf("the default option %q of question %q", a.option, a.question)
			}
			out = append(out, source.Related{File: a.file, Span: a.span,
				Message: fmt.Sprintf("%s sets %s to %s", by, n, ruleline.FormatNumber(a.value))})
		}
	}
	return out
}

// failure writes the three lines of a false rule: its name, its line, and
// the numbers used with the computed comparison.
func failure(r *RuleEntry, res ruleline.Result, list []string, nums map[string]number, withGuesses bool) string {
	var used []string
	for _, n := range list {
		x := nums[n]
		s := n + " = " + ruleline.FormatNumber(x.v)
		if x.note != "" {
			s += " (" + x.note + ")"
		}
		used = append(used, s)
	}
	comparison := fmt.Sprintf("%s %s %s is false", ruleline.FormatNumber(res.Left), r.Parsed.Op, ruleline.FormatNumber(res.Right))
	head := fmt.Sprintf("rule %q does not hold", r.Name)
	if withGuesses {
		head = fmt.Sprintf("rule %q does not hold with the guesses of open numbers", r.Name)
	}
	line := comparison
	if len(used) > 0 {
		line = "with " + strings.Join(used, ", ") + ": " + comparison
	}
	return head + "\n  " + strings.TrimSpace(r.Line) + "\n  " + line
}
