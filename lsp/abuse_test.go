package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gddls/gddls/analysis/analysistest"
)

// The tests of this file abuse the server end to end: edit storms, stale
// and out-of-order notifications, malformed params for every request,
// cancellation of every request, clients that vanish, and many edits of
// one document. Every wait is bounded; none asserts how fast anything is.

// fastDiagnostics is the initializationOptions of a short debounce.
var fastDiagnostics = map[string]any{"gddls": map[string]any{"diagnosticsDelay": 10}}

// diagKeys renders the findings of a publication as sorted strings that
// compare code, range, severity and message.
func diagKeys(p publication) []string {
	out := make([]string, 0, len(p.Diagnostics))
	for _, d := range p.Diagnostics {
		out = append(out, fmt.Sprintf("%s@%d:%d-%d:%d/%d %s", d.Code,
			d.Range.Start.Line, d.Range.Start.Character, d.Range.End.Line, d.Range.End.Character, d.Severity, d.Message))
	}
	slices.Sort(out)
	return out
}

// settle asks the server to publish everything it has received (the
// gddls/test.flush hook answers after its notifications) and returns the
// last publication for u at or after from, and whether there was one.
func (c *client) settle(from int, u string) (publication, bool) {
	c.t.Helper()
	c.result("gddls/test.flush", nil, nil)
	ps := c.publications(from)[u]
	if len(ps) == 0 {
		return publication{}, false
	}
	return ps[len(ps)-1], true
}

// settleAll flushes as settle does and returns the last publication of
// every URI at or after from.
func (c *client) settleAll(from int) map[string]publication {
	c.t.Helper()
	c.result("gddls/test.flush", nil, nil)
	out := map[string]publication{}
	for u, ps := range c.publications(from) {
		out[u] = ps[len(ps)-1]
	}
	return out
}

// findings returns the findings currently published for u: those of the
// last publication since the start of the session, none if there was none.
func (c *client) findings(u string) []string {
	c.t.Helper()
	p, _ := c.settle(0, u)
	return diagKeys(p)
}

// expectOnce re-registers a response channel for an id that was already
// answered, so that a second answer is caught instead of dropped.
func (c *client) expectOnce(id int) chan message {
	ch := make(chan message, 8)
	c.mu.Lock()
	c.pending[strconv.Itoa(id)] = ch
	c.mu.Unlock()
	return ch
}

// demoSession starts a server on a copy of the demo package and waits for
// its first diagnostics.
func demoSession(t *testing.T) (*client, string) {
	t.Helper()
	root := copyDemo(t)
	c := start(t, hooks)
	c.initialize(root, nil, fastDiagnostics)
	garden := filepath.Join(root, "contracts", "garden-away.json")
	c.awaitDiagnostics(0, fileURI(garden), "initial diagnostics of garden-away.json", nonEmpty)
	return c, root
}

// readFile returns the content of a file or fails the test.
func readFile(t *testing.T, path string) string {
	t.Helper()
	return analysistest.ReadFile(t, path)
}

