package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gddls/gddls/analysis/analysistest"
)

// binary is the gddls executable built by TestMain; buildErr says why it
// could not be built, which fails every end-to-end test but lets the unit
// tests run.
var (
	binary   string
	buildErr error
)

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	if b := os.Getenv("GDDLS_TEST_BINARY"); b != "" {
		binary = b // a prebuilt server, for debugging
		return m.Run()
	}
	root, err := analysistest.ModuleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "gddls-lsp-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binary = filepath.Join(dir, "gddls")
	build := exec.Command("go", "build", "-o", binary, "./cmd/gddls")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		buildErr = fmt.Errorf("building gddls: %v\n%s", err, out)
	}
	return m.Run()
}

// timeout bounds every wait of the test client.
const timeout = 10 * time.Second

// message is any JSON-RPC message on the wire.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *wireError      `json:"error,omitempty"`
}

// wireError is a JSON-RPC error object.
type wireError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// client drives one gddls process over pipes.
type client struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *syncBuffer
	exited chan struct{}
	status int

	writeMu sync.Mutex
	mu      sync.Mutex
	nextID  int
	pending map[string]chan message
	inbox   []message // notifications and server requests, in arrival order
	arrived chan struct{}
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// start runs gddls with args and the given extra environment.
func start(t *testing.T, env []string, args ...string) *client {
	t.Helper()
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), env...)
	return startCmd(t, cmd)
}

// startCmd runs cmd, a gddls server, and returns the client that drives it.
func startCmd(t *testing.T, cmd *exec.Cmd) *client {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &client{
		t: t, cmd: cmd, stdin: stdin, stderr: &syncBuffer{},
		exited:  make(chan struct{}),
		pending: map[string]chan message{},
		arrived: make(chan struct{}, 1),
	}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go c.read(bufio.NewReader(stdout))
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-c.exited:
		case <-time.After(2 * time.Second):
			cmd.Process.Kill()
			<-c.exited
		}
		if t.Failed() {
			t.Logf("server log:\n%s", c.stderr.String())
		}
	})
	return c
}

// read decodes frames until the stream ends, then waits for the process.
func (c *client) read(r *bufio.Reader) {
	defer func() {
		err := c.cmd.Wait()
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			c.status = exit.ExitCode()
		case err != nil:
			c.status = -1
		}
		close(c.exited)
	}()
	for {
		length := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				length, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if length < 0 {
			return
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			continue
		}
		switch {
		case m.Method != "" && m.ID != nil: // a request from the server
			c.push(m)
			c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
		case m.Method != "":
			c.push(m)
		default:
			c.mu.Lock()
			ch := c.pending[string(m.ID)]
			delete(c.pending, string(m.ID))
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		}
	}
}

func (c *client) push(m message) {
	c.mu.Lock()
	c.inbox = append(c.inbox, m)
	c.mu.Unlock()
	select {
	case c.arrived <- struct{}{}:
	default:
	}
}

// send writes one framed message.
func (c *client) send(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		c.t.Errorf("encoding message: %v", err)
		return
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n%s", len(data), data)
}

// sendRaw writes one frame holding body as it is.
func (c *client) sendRaw(body string) {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

// callAsync sends a request and returns its id and the channel of its
// response.
func (c *client) callAsync(method string, params any) (int, chan message) {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan message, 1)
	c.pending[strconv.Itoa(id)] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return id, ch
}

// wait returns the response on ch or fails the test after the timeout.
func (c *client) wait(method string, ch chan message) message {
	c.t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(timeout):
		c.t.Fatalf("no response to %s within %v", method, timeout)
		return message{}
	}
}

// call sends a request and waits for its response.
func (c *client) call(method string, params any) message {
	c.t.Helper()
	_, ch := c.callAsync(method, params)
	return c.wait(method, ch)
}

// result calls and decodes the result, failing on an error response.
func (c *client) result(method string, params, out any) {
	c.t.Helper()
	m := c.call(method, params)
	if m.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
	}
	if out != nil {
		if err := json.Unmarshal(m.Result, out); err != nil {
			c.t.Fatalf("%s: decoding result %s: %v", method, m.Result, err)
		}
	}
}

// notify sends a notification.
func (c *client) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// mark returns the current inbox position, to wait only for later
// messages.
func (c *client) mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.inbox)
}

// await returns the first message at or after position from that
// satisfies ok, and the position after it, failing after the timeout.
func (c *client) await(from int, what string, ok func(message) bool) (message, int) {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		c.mu.Lock()
		for i := from; i < len(c.inbox); i++ {
			if ok(c.inbox[i]) {
				m := c.inbox[i]
				c.mu.Unlock()
				return m, i + 1
			}
		}
		c.mu.Unlock()
		select {
		case <-c.arrived:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s", what)
			return message{}, from
		}
	}
}

// since returns the messages received at or after position from.
func (c *client) since(from int) []message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]message(nil), c.inbox[from:]...)
}

// underWine reports that the tests run under Wine (scripts/windows/test.sh
// says so through GDDLS_TEST_UNDER_WINE).
var underWine = os.Getenv("GDDLS_TEST_UNDER_WINE") == "1"

// wineExitGrace is how long waitExit waits under Wine for a server that
// has logged its exit to end. Wine 8 sometimes never finishes tearing
// down a process whose Go program has called os.Exit (about one exit in
// twenty here, whether or not its input is closed); an editor kills such
// a server after its own grace, and so does the test, taking the status
// the server logged. docs/WINDOWS.md.
const wineExitGrace = 3 * time.Second

// loggedExit matches the server's log line of the status it exits with.
var loggedExit = regexp.MustCompile(`exiting with status (\d+)`)

// waitExit waits for the process to end and returns its status.
func (c *client) waitExit() int {
	c.t.Helper()
	if underWine {
		select {
		case <-c.exited:
			return c.status
		case <-time.After(wineExitGrace):
		}
		if m := loggedExit.FindStringSubmatch(c.stderr.String()); m != nil {
			c.t.Logf("under Wine: the server logged its exit but its process had not ended after %v; killing it", wineExitGrace)
			c.cmd.Process.Kill()
			<-c.exited
			status, _ := strconv.Atoi(m[1])
			return status
		}
	}
	select {
	case <-c.exited:
		return c.status
	case <-time.After(timeout):
		c.t.Fatal("the server did not exit")
		return -1
	}
}

// awaitLog waits until the server's log contains all of the substrings and
// reports whether it did. The log arrives through its own pipe, so it may
// trail the responses.
func (c *client) awaitLog(subs ...string) bool {
	deadline := time.Now().Add(timeout)
	for {
		log := c.stderr.String()
		all := true
		for _, s := range subs {
			all = all && strings.Contains(log, s)
		}
		if all {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}
