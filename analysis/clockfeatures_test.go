package analysis

import (
	"testing"

	"github.com/gddls/gddls/contracts/source"
)

// TestClockQueriesEveryOffset asks every query at every offset of the
// clocks.json and the chapter of testdata/query/clocks.txtar, with
// clocks.json also truncated at every 23rd byte, so that no half-typed
// state panics and every completion edit stays inside its file.
func TestClockQueriesEveryOffset(t *testing.T) {
	r := loadQueryRepo(t, "clocks.txtar")
	for _, rel := range []string{"pkg/clocks.json", "pkg/02-mechanics.md"} {
		path := r.path(rel)
		full := r.files[rel]
		if len(full) == 0 {
			t.Fatalf("the archive has no %s", rel)
		}
		for cut := len(full); cut > 0; cut -= 23 {
			text := full[:cut]
			s := Load([]string{r.dir}, Options{Overlay: Overlay{path: text}})
			for off := -1; off <= len(text)+1; off++ {
				for _, it := range s.Complete(path, off) {
					if it.Edit != nil && (it.Edit.Span.Start < 0 || it.Edit.Span.End > len(text) || it.Edit.Span.Start > it.Edit.Span.End) {
						t.Fatalf("%s cut %d offset %d: item %q edit %+v", rel, cut, off, it.Label, it.Edit)
					}
				}
				s.Hover(path, off)
				s.Definition(path, off)
				s.References(path, off, true)
				s.CodeActions(path, source.Span{Start: off, End: off})
				if _, _, err := s.PrepareRename(path, off); err == nil {
					_, _ = s.Rename(path, off, "new-name")
				}
			}
			if rel != "pkg/clocks.json" {
				break // the chapter is asked whole
			}
		}
	}
}
