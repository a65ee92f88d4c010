package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"go.lsp.dev/uri"

	"github.com/gddls/gddls/analysis/analysistest"
)

// hooks is the environment that enables the test-only methods.
var hooks = []string{"GDDLS_TEST_HOOKS=1"}

// fileURI returns the URI the server uses for path.
func fileURI(path string) string { return string(uri.File(path)) }

// writeFiles writes a fixture tree into a temporary folder and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	return analysistest.WriteFiles(t, "", files)
}

// docFixture is a folder of general Markdown: a.md and b.md link to files
// that do not exist, ok.md is clean.
func docFixture(t *testing.T) string {
	return writeFiles(t, map[string]string{
		"a.md":  "# Alpha\n\nSee [the plan](nope.md) first.\n",
		"b.md":  "# Beta\n\nRead [notes](missing.md).\n",
		"ok.md": "# Fine\n\nLinks to [alpha](a.md).\n",
	})
}

// initialize sends initialize and initialized with the given root and
// client capabilities and options.
func (c *client) initialize(root string, caps, initOpts any) json.RawMessage {
	c.t.Helper()
	if caps == nil {
		caps = map[string]any{}
	}
	params := map[string]any{
		"processId":    nil,
		"rootUri":      fileURI(root),
		"capabilities": caps,
	}
	if initOpts != nil {
		params["initializationOptions"] = initOpts
	}
	return c.initializeWith(params)
}

// initializeWith sends initialize with params as given (with empty
// capabilities when they have none), then initialized.
func (c *client) initializeWith(params map[string]any) json.RawMessage {
	c.t.Helper()
	if params["capabilities"] == nil {
		params["capabilities"] = map[string]any{}
	}
	var res json.RawMessage
	c.result("initialize", params, &res)
	c.notify("initialized", map[string]any{})
	return res
}

// shutdown ends the session cleanly and checks the exit status.
func (c *client) shutdown() {
	c.t.Helper()
	c.result("shutdown", nil, nil)
	c.notify("exit", nil)
	if got := c.waitExit(); got != 0 {
		c.t.Errorf("exit status after shutdown = %d, want 0", got)
	}
}

// publication is a decoded textDocument/publishDiagnostics.
type publication struct {
	URI         string `json:"uri"`
	Version     int    `json:"version"`
	Diagnostics []struct {
		Range    rangeJSON `json:"range"`
		Severity int       `json:"severity"`
		Code     string    `json:"code"`
		Source   string    `json:"source"`
		Message  string    `json:"message"`
		Related  []struct {
			Location struct {
				URI   string    `json:"uri"`
				Range rangeJSON `json:"range"`
			} `json:"location"`
			Message string `json:"message"`
		} `json:"relatedInformation"`
	} `json:"diagnostics"`
}

type rangeJSON struct {
	Start struct{ Line, Character int } `json:"start"`
	End   struct{ Line, Character int } `json:"end"`
}

func decodePublication(t *testing.T, m message) publication {
	t.Helper()
	var p publication
	if err := json.Unmarshal(m.Params, &p); err != nil {
		t.Fatalf("decoding publishDiagnostics: %v", err)
	}
	return p
}

// awaitDiagnostics waits for a publication for u that satisfies ok.
func (c *client) awaitDiagnostics(from int, u, what string, ok func(publication) bool) (publication, int) {
	c.t.Helper()
	m, next := c.await(from, what, func(m message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		p := decodePublication(c.t, m)
		return p.URI == u && ok(p)
	})
	return decodePublication(c.t, m), next
}

// publications returns the publications after from, by URI.
func (c *client) publications(from int) map[string][]publication {
	out := map[string][]publication{}
	for _, m := range c.since(from) {
		if m.Method == "textDocument/publishDiagnostics" {
			p := decodePublication(c.t, m)
			out[p.URI] = append(out[p.URI], p)
		}
	}
	return out
}

func nonEmpty(p publication) bool { return len(p.Diagnostics) > 0 }
func empty(p publication) bool    { return len(p.Diagnostics) == 0 }

// open sends didOpen for path with text.
func (c *client) open(path, text string, version int) {
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(path), "languageId": "markdown", "version": version, "text": text,
	}})
}

