package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The protocol manners of docs/SERVER.md ("Protocol manners"): each test
// drives the built server over pipes as an editor would.

// fullCapabilities declares what VS Code declares for the features the
// server shapes its answer to.
var fullCapabilities = map[string]any{
	"general": map[string]any{"positionEncodings": []string{"utf-16"}},
	"workspace": map[string]any{
		"workspaceFolders":      true,
		"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
		"workspaceEdit":         map[string]any{"documentChanges": true},
	},
	"textDocument": map[string]any{
		"rename":     map[string]any{"prepareSupport": true},
		"codeAction": map[string]any{"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{"quickfix"}}}},
	},
	"window": map[string]any{"workDoneProgress": true},
}

// flush waits until every change so far is published.
func (c *client) flush() {
	c.t.Helper()
	c.result("gddls/test.flush", nil, nil)
}

func TestPublishesEveryVersion(t *testing.T) {
	root := docFixture(t)
	ok, a := filepath.Join(root, "ok.md"), filepath.Join(root, "a.md")
	c := start(t, hooks)
	c.initialize(root, nil, map[string]any{"gddls": map[string]any{"diagnosticsDelay": 10}})
	c.flush()

	// A clean file is published on open, empty, with its version, and
	// again after an edit that leaves it clean.
	mark := c.mark()
	c.open(ok, readFile(t, ok), 1)
	next := mark
	for v := 1; v <= 3; v++ {
		if v > 1 {
			c.change(ok, v, []int{0, 0, 0, 0}, "x")
		}
		var p publication
		p, next = c.awaitDiagnostics(next, fileURI(ok), fmt.Sprintf("a publication of ok.md version %d", v), func(p publication) bool { return p.Version == v })
		if len(p.Diagnostics) != 0 {
			t.Errorf("ok.md version %d published with findings %+v", v, p.Diagnostics)
		}
	}
	// A file with findings is published on open and after an edit that
	// leaves its findings as they were.
	c.open(a, readFile(t, a), 5)
	p, next := c.awaitDiagnostics(next, fileURI(a), "a.md version 5", func(p publication) bool { return p.Version == 5 })
	before := diagKeys(p)
	c.change(a, 6, []int{0, 0, 0, 0}, "Intro.\n")
	p, _ = c.awaitDiagnostics(next, fileURI(a), "a.md version 6", func(p publication) bool { return p.Version == 6 })
	if len(p.Diagnostics) != len(before) || len(before) == 0 {
		t.Errorf("a.md version 6 has %d findings, version 5 had %d; want the same, at least one", len(p.Diagnostics), len(before))
	}
	c.flush()
	counts := map[int]int{}
	for _, p := range c.publications(mark)[fileURI(a)] {
		counts[p.Version]++
	}
	if counts[5] != 1 || counts[6] != 1 {
		t.Errorf("publications of a.md by version = %v, want one for each of 5 and 6", counts)
	}
	c.shutdown()
}

func TestWatchesEveryDependency(t *testing.T) {
	root := writeFiles(t, map[string]string{
		"doc.md":          "# Doc\n\n![logo](assets/logo.png)\n\nSee [the diagram](pics/flow.svg).\n",
		"assets/logo.png": "png",
		"pics/flow.svg":   "<svg/>",
		".cache/blob.bin": "x",
	})
	doc := filepath.Join(root, "doc.md")
	c := start(t, hooks)
	c.initialize(root, fullCapabilities, map[string]any{"gddls": map[string]any{"diagnosticsDelay": 10}})
	reg, _ := c.await(0, "client/registerCapability", func(m message) bool { return m.Method == "client/registerCapability" })
	if !strings.Contains(string(reg.Params), `"globPattern":"**/*"`) {
		t.Errorf("registration = %s, want one watcher of every file", reg.Params)
	}
	c.flush()
	if got := c.publications(0)[fileURI(doc)]; len(got) != 0 {
		t.Fatalf("doc.md, whose links all resolve, has findings: %+v", got)
	}
	event := func(path string, typ int) {
		c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": fileURI(path), "type": typ}}})
	}

	// An event nothing depends on is dropped.
	event(filepath.Join(root, ".cache", "blob.bin"), 2)
	if !c.awaitLog("ignoring 1 file events that no finding depends on") {
		t.Errorf("an event in .cache was not dropped")
	}

	// A deleted image is seen.
	mark := c.mark()
	if err := os.Remove(filepath.Join(root, "assets", "logo.png")); err != nil {
		t.Fatal(err)
	}
	event(filepath.Join(root, "assets", "logo.png"), 3)
	p, _ := c.awaitDiagnostics(mark, fileURI(doc), "DOC_LINK_FILE for the deleted image", hasCode("DOC_LINK_FILE"))
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Range.Start.Line != 2 {
		t.Errorf("after deleting the image: %+v, want one finding on line 2", p.Diagnostics)
	}

	// A deleted folder is seen through the one event for the folder.
	mark = c.mark()
	if err := os.RemoveAll(filepath.Join(root, "pics")); err != nil {
		t.Fatal(err)
	}
	event(filepath.Join(root, "pics"), 3)
	c.awaitDiagnostics(mark, fileURI(doc), "a finding for the link into the deleted folder", func(p publication) bool { return len(p.Diagnostics) == 2 })

	// A created image is seen too.
	mark = c.mark()
	if err := os.WriteFile(filepath.Join(root, "assets", "logo.png"), []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	event(filepath.Join(root, "assets", "logo.png"), 1)
	c.awaitDiagnostics(mark, fileURI(doc), "the image's finding gone", func(p publication) bool { return len(p.Diagnostics) == 1 })
	c.shutdown()
}

func TestCodeLensesCarryCommands(t *testing.T) {
	root := copyDemo(t)
	c := start(t, nil)
	var res struct {
		Capabilities struct {
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
		} `json:"capabilities"`
	}
	json.Unmarshal(c.initialize(root, nil, nil), &res)
	offered := map[string]bool{}
	for _, cmd := range res.Capabilities.ExecuteCommandProvider.Commands {
		offered[cmd] = true
	}
	var explain []any
	for _, name := range []string{"cauldron.json", "daily-forage.json", "garden-away.json", "status-windows.json"} {
		var lenses []struct {
			Command *struct {
				Title     string `json:"title"`
				Command   string `json:"command"`
				Arguments []any  `json:"arguments"`
			} `json:"command"`
		}
		c.result("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": fileURI(filepath.Join(root, "contracts", name))}}, &lenses)
		for _, l := range lenses {
			if l.Command == nil || !offered[l.Command.Command] {
				t.Errorf("%s: a lens's command is not one the server offers: %+v", name, l.Command)
				continue
			}
			if l.Command.Command == ExplainCommand && explain == nil {
				explain = l.Command.Arguments
			}
		}
	}
	if explain == nil {
		t.Fatal("no informational lens with the explain command")
	}
	mark := c.mark()
	c.result("workspace/executeCommand", map[string]any{"command": ExplainCommand, "arguments": explain}, nil)
	m, _ := c.await(mark, "window/showMessage", func(m message) bool { return m.Method == "window/showMessage" })
	if want := explain[0].(string); !strings.Contains(string(m.Params), want) {
		t.Errorf("showMessage %s, want the lens's text %q", m.Params, want)
	}
	c.shutdown()
}

