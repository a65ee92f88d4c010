package lsp

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestEditorFeaturesDocsRepo runs pull diagnostics, diagnostic details and
// the create actions on the docs repository, a Markdown repository with a
// package inside.
func TestEditorFeaturesDocsRepo(t *testing.T) {
	root := copyTestdata(t, "docs-repo")
	perf := filepath.Join(root, "docs", "perf.md")
	design := filepath.Join(root, "docs", "design.md")

	push := start(t, hooks)
	push.initialize(root, nil, nil)
	pushed := push.pushedState()
	push.shutdown()

	caps := map[string]any{
		"textDocument": map[string]any{"diagnostic": map[string]any{}},
		"workspace": map[string]any{
			"diagnostics":   map[string]any{"refreshSupport": true},
			"workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create"}},
		},
	}
	c := start(t, hooks)
	c.initialize(root, caps, nil)
	var ws struct {
		Items []reportJSON `json:"items"`
	}
	c.result("workspace/diagnostic", map[string]any{"previousResultIds": []any{}}, &ws)
	pulled := map[string][]json.RawMessage{}
	for _, it := range ws.Items {
		if len(it.Items) > 0 {
			pulled[it.URI] = it.Items
		}
	}
	if len(pulled) == 0 || !reflect.DeepEqual(pulled, pushed) {
		t.Errorf("pulled diagnostics of %d files differ from the %d pushed", len(pulled), len(pushed))
	}
	// gddls' own codes link no spec section and are not unnecessary.
	for u, items := range pulled {
		for _, raw := range items {
			var d struct {
				Code            string          `json:"code"`
				CodeDescription json.RawMessage `json:"codeDescription"`
				Tags            []int           `json:"tags"`
			}
			if err := json.Unmarshal(raw, &d); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(d.Code, "DOC_") && (d.CodeDescription != nil || d.Tags != nil) {
				t.Errorf("%s in %s: %s", d.Code, u, raw)
			}
		}
	}

	// A dangling fragment: create the heading in the linked file.
	titles := func(path string) map[string]actionJSON {
		out := map[string]actionJSON{}
		for _, a := range c.actions(path, "quickfix") {
			out[a.Title] = a
		}
		return out
	}
	if _, ok := titles(perf)[`Create the heading "Budgets for mobile" in docs/design.md`]; !ok {
		t.Errorf("no create-heading action in perf.md: %v", titles(perf))
	}
	// A broken link: create the file, with documentChanges.
	act, ok := titles(design)["Create docs/archive/old-notes.md"]
	if !ok {
		t.Fatalf("no create-file action in design.md: %v", titles(design))
	}
	if !strings.Contains(string(act.Edit), `"kind":"create"`) || !strings.Contains(string(act.Edit), "# Old notes") {
		t.Errorf("the create-file edit is %s", act.Edit)
	}
	c.shutdown()
}
