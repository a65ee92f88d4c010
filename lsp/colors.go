package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/ide"
)

// documentColor answers the color swatches of a document
// (ide.DocumentColors: the palette colors of direction.json).
func documentColor(_ context.Context, _ *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	out := []protocol.ColorInformation{}
	f, err := docFile(snap, raw)
	if f == nil {
		return out, err
	}
	for _, c := range ide.DocumentColors(snap, f.Path) {
		out = append(out, protocol.ColorInformation{
			Range: spanRange(f.Lines, c.Span),
			Color: protocol.Color{Red: c.Red, Green: c.Green, Blue: c.Blue, Alpha: 1},
		})
	}
	return out, nil
}

// colorPresentationParams is the part of the request the server reads.
type colorPresentationParams struct {
	docParams
	Color struct {
		Red   float64 `json:"red"`
		Green float64 `json:"green"`
		Blue  float64 `json:"blue"`
	} `json:"color"`
	Range wireRange `json:"range"`
}

// colorPresentation answers how a color picked at a swatch is written
// (ide.ColorPresentations).
func colorPresentation(_ context.Context, _ *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	out := []protocol.ColorPresentation{}
	var p colorPresentationParams
	if err := decode(raw, &p); err != nil {
		return out, err
	}
	f := fileOf(snap, p.TextDocument.URI)
	if f == nil {
		return out, nil
	}
	span := spanOf(f.Lines, p.Range)
	for _, c := range ide.ColorPresentations(snap, f.Path, span, p.Color.Red, p.Color.Green, p.Color.Blue) {
		out = append(out, protocol.ColorPresentation{
			Label:    c.Label,
			TextEdit: &protocol.TextEdit{Range: spanRange(f.Lines, c.Edit.Span), NewText: c.Edit.NewText},
		})
	}
	return out, nil
}
