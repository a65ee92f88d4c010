package ide

import (
	"testing"

	"github.com/gddls/gddls/analysis"
)

// Completion and hover at their places are tested by
// testdata/query/adoption.txtar and docs.txtar; this file keeps what is
// not about one place.

// TestQueriesEveryOffset runs Complete and Hover at every offset of the
// adoption of testdata/query/adoption.txtar, truncated at every 97th byte
// too, so that no half-typed state panics and every edit stays inside the
// file.
func TestQueriesEveryOffset(t *testing.T) {
	r := loadQueryRepo(t, "adoption.txtar")
	path := r.path("game/contracts/meter.json")
	full := r.files["game/contracts/meter.json"]
	for cut := len(full); cut > 0; cut -= 97 {
		text := full[:cut]
		s := analysis.Load([]string{r.dir}, analysis.Options{Overlay: analysis.Overlay{path: text}})
		for off := 0; off <= len(text); off++ {
			for _, it := range Complete(s, path, off) {
				if it.Edit != nil && (it.Edit.Span.Start < 0 || it.Edit.Span.End > len(text) || it.Edit.Span.Start > it.Edit.Span.End) {
					t.Fatalf("cut %d offset %d: item %q edit %+v", cut, off, it.Label, it.Edit)
				}
			}
			Hover(s, path, off)
		}
	}
	md := r.path("game/01-overview.md")
	for off := 0; off <= len(r.files["game/01-overview.md"]); off++ {
		Complete(r.snap, md, off)
		Hover(r.snap, md, off)
	}
}
