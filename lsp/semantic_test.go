package lsp

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

func TestSemanticTokensEndToEnd(t *testing.T) {
	root := copyDemo(t)
	garden := filepath.Join(root, "contracts", "garden-away.json")
	c := start(t, nil)
	res := c.initialize(root, nil, nil)
	if announced(t, res, "semanticTokensProvider") {
		t.Error("semantic tokens announced to a client that does not ask for them")
	}
	c.shutdown()

	c = start(t, nil)
	res = c.initialize(root, map[string]any{"textDocument": map[string]any{"semanticTokens": map[string]any{
		"requests": map[string]any{"full": true}, "tokenTypes": []string{"namespace"}, "tokenModifiers": []string{}, "formats": []string{"relative"}}}}, nil)
	var caps struct {
		Capabilities struct {
			SemanticTokensProvider struct {
				Legend struct {
					TokenTypes     []string `json:"tokenTypes"`
					TokenModifiers []string `json:"tokenModifiers"`
				} `json:"legend"`
				Full bool `json:"full"`
			} `json:"semanticTokensProvider"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(res, &caps); err != nil {
		t.Fatal(err)
	}
	legend := caps.Capabilities.SemanticTokensProvider.Legend
	if !caps.Capabilities.SemanticTokensProvider.Full || len(legend.TokenTypes) == 0 || len(legend.TokenModifiers) != 2 {
		t.Fatalf("semantic tokens provider = %+v", caps.Capabilities.SemanticTokensProvider)
	}
	var toks struct {
		Data []int `json:"data"`
	}
	c.result("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": fileURI(garden)}}, &toks)
	if len(toks.Data) == 0 || len(toks.Data)%5 != 0 {
		t.Fatalf("semantic token data = %v", toks.Data)
	}
	want := posOf(t, garden, `"02-mechanics.md#crop-growth"`, len(`"02-mechanics.md#`))
	line, char := 0, 0
	dangling, resolved := false, 0
	for i := 0; i < len(toks.Data); i += 5 {
		if toks.Data[i] > 0 {
			line, char = line+toks.Data[i], toks.Data[i+1]
		} else {
			char += toks.Data[i+1]
		}
		mods := toks.Data[i+4]
		if line == want["line"] && char == want["character"] {
			dangling = legend.TokenModifiers[1] == "dangling" && mods == 2 && legend.TokenTypes[toks.Data[i+3]] == "namespace" && toks.Data[i+2] == len("crop-growth")
		}
		if mods == 1 {
			resolved++
		}
	}
	if !dangling {
		t.Errorf("the citation of crop-growth is not a dangling heading token: %v", toks.Data)
	}
	if resolved == 0 {
		t.Error("no resolved citation token")
	}
	c.shutdown()
}
