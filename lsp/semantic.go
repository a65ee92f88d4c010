package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/ide"
)

// semanticTokenTypes is the legend of token types, indexed by
// analysis.TokenType: standard LSP types, so that every theme colours them.
var semanticTokenTypes = []string{
	ide.TokenHeading:   "namespace",
	ide.TokenFile:      "string",
	ide.TokenTuningKey: "variable",
	ide.TokenRule:      "function",
	ide.TokenAdoption:  "class",
	ide.TokenValue:     "property",
}

// semanticTokenModifiers is the legend of modifiers: bit 0 marks a
// citation that resolves, bit 1 one that names nothing.
var semanticTokenModifiers = []string{"resolved", "dangling"}

// semanticTokensOptions is the LSP SemanticTokensOptions with the legend
// and full, which go.lsp.dev/protocol v0.12.0 lacks.
type semanticTokensOptions struct {
	Legend struct {
		TokenTypes     []string `json:"tokenTypes"`
		TokenModifiers []string `json:"tokenModifiers"`
	} `json:"legend"`
	Full  bool `json:"full"`
	Range bool `json:"range"`
}

func newSemanticTokensOptions() *semanticTokensOptions {
	o := &semanticTokensOptions{Full: true}
	o.Legend.TokenTypes = semanticTokenTypes
	o.Legend.TokenModifiers = semanticTokenModifiers
	return o
}

// semanticTokens answers textDocument/semanticTokens/full: the file's
// citations, relative-encoded, each on one line.
func semanticTokens(_ context.Context, _ *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	out := &protocol.SemanticTokens{Data: []uint32{}}
	f, err := docFile(snap, raw)
	if f == nil {
		return out, err
	}
	var line, char uint32
	for _, t := range ide.SemanticTokens(snap, f.Path) {
		r := f.Lines.Range(t.Span)
		if r.Start.Line != r.End.Line || r.End.Character <= r.Start.Character {
			continue
		}
		l, c := uint32(r.Start.Line), uint32(r.Start.Character)
		dl, dc := l-line, c
		if dl == 0 {
			dc = c - char
		}
		mod := uint32(1)
		if t.Dangling {
			mod = 2
		}
		out.Data = append(out.Data, dl, dc, uint32(r.End.Character-r.Start.Character), uint32(t.Type), mod)
		line, char = l, c
	}
	return out, nil
}