// change sends one didChange; rng nil replaces the whole text.
func (c *client) change(path string, version int, rng []int, text string) {
	ch := map[string]any{"text": text}
	if rng != nil {
		ch["range"] = map[string]any{
			"start": map[string]int{"line": rng[0], "character": rng[1]},
			"end":   map[string]int{"line": rng[2], "character": rng[3]},
		}
	}
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": fileURI(path), "version": version},
		"contentChanges": []any{ch},
	})
}

// content asks the test hook for the content a request sees.
func (c *client) content(path string) string {
	c.t.Helper()
	var s *string
	c.result("gddls/test.content", map[string]any{"textDocument": map[string]any{"uri": fileURI(path)}}, &s)
	if s == nil {
		return "<not in snapshot>"
	}
	return *s
}

func errorCode(m message) int {
	if m.Error == nil {
		return 0
	}
	return m.Error.Code
}

func TestRequestBeforeInitialize(t *testing.T) {
	c := start(t, nil)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///x.md", "version": 1, "text": ""}})
	m := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///x.md"}, "position": map[string]int{"line": 0, "character": 0}})
	if got := errorCode(m); got != -32002 {
		t.Errorf("hover before initialize: error code %d, want -32002", got)
	}
	m = c.call("shutdown", nil)
	if got := errorCode(m); got != -32002 {
		t.Errorf("shutdown before initialize: error code %d, want -32002", got)
	}
	c.initialize(t.TempDir(), nil, nil)
	m = c.call("initialize", map[string]any{"capabilities": map[string]any{}})
	if got := errorCode(m); got != -32600 {
		t.Errorf("second initialize: error code %d, want -32600", got)
	}
	c.shutdown()
}

func TestUnknownMethods(t *testing.T) {
	c := start(t, nil)
	c.initialize(t.TempDir(), nil, nil)
	if got := errorCode(c.call("gddls/noSuchMethod", map[string]any{})); got != -32601 {
		t.Errorf("unknown request: error code %d, want -32601", got)
	}
	// Test hooks are off without the environment variable.
	if got := errorCode(c.call("gddls/test.panic", map[string]any{})); got != -32601 {
		t.Errorf("test hook without GDDLS_TEST_HOOKS: error code %d, want -32601", got)
	}
	mark := c.mark()
	c.notify("gddls/noSuchNotification", map[string]any{})
	c.notify("$/setTrace", map[string]any{"value": "off"})
	c.notify("$/somethingElse", nil)
	var syms []any
	c.result("workspace/symbol", map[string]any{"query": ""}, &syms)
	for _, m := range c.since(mark) {
		if m.ID != nil || strings.HasPrefix(m.Method, "window/") {
			t.Errorf("unexpected message after unknown notifications: %s", m.Method)
		}
	}
	if !c.awaitLog("gddls/noSuchNotification") {
		t.Errorf("the unknown notification was not logged")
	}
	c.shutdown() // the log is complete once the process has exited
	if log := c.stderr.String(); strings.Contains(log, "$/somethingElse") || strings.Contains(log, "$/setTrace") {
		t.Errorf("a $/ notification was logged; log:\n%s", log)
	}
}

