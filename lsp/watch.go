package lsp

// fileEvent is one change reported by workspace/didChangeWatchedFiles.
type fileEvent struct {
	path string
	// listing is set for a creation or deletion, which changes the listing
	// of the file's folder, and clear for a change of content.
	listing bool
}

// watchedFilesChanged passes to the workspace the events its current
// snapshot depends on and drops the rest, so that a build writing files
// nothing cites costs no rebuild. It runs on the queue goroutine.
func (s *Server) watchedFilesChanged(events []fileEvent) {
	snap := s.ws.Snapshot()
	var paths []string
	for _, e := range events {
		if snap.DependsOn(e.path, e.listing) {
			paths = append(paths, e.path)
		}
	}
	if dropped := len(events) - len(paths); dropped > 0 {
		s.logf("ignoring %d file events that no finding depends on", dropped)
	}
	if len(paths) == 0 {
		return
	}
	s.ws.FilesChanged(paths)
	s.scheduleDiagnostics()
}
