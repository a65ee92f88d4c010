package lsp

import (
	"context"
	"encoding/json"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/ide"
)

func foldingRange(_ context.Context, s *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	out := []protocol.FoldingRange{}
	f, err := docFile(snap, raw)
	if f == nil {
		return out, err
	}
	ranges := ide.FoldingRanges(snap, f.Path)
	s.mu.Lock()
	limit := s.feat.caps.foldingLimit
	s.mu.Unlock()
	if limit > 0 && len(ranges) > limit {
		// The first ones in the file, the client's hint of how many it
		// can use.
		slices.SortStableFunc(ranges, func(a, b ide.FoldRange) int { return a.Start - b.Start })
		ranges = ranges[:limit]
	}
	for _, r := range ranges {
		out = append(out, protocol.FoldingRange{
			StartLine: uint32(f.Lines.Position(r.Start).Line),
			EndLine:   uint32(f.Lines.Position(r.End).Line),
			Kind:      protocol.RegionFoldingRange,
		})
	}
	return out, nil
}

func selectionRange(_ context.Context, _ *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p struct {
		docParams
		Positions []wirePosition `json:"positions"`
	}
	out := []protocol.SelectionRange{}
	if err := decode(raw, &p); err != nil {
		return out, err
	}
	f := fileOf(snap, p.TextDocument.URI)
	if f == nil {
		return out, nil
	}
	offsets := make([]int, len(p.Positions))
	for i, pos := range p.Positions {
		offsets[i] = offsetOf(f.Lines, pos)
	}
	for i, spans := range ide.SelectionRanges(snap, f.Path, offsets) {
		// The spec wants one answer per position: an empty range at the
		// position when there is nothing around it.
		at := toPosition(f.Lines.Position(offsets[i]))
		sel := &protocol.SelectionRange{Range: protocol.Range{Start: at, End: at}}
		var parent *protocol.SelectionRange
		for j := len(spans) - 1; j >= 0; j-- {
			parent = &protocol.SelectionRange{Range: spanRange(f.Lines, spans[j]), Parent: parent}
		}
		if parent != nil {
			sel = parent
		}
		out = append(out, *sel)
	}
	return out, nil
}

func documentHighlight(_ context.Context, _ *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p posParams
	out := []protocol.DocumentHighlight{}
	f, offset, err := posFile(snap, raw, &p, &p)
	if f == nil {
		return out, err
	}
	for _, h := range ide.DocumentHighlights(snap, f.Path, offset) {
		kind := protocol.DocumentHighlightKindRead
		if h.Write {
			kind = protocol.DocumentHighlightKindWrite
		}
		out = append(out, protocol.DocumentHighlight{Range: spanRange(f.Lines, h.Span), Kind: kind})
	}
	return out, nil
}
