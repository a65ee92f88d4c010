package ide_test

import (
	"path/filepath"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/analysis/ide"

	"github.com/gddls/gddls/contracts/source"
)

// The benchmarks of the editor features of issue 15 on the generated
// repository; docs/PERFORMANCE.md records their numbers. The file renames
// are measured on a snapshot whose citation index is already built; inlay
// hints read one file's references and build no index.

// BenchmarkRenameChapterFile computes the edit of renaming the chapter that
// every adoption cites.
func BenchmarkRenameChapterFile(b *testing.B) {
	dir, _ := analysistest.Generated(b, analysistest.BenchConfig(b))
	s := analysis.Load([]string{dir}, analysis.Options{})
	r := []ide.FileRename{{Old: filepath.Join(dir, "02-mechanics.md"), New: filepath.Join(dir, "02-systems.md")}}
	benchRename(b, s, r)
}

// BenchmarkRenameAdoptionFile computes the edit of renaming an adoption.
func BenchmarkRenameAdoptionFile(b *testing.B) {
	dir, rep := analysistest.Generated(b, analysistest.BenchConfig(b))
	s := analysis.Load([]string{dir}, analysis.Options{})
	old := filepath.Join(dir, rep.CleanAdoption)
	r := []ide.FileRename{{Old: old, New: filepath.Join(filepath.Dir(old), "renamed-adoption.json")}}
	benchRename(b, s, r)
}

func benchRename(b *testing.B, s *analysis.Snapshot, r []ide.FileRename) {
	if _, err := ide.RenameFiles(s, r); err != nil { // builds the citation index
		b.Fatal(err)
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		edits, err := ide.RenameFiles(s, r)
		if err != nil {
			b.Fatal(err)
		}
		n = 0
		for _, es := range edits {
			n += len(es)
		}
	}
	b.ReportMetric(float64(n), "edits")
}

// BenchmarkInlayHintsAdoption computes the inlay hints of a whole adoption.
func BenchmarkInlayHintsAdoption(b *testing.B) {
	dir, rep := analysistest.Generated(b, analysistest.BenchConfig(b))
	benchInlay(b, dir, filepath.Join(dir, rep.CleanAdoption))
}

// BenchmarkInlayHintsChapter computes the inlay hints of the chapter every
// adoption cites.
func BenchmarkInlayHintsChapter(b *testing.B) {
	dir, _ := analysistest.Generated(b, analysistest.BenchConfig(b))
	benchInlay(b, dir, filepath.Join(dir, "02-mechanics.md"))
}

func benchInlay(b *testing.B, dir, path string) {
	s := analysis.Load([]string{dir}, analysis.Options{})
	whole := source.Span{Start: 0, End: len(s.File(path).Content)}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = len(ide.InlayHints(s, path, whole))
	}
	b.ReportMetric(float64(n), "hints")
}

// BenchmarkInlayHintsAfterEdit measures what an editor asks after a
// keystroke in an adoption: the new snapshot, and the inlay hints of the
// edited adoption on it.
func BenchmarkInlayHintsAfterEdit(b *testing.B) {
	dir, rep := analysistest.Generated(b, analysistest.BenchConfig(b))
	path := filepath.Join(dir, rep.CleanAdoption)
	orig := analysistest.ReadGenerated(b, dir, rep.CleanAdoption)
	edited := analysistest.ReplaceOnce(b, orig, `"kind": "plain"`, `"kind": "plainx"`)
	w := analysis.NewWorkspace([]string{dir}, analysis.Options{})
	w.Snapshot()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		content := orig
		if i%2 == 0 {
			content = edited
		}
		w.SetOverlay(path, content)
		s := w.Snapshot()
		_ = ide.InlayHints(s, path, source.Span{Start: 0, End: len(content)})
	}
}

func BenchmarkCompleteCitation(b *testing.B) {
	dir, rep := analysistest.Generated(b, analysistest.BenchConfig(b))
	path := filepath.Join(dir, rep.CitationSite.File)
	s := analysis.Load([]string{dir}, analysis.Options{})
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = len(ide.Complete(s, path, rep.CitationSite.Offset))
	}
	b.ReportMetric(float64(n), "items")
}

func BenchmarkHover(b *testing.B) {
	dir, rep := analysistest.Generated(b, analysistest.BenchConfig(b))
	path := filepath.Join(dir, rep.HoverSite.File)
	s := analysis.Load([]string{dir}, analysis.Options{})
	b.ReportAllocs()
	found := 0.0
	for b.Loop() {
		if ide.Hover(s, path, rep.HoverSite.Offset) != nil {
			found = 1
		}
	}
	b.ReportMetric(found, "found")
}

// BenchmarkRealCompleteCitation completes a chapter anchor just after the
// '#' of a citation in an adoption of the real-content package.
func BenchmarkRealCompleteCitation(b *testing.B) {
	dir, rep := analysistest.RealBench(b)
	path := filepath.Join(dir, filepath.FromSlash(rep.CitationSite.File))
	s := analysis.Load([]string{dir}, analysis.Options{})
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = len(ide.Complete(s, path, rep.CitationSite.Offset))
	}
	if n == 0 {
		b.Fatal("no completion at the citation site")
	}
	b.ReportMetric(float64(n), "items")
}
