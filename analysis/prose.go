package analysis

import (
	"fmt"
	"strings"

	"github.com/gddls/gddls/analysis/clocks"
	"github.com/gddls/gddls/analysis/collections"
	"github.com/gddls/gddls/analysis/direction"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/source"
)

// TokenClass is what an inline-code token of chapter prose is, by the
// classification of SPEC §12.2 (see tuning.ClassifyToken).
type TokenClass = tuning.TokenClass

// The classes of an inline-code token.
const (
	NotDotted      = tuning.NotDotted
	MechanismPath  = tuning.MechanismPath
	VersionString  = tuning.VersionString
	FileMention    = tuning.FileMention
	TuningCitation = tuning.TuningCitation
)

// ClassifyToken classifies the whole content of one inline code span and
// returns its dotted segments.
func ClassifyToken(text string) (TokenClass, []string) { return tuning.ClassifyToken(text) }

// checkProse resolves every inline-code citation of a chapter (SPEC §4
// "Reading a citation in prose", §10.9 rule 4). The findings are reused
// while the chapter and every part of the package its tokens read are
// unchanged.
func (b *builder) checkProse(p *Package, c *Chapter) {
	e := c.File.entry
	if r := e.proseChecked; r != nil && p.depsValid(r.deps, r.sources, nil) {
		b.findings = append(b.findings, r.findings...)
		return
	}
	res := &proseResult{}
	noted := map[depKey]bool{}
	note := func(kind depKind, key string) {
		if k := (depKey{kind, key}); !noted[k] {
			noted[k] = true
			d := dep{kind: kind, key: key}
			d.seen = p.token(d, nil)
			res.deps = append(res.deps, d)
		}
	}
	for _, cs := range c.File.Markdown.CodeSpans {
		msg := clocks.RetiredState(cs.Text(c.File.Markdown))
		if msg == "" {
			msg = direction.RetiredDescriptor(cs.Text(c.File.Markdown))
		}
		if msg == "" {
			msg = collections.RetiredCount(cs.Text(c.File.Markdown))
		}
		if msg != "" {
			res.findings = append(res.findings, source.Finding{
				Code: "PROSE_REFERENCE_DANGLING", Severity: source.Error, File: c.File.Path,
				Span: cs.Span(), Message: msg,
			})
			continue
		}
		proseDeps(cs.Text(c.File.Markdown), note)
		if msg := p.ResolveProse(cs.Text(c.File.Markdown)); msg != "" {
			res.findings = append(res.findings, source.Finding{
				Code: "PROSE_CITATION_DANGLING", Severity: source.Error, File: c.File.Path,
				Span: cs.Span(), Message: msg,
			})
		}
	}
	// The mode tags of the headings (SPEC §4b.2) read clocks.json.
	if tags := clocks.ModeTags(c.File.Markdown); len(tags) > 0 {
		note(depFile, "clocks.json")
		res.findings = append(res.findings, clocks.CheckTags(p.ClockFile, tags, c.File.Path)...)
	}
	res.sources = p.sourcesOf(res.deps)
	e.proseChecked = res
	b.findings = append(b.findings, res.findings...)
}

// proseResult is the memoized prose citation check of one chapter.
type proseResult struct {
	deps     []dep
	sources  *depSources
	findings []source.Finding
}

// proseDeps notes what resolving an inline-code token reads.
func proseDeps(text string, note func(depKind, string)) {
	if strings.HasPrefix(text, "clocks.") {
		note(depFile, "clocks.json")
		return
	}
	class, segs := ClassifyToken(text)
	switch class {
	case TuningCitation:
		note(depTuning, "")
	case MechanismPath:
		switch segs[0] {
		case "values", "ranges", "rules":
			note(depTuning, "")
		case "contracts":
			if len(segs) > 1 {
				note(depAdoption, segs[1])
			}
		case "clocks":
			note(depFile, "clocks.json")
		case "collections":
			note(depGeneration, "")
			if len(segs) > 2 {
				note(depFile, "collections/"+segs[1]+"/"+segs[2]+".json")
				note(depFile, "collections/"+segs[1]+"/_collection.json")
			}
		case "pillars", "mood", "anti", "must_keep", "colors", "contrast", "timing", "palette":
			note(depFile, "direction.json")
		}
	}
}