func TestShutdownThenExit(t *testing.T) {
	c := start(t, nil)
	c.initialize(t.TempDir(), nil, nil)
	c.result("shutdown", nil, nil)
	if got := errorCode(c.call("workspace/symbol", map[string]any{"query": ""})); got != -32600 {
		t.Errorf("request after shutdown: error code %d, want -32600", got)
	}
	if got := errorCode(c.call("shutdown", nil)); got != -32600 {
		t.Errorf("second shutdown: error code %d, want -32600", got)
	}
	c.notify("exit", nil)
	if got := c.waitExit(); got != 0 {
		t.Errorf("exit status = %d, want 0", got)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	for _, initFirst := range []bool{false, true} {
		c := start(t, nil)
		if initFirst {
			c.initialize(t.TempDir(), nil, nil)
		}
		c.notify("exit", nil)
		if got := c.waitExit(); got != 1 {
			t.Errorf("initialized=%v: exit status without shutdown = %d, want 1", initFirst, got)
		}
	}
}

func TestCommandLines(t *testing.T) {
	c := start(t, nil, "serve", "--socket=9000")
	if got := c.waitExit(); got != 2 {
		t.Errorf("gddls serve --socket=9000: exit status %d, want 2", got)
	}
	for _, args := range [][]string{nil, {"serve"}, {"serve", "--stdio"}, {"--stdio"}, {"serve", "--stdio", "--clientProcessId=1"}} {
		c := start(t, nil, args...)
		res := c.initialize(t.TempDir(), nil, nil)
		if !strings.Contains(string(res), `"capabilities"`) {
			t.Errorf("gddls %v: initialize result %s has no capabilities", args, res)
		}
		c.shutdown()
	}
}

func TestInitializeCapabilities(t *testing.T) {
	c := start(t, nil)
	raw := c.initialize(t.TempDir(), fullCapabilities, nil)
	var res struct {
		Capabilities struct {
			TextDocumentSync struct {
				OpenClose bool `json:"openClose"`
				Change    int  `json:"change"`
				Save      any  `json:"save"`
			} `json:"textDocumentSync"`
			CompletionProvider struct {
				TriggerCharacters []string `json:"triggerCharacters"`
			} `json:"completionProvider"`
			HoverProvider           bool `json:"hoverProvider"`
			DefinitionProvider      bool `json:"definitionProvider"`
			ReferencesProvider      bool `json:"referencesProvider"`
			DocumentSymbolProvider  bool `json:"documentSymbolProvider"`
			WorkspaceSymbolProvider bool `json:"workspaceSymbolProvider"`
			RenameProvider          struct {
				PrepareProvider bool `json:"prepareProvider"`
			} `json:"renameProvider"`
			CodeActionProvider struct {
				CodeActionKinds []string `json:"codeActionKinds"`
			} `json:"codeActionProvider"`
			CodeLensProvider       *struct{} `json:"codeLensProvider"`
			DocumentLinkProvider   *struct{} `json:"documentLinkProvider"`
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
			Workspace struct {
				WorkspaceFolders struct {
					Supported           bool `json:"supported"`
					ChangeNotifications any  `json:"changeNotifications"`
				} `json:"workspaceFolders"`
			} `json:"workspace"`
		} `json:"capabilities"`
		ServerInfo struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
	caps := res.Capabilities
	sync := caps.TextDocumentSync
	if !sync.OpenClose || sync.Change != 2 || sync.Save == nil {
		t.Errorf("textDocumentSync = %+v, want open/close, incremental (2), save", sync)
	}
	if got, want := strings.Join(caps.CompletionProvider.TriggerCharacters, " "), "\" # . / ` [ :"; got != want {
		t.Errorf("trigger characters = %q, want %q", got, want)
	}
	if !caps.HoverProvider || !caps.DefinitionProvider || !caps.ReferencesProvider || !caps.DocumentSymbolProvider || !caps.WorkspaceSymbolProvider {
		t.Errorf("a provider is missing: %s", raw)
	}
	if !caps.RenameProvider.PrepareProvider {
		t.Errorf("rename has no prepareProvider: %s", raw)
	}
	if strings.Join(caps.CodeActionProvider.CodeActionKinds, ",") != "quickfix,source,source.fixAll,source.toc,source.migrate" {
		t.Errorf("code action kinds = %v, want [quickfix source source.fixAll source.toc source.migrate]", caps.CodeActionProvider.CodeActionKinds)
	}
	if caps.CodeLensProvider == nil || caps.DocumentLinkProvider == nil {
		t.Errorf("code lens or document link provider missing: %s", raw)
	}
	if strings.Join(caps.ExecuteCommandProvider.Commands, ",") != "gddls.renderTests,gddls.explain" {
		t.Errorf("commands = %v, want [gddls.renderTests gddls.explain]", caps.ExecuteCommandProvider.Commands)
	}
	wf := caps.Workspace.WorkspaceFolders
	if !wf.Supported || wf.ChangeNotifications != true {
		t.Errorf("workspace folders = %+v, want supported with change notifications", wf)
	}
	if res.ServerInfo.Name != "gddls" {
		t.Errorf("server name = %q", res.ServerInfo.Name)
	}
	c.shutdown()
}

func TestRegistrationProgressAndDiagnosticsOnStart(t *testing.T) {
	root := docFixture(t)
	c := start(t, nil)
	caps := map[string]any{
		"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}},
		"window":    map[string]any{"workDoneProgress": true},
	}
	c.initialize(root, caps, nil)

	reg, _ := c.await(0, "client/registerCapability", func(m message) bool { return m.Method == "client/registerCapability" })
	if s := string(reg.Params); !strings.Contains(s, `"workspace/didChangeWatchedFiles"`) || !strings.Contains(s, `"**/*"`) {
		t.Errorf("registration = %s, want a watcher of every file, **/*", s)
	}
	create, next := c.await(0, "window/workDoneProgress/create", func(m message) bool { return m.Method == "window/workDoneProgress/create" })
	var token struct {
		Token any `json:"token"`
	}
	json.Unmarshal(create.Params, &token)
	progressOf := func(kind string) func(message) bool {
		return func(m message) bool {
			var p struct {
				Token any `json:"token"`
				Value struct {
					Kind string `json:"kind"`
				} `json:"value"`
			}
			return m.Method == "$/progress" && json.Unmarshal(m.Params, &p) == nil && p.Token == token.Token && p.Value.Kind == kind
		}
	}
	_, next = c.await(next, "progress begin", progressOf("begin"))
	_, next = c.await(next, "progress end", progressOf("end"))

	// Every file with findings is published, open or not; the clean file
	// is not.
	a, _ := c.awaitDiagnostics(next, fileURI(filepath.Join(root, "a.md")), "diagnostics of a.md", nonEmpty)
	c.awaitDiagnostics(next, fileURI(filepath.Join(root, "b.md")), "diagnostics of b.md", nonEmpty)
	d := a.Diagnostics[0]
	if d.Source != "gddls" || d.Code == "" || d.Message == "" || d.Severity != 1 {
		t.Errorf("diagnostic = %+v, want source gddls, a code, a message, severity error", d)
	}
	if got := c.publications(0)[fileURI(filepath.Join(root, "ok.md"))]; len(got) != 0 {
		t.Errorf("clean file ok.md was published: %+v", got)
	}
	c.shutdown()
}

func TestNoProgressWithoutCapability(t *testing.T) {
	root := docFixture(t)
	c := start(t, nil)
	c.initialize(root, nil, nil)
	c.awaitDiagnostics(0, fileURI(filepath.Join(root, "a.md")), "diagnostics of a.md", nonEmpty)
	for _, m := range c.since(0) {
		if m.Method == "client/registerCapability" || m.Method == "window/workDoneProgress/create" || m.Method == "$/progress" {
			t.Errorf("server sent %s although the client does not support it", m.Method)
		}
	}
	c.shutdown()
}

func TestPackageCitationDiagnostic(t *testing.T) {
	root := writeFiles(t, map[string]string{
		"game/manifest.json": "{}\n",
		"game/tuning.json":   `{"values": {"speed.walk": 3}}` + "\n",
		"game/01-overview.md": "# Overview\n\nThe walker moves at `speed.walk` and\n" +
			"jumps `no.such_key` high.\n",
	})
	c := start(t, nil)
	c.initialize(root, nil, nil)
	u := fileURI(filepath.Join(root, "game", "01-overview.md"))
	p, _ := c.awaitDiagnostics(0, u, "a finding in the chapter", func(p publication) bool {
		for _, d := range p.Diagnostics {
			if d.Code == "PROSE_CITATION_DANGLING" {
				return true
			}
		}
		return false
	})
	n := 0
	for _, d := range p.Diagnostics {
		if d.Code != "PROSE_CITATION_DANGLING" {
			continue
		}
		n++
		// `no.such_key` starts after "jumps `": columns 7 to 18.
		if d.Range.Start.Line != 3 || d.Range.Start.Character > 7 || d.Range.End.Character < 17 {
			t.Errorf("dangling citation reported at %+v, want line 3 around columns 7-18", d.Range)
		}
	}
	if n != 1 {
		t.Errorf("got %d dangling citations, want 1 (only no.such_key): %+v", n, p.Diagnostics)
	}
	c.shutdown()
}

func TestUnsavedEditPublishesOnlyChangedFiles(t *testing.T) {
	root := docFixture(t)
	a, b := filepath.Join(root, "a.md"), filepath.Join(root, "b.md")
	c := start(t, hooks)
	c.initialize(root, nil, map[string]any{"gddls": map[string]any{"diagnosticsDelay": 10}})
	_, next := c.awaitDiagnostics(0, fileURI(a), "initial diagnostics of a.md", nonEmpty)
	c.awaitDiagnostics(0, fileURI(b), "initial diagnostics of b.md", nonEmpty)

	text := "# Alpha\n\nSee [the plan](nope.md) first.\n"
	c.open(a, text, 1)
	// Fix the link without saving: "nope" becomes "ok".
	mark := c.mark()
	c.change(a, 2, []int{2, 15, 2, 19}, "ok")
	if got := c.content(a); got != "# Alpha\n\nSee [the plan](ok.md) first.\n" {
		t.Fatalf("content after the edit = %q", got)
	}
	p, next := c.awaitDiagnostics(max(next, mark), fileURI(a), "a.md cleared", empty)
	if p.Version != 2 {
		t.Errorf("publication version = %d, want 2", p.Version)
	}
	// Break it again.
	c.change(a, 3, []int{2, 15, 2, 17}, "gone")
	p, _ = c.awaitDiagnostics(next, fileURI(a), "a.md broken again", nonEmpty)
	if p.Version != 3 {
		t.Errorf("publication version = %d, want 3", p.Version)
	}
	// Give any extra publication time to arrive, then check that b.md,
	// whose diagnostics never changed, was not republished.
	time.Sleep(200 * time.Millisecond)
	if got := c.publications(mark)[fileURI(b)]; len(got) != 0 {
		t.Errorf("b.md was republished although its diagnostics did not change: %+v", got)
	}
	c.shutdown()
}

func TestDebounceWaitsForQuiet(t *testing.T) {
	root := docFixture(t)
	a := filepath.Join(root, "a.md")
	c := start(t, hooks)
	c.initialize(root, nil, map[string]any{"gddls": map[string]any{"diagnosticsDelay": 10}})
	c.awaitDiagnostics(0, fileURI(a), "initial diagnostics", nonEmpty)
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"gddls": map[string]any{"diagnosticsDelay": 3000}}})
	c.open(a, "# Alpha\n\nSee [the plan](nope.md) first.\n", 1)
	mark := c.mark()
	c.change(a, 2, []int{2, 15, 2, 19}, "ok")
	c.content(a) // the edit has reached the workspace
	time.Sleep(200 * time.Millisecond)
	if got := c.publications(mark)[fileURI(a)]; len(got) != 0 {
		t.Errorf("published %v before the configured 3000 ms delay", got)
	}
	c.awaitDiagnostics(mark, fileURI(a), "a.md cleared after the delay", empty)
	c.shutdown()
}

