package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenameRecord renames a record id from its prose citation: a client
// that applies rename operations gets the text edits and the move of the
// record file as one edit; another gets an error that says what to do.
func TestRenameRecord(t *testing.T) {
	const mechanics = "# Mechanics\n\nThe moth `collections.moths.dusk` is fast.\n"
	root := writeFiles(t, map[string]string{
		"manifest.json":                      `{}`,
		"tuning.json":                        `{ "values": {} }`,
		"02-mechanics.md":                    mechanics,
		"collections/moths/_collection.json": `{ "record": { "mate": { "type": "link", "to": "moths" } } }`,
		"collections/moths/dusk.json":        `{ "mate": "dawn" }`,
		"collections/moths/dawn.json":        `{ "mate": "dusk" }`,
	})
	mech := filepath.Join(root, "02-mechanics.md")
	at := strings.Index(mechanics, "dusk")
	params := map[string]any{
		"textDocument": map[string]any{"uri": fileURI(mech)},
		"position":     map[string]any{"line": 2, "character": at - strings.Index(mechanics, "The")},
		"newName":      "twilight",
	}
	for _, canRename := range []bool{false, true} {
		c := start(t, nil)
		caps := map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{
			"documentChanges": true, "resourceOperations": []string{"create"}}}}
		if canRename {
			caps = map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{
				"documentChanges": true, "resourceOperations": []string{"create", "rename"}}}}
		}
		c.initialize(root, caps, nil)
		m := c.call("textDocument/rename", params)
		if !canRename {
			if m.Error == nil || !strings.Contains(m.Error.Message, "rename the file") {
				t.Errorf("rename without rename operations: %s, %v", m.Result, m.Error)
			}
			c.shutdown()
			continue
		}
		if m.Error != nil {
			t.Fatalf("rename: %s", m.Error.Message)
		}
		var we struct {
			DocumentChanges []json.RawMessage `json:"documentChanges"`
		}
		if err := json.Unmarshal(m.Result, &we); err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, raw := range we.DocumentChanges {
			var op struct {
				Kind   string `json:"kind"`
				OldURI string `json:"oldUri"`
				NewURI string `json:"newUri"`
				Doc    *struct {
					URI string `json:"uri"`
				} `json:"textDocument"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatal(err)
			}
			switch {
			case op.Kind == "rename":
				if op.OldURI != fileURI(filepath.Join(root, "collections", "moths", "dusk.json")) || op.NewURI != fileURI(filepath.Join(root, "collections", "moths", "twilight.json")) {
					t.Errorf("rename operation %s", raw)
				}
				kinds = append(kinds, "rename")
			case op.Doc != nil:
				kinds = append(kinds, "edit "+filepath.Base(op.Doc.URI))
			}
		}
		if got := strings.Join(kinds, ", "); got != "edit 02-mechanics.md, edit dawn.json, rename" {
			t.Errorf("document changes: %s (%s)", got, m.Result)
		}
		c.shutdown()
	}
}
