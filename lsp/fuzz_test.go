package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gddls/gddls/analysis/analysistest"
)

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// frame encodes one JSON-RPC message body with its header.
func frame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// FuzzServerMessages sends the server a session in which one request and
// one notification carry a fuzzed method and parameters, between a normal
// start and a normal end. Whatever they hold, the server must not panic
// (not even in a handler, where a panic would be recovered and logged) and
// must still shut down and exit with status 0.
func FuzzServerMessages(f *testing.F) {
	dir := f.TempDir()
	files := map[string]string{
		"manifest.json":   `{"opengdd": "0.9"}`,
		"tuning.json":     `{"values": {"lamp.oil": 3}}`,
		"02-mechanics.md": "# Mechanics\n\n## Lamp\n\nThe lamp burns `lamp.oil` units.\n",
		"contracts/lamp.json": `{"contract": "lamp", "version": 1, "summary": "s", "mechanism": ["m"], "questions": {},
  "declares": {"rows": {"r": {"record": {"id": {"type": "string", "required": true}, "c": {"type": "citation"}}}}},
  "answers": {}, "values": {}, "rows": {"r": [{"id": "a", "c": "02-mechanics.md#lamp"}]}}`,
	}
	analysistest.WriteFiles(f, dir, files)
	adoption := fileURI(filepath.Join(dir, "contracts", "lamp.json"))
	chapter := fileURI(filepath.Join(dir, "02-mechanics.md"))
	pos := func(uri string, line, char int) string {
		return fmt.Sprintf(`{"textDocument":{"uri":%q},"position":{"line":%d,"character":%d}}`, uri, line, char)
	}
	seeds := [][2]string{
		{"textDocument/completion", pos(adoption, 3, 62)},
		{"textDocument/hover", pos(chapter, 4, 18)},
		{"textDocument/definition", pos(adoption, 3, 62)},
		{"textDocument/references", `{"textDocument":{"uri":"` + chapter + `"},"position":{"line":2,"character":4},"context":{"includeDeclaration":true}}`},
		{"textDocument/rename", `{"textDocument":{"uri":"` + chapter + `"},"position":{"line":2,"character":4},"newName":"Lantern"}`},
		{"textDocument/prepareRename", pos(chapter, 2, 4)},
		{"textDocument/codeAction", `{"textDocument":{"uri":"` + adoption + `"},"range":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}},"context":{"diagnostics":[]}}`},
		{"textDocument/didChange", `{"textDocument":{"uri":"` + chapter + `","version":2},"contentChanges":[{"range":{"start":{"line":2,"character":3},"end":{"line":2,"character":7}},"text":"Lantern"}]}`},
		{"workspace/executeCommand", `{"command":"gddls.renderTests","arguments":["` + adoption + `"]}`},
		{"workspace/symbol", `{"query":"la"}`},
		{"textDocument/codeLens", `{"textDocument":{"uri":"` + adoption + `"}}`},
		{"textDocument/documentLink", `{"textDocument":{"uri":"` + chapter + `"}}`},
		{"textDocument/completion", `null`},
		{"$/cancelRequest", `{"id":2}`},
		{"textDocument/hover", `{"textDocument":{"uri":"` + chapter + `"},"position":{"line":-1,"character":1e9}}`},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	init := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":%q,"capabilities":{}}}`, fileURI(dir))
	open := fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"languageId":"markdown","version":1,"text":%s}}}`,
		chapter, mustJSON(files["02-mechanics.md"]))
	f.Fuzz(func(t *testing.T, method, params string) {
		m, _ := json.Marshal(method)
		var in strings.Builder
		in.WriteString(frame(init))
		in.WriteString(frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`))
		in.WriteString(frame(open))
		in.WriteString(frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":%s,"params":%s}`, m, params)))
		in.WriteString(frame(fmt.Sprintf(`{"jsonrpc":"2.0","method":%s,"params":%s}`, m, params)))
		in.WriteString(frame(`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`))
		in.WriteString(frame(`{"jsonrpc":"2.0","method":"exit"}`))
		var out, logs lockedBuffer
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		code := Serve(ctx, strings.NewReader(in.String()), &out, &logs, Options{Version: "fuzz"})
		if ctx.Err() != nil {
			t.Fatalf("the session did not end within 20 s; log:\n%s", logs.String())
		}
		if code != 0 {
			t.Fatalf("exit status %d after shutdown and exit; log:\n%s", code, logs.String())
		}
		if panicLine.MatchString(logs.String()) {
			t.Fatalf("a handler panicked; log:\n%s", logs.String())
		}
	})
}

// panicLine matches the log line of a recovered panic (and not a logged
// message that merely holds the word).
var panicLine = regexp.MustCompile(`(?m)^gddls: \S+ \S+ panic (in|handling) `)

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
