package ide

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/clocks"
	"github.com/gddls/gddls/analysis/collections"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/ruleline"
	"github.com/gddls/gddls/contracts/source"
)

// targetKind is what a citation names.
type targetKind uint8

const (
	// targetHeading is a heading of a Markdown file: scope is the file's
	// absolute path, name the anchor under the rule that applies to that
	// file (see headingAnchor).
	targetHeading targetKind = iota + 1
	// targetFile is a whole file: scope is its absolute path.
	targetFile
	// targetTuningKey is a key of values or open: scope is the package
	// root, name the key.
	targetTuningKey
	// targetTuningRule is a rule of tuning.json.
	targetTuningRule
	// targetAdoption is an adoption: name is its id.
	targetAdoption
	// targetValue is a value of an adoption: name is the adoption id, sub
	// the value name.
	targetValue
	// targetRuleset is a ruleset of a package (SPEC §2c): scope is the
	// package root, name the ruleset id.
	targetRuleset
	// targetClock is a clock of clocks.json, targetMode a time mode (name
	// is its id), targetRuntime a runtime address (name is the whole
	// address); scope is the package root (clockfeatures.go).
	targetClock
	targetMode
	targetRuntime
	// targetQuestion is a question of personalization.json: name is its
	// id.
	targetQuestion
	// targetDirection is an entry of direction.json with a two-segment
	// address (name is the section, sub the key), targetPalette a palette
	// (name is its key), targetColor a named color (name is the palette
	// key, sub the color name); scope is the package root
	// (directionquery.go).
	targetDirection
	targetPalette
	targetColor
	// targetRecord is a record of a collection (SPEC §1b): scope is the
	// package root, name the collection id, sub the record id.
	targetRecord
	// targetCollection is a collection: scope is the package root, name
	// its id.
	targetCollection
)

// targetKey identifies one citable thing of a snapshot.
type targetKey struct {
	kind  targetKind
	scope string
	name  string
	sub   string
}

// refKind is how a place names its target.
type refKind uint8

const (
	refRowCitation   refKind = iota + 1 // a row field of type citation
	refValueCitation                    // a designer's value given as a citation
	refProse                            // an inline-code token of a chapter
	refLink                             // a Markdown link destination
	refRefLink                          // a reference link, whose destination is in its definition
	refRuleName                         // a name in a rule line
	refRangeKey                         // a key of ranges in tuning.json
	refBound                            // a value named by a `within` bound
	refSupplied                         // the key of a designer's value in `values`
	refDecl                             // the declaration itself
	refRuleset                          // the id of a ruleset tag, which declares or continues its ruleset
	refAdvances                         // an entry of a clock's advances
	refModeTag                          // a mode tag in a chapter heading
	refUnchanged                        // a mode or value of a test's unchanged
	refSets                             // a sets target of personalization.json
	refTag                              // the id of a > PERSONALIZATION: tag
	refAddress                          // a palette or color address, a timing key or a claim, in direction.json or the build plan
	refRecordLink                       // a record id in a link field of a record
)

// citeRef is one place that names a target.
type citeRef struct {
	File   string
	Kind   refKind
	Target targetKey
	// Whole covers the whole citing token: a JSON string with its quotes,
	// a code span with its backticks, a link destination.
	Whole source.Span
	// Name covers exactly the part that names the target (an anchor, a
	// key); it is valid only when Exact is set.
	Name  source.Span
	Exact bool
	// Quoted reports a JSON string token, whose decoded text is Text.
	// Prefix and Suffix are the parts of Text before and after the name.
	// When Name is not exact (the string holds escapes), a rename replaces
	// Whole with the JSON string of Text with the name replaced.
	Quoted         bool
	Text           string
	Prefix, Suffix string
}

// span returns the span to show for the reference: the name when it is
// exact, else the whole token.
func (r citeRef) span() source.Span {
	if r.Exact {
		return r.Name
	}
	return r.Whole
}