func TestDeletedFileLosesDiagnostics(t *testing.T) {
	root := docFixture(t)
	b := filepath.Join(root, "b.md")
	c := start(t, nil)
	c.initialize(root, nil, map[string]any{"gddls": map[string]any{"diagnosticsDelay": 10}})
	_, next := c.awaitDiagnostics(0, fileURI(b), "initial diagnostics of b.md", nonEmpty)
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": fileURI(b), "type": 3}}})
	c.awaitDiagnostics(next, fileURI(b), "b.md cleared after deletion", empty)
	c.shutdown()
}

func TestDidCloseRevertsToDisk(t *testing.T) {
	root := docFixture(t)
	a := filepath.Join(root, "a.md")
	c := start(t, hooks)
	c.initialize(root, nil, map[string]any{"gddls": map[string]any{"diagnosticsDelay": 10}})
	_, next := c.awaitDiagnostics(0, fileURI(a), "initial diagnostics", nonEmpty)
	disk := "# Alpha\n\nSee [the plan](nope.md) first.\n"
	c.open(a, disk, 1)
	c.change(a, 2, nil, "# Alpha\n\nNothing linked.\n")
	if got := c.content(a); got != "# Alpha\n\nNothing linked.\n" {
		t.Fatalf("content of the open buffer = %q", got)
	}
	_, next = c.awaitDiagnostics(next, fileURI(a), "a.md cleared", empty)
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(a)}})
	if got := c.content(a); got != disk {
		t.Fatalf("content after close = %q, want the disk content", got)
	}
	p, _ := c.awaitDiagnostics(next, fileURI(a), "a.md broken again after close", nonEmpty)
	if p.Version != 0 {
		t.Errorf("publication for a closed file has version %d, want none", p.Version)
	}
	c.shutdown()
}

