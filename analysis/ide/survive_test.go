package ide

import (
	"path/filepath"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts/source"
)

// editorQueriesSurvive runs the queries of the editor features over every
// file of a snapshot, whole and at a few offsets, and a file rename of dir:
// none may panic, and what they return stays inside the file. The
// broken-file test of actions_test.go calls it for each cut.
func editorQueriesSurvive(t *testing.T, snap *analysis.Snapshot, dir, what string) {
	t.Helper()
	for _, f := range snap.Files() {
		n := len(f.Content)
		for _, h := range InlayHints(snap, f.Path, source.Span{Start: 0, End: n}) {
			if h.Offset < 0 || h.Offset > n {
				t.Fatalf("%s: hint at %d outside the file", what, h.Offset)
			}
		}
		for _, r := range FoldingRanges(snap, f.Path) {
			if r.Start < 0 || r.End > n || r.End < r.Start {
				t.Fatalf("%s: folding range %+v", what, r)
			}
		}
		for _, tok := range SemanticTokens(snap, f.Path) {
			if tok.Span.Start < 0 || tok.Span.End > n {
				t.Fatalf("%s: token %+v", what, tok)
			}
		}
		SourceActions(snap, f.Path)
		offsets := []int{0, n / 3, n / 2, n}
		SelectionRanges(snap, f.Path, offsets)
		for _, off := range offsets {
			DocumentHighlights(snap, f.Path, off)
		}
	}
	if _, err := RenameFiles(snap, []FileRename{{Old: filepath.Join(dir, "02-mechanics.md"), New: filepath.Join(dir, "02-systems.md")}}); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
