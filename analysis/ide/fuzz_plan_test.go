package ide

import (
	"path/filepath"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/source"
)

// FuzzPlanQueries puts arbitrary bytes into the build plan of a package
// whose direction.json declares measured promises, and asks every editor
// query at many offsets: none panics, and every span it answers with lies
// inside its file.
func FuzzPlanQueries(f *testing.F) {
	dir := analysistest.WriteHostileIn(f, f.TempDir(), map[string][]byte{
		"direction.json": []byte(`{"timing": {"flicker-calm": {"key": "lantern.oil_units", "where": "the flame"}}}`),
	})
	for _, seed := range []string{
		"# Plan\n\n### AT-1: a\n\n```test\n{\"type\": \"scenario\", \"given\": \"g\", \"when\": [\"w\"], \"then\": \"t\", \"direction_claims\": [\"timing.flicker-calm\"]}\n```\n",
		"### AT-2\n\n```test\n{ \"type\": \"general\", \"\n",
		"### AT-\n### \n```test\n[\"direction_claims\", {\"type\":\n```\n",
	} {
		f.Add([]byte(seed))
	}
	path := filepath.Join(dir, "05-build-plan.md")
	f.Fuzz(func(t *testing.T, data []byte) {
		s := analysis.Load([]string{dir}, analysis.Options{Overlay: analysis.Overlay{path: data}})
		inside := func(file string, sp source.Span) {
			if file == path && (sp.Start < 0 || sp.Start > sp.End || sp.End > len(data)) {
				t.Fatalf("span %v outside the plan of %d bytes", sp, len(data))
			}
		}
		step := max(1, len(data)/64)
		for off := 0; off <= len(data); off += step {
			for _, it := range Complete(s, path, off) {
				if it.Edit != nil {
					inside(path, it.Edit.Span)
				}
			}
			if h := Hover(s, path, off); h != nil {
				inside(path, h.Span)
			}
			for _, l := range append(Definition(s, path, off), References(s, path, off, true)...) {
				inside(l.File, l.Span)
			}
			for _, a := range CodeActions(s, path, source.Span{Start: off, End: off}) {
				for _, e := range a.Edits[path] {
					inside(path, e.Span)
				}
			}
		}
		var walk func([]Symbol)
		walk = func(syms []Symbol) {
			for _, sym := range syms {
				inside(path, sym.Span)
				walk(sym.Children)
			}
		}
		walk(DocumentSymbols(s, path))
	})
}
