package contracts

import (
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/ruleline"
	"github.com/gddls/gddls/contracts/source"
)

// rules checks SPEC §10.6.
func (c *checker) rules() {
	for _, r := range c.a.Rules {
		if !source.IsKebab(r.Name.Text) {
			c.add("CONTRACT_RULE_INVALID", r.Name.Span, "rule name "+strconv.Quote(r.Name.Text)+" must be kebab-case")
		}
		switch r.Kind {
		case RuleComparison:
			c.comparison(r)
		case RuleAnswerAware:
			c.answerAware(r)
		default:
			c.add("CONTRACT_RULE_INVALID", r.Value.Span(), "rule "+strconv.Quote(r.Name.Text)+" must be a comparison string or an answer-aware rule object, not "+r.Value.Describe())
		}
	}
}

// lineSpan maps a byte range of a rule line to the file when the JSON
// string holds no escape; otherwise it returns the whole string.
func (c *checker) lineSpan(r *Rule, start, end int) source.Span {
	return lineSpan(c.a, r, start, end)
}

func lineSpan(a *Adoption, r *Rule, start, end int) source.Span {
	v := r.Value
	inner := a.text(source.Span{Start: v.Span().Start + 1, End: v.Span().End - 1})
	if string(inner) != r.Line || start < 0 || end > len(r.Line) || start > end {
		return v.Span()
	}
	if end == start {
		if end < len(r.Line) {
			end++
		} else if start > 0 {
			start--
		} else {
			return v.Span()
		}
	}
	return source.Span{Start: v.Span().Start + 1 + start, End: v.Span().Start + 1 + end}
}

