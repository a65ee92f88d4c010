package lsp

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestFoldingSelectionHighlightEndToEnd(t *testing.T) {
	root := copyDemo(t)
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	c := start(t, nil)
	res := c.initialize(root, nil, nil)
	for _, cap := range []string{`"foldingRangeProvider":true`, `"selectionRangeProvider":true`, `"documentHighlightProvider":true`} {
		if !strings.Contains(string(res), cap) {
			t.Errorf("the capabilities lack %s", cap)
		}
	}
	doc := map[string]any{"uri": fileURI(cauldron)}

	var folds []struct{ StartLine, EndLine int }
	c.result("textDocument/foldingRange", map[string]any{"textDocument": doc}, &folds)
	q := posOf(t, cauldron, `"job-inputs": {`, 0)["line"]
	found := false
	for _, f := range folds {
		found = found || (f.StartLine == q && f.EndLine > q)
	}
	if !found {
		t.Errorf("no folding range for the question on line %d: %d ranges", q+1, len(folds))
	}
	c.shutdown()

	// A client's rangeLimit bounds the answer.
	c = start(t, nil)
	c.initialize(root, map[string]any{"textDocument": map[string]any{"foldingRange": map[string]any{"rangeLimit": 5}}}, nil)
	var few []struct{ StartLine, EndLine int }
	c.result("textDocument/foldingRange", map[string]any{"textDocument": doc}, &few)
	if len(few) != 5 || len(folds) <= 5 {
		t.Errorf("with rangeLimit 5: %d ranges (of %d)", len(few), len(folds))
	}

	at := posOf(t, cauldron, `"02-mechanics.md#brewing"`, len(`"02-mechanics.md#br`))
	type sel struct {
		Range  rangeJSON `json:"range"`
		Parent *sel      `json:"parent"`
	}
	var sels []sel
	c.result("textDocument/selectionRange", map[string]any{"textDocument": doc, "positions": []any{at}}, &sels)
	if len(sels) != 1 || sels[0].Parent == nil {
		t.Fatalf("selection ranges = %+v", sels)
	}
	anchor := posOf(t, cauldron, `"02-mechanics.md#brewing"`, len(`"02-mechanics.md#`))
	if r := sels[0].Range; r.Start.Line != anchor["line"] || r.Start.Character != anchor["character"] || r.End.Character != anchor["character"]+len("brewing") {
		t.Errorf("the innermost selection is %+v, want the anchor brewing", r)
	}
	c.shutdown()

	docs := copyTestdata(t, "docs-repo")
	design := filepath.Join(docs, "docs", "design.md")
	c = start(t, nil)
	c.initialize(docs, nil, nil)
	var hs []struct {
		Range rangeJSON `json:"range"`
		Kind  int       `json:"kind"`
	}
	c.result("textDocument/documentHighlight", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(design)},
		"position":     posOf(t, design, "(#slots)", 3),
	}, &hs)
	writes := 0
	for _, h := range hs {
		if h.Kind == 3 {
			writes++
		}
	}
	if len(hs) != 2 || writes != 1 {
		t.Errorf("highlights of #slots in design.md = %+v, want the heading (write) and the link", hs)
	}
	c.shutdown()
}
