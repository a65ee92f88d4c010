// Package lsp serves the Language Server Protocol for gddls over a byte
// stream. It is protocol glue only: it keeps the editor's unsaved buffers,
// turns LSP positions into byte offsets, asks the analysis layer and turns
// the answers back into protocol messages. It knows nothing about the
// OpenGDD formats.
//
// Messages are framed by go.lsp.dev/jsonrpc2. Notifications are handled in
// the order they arrive, on the reading goroutine; every request runs in its
// own goroutine with a cancellable context, after the edits received before
// it have reached the workspace.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
)

// Options configure a server.
type Options struct {
	// Version is reported in the initialize result.
	Version string
	// TestHooks enables the internal gddls/test.* methods that tests use to
	// provoke a panic or a long request.
	TestHooks bool
	// ParentPID is the client process whose exit ends the session when
	// initialize names no processId; 0 means none.
	ParentPID int
}

// DefaultDiagnosticsDelay is how long the server waits after the last change
// before it publishes diagnostics, unless the client configures another
// delay.
const DefaultDiagnosticsDelay = 50 * time.Millisecond

// RenderTestsCommand is the workspace/executeCommand command that renders
// the generated tests of an adoption; its only argument is the adoption's
// URI.
const RenderTestsCommand = "gddls.renderTests"

// Error codes of the LSP that jsonrpc2 does not define.
const (
	codeRequestCancelled jsonrpc2.Code = -32800
	codeRequestFailed    jsonrpc2.Code = -32803
)

// lifecycle is where the server is between initialize and exit.
type lifecycle int

const (
	stateNew lifecycle = iota
	stateInitialized
	stateShutdown
)

// requestFunc answers one request from a snapshot that holds every edit
// received before the request.
type requestFunc func(ctx context.Context, s *Server, snap *analysis.Snapshot, params json.RawMessage) (any, error)

// Server is one language server session.
type Server struct {
	conn   jsonrpc2.Conn
	logger *log.Logger
	opts   Options
	q      *queue
	exit   chan int

	mu    sync.Mutex
	state lifecycle
	ws    *analysis.Workspace
	roots []string
	caps  clientCaps
	feat  features
	docs  map[string]*document
	delay time.Duration
	// safetyOff is the setting gddls.safety turned off: the safety
	// notices are then not shown.
	safetyOff atomic.Bool
	// reviewOn is the setting gddls.review: the review-mode hints are
	// published as Hint diagnostics (off by default).
	reviewOn atomic.Bool
	timer    *time.Timer
	running  map[jsonrpc2.ID]context.CancelFunc

	pub publisher // owned by the queue's goroutine

	// loose maps each open document outside the workspace folders to the
	// root single-file mode analyses for it; applied are the roots last
	// given to the workspace. Both are guarded by mu.
	loose   map[string]string
	applied []string
}

// Serve runs a server over in and out until the client sends exit or closes
// the stream. It logs to logw and returns the process exit status: 0 after
// shutdown then exit, 1 otherwise.
func Serve(ctx context.Context, in io.Reader, out io.Writer, logw io.Writer, opts Options) int {
	logger := log.New(logw, "gddls: ", log.LstdFlags|log.Lmicroseconds)
	rw := &pipe{r: in, w: out, gone: make(chan struct{})}
	st := newStream(rw, logger)
	conn := jsonrpc2.NewConn(st)
	s := &Server{
		conn:    conn,
		logger:  logger,
		opts:    opts,
		q:       newQueue(logger),
		exit:    make(chan int, 1),
		docs:    map[string]*document{},
		loose:   map[string]string{},
		delay:   DefaultDiagnosticsDelay,
		running: map[jsonrpc2.ID]context.CancelFunc{},
		pub:     newPublisher(),
	}
	st.refused = s.refusedMessage
	go s.q.run()
	defer s.q.close()
	conn.Go(ctx, s.handle)
	select {
	case code := <-s.exit:
		// Closing the connection closes the input, which on Windows waits
		// until the read in progress ends; Wine does not cancel that read,
		// so a server waiting for it would not exit until the client closes
		// its end. The process ends now anyway: close without waiting.
		logger.Printf("exiting with status %d", code)
		go conn.Close()
		return code
	case <-rw.gone:
		// The client no longer reads: on Unix the process gets SIGPIPE, on
		// Windows nothing else would end it while its input stays open.
		logger.Printf("ending the session: the output cannot be written")
		go conn.Close()
		return 1
	case <-conn.Done():
		conn.Close()
		if err := conn.Err(); err != nil && !errors.Is(err, io.EOF) {
			logger.Printf("connection closed: %v", err)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.state == stateShutdown {
			return 0
		}
		return 1
	case <-ctx.Done():
		conn.Close()
		return 1
	}
}

// pipe joins a reader and a writer into the connection jsonrpc2 wants. A
// failed write closes gone.
type pipe struct {
	r    io.Reader
	w    io.Writer
	once sync.Once
	gone chan struct{}
}

func (p *pipe) Read(b []byte) (int, error) { return p.r.Read(b) }

func (p *pipe) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if err != nil {
		p.once.Do(func() { close(p.gone) })
	}
	return n, err
}
func (p *pipe) Close() error {
	if c, ok := p.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// logf writes one line to the log.
func (s *Server) logf(format string, args ...any) { s.logger.Printf(format, args...) }

// handle is called by jsonrpc2 for every incoming message, in order.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	call, isCall := req.(*jsonrpc2.Call)
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic handling %s: %v\n%s", req.Method(), r, debug.Stack())
			if isCall {
				s.reply(reply, call, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", req.Method(), r))
			}
		}
	}()
	if !isCall {
		s.notification(req.Method(), req.Params())
		return nil
	}
	method := call.Method()
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case method == "initialize":
		if state != stateNew {
			s.reply(reply, call, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is already initialized"))
			return nil
		}
		res, err := s.initialize(call.Params())
		s.reply(reply, call, res, err)
	case state == stateNew:
		s.reply(reply, call, nil, jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "%s received before initialize", method))
	case state == stateShutdown:
		s.reply(reply, call, nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s received after shutdown", method))
	case method == "shutdown":
		s.mu.Lock()
		s.state = stateShutdown
		s.mu.Unlock()
		s.reply(reply, call, nil, nil)
	default:
		h := s.lookup(method)
		if h == nil {
			s.reply(reply, call, nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method %q is not supported", method))
			return nil
		}
		s.start(call, reply, h)
	}
	return nil
}

