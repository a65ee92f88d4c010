package lsp

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestSnippetCompletion(t *testing.T) {
	root := copyDemo(t)
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	text := readFile(t, cauldron)
	edited := replaceFirst(t, text, "\"rows\": {\n    \"job\": [\n", "\"rows\": {\n    \"job\": [\n      \n")
	line := strings.Count(edited[:strings.Index(edited, "\"job\": [\n")], "\n") + 1
	for _, snippets := range []bool{false, true} {
		c := start(t, nil)
		c.initialize(root, map[string]any{"textDocument": map[string]any{"completion": map[string]any{
			"completionItem": map[string]any{"snippetSupport": snippets}}}}, nil)
		c.open(cauldron, edited, 1)
		var list struct {
			Items []struct {
				Label            string `json:"label"`
				InsertTextFormat int    `json:"insertTextFormat"`
				TextEdit         struct {
					NewText string `json:"newText"`
				} `json:"textEdit"`
			} `json:"items"`
		}
		c.result("textDocument/completion", map[string]any{
			"textDocument": map[string]any{"uri": fileURI(cauldron)},
			"position":     map[string]int{"line": line, "character": 6},
		}, &list)
		found := false
		for _, it := range list.Items {
			if it.Label != "new job row" {
				continue
			}
			found = true
			hasStops := strings.Contains(it.TextEdit.NewText, "${1")
			if snippets && (it.InsertTextFormat != 2 || !hasStops) {
				t.Errorf("snippet client: %+v", it)
			}
			if !snippets && (it.InsertTextFormat == 2 || hasStops) {
				t.Errorf("plain client got a snippet: %+v", it)
			}
		}
		if !found {
			t.Errorf("no new-row item (snippets %v): %+v", snippets, list.Items)
		}
		c.shutdown()
	}
}
