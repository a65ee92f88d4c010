package ide

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestSemanticTokens(t *testing.T) {
	root, s := demoSnapshot(t)
	garden := filepath.Join(root, "contracts", "garden-away.json")
	content := string(s.File(garden).Content)
	toks := SemanticTokens(s, garden)
	byText := map[string]SemanticToken{}
	for i, tok := range toks {
		if i > 0 && tok.Span.Start < toks[i-1].Span.End {
			t.Errorf("tokens %v and %v overlap", toks[i-1], tok)
		}
		byText[content[tok.Span.Start:tok.Span.End]] = tok
	}
	if tok, ok := byText["crop-growth"]; !ok || !tok.Dangling || tok.Type != TokenHeading {
		t.Errorf("the dangling anchor crop-growth = %+v, %v", tok, ok)
	}
	resolved := 0
	for text, tok := range byText {
		if !tok.Dangling && tok.Type == TokenHeading && !strings.Contains(text, "#") {
			resolved++
		}
	}
	if resolved == 0 {
		t.Error("no resolved heading citation in garden-away.json")
	}
	content3 := string(s.File(filepath.Join(root, "03-content.md")).Content)
	found := false
	for _, tok := range SemanticTokens(s, filepath.Join(root, "03-content.md")) {
		if content3[tok.Span.Start:tok.Span.End] == "garden.growth_minutes" {
			found = true
			if !tok.Dangling || tok.Type != TokenTuningKey {
				t.Errorf("the dangling prose key = %+v", tok)
			}
		}
	}
	if !found {
		t.Error("no token for the dangling prose key garden.growth_minutes")
	}
}
