package ide

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/source"
)

// TestNoInlayOnSetsTargets checks that the keys of sets, which cite tuning
// keys, get no hint of the authored number: the number beside them is the
// one the answer sets.
func TestNoInlayOnSetsTargets(t *testing.T) {
	dir := analysistest.WriteFiles(t, "", map[string][]byte{
		"tuning.json":          []byte(`{"values": {"a.b": 1}, "open": {"o.x": 2}, "ranges": {"a.b": [0, 5]}}`),
		"personalization.json": []byte(`{"questions": [{"id": "q", "prompt": "?", "type": "choice", "options": [{"id": "x", "label": "X", "sets": {"a.b": 3, "o.x": 4}}], "default": "x"}]}`),
		"02-mechanics.md":      []byte("# Mechanics\n\nUses `a.b`.\n"),
	})
	s := analysis.Load([]string{dir}, analysis.Options{})
	path := filepath.Join(dir, "personalization.json")
	if hints := InlayHints(s, path, source.Span{Start: 0, End: len(s.File(path).Content)}); len(hints) != 0 {
		t.Errorf("hints %v in personalization.json, want none", hints)
	}
	if hints := InlayHints(s, filepath.Join(dir, "02-mechanics.md"), source.Span{End: 100}); len(hints) != 1 {
		t.Errorf("hints %v in the chapter, want the one of a.b", hints)
	}
}

// TestTagCompletionSkipsSpacedIDs checks that tag completion leaves out a
// question id holding whitespace, which no tag can name.
func TestTagCompletionSkipsSpacedIDs(t *testing.T) {
	chapter := "# Mechanics\n\n> PERSONALIZATION: \n"
	dir := analysistest.WriteFiles(t, "", map[string][]byte{
		"tuning.json":          []byte(`{"values": {"a.b": 1}}`),
		"personalization.json": []byte(`{"questions": [{"id": "two words", "prompt": "?", "type": "text", "default": ""}, {"id": "one", "prompt": "?", "type": "text", "default": ""}]}`),
		"02-mechanics.md":      []byte(chapter),
	})
	s := analysis.Load([]string{dir}, analysis.Options{})
	var labels []string
	for _, it := range Complete(s, filepath.Join(dir, "02-mechanics.md"), len(chapter)-1) {
		labels = append(labels, it.Label)
	}
	if strings.Join(labels, ",") != "one" {
		t.Errorf("completion %q, want only one", labels)
	}
}
