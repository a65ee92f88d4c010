package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/gddls/gddls/analysis/analysistest"
)

// copyDemo copies the demo package of testdata into a temporary folder.
func copyDemo(t *testing.T) string { return copyTestdata(t, "demo") }

// copyTestdata copies a folder of testdata into a temporary folder.
func copyTestdata(t *testing.T, name string) string {
	t.Helper()
	return analysistest.CopyTree(t, analysistest.Testdata(t, name))
}

// posOf returns the LSP position of the first occurrence of needle in a
// file, moved by delta bytes.
func posOf(t *testing.T, path, needle string, delta int) map[string]int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), needle)
	if i < 0 {
		t.Fatalf("%s does not contain %q", path, needle)
	}
	off := i + delta
	lineStart := strings.LastIndex(string(data[:off]), "\n") + 1
	return map[string]int{
		"line":      strings.Count(string(data[:off]), "\n"),
		"character": len(utf16.Encode([]rune(string(data[lineStart:off])))),
	}
}

// mustAnswer fails the test when a query answered nothing.
func mustAnswer(t *testing.T, got bool, query string) {
	t.Helper()
	if !got {
		t.Fatalf("the %s query answered nothing", query)
	}
}

func TestFeatures(t *testing.T) {
	root := copyDemo(t)
	mech := filepath.Join(root, "02-mechanics.md")
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	c := start(t, nil)
	c.initialize(root, nil, nil)
	doc := func(path string) map[string]any { return map[string]any{"uri": fileURI(path)} }
	citation := posOf(t, cauldron, `"02-mechanics.md#brewing"`, len(`"02-mechanics.md#br`))

	t.Run("definition", func(t *testing.T) {
		var locs []struct {
			URI   string    `json:"uri"`
			Range rangeJSON `json:"range"`
		}
		c.result("textDocument/definition", map[string]any{"textDocument": doc(cauldron), "position": citation}, &locs)
		mustAnswer(t, len(locs) > 0, "definition")
		if locs[0].URI != fileURI(mech) {
			t.Errorf("definition of a citation of 02-mechanics.md#brewing is in %s", locs[0].URI)
		}
		want := posOf(t, mech, "## Brewing", 0)["line"]
		if locs[0].Range.Start.Line != want {
			t.Errorf("definition on line %d, want the heading's line %d", locs[0].Range.Start.Line, want)
		}
	})

	t.Run("hover", func(t *testing.T) {
		var h *struct {
			Contents struct {
				Kind  string `json:"kind"`
				Value string `json:"value"`
			} `json:"contents"`
			Range *rangeJSON `json:"range"`
		}
		c.result("textDocument/hover", map[string]any{"textDocument": doc(cauldron), "position": citation}, &h)
		mustAnswer(t, h != nil, "hover")
		if h.Contents.Kind != "markdown" || !strings.Contains(strings.ToLower(h.Contents.Value), "brewing") {
			t.Errorf("hover = %+v, want Markdown naming the Brewing heading", h.Contents)
		}
		if h.Range == nil || h.Range.Start.Line != citation["line"] {
			t.Errorf("hover range = %+v, want on line %d", h.Range, citation["line"])
		}
	})

	heading := posOf(t, mech, "## Brewing", 4)

	t.Run("references", func(t *testing.T) {
		var locs []struct {
			URI string `json:"uri"`
		}
		c.result("textDocument/references", map[string]any{"textDocument": doc(mech), "position": heading, "context": map[string]any{"includeDeclaration": false}}, &locs)
		mustAnswer(t, len(locs) > 0, "references")
		found := false
		for _, l := range locs {
			found = found || l.URI == fileURI(cauldron)
		}
		if !found {
			t.Errorf("references of the Brewing heading do not include cauldron.json: %+v", locs)
		}
	})

	t.Run("rename", func(t *testing.T) {
		var prep *struct {
			Range       rangeJSON `json:"range"`
			Placeholder string    `json:"placeholder"`
		}
		c.result("textDocument/prepareRename", map[string]any{"textDocument": doc(mech), "position": heading}, &prep)
		mustAnswer(t, prep != nil, "prepareRename")
		if prep.Range.Start.Line != heading["line"] || prep.Placeholder == "" {
			t.Errorf("prepareRename = %+v, want the heading on line %d", prep, heading["line"])
		}
		var edit struct {
			Changes map[string][]struct {
				Range   rangeJSON `json:"range"`
				NewText string    `json:"newText"`
			} `json:"changes"`
		}
		c.result("textDocument/rename", map[string]any{"textDocument": doc(mech), "position": heading, "newName": "Simmering"}, &edit)
		if len(edit.Changes[fileURI(mech)]) == 0 || len(edit.Changes[fileURI(cauldron)]) == 0 {
			t.Errorf("rename edits %v, want edits in 02-mechanics.md and cauldron.json", edit.Changes)
		}
		for _, e := range edit.Changes[fileURI(cauldron)] {
			if !strings.Contains(e.NewText, "simmering") {
				t.Errorf("citation edit %+v does not use the new anchor", e)
			}
		}
	})

	t.Run("completion", func(t *testing.T) {
		at := posOf(t, cauldron, `"02-mechanics.md#brewing"`, len(`"02-mechanics.md#`))
		var list struct {
			Items []struct {
				Label string `json:"label"`
				Kind  int    `json:"kind"`
			} `json:"items"`
		}
		c.result("textDocument/completion", map[string]any{"textDocument": doc(cauldron), "position": at}, &list)
		mustAnswer(t, len(list.Items) > 0, "completion")
		found := false
		for _, it := range list.Items {
			found = found || strings.Contains(it.Label, "brewing")
		}
		if !found {
			t.Errorf("completion after 02-mechanics.md# lacks the brewing anchor: %+v", list.Items)
		}
	})

	t.Run("documentSymbol", func(t *testing.T) {
		var syms []struct {
			Name     string `json:"name"`
			Children []any  `json:"children"`
		}
		c.result("textDocument/documentSymbol", map[string]any{"textDocument": doc(mech)}, &syms)
		mustAnswer(t, len(syms) > 0, "documentSymbol")
		if !strings.Contains(syms[0].Name, "Mechanics") {
			t.Errorf("first symbol of 02-mechanics.md = %q, want the Mechanics heading", syms[0].Name)
		}
	})

	t.Run("workspaceSymbol", func(t *testing.T) {
		var syms []struct {
			Name     string `json:"name"`
			Location struct {
				URI string `json:"uri"`
			} `json:"location"`
		}
		c.result("workspace/symbol", map[string]any{"query": "Brewing"}, &syms)
		mustAnswer(t, len(syms) > 0, "workspace symbols")
		found := false
		for _, s := range syms {
			found = found || s.Location.URI == fileURI(mech)
		}
		if !found {
			t.Errorf("workspace symbols for Brewing do not include 02-mechanics.md: %+v", syms)
		}
	})

	t.Run("codeAction", func(t *testing.T) {
		garden := filepath.Join(root, "contracts", "garden-away.json")
		pub, _ := c.awaitDiagnostics(0, fileURI(garden), "diagnostics of garden-away.json", nonEmpty)
		var diag json.RawMessage
		var rng rangeJSON
		for i, d := range pub.Diagnostics {
			if d.Code == "CONTRACT_CITATION_DANGLING" {
				raw, _ := json.Marshal(pub.Diagnostics[i])
				diag, rng = raw, d.Range
			}
		}
		if diag == nil {
			t.Fatalf("no CONTRACT_CITATION_DANGLING in %+v", pub.Diagnostics)
		}
		var actions []struct {
			Title       string            `json:"title"`
			Kind        string            `json:"kind"`
			Diagnostics []json.RawMessage `json:"diagnostics"`
			Edit        struct {
				Changes map[string][]any `json:"changes"`
			} `json:"edit"`
		}
		c.result("textDocument/codeAction", map[string]any{
			"textDocument": doc(garden), "range": rng,
			"context": map[string]any{"diagnostics": []json.RawMessage{diag}},
		}, &actions)
		mustAnswer(t, len(actions) > 0, "code action")
		a := actions[0]
		if a.Title == "" || a.Kind != "quickfix" || len(a.Edit.Changes[fileURI(garden)]) == 0 {
			t.Errorf("code action = %+v, want a titled quickfix editing garden-away.json", a)
		}
		if len(a.Diagnostics) != 1 {
			t.Errorf("code action lists %d diagnostics, want the one it fixes", len(a.Diagnostics))
		}
	})

	t.Run("codeLens", func(t *testing.T) {
		var lenses []struct {
			Command *struct {
				Title string `json:"title"`
			} `json:"command"`
		}
		c.result("textDocument/codeLens", map[string]any{"textDocument": doc(cauldron)}, &lenses)
		mustAnswer(t, len(lenses) > 0, "code lens")
		if lenses[0].Command == nil || lenses[0].Command.Title == "" {
			t.Errorf("code lens without a titled command: %+v", lenses[0])
		}
	})

	t.Run("documentLink", func(t *testing.T) {
		var links []struct {
			Range  rangeJSON `json:"range"`
			Target string    `json:"target"`
		}
		c.result("textDocument/documentLink", map[string]any{"textDocument": doc(cauldron)}, &links)
		mustAnswer(t, len(links) > 0, "document link")
		found := false
		for _, l := range links {
			found = found || strings.HasPrefix(l.Target, fileURI(mech))
		}
		if !found {
			t.Errorf("no link of cauldron.json targets 02-mechanics.md: %+v", links)
		}
	})

	t.Run("renderTests", func(t *testing.T) {
		forage := filepath.Join(root, "contracts", "daily-forage.json")
		m := c.call("workspace/executeCommand", map[string]any{"command": "gddls.renderTests", "arguments": []string{fileURI(forage)}})
		var out *string
		if m.Error == nil {
			json.Unmarshal(m.Result, &out)
		}
		mustAnswer(t, out != nil && *out != "", "render tests")
		if !strings.Contains(*out, "daily-forage") {
			t.Errorf("rendered tests do not name the adoption:\n%s", *out)
		}
		// An adoption without a pack has nothing to render: an error
		// response that says why.
		m = c.call("workspace/executeCommand", map[string]any{"command": "gddls.renderTests", "arguments": []string{fileURI(cauldron)}})
		if m.Error == nil || m.Error.Message == "" {
			t.Errorf("rendering tests of a promised adoption: result %s, want an error that says why", m.Result)
		}
	})

	t.Run("unknownCommand", func(t *testing.T) {
		m := c.call("workspace/executeCommand", map[string]any{"command": "gddls.nope", "arguments": []string{}})
		if errorCode(m) != -32602 {
			t.Errorf("unknown command: error %+v, want InvalidParams", m.Error)
		}
	})

	t.Run("completionAfterEdit", func(t *testing.T) {
		// A heading typed without saving is offered right away: the edit
		// reaches the workspace before the completion runs.
		data, err := os.ReadFile(mech)
		if err != nil {
			t.Fatal(err)
		}
		c.open(mech, string(data), 1)
		c.change(mech, 2, []int{0, 0, 0, 0}, "# Zymurgy notes\n\n")
		at := posOf(t, cauldron, `"02-mechanics.md#brewing"`, len(`"02-mechanics.md#`))
		var list struct {
			Items []struct {
				Label string `json:"label"`
			} `json:"items"`
		}
		c.result("textDocument/completion", map[string]any{"textDocument": doc(cauldron), "position": at}, &list)
		mustAnswer(t, len(list.Items) > 0, "completion")
		found := false
		for _, it := range list.Items {
			found = found || strings.Contains(it.Label, "zymurgy-notes")
		}
		if !found {
			t.Errorf("completion right after an edit lacks the new heading's anchor: %+v", list.Items)
		}
	})

	c.shutdown()
}
