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

// stuckInput is an input whose Close waits for the read in progress to
// end, as closing a pipe does on Windows when the read cannot be cancelled
// (Wine does not cancel it).
type stuckInput struct {
	*io.PipeReader
	release chan struct{}
}

func (s stuckInput) Close() error {
	<-s.release
	return s.PipeReader.Close()
}

// TestExitDoesNotWaitForInput checks that the server ends on exit while
// the client keeps its end of the input open and closing the input would
// wait for the pending read.
func TestExitDoesNotWaitForInput(t *testing.T) {
	inR, inW := io.Pipe()
	in := stuckInput{inR, make(chan struct{})}
	defer close(in.release)
	defer inW.Close()
	var out, logs lockedBuffer
	done := make(chan int, 1)
	go func() { done <- Serve(context.Background(), in, &out, &logs, Options{Version: "test"}) }()
	send := func(msg string) { _, _ = io.WriteString(inW, frame(msg)) }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`)
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit status %d after shutdown and exit, want 0", code)
		}
	case <-time.After(timeout):
		t.Fatalf("Serve did not return on exit while the input stayed open; log:\n%s", logs.String())
	}
}

// failingOutput is an output the client no longer reads.
type failingOutput struct{}

func (failingOutput) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// TestServerEndsWhenOutputFails checks that the server ends when it cannot
// write to its client while its input stays open, which on Windows nothing
// else would notice (Unix sends the process SIGPIPE).
func TestServerEndsWhenOutputFails(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	var logs lockedBuffer
	done := make(chan int, 1)
	go func() { done <- Serve(context.Background(), inR, failingOutput{}, &logs, Options{Version: "test"}) }()
	_, _ = io.WriteString(inW, frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`))
	select {
	case code := <-done:
		if code != 1 {
			t.Errorf("exit status %d when the output failed, want 1", code)
		}
	case <-time.After(timeout):
		t.Fatalf("Serve did not return when its output failed; log:\n%s", logs.String())
	}
}