func TestTriggerSuggestOnlyForVSCode(t *testing.T) {
	root := copyDemo(t)
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	at := posOf(t, cauldron, `"02-mechanics.md#brewing"`, 1)
	for _, tc := range []struct {
		client string
		want   bool
	}{{"Visual Studio Code", true}, {"code-server", true}, {"Neovim", false}, {"", false}} {
		c := start(t, nil)
		c.initializeWith(map[string]any{"rootUri": fileURI(root), "clientInfo": map[string]any{"name": tc.client}})
		var list struct {
			Items []struct {
				Label   string `json:"label"`
				Command *struct {
					Command string `json:"command"`
				} `json:"command"`
			} `json:"items"`
		}
		c.result("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": fileURI(cauldron)}, "position": at}, &list)
		retrigger := 0
		for _, it := range list.Items {
			if it.Command != nil && it.Command.Command == "editor.action.triggerSuggest" {
				retrigger++
			}
		}
		if got := retrigger > 0; got != tc.want {
			t.Errorf("client %q: %d of %d items carry editor.action.triggerSuggest, want some: %v", tc.client, retrigger, len(list.Items), tc.want)
		}
		c.shutdown()
	}
}

func TestCapabilitiesShapedByClient(t *testing.T) {
	type shaped struct {
		Capabilities struct {
			PositionEncoding   *string         `json:"positionEncoding"`
			RenameProvider     json.RawMessage `json:"renameProvider"`
			CodeActionProvider json.RawMessage `json:"codeActionProvider"`
			CodeLensProvider   json.RawMessage `json:"codeLensProvider"`
			Workspace          json.RawMessage `json:"workspace"`
		} `json:"capabilities"`
	}
	root := docFixture(t)

	// A client that declares nothing gets no option objects it cannot
	// read, no registration and no progress.
	c := start(t, nil)
	var bare shaped
	json.Unmarshal(c.initialize(root, map[string]any{}, nil), &bare)
	caps := bare.Capabilities
	if string(caps.RenameProvider) != "true" || string(caps.CodeActionProvider) != "true" {
		t.Errorf("rename %s, code action %s; want plain true without prepareSupport and codeActionLiteralSupport", caps.RenameProvider, caps.CodeActionProvider)
	}
	if caps.Workspace != nil || caps.PositionEncoding != nil {
		t.Errorf("workspace %s, position encoding %v sent to a client that declared neither", caps.Workspace, caps.PositionEncoding)
	}
	if strings.Contains(string(caps.CodeLensProvider), "resolveProvider") {
		t.Errorf("code lens resolve offered: %s", caps.CodeLensProvider)
	}
	c.awaitDiagnostics(0, fileURI(filepath.Join(root, "a.md")), "diagnostics of a.md", nonEmpty)
	for _, m := range c.since(0) {
		if m.Method == "client/registerCapability" || m.Method == "window/workDoneProgress/create" || m.Method == "$/progress" {
			t.Errorf("server sent %s to a client that does not support it", m.Method)
		}
	}
	c.shutdown()

	// A client that declares them gets them.
	c = start(t, nil)
	var full shaped
	json.Unmarshal(c.initialize(root, fullCapabilities, nil), &full)
	caps = full.Capabilities
	if !strings.Contains(string(caps.RenameProvider), `"prepareProvider":true`) || !strings.Contains(string(caps.CodeActionProvider), `"quickfix"`) {
		t.Errorf("rename %s, code action %s; want their options", caps.RenameProvider, caps.CodeActionProvider)
	}
	if !strings.Contains(string(caps.Workspace), `"changeNotifications":true`) || caps.PositionEncoding == nil || *caps.PositionEncoding != "utf-16" {
		t.Errorf("workspace %s, position encoding %v; want folder notifications and utf-16", caps.Workspace, caps.PositionEncoding)
	}
	c.shutdown()

	// A client that offers only UTF-8 gets no encoding named: the server
	// speaks UTF-16, which every client supports.
	c = start(t, nil)
	var utf8 shaped
	json.Unmarshal(c.initialize(root, map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-8"}}}, nil), &utf8)
	if utf8.Capabilities.PositionEncoding != nil {
		t.Errorf("position encoding %q sent to a client that offered only utf-8", *utf8.Capabilities.PositionEncoding)
	}
	c.shutdown()
}

func TestExitsWhenParentDies(t *testing.T) {
	parent := exec.Command("sleep", "60")
	if err := parent.Start(); err != nil {
		t.Skipf("cannot start a stand-in parent: %v", err)
	}
	c := start(t, nil)
	c.initializeWith(map[string]any{"processId": parent.Process.Pid, "rootUri": fileURI(t.TempDir())})
	c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": fileURI("/nowhere.md")}, "position": map[string]int{"line": 0, "character": 0}}, nil)
	parent.Process.Kill()
	parent.Wait()
	if got := c.waitExit(); got != 1 {
		t.Errorf("exit status after the parent died = %d, want 1 (no shutdown)", got)
	}
	if !c.awaitLog(fmt.Sprintf("the client process %d has exited", parent.Process.Pid)) {
		t.Errorf("the log does not say why the server exited")
	}
}

func TestSingleFileMode(t *testing.T) {
	outside := writeFiles(t, map[string]string{
		"repo/game/manifest.json": "{}\n",
		"repo/game/tuning.json":   `{"values": {"speed.walk": 3}}` + "\n",
		"repo/game/01-overview.md": "# Overview\n\nThe walker moves at `speed.walk` and\n" +
			"jumps `no.such_key` high.\n",
		"notes/todo.md": "# Todo\n\nRead [the plan](plan.md).\n",
	})
	chapter := filepath.Join(outside, "repo", "game", "01-overview.md")
	todo := filepath.Join(outside, "notes", "todo.md")
	for _, tc := range []struct {
		name   string
		params map[string]any
	}{
		{"outside the folders", map[string]any{"workspaceFolders": []any{map[string]any{"uri": fileURI(t.TempDir()), "name": "other"}}}},
		{"no folders", map[string]any{"rootUri": nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := start(t, hooks)
			c.initializeWith(tc.params)
			// A chapter is analysed with its package, found by walking up.
			c.open(chapter, readFile(t, chapter), 1)
			c.awaitDiagnostics(0, fileURI(chapter), "the chapter's dangling citation", hasCode("PROSE_CITATION_DANGLING"))
			var syms []struct {
				Name string `json:"name"`
			}
			c.result("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": fileURI(chapter)}}, &syms)
			if len(syms) == 0 || syms[0].Name != "Overview" {
				t.Errorf("symbols of the chapter = %+v, want the Overview heading", syms)
			}
			// A file in no package is analysed with its folder.
			c.open(todo, readFile(t, todo), 1)
			c.awaitDiagnostics(0, fileURI(todo), "the note's broken link", hasCode("DOC_LINK_FILE"))
			// Closing the file takes its findings away.
			mark := c.mark()
			c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(todo)}})
			c.awaitDiagnostics(mark, fileURI(todo), "the note's findings cleared on close", empty)
			c.shutdown()
		})
	}
}