// TestAbuseEditStorm sends a thousand incremental edits without waiting,
// alternately breaking and repairing a chapter's citation or an
// adoption's answer. A request then sees the final text, the last
// publication matches the final text's findings, and the server answers.
func TestAbuseEditStorm(t *testing.T) {
	for _, tc := range []struct {
		name, file, needle string
		delta              int // byte offset of the replaced character in needle
	}{
		{"chapter", "02-mechanics.md", "`forage.turns_per_day`", len("`forage.turns_per_da")},
		{"adoption", "contracts/daily-forage.json", `"divergence-response": "continue-and-flag"`, len(`"divergence-response": "continu`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, root := demoSession(t)
			path := filepath.Join(root, filepath.FromSlash(tc.file))
			u := fileURI(path)
			orig := readFile(t, path)
			pos := posOf(t, path, tc.needle, tc.delta)
			at := strings.Index(orig, tc.needle) + tc.delta
			good := orig[at : at+1]
			rng := []int{pos["line"], pos["character"], pos["line"], pos["character"] + 1}
			broken := orig[:at] + "Q" + orig[at+1:]

			c.open(path, orig, 1)
			clean := c.findings(u)
			mark := c.mark()
			c.change(path, 2, rng, "Q")
			if got := c.content(path); got != broken {
				t.Fatalf("content after breaking = %q", got)
			}
			p, ok := c.settle(mark, u)
			bad := diagKeys(p)
			if !ok || slices.Equal(bad, clean) {
				t.Fatalf("replacing %q by Q in %s published no new finding (clean %v, broken %v)", good, tc.file, clean, bad)
			}
			mark = c.mark()
			c.change(path, 3, rng, good)
			if p, _ := c.settle(mark, u); !slices.Equal(diagKeys(p), clean) {
				t.Fatalf("repairing the edit published %v, want %v", diagKeys(p), clean)
			}

			// The storm: versions 4 to 1003, odd ones broken, so the
			// final text is broken and differs from the text before it.
			mark = c.mark()
			const last = 1003
			for v := 4; v <= last; v++ {
				text := good
				if v%2 == 1 {
					text = "Q"
				}
				c.change(path, v, rng, text)
			}
			if got := c.content(path); got != broken {
				t.Fatalf("after the storm a request saw %q, want the broken text", got)
			}
			p, ok = c.settle(mark, u)
			if !ok {
				t.Fatalf("no publication for %s after the storm", tc.file)
			}
			if got := diagKeys(p); !slices.Equal(got, bad) {
				t.Errorf("last publication after the storm = %v, want the broken text's findings %v", got, bad)
			}
			if p.Version > last || p.Version < 5 || p.Version%2 != 1 {
				t.Errorf("last publication has version %d, want a broken version up to %d", p.Version, last)
			}
			var syms []any
			c.result("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
			if len(syms) == 0 {
				t.Errorf("no document symbols after the storm")
			}
			c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": pos}, nil)
			c.shutdown()
		})
	}
}

// TestAbuseOutOfOrderNotifications covers notifications about documents
// in the wrong state; a stale version is covered by
// TestStaleVersionIgnored.
func TestAbuseOutOfOrderNotifications(t *testing.T) {
	c, root := demoSession(t)
	mech := filepath.Join(root, "02-mechanics.md")
	disk := readFile(t, mech)

	// A change to a document that was never opened is ignored: the
	// workspace keeps the disk content.
	c.change(mech, 7, []int{0, 0, 0, 0}, "never opened ")
	c.change(mech, 8, nil, "whole text of a document never opened\n")
	if got := c.content(mech); got != disk {
		t.Errorf("a change to an unopened document reached the workspace: %.60q", got)
	}
	if !c.awaitLog("not open") {
		t.Errorf("the change to an unopened document was not logged")
	}
	// Closing a document that was never opened is harmless.
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}})
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(filepath.Join(root, "nowhere.md"))}})
	if got := c.content(mech); got != disk {
		t.Errorf("closing an unopened document changed its content: %.60q", got)
	}
	// Opening twice: the second open replaces text and version.
	c.open(mech, "# First\n", 4)
	c.open(mech, "# Second\n", 2)
	if got := c.content(mech); got != "# Second\n" {
		t.Errorf("after two opens the content is %q, want the second", got)
	}
	c.change(mech, 3, []int{0, 2, 0, 8}, "Third")
	if got := c.content(mech); got != "# Third\n" {
		t.Errorf("a change after the second open gave %q, want %q", got, "# Third\n")
	}
	// Closing once reverts to disk; a second close changes nothing.
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}})
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}})
	if got := c.content(mech); got != disk {
		t.Errorf("after closing twice the content is %.60q, want the disk content", got)
	}
	// A change after the close is again a change to an unopened document.
	c.change(mech, 9, nil, "late\n")
	if got := c.content(mech); got != disk {
		t.Errorf("a change after close reached the workspace: %.60q", got)
	}
	c.result("workspace/symbol", map[string]any{"query": "Brewing"}, nil)
	c.shutdown()
}

// requestKinds are the request methods the server supports.
var requestKinds = []string{
	"textDocument/completion", "textDocument/hover", "textDocument/definition",
	"textDocument/references", "textDocument/rename", "textDocument/prepareRename",
	"textDocument/documentSymbol", "workspace/symbol", "textDocument/codeAction",
	"textDocument/codeLens", "textDocument/documentLink", "workspace/executeCommand",
}