// lookup returns the handler of a request method, or nil.
func (s *Server) lookup(method string) requestFunc {
	if h, ok := requests[method]; ok {
		return h
	}
	if s.opts.TestHooks {
		if h, ok := testRequests[method]; ok {
			return h
		}
	}
	return nil
}

// start runs a request in its own goroutine with a context that
// $/cancelRequest cancels. The request answers from the snapshot taken
// right after the edits received before it, in the order they arrived.
func (s *Server) start(call *jsonrpc2.Call, reply jsonrpc2.Replier, h requestFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	id := call.ID()
	snaps := make(chan *analysis.Snapshot, 1)
	if !s.q.push(func() { snaps <- s.ws.Snapshot() }) {
		snaps <- s.ws.Snapshot() // the queue is closed: the session is ending
	}
	s.mu.Lock()
	s.running[id] = cancel
	s.mu.Unlock()
	go func() {
		var (
			res any
			err error
		)
		defer func() {
			if r := recover(); r != nil {
				s.logf("panic in %s: %v\n%s", call.Method(), r, debug.Stack())
				res, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", call.Method(), r)
			}
			if ctx.Err() != nil && err == nil {
				res, err = nil, jsonrpc2.NewError(codeRequestCancelled, "the request was cancelled")
			}
			s.mu.Lock()
			delete(s.running, id)
			s.mu.Unlock()
			cancel()
			s.reply(reply, call, res, err)
		}()
		var snap *analysis.Snapshot
		select {
		case snap = <-snaps:
		case <-ctx.Done():
			return // cancelled while earlier edits were applied
		}
		if ctx.Err() != nil {
			return
		}
		res, err = h(ctx, s, snap, call.Params())
		if ctx.Err() != nil {
			res, err = nil, jsonrpc2.NewError(codeRequestCancelled, "the request was cancelled")
		}
	}()
}

// reply sends a response on a context that is never cancelled, so that a
// cancelled request still gets its answer written.
func (s *Server) reply(reply jsonrpc2.Replier, call *jsonrpc2.Call, res any, err error) {
	if err != nil {
		var werr *jsonrpc2.Error
		if !errors.As(err, &werr) {
			err = jsonrpc2.NewError(codeRequestFailed, err.Error())
		}
	}
	if rerr := reply(context.Background(), res, err); rerr != nil {
		s.logf("cannot answer %s: %v", call.Method(), rerr)
	}
}

