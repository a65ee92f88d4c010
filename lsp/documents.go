package lsp

import (
	"encoding/json"
	"fmt"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
)

// document is an open editor buffer.
type document struct {
	version int32
	text    []byte
	// outOfSync is set when a message about the document was refused
	// (see refusedMessage): its later edits are ignored until it is opened
	// again.
	outOfSync bool
}

// textDocumentItem is the document of didOpen.
type textDocumentItem struct {
	URI     string `json:"uri"`
	Version int32  `json:"version"`
	Text    string `json:"text"`
}

// versionedDocument names a document and its version.
type versionedDocument struct {
	URI     string `json:"uri"`
	Version int32  `json:"version"`
}

// contentChange is one change of didChange; a nil Range replaces the whole
// text.
type contentChange struct {
	Range *wireRange
	Text  []byte // never nil
}

// didOpen records a new buffer and puts it in the workspace.
func (s *Server) didOpen(raw json.RawMessage) error {
	var p struct {
		TextDocument textDocumentItem `json:"textDocument"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return fmt.Errorf("invalid params: %w", err)
	}
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return nil // not a file: nothing to analyse
	}
	text := []byte(p.TextDocument.Text)
	s.mu.Lock()
	s.docs[path] = &document{version: p.TextDocument.Version, text: text}
	s.mu.Unlock()
	s.openedOutside(path)
	s.setOverlay(path, text, p.TextDocument.Version)
	return nil
}

// didChange applies the changes of one version to an open buffer. A change
// older than the version held is ignored.
func (s *Server) didChange(raw json.RawMessage) error {
	td, changes, err := decodeDidChange(raw)
	if err != nil {
		return fmt.Errorf("invalid params: %w", err)
	}
	path, ok := pathOf(td.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	doc := s.docs[path]
	if doc == nil {
		s.mu.Unlock()
		return fmt.Errorf("ignoring a change to %s, which is not open", path)
	}
	if doc.outOfSync {
		s.mu.Unlock()
		return fmt.Errorf("ignoring a change to %s: a message about it was too large to read, so its text is out of sync until it is opened again", path)
	}
	if td.Version < doc.version {
		held := doc.version
		s.mu.Unlock()
		return fmt.Errorf("ignoring stale change to %s: version %d is older than version %d", path, td.Version, held)
	}
	text := applyChanges(path, doc.text, changes)
	doc.text = text
	doc.version = td.Version
	s.mu.Unlock()
	s.setOverlay(path, text, td.Version)
	return nil
}

// applyChanges applies content changes to the text of the document at path
// in order and returns the new text. Ranges are in LSP positions (UTF-16
// columns, counted as analysis.NewLines counts them); positions past the
// text are clamped to it.
func applyChanges(path string, text []byte, changes []contentChange) []byte {
	for _, c := range changes {
		if c.Range == nil {
			text = c.Text
			continue
		}
		lines := analysis.NewLines(path, text)
		start := offsetOf(lines, c.Range.Start)
		end := offsetOf(lines, c.Range.End)
		if end < start {
			start, end = end, start
		}
		next := make([]byte, 0, len(text)-(end-start)+len(c.Text))
		next = append(next, text[:start]...)
		next = append(next, c.Text...)
		next = append(next, text[end:]...)
		text = next
	}
	return text
}

// didClose drops a buffer, so the file on disk counts again.
func (s *Server) didClose(raw json.RawMessage) error {
	var p struct {
		TextDocument versionedDocument `json:"textDocument"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return fmt.Errorf("invalid params: %w", err)
	}
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	delete(s.docs, path)
	s.mu.Unlock()
	s.setOverlay(path, nil, 0)
	s.closedOutside(path)
	return nil
}

// didSave tells the workspace the file on disk changed; the buffer still
// wins while the document is open.
func (s *Server) didSave(raw json.RawMessage) error {
	var p struct {
		TextDocument versionedDocument `json:"textDocument"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return fmt.Errorf("invalid params: %w", err)
	}
	if path, ok := pathOf(p.TextDocument.URI); ok {
		s.filesChanged([]string{path})
	}
	return nil
}

// didChangeWatchedFiles tells the workspace which files changed on disk,
// keeping only the events its diagnostics depend on.
func (s *Server) didChangeWatchedFiles(raw json.RawMessage) error {
	var p struct {
		Changes []struct {
			URI  string `json:"uri"`
			Type int    `json:"type"`
		} `json:"changes"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return fmt.Errorf("invalid params: %w", err)
	}
	var events []fileEvent
	for _, c := range p.Changes {
		if path, ok := pathOf(c.URI); ok {
			events = append(events, fileEvent{path: path, listing: c.Type != int(protocol.FileChangeTypeChanged)})
		}
	}
	if len(events) > 0 {
		s.q.push(func() { s.watchedFilesChanged(events) })
	}
	return nil
}

// didChangeWorkspaceFolders adds and removes root folders.
func (s *Server) didChangeWorkspaceFolders(raw json.RawMessage) error {
	var p struct {
		Event struct {
			Added   []folder `json:"added"`
			Removed []folder `json:"removed"`
		} `json:"event"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return fmt.Errorf("invalid params: %w", err)
	}
	s.mu.Lock()
	roots := slices.Clone(s.roots)
	for _, f := range p.Event.Removed {
		if path, ok := pathOf(f.URI); ok {
			roots = slices.DeleteFunc(roots, func(r string) bool { return r == path })
		}
	}
	for _, f := range p.Event.Added {
		if path, ok := pathOf(f.URI); ok && !slices.Contains(roots, path) {
			roots = append(roots, path)
		}
	}
	s.roots = roots
	s.syncRootsLocked()
	s.mu.Unlock()
	s.scheduleDiagnostics()
	return nil
}

// didChangeConfiguration reads the gddls settings.
func (s *Server) didChangeConfiguration(raw json.RawMessage) error {
	var p struct {
		Settings json.RawMessage `json:"settings"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return fmt.Errorf("invalid params: %w", err)
	}
	return s.applySettings(p.Settings)
}

// setOverlay queues a buffer change for the workspace; nil text removes
// the overlay.
func (s *Server) setOverlay(path string, text []byte, version int32) {
	s.q.push(func() {
		s.ws.SetOverlay(path, text)
		if text == nil {
			delete(s.pub.versions, path)
			delete(s.pub.sent, path)
		} else {
			s.pub.versions[path] = version
		}
	})
	s.scheduleDiagnostics()
}

// filesChanged queues a disk change for the workspace.
func (s *Server) filesChanged(paths []string) {
	s.q.push(func() { s.ws.FilesChanged(paths) })
	s.scheduleDiagnostics()
}
