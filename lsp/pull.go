package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"

	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
)

// Pull diagnostics (LSP 3.17): a client that declares
// textDocument.diagnostic and workspace.diagnostics.refreshSupport asks for
// diagnostics instead of being sent them.
// The answer is the very list the server would publish; its result id is a
// hash of that list, so a file whose diagnostics did not change answers
// "unchanged" without the server keeping any state per client.

// diagnosticOptions is the LSP 3.17 DiagnosticOptions.
type diagnosticOptions struct {
	Identifier            string `json:"identifier,omitempty"`
	InterFileDependencies bool   `json:"interFileDependencies"`
	WorkspaceDiagnostics  bool   `json:"workspaceDiagnostics"`
}

// documentReport is a full or unchanged document diagnostic report of
// LSP 3.17; URI is set in a workspace report.
type documentReport struct {
	Kind     string // "full" or "unchanged"
	ResultID string
	Items    []protocol.Diagnostic
	URI      protocol.DocumentURI
}

// MarshalJSON writes items for a full report even when it is empty, and
// in a workspace report the uri and a null version (a pulled report is not
// tied to a document version).
func (r documentReport) MarshalJSON() ([]byte, error) {
	m := map[string]any{"kind": r.Kind, "resultId": r.ResultID}
	if r.Kind == "full" {
		items := r.Items
		if items == nil {
			items = []protocol.Diagnostic{}
		}
		m["items"] = items
	}
	if r.URI != "" {
		m["uri"] = r.URI
		m["version"] = nil
	}
	return json.Marshal(m)
}

// pulledDiagnostics returns the diagnostics of a file as they are
// published, and their result id.
func pulledDiagnostics(snap *analysis.Snapshot, path string, show shown) ([]protocol.Diagnostic, string) {
	out := toDiagnostics(fileDiagnostics(snap, path, show))
	data, err := json.Marshal(out)
	if err != nil {
		return out, ""
	}
	h := fnv.New64a()
	h.Write(data)
	return out, fmt.Sprintf("%016x", h.Sum64())
}

// report returns the report of a file given the result id the client holds.
func report(snap *analysis.Snapshot, path, previous string, show shown) documentReport {
	diags, id := pulledDiagnostics(snap, path, show)
	if previous != "" && previous == id {
		return documentReport{Kind: "unchanged", ResultID: id}
	}
	return documentReport{Kind: "full", ResultID: id, Items: diags}
}

func documentDiagnostic(_ context.Context, s *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p struct {
		docParams
		PreviousResultID string `json:"previousResultId"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return documentReport{Kind: "full"}, nil
	}
	return report(snap, path, p.PreviousResultID, s.shown()), nil
}

func workspaceDiagnostic(ctx context.Context, s *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p struct {
		PreviousResultIDs []struct {
			URI   string `json:"uri"`
			Value string `json:"value"`
		} `json:"previousResultIds"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	previous := map[string]string{}
	for _, r := range p.PreviousResultIDs {
		if path, ok := pathOf(r.URI); ok {
			previous[path] = r.Value
		}
	}
	items := []documentReport{}
	show := s.shown()
	add := func(path string) {
		r := report(snap, path, previous[path], show)
		r.URI = uriOf(path)
		items = append(items, r)
	}
	for _, path := range diagnosedFiles(snap, show) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		add(path)
		delete(previous, path)
	}
	for path := range previous {
		add(path) // a file that had diagnostics: now it has none
	}
	return map[string]any{"items": items}, nil
}

// afterPublish runs on the queue goroutine after each computation of the
// diagnostics of snap; changed are the files whose diagnostics changed. It
// reports whether the client pulls diagnostics, so that nothing is pushed:
// then, after a change whose diagnostics reach beyond one open file, it
// sends workspace/diagnostic/refresh. When the snapshot is new it asks a
// client that supports it to fetch inlay hints and semantic tokens again,
// since a change in one file moves the hints and marks of others (a tuning
// value, a renamed heading).
func (s *Server) afterPublish(snap *analysis.Snapshot, changed []protocol.PublishDiagnosticsParams) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	fc := s.feat.caps
	if s.state != stateInitialized {
		return fc.pull
	}
	if s.feat.refreshed != snap {
		if s.feat.refreshed != nil {
			if fc.inlayRefresh {
				go s.refresh("workspace/inlayHint/refresh")
			}
			if fc.semanticRefresh {
				go s.refresh("workspace/semanticTokens/refresh")
			}
		}
		s.feat.refreshed = snap
	}
	if !fc.pull {
		return false
	}
	cross := len(changed) > 1
	for _, p := range changed {
		if path, ok := pathOf(string(p.URI)); ok && s.docs[path] == nil {
			cross = true
		}
	}
	if cross {
		go s.refresh("workspace/diagnostic/refresh")
	}
	return true
}