// notification handles one notification, on the reading goroutine.
func (s *Server) notification(method string, params json.RawMessage) {
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case method == "exit":
		code := 1
		if state == stateShutdown {
			code = 0
		}
		select {
		case s.exit <- code:
		default:
		}
		return
	case method == "$/cancelRequest":
		s.cancelRequest(params)
		return
	case strings.HasPrefix(method, "$/"):
		return
	case state == stateNew:
		s.logf("ignoring %s received before initialize", method)
		return
	case state == stateShutdown:
		s.logf("ignoring %s received after shutdown", method)
		return
	}
	var err error
	switch method {
	case "initialized":
		s.initialized()
	case "textDocument/didOpen":
		err = s.didOpen(params)
	case "textDocument/didChange":
		err = s.didChange(params)
	case "textDocument/didClose":
		err = s.didClose(params)
	case "textDocument/didSave":
		err = s.didSave(params)
	case "workspace/didChangeWatchedFiles":
		err = s.didChangeWatchedFiles(params)
	case "workspace/didChangeWorkspaceFolders":
		err = s.didChangeWorkspaceFolders(params)
	case "workspace/didChangeConfiguration":
		err = s.didChangeConfiguration(params)
	case "workspace/didRenameFiles":
		err = s.didRenameFiles(params)
	default:
		s.logf("ignoring unknown notification %s", method)
	}
	if err != nil {
		s.logf("%s: %v", method, err)
	}
}

// cancelRequest cancels the running request named by $/cancelRequest.
func (s *Server) cancelRequest(params json.RawMessage) {
	var p struct {
		ID jsonrpc2.ID `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		s.logf("$/cancelRequest: %v", err)
		return
	}
	s.mu.Lock()
	cancel := s.running[p.ID]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// initializeParams is the part of the initialize request the server reads.
type initializeParams struct {
	RootPath         string          `json:"rootPath"`
	RootURI          string          `json:"rootUri"`
	WorkspaceFolders []folder        `json:"workspaceFolders"`
	InitOptions      json.RawMessage `json:"initializationOptions"`

	Capabilities wireCapabilities `json:"capabilities"`
	ProcessID    *int             `json:"processId"`
	ClientInfo   struct {
		Name string `json:"name"`
	} `json:"clientInfo"`
}

// folder is a workspace folder.
type folder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// settings is the gddls section of initializationOptions and of
// workspace/didChangeConfiguration.
type settings struct {
	Gddls *struct {
		DiagnosticsDelay *float64 `json:"diagnosticsDelay"`
		// Safety turns the safety notices on or off (default on).
		Safety *bool `json:"safety"`
		// Review turns the review-mode hints on or off (default off).
		Review *bool `json:"review"`
	} `json:"gddls"`
}

// applySettings reads the diagnostics delay and the safety and review
// settings from raw settings, if present. A change of the safety or the
// review setting republishes the diagnostics and asks a pulling client to
// refresh them.
func (s *Server) applySettings(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var st settings
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("reading settings: %w", err)
	}
	s.applyFeatureSettings(raw)
	if st.Gddls != nil && st.Gddls.Safety != nil {
		off := !*st.Gddls.Safety
		if s.safetyOff.Swap(off) != off {
			s.shownChanged()
		}
	}
	if st.Gddls != nil && st.Gddls.Review != nil {
		on := *st.Gddls.Review
		if s.reviewOn.Swap(on) != on {
			s.shownChanged()
		}
	}
	if st.Gddls == nil || st.Gddls.DiagnosticsDelay == nil {
		return nil
	}
	ms := max(*st.Gddls.DiagnosticsDelay, 0)
	s.mu.Lock()
	s.delay = time.Duration(ms * float64(time.Millisecond))
	s.mu.Unlock()
	return nil
}

// safetyOn reports whether the safety notices are shown (gddls.safety).
func (s *Server) safetyOn() bool { return !s.safetyOff.Load() }

// shown returns what the server shows besides the findings.
func (s *Server) shown() shown { return shown{safety: s.safetyOn(), review: s.reviewOn.Load()} }

// shownChanged shows or hides the safety notices or the hints after their
// setting changed: the diagnostics are published again, and a client that
// pulls them is asked to pull again.
func (s *Server) shownChanged() {
	s.mu.Lock()
	ready, pull := s.state == stateInitialized, s.feat.caps.pull
	s.mu.Unlock()
	if !ready {
		return
	}
	s.scheduleDiagnostics()
	if pull {
		go s.refresh("workspace/diagnostic/refresh")
	}
}

// initialize answers the initialize request.
func (s *Server) initialize(raw json.RawMessage) (any, error) {
	var p initializeParams
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid initialize params: %v", err)
		}
	}
	var roots []string
	for _, f := range p.WorkspaceFolders {
		if path, ok := pathOf(f.URI); ok {
			roots = append(roots, path)
		}
	}
	if len(roots) == 0 && p.RootURI != "" {
		if path, ok := pathOf(p.RootURI); ok {
			roots = append(roots, path)
		}
	}
	if len(roots) == 0 && p.RootPath != "" {
		roots = append(roots, p.RootPath)
	}
	var initOpts json.RawMessage
	if len(p.InitOptions) > 0 && string(p.InitOptions) != "null" {
		initOpts = p.InitOptions
	}
	if err := s.applySettings(initOpts); err != nil {
		s.logf("initializationOptions: %v", err)
	}
	s.mu.Lock()
	s.roots = roots
	s.applied = slices.Sorted(slices.Values(roots))
	s.ws = analysis.NewWorkspace(roots, analysis.Options{Lenient: true, BuildRecords: true})
	s.caps = newClientCaps(p.Capabilities, p.ClientInfo.Name)
	caps := s.caps
	s.feat.caps = readFeatureCaps(raw)
	s.state = stateInitialized
	feat := s.feat.caps
	s.mu.Unlock()
	s.logf("initialized with roots %v", roots)
	parent := s.opts.ParentPID
	if p.ProcessID != nil {
		parent = *p.ProcessID
	}
	go s.watchParent(parent)
	return extendCapabilities(shapeCapabilities(capabilities(s.opts.Version), caps), feat), nil
}

// capabilities is the initialize result.
func capabilities(version string) *protocol.InitializeResult {
	return &protocol.InitializeResult{
		ServerInfo: &protocol.ServerInfo{Name: "gddls", Version: version},
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{},
			},
			CompletionProvider: &protocol.CompletionOptions{
				TriggerCharacters: []string{`"`, "#", ".", "/", "`", "[", ":"},
			},
			HoverProvider:           true,
			ColorProvider:           true,
			DefinitionProvider:      true,
			ReferencesProvider:      true,
			RenameProvider:          &protocol.RenameOptions{PrepareProvider: true},
			DocumentSymbolProvider:  true,
			WorkspaceSymbolProvider: true,
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, protocol.Source, sourceFixAll, sourceTOC, sourceMigrate},
			},
			CodeLensProvider:       &protocol.CodeLensOptions{},
			DocumentLinkProvider:   &protocol.DocumentLinkOptions{},
			ExecuteCommandProvider: &protocol.ExecuteCommandOptions{Commands: []string{RenderTestsCommand, ExplainCommand}},
			Workspace: &protocol.ServerCapabilitiesWorkspace{
				WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{
					Supported:           true,
					ChangeNotifications: true,
				},
			},
		},
	}
}

