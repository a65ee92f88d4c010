package ide

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/pack"
)

// RenderTestsCommand is the command a code lens runs to show the generated
// tests of a checked adoption; its one argument is the adoption's file URI.
const RenderTestsCommand = "gddls.renderTests"

// CodeLenses returns the code lenses of an adoption file: above each
// question whether it is asked under the current answers (and why not), and
// above the `contract` key how many pack templates are live, with a command
// that renders the tests, or that the adoption is promised. Above each
// heading of a Markdown file and each key of tuning.json it counts the
// citations and links that reach it (reflens.go).
func CodeLenses(s *analysis.Snapshot, path string) []CodeLens {
	p, a := s.AdoptionAt(path)
	if a == nil || a.Root == nil || a.Root.Kind() != jsonsrc.Object {
		return referenceLenses(s, path)
	}
	st := p.State(a)
	if st == nil {
		st = contracts.Evaluate(a, nil)
	}
	var out []CodeLens
	if a.Contract != nil {
		out = append(out, contractLens(a, st, p.PackFor(a), path))
	}
	for _, q := range a.Questions {
		out = append(out, CodeLens{Span: q.Name.Span, Title: questionLens(a, st, q)})
	}
	return out
}

// contractLens summarises the pack of the adoption.
func contractLens(a *contracts.Adoption, st *contracts.State, pk *pack.Pack, path string) CodeLens {
	span := a.ContractKey
	if pk == nil {
		return CodeLens{Span: span, Title: "promised: no pack"}
	}
	statuses := pack.Live(a, st, pk)
	live := 0
	for _, t := range statuses {
		if t.Live {
			live++
		}
	}
	return CodeLens{
		Span:      span,
		Title:     fmt.Sprintf("%d of %d pack tests live — render", live, len(statuses)),
		Command:   RenderTestsCommand,
		Arguments: []any{fileURI(path)},
	}
}

// questionLens says whether q is asked and what it is answered.
func questionLens(a *contracts.Adoption, st *contracts.State, q *contracts.Question) string {
	id := q.Name.Text
	ans := a.Answer(id)
	if st.Asked(id) {
		switch {
		case ans == nil:
			return "asked — no answer yet"
		case ans.IsString && q.Option(ans.Option) != nil:
			return "asked — answer: " + ans.Option
		}
		return "asked — answer " + string(textUnder(a.Data, ans.Value.Span())) + " is not an option"
	}
	title := "not asked: " + st.Explain(q.When)
	if ans != nil {
		title += " (its answer has no effect)"
	}
	return title
}

// fileURI returns the file:// URI of an absolute path.
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive path
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