// ResolveProse returns why an inline-code token dangles, or "" when it
// resolves or is not a citation.
func (p *Package) ResolveProse(text string) string {
	// A token that is `runtime` or starts with `runtime.` or `clocks.` is
	// read as an address whatever else it holds (SPEC §4b.1 rule 5, §4b.2
	// rule 4).
	if text == "runtime" || strings.HasPrefix(text, "runtime.") {
		return clocks.AddressProblem(text)
	}
	if strings.HasPrefix(text, "clocks.") {
		return p.resolveClock(text)
	}
	class, segs := ClassifyToken(text)
	switch class {
	case TuningCitation:
		if !p.Tuning.KeysKnown() {
			return ""
		}
		if _, ok := p.Tuning.Lookup(text); ok {
			return ""
		}
		msg := fmt.Sprintf("`%s` reads as a tuning key, but tuning.json has no such key in values or open", text)
		if now := direction.RetiredConstraint(text); now != "" {
			return msg + fmt.Sprintf("; it is the retired form of the direction address `%s` (`gddls migrate` rewrites it)", now)
		}
		if near := NearReserved(segs[0]); near != "" {
			msg += fmt.Sprintf("; did you mean the reserved prefix %q (as in `%s.%s`)?", near, near, strings.Join(segs[1:], "."))
		} else if s := Nearest(text, p.TuningKeys()); s != "" {
			msg += fmt.Sprintf("; did you mean `%s`?", s)
		} else {
			msg += "; add the key to tuning.json or correct the citation"
		}
		return msg
	case MechanismPath:
		return p.resolveMechanism(text, segs)
	}
	return ""
}

// TuningKeys returns the keys of the package's tuning.json, or nil when it
// has none.
func (p *Package) TuningKeys() []string {
	if p.Tuning == nil {
		return nil
	}
	keys := make([]string, 0, len(p.Tuning.Entries))
	for _, e := range p.Tuning.Entries {
		keys = append(keys, e.Key)
	}
	return keys
}

// resolveMechanism resolves a token whose first segment is reserved.
func (p *Package) resolveMechanism(text string, segs []string) string {
	for _, s := range segs[1:] {
		if !tuning.ValidSegment(s) {
			return ""
		}
	}
	rest := strings.Join(segs[1:], ".")
	switch segs[0] {
	case "manifest", "build":
		return ""
	case "values", "ranges":
		if p.Tuning == nil || !p.Tuning.Readable || len(segs) < 2 {
			return ""
		}
		if segs[0] == "values" {
			if !p.Tuning.KeysKnown() {
				return ""
			}
			if e, ok := p.Tuning.Lookup(rest); ok && !e.Open {
				return ""
			}
			return fmt.Sprintf("`%s` names no entry of values in tuning.json", text)
		}
		if _, ok := p.Tuning.Range(rest); ok {
			return ""
		}
		return fmt.Sprintf("`%s` names no entry of ranges in tuning.json", text)
	case "rules":
		if p.Tuning == nil || !p.Tuning.Readable {
			return ""
		}
		if _, ok := p.Tuning.Rule(rest); ok && len(segs) == 2 {
			return ""
		}
		return fmt.Sprintf("`%s` names no rule of tuning.json", text)
	case "contracts":
		if len(segs) < 2 || len(segs) > 3 {
			return fmt.Sprintf("`%s` is not a contract address; write `contracts.<adoption>` or `contracts.<adoption>.<value>`", text)
		}
		a := p.Adoption(segs[1])
		if a == nil {
			return fmt.Sprintf("`%s` names no adoption: contracts/ has no %s.json", text, segs[1])
		}
		if len(segs) == 3 && a.ParseError == nil && !declaresValue(a, segs[2]) {
			return fmt.Sprintf("`%s` names no value declared by adoption %s", text, segs[1])
		}
		return ""
	case "collections":
		return p.resolveCollection(text, segs)
	case "pillars", "mood", "anti", "must_keep", "colors", "contrast", "timing":
		if p.Unreadable("direction.json") {
			return ""
		}
		if p.Direction == nil {
			return fmt.Sprintf("`%s` names an entry of %s, but the package has no direction.json; add the file or remove the citation", text, segs[0])
		}
		if len(segs) != 2 {
			return fmt.Sprintf("`%s` is not a direction address: an entry of %s is cited with exactly two segments, `%s.<key>`", text, segs[0], segs[0])
		}
		if p.DirectionFile.Entry(segs[0], segs[1]) != nil {
			return ""
		}
		return fmt.Sprintf("`%s` names no entry of %s in direction.json", text, segs[0])
	case "palette":
		if p.Unreadable("direction.json") {
			return ""
		}
		if p.Direction == nil {
			return fmt.Sprintf("`%s` names a palette, but the package has no direction.json; add the file or remove the citation", text)
		}
		if pal, col := p.DirectionFile.Resolve(text); pal != nil || col != nil {
			return ""
		}
		return fmt.Sprintf("`%s` names no palette and no named color of direction.json", text)
	}
	return ""
}

