package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/gddls/gddls/contracts/source"
)

func TestApplyChanges(t *testing.T) {
	rng := func(l1, c1, l2, c2 int) *wireRange {
		return &wireRange{Start: wirePosition{l1, c1}, End: wirePosition{l2, c2}}
	}
	tests := []struct {
		name    string
		text    string
		changes []contentChange
		want    string
	}{
		{"full text", "abc", []contentChange{{Text: []byte("xyz")}}, "xyz"},
		{"insert", "abc\ndef\n", []contentChange{{Range: rng(1, 1, 1, 1), Text: []byte("Z")}}, "abc\ndZef\n"},
		{"delete across lines", "abc\ndef\n", []contentChange{{Range: rng(0, 2, 1, 1), Text: []byte("")}}, "abef\n"},
		{"sequence", "abc", []contentChange{{Range: rng(0, 3, 0, 3), Text: []byte("d")}, {Range: rng(0, 0, 0, 1), Text: []byte("")}}, "bcd"},
		{"after e-acute", "é!x", []contentChange{{Range: rng(0, 2, 0, 3), Text: []byte("y")}}, "é!y"},
		{"after emoji (two units)", "😀ab", []contentChange{{Range: rng(0, 2, 0, 3), Text: []byte("X")}}, "😀Xb"},
		{"inside a surrogate pair stays before it", "😀ab", []contentChange{{Range: rng(0, 1, 0, 1), Text: []byte("X")}}, "X😀ab"},
		{"CRLF", "ab\r\ncd", []contentChange{{Range: rng(1, 0, 1, 1), Text: []byte("C")}}, "ab\r\nCd"},
		{"character past line end", "ab\ncd", []contentChange{{Range: rng(0, 99, 0, 99), Text: []byte("!")}}, "ab!\ncd"},
		{"line past end", "ab", []contentChange{{Range: rng(7, 0, 9, 0), Text: []byte("!")}}, "ab!"},
		{"negative", "ab", []contentChange{{Range: rng(-1, -5, 0, 1), Text: []byte("X")}}, "Xb"},
		{"reversed range", "abcd", []contentChange{{Range: rng(0, 3, 0, 1), Text: []byte("")}}, "ad"},
		{"empty document", "", []contentChange{{Range: rng(0, 0, 0, 0), Text: []byte("hi")}}, "hi"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(applyChanges("a.md", []byte(tt.text), tt.changes)); got != tt.want {
				t.Errorf("applyChanges(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestPathOf(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX paths")
	}
	tests := []struct {
		uri  string
		want string
		ok   bool
	}{
		{"file:///tmp/a.md", "/tmp/a.md", true},
		{"file:///tmp/with%20space/%C3%A9.md", "/tmp/with space/é.md", true},
		{"file://localhost/tmp/a.md", "/tmp/a.md", true},
		{"file:///tmp/x/../a.md", "/tmp/a.md", true},
		{"untitled:Untitled-1", "", false},
		{"https://example.com/a.md", "", false},
		{"file://server/share/a.md", "", false},
		{"file:relative.md", "", false},
		{"%%%", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := pathOf(tt.uri)
		if got != tt.want || ok != tt.ok {
			t.Errorf("pathOf(%q) = %q, %v; want %q, %v", tt.uri, got, ok, tt.want, tt.ok)
		}
	}
	// A path survives the round trip through a URI.
	for _, p := range []string{"/tmp/a b/c#d.md", "/tmp/é/😀.json"} {
		if got, ok := pathOf(string(uriOf(p))); !ok || got != p {
			t.Errorf("pathOf(uriOf(%q)) = %q, %v", p, got, ok)
		}
	}
}

// TestPathOfWindows checks the URIs editors send on Windows; it runs under
// Wine in scripts/windows/test.sh.
func TestPathOfWindows(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("Windows paths")
	}
	tests := []struct {
		uri  string
		want string
		ok   bool
	}{
		{"file:///c%3A/Users/designer/pkg/contracts/x.json", `c:\Users\designer\pkg\contracts\x.json`, true},
		{"file:///C:/Users/designer/pkg/a.md", `C:\Users\designer\pkg\a.md`, true},
		{"file:///c%3A/My%20Game/%C3%A9.md", `c:\My Game\é.md`, true},
		{"file://localhost/c:/a.md", `c:\a.md`, true},
		{"file:///c%3A/x/../a.md", `c:\a.md`, true},
		{"file:///Users/a.md", "", false},
		{"file://server/share/a.md", "", false},
		{"untitled:Untitled-1", "", false},
	}
	for _, tt := range tests {
		got, ok := pathOf(tt.uri)
		if got != tt.want || ok != tt.ok {
			t.Errorf("pathOf(%q) = %q, %v; want %q, %v", tt.uri, got, ok, tt.want, tt.ok)
		}
	}
	// What the server sends back names the file VS Code opened.
	for _, u := range []string{"file:///c%3A/Users/a%20b/c%23d.md", "file:///d%3A/%C3%A9/x.json"} {
		p, ok := pathOf(u)
		if !ok {
			t.Errorf("pathOf(%q) failed", u)
			continue
		}
		back := string(uriOf(p))
		if a, b := mustVSCodePath(t, back), mustVSCodePath(t, u); a != b {
			t.Errorf("uriOf(pathOf(%q)) = %q, which VS Code opens as %q, not %q", u, back, a, b)
		}
	}
}

// mustVSCodePath returns the Windows path VS Code opens for u.
func mustVSCodePath(t *testing.T, u string) string {
	t.Helper()
	p, err := vscodePath(u, true)
	if err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	return p
}

func TestKindWanted(t *testing.T) {
	tests := []struct {
		kind string
		only []string
		want bool
	}{
		{"quickfix", nil, true},
		{"quickfix", []string{"quickfix"}, true},
		{"quickfix", []string{"refactor"}, false},
		{"refactor.rewrite", []string{"refactor"}, true},
		{"refactorx", []string{"refactor"}, false},
	}
	for _, tt := range tests {
		if got := kindWanted(tt.kind, tt.only); got != tt.want {
			t.Errorf("kindWanted(%q, %v) = %v, want %v", tt.kind, tt.only, got, tt.want)
		}
	}
}

func TestSpanRangeRoundTrip(t *testing.T) {
	lines := source.NewLines([]byte("a é😀 b\nline two"))
	for _, span := range []source.Span{{Start: 0, End: 1}, {Start: 2, End: 4}, {Start: 4, End: 8}, {Start: 9, End: 10}, {Start: 11, End: 19}} {
		r := spanRange(lines, span)
		back := spanOf(lines, wireRange{
			Start: wirePosition{int(r.Start.Line), int(r.Start.Character)},
			End:   wirePosition{int(r.End.Line), int(r.End.Character)},
		})
		if back != span {
			t.Errorf("span %v -> range %+v -> span %v", span, r, back)
		}
	}
}

func TestQueueOrder(t *testing.T) {
	q := newQueue(log.New(io.Discard, "", 0))
	go q.run()
	var got []int
	release := make(chan struct{})
	q.push(func() { <-release })
	for i := 0; i < 5; i++ {
		q.push(func() { got = append(got, i) })
	}
	q.push(func() { panic("an operation panics") })
	done := make(chan struct{})
	q.push(func() { got = append(got, 99); close(done) })
	select {
	case <-done:
		t.Fatal("an operation ran before the one ahead of it finished")
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the queue stopped after a panicking operation")
	}
	want := []int{0, 1, 2, 3, 4, 99}
	if len(got) != len(want) {
		t.Fatalf("applied %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("applied %v, want %v", got, want)
		}
	}
	q.close()
	if q.push(func() {}) {
		t.Error("push after close reported success")
	}
}

func TestStreamSkipsBadMessages(t *testing.T) {
	frame := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	input := "\r\n" + frame(`{not json`) +
		frame(`{"jsonrpc":"2.0","result":1}`) +
		"content-length: 2\r\nContent-Type: x\r\n\r\n{}" +
		frame(`{"jsonrpc":"2.0","id":7,"method":"a"}`) +
		frame(`{"jsonrpc":"2.0","method":"b"}`) +
		"Content-Length: 3\r\n\r\nab"
	var logs strings.Builder
	s := newStream(&pipe{r: strings.NewReader(input), w: io.Discard}, log.New(&logs, "", 0))
	var methods []string
	var err error
	for {
		var msg jsonrpc2.Message
		msg, _, err = s.Read(context.Background())
		if err != nil {
			break
		}
		if r, ok := msg.(jsonrpc2.Request); ok {
			methods = append(methods, r.Method())
		}
	}
	if got := strings.Join(methods, ","); got != "a,b" {
		t.Errorf("read methods %q, want a,b", got)
	}
	if err == nil || !strings.Contains(err.Error(), "body") {
		t.Errorf("a truncated body gave %v, want a read error", err)
	}
	if n := strings.Count(logs.String(), "skipping"); n != 3 {
		t.Errorf("logged %d skipped messages, want 3:\n%s", n, logs.String())
	}
}

func TestStreamHeaderErrors(t *testing.T) {
	for _, input := range []string{
		"Content-Length: x\r\n\r\n{}",
		"Content-Length: -4\r\n\r\n{}",
		"garbage\r\n\r\n",
		"Content-Type: x\r\n\r\n{}",
	} {
		s := newStream(&pipe{r: strings.NewReader(input), w: io.Discard}, log.New(io.Discard, "", 0))
		if _, _, err := s.Read(context.Background()); err == nil || errors.Is(err, io.EOF) {
			t.Errorf("Read(%q) = %v, want a header error", input, err)
		}
	}
	s := newStream(&pipe{r: strings.NewReader(""), w: io.Discard}, log.New(io.Discard, "", 0))
	if _, _, err := s.Read(context.Background()); !errors.Is(err, io.EOF) {
		t.Errorf("Read of an empty stream = %v, want io.EOF", err)
	}
}

// TestStreamReusesBodies: a message read before the next one keeps its
// method and params although the next body is read into the same buffer
// (jsonrpc2.DecodeMessage copies what it keeps).
func TestStreamReusesBodies(t *testing.T) {
	frame := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	first := `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"contentChanges":[{"text":"first text"}]}}`
	second := `{"jsonrpc":"2.0","method":"exit","params":{"overwritten":"overwritten-overwritten"}}`
	s := newStream(&pipe{r: strings.NewReader(frame(first) + frame(second)), w: io.Discard}, log.New(io.Discard, "", 0))
	m1, _, err := s.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Read(context.Background()); err != nil {
		t.Fatal(err)
	}
	r, ok := m1.(jsonrpc2.Request)
	if !ok || r.Method() != "textDocument/didChange" || string(r.Params()) != `{"contentChanges":[{"text":"first text"}]}` {
		t.Errorf("the first message after the second was read: %T %v", m1, m1)
	}
	if len(second) >= len(first) || cap(s.body) < len(first) {
		t.Errorf("the second message was not read into the first one's buffer (%d bytes)", cap(s.body))
	}
}
