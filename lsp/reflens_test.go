package lsp

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// lensJSON is a code lens as the client receives it.
type lensJSON struct {
	Range   rangeJSON `json:"range"`
	Command struct {
		Title     string            `json:"title"`
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	} `json:"command"`
}

// lensOn returns the lens of path on the line of the first occurrence of
// needle.
func (c *client) lensOn(path, needle string) lensJSON {
	c.t.Helper()
	var lenses []lensJSON
	c.result("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": fileURI(path)}}, &lenses)
	line := posOf(c.t, path, needle, 0)["line"]
	for _, l := range lenses {
		if l.Range.Start.Line == line {
			return l
		}
	}
	c.t.Fatalf("no lens on the line of %q in %s: %+v", needle, filepath.Base(path), lenses)
	return lensJSON{}
}

func TestReferenceLensesEndToEnd(t *testing.T) {
	root := copyDemo(t)
	mech := filepath.Join(root, "02-mechanics.md")
	c := start(t, nil)
	c.initialize(root, nil, nil)
	l := c.lensOn(mech, "### Brewing")
	if l.Command.Title != "3 references" || l.Command.Command != "gddls.showReferences" || len(l.Command.Arguments) != 3 {
		t.Fatalf("lens on Brewing = %+v", l.Command)
	}
	var u string
	var pos struct{ Line, Character int }
	var locs []struct {
		URI   string    `json:"uri"`
		Range rangeJSON `json:"range"`
	}
	for i, v := range []any{&u, &pos, &locs} {
		if err := json.Unmarshal(l.Command.Arguments[i], v); err != nil {
			t.Fatalf("argument %d: %v", i, err)
		}
	}
	if u != fileURI(mech) || pos.Line != l.Range.Start.Line || len(locs) != 3 || locs[0].URI != fileURI(filepath.Join(root, "contracts", "cauldron.json")) {
		t.Errorf("the lens arguments are %s", l.Command.Arguments)
	}
	c.shutdown()

	docs := copyTestdata(t, "docs-repo")
	c = start(t, nil)
	c.initialize(docs, nil, nil)
	if l := c.lensOn(filepath.Join(docs, "docs", "design.md"), "## Slots"); l.Command.Title != "2 references" {
		t.Errorf("lens on Slots = %+v, want 2 references (design.md and perf.md)", l.Command.Title)
	}
	c.shutdown()
}
