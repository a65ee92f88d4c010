package lsp

import (
	"os"
	"time"
)

// parentPoll is how often the server checks that the process that started
// it is still running.
const parentPoll = 2 * time.Second

// watchParent ends the session when the process pid, the client's
// processId from initialize, has exited, so that a server whose editor
// crashed does not live on. It returns when the session ends.
func (s *Server) watchParent(pid int) {
	if pid <= 0 || pid == os.Getpid() {
		return
	}
	// A child's parent id changes when its parent exits, even while the
	// dead parent is a zombie that signal 0 still finds.
	isParent := pid == os.Getppid()
	tick := time.NewTicker(parentPoll)
	defer tick.Stop()
	for {
		select {
		case <-s.conn.Done():
			return
		case <-tick.C:
		}
		if processAlive(pid) && (!isParent || os.Getppid() == pid) {
			continue
		}
		s.logf("the client process %d has exited; ending the session", pid)
		select {
		case s.exit <- 1:
		default:
		}
		return
	}
}
