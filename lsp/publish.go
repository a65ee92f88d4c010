package lsp

import (
	"log"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
)

// queue applies workspace changes one at a time, in the order they were
// received, on its own goroutine, so that the reading goroutine never waits
// for a snapshot to be built. A request takes its snapshot through the
// queue too, so it sees exactly the edits received before it.
type queue struct {
	logger *log.Logger

	mu     sync.Mutex
	ops    []func()
	wake   chan struct{} // has a token when ops is not empty
	closed bool
}

func newQueue(logger *log.Logger) *queue {
	return &queue{logger: logger, wake: make(chan struct{}, 1)}
}

// push appends an operation; it reports false when the queue is closed and
// the operation will never run.
func (q *queue) push(op func()) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	q.ops = append(q.ops, op)
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return true
}

// run applies operations until close.
func (q *queue) run() {
	for range q.wake {
		for {
			q.mu.Lock()
			if q.closed || len(q.ops) == 0 {
				q.mu.Unlock()
				break
			}
			op := q.ops[0]
			q.ops[0] = nil
			q.ops = q.ops[1:]
			q.mu.Unlock()
			q.apply(op)
		}
	}
}

// apply runs one operation, turning a panic into a log line.
func (q *queue) apply(op func()) {
	defer func() {
		if r := recover(); r != nil {
			q.logger.Printf("panic applying a workspace change: %v\n%s", r, debug.Stack())
		}
	}()
	op()
}

// close stops the queue; operations not yet applied are dropped.
func (q *queue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	q.closed = true
	close(q.wake)
}

// publisher remembers what was last published; only the queue goroutine
// touches it.
type publisher struct {
	// versions are the document versions of the overlays in the workspace.
	versions map[string]int32
	// published maps each file with published diagnostics to them.
	published map[string][]analysis.Diagnostic
	// sent maps each open document to the version its last publication
	// carried.
	sent map[string]int32
}

func newPublisher() publisher {
	return publisher{versions: map[string]int32{}, published: map[string][]analysis.Diagnostic{}, sent: map[string]int32{}}
}

// scheduleDiagnostics (re)starts the debounce timer; when it fires, the
// diagnostics are published after every change received so far.
func (s *Server) scheduleDiagnostics() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
	}
	s.timer = time.AfterFunc(s.delay, func() { s.q.push(s.publish) })
}

// publish computes the diagnostics of the current snapshot and publishes
// those of every file whose diagnostics changed since the last publication,
// including an empty list for a file that no longer has any, and those of
// every open document whose version was not published yet, even when they
// are unchanged or empty, so that the client knows they are current. It
// runs on the queue goroutine.
func (s *Server) publish() {
	snap := s.ws.Snapshot()
	due := map[string][]analysis.Diagnostic{}
	seen := map[string]bool{}
	show := s.shown()
	for _, path := range diagnosedFiles(snap, show) {
		seen[path] = true
		ds := fileDiagnostics(snap, path, show)
		if prev, ok := s.pub.published[path]; ok && analysis.SameDiagnostics(prev, ds) && !s.pub.versionDue(path) {
			continue
		}
		s.pub.published[path] = ds
		due[path] = ds
	}
	for path := range s.pub.published {
		if !seen[path] {
			delete(s.pub.published, path)
			due[path] = nil
		}
	}
	for path := range s.pub.versions {
		if _, ok := due[path]; !ok && !seen[path] && s.pub.versionDue(path) {
			due[path] = nil
		}
	}
	out := make([]protocol.PublishDiagnosticsParams, 0, len(due))
	for path, ds := range due {
		if v, open := s.pub.versions[path]; open {
			s.pub.sent[path] = v
		}
		out = append(out, s.diagnosticsParams(path, toDiagnostics(ds)))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	if s.afterPublish(snap, out) {
		return
	}
	for i := range out {
		s.notify("textDocument/publishDiagnostics", &out[i])
	}
}

// versionDue reports whether path is an open document whose current version
// has not been published.
func (p *publisher) versionDue(path string) bool {
	v, open := p.versions[path]
	sent, ok := p.sent[path]
	return open && (!ok || sent != v)
}

// diagnosticsParams builds one publication, with the document version when
// the file is open.
func (s *Server) diagnosticsParams(path string, diags []protocol.Diagnostic) protocol.PublishDiagnosticsParams {
	p := protocol.PublishDiagnosticsParams{URI: uriOf(path), Diagnostics: diags}
	if v, ok := s.pub.versions[path]; ok && v > 0 {
		p.Version = uint32(v)
	}
	return p
}

// shown says what the server shows besides the findings: the safety
// notices (setting gddls.safety, default on) and the review-mode hints
// (setting gddls.review, default off).
type shown struct{ safety, review bool }

// fileDiagnostics returns what the server shows for a file: its findings,
// then its review-mode hints when review mode is on, then its safety
// notices when the safety scan is on.
func fileDiagnostics(snap *analysis.Snapshot, path string, show shown) []analysis.Diagnostic {
	ds := snap.Diagnostics(path)
	var hints, notices []analysis.Diagnostic
	if show.review {
		hints = snap.HintsOf(path)
	}
	if show.safety {
		notices = snap.SafetyOf(path)
	}
	if len(hints) == 0 && len(notices) == 0 {
		return ds
	}
	out := make([]analysis.Diagnostic, 0, len(ds)+len(hints)+len(notices))
	return append(append(append(out, ds...), hints...), notices...)
}

// diagnosedFiles returns the files with something to show, in path order.
func diagnosedFiles(snap *analysis.Snapshot, show shown) []string {
	files := snap.DiagnosedFiles()
	if !show.safety && !show.review {
		return files
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[f] = true
	}
	var extra []analysis.Diagnostic
	if show.review {
		extra = append(extra, snap.Hints()...)
	}
	if show.safety {
		extra = append(extra, snap.Safety()...)
	}
	for _, d := range extra {
		if !seen[d.File] {
			seen[d.File] = true
			files = append(files, d.File)
		}
	}
	sort.Strings(files)
	return files
}
