package ide

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts/source"
)

// renameSite is what a rename at an offset applies to.
type renameSite struct {
	// heading is set for a heading rename: the file and heading index.
	file    *analysis.File
	heading int
	// key is set for a tuning-key rename.
	key *analysis.Package
	// ruleset is set for a ruleset rename: the package.
	ruleset *analysis.Package
	// clock is set for the rename of a clock, a time mode or a runtime
	// address (clockfeatures.go).
	clock *targetKey
	// question is set for a rename of a personalization question id: the
	// package.
	question *analysis.Package
	// direction is set for the rename of a palette key, a color name or
	// an entry of direction.json (directionquery.go).
	direction *targetKey
	// record is set for a rename of a record or collection id
	// (collectionrename.go).
	record *targetKey
	// name is the current name; span is the token to show in the editor.
	name string
	span source.Span
}

// PrepareRename returns the span and current name of the renamable token at
// offset: a heading's text (or a citation or link of one heading), or a
// tuning key (in tuning.json or any citation of it).
func PrepareRename(s *analysis.Snapshot, path string, offset int) (source.Span, string, error) {
	site, err := renameSiteAt(s, path, offset)
	if err != nil {
		return source.Span{}, "", err
	}
	return site.span, site.name, nil
}

// Rename returns the edits that rename the heading or tuning key at offset
// to newName, keyed by absolute file path. For a heading, newName is the
// new heading text, and every citation and link of its anchor is rewritten
// to the new anchor. It never writes files.
func Rename(s *analysis.Snapshot, path string, offset int, newName string) (map[string][]TextEdit, error) {
	site, err := renameSiteAt(s, path, offset)
	if err != nil {
		return nil, err
	}
	if site.key != nil {
		return renameKey(s, site.key, site.name, newName)
	}
	if site.ruleset != nil {
		return renameRuleset(s, site.ruleset, site.name, newName)
	}
	if site.clock != nil {
		return renameClockTarget(s, *site.clock, newName)
	}
	if site.question != nil {
		return renameQuestion(s, site.question, site.name, newName)
	}
	if site.direction != nil {
		return renameDirection(s, *site.direction, newName)
	}
	if site.record != nil {
		edits, _, err := renameRecord(s, *site.record, newName)
		return edits, err
	}
	if err := keepsTestID(site.file, site.heading, newName); err != nil {
		return nil, err
	}
	return renameHeading(s, site.file, site.heading, newName)
}

func renameSiteAt(s *analysis.Snapshot, path string, offset int) (renameSite, error) {
	f := s.File(path)
	if f == nil {
		return renameSite{}, fmt.Errorf("%s is not a file of the workspace", path)
	}
	if site, ok, err := clockRenameSite(s, path, offset); ok {
		return site, err
	}
	if f.Markdown != nil {
		for i, h := range f.Markdown.Headings {
			if h.Span().Contains(offset) {
				return renameSite{file: f, heading: i, name: h.Text(f.Markdown), span: h.TextSpan()}, nil
			}
		}
	}
	r, ok := citeIndex(s).refAt(path, offset)
	if !ok {
		return renameSite{}, errors.New("nothing to rename here: place the cursor on a heading, a tuning key or a citation of one")
	}
	switch r.Target.kind {
	case targetHeading:
		tf := s.File(r.Target.scope)
		if tf == nil || tf.Markdown == nil {
			return renameSite{}, errors.New("the cited file is not in the workspace")
		}
		hs := tf.Markdown.FindAnchor(r.Target.name, analysis.UsesGitHubAnchors(tf))
		switch len(hs) {
		case 0:
			return renameSite{}, fmt.Errorf("#%s matches no heading of %s, so there is nothing to rename", r.Target.name, tf.Path)
		case 1:
		default:
			return renameSite{}, fmt.Errorf("#%s matches %d headings of %s; rename one of the headings itself", r.Target.name, len(hs), tf.Path)
		}
		return renameSite{file: tf, heading: hs[0], name: tf.Markdown.Headings[hs[0]].Text(tf.Markdown), span: r.span()}, nil
	case targetTuningKey:
		p := packageAt(s, r.Target.scope)
		if p == nil || p.Tuning == nil {
			return renameSite{}, errors.New("the package has no readable tuning.json")
		}
		if !r.Exact && !r.Quoted {
			return renameSite{}, errors.New("this citation cannot be rewritten in place")
		}
		return renameSite{key: p, name: r.Target.name, span: r.span()}, nil
	case targetRuleset:
		if p := packageAt(s, r.Target.scope); p != nil {
			return renameSite{ruleset: p, name: r.Target.name, span: r.span()}, nil
		}
	case targetQuestion:
		p := packageAt(s, r.Target.scope)
		if p == nil || p.PersonalizationFile() == nil || p.PersonalizationFile().Question(r.Target.name) == nil {
			return renameSite{}, fmt.Errorf("personalization.json declares no question %q to rename", r.Target.name)
		}
		return renameSite{question: p, name: r.Target.name, span: r.span()}, nil
	case targetDirection, targetPalette, targetColor:
		return directionRenameSite(r)
	case targetRecord, targetCollection:
		t := r.Target
		name := t.sub
		if t.kind == targetCollection {
			name = t.name
		}
		return renameSite{record: &t, name: name, span: r.span()}, nil
	}
	return renameSite{}, errors.New("only headings, tuning keys, ruleset ids, personalization question ids, record ids, collection ids and the palettes, colors and entries of direction.json can be renamed")
}