func (c *checker) comparison(r *Rule) {
	a, s := c.a, c.s
	who := "rule " + strconv.Quote(r.Name.Text)
	rl, serr := ruleline.Parse(r.Line)
	if serr != nil {
		c.add("CONTRACT_RULE_INVALID", c.lineSpan(r, serr.Start, serr.End), who+" cannot be read: "+serr.Msg)
		return
	}
	bad := false
	for _, n := range rl.Names() {
		if a.Declaration(n.Text) == nil {
			c.add("CONTRACT_RULE_INVALID", c.lineSpan(r, n.Start, n.End), who+" names "+strconv.Quote(n.Text)+
				", which is not a value this definition declares"+suggest(n.Text, a.ValueNames()))
			bad = true
		}
	}
	if bad {
		return
	}
	var missing []string
	seen := map[string]bool{}
	for _, n := range rl.Names() {
		if seen[n.Text] {
			continue
		}
		seen[n.Text] = true
		if !s.Active(n.Text) {
			return // SPEC §10.6 rule 2: evaluated only while every named declaration is active
		}
		if a.SuppliedValue(n.Text) == nil {
			missing = append(missing, n.Text)
		}
	}
	if len(missing) > 0 {
		f := c.add("CONTRACT_RULE_INVALID", r.Value.Span(), who+" cannot be evaluated: it needs "+strings.Join(quoteAll(missing), ", ")+
			", which "+plural(len(missing), "is", "are")+" not supplied in \"values\"")
		f.Dependent = true
		return
	}
	res := rl.Eval(s.Resolved)
	if len(res.Missing) > 0 {
		return // a supplied value did not resolve; its own finding says why
	}
	if res.Err != nil {
		c.add("CONTRACT_RULE_INVALID", c.lineSpan(r, res.Err.Start, res.Err.End), who+" cannot be computed: "+res.Err.Msg)
		return
	}
	if !res.Holds {
		var parts []string
		for _, n := range rl.Names() {
			v, _ := s.Resolved(n.Text)
			p := n.Text + " = " + ruleline.FormatNumber(v)
			if !containsStr(parts, p) {
				parts = append(parts, p)
			}
		}
		c.add("CONTRACT_RULE_FAILED", r.Value.Span(), who+" is false: "+r.Line+" with "+strings.Join(parts, ", ")+
			" gives "+ruleline.FormatNumber(res.Left)+" "+rl.Op.String()+" "+ruleline.FormatNumber(res.Right))
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Quote(n)
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (c *checker) answerAware(r *Rule) {
	a := c.a
	who := "rule " + strconv.Quote(r.Name.Text)
	obj := r.Value
	valid := true
	for _, m := range obj.Members() {
		if isAnnotation(m.Key) {
			continue
		}
		switch m.Key {
		case "forbid", "message", "severity":
		default:
			c.add("CONTRACT_RULE_INVALID", m.KeySpan(), who+": "+strconv.Quote(m.Key)+" is not a field of an answer-aware rule; allowed: forbid, message, severity"+
				suggest(m.Key, []string{"forbid", "message", "severity"}))
			valid = false
		}
	}
	if r.Forbid == nil {
		c.add("CONTRACT_RULE_INVALID", r.Name.Span, who+" lacks \"forbid\"")
		valid = false
	} else {
		for _, p := range CheckCondition(r.Forbid, InForbid, a, nil) {
			c.add("CONTRACT_RULE_INVALID", p.Span, who+": "+p.Msg)
			valid = false
		}
	}
	if r.Message == nil {
		c.add("CONTRACT_RULE_INVALID", r.Name.Span, who+" lacks \"message\"")
		valid = false
	} else if r.Message.Kind() != jsonsrc.String || strings.TrimSpace(r.Message.Str()) == "" {
		c.add("CONTRACT_RULE_INVALID", r.Message.Span(), who+": \"message\" must be a non-empty string")
		valid = false
	}
	if sv := obj.Get("severity"); sv != nil && (sv.Kind() != jsonsrc.String || (sv.Str() != "error" && sv.Str() != "warning")) {
		c.add("CONTRACT_RULE_INVALID", sv.Span(), who+": \"severity\" is \"error\" or \"warning\"")
		valid = false
	}
	if !valid {
		return
	}
	entries, ok := c.forbidBranch(r.Forbid)
	if !ok {
		return
	}
	span := r.Name.Span
	var related []source.Related
	first := true
	for _, e := range entries {
		ans := a.Answer(e.Name.Text)
		if ans == nil {
			continue
		}
		if first {
			span = ans.Value.Span()
			first = false
			continue
		}
		related = append(related, source.Related{File: a.File, Span: ans.Value.Span(), Message: "the answer of " + strconv.Quote(e.Name.Text)})
	}
	related = append(related, source.Related{File: a.File, Span: r.Name.Span, Message: "the rule " + strconv.Quote(r.Name.Text)})
	f := c.add("CONTRACT_RULE_FORBIDDEN", span, r.Message.Str())
	f.Severity = r.Severity
	f.Related = related
}

// forbidBranch evaluates a valid forbid condition and returns the flag
// entries of the branch that holds.
func (c *checker) forbidBranch(cond *Condition) ([]*Entry, bool) {
	s := c.s
	for _, f := range cond.Forms {
		switch f.Kind {
		case FormFlag:
			if ok, _ := s.flag(f); ok {
				return f.Entries, true
			}
			return nil, false
		case FormAny:
			for _, m := range f.Members {
				if ok, _ := s.eval(m, nil, false, true); ok {
					return flagDeps(m), true
				}
			}
			return nil, false
		case FormAll:
			var out []*Entry
			for _, m := range f.Members {
				if ok, _ := s.eval(m, nil, false, true); !ok {
					return nil, false
				}
				out = append(out, flagDeps(m)...)
			}
			return out, true
		}
	}
	return nil, false
}

// RuleRefs returns the value names that comparison rule r reads, each with
// the span of its occurrence in the file (the whole rule string when the
// JSON string holds escapes). It returns nil for a rule that is not a
// readable comparison.
func (a *Adoption) RuleRefs(r *Rule) []Name {
	if r == nil || r.Kind != RuleComparison {
		return nil
	}
	rl, err := ruleline.Parse(r.Line)
	if err != nil {
		return nil
	}
	var out []Name
	for _, n := range rl.Names() {
		out = append(out, Name{Text: n.Text, Span: lineSpan(a, r, n.Start, n.End)})
	}
	return out
}