// paramsFor builds the params of method from a document value and a
// position value, either of which may be malformed.
func paramsFor(method string, doc, pos any) map[string]any {
	switch method {
	case "workspace/symbol":
		return map[string]any{"query": "brew"}
	case "workspace/executeCommand":
		var arg any = doc
		if m, ok := doc.(map[string]any); ok {
			arg = m["uri"]
		}
		return map[string]any{"command": RenderTestsCommand, "arguments": []any{arg}}
	case "textDocument/documentSymbol", "textDocument/codeLens", "textDocument/documentLink":
		return map[string]any{"textDocument": doc}
	case "textDocument/codeAction":
		return map[string]any{"textDocument": doc, "range": map[string]any{"start": pos, "end": pos},
			"context": map[string]any{"diagnostics": []any{map[string]any{"code": "X", "message": "m", "range": map[string]any{"start": pos, "end": pos}}}}}
	case "textDocument/references":
		return map[string]any{"textDocument": doc, "position": pos, "context": map[string]any{"includeDeclaration": true}}
	case "textDocument/rename":
		return map[string]any{"textDocument": doc, "position": pos, "newName": "renamed"}
	}
	return map[string]any{"textDocument": doc, "position": pos}
}

// sensible reports whether a response is a result or an error that blames
// the params or the request, not the server.
func sensible(m message) bool {
	return m.Error == nil || m.Error.Code == -32602 || m.Error.Code == int(codeRequestFailed)
}

