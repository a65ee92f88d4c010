package lsp

import (
	"slices"

	"github.com/gddls/gddls/analysis"
)

// Single-file mode: a document opened outside every workspace folder, or
// with no folders at all, is analysed with its package, or its folder when
// it is in none, for as long as it is open.

// openedOutside records an opened document; when it lies outside the
// workspace folders, its single-file root joins the workspace.
func (s *Server) openedOutside(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if root := analysis.SingleFileRoot(s.roots, path); root != "" {
		s.loose[path] = root
	} else {
		delete(s.loose, path)
	}
	s.syncRootsLocked()
}

// closedOutside forgets a closed document's single-file root.
func (s *Server) closedOutside(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.loose, path)
	s.syncRootsLocked()
}

// syncRootsLocked gives the workspace the folders and the single-file roots
// of the open documents still outside them, when they changed. s.mu is
// held.
func (s *Server) syncRootsLocked() {
	roots := slices.Clone(s.roots)
	for path := range s.loose {
		root := analysis.SingleFileRoot(s.roots, path)
		if root == "" {
			delete(s.loose, path) // a folder added since holds it
			continue
		}
		s.loose[path] = root
		roots = append(roots, root)
	}
	slices.Sort(roots)
	roots = slices.Compact(roots)
	if slices.Equal(roots, s.applied) {
		return
	}
	s.applied = roots
	if len(s.loose) > 0 {
		s.logf("analysing %v, with single-file roots for open documents outside the workspace folders", roots)
	}
	s.q.push(func() { s.ws.SetRoots(roots) })
}