// jsonString encodes s as a JSON string without HTML escaping.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return `""`
	}
	return strings.TrimRight(b.String(), "\n")
}

// citationIndex maps every target to the places that cite it, and every
// file to the references it holds.
type citationIndex struct {
	byTarget map[targetKey][]citeRef
	// byFile holds each file's references sorted by Whole.Start.
	byFile map[string][]citeRef
}

// citeIndex returns the snapshot's citation index, building it once.
func citeIndex(s *analysis.Snapshot) *citationIndex {
	idx, _ := s.CitationIndex(func() any { return buildCitationIndex(s) }).(*citationIndex)
	if idx == nil {
		idx = buildCitationIndex(s)
	}
	return idx
}

func buildCitationIndex(s *analysis.Snapshot) *citationIndex {
	b := &indexBuilder{snap: s, idx: &citationIndex{byTarget: map[targetKey][]citeRef{}, byFile: map[string][]citeRef{}}}
	for _, p := range s.Packages {
		b.tuning(p)
		b.personalization(p)
		for _, a := range p.Adoptions.All() {
			b.adoption(p, a)
		}
		for _, c := range p.Chapters {
			b.prose(p, c)
		}
		b.recordLinks(p)
		b.rulesets(p)
		b.clocks(p)
		b.direction(p)
	}
	for _, f := range s.Files() {
		if f.Markdown != nil {
			b.links(f)
		}
	}
	for file := range b.idx.byFile {
		refs := b.idx.byFile[file]
		sort.SliceStable(refs, func(i, j int) bool { return refs[i].Whole.Start < refs[j].Whole.Start })
	}
	return b.idx
}

type indexBuilder struct {
	snap *analysis.Snapshot
	idx  *citationIndex
}

func (b *indexBuilder) add(r citeRef) {
	b.idx.byTarget[r.Target] = append(b.idx.byTarget[r.Target], r)
	b.idx.byFile[r.File] = append(b.idx.byFile[r.File], r)
}

// jsonRef makes a reference to the part [from, to) of the decoded text of
// a JSON string token.
func jsonRef(file string, content []byte, kind refKind, t targetKey, whole source.Span, text string, from, to int) citeRef {
	r := citeRef{File: file, Kind: kind, Target: t, Whole: whole, Quoted: true, Text: text, Prefix: text[:from], Suffix: text[to:]}
	if inner, ok := analysis.InnerString(content, whole, text); ok {
		r.Name, r.Exact = source.Span{Start: inner.Start + from, End: inner.Start + to}, true
	}
	return r
}

// tuning indexes the declarations of tuning.json, the keys of ranges and
// the names in rule lines.
func (b *indexBuilder) tuning(p *analysis.Package) {
	if p.Tuning == nil || p.TuningFile == nil {
		return
	}
	file, content := p.TuningFile.Path, p.TuningFile.Content
	for _, e := range p.Tuning.Entries {
		t := targetKey{kind: targetTuningKey, scope: p.Root, name: e.Key}
		b.add(jsonRef(file, content, refDecl, t, e.KeySpan, e.Key, 0, len(e.Key)))
	}
	for _, r := range p.Tuning.Ranges {
		t := targetKey{kind: targetTuningKey, scope: p.Root, name: r.Key}
		b.add(jsonRef(file, content, refRangeKey, t, r.KeySpan, r.Key, 0, len(r.Key)))
	}
	for _, r := range p.Tuning.Rules {
		t := targetKey{kind: targetTuningRule, scope: p.Root, name: r.Name}
		b.add(jsonRef(file, content, refDecl, t, r.NameSpan, r.Name, 0, len(r.Name)))
		if r.Parsed == nil {
			continue
		}
		for _, n := range r.Parsed.Names() {
			t, ok := addressTarget(p, n.Text)
			if !ok {
				segs := strings.Split(n.Text, ".")
				if t, from, ok := recordTarget(p, segs); ok {
					b.add(ruleRef(file, r, targetKey{kind: targetCollection, scope: p.Root, name: t.name}, n.Start+len(segs[0])+1, n.Start+len(segs[0])+1+len(t.name)))
					b.add(ruleRef(file, r, t, n.Start+from, n.Start+from+len(t.sub)))
				}
				continue
			}
			ref := citeRef{File: file, Kind: refRuleName, Target: t, Whole: r.LineSpan, Quoted: true,
				Text: r.Line, Prefix: r.Line[:n.Start], Suffix: r.Line[n.End:]}
			if sp := r.SpanOf(n.Start, n.End); sp.Len() == n.End-n.Start && sp != r.LineSpan {
				ref.Name, ref.Exact = sp, true
			}
			if t.kind == targetValue {
				ref.Prefix = r.Line[:n.End-len(t.sub)]
				if ref.Exact {
					ref.Name.Start = ref.Name.End - len(t.sub)
				}
			}
			b.add(ref)
		}
	}
}

