package ide

import (
	"strings"

	"github.com/gddls/gddls/analysis"
)

// DocumentLinks returns the clickable citations and links of a file: every
// citation of an adoption (row and value citations), every inline-code
// citation of a chapter and every relative Markdown link whose target
// resolves. Each leads to the file of its target and the cited place.
func DocumentLinks(s *analysis.Snapshot, path string) []DocumentLink {
	var out []DocumentLink
	for _, r := range citeIndex(s).byFile[path] {
		switch r.Kind {
		case refRowCitation, refValueCitation, refProse, refLink, refRefLink:
		default:
			continue
		}
		locs := targetLocations(s, r.Target)
		if len(locs) != 1 {
			continue
		}
		sp := r.Whole
		if r.Quoted && sp.Len() >= 2 {
			sp.Start, sp.End = sp.Start+1, sp.End-1
		}
		out = append(out, DocumentLink{Span: sp, Target: locs[0].File, TargetSpan: locs[0].Span, Tooltip: linkTooltip(s, r.Target)})
	}
	return out
}

// linkTooltip describes a link's target.
func linkTooltip(s *analysis.Snapshot, t targetKey) string {
	switch t.kind {
	case targetHeading:
		f := s.File(t.scope)
		if f == nil || f.Markdown == nil {
			return ""
		}
		hs := f.Markdown.FindAnchor(t.name, analysis.UsesGitHubAnchors(f))
		if len(hs) == 1 {
			return "heading " + strings.TrimSpace(f.Markdown.Headings[hs[0]].Text(f.Markdown)) + " in " + displayPath(s, f)
		}
	case targetFile:
		if f := s.File(t.scope); f != nil {
			return displayPath(s, f)
		}
	case targetTuningKey:
		return "tuning key " + t.name
	case targetTuningRule:
		return "tuning rule " + t.name
	case targetAdoption:
		return "adoption contracts." + t.name
	case targetValue:
		return "value contracts." + t.name + "." + t.sub
	}
	return ""
}
