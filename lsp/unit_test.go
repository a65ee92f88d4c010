package lsp

import (
	"context"
	"io"
	"log"
	"runtime"
	"testing"
	"time"

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
		{"full text", "abc", []contentChange{{Text: "xyz"}}, "xyz"},
		{"insert", "abc\ndef\n", []contentChange{{Range: rng(1, 1, 1, 1), Text: "Z"}}, "abc\ndZef\n"},
		{"delete across lines", "abc\ndef\n", []contentChange{{Range: rng(0, 2, 1, 1), Text: ""}}, "abef\n"},
		{"sequence", "abc", []contentChange{{Range: rng(0, 3, 0, 3), Text: "d"}, {Range: rng(0, 0, 0, 1), Text: ""}}, "bcd"},
		{"after e-acute", "é!x", []contentChange{{Range: rng(0, 2, 0, 3), Text: "y"}}, "é!y"},
		{"after emoji (two units)", "😀ab", []contentChange{{Range: rng(0, 2, 0, 3), Text: "X"}}, "😀Xb"},
		{"inside a surrogate pair stays before it", "😀ab", []contentChange{{Range: rng(0, 1, 0, 1), Text: "X"}}, "X😀ab"},
		{"CRLF", "ab\r\ncd", []contentChange{{Range: rng(1, 0, 1, 1), Text: "C"}}, "ab\r\nCd"},
		{"character past line end", "ab\ncd", []contentChange{{Range: rng(0, 99, 0, 99), Text: "!"}}, "ab!\ncd"},
		{"line past end", "ab", []contentChange{{Range: rng(7, 0, 9, 0), Text: "!"}}, "ab!"},
		{"negative", "ab", []contentChange{{Range: rng(-1, -5, 0, 1), Text: "X"}}, "Xb"},
		{"reversed range", "abcd", []contentChange{{Range: rng(0, 3, 0, 1), Text: ""}}, "ad"},
		{"empty document", "", []contentChange{{Range: rng(0, 0, 0, 0), Text: "hi"}}, "hi"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(applyChanges([]byte(tt.text), tt.changes)); got != tt.want {
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

func TestQueueOrderAndWait(t *testing.T) {
	q := newQueue(log.New(io.Discard, "", 0))
	go q.run()
	defer q.close()
	var got []int
	release := make(chan struct{})
	q.push(func() { <-release })
	for i := 0; i < 5; i++ {
		q.push(func() { got = append(got, i) })
	}
	q.push(func() { panic("an operation panics") })
	seq := q.push(func() { got = append(got, 99) })

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := q.wait(ctx, seq); err == nil {
		t.Fatal("wait returned before the blocked operation finished")
	}
	close(release)
	ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	if err := q.wait(ctx2, seq); err != nil {
		t.Fatalf("wait: %v", err)
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
}
