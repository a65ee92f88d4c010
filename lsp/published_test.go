package lsp

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gddls/gddls/analysis/analysistest"
)

// TestPublishedHook checks that Options.Published runs after a
// publication of diagnostics, which the binary's collector policy needs.
func TestPublishedHook(t *testing.T) {
	dir := t.TempDir()
	analysistest.WriteFiles(t, dir, map[string]string{"a.md": "# A\n\n[gone](missing.md)\n"})
	inR, inW := io.Pipe()
	var out, logs lockedBuffer
	var calls atomic.Int32
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		Serve(ctx, inR, &out, &logs, Options{Version: "test", Published: func() { calls.Add(1) }})
	}()
	send := func(msg string) { _, _ = io.WriteString(inW, frame(msg)) }
	send(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":%q,"capabilities":{}}}`, fileURI(dir)))
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	for calls.Load() == 0 && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	inW.Close()
	<-done
	if calls.Load() == 0 {
		t.Fatalf("Published was not called within 20 s; log:\n%s", logs.String())
	}
	if !strings.Contains(out.String(), "textDocument/publishDiagnostics") {
		t.Errorf("Published was called but no diagnostics were published; log:\n%s", logs.String())
	}
}