// renameHeading rewrites heading hi of f to newText and every citation and
// link of each anchor the change moves.
func renameHeading(s *analysis.Snapshot, f *analysis.File, hi int, newText string) (map[string][]TextEdit, error) {
	newText = strings.TrimSpace(newText)
	if newText == "" {
		return nil, errors.New("a heading cannot be empty")
	}
	if strings.ContainsAny(newText, "\r\n") {
		return nil, errors.New("a heading must fit on one line")
	}
	doc := f.Markdown
	h := doc.Headings[hi]
	github := analysis.UsesGitHubAnchors(f)
	// moved maps each anchor that changes to its new value.
	moved := map[string]string{}
	if github {
		newBase := markdown.GitHubAnchor(newText)
		if newBase == "" {
			return nil, fmt.Errorf("the heading %q would have an empty anchor; use letters or digits", newText)
		}
		slugger := markdown.NewSlugger()
		for i, o := range doc.Headings {
			base := markdown.GitHubAnchor(o.Text(doc))
			if i == hi {
				base = newBase
			} else if base == newBase {
				return nil, fmt.Errorf("the anchor #%s is already the anchor of heading %q on line %d; choose a text that differs", newBase, strings.TrimSpace(o.Text(doc)), o.Line()+1)
			}
			if n := slugger.Unique(base); n != o.GitHubAnchor {
				moved[o.GitHubAnchor] = n
			}
		}
	} else {
		newAnchor := markdown.OpenGDDAnchor(newText)
		if newAnchor == "" {
			return nil, fmt.Errorf("the heading %q would have an empty anchor; use letters or digits", newText)
		}
		shared := false
		for i, o := range doc.Headings {
			if i == hi {
				continue
			}
			if o.Anchor == newAnchor {
				return nil, fmt.Errorf("the anchor #%s is already the anchor of heading %q on line %d; choose a text that differs", newAnchor, strings.TrimSpace(o.Text(doc)), o.Line()+1)
			}
			shared = shared || o.Anchor == h.Anchor
		}
		// An anchor that another heading shares is ambiguous: its
		// citations stay and will then name the other heading alone.
		if !shared && newAnchor != h.Anchor {
			moved[h.Anchor] = newAnchor
		}
	}
	var w editWriter
	w.add(f.Path, TextEdit{Span: h.TextSpan(), NewText: newText})
	idx := citeIndex(s)
	for old, anchor := range moved {
		for _, r := range idx.byTarget[targetKey{kind: targetHeading, scope: f.Path, name: old}] {
			if r.Kind == refRefLink {
				continue // its definition is rewritten instead
			}
			if !w.rewrite(r, anchor) {
				return nil, fmt.Errorf("the link at %s:%d cannot be rewritten in place", r.File, lineOf(s, r.File, r.Whole.Start)+1)
			}
		}
	}
	return w.result(), nil
}

