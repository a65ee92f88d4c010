package lsp

import (
	"path/filepath"
	"testing"
)

// hintJSON is an inlay hint as the client receives it.
type hintJSON struct {
	Position struct{ Line, Character int } `json:"position"`
	Label    string                        `json:"label"`
}

// hintsOf asks for the inlay hints of a whole file.
func (c *client) hintsOf(path string) []hintJSON {
	c.t.Helper()
	var hs []hintJSON
	c.result("textDocument/inlayHint", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(path)},
		"range":        map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 100000, "character": 0}},
	}, &hs)
	return hs
}

// hintAt returns the label of the hint at the end of the first occurrence
// of needle in path, or "".
func hintAt(t *testing.T, hs []hintJSON, path, needle string) string {
	t.Helper()
	pos := posOf(t, path, needle, len(needle))
	for _, h := range hs {
		if h.Position.Line == pos["line"] && h.Position.Character == pos["character"] {
			return h.Label
		}
	}
	return ""
}

func TestInlayHintsEndToEnd(t *testing.T) {
	root := copyDemo(t)
	mech := filepath.Join(root, "02-mechanics.md")
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	garden := filepath.Join(root, "contracts", "garden-away.json")
	c := start(t, nil)
	c.initialize(root, map[string]any{"textDocument": map[string]any{"inlayHint": map[string]any{}}, "workspace": map[string]any{"inlayHint": map[string]any{"refreshSupport": false}}},
		map[string]any{"gddls": map[string]any{"inlayHints": map[string]any{"headings": false}}})
	hs := c.hintsOf(mech)
	if got := hintAt(t, hs, mech, "`forage.turns_per_day`"); got != "= 40" {
		t.Errorf("hint after forage.turns_per_day = %q, want \"= 40\"", got)
	}
	if got := hintAt(t, hs, mech, "`contracts.daily-forage.allowed-position-gap`"); got != "= 0.5" {
		t.Errorf("hint after the contract address = %q, want \"= 0.5\"", got)
	}
	if got := hintAt(t, c.hintsOf(garden), garden, `"backward-clock-notice": "explain"`); got != "not asked" {
		t.Errorf("hint after the unasked answer = %q, want \"not asked\"", got)
	}
	if got := hintAt(t, c.hintsOf(cauldron), cauldron, `"02-mechanics.md#brewing"`); got != "" {
		t.Errorf("heading hints are off, but the citation has the hint %q", got)
	}
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"gddls": map[string]any{"inlayHints": map[string]any{"headings": true, "tuningValues": false}}}})
	if got := hintAt(t, c.hintsOf(cauldron), cauldron, `"02-mechanics.md#brewing"`); got != "Brewing" {
		t.Errorf("after turning heading hints on, the citation's hint is %q, want \"Brewing\"", got)
	}
	if got := hintAt(t, c.hintsOf(mech), mech, "`forage.turns_per_day`"); got != "" {
		t.Errorf("tuning hints are off, but the citation has the hint %q", got)
	}
	c.shutdown()
}

func TestInlayHintsDocsRepo(t *testing.T) {
	root := copyTestdata(t, "docs-repo")
	design := filepath.Join(root, "docs", "design.md")
	c := start(t, nil)
	if announced(t, c.initialize(root, nil, nil), "inlayHintProvider") {
		t.Error("inlay hints announced to a client that does not declare them")
	}
	hs := c.hintsOf(design)
	if got := hintAt(t, hs, design, "save%20format.md#checksums"); got != "Checksums" {
		t.Errorf("hint after the link to #checksums = %q, want \"Checksums\"", got)
	}
	c.shutdown()
}

// TestInlayRefreshAfterEdit changes a tuning value: the hints of the
// chapters citing it move, so the server asks the client to refresh.
func TestInlayRefreshAfterEdit(t *testing.T) {
	root := copyDemo(t)
	tuning := filepath.Join(root, "tuning.json")
	mech := filepath.Join(root, "02-mechanics.md")
	c := start(t, hooks)
	c.initialize(root, map[string]any{"textDocument": map[string]any{"inlayHint": map[string]any{}}, "workspace": map[string]any{"inlayHint": map[string]any{"refreshSupport": true}}}, nil)
	c.result("gddls/test.flush", nil, nil)
	text := readFile(t, tuning)
	mark := c.mark()
	c.open(tuning, text, 1)
	c.change(tuning, 2, nil, replaceFirst(t, text, `"forage.turns_per_day": 40`, `"forage.turns_per_day": 41`))
	c.result("gddls/test.flush", nil, nil)
	c.await(mark, "workspace/inlayHint/refresh", func(m message) bool { return m.Method == "workspace/inlayHint/refresh" })
	if got := hintAt(t, c.hintsOf(mech), mech, "`forage.turns_per_day`"); got != "= 41" {
		t.Errorf("after the edit the hint is %q, want \"= 41\"", got)
	}
	c.shutdown()
}