func TestStaleVersionIgnored(t *testing.T) {
	root := docFixture(t)
	a := filepath.Join(root, "a.md")
	c := start(t, hooks)
	c.initialize(root, nil, nil)
	c.open(a, "one\n", 5)
	c.change(a, 3, nil, "stale\n")
	if got := c.content(a); got != "one\n" {
		t.Errorf("content after a stale change = %q, want %q", got, "one\n")
	}
	c.change(a, 6, []int{0, 3, 0, 3}, " two")
	if got := c.content(a); got != "one two\n" {
		t.Errorf("content after a newer change = %q, want %q", got, "one two\n")
	}
	if !c.awaitLog("stale") {
		t.Errorf("the stale change was not logged")
	}
	c.shutdown()
}

func TestUTF16Positions(t *testing.T) {
	root := docFixture(t)
	a := filepath.Join(root, "a.md")
	c := start(t, hooks)
	c.initialize(root, nil, map[string]any{"gddls": map[string]any{"diagnosticsDelay": 10}})
	_, next := c.awaitDiagnostics(0, fileURI(a), "initial diagnostics", nonEmpty)
	prefix := "Café 😀 [x]("
	line := prefix + "nope.md) end"
	c.open(a, "# Alpha\n\n"+line+"\n", 1)
	col := len(utf16.Encode([]rune(prefix))) // 12: é is one unit, the emoji two
	p, next := c.awaitDiagnostics(next, fileURI(a), "the link on the non-ASCII line", func(p publication) bool {
		return len(p.Diagnostics) > 0 && p.Diagnostics[0].Range.Start.Line == 2
	})
	d := p.Diagnostics[0]
	lineUnits := len(utf16.Encode([]rune(line)))
	if d.Range.Start.Character > col || d.Range.End.Character < col+len("nope.md") || d.Range.End.Character > lineUnits {
		t.Errorf("diagnostic range %+v does not cover the target at UTF-16 columns %d-%d", d.Range, col, col+7)
	}
	// Replace "nope" using UTF-16 columns; the link then names ok.md.
	c.change(a, 2, []int{2, col, 2, col + 4}, "ok")
	if got, want := c.content(a), "# Alpha\n\nCafé 😀 [x](ok.md) end\n"; got != want {
		t.Fatalf("content after a UTF-16 edit = %q, want %q", got, want)
	}
	c.awaitDiagnostics(next, fileURI(a), "a.md cleared", empty)
	// Out-of-range positions are clamped, never fatal.
	c.change(a, 3, []int{2, 500, 99, 7}, "!")
	if got, want := c.content(a), "# Alpha\n\nCafé 😀 [x](ok.md) end!"; got != want {
		t.Errorf("content after a clamped edit = %q, want %q", got, want)
	}
	var h any
	c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": fileURI(a)}, "position": map[string]int{"line": -4, "character": 9999}}, &h)
	c.shutdown()
}

