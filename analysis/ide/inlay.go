package ide

import (
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/source"
)

// InlayKind is what an inlay hint shows; a client can turn each kind off.
type InlayKind int

// The kinds of inlay hints.
const (
	// InlayTuningValue follows a tuning-key citation: the key's number, or
	// "open" for an open number.
	InlayTuningValue InlayKind = iota
	// InlayHeading follows a citation or link of a heading anchor: the
	// heading's text.
	InlayHeading
	// InlayNotAsked follows an answer to a question that is not asked.
	InlayNotAsked
	// InlayContractValue follows a contracts.<adoption>.<value> address:
	// the value it resolves to.
	InlayContractValue
)

// InlayHint is a label shown inline after a token.
type InlayHint struct {
	// Offset is where the label goes: the end of the token it describes.
	Offset  int
	Label   string
	Kind    InlayKind
	Tooltip string
}

// InlayHints returns the inlay hints of the file at path whose tokens
// overlap span, ordered by offset. It reads the references of the file
// alone (fileRefs), so it costs the file, not the repository.
func InlayHints(s *analysis.Snapshot, path string, span source.Span) []InlayHint {
	f := s.File(path)
	if f == nil {
		return nil
	}
	// A link whose text already is the heading's needs no hint.
	linkText := map[int]string{}
	if f.Markdown != nil {
		for _, l := range f.Markdown.Links {
			linkText[l.DestSpan().Start] = strings.TrimSpace(l.Text(f.Markdown))
		}
	}
	var out []InlayHint
	for _, r := range fileRefs(s, path) {
		if r.Whole.Start > span.End {
			break
		}
		if r.Whole.End < span.Start {
			continue
		}
		h, ok := citationHint(s, r)
		if !ok || (r.Kind == refLink && h.Kind == InlayHeading && strings.EqualFold(linkText[r.Whole.Start], h.Label)) {
			continue
		}
		out = append(out, h)
	}
	if p, a := s.AdoptionAt(path); a != nil {
		out = append(out, notAskedHints(p, a, span)...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out
}

// citationHint returns the hint that follows reference r, if any.
func citationHint(s *analysis.Snapshot, r citeRef) (InlayHint, bool) {
	at := r.Whole.End
	if r.Kind == refRuleName && r.Exact {
		at = r.Name.End // several names share the rule line
	}
	t := r.Target
	switch t.kind {
	case targetTuningKey:
		if r.Kind == refDecl || r.Kind == refRangeKey || r.Kind == refSets {
			return InlayHint{}, false
		}
		p := packageAt(s, t.scope)
		if p == nil || p.Tuning == nil {
			return InlayHint{}, false
		}
		e, ok := p.Tuning.Lookup(t.name)
		switch {
		case !ok:
			return InlayHint{}, false
		case e.Open:
			h := InlayHint{Offset: at, Label: "open", Kind: InlayTuningValue, Tooltip: "an open number: not decided yet"}
			if e.HasNumber {
				h.Tooltip += "; the guess is " + fmtFloat(e.Number)
			}
			return h, true
		case e.HasNumber:
			return InlayHint{Offset: at, Label: "= " + fmtFloat(e.Number), Kind: InlayTuningValue}, true
		}
	case targetHeading:
		switch r.Kind {
		case refRowCitation, refValueCitation, refLink, refRefLink:
		default:
			return InlayHint{}, false
		}
		tf := s.File(t.scope)
		if tf == nil || tf.Markdown == nil {
			return InlayHint{}, false
		}
		hs := tf.Markdown.FindAnchor(t.name, analysis.UsesGitHubAnchors(tf))
		if len(hs) != 1 {
			return InlayHint{}, false
		}
		text := strings.TrimSpace(tf.Markdown.Headings[hs[0]].Text(tf.Markdown))
		return InlayHint{Offset: at, Label: text, Kind: InlayHeading, Tooltip: "heading in " + displayPath(s, tf)}, true
	case targetValue:
		if !strings.HasSuffix(r.Prefix, "contracts."+t.name+".") {
			return InlayHint{}, false // a value named inside its own adoption
		}
		p := packageAt(s, t.scope)
		if p == nil {
			return InlayHint{}, false
		}
		a := p.Adoption(t.name)
		if a == nil || a.Declaration(t.sub) == nil {
			return InlayHint{}, false
		}
		st := p.State(a)
		if st == nil {
			return InlayHint{}, false
		}
		if v, ok := st.Resolved(t.sub); ok {
			return InlayHint{Offset: at, Label: "= " + fmtFloat(v), Kind: InlayContractValue}, true
		}
		if !st.Active(t.sub) {
			return InlayHint{Offset: at, Label: "inactive", Kind: InlayContractValue, Tooltip: "the value's condition does not hold, so it takes no value"}, true
		}
	}
	return InlayHint{}, false
}

// notAskedHints marks the answers of a whose question is not asked under
// the current answers.
func notAskedHints(p *analysis.Package, a *contracts.Adoption, span source.Span) []InlayHint {
	st := p.State(a)
	if st == nil {
		return nil
	}
	var out []InlayHint
	for _, ans := range a.Answers {
		q := a.Question(ans.Question.Text)
		if q == nil || st.Asked(q.Name.Text) {
			continue
		}
		at := ans.Question.Span.End
		if ans.Value != nil {
			at = ans.Value.Span().End
		}
		if at < span.Start || ans.Question.Span.Start > span.End {
			continue
		}
		out = append(out, InlayHint{Offset: at, Label: "not asked", Kind: InlayNotAsked, Tooltip: st.Explain(q.When) + "; this answer has no effect"})
	}
	return out
}
