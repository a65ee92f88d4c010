package ide

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
)

func demoSnapshot(t *testing.T) (string, *analysis.Snapshot) {
	t.Helper()
	root, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "demo"))
	return root, analysis.Load([]string{root}, analysis.Options{})
}

func TestFoldingRanges(t *testing.T) {
	root, s := demoSnapshot(t)
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	content := string(s.File(cauldron).Content)
	open := strings.Index(content, `"job-inputs": {`) + len(`"job-inputs": `)
	closing := open + strings.Index(content[open:], "\n    },") + len("\n    ")
	lines := s.File(cauldron).Lines
	found := false
	for _, r := range FoldingRanges(s, cauldron) {
		if r.Start == open {
			found = true
			if got, want := lines.Position(r.End).Line, lines.Position(closing).Line-1; got != want {
				t.Errorf("the question folds through line %d, want %d (before its closing brace)", got+1, want+1)
			}
		}
	}
	if !found {
		t.Error("no folding range for the question job-inputs")
	}
	mech := filepath.Join(root, "02-mechanics.md")
	mc := string(s.File(mech).Content)
	start := strings.Index(mc, "## The day loop")
	next := strings.Index(mc, "## Foraging")
	found = false
	for _, r := range FoldingRanges(s, mech) {
		if r.Start == start {
			found = true
			if r.End >= next || strings.TrimSpace(mc[r.End+1:next]) != "" {
				t.Errorf("the section folds to %d, want its last non-blank character before %d", r.End, next)
			}
		}
	}
	if !found {
		t.Error("no folding range for the section The day loop")
	}
}

func TestSelectionRanges(t *testing.T) {
	root, s := demoSnapshot(t)
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	content := string(s.File(cauldron).Content)
	at := strings.Index(content, `"02-mechanics.md#brewing"`) + len(`"02-mechanics.md#br`)
	got := SelectionRanges(s, cauldron, []int{at})
	if len(got) != 1 || len(got[0]) < 5 {
		t.Fatalf("selection ranges = %v", got)
	}
	texts := []string{}
	for _, sp := range got[0][:3] {
		texts = append(texts, content[sp.Start:sp.End])
	}
	want := []string{"brewing", `"02-mechanics.md#brewing"`, `"job-declared-in": "02-mechanics.md#brewing"`}
	for i := range want {
		if texts[i] != want[i] {
			t.Errorf("selection %d = %q, want %q", i, texts[i], want[i])
		}
	}
	for i := 1; i < len(got[0]); i++ {
		a, b := got[0][i-1], got[0][i]
		if b.Start > a.Start || b.End < a.End || a == b {
			t.Errorf("selection %d %v does not strictly hold %v", i, b, a)
		}
	}
	if last := got[0][len(got[0])-1]; last.Start != 0 || last.End != len(content) {
		t.Errorf("the outermost selection is %v, want the whole file", last)
	}
}

func TestDocumentHighlights(t *testing.T) {
	root, s := demoSnapshot(t)
	mech := filepath.Join(root, "02-mechanics.md")
	mc := string(s.File(mech).Content)
	token := "`energy.max`"
	hs := DocumentHighlights(s, mech, strings.Index(mc, token)+3)
	if n := strings.Count(mc, token); len(hs) != n || n < 2 {
		t.Errorf("%d highlights of %s, want %d", len(hs), token, n)
	}
	for _, h := range hs {
		if mc[h.Span.Start:h.Span.End] != strings.Trim(token, "`") || h.Write {
			t.Errorf("highlight %q (write %v)", mc[h.Span.Start:h.Span.End], h.Write)
		}
	}
	tuning := filepath.Join(root, "tuning.json")
	tc := string(s.File(tuning).Content)
	hs = DocumentHighlights(s, tuning, strings.Index(tc, `"garden.growth_minutes_per_stage"`)+2)
	writes := 0
	for _, h := range hs {
		if h.Write {
			writes++
		}
	}
	// The declaration, the range key and the rule that names it.
	if len(hs) != 3 || writes != 1 {
		t.Errorf("highlights in tuning.json = %+v, want 3 with one declaration", hs)
	}
}
