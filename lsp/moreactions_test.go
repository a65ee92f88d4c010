package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// actionJSON is a code action as the client receives it.
type actionJSON struct {
	Title string          `json:"title"`
	Kind  string          `json:"kind"`
	Edit  json.RawMessage `json:"edit"`
}

// actions asks for the code actions of a whole file with an only filter.
func (c *client) actions(path string, only ...string) []actionJSON {
	c.t.Helper()
	var out []actionJSON
	ctx := map[string]any{"diagnostics": []any{}}
	if len(only) > 0 {
		ctx["only"] = only
	}
	c.result("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(path)},
		"range":        map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 100000, "character": 0}},
		"context":      ctx,
	}, &out)
	return out
}

// applyChanges applies a WorkspaceEdit with changes to the files on disk
// and reports them to the server as changed.
func (c *client) applyChanges(raw json.RawMessage) {
	c.t.Helper()
	var we workspaceEditJSON
	if err := json.Unmarshal(raw, &we); err != nil {
		c.t.Fatal(err)
	}
	var changed []map[string]any
	for u, edits := range we.Changes {
		path, _ := pathOf(u)
		if err := os.WriteFile(path, []byte(applyEdits(readFile(c.t, path), edits)), 0o644); err != nil {
			c.t.Fatal(err)
		}
		changed = append(changed, map[string]any{"uri": u, "type": 2})
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": changed})
}

func TestFixAllAndTableOfContentsEndToEnd(t *testing.T) {
	root := copyDemo(t)
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	mech := filepath.Join(root, "02-mechanics.md")
	c := start(t, hooks)
	c.initialize(root, nil, nil)
	acts := c.actions(cauldron, "source.fixAll")
	if len(acts) != 1 || acts[0].Kind != "source.fixAll" {
		t.Fatalf("fix-all actions of cauldron.json = %+v", acts)
	}
	before := c.currentFindings(root)
	c.applyChanges(acts[0].Edit)
	after := c.currentFindings(root)
	for _, f := range after {
		if strings.HasPrefix(f, "CONTRACT_ROW_CHOICE ") {
			t.Errorf("fix all left %s", f)
		}
	}
	if len(after) != len(before)-1 {
		t.Errorf("fix all changed the findings from %d to %d, want one fewer", len(before), len(after))
	}
	if got := c.actions(cauldron, "source.fixAll"); len(got) != 0 {
		t.Errorf("fix all offered again after it was applied: %+v", got)
	}
	toc := c.actions(mech, "source")
	if len(toc) != 1 || toc[0].Title != "Insert a table of contents" {
		t.Fatalf("source actions of 02-mechanics.md = %+v", toc)
	}
	c.applyChanges(toc[0].Edit)
	if got := c.currentFindings(root); len(got) != len(after) {
		t.Errorf("the table of contents changed the findings: %q", got)
	}
	if !strings.Contains(readFile(t, mech), "- [Foraging](#foraging)") {
		t.Error("the table of contents lacks the Foraging section")
	}
	c.shutdown()
}

func TestCreateFileAction(t *testing.T) {
	root := docFixture(t)
	a := filepath.Join(root, "a.md")
	for _, create := range []bool{false, true} {
		c := start(t, nil)
		caps := map[string]any{}
		if create {
			caps = map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{
				"documentChanges": true, "resourceOperations": []string{"create", "rename", "delete"}}}}
		}
		c.initialize(root, caps, nil)
		var found *actionJSON
		for _, act := range c.actions(a, "quickfix") {
			if act.Title == "Create nope.md" {
				found = &act
			}
		}
		switch {
		case !create && found != nil:
			t.Error("create file offered to a client without create operations")
		case create && found == nil:
			t.Error("no create file action for the broken link")
		case create:
			var we struct {
				DocumentChanges []map[string]any `json:"documentChanges"`
			}
			if err := json.Unmarshal(found.Edit, &we); err != nil {
				t.Fatal(err)
			}
			if len(we.DocumentChanges) != 2 || we.DocumentChanges[0]["kind"] != "create" || we.DocumentChanges[0]["uri"] != fileURI(filepath.Join(root, "nope.md")) {
				t.Errorf("create file edit = %s", found.Edit)
			}
		}
		c.shutdown()
	}
}

// TestSourceActionsNotForTheLightBulb: a request the editor makes by
// itself, with no kinds, gets the quick fixes but not the whole-file
// source actions.
func TestSourceActionsNotForTheLightBulb(t *testing.T) {
	root := copyDemo(t)
	mech := filepath.Join(root, "02-mechanics.md")
	c := start(t, nil)
	c.initialize(root, nil, nil)
	var acts []actionJSON
	c.result("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(mech)},
		"range":        map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 0, "character": 0}},
		"context":      map[string]any{"diagnostics": []any{}, "triggerKind": 2},
	}, &acts)
	for _, a := range acts {
		if strings.HasPrefix(a.Kind, "source") {
			t.Errorf("an automatic request got the source action %q", a.Title)
		}
	}
	if got := c.actions(mech); len(got) == 0 {
		t.Error("an invoked request without kinds got no source action")
	}
	c.shutdown()
}