func TestEditThenRequestOrder(t *testing.T) {
	root := docFixture(t)
	a := filepath.Join(root, "a.md")
	c := start(t, hooks)
	c.initialize(root, nil, nil)
	c.open(a, "x\n", 1)
	for v := 2; v < 40; v++ {
		c.change(a, v, []int{0, 0, 0, 0}, "y")
		if got, want := c.content(a), strings.Repeat("y", v-1)+"x\n"; got != want {
			t.Fatalf("after change %d the request saw %q, want %q", v, got, want)
		}
	}
	c.shutdown()
}

func TestCancelRequest(t *testing.T) {
	c := start(t, hooks)
	c.initialize(t.TempDir(), nil, nil)
	id, ch := c.callAsync("gddls/test.block", map[string]any{})
	time.Sleep(50 * time.Millisecond)
	c.notify("$/cancelRequest", map[string]any{"id": id})
	m := c.wait("gddls/test.block", ch)
	if got := errorCode(m); got != -32800 {
		t.Errorf("cancelled request: error code %d, want -32800 (result %s)", got, m.Result)
	}
	// Cancelling an unknown or finished request is harmless.
	c.notify("$/cancelRequest", map[string]any{"id": id})
	c.notify("$/cancelRequest", map[string]any{"id": "nope"})
	c.result("workspace/symbol", map[string]any{"query": ""}, nil)
	c.shutdown()
}