// TestAbuseMalformedParams sends malformed params of every kind to every
// request; each gets a result or an InvalidParams/RequestFailed error and
// the server keeps serving.
func TestAbuseMalformedParams(t *testing.T) {
	c, root := demoSession(t)
	mech := filepath.Join(root, "02-mechanics.md")
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	outside := writeFiles(t, map[string]string{"stray.md": "# Stray\n\n[x](gone.md)\n", "stray.json": `{"contract": "x"}`})
	c.open(mech, readFile(t, mech), 1)
	tuning := filepath.Join(root, "tuning.json")
	good := map[string]int{"line": 7, "character": 12}
	heading := posOf(t, mech, "### Brewing", 5)
	key := posOf(t, tuning, `"forage.turns_per_day"`, 3)

	type variant struct {
		name   string
		params func(method string) any
	}
	with := func(doc, pos any) func(string) any {
		return func(method string) any { return paramsFor(method, doc, pos) }
	}
	constant := func(v any) func(string) any { return func(string) any { return v } }
	variants := []variant{
		{"null", constant(nil)},
		{"string", constant("not params")},
		{"array", constant([]any{1, "two", nil})},
		{"number", constant(-12.5)},
		{"empty object", constant(map[string]any{})},
		{"missing textDocument", func(method string) any {
			p := paramsFor(method, nil, good)
			delete(p, "textDocument")
			return p
		}},
		{"textDocument is a string", with(fileURI(mech), good)},
		{"uri is a number", with(map[string]any{"uri": 12}, good)},
		{"uri is null", with(map[string]any{"uri": nil}, good)},
		{"empty uri", with(map[string]any{"uri": ""}, good)},
		{"untitled uri", with(map[string]any{"uri": "untitled:x"}, good)},
		{"garbage uri", with(map[string]any{"uri": "%%zz::\x00"}, good)},
		{"relative file uri", with(map[string]any{"uri": "file:relative/02-mechanics.md"}, good)},
		{"remote file uri", with(map[string]any{"uri": "file://elsewhere/x.md"}, good)},
		{"outside the workspace", with(map[string]any{"uri": fileURI(filepath.Join(outside, "stray.md"))}, good)},
		{"outside the workspace json", with(map[string]any{"uri": fileURI(filepath.Join(outside, "stray.json"))}, good)},
		{"missing file", with(map[string]any{"uri": fileURI(filepath.Join(root, "absent.md"))}, good)},
		{"directory", with(map[string]any{"uri": fileURI(filepath.Join(root, "contracts"))}, good)},
		{"past the end of a line", with(map[string]any{"uri": fileURI(mech)}, map[string]int{"line": 7, "character": 100000})},
		{"past the end of the file", with(map[string]any{"uri": fileURI(mech)}, map[string]int{"line": 100000, "character": 3})},
		{"past the end of a json file", with(map[string]any{"uri": fileURI(cauldron)}, map[string]int{"line": 1 << 30, "character": 1 << 30})},
		{"negative line", with(map[string]any{"uri": fileURI(mech)}, map[string]int{"line": -1, "character": 4})},
		{"negative character", with(map[string]any{"uri": fileURI(cauldron)}, map[string]int{"line": 3, "character": -7})},
		{"huge numbers", with(map[string]any{"uri": fileURI(mech)}, map[string]float64{"line": 1e300, "character": -1e300})},
		{"fractional position", with(map[string]any{"uri": fileURI(mech)}, map[string]float64{"line": 1.5, "character": 0.25})},
		{"position is a string", with(map[string]any{"uri": fileURI(mech)}, "7:12")},
		{"position is null", with(map[string]any{"uri": fileURI(mech)}, nil)},
		{"position fields are strings", with(map[string]any{"uri": fileURI(mech)}, map[string]any{"line": "7", "character": "12"})},
	}
	// Method-specific malformations.
	extra := map[string][]any{
		"workspace/symbol": {
			map[string]any{"query": 12}, map[string]any{"query": nil}, map[string]any{"query": strings.Repeat("(*", 500)},
		},
		"workspace/executeCommand": {
			map[string]any{"command": nil}, map[string]any{"command": 7, "arguments": "x"},
			map[string]any{"command": RenderTestsCommand}, map[string]any{"command": RenderTestsCommand, "arguments": nil},
			map[string]any{"command": RenderTestsCommand, "arguments": []any{1, 2}},
			map[string]any{"command": RenderTestsCommand, "arguments": []any{map[string]any{"uri": fileURI(cauldron)}}},
			map[string]any{"command": RenderTestsCommand, "arguments": []any{fileURI(mech)}},
			map[string]any{"command": RenderTestsCommand, "arguments": []any{fileURI(root)}},
		},
		"textDocument/rename": {
			map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}, "position": heading, "newName": 5},
			map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}, "position": heading, "newName": ""},
			map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}, "position": heading, "newName": "   "},
			map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}, "position": heading, "newName": "a\nb\x00c"},
			map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}, "position": heading, "newName": strings.Repeat("#", 10000)},
			map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}, "position": heading},
			map[string]any{"textDocument": map[string]any{"uri": fileURI(tuning)}, "position": key, "newName": ""},
			map[string]any{"textDocument": map[string]any{"uri": fileURI(tuning)}, "position": key, "newName": "has space"},
			map[string]any{"textDocument": map[string]any{"uri": fileURI(tuning)}, "position": key, "newName": `quo"te`},
			map[string]any{"textDocument": map[string]any{"uri": fileURI(tuning)}, "position": key},
		},
		"textDocument/prepareRename": {
			map[string]any{"textDocument": map[string]any{"uri": fileURI(tuning)}, "position": key, "newName": 5},
		},
		"textDocument/codeAction": {
			map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}, "range": "all", "context": nil},
			map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}, "range": map[string]any{"start": good, "end": good}, "context": map[string]any{"diagnostics": "x"}},
			map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}, "range": map[string]any{"start": good, "end": good}, "context": map[string]any{"diagnostics": []any{nil, 3, "x", map[string]any{"code": []int{1}}}, "only": []any{nil}}},
			map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}, "range": map[string]any{"start": map[string]int{"line": 1 << 20}, "end": map[string]int{"line": -5}}},
		},
		"textDocument/references": {
			map[string]any{"textDocument": map[string]any{"uri": fileURI(mech)}, "position": good, "context": "yes"},
		},
	}
	n := 0
	codes := map[int]int{} // responses by error code, 0 for a result
	for _, method := range requestKinds {
		var cases []struct {
			name   string
			params any
		}
		for _, v := range variants {
			cases = append(cases, struct {
				name   string
				params any
			}{v.name, v.params(method)})
		}
		for i, p := range extra[method] {
			cases = append(cases, struct {
				name   string
				params any
			}{fmt.Sprintf("special %d", i), p})
		}
		for _, tc := range cases {
			m := c.call(method, tc.params)
			n++
			codes[errorCode(m)]++
			if !sensible(m) {
				t.Errorf("%s with %s: error %d %s, want a result, -32602 or -32803", method, tc.name, m.Error.Code, m.Error.Message)
			}
		}
	}
	// Params that are not JSON-RPC params at all, sent raw.
	for i, body := range []string{
		`{"jsonrpc":"2.0","id":"raw-1","method":"textDocument/hover","params":"\u0000"}`,
		`{"jsonrpc":"2.0","id":"raw-2","method":"textDocument/hover","params":true}`,
		`{"jsonrpc":"2.0","id":"raw-3","method":"textDocument/hover"}`,
	} {
		ch := make(chan message, 1)
		c.mu.Lock()
		c.pending[strconv.Quote(fmt.Sprintf("raw-%d", i+1))] = ch
		c.mu.Unlock()
		c.sendRaw(body)
		if m := c.wait("raw hover", ch); !sensible(m) {
			t.Errorf("raw hover %d: error %+v", i+1, m.Error)
		}
	}
	t.Logf("%d malformed requests answered; responses by error code (0: result): %v", n, codes)
	var syms []any
	c.result("workspace/symbol", map[string]any{"query": "Brewing"}, &syms)
	if len(syms) == 0 {
		t.Errorf("no workspace symbols after the malformed requests")
	}
	c.shutdown()
	if log := c.stderr.String(); strings.Contains(log, "panic") {
		t.Errorf("the server panicked on malformed params; log:\n%s", log)
	}
}

