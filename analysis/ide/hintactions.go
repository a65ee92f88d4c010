package ide

import (
	"fmt"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts/source"
)

// HintActions returns the quick fixes of the review-mode hints of path
// that overlap span: a number in prose that equals tuning values is
// replaced by the citation of one of their keys.
func HintActions(s *analysis.Snapshot, path string, span source.Span) []CodeAction {
	var out []CodeAction
	for _, h := range s.HintFixes(path) {
		if h.Span.Start > span.End || span.Start > h.Span.End || len(h.Keys) == 0 {
			continue
		}
		for _, k := range h.Keys {
			out = append(out, CodeAction{
				Title: fmt.Sprintf("Cite `%s` instead of %s", k, h.Text),
				Kind:  "quickfix", Codes: []string{h.Code}, Preferred: len(h.Keys) == 1,
				Edits: map[string][]TextEdit{path: {{Span: h.Span, NewText: "`" + k + "`"}}},
			})
		}
	}
	return out
}
