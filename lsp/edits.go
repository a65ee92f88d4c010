package lsp

import (
	"bytes"
	"sort"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/ide"
)

// codeContentModified is the LSP error of a request whose answer no longer
// fits the document because it changed while the request ran.
const codeContentModified jsonrpc2.Code = -32801

// workspaceEdit converts edits by absolute path to a WorkspaceEdit. A
// client that declares workspace.workspaceEdit.documentChanges gets one
// TextDocumentEdit per file, with the version of the open document the
// edits were computed on (null for a closed file), so that it refuses them
// if the document has moved on; any other client gets changes keyed by
// URI. Edits of files outside the snapshot are dropped. When an open
// document no longer holds the text the snapshot saw, the answer is a
// ContentModified error rather than edits at stale positions.
func workspaceEdit(s *Server, snap *analysis.Snapshot, edits map[string][]ide.TextEdit) (*protocol.WorkspaceEdit, error) {
	s.mu.Lock()
	versioned := s.caps.documentChanges
	s.mu.Unlock()
	out := &protocol.WorkspaceEdit{}
	if !versioned {
		out.Changes = map[protocol.DocumentURI][]protocol.TextEdit{}
	}
	paths := make([]string, 0, len(edits))
	for path := range edits {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		f := snap.File(path)
		if f == nil || f.Lines == nil {
			continue
		}
		tes := make([]protocol.TextEdit, 0, len(edits[path]))
		for _, e := range edits[path] {
			tes = append(tes, protocol.TextEdit{Range: spanRange(f.Lines, e.Span), NewText: e.NewText})
		}
		if !versioned {
			out.Changes[uriOf(path)] = tes
			continue
		}
		version, err := s.versionOf(path, f.Content)
		if err != nil {
			return nil, err
		}
		out.DocumentChanges = append(out.DocumentChanges, protocol.TextDocumentEdit{
			TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
				TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uriOf(path)},
				Version:                version,
			},
			Edits: tes,
		})
	}
	if versioned && out.DocumentChanges == nil {
		out.DocumentChanges = []protocol.TextDocumentEdit{}
	}
	return out, nil
}

// versionOf returns the version of the open document at path, which must
// hold content, or nil when the document is not open.
func (s *Server) versionOf(path string, content []byte) (*int32, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	doc := s.docs[path]
	if doc == nil {
		return nil, nil
	}
	if !bytes.Equal(doc.text, content) {
		return nil, jsonrpc2.Errorf(codeContentModified, "%s changed while the request ran; ask again", path)
	}
	v := doc.version
	return &v, nil
}