func TestPanicBecomesErrorResponse(t *testing.T) {
	c := start(t, hooks)
	c.initialize(t.TempDir(), nil, nil)
	m := c.call("gddls/test.panic", map[string]any{})
	if got := errorCode(m); got != -32603 {
		t.Errorf("panicking request: error code %d, want -32603", got)
	}
	if !c.awaitLog("deliberate panic", "goroutine") {
		t.Errorf("the panic and its stack were not logged")
	}
	var syms []any
	c.result("workspace/symbol", map[string]any{"query": ""}, &syms)
	c.shutdown()
}

func TestMalformedParams(t *testing.T) {
	c := start(t, nil)
	c.initialize(t.TempDir(), nil, nil)
	if got := errorCode(c.call("textDocument/hover", "not an object")); got != -32602 {
		t.Errorf("hover with a string for params: error code %d, want -32602", got)
	}
	c.notify("textDocument/didChange", []int{1, 2})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "untitled:Untitled-1", "version": 1, "text": "x"}})
	c.result("workspace/symbol", map[string]any{"query": ""}, nil)
	c.shutdown()
}

func TestMalformedMessagesSkipped(t *testing.T) {
	c := start(t, nil)
	c.initialize(t.TempDir(), nil, nil)
	c.sendRaw(`{"jsonrpc":"2.0","id":`)
	c.sendRaw(`{"jsonrpc":"2.0","result":{}}`)
	c.sendRaw(`[1,2,3]`)
	c.result("workspace/symbol", map[string]any{"query": ""}, nil)
	if !c.awaitLog("malformed") {
		t.Error("the malformed messages were not logged")
	}
	c.shutdown()
}

func TestRequestOnUnknownFile(t *testing.T) {
	c := start(t, nil)
	c.initialize(t.TempDir(), nil, nil)
	doc := map[string]any{"uri": fileURI(filepath.Join(t.TempDir(), "absent.md"))}
	pos := map[string]int{"line": 0, "character": 0}
	for _, tc := range []struct {
		method string
		params map[string]any
		want   []string // acceptable results
	}{
		{"textDocument/hover", map[string]any{"textDocument": doc, "position": pos}, []string{"null"}},
		{"textDocument/definition", map[string]any{"textDocument": doc, "position": pos}, []string{"null", "[]"}},
		{"textDocument/references", map[string]any{"textDocument": doc, "position": pos, "context": map[string]any{}}, []string{"null", "[]"}},
		{"textDocument/completion", map[string]any{"textDocument": doc, "position": pos}, []string{`{"isIncomplete":false,"items":[]}`, "null", "[]"}},
		{"textDocument/prepareRename", map[string]any{"textDocument": doc, "position": pos}, []string{"null"}},
		{"textDocument/rename", map[string]any{"textDocument": doc, "position": pos, "newName": "x"}, []string{"null"}},
		{"textDocument/documentSymbol", map[string]any{"textDocument": doc}, []string{"null", "[]"}},
		{"textDocument/codeAction", map[string]any{"textDocument": doc, "range": map[string]any{"start": pos, "end": pos}, "context": map[string]any{"diagnostics": []any{}}}, []string{"null", "[]"}},
		{"textDocument/codeLens", map[string]any{"textDocument": doc}, []string{"null", "[]"}},
		{"textDocument/documentLink", map[string]any{"textDocument": doc}, []string{"null", "[]"}},
		{"workspace/executeCommand", map[string]any{"command": "gddls.renderTests", "arguments": []any{doc["uri"]}}, []string{"null"}},
	} {
		m := c.call(tc.method, tc.params)
		if m.Error != nil {
			t.Errorf("%s on a file outside the snapshot: error %d %s", tc.method, m.Error.Code, m.Error.Message)
			continue
		}
		got := strings.ReplaceAll(string(m.Result), " ", "")
		ok := false
		for _, w := range tc.want {
			ok = ok || got == w
		}
		if !ok {
			t.Errorf("%s on a file outside the snapshot = %s, want one of %v", tc.method, got, tc.want)
		}
	}
	c.shutdown()
}