// addressTarget reads a name of a rule line or a value citation: a tuning
// key, or contracts.<adoption>.<value>. Record-field addresses are not
// indexed.
func addressTarget(p *analysis.Package, name string) (targetKey, bool) {
	segs := strings.Split(name, ".")
	switch segs[0] {
	case "contracts":
		if len(segs) == 3 && segs[1] != "" && segs[2] != "" {
			return targetKey{kind: targetValue, scope: p.Root, name: segs[1], sub: segs[2]}, true
		}
		return targetKey{}, false
	case "collections":
		return targetKey{}, false
	}
	if len(segs) < 2 {
		return targetKey{}, false
	}
	return targetKey{kind: targetTuningKey, scope: p.Root, name: name}, true
}

// adoption indexes an adoption's declarations, its row and value
// citations, and the value names of its rules and bounds.
func (b *indexBuilder) adoption(p *analysis.Package, a *contracts.Adoption) {
	file, content := a.File, a.Data
	if f := b.snap.File(a.File); f != nil {
		content = f.Content
	}
	for _, d := range a.Values {
		t := targetKey{kind: targetValue, scope: p.Root, name: a.ID, sub: d.Name.Text}
		b.add(jsonRef(file, content, refDecl, t, d.Name.Span, d.Name.Text, 0, len(d.Name.Text)))
	}
	for _, s := range a.Supplied {
		t := targetKey{kind: targetValue, scope: p.Root, name: a.ID, sub: s.Name.Text}
		b.add(jsonRef(file, content, refSupplied, t, s.Name.Span, s.Name.Text, 0, len(s.Name.Text)))
		if s.Value == nil || s.Value.Kind() != jsonsrc.String || strings.ContainsAny(s.Value.Str(), "#:") {
			continue
		}
		b.citation(p, file, content, refValueCitation, s.Value)
	}
	for _, ra := range a.Rows {
		set := a.RowSet(ra.Name.Text)
		for _, row := range ra.Rows {
			for _, rf := range row.Fields {
				fd := set.Field(rf.Name.Text)
				if fd == nil || fd.Type != contracts.TypeCitation || rf.Value == nil || rf.Value.Kind() != jsonsrc.String {
					continue
				}
				b.citation(p, file, content, refRowCitation, rf.Value)
			}
		}
	}
	for _, set := range a.RowSets {
		for _, fd := range set.Fields {
			if fd.Within == nil {
				continue
			}
			for _, bd := range fd.Within.Bounds {
				if bd.IsNum || bd.Name == "" {
					continue
				}
				t := targetKey{kind: targetValue, scope: p.Root, name: a.ID, sub: bd.Name}
				b.add(jsonRef(file, content, refBound, t, bd.Span, bd.Name, 0, len(bd.Name)))
			}
		}
	}
	for _, r := range a.Rules {
		if r.Kind != contracts.RuleComparison || r.Value == nil {
			continue
		}
		parsed, err := ruleline.Parse(r.Line)
		if err != nil || parsed == nil {
			continue
		}
		for _, n := range parsed.Names() {
			if strings.Contains(n.Text, ".") {
				continue
			}
			t := targetKey{kind: targetValue, scope: p.Root, name: a.ID, sub: n.Text}
			b.add(jsonRef(file, content, refRuleName, t, r.Value.Span(), r.Line, n.Start, n.End))
		}
	}
}

