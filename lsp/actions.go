package lsp

import (
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/ide"
)

// createFileOp is the LSP CreateFile resource operation.
type createFileOp struct {
	Kind    string               `json:"kind"` // "create"
	URI     protocol.DocumentURI `json:"uri"`
	Options struct {
		IgnoreIfExists bool `json:"ignoreIfExists"`
	} `json:"options"`
}

// renameFileOp is the LSP RenameFile resource operation.
type renameFileOp struct {
	Kind   string               `json:"kind"` // "rename"
	OldURI protocol.DocumentURI `json:"oldUri"`
	NewURI protocol.DocumentURI `json:"newUri"`
}

// docEdit is a TextDocumentEdit whose document version is null: the edit
// applies to whatever the client holds.
type docEdit struct {
	TextDocument struct {
		URI     protocol.DocumentURI `json:"uri"`
		Version *int32               `json:"version"`
	} `json:"textDocument"`
	Edits []protocol.TextEdit `json:"edits"`
}

// resourceEdit is a WorkspaceEdit with documentChanges, for actions that
// create files.
type resourceEdit struct {
	DocumentChanges []any `json:"documentChanges"`
}

// actionEdit converts the edit of a code action. An action that creates
// files needs documentChanges with create operations; ok is false when the
// client does not accept them, and the action is not offered.
func (s *Server) actionEdit(snap *analysis.Snapshot, a ide.CodeAction) (edit any, ok bool, err error) {
	if len(a.Creates) == 0 {
		we, err := workspaceEdit(s, snap, a.Edits)
		return we, err == nil, err
	}
	s.mu.Lock()
	canCreate := s.feat.caps.createFiles
	s.mu.Unlock()
	if !canCreate {
		return nil, false, nil
	}
	var out resourceEdit
	for _, c := range a.Creates {
		op := createFileOp{Kind: "create", URI: uriOf(c.Path)}
		op.Options.IgnoreIfExists = true
		out.DocumentChanges = append(out.DocumentChanges, op)
		if c.Content != "" {
			var de docEdit
			de.TextDocument.URI = uriOf(c.Path)
			de.Edits = []protocol.TextEdit{{NewText: c.Content}}
			out.DocumentChanges = append(out.DocumentChanges, de)
		}
	}
	we, err := workspaceEdit(s, snap, a.Edits)
	if err != nil {
		return nil, false, err
	}
	for _, de := range we.DocumentChanges {
		out.DocumentChanges = append(out.DocumentChanges, de)
	}
	for uri, es := range we.Changes {
		var de docEdit
		de.TextDocument.URI = uri
		de.Edits = es
		out.DocumentChanges = append(out.DocumentChanges, de)
	}
	return out, true, nil
}

// movingEdit converts the edit of a rename that moves files (a record id
// is its file's name): the text edits first, on the files as they are
// named now, then the rename operations. A client that does not apply
// rename operations gets an error saying what to do instead.
func (s *Server) movingEdit(snap *analysis.Snapshot, edits map[string][]ide.TextEdit, moves []ide.FileRename) (any, error) {
	s.mu.Lock()
	canRename := s.feat.caps.renameFiles
	s.mu.Unlock()
	if !canRename {
		return nil, jsonrpc2.NewError(codeRequestFailed, "this rename moves "+moves[0].Old+", and the editor does not accept file renames in an edit; rename the file in the editor instead, which updates every citation and link")
	}
	we, err := workspaceEdit(s, snap, edits)
	if err != nil {
		return nil, err
	}
	var out resourceEdit
	for _, de := range we.DocumentChanges {
		out.DocumentChanges = append(out.DocumentChanges, de)
	}
	for _, m := range moves {
		out.DocumentChanges = append(out.DocumentChanges, renameFileOp{Kind: "rename", OldURI: uriOf(m.Old), NewURI: uriOf(m.New)})
	}
	return out, nil
}