// goodRequests returns well-formed params of every request kind on the
// demo package.
func goodRequests(t *testing.T, root string) map[string]any {
	mech := filepath.Join(root, "02-mechanics.md")
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	forage := filepath.Join(root, "contracts", "daily-forage.json")
	citation := posOf(t, cauldron, `"02-mechanics.md#brewing"`, len(`"02-mechanics.md#br`))
	heading := posOf(t, mech, "### Brewing", 5)
	doc := func(p string) map[string]any { return map[string]any{"uri": fileURI(p)} }
	return map[string]any{
		"textDocument/completion":     map[string]any{"textDocument": doc(cauldron), "position": posOf(t, cauldron, `"02-mechanics.md#brewing"`, len(`"02-mechanics.md#`))},
		"textDocument/hover":          map[string]any{"textDocument": doc(cauldron), "position": citation},
		"textDocument/definition":     map[string]any{"textDocument": doc(cauldron), "position": citation},
		"textDocument/references":     map[string]any{"textDocument": doc(mech), "position": heading, "context": map[string]any{"includeDeclaration": true}},
		"textDocument/rename":         map[string]any{"textDocument": doc(mech), "position": heading, "newName": "Simmering"},
		"textDocument/prepareRename":  map[string]any{"textDocument": doc(mech), "position": heading},
		"textDocument/documentSymbol": map[string]any{"textDocument": doc(cauldron)},
		"workspace/symbol":            map[string]any{"query": ""},
		"textDocument/codeAction":     map[string]any{"textDocument": doc(cauldron), "range": map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 900, "character": 0}}, "context": map[string]any{"diagnostics": []any{}}},
		"textDocument/codeLens":       map[string]any{"textDocument": doc(forage)},
		"textDocument/documentLink":   map[string]any{"textDocument": doc(cauldron)},
		"workspace/executeCommand":    map[string]any{"command": RenderTestsCommand, "arguments": []any{fileURI(forage)}},
	}
}