func TestOversizeMessageRefused(t *testing.T) {
	root := docFixture(t)
	a := filepath.Join(root, "a.md")
	c := start(t, hooks)
	c.initialize(root, nil, nil)
	text := readFile(t, a)
	c.open(a, text, 1)

	// A didChange of more than 256 MiB, written in pieces.
	mark := c.mark()
	c.sendHuge(fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":2},"contentChanges":[{"text":"`, fileURI(a)), `"}]}}`)
	m, _ := c.await(mark, "window/showMessage", func(m message) bool { return m.Method == "window/showMessage" })
	var shown struct {
		Type    int    `json:"type"`
		Message string `json:"message"`
	}
	json.Unmarshal(m.Params, &shown)
	if shown.Type != 1 || !strings.Contains(shown.Message, "a.md") {
		t.Errorf("showMessage = %+v, want an error naming a.md", shown)
	}
	if !c.awaitLog("refused a textDocument/didChange message of 257 MiB") {
		t.Errorf("the refusal is not logged")
	}
	// The next incremental edit would apply to text that missed the
	// refused one: it is ignored, with a log line.
	c.change(a, 3, []int{0, 0, 0, 0}, "Stale? ")
	if got := c.content(a); got != text {
		t.Errorf("content after an edit of an out-of-sync document = %q, want the last text read, %q", got, text)
	}
	if !c.awaitLog("its text is out of sync until it is opened again") {
		t.Errorf("the ignored edit is not logged")
	}
	// A refused request is answered with an error.
	c.mu.Lock()
	answer := make(chan message, 1)
	c.pending["99"] = answer
	c.mu.Unlock()
	c.sendHuge(`{"jsonrpc":"2.0","id":99,"method":"workspace/symbol","params":{"query":"`, `"}}`)
	if m := c.wait("the refused request", answer); errorCode(m) != -32600 {
		t.Errorf("answer to a refused request = %+v, want error -32600", m)
	}
	// Opening the document again brings it back in sync.
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(a)}})
	c.open(a, "# Fresh\n", 4)
	c.change(a, 5, []int{1, 0, 1, 0}, "Body.\n")
	if got := c.content(a); got != "# Fresh\nBody.\n" {
		t.Errorf("content after reopening and editing = %q", got)
	}
	c.shutdown()
}

