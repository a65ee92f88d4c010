package analysis

import (
	"fmt"
	"strings"

	"github.com/gddls/gddls/analysis/personalization"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts/ruleline"
	"github.com/gddls/gddls/contracts/source"
)

// persResult is the memoized check of personalization.json's sets targets
// against tuning.json, valid while tuning.json's parse is the one it read.
type persResult struct {
	deps     []dep
	sources  *depSources
	findings []source.Finding
}

// checkPersonalization reports personalization.json's findings (SPEC §5):
// those of the file by itself, and those of its sets targets, which read
// tuning.json. The target checks other than rule 7 hold back while
// tuning.json is absent or does not parse.
func (b *builder) checkPersonalization(p *Package) {
	if p.pers == nil {
		return
	}
	b.findings = append(b.findings, p.pers.Findings...)
	entry := p.files.get("personalization.json").entry
	if r := entry.persChecked; r != nil && p.depsValid(r.deps, r.sources, nil) {
		b.findings = append(b.findings, r.findings...)
		return
	}
	d := dep{kind: depTuning}
	d.seen = p.token(d, nil)
	r := &persResult{deps: []dep{d}, sources: p.sourcesOf([]dep{d}), findings: p.checkSetsTargets()}
	entry.persChecked = r
	b.findings = append(b.findings, r.findings...)
}

// checkSetsTargets reports every sets target that no answer may set
// (PERSONALIZATION_SETS_TARGET, _SETS_UNRANGED) and every package-supplied
// number outside its key's range (PERSONALIZATION_SETS_RANGE).
func (p *Package) checkSetsTargets() []source.Finding {
	var out []source.Finding
	file := p.pers.Name
	report := func(code string, span source.Span, msg string, related ...source.Related) {
		out = append(out, source.Finding{Code: code, Severity: source.Error, File: file, Span: span, Message: msg, Related: related})
	}
	for _, t := range p.pers.Targets() {
		e, s := p.Tuning.SetsTarget(t.Key)
		switch s {
		case tuning.ContractValue:
			report(personalization.CodeSetsTarget, t.KeySpan, fmt.Sprintf("%q names a contract value; a contract's values are fixed in its adoption and no build can set them, so set a tuning key of values or open instead", t.Key))
		case tuning.NotAKey:
			msg := fmt.Sprintf("%q is not a key of tuning.json's values or open, so no answer can set it", t.Key)
			var related []source.Related
			if strings.HasPrefix(t.Key, "collections.") {
				msg = fmt.Sprintf("%q names a record field; collection records are fixed package data, not personalization targets, so set a tuning key of values or open instead", t.Key)
			} else if n := Nearest(t.Key, p.SettableKeys()); n != "" {
				msg += fmt.Sprintf("; did you mean %q?", n)
				if e, ok := p.Tuning.Lookup(n); ok {
					related = append(related, source.Related{File: p.TuningFile.Path, Span: e.KeySpan, Message: "the key " + n})
				}
			} else {
				msg += "; add it to open (or to values with a range), or correct the name"
			}
			report(personalization.CodeSetsTarget, t.KeySpan, msg, related...)
		case tuning.Unranged:
			report(personalization.CodeSetsUnranged, t.KeySpan,
				fmt.Sprintf("%q is a decided number (a values key without a range), which no build may change; give it a range in ranges, or move it to open", t.Key),
				source.Related{File: p.TuningFile.Path, Span: e.KeySpan, Message: "the decided key " + t.Key})
		case tuning.Settable:
			if !t.HasValue || e.Admits(t.Value) {
				continue
			}
			lo, hi := ruleline.FormatNumber(e.Range[0]), ruleline.FormatNumber(e.Range[1])
			who := fmt.Sprintf("the default of question %q", t.Question.ID)
			if t.Option != nil {
				who = fmt.Sprintf("option %q of question %q", t.Option.ID, t.Question.ID)
			}
			r, _ := p.Tuning.Range(t.Key) // a key with a range has its entry
			report(personalization.CodeSetsRange, t.ValueSpan,
				fmt.Sprintf("%s sets %q to %s, outside its range [%s, %s]; choose a number inside the range, or widen the range", who, t.Key, ruleline.FormatNumber(t.Value), lo, hi),
				source.Related{File: p.TuningFile.Path, Span: r.ValueSpan, Message: "the range of " + t.Key})
		}
	}
	// A key outside the tuning-key grammar is a schema finding of the file,
	// and it names no key of values or open either: two rows of §5 apply.
	for _, a := range p.pers.Misspelt() {
		if _, s := p.Tuning.SetsTarget(a.Key); s == tuning.NotAKey {
			report(personalization.CodeSetsTarget, a.KeySpan, fmt.Sprintf("%q is not a tuning key (two or more dot-separated segments), so it names no key of tuning.json's values or open and no answer can set it; correct the name", a.Key))
		}
	}
	return out
}

// SettableKeys lists the keys a personalization answer may set: the ranged
// values keys and the open keys of tuning.json, in source order.
func (p *Package) SettableKeys() []string {
	if p.Tuning == nil {
		return nil
	}
	var out []string
	for _, e := range p.Tuning.Entries {
		if k := e.Kind(); k == tuning.Ranged || k == tuning.Open {
			out = append(out, e.Key)
		}
	}
	return out
}