// citation indexes one citation string of an adoption.
func (b *indexBuilder) citation(p *analysis.Package, file string, content []byte, kind refKind, v *jsonsrc.Value) {
	text := v.Str()
	if strings.TrimSpace(text) == "" || strings.Contains(text, ":") {
		return
	}
	if name, anchor, ok := strings.Cut(text, "#"); ok {
		rel, inside := analysis.PackageRelative(name)
		if !inside || anchor == "" {
			return
		}
		f := p.FileAt(rel)
		if f == nil {
			return
		}
		t := targetKey{kind: targetHeading, scope: f.Path, name: anchor}
		b.add(jsonRef(file, content, kind, t, v.Span(), text, len(name)+1, len(text)))
		return
	}
	segs := strings.Split(text, ".")
	if segs[0] == "contracts" {
		switch {
		case len(segs) == 2 && segs[1] != "":
			t := targetKey{kind: targetAdoption, scope: p.Root, name: segs[1]}
			b.add(jsonRef(file, content, kind, t, v.Span(), text, len("contracts."), len(text)))
		case len(segs) == 3 && segs[1] != "" && segs[2] != "":
			t := targetKey{kind: targetValue, scope: p.Root, name: segs[1], sub: segs[2]}
			b.add(jsonRef(file, content, kind, t, v.Span(), text, len(text)-len(segs[2]), len(text)))
		}
		return
	}
	if len(segs) < 2 {
		return
	}
	t := targetKey{kind: targetTuningKey, scope: p.Root, name: text}
	b.add(jsonRef(file, content, kind, t, v.Span(), text, 0, len(text)))
}

// prose indexes the inline-code citations of a chapter.
func (b *indexBuilder) prose(p *analysis.Package, c *analysis.Chapter) {
	f := c.File
	for _, cs := range f.Markdown.CodeSpans {
		text := cs.Text(f.Markdown)
		class, segs := analysis.ClassifyToken(text)
		start, ok := analysis.CodeTextStart(f.Markdown, cs)
		if !ok {
			continue
		}
		add := func(t targetKey, from, to int) {
			b.add(citeRef{File: f.Path, Kind: refProse, Target: t, Whole: cs.Span(),
				Name: source.Span{Start: start + from, End: start + to}, Exact: true,
				Text: text, Prefix: text[:from], Suffix: text[to:]})
		}
		switch class {
		case analysis.TuningCitation:
			add(targetKey{kind: targetTuningKey, scope: p.Root, name: cs.Text(f.Markdown)}, 0, len(cs.Text(f.Markdown)))
		case analysis.MechanismPath:
			if len(segs) < 2 {
				continue
			}
			head := len(segs[0]) + 1
			rest := cs.Text(f.Markdown)[head:]
			switch segs[0] {
			case "values", "ranges":
				add(targetKey{kind: targetTuningKey, scope: p.Root, name: rest}, head, len(cs.Text(f.Markdown)))
			case "rules":
				if len(segs) == 2 {
					add(targetKey{kind: targetTuningRule, scope: p.Root, name: rest}, head, len(cs.Text(f.Markdown)))
				}
			case "clocks":
				if len(segs) == 2 && p.Clocks[segs[1]] {
					add(targetKey{kind: targetClock, scope: p.Root, name: segs[1]}, head, len(cs.Text(f.Markdown)))
				}
			case "runtime":
				if clocks.IsAddress(cs.Text(f.Markdown)) {
					add(targetKey{kind: targetRuntime, scope: p.Root, name: cs.Text(f.Markdown)}, 0, len(cs.Text(f.Markdown)))
				}
			case "contracts":
				switch len(segs) {
				case 2:
					add(targetKey{kind: targetAdoption, scope: p.Root, name: segs[1]}, head, len(cs.Text(f.Markdown)))
				case 3:
					add(targetKey{kind: targetValue, scope: p.Root, name: segs[1], sub: segs[2]}, len(cs.Text(f.Markdown))-len(segs[2]), len(cs.Text(f.Markdown)))
				}
			case "collections":
				if p.Collections[segs[1]] != nil {
					add(targetKey{kind: targetCollection, scope: p.Root, name: segs[1]}, head, head+len(segs[1]))
				}
				if t, from, ok := recordTarget(p, segs); ok {
					add(t, from, from+len(segs[2]))
				}
			case "palette":
				for _, a := range paletteTargets(p, cs.Text(f.Markdown)) {
					add(a.target, a.from, a.to)
				}
			default:
				if len(segs) == 2 && p.DirectionFile.Entry(segs[0], segs[1]) != nil {
					add(targetKey{kind: targetDirection, scope: p.Root, name: segs[0], sub: segs[1]}, head, len(cs.Text(f.Markdown)))
				}
			}
		}
	}
}