// sendHuge writes a message of 257 MiB: head, then as many letters as
// needed, then tail.
func (c *client) sendHuge(head, tail string) {
	const body = 257 << 20
	chunk := []byte(strings.Repeat("a", 1<<20))
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n%s", body, head)
	for n := len(head) + len(tail); n < body; n += len(chunk) {
		c.stdin.Write(chunk[:min(len(chunk), body-n)])
	}
	c.stdin.Write([]byte(tail))
}

func TestDiagnosticsCappedPerFile(t *testing.T) {
	const links = 1100
	var b strings.Builder
	b.WriteString("# Many\n\n")
	for i := range links {
		fmt.Fprintf(&b, "[x](missing-%d.md)\n\n", i)
	}
	root := writeFiles(t, map[string]string{"many.md": b.String()})
	many := filepath.Join(root, "many.md")
	c := start(t, nil)
	c.initialize(root, nil, nil)
	p, _ := c.awaitDiagnostics(0, fileURI(many), "diagnostics of many.md", nonEmpty)
	if len(p.Diagnostics) != maxDiagnostics+1 {
		t.Fatalf("published %d diagnostics, want %d and a summary", len(p.Diagnostics), maxDiagnostics)
	}
	for _, d := range p.Diagnostics[:maxDiagnostics] {
		if d.Code != "DOC_LINK_FILE" {
			t.Fatalf("a shown diagnostic is %+v, want DOC_LINK_FILE", d)
		}
	}
	summary := p.Diagnostics[maxDiagnostics]
	if !strings.Contains(summary.Message, fmt.Sprintf("%d more findings", links-maxDiagnostics)) || summary.Severity != 1 || summary.Range.Start.Line != 0 {
		t.Errorf("summary = %+v, want an error on line 0 counting %d more", summary, links-maxDiagnostics)
	}
	c.shutdown()

	// The command line still reports every finding.
	out, _ := exec.Command(binary, "check", root).Output()
	if got := strings.Count(string(out), "DOC_LINK_FILE"); got != links {
		t.Errorf("gddls check reports %d DOC_LINK_FILE, want %d", got, links)
	}
}