// TestAbuseCancelEveryRequest cancels every kind of request right after
// sending it. Each id is answered exactly once, with the result the
// request would have had or with RequestCancelled, and the server keeps
// serving.
func TestAbuseCancelEveryRequest(t *testing.T) {
	c, root := demoSession(t)
	reqs := goodRequests(t, root)
	// The error code each request has when it is not cancelled.
	baseline := map[string]int{}
	for _, method := range requestKinds {
		baseline[method] = errorCode(c.call(method, reqs[method]))
	}
	type sent struct {
		method string
		id     int
		ch     chan message
	}
	var all []sent
	const rounds = 5
	for r := 0; r < rounds; r++ {
		for _, method := range append(slices.Clone(requestKinds), "gddls/test.block") {
			params := reqs[method]
			if params == nil {
				params = map[string]any{}
			}
			id, ch := c.callAsync(method, params)
			c.notify("$/cancelRequest", map[string]any{"id": id})
			all = append(all, sent{method, id, ch})
		}
	}
	counts := map[string]int{}
	var again []chan message
	for _, s := range all {
		m := c.wait(s.method, s.ch)
		again = append(again, c.expectOnce(s.id))
		code := errorCode(m)
		switch {
		case code == -32800:
			counts["cancelled"]++
		case s.method == "gddls/test.block":
			t.Errorf("cancelled gddls/test.block: error %d, result %s; want -32800", code, m.Result)
		case code == baseline[s.method]:
			counts["answered"]++
		default:
			t.Errorf("cancelled %s: error %d (%v), want -32800 or the uncancelled answer's %d", s.method, code, m.Error, baseline[s.method])
		}
	}
	t.Logf("%d requests: %d cancelled, %d answered", len(all), counts["cancelled"], counts["answered"])
	var syms []any
	c.result("workspace/symbol", map[string]any{"query": "Brewing"}, &syms)
	if len(syms) == 0 {
		t.Errorf("no workspace symbols after the cancellations")
	}
	c.shutdown() // the process has exited: every message it wrote was read
	for i, ch := range again {
		if len(ch) > 0 {
			t.Errorf("%s (id %d) was answered more than once", all[i].method, all[i].id)
		}
	}
}

// waitGone waits a few seconds for the process to exit and returns its
// status; a process that does not exit is killed and fails the test.
func waitGone(t *testing.T, exited <-chan struct{}, kill func(), status func() int) int {
	t.Helper()
	select {
	case <-exited:
		return status()
	case <-time.After(5 * time.Second):
		kill()
		t.Fatalf("the server did not exit within 5s after its client went away")
		return -1
	}
}

// TestAbuseClientVanishes closes the server's input while requests are in
// flight. The server exits at once with status 1 (the session did not
// shut down), or 0 when shutdown had been answered, as Serve documents.
func TestAbuseClientVanishes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		shutdown bool
		want     int
	}{
		{"requests in flight", false, 1},
		{"after shutdown", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, root := demoSession(t)
			reqs := goodRequests(t, root)
			if tc.shutdown {
				c.result("shutdown", nil, nil)
			}
			for i := 0; i < 3; i++ {
				c.callAsync("gddls/test.block", map[string]any{})
				for _, method := range requestKinds {
					c.callAsync(method, reqs[method])
				}
			}
			c.stdin.Close()
			got := waitGone(t, c.exited, func() { c.cmd.Process.Kill() }, func() int { return c.status })
			t.Logf("exit status after stdin closed: %d", got)
			if got != tc.want {
				t.Errorf("exit status = %d, want %d", got, tc.want)
			}
		})
	}
}

// rawServer is a server process whose pipes the test holds directly, so
// that it can close the reading end of the server's output too.
type rawServer struct {
	cmd    *exec.Cmd
	in     *os.File // the client's end of the server's stdin
	out    *os.File // the client's end of the server's stdout
	log    *syncBuffer
	exited chan struct{}
	status int
}

func startRaw(t *testing.T) *rawServer {
	t.Helper()
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{cmd: exec.Command(binary), in: inW, out: outR, log: &syncBuffer{}, exited: make(chan struct{})}
	s.cmd.Env = append(os.Environ(), hooks...)
	s.cmd.Stdin, s.cmd.Stdout, s.cmd.Stderr = inR, outW, s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	go func() {
		s.cmd.Wait()
		s.status = s.cmd.ProcessState.ExitCode() // -1 when killed by a signal
		close(s.exited)
	}()
	t.Cleanup(func() {
		s.in.Close()
		s.out.Close()
		select {
		case <-s.exited:
		case <-time.After(2 * time.Second):
			s.cmd.Process.Kill()
			<-s.exited
		}
		if t.Failed() {
			t.Logf("server log:\n%s", s.log.String())
		}
	})
	return s
}

