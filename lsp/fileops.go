package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/ide"
)

// fileOperationFilters are the files and folders whose renames the server
// wants to hear about: every file, since besides Markdown and JSON files
// links name images and inline-code paths name source files, and every
// folder.
func fileOperationFilters() *protocol.FileOperationRegistrationOptions {
	return &protocol.FileOperationRegistrationOptions{Filters: []protocol.FileOperationFilter{
		{Scheme: "file", Pattern: protocol.FileOperationPattern{Glob: "**/*", Matches: protocol.FileOperationPatternKindFile}},
		{Scheme: "file", Pattern: protocol.FileOperationPattern{Glob: "**/*", Matches: protocol.FileOperationPatternKindFolder}},
	}}
}

// renamesOf converts the files of a rename request or notification; URIs
// that are not file paths are dropped.
func renamesOf(raw json.RawMessage) ([]ide.FileRename, error) {
	var p protocol.RenameFilesParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	var out []ide.FileRename
	for _, f := range p.Files {
		oldPath, ok1 := pathOf(f.OldURI)
		newPath, ok2 := pathOf(f.NewURI)
		if ok1 && ok2 {
			out = append(out, ide.FileRename{Old: oldPath, New: newPath})
		}
	}
	return out, nil
}

// willRenameFiles answers workspace/willRenameFiles with the edit that
// keeps every link, citation, cited path and contract address valid after
// the renames; the client applies it before it renames the files.
func willRenameFiles(_ context.Context, s *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	renames, err := renamesOf(raw)
	if err != nil {
		return nil, err
	}
	edits, err := ide.RenameFiles(snap, renames)
	if err != nil {
		return nil, fmt.Errorf("cannot keep the references valid: %w", err)
	}
	if len(edits) == 0 {
		return nil, nil
	}
	return workspaceEdit(s, snap, edits)
}

// didRenameFiles tells the workspace that files moved on disk, so that it
// walks the roots again and reads the moved files from their new place.
func (s *Server) didRenameFiles(raw json.RawMessage) error {
	renames, err := renamesOf(raw)
	if err != nil {
		return err
	}
	var paths []string
	for _, r := range renames {
		paths = append(paths, r.Old, r.New)
	}
	if len(paths) > 0 {
		s.filesChanged(paths)
	}
	return nil
}
