package ide

import (
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts/source"
)

// TestShapedQueriesEveryOffset runs Complete, Hover and CodeActions at every
// offset of the manifest of testdata/query/manifest.txtar, truncated at
// every 7th byte too, so that no half-typed manifest panics and every edit
// and hover stays inside the file.
func TestShapedQueriesEveryOffset(t *testing.T) {
	r := loadQueryRepo(t, "manifest.txtar")
	path := r.path("manifest.json")
	full := r.files["manifest.json"]
	if len(full) == 0 {
		t.Fatal("the archive has no manifest.json")
	}
	items, hovers := 0, 0
	inside := func(cut, off int, what string, sp source.Span, n int) {
		if sp.Start < 0 || sp.End > n || sp.Start > sp.End {
			t.Fatalf("cut %d offset %d: %s span %+v outside the file", cut, off, what, sp)
		}
	}
	for cut := len(full); cut > 0; cut -= 7 {
		text := full[:cut]
		s := analysis.Load([]string{r.dir}, analysis.Options{Overlay: analysis.Overlay{path: text}})
		for off := 0; off <= len(text); off++ {
			for _, it := range Complete(s, path, off) {
				items++
				if it.Edit != nil {
					inside(cut, off, "completion "+it.Label, it.Edit.Span, len(text))
				}
			}
			if h := Hover(s, path, off); h != nil {
				hovers++
				inside(cut, off, "hover", h.Span, len(text))
			}
			for _, a := range CodeActions(s, path, source.Span{Start: off, End: off}) {
				for _, e := range a.Edits[path] {
					inside(cut, off, "action "+a.Title, e.Span, len(text))
				}
			}
		}
	}
	if items == 0 || hovers == 0 {
		t.Errorf("%d completion items and %d hovers: the queries did not answer in the manifest", items, hovers)
	}
}