// initialized registers file watching, indexes the workspace in the
// background with progress, then publishes the diagnostics of every file.
func (s *Server) initialized() {
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	if caps.dynamicWatch {
		go s.registerWatchers()
	}
	go func() {
		const token = "gddls/index"
		progress := false
		if caps.progress {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, err := s.conn.Call(ctx, "window/workDoneProgress/create",
				&protocol.WorkDoneProgressCreateParams{Token: *protocol.NewProgressToken(token)}, nil)
			cancel()
			if err != nil {
				s.logf("cannot create progress: %v", err)
			} else {
				progress = true
				s.notify("$/progress", &protocol.ProgressParams{
					Token: *protocol.NewProgressToken(token),
					Value: &protocol.WorkDoneProgressBegin{Kind: protocol.WorkDoneProgressKindBegin, Title: "gddls: indexing"},
				})
			}
		}
		start := time.Now()
		done := make(chan struct{})
		if !s.q.push(func() {
			defer close(done)
			snap := s.ws.Snapshot()
			s.logf("indexed %d files in %v", len(snap.Files()), time.Since(start).Round(time.Millisecond))
		}) {
			return // the session is ending
		}
		<-done
		if progress {
			s.notify("$/progress", &protocol.ProgressParams{
				Token: *protocol.NewProgressToken(token),
				Value: &protocol.WorkDoneProgressEnd{Kind: protocol.WorkDoneProgressKindEnd, Message: "done"},
			})
		}
		s.q.push(func() {
			s.publish()
			// The collector's next goal is twice the heap it found live
			// in its last cycle, and a cycle that ran while the first
			// build and its publication allocated counts their
			// temporaries as live (about a quarter more on a large
			// repository), which lets the heap grow well past twice what
			// the session keeps. One collection in the background once
			// they are done sets the goal from what the snapshot holds;
			// edits go on meanwhile (see docs/PERFORMANCE.md).
			go runtime.GC()
		})
	}()
}

// registerWatchers asks the client to report changes to every file and
// folder below the workspace: diagnostics depend on linked images and cited
// files of any extension and on folders that may be deleted. The server
// keeps only the events the snapshot depends on (see
// didChangeWatchedFiles).
func (s *Server) registerWatchers() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	params := &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:     "gddls/watch",
		Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: &protocol.DidChangeWatchedFilesRegistrationOptions{
			Watchers: []protocol.FileSystemWatcher{{GlobPattern: "**/*"}},
		},
	}}}
	if _, err := s.conn.Call(ctx, "client/registerCapability", params, nil); err != nil {
		s.logf("cannot register file watching: %v", err)
	}
}

// notify sends a notification to the client, logging a failure.
func (s *Server) notify(method string, params any) {
	if err := s.conn.Notify(context.Background(), method, params); err != nil {
		s.logf("cannot send %s: %v", method, err)
	}
}