// resolveClock resolves a token that starts with `clocks.`: exactly
// `clocks.<name>` for a clock of clocks.json (SPEC §4b.2 rule 4).
func (p *Package) resolveClock(text string) string {
	name := strings.TrimPrefix(text, "clocks.")
	if !clocks.IsClockName(name) {
		return fmt.Sprintf("`%s` is not a clock address: the one clock address is `clocks.<name>`, with exactly two segments", text)
	}
	if p.Clocks[name] || p.Unreadable("clocks.json") {
		return ""
	}
	if p.Clocks == nil {
		return fmt.Sprintf("`%s` names a clock, but the package has no clocks.json; add the file or remove the citation", text)
	}
	msg := fmt.Sprintf("`%s` names no clock declared in clocks.json", text)
	names := make([]string, 0, len(p.Clocks))
	for n := range p.Clocks {
		names = append(names, n)
	}
	if s := Nearest(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean `clocks.%s`?", s)
	}
	return msg
}

// resolveCollection resolves a `collections.` citation (SPEC §1b rules 11
// and 12). Segments after the field are not checked. A record or schema
// file that does not parse has its own finding; nothing is resolved
// against it.
func (p *Package) resolveCollection(text string, segs []string) string {
	if len(segs) < 2 {
		return fmt.Sprintf("`%s` is not a collection address; write `collections.<collection>[.<record>[.<field>]]`", text)
	}
	c := p.Collections[segs[1]]
	if c == nil {
		return fmt.Sprintf("`%s` names no collection: collections/ has no folder %s", text, segs[1])
	}
	if len(segs) == 2 {
		return ""
	}
	rec, ok := c.Records[segs[2]]
	if !ok {
		return fmt.Sprintf("`%s` names no record: collections/%s has no %s.json", text, segs[1], segs[2])
	}
	if len(segs) < 4 || rec == nil || (c.HasSchema && c.Schema == nil) {
		return ""
	}
	if rec.Member(segs[3]) == nil && c.Schema.Get("record").Member(segs[3]) == nil {
		return fmt.Sprintf("`%s` names no field %q of record %s, nor of the collection's record schema", text, segs[3], segs[2])
	}
	return ""
}

// NearReserved returns the reserved first segment one edit away from seg,
// or "".
func NearReserved(seg string) string {
	for _, r := range tuning.ReservedFirstSegments() {
		if r != seg && source.EditDistance(r, seg) == 1 {
			return r
		}
	}
	return ""
}

// declaresValue reports whether an adoption's definition declares a value,
// active or not (SPEC §10.9 rule 4).
func declaresValue(a *contracts.Adoption, name string) bool {
	for _, d := range a.Values {
		if d.Name.Text == name {
			return true
		}
	}
	return false
}