// links indexes the relative links of a Markdown file.
func (b *indexBuilder) links(f *analysis.File) {
	doc := f.Markdown
	for _, l := range doc.Links {
		switch l.Kind {
		case markdown.InlineLink, markdown.Definition, markdown.HTMLLink:
		case markdown.ReferenceLink:
			if l.Def() < 0 || l.Def() >= len(doc.Links) {
				continue
			}
			d := doc.Links[l.Def()]
			if t, _, _, ok := b.linkTarget(f, d.Raw(doc)); ok {
				b.add(citeRef{File: f.Path, Kind: refRefLink, Target: t, Whole: l.Span()})
			}
			continue
		default:
			continue
		}
		t, from, to, ok := b.linkTarget(f, l.Raw(doc))
		if !ok {
			continue
		}
		ds, raw := l.DestSpan(), l.Raw(doc)
		r := citeRef{File: f.Path, Kind: refLink, Target: t, Whole: ds}
		if t.kind == targetHeading && ds.Len() == len(raw) && ds.End <= len(f.Content) &&
			string(f.Content[ds.Start:ds.End]) == raw {
			r.Name, r.Exact = source.Span{Start: ds.Start + from, End: ds.Start + to}, true
		}
		b.add(r)
	}
}

// linkTarget resolves a link destination written in file f. For a
// destination with a fragment, from and to give the fragment's place in
// raw.
func (b *indexBuilder) linkTarget(f *analysis.File, raw string) (t targetKey, from, to int, ok bool) {
	d, ok := b.snap.ResolveLink(f.Path, raw)
	if !ok {
		return t, 0, 0, false
	}
	tf := b.snap.File(d.Target)
	if tf == nil {
		return t, 0, 0, false
	}
	if !d.HasFragment || d.Fragment == "" {
		if d.PathPart == "" {
			return t, 0, 0, false
		}
		return targetKey{kind: targetFile, scope: tf.Path}, 0, 0, true
	}
	if tf.Markdown == nil {
		return t, 0, 0, false
	}
	name := d.Fragment
	if hs := tf.Markdown.FindFragment(name, analysis.UsesGitHubAnchors(tf)); len(hs) == 1 {
		name = headingAnchor(tf, tf.Markdown.Headings[hs[0]]) // #Heading-Name reaches #heading-name
	}
	return targetKey{kind: targetHeading, scope: tf.Path, name: name}, len(d.RawPath) + 1, len(raw), true
}

// headingAnchor returns the anchor by which heading h of file f is cited.
func headingAnchor(f *analysis.File, h markdown.Heading) string {
	if analysis.UsesGitHubAnchors(f) {
		return h.GitHubAnchor
	}
	return h.Anchor
}

