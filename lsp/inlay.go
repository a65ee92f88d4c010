package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/ide"
)

// inlayHint is the LSP 3.17 InlayHint, which go.lsp.dev/protocol v0.12.0
// lacks.
type inlayHint struct {
	Position    protocol.Position `json:"position"`
	Label       string            `json:"label"`
	Tooltip     string            `json:"tooltip,omitempty"`
	PaddingLeft bool              `json:"paddingLeft,omitempty"`
}

// inlaySettings says which kinds of inlay hints the client wants; every
// kind is on unless the settings turn it off.
type inlaySettings struct {
	TuningValues   *bool `json:"tuningValues"`
	Headings       *bool `json:"headings"`
	NotAsked       *bool `json:"notAsked"`
	ContractValues *bool `json:"contractValues"`
}

// wants reports whether hints of kind k are shown.
func (st inlaySettings) wants(k ide.InlayKind) bool {
	var b *bool
	switch k {
	case ide.InlayTuningValue:
		b = st.TuningValues
	case ide.InlayHeading:
		b = st.Headings
	case ide.InlayNotAsked:
		b = st.NotAsked
	case ide.InlayContractValue:
		b = st.ContractValues
	}
	return b == nil || *b
}

// merge returns st with every kind that o sets replaced.
func (st inlaySettings) merge(o inlaySettings) inlaySettings {
	for _, p := range []struct{ dst, src **bool }{
		{&st.TuningValues, &o.TuningValues}, {&st.Headings, &o.Headings},
		{&st.NotAsked, &o.NotAsked}, {&st.ContractValues, &o.ContractValues},
	} {
		if *p.src != nil {
			*p.dst = *p.src
		}
	}
	return st
}

func inlayHints(_ context.Context, s *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p struct {
		docParams
		Range wireRange `json:"range"`
	}
	out := []inlayHint{}
	if err := decode(raw, &p); err != nil {
		return out, err
	}
	f := fileOf(snap, p.TextDocument.URI)
	if f == nil {
		return out, nil
	}
	s.mu.Lock()
	st := s.feat.inlay
	s.mu.Unlock()
	for _, h := range ide.InlayHints(snap, f.Path, spanOf(f.Lines, p.Range)) {
		if !st.wants(h.Kind) {
			continue
		}
		out = append(out, inlayHint{
			Position:    toPosition(f.Lines.Position(h.Offset)),
			Label:       h.Label,
			Tooltip:     h.Tooltip,
			PaddingLeft: true,
		})
	}
	return out, nil
}
