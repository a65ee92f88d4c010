package tuning

import (
	"fmt"
	"sort"

	"github.com/gddls/gddls/analysis/personalization"
	"github.com/gddls/gddls/contracts/source"
)

// defaultsPrefix opens the message of a finding over the package defaults.
const defaultsPrefix = "with the package defaults of personalization.json, "

// CheckEnvironments evaluates the rules that need the rest of the package
// (SPEC §4, "Pins", "Environments", "Evaluation", "Package defaults"):
//
//   - every rule that names a record field, over the authored numbers with
//     the pins computed from the authored base; a field that breaks rule 3
//     (absent from its record, or not numeric) is TUNING_RULE_INVALID on the
//     operand, and two pins that disagree are TUNING_PIN_CONFLICT;
//   - every rule again over the package defaults of personalization.json,
//     when a default answer changes a number. A finding of that environment
//     says so in its message, and one that the authored environment gives
//     identically is left out.
//
// records looks up the package's collections; pers is the read
// personalization.json, nil when the package has none (its Name is the
// file in related information). The findings do not
// repeat those of Parse, which evaluates the rules without record fields
// over the authored numbers. The method reads its inputs only and keeps no
// state, so its result can be cached on them.
func (f *File) CheckEnvironments(records RecordLookup, pers *personalization.File) []source.Finding {
	if f == nil || !f.Readable {
		return nil
	}
	fields := newFieldTable(records)
	var out []source.Finding
	add := func(x finding, msg string) {
		out = append(out, source.Finding{Code: x.code, Severity: x.sev, File: f.Name, Span: x.span, Message: msg, Related: x.related})
	}
	rules := f.usableRules(fields, func(x finding) { add(x, x.msg) })

	authored := &scope{f: f, fields: fields}
	found := authored.computePins(rules)
	for _, r := range rules {
		found = append(found, authored.evaluate(r)...)
	}
	for _, x := range found {
		if x.rule.RecordFields { // Parse reports the others
			add(x, x.msg)
		}
	}

	if defaults := f.packageDefaults(pers); len(defaults) > 0 {
		same := map[string]bool{}
		for _, x := range found {
			same[x.key()] = true
		}
		d := &scope{f: f, defaults: defaults, fields: fields}
		again := d.computePins(rules)
		for _, r := range rules {
			again = append(again, d.evaluate(r)...)
		}
		for _, x := range again {
			if !same[x.key()] {
				add(x, defaultsPrefix+x.msg)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	return out
}

// key identifies a finding up to its environment.
func (x finding) key() string {
	return fmt.Sprintf("%s|%d|%d|%s", x.code, x.span.Start, x.span.End, x.msg)
}

// usableRules returns the rules that can be evaluated: read lines whose
// tuning keys exist and whose record fields obey rule 3. It reports each
// record field that breaks rule 3, once per rule.
func (f *File) usableRules(fields *fieldTable, report func(finding)) []*RuleEntry {
	var rules []*RuleEntry
	for _, r := range f.Rules {
		if r.Parsed == nil {
			continue
		}
		ok := true
		reported := map[string]bool{}
		for _, n := range r.Parsed.Names() {
			if !IsRecordField(n.Text) {
				if _, known := f.Lookup(n.Text); !known {
					ok = false // Parse reports the unknown key
				}
				continue
			}
			fd := fields.get(n.Text)
			if fd.problem == "" {
				continue
			}
			ok = false
			if reported[n.Text] {
				continue
			}
			reported[n.Text] = true
			report(finding{rule: r, code: CodeRuleInvalid, sev: source.Error, span: r.SpanOf(n.Start, n.End),
				msg: fmt.Sprintf("rule %q names %s, but %s", r.Name, n.Text, fd.problem)})
		}
		if ok {
			rules = append(rules, r)
		}
	}
	return rules
}
