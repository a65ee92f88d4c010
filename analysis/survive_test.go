package analysis

import (
	"path/filepath"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/source"
)

// TestNewQueriesSurviveBrokenFiles cuts every file of the package of
// testdata/query/actions.txtar at many points and runs the queries of the
// editor features over the whole file and at many offsets: none may panic,
// and ranges stay inside the file.
func TestNewQueriesSurviveBrokenFiles(t *testing.T) {
	base := loadQueryRepo(t, "actions.txtar").files
	for _, name := range []string{"contracts/meter.json", "tuning.json", "01-overview.md", "02-mechanics.md"} {
		full := base[name]
		for cut := 0; cut < len(full); cut += 41 {
			files := map[string][]byte{}
			for k, v := range base {
				files[k] = v
			}
			files[name] = full[:cut]
			dir := analysistest.WriteFiles(t, "", files)
			snap := Load([]string{dir}, Options{})
			for _, f := range snap.Files() {
				n := len(f.Content)
				whole := source.Span{Start: 0, End: n}
				for _, h := range snap.InlayHints(f.Path, whole) {
					if h.Offset < 0 || h.Offset > n {
						t.Fatalf("%s cut at %d: hint at %d outside the file", name, cut, h.Offset)
					}
				}
				for _, r := range snap.FoldingRanges(f.Path) {
					if r.Start < 0 || r.End > n || r.End < r.Start {
						t.Fatalf("%s cut at %d: folding range %+v", name, cut, r)
					}
				}
				for _, tok := range snap.SemanticTokens(f.Path) {
					if tok.Span.Start < 0 || tok.Span.End > n {
						t.Fatalf("%s cut at %d: token %+v", name, cut, tok)
					}
				}
				snap.SourceActions(f.Path)
				offsets := []int{0, n / 3, n / 2, n}
				snap.SelectionRanges(f.Path, offsets)
				for _, off := range offsets {
					snap.DocumentHighlights(f.Path, off)
					snap.Complete(f.Path, off)
				}
			}
			if _, err := snap.RenameFiles([]FileRename{{Old: filepath.Join(dir, "02-mechanics.md"), New: filepath.Join(dir, "02-systems.md")}}); err != nil {
				t.Fatalf("%s cut at %d: %v", name, cut, err)
			}
		}
	}
}