// renameKey rewrites tuning key old of package p to newKey everywhere.
func renameKey(s *analysis.Snapshot, p *analysis.Package, old, newKey string) (map[string][]TextEdit, error) {
	if problem, reserved, ok := tuning.CheckKey(newKey); !ok {
		if problem == "" {
			problem = fmt.Sprintf("the segment %q is reserved", reserved)
		}
		return nil, fmt.Errorf("%q is not a valid tuning key: %s", newKey, problem)
	}
	if newKey == old {
		return map[string][]TextEdit{}, nil
	}
	if _, ok := p.Tuning.Lookup(newKey); ok {
		return nil, fmt.Errorf("tuning.json already has the key %q", newKey)
	}
	if _, ok := p.Tuning.Range(newKey); ok {
		return nil, fmt.Errorf("ranges in tuning.json already has the key %q", newKey)
	}
	return rewriteAll(s, targetKey{kind: targetTuningKey, scope: p.Root, name: old}, newKey)
}

// rewriteAll returns the edits that make every place naming t (its
// declaration included) name newName.
func rewriteAll(s *analysis.Snapshot, t targetKey, newName string) (map[string][]TextEdit, error) {
	var w editWriter
	for _, r := range citeIndex(s).byTarget[t] {
		if !w.rewrite(r, newName) {
			return nil, fmt.Errorf("the citation at %s:%d cannot be rewritten in place", r.File, lineOf(s, r.File, r.Whole.Start)+1)
		}
	}
	return w.result(), nil
}

// editWriter collects the edits of a rename. A JSON string whose names
// cannot be edited in place (it holds escapes) is rewritten whole, once,
// with every renamed name in it replaced.
type editWriter struct {
	edits map[string][]TextEdit
	whole map[wholeToken]*wholeEdit
}

type wholeToken struct {
	file string
	span source.Span
}

// wholeEdit is the decoded text of a JSON string and the parts of it to
// replace.
type wholeEdit struct {
	text  string
	parts []wholePart
}

type wholePart struct {
	from, to int
	with     string
}

func (w *editWriter) add(file string, e TextEdit) {
	if w.edits == nil {
		w.edits = map[string][]TextEdit{}
	}
	w.edits[file] = append(w.edits[file], e)
}

// rewrite records the edit that makes r name newName, and reports whether
// r can be rewritten.
func (w *editWriter) rewrite(r citeRef, newName string) bool {
	if r.Exact {
		w.add(r.File, TextEdit{Span: r.Name, NewText: newName})
		return true
	}
	from, to := len(r.Prefix), len(r.Text)-len(r.Suffix)
	if !r.Quoted || from > to || r.Text[:from] != r.Prefix || r.Text[to:] != r.Suffix {
		return false
	}
	if w.whole == nil {
		w.whole = map[wholeToken]*wholeEdit{}
	}
	k := wholeToken{r.File, r.Whole}
	we := w.whole[k]
	if we == nil {
		we = &wholeEdit{text: r.Text}
		w.whole[k] = we
	}
	for _, p := range we.parts {
		if p.from == from {
			return true // the same name, reached twice
		}
	}
	we.parts = append(we.parts, wholePart{from: from, to: to, with: newName})
	return true
}

// result returns the edits, sorted by position in each file.
func (w *editWriter) result() map[string][]TextEdit {
	out := w.edits
	if out == nil {
		out = map[string][]TextEdit{}
	}
	for k, we := range w.whole {
		sort.Slice(we.parts, func(i, j int) bool { return we.parts[i].from > we.parts[j].from })
		text := we.text
		for _, p := range we.parts {
			text = text[:p.from] + p.with + text[p.to:]
		}
		out[k.file] = append(out[k.file], TextEdit{Span: k.span, NewText: jsonString(text)})
	}
	for file, es := range out {
		sort.SliceStable(es, func(i, j int) bool { return es[i].Span.Start < es[j].Span.Start })
		out[file] = es
	}
	return out
}

// lineOf returns the zero-based line of an offset of a file.
func lineOf(s *analysis.Snapshot, path string, offset int) int {
	if f := s.File(path); f != nil {
		return f.Lines.Position(offset).Line
	}
	return 0
}
