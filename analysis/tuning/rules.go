package tuning

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/ruleline"
	"github.com/gddls/gddls/contracts/source"
)

// IsRecordField reports whether a rule operand is a record-field address,
// collections.<collection>.<record>.<field>.
func IsRecordField(name string) bool {
	return strings.HasPrefix(name, "collections.") && strings.Count(name, ".") == 3
}

// rules reads the rules table and checks each rule over the authored
// numbers and over guesses.
func (b *builder) rules(rules *jsonsrc.Value) {
	for _, m := range effective(rules) {
		r := &RuleEntry{Name: m.Key, NameSpan: m.KeySpan(), LineSpan: m.Value.Span()}
		b.f.Rules = append(b.f.Rules, r)
		if !source.IsKebab(m.Key) {
			b.report(CodeRuleInvalid, source.Error, m.KeySpan(), fmt.Sprintf("rule name %q is not kebab-case; use lowercase letters and digits in groups joined by single hyphens, such as %q", m.Key, "dash-covers-a-tile"))
		}
		if m.Value.Kind() != jsonsrc.String {
			b.report(CodeRuleInvalid, source.Error, m.Value.Span(), fmt.Sprintf("rule %q is %s; a rule is a string holding one comparison, such as %q", m.Key, m.Value.Describe(), "a.b <= c.d"))
			continue
		}
		r.IsString, r.Line = true, m.Value.Str()
		sp := m.Value.Span()
		r.exact = sp.Start >= 0 && sp.End <= len(b.data) && sp.End-sp.Start >= 2 && string(b.data[sp.Start+1:sp.End-1]) == r.Line
		rule, err := ruleline.Parse(r.Line)
		if err != nil {
			r.Err = err
			b.report(CodeRuleInvalid, source.Error, r.SpanOf(err.Start, err.End), fmt.Sprintf("rule %q cannot be read: %s", m.Key, err.Msg))
			continue
		}
		r.Parsed = rule
		b.check(r)
	}
}

// check resolves the names of a parsed rule and evaluates it.
func (b *builder) check(r *RuleEntry) {
	unknown := false
	reported := map[string]bool{}
	for _, n := range r.Parsed.Names() {
		if IsRecordField(n.Text) {
			r.RecordFields = true
			continue
		}
		if _, ok := b.f.Lookup(n.Text); ok {
			continue
		}
		unknown = true
		if reported[n.Text] {
			continue
		}
		reported[n.Text] = true
		b.report(CodeRuleInvalid, source.Error, r.SpanOf(n.Start, n.End), fmt.Sprintf("rule %q names %q, which is not a key of values or open%s", r.Name, n.Text, b.unknownHint(n.Text)))
	}
	if unknown || r.RecordFields {
		return // CheckEnvironments evaluates a rule that names a record field
	}
	authored := &scope{f: b.f}
	for _, x := range authored.evaluate(r) {
		b.report(x.code, x.sev, x.span, x.msg, x.related...)
	}
}

// unknownHint explains an unknown rule operand: a single segment, or a
// hyphen that was meant as a minus sign.
func (b *builder) unknownHint(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] != '-' {
			continue
		}
		left, right := name[:i], name[i+1:]
		_, lok := b.f.Lookup(left)
		_, rok := b.f.Lookup(right)
		if _, err := strconv.ParseFloat(right, 64); err == nil {
			rok = true
		}
		if lok && rok {
			return fmt.Sprintf("; to subtract, put spaces around the minus: %s - %s", left, right)
		}
	}
	if !strings.Contains(name, ".") {
		return "; a tuning key has two or more segments joined by dots"
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