// send writes one framed message; errors are ignored because the test may
// have broken the pipes on purpose.
func (s *rawServer) send(v any) {
	data, _ := json.Marshal(v)
	fmt.Fprintf(s.in, "Content-Length: %d\r\n\r\n%s", len(data), data)
}

// initialize sends initialize and waits for its response.
func (s *rawServer) initialize(t *testing.T, root string) {
	t.Helper()
	s.send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"rootUri": fileURI(root), "capabilities": map[string]any{}}})
	s.out.SetReadDeadline(time.Now().Add(timeout))
	r := bufio.NewReader(s.out)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the initialize response: %v", err)
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Content-Length:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			r.ReadString('\n')
			body := make([]byte, n)
			if _, err := io.ReadFull(r, body); err != nil {
				t.Fatalf("reading the initialize response: %v", err)
			}
			if !strings.Contains(string(body), `"capabilities"`) {
				t.Fatalf("initialize answered %s", body)
			}
			break
		}
	}
	s.send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
}

// TestAbuseClientKilled breaks both pipes after initialize, as a crashed
// client does, and also only the server's output while its input stays
// open. Either way the server exits within seconds; the status is logged.
func TestAbuseClientKilled(t *testing.T) {
	t.Run("both pipes", func(t *testing.T) {
		s := startRaw(t)
		s.initialize(t, copyDemo(t))
		s.send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "gddls/test.block", "params": map[string]any{}})
		s.send(map[string]any{"jsonrpc": "2.0", "id": 3, "method": "workspace/symbol", "params": map[string]any{"query": ""}})
		s.out.Close()
		s.in.Close()
		got := waitGone(t, s.exited, func() { s.cmd.Process.Kill() }, func() int { return s.status })
		t.Logf("exit status after both pipes closed: %d (%v)", got, s.cmd.ProcessState)
	})
	t.Run("output only", func(t *testing.T) {
		s := startRaw(t)
		s.initialize(t, copyDemo(t))
		s.out.Close()
		// Every answer now fails to be written; the input stays open.
		for id := 2; id < 6; id++ {
			s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": "workspace/symbol", "params": map[string]any{"query": ""}})
		}
		got := waitGone(t, s.exited, func() { s.cmd.Process.Kill() }, func() int { return s.status })
		t.Logf("exit status after the output pipe closed: %d (%v)", got, s.cmd.ProcessState)
	})
}

// vmRSS returns the resident set size of a process in kB, from
// /proc/<pid>/status.
func vmRSS(t *testing.T, pid int) (int, bool) {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb, err == nil
		}
	}
	return 0, false
}

// TestAbuseMemoryBounded edits one document 2,000 times and checks the
// server's resident memory stays under a generous bound: a leak
// detector, not a speed test.
func TestAbuseMemoryBounded(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc on this system")
	}
	const boundMB = 300
	c, root := demoSession(t)
	content := filepath.Join(root, "03-content.md")
	text := readFile(t, content)
	c.open(content, text, 1)
	c.content(content)
	before, ok := vmRSS(t, c.cmd.Process.Pid)
	if !ok {
		t.Skip("cannot read VmRSS")
	}
	// Each pair of edits inserts a line citing a tuning key, then removes
	// it; the document ends as it began.
	line := "Cites `garden.plot_count` and `no.such_key` here.\n"
	for v := 2; v <= 2001; v++ {
		at := (v / 2) % 30
		if v%2 == 0 {
			c.change(content, v, []int{at, 0, at, 0}, line)
		} else {
			c.change(content, v, []int{at, 0, at + 1, 0}, "")
		}
		if v%500 == 0 {
			c.content(content) // let the server catch up now and then
		}
	}
	want := text // every inserted line was removed again
	if got := c.content(content); got != want {
		t.Fatalf("after 2000 edits the content is %q, want %q", got, want)
	}
	c.settle(0, fileURI(content))
	after, _ := vmRSS(t, c.cmd.Process.Pid)
	t.Logf("VmRSS %d MB after opening, %d MB after 2000 edits", before/1024, after/1024)
	if after > boundMB*1024 {
		t.Errorf("VmRSS after 2000 edits = %d MB, want under %d MB", after/1024, boundMB)
	}
	c.result("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": fileURI(content)}}, nil)
	c.shutdown()
}
