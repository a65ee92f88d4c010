package ide

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/source"
)

// hintAfter returns the hints of a file that sit right after the first
// occurrence of needle.
func hintAfter(t *testing.T, s *analysis.Snapshot, path, needle string) []InlayHint {
	t.Helper()
	f := s.File(path)
	if f == nil {
		t.Fatalf("%s is not in the snapshot", path)
	}
	i := strings.Index(string(f.Content), needle)
	if i < 0 {
		t.Fatalf("%s does not contain %q", path, needle)
	}
	var out []InlayHint
	for _, h := range InlayHints(s, path, source.Span{Start: 0, End: len(f.Content)}) {
		if h.Offset == i+len(needle) {
			out = append(out, h)
		}
	}
	return out
}

func TestInlayHintsDemo(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "demo"))
	s := analysis.Load([]string{root}, analysis.Options{})
	mech := filepath.Join(root, "02-mechanics.md")
	cases := []struct {
		file, needle string
		kind         InlayKind
		label        string
	}{
		{mech, "`forage.turns_per_day`", InlayTuningValue, "= 40"},
		{mech, "`forage.toadstool_chance`", InlayTuningValue, "open"},
		{mech, "`contracts.daily-forage.allowed-position-gap`", InlayContractValue, "= 0.5"},
		{filepath.Join(root, "contracts", "cauldron.json"), `"02-mechanics.md#brewing"`, InlayHeading, "Brewing"},
		{filepath.Join(root, "contracts", "garden-away.json"), `"backward-clock-notice": "explain"`, InlayNotAsked, "not asked"},
		{filepath.Join(root, "direction.json"), `"key": "cauldron.brew_minutes"`, InlayTuningValue, "= 8"},
	}
	for _, c := range cases {
		hs := hintAfter(t, s, c.file, c.needle)
		if len(hs) != 1 || hs[0].Kind != c.kind || hs[0].Label != c.label {
			t.Errorf("hints after %s in %s = %+v, want one of kind %d labelled %q", c.needle, filepath.Base(c.file), hs, c.kind, c.label)
		}
	}
	// A dangling anchor and an unknown key get no hint.
	if hs := hintAfter(t, s, filepath.Join(root, "contracts", "garden-away.json"), `"02-mechanics.md#crop-growth"`); len(hs) != 0 {
		t.Errorf("a dangling citation has hints %+v", hs)
	}
	if hs := hintAfter(t, s, filepath.Join(root, "03-content.md"), "`garden.growth_minutes`"); len(hs) != 0 {
		t.Errorf("a dangling key has hints %+v", hs)
	}
	// The range limits the answer.
	f := s.File(mech)
	if hs := InlayHints(s, mech, source.Span{Start: 0, End: 1}); len(hs) != 0 {
		t.Errorf("hints in the first byte of %s: %+v", f.Path, hs)
	}
}

func TestInlayHintsLinks(t *testing.T) {
	dir := analysistest.WriteFiles(t, "", map[string]string{
		"a.md": "# A\n\nSee [the layout](b.md#header-layout), [Header layout](b.md#header-layout) and [b](b.md).\n",
		"b.md": "# B\n\n## Header layout\n",
	})
	s := analysis.Load([]string{dir}, analysis.Options{})
	a := filepath.Join(dir, "a.md")
	if hs := hintAfter(t, s, a, "(b.md#header-layout"); len(hs) != 1 || hs[0].Label != "Header layout" || hs[0].Kind != InlayHeading {
		t.Errorf("hints after the first link = %+v, want the heading text", hs)
	}
	content := string(s.File(a).Content)
	second := strings.Index(content, "[Header layout](b.md#header-layout") + len("[Header layout](b.md#header-layout")
	for _, h := range InlayHints(s, a, source.Span{Start: 0, End: len(content)}) {
		if h.Offset == second {
			t.Errorf("a link whose text is the heading has the hint %+v", h)
		}
	}
}
