package ide

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gddls/gddls/analysis"
)

// TestRenameDemoHeadings renames every cited heading of the demo package
// and checks that no citation finding appears that was not there before.
func TestRenameDemoHeadings(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "demo")
	snap := analysis.Load([]string{root}, analysis.Options{})
	if len(snap.Packages) == 0 {
		t.Skip("the demo package is not there")
	}
	before := len(citationFindings(snap))
	renamed := 0
	for _, p := range snap.Packages {
		for _, c := range p.Chapters {
			for i, h := range c.File.Markdown.Headings {
				refs := References(snap, c.File.Path, h.Span().Start, false)
				if len(refs) == 0 {
					continue
				}
				name := fmt.Sprintf("Renamed heading %d %s", i, c.Name[:2])
				edits, err := Rename(snap, c.File.Path, h.Span().Start, name)
				if err != nil {
					continue // an ambiguous or otherwise refused heading
				}
				overlay := analysis.Overlay{}
				for path, es := range edits {
					overlay[path] = []byte(applyEdits(t, string(snap.File(path).Content), es))
				}
				after := analysis.Load([]string{root}, analysis.Options{Overlay: overlay})
				if n := len(citationFindings(after)); n > before {
					t.Errorf("renaming %q in %s: %d citation findings, before %d: %q", h.Text(c.File.Markdown), c.Name, n, before, citationFindings(after))
				}
				renamed++
			}
		}
	}
	if renamed == 0 {
		t.Fatal("no cited heading in the demo package")
	}
	t.Logf("renamed %d headings", renamed)
}

// TestRenameDemoKeys renames every tuning key of the demo package and
// checks that no citation or tuning finding appears.
func TestRenameDemoKeys(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "demo")
	snap := analysis.Load([]string{root}, analysis.Options{})
	if len(snap.Packages) == 0 || snap.Packages[0].Tuning == nil {
		t.Skip("the demo package is not there")
	}
	count := func(s *analysis.Snapshot) int { return len(s.AllDiagnostics()) }
	before := count(snap)
	p := snap.Packages[0]
	for i, e := range p.Tuning.Entries {
		edits, err := Rename(snap, p.TuningFile.Path, e.KeySpan.Start+1, fmt.Sprintf("renamed.key_%d", i))
		if err != nil {
			t.Errorf("renaming %s: %v", e.Key, err)
			continue
		}
		overlay := analysis.Overlay{}
		for path, es := range edits {
			overlay[path] = []byte(applyEdits(t, string(snap.File(path).Content), es))
		}
		after := analysis.Load([]string{root}, analysis.Options{Overlay: overlay})
		if n := count(after); n != before {
			t.Errorf("renaming %s: %d findings, before %d: %v", e.Key, n, before, after.AllDiagnostics())
		}
	}
}