// refAt returns the reference of file whose token holds offset, preferring
// the innermost one.
func (idx *citationIndex) refAt(file string, offset int) (citeRef, bool) {
	var best citeRef
	found := false
	for _, r := range idx.byFile[file] {
		if r.Whole.Start > offset {
			break
		}
		if !r.Whole.Contains(offset) {
			continue
		}
		// Within a rule line several names share one token: the name
		// under the cursor wins.
		if r.Exact && !r.Name.Contains(offset) && (r.Kind == refRuleName || r.Target.kind == targetPalette || r.Target.kind == targetColor) {
			continue
		}
		// Of several references in one token (a collection and a record
		// in collections.<c>.<r>), the one whose name is under the cursor
		// wins, then the shortest.
		in, bestIn := r.Exact && r.Name.Contains(offset), best.Exact && best.Name.Contains(offset)
		if !found || in && !bestIn || in == bestIn && r.span().Len() < best.span().Len() {
			best, found = r, true
		}
	}
	return best, found
}

// recordTarget returns the record a collections.<c>.<r>[.<f>…] address
// names, with the offset of the record segment in the address, and false
// for an address that names no record of the package.
func recordTarget(p *analysis.Package, segs []string) (targetKey, int, bool) {
	if len(segs) < 3 || segs[0] != "collections" {
		return targetKey{}, 0, false
	}
	c := p.Collections[segs[1]]
	if c == nil {
		return targetKey{}, 0, false
	}
	if _, ok := c.Records[segs[2]]; !ok {
		return targetKey{}, 0, false
	}
	return targetKey{kind: targetRecord, scope: p.Root, name: segs[1], sub: segs[2]}, len(segs[0]) + len(segs[1]) + 2, true
}

// ruleRef makes the reference of the part [from, to) of a rule line.
func ruleRef(file string, r *tuning.RuleEntry, t targetKey, from, to int) citeRef {
	ref := citeRef{File: file, Kind: refRuleName, Target: t, Whole: r.LineSpan, Quoted: true,
		Text: r.Line, Prefix: r.Line[:from], Suffix: r.Line[to:]}
	if sp := r.SpanOf(from, to); sp.Len() == to-from && sp != r.LineSpan {
		ref.Name, ref.Exact = sp, true
	}
	return ref
}

// recordLinks indexes the record ids that link fields hold, as citations
// of the records they name.
func (b *indexBuilder) recordLinks(p *analysis.Package) {
	for _, c := range p.Collections {
		// The to of each link field names a collection.
		if sf := p.FileAt("collections/" + c.ID + "/_collection.json"); sf != nil && c.Parsed != nil {
			analysis.VisitFields(c.Parsed.Record, func(fd *collections.Field) {
				if fd.Type == collections.TypeLink && p.Collections[fd.To] != nil {
					t := targetKey{kind: targetCollection, scope: p.Root, name: fd.To}
					b.add(jsonRef(sf.Path, sf.Content, refRecordLink, t, fd.ToSpan, fd.To, 0, len(fd.To)))
				}
			})
		}
		schema, usable := c.RecordSchema()
		if !usable || schema == nil {
			continue
		}
		for rid, v := range c.Records {
			f := p.FileAt("collections/" + c.ID + "/" + rid + ".json")
			if v == nil || f == nil || !f.Parsed() {
				continue
			}
			for _, l := range analysis.CheckedRecord(f, schema, v).Links {
				target := p.Collections[l.Field.To]
				if target == nil {
					continue
				}
				if _, ok := target.Records[l.ID]; !ok {
					continue
				}
				t := targetKey{kind: targetRecord, scope: p.Root, name: target.ID, sub: l.ID}
				b.add(jsonRef(f.Path, f.Content, refRecordLink, t, l.Span, l.ID, 0, len(l.ID)))
			}
		}
	}
}