func TestWorkspaceFoldersChange(t *testing.T) {
	root := docFixture(t)
	other := writeFiles(t, map[string]string{"c.md": "[dead](gone.md)\n"})
	c := start(t, nil)
	c.initialize(root, nil, map[string]any{"gddls": map[string]any{"diagnosticsDelay": 10}})
	_, next := c.awaitDiagnostics(0, fileURI(filepath.Join(root, "a.md")), "initial diagnostics", nonEmpty)
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added":   []any{map[string]any{"uri": fileURI(other), "name": "other"}},
		"removed": []any{map[string]any{"uri": fileURI(root), "name": "root"}},
	}})
	c.awaitDiagnostics(next, fileURI(filepath.Join(other, "c.md")), "diagnostics of the added folder", nonEmpty)
	c.awaitDiagnostics(next, fileURI(filepath.Join(root, "a.md")), "diagnostics of the removed folder cleared", empty)
	c.shutdown()
}

func TestRelatedInformation(t *testing.T) {
	root := writeFiles(t, map[string]string{
		"pkg/manifest.json":  "{}\n",
		"pkg/tuning.json":    `{"values": {}}` + "\n",
		"pkg/01-overview.md": "# Overview\n\n## Twice\n\nOne.\n\n## Twice\n\nTwo; see [it](#twice).\n",
	})
	c := start(t, nil)
	c.initialize(root, nil, nil)
	u := fileURI(filepath.Join(root, "pkg", "01-overview.md"))
	p, _ := c.awaitDiagnostics(0, u, "the ambiguous link", func(p publication) bool {
		for _, d := range p.Diagnostics {
			if d.Code == "DOC_LINK_AMBIGUOUS" {
				return true
			}
		}
		return false
	})
	for _, d := range p.Diagnostics {
		if d.Code != "DOC_LINK_AMBIGUOUS" {
			continue
		}
		if d.Severity != 2 {
			t.Errorf("severity = %d, want 2 (warning)", d.Severity)
		}
		if len(d.Related) != 2 {
			t.Fatalf("related information = %+v, want both headings", d.Related)
		}
		for i, line := range []int{2, 6} {
			r := d.Related[i]
			if r.Location.URI != u || r.Location.Range.Start.Line != line || r.Message == "" {
				t.Errorf("related[%d] = %+v, want the heading on line %d of the chapter", i, r, line)
			}
		}
	}
	c.shutdown()
}

func TestWorkspaceFoldersWinOverRootURI(t *testing.T) {
	folder := docFixture(t)
	other := writeFiles(t, map[string]string{"z.md": "[dead](gone.md)\n"})
	c := start(t, nil)
	var res json.RawMessage
	c.result("initialize", map[string]any{
		"processId":        nil,
		"rootUri":          fileURI(other),
		"rootPath":         other,
		"workspaceFolders": []any{map[string]any{"uri": fileURI(folder), "name": "docs"}},
		"capabilities":     map[string]any{},
	}, &res)
	c.notify("initialized", map[string]any{})
	c.awaitDiagnostics(0, fileURI(filepath.Join(folder, "a.md")), "diagnostics of the workspace folder", nonEmpty)
	c.shutdown()
	if got := c.publications(0)[fileURI(filepath.Join(other, "z.md"))]; len(got) != 0 {
		t.Errorf("rootUri was indexed although workspaceFolders were given: %+v", got)
	}
}

func TestRootPathFallback(t *testing.T) {
	root := docFixture(t)
	c := start(t, nil)
	c.result("initialize", map[string]any{"processId": nil, "rootPath": root, "capabilities": map[string]any{}}, nil)
	c.notify("initialized", map[string]any{})
	c.awaitDiagnostics(0, fileURI(filepath.Join(root, "a.md")), "diagnostics under rootPath", nonEmpty)
	c.shutdown()
}