func TestWorkspaceEditVersions(t *testing.T) {
	files := map[string]string{
		"a.md": "# Alpha\n\nText.\n",
		"b.md": "# Beta\n\nSee [alpha](a.md#alpha).\n",
	}
	type edit struct {
		Changes         map[string]json.RawMessage `json:"changes"`
		DocumentChanges []struct {
			TextDocument struct {
				URI     string `json:"uri"`
				Version *int   `json:"version"`
			} `json:"textDocument"`
			Edits []json.RawMessage `json:"edits"`
		} `json:"documentChanges"`
	}
	rename := func(c *client, a string) edit {
		var e edit
		c.result("textDocument/rename", map[string]any{
			"textDocument": map[string]any{"uri": fileURI(a)},
			"position":     map[string]int{"line": 0, "character": 3},
			"newName":      "Omega",
		}, &e)
		return e
	}

	// With documentChanges: the open document's version, null for the
	// closed one.
	root := writeFiles(t, files)
	a, b := filepath.Join(root, "a.md"), filepath.Join(root, "b.md")
	c := start(t, hooks)
	c.initialize(root, fullCapabilities, nil)
	c.open(a, files["a.md"], 7)
	e := rename(c, a)
	if e.Changes != nil || len(e.DocumentChanges) != 2 {
		t.Fatalf("rename = %+v, want two document changes and no changes map", e)
	}
	versions := map[string]string{}
	for _, dc := range e.DocumentChanges {
		v := "null"
		if dc.TextDocument.Version != nil {
			v = fmt.Sprint(*dc.TextDocument.Version)
		}
		versions[dc.TextDocument.URI] = v
	}
	if versions[fileURI(a)] != "7" || versions[fileURI(b)] != "null" {
		t.Errorf("versions = %v, want 7 for the open a.md and null for the closed b.md", versions)
	}
	c.shutdown()

	// Without: changes keyed by URI.
	c = start(t, hooks)
	c.initialize(root, nil, nil)
	c.open(a, files["a.md"], 7)
	e = rename(c, a)
	if e.DocumentChanges != nil || len(e.Changes) != 2 {
		t.Errorf("rename = %+v, want a changes map of two files", e)
	}
	c.shutdown()
}
