package source

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestLinesPosition(t *testing.T) {
	tests := []struct {
		name    string
		content string
		offset  int
		want    Position
	}{
		{"start", "abc", 0, Position{0, 0}},
		{"second line LF", "ab\ncd", 4, Position{1, 1}},
		{"second line CRLF", "ab\r\ncd", 5, Position{1, 1}},
		{"lone CR", "ab\rcd", 4, Position{1, 1}},
		{"inside CRLF clamps to line end", "ab\r\ncd", 3, Position{0, 2}},
		{"BOM takes no column", "\ufeffab", 4, Position{0, 1}},
		{"two-byte rune is one unit", "é=x", 3, Position{0, 2}},
		{"astral rune is two units", "😀x", 4, Position{0, 2}},
		{"invalid byte is one unit", "\xffx", 1, Position{0, 1}},
		{"past end clamps", "ab", 9, Position{0, 2}},
		{"negative clamps", "ab", -3, Position{0, 0}},
		{"ASCII before a wide rune", "ab😀c", 7, Position{0, 5}},
		{"at a wide rune", "ab😀c", 2, Position{0, 2}},
		{"a wide rune on another line", "é\nabc", 5, Position{1, 2}},
		{"BOM then a wide rune", "\ufeffé", 5, Position{0, 1}},
		{"inside the BOM", "\ufeffab", 1, Position{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NewLines([]byte(tt.content)).Position(tt.offset); got != tt.want {
				t.Errorf("Position(%d) = %+v, want %+v", tt.offset, got, tt.want)
			}
		})
	}
}

func TestLinesOffsetRoundTrip(t *testing.T) {
	content := "\ufeff{\r\n  \"é😀\": \"x\"\n}\rend"
	l := NewLines([]byte(content))
	for off := 0; off <= len(content); off++ {
		p := l.Position(off)
		back := l.Offset(p)
		if l.Position(back) != p {
			t.Errorf("offset %d -> %+v -> %d -> %+v", off, p, back, l.Position(back))
		}
	}
	if got := l.Offset(Position{Line: 1, Character: 3}); content[got:got+2] != "é" {
		t.Errorf("Offset(1:3) = %d (%q)", got, content[got:])
	}
	if got := l.Offset(Position{Line: 1, Character: 5}); got != l.Offset(Position{Line: 1, Character: 4}) {
		t.Errorf("a position inside a surrogate pair must stay before the rune")
	}
	if got := l.Offset(Position{Line: 99}); got != len(content) {
		t.Errorf("line past end = %d", got)
	}
	if l.LineCount() != 4 {
		t.Errorf("LineCount = %d, want 4", l.LineCount())
	}
}

func TestIsKebab(t *testing.T) {
	for s, want := range map[string]bool{
		"poison": true, "turn-clock": true, "a1-2b": true, "9": true,
		"": false, "-a": false, "a-": false, "a--b": false, "A": false, "a_b": false, "a.b": false, "é": false,
	} {
		if got := IsKebab(s); got != want {
			t.Errorf("IsKebab(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"poison", "poison", 0}, {"poision", "poison", 1}, {"stoped", "stopped", 1},
		{"kitten", "sitting", 3}, {"öfen", "ofen", 1}, {"", "abc", 3},
	} {
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestLinesPositionLongLines: on lines longer than markGap, where Position
// starts counting from a mark, every offset gets the position counted from
// the line's start.
func TestLinesPositionLongLines(t *testing.T) {
	long := func(unit string, n int) string { return strings.Repeat(unit, n) }
	tests := []struct {
		name    string
		content string
	}{
		{"ascii", long("a", 5000)},
		{"two-byte", long("é", 3000)},
		{"astral", long("x😀", 1500)},
		{"invalid bytes", long("a\xff\xe2\x82", 1500)},
		{"a character across a mark", long("a", 1023) + long("😀", 600)},
		{"bom and breaks", "\xef\xbb\xbf" + long("ab€", 800) + "\r\n" + long("z", 3000) + "\r" + long("😀q", 900) + "\n"},
		{"short lines", long("ab\n", 2000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewLines([]byte(tt.content))
			ref := unmarked(l) // counts from the line's start
			if !strings.HasPrefix(tt.name, "short") && len(l.marks) == 0 {
				t.Fatal("a long line got no marks")
			}
			for off := -1; off <= len(tt.content)+1; off++ {
				if got, want := l.Position(off), ref.Position(off); got != want {
					t.Fatalf("Position(%d) = %+v, counted from the line's start %+v", off, got, want)
				}
			}
		})
	}
}

// BenchmarkPositionLongLine converts many offsets of one long line, as the
// findings of a minified JSON file are.
func BenchmarkPositionLongLine(b *testing.B) {
	content := []byte(strings.Repeat(`"k": "é", `, 100000))
	l := NewLines(content)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l.Position(i * 7919 % len(content))
	}
}

// FuzzLinesMarks: for any content, Position counted from the marks of long
// lines equals Position counted from each line's start.
func FuzzLinesMarks(f *testing.F) {
	// Short seeds: the body puts a long line before them.
	f.Add([]byte("a"))
	f.Add([]byte("\xef\xbb\xbfé😀\xff\r\nx"))
	f.Add([]byte("\xe2\x82\r😀\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4*markGap {
			data = data[:4*markGap] // the reference counts from the line's start
		}
		if len(data) < markGap {
			data = append(bytes.Repeat([]byte("ab"), markGap), data...) // a long first line
		}
		l := NewLines(data)
		ref := unmarked(l)
		step := max(1, len(data)/64)
		for off := 0; off <= len(data); off += step {
			if got, want := l.Position(off), ref.Position(off); got != want {
				t.Fatalf("Position(%d) = %+v, counted from the line's start %+v", off, got, want)
			}
		}
	})
}

// TestLineAndLineEnd holds Line to Position's line, and LineEnd to the end
// of LineText, at every offset of contents with each kind of line break
// and a byte order mark.
func TestLineAndLineEnd(t *testing.T) {
	for _, content := range []string{"", "a", "a\nb", "a\r\nb\rc\n", "\n\n", "\xEF\xBB\xBF", "\xEF\xBB\xBFx\ny", "\r\r\n\n"} {
		l := NewLines([]byte(content))
		for off := -1; off <= len(content)+1; off++ {
			if got, want := l.Line(off), l.Position(off).Line; got != want {
				t.Errorf("%q: Line(%d) = %d, Position says line %d", content, off, got, want)
			}
		}
		for i := -1; i <= l.LineCount(); i++ {
			want := len(content)
			if i < l.LineCount() {
				j := max(i, 0)
				want = l.LineStart(j) + len(l.LineText(j))
			}
			if got := l.LineEnd(i); got != want {
				t.Errorf("%q: LineEnd(%d) = %d, want %d", content, i, got, want)
			}
		}
	}
}

// TestJSONLinesCountTheMark: in a JSON file the byte-order mark is one
// character of line 0 (its syntax error is reported on it and an editor
// that keeps it counts it); elsewhere it takes no column.
func TestJSONLinesCountTheMark(t *testing.T) {
	content := []byte("\ufeff{\"a\": 1}\n{}")
	tests := []struct {
		name  string
		lines *Lines
		mark  Range // the range of the mark, bytes 0..3
		brace int   // the column of the first brace
	}{
		{"json", NewJSONLines(content), Range{Position{0, 0}, Position{0, 1}}, 1},
		{"other", NewLines(content), Range{Position{0, 0}, Position{0, 0}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.lines.Range(Span{Start: 0, End: 3}); got != tt.mark {
				t.Errorf("range of the mark = %v, want %v", got, tt.mark)
			}
			if got := tt.lines.Position(3); got != (Position{0, tt.brace}) {
				t.Errorf("position of the brace = %v, want column %d", got, tt.brace)
			}
			if got := tt.lines.Offset(Position{0, tt.brace}); got != 3 {
				t.Errorf("offset of column %d = %d, want 3", tt.brace, got)
			}
			if got := tt.lines.Position(len(content)); got != (Position{1, 2}) {
				t.Errorf("end = %v, want 1:2", got)
			}
		})
	}
}

// unmarked builds l's table and returns a copy of it without the marks of
// its long lines, whose positions are counted from each line's start.
func unmarked(l *Lines) *Lines {
	l.index()
	ref := &Lines{content: l.content, starts: l.starts, bom: l.bom}
	ref.once.Do(func() {}) // built already: the table is l's, without marks
	return ref
}

// TestLinesFirstUseConcurrent converts positions of one fresh Lines from
// several goroutines at once, as the workspace's readers do: the table is
// built once and every answer is the one a built table gives (run with
// -race).
func TestLinesFirstUseConcurrent(t *testing.T) {
	content := []byte(strings.Repeat("ab€\r\n😀q\n", 400) + strings.Repeat("z", 3000))
	want := NewLines(content)
	l := NewLines(content)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for off := g; off <= len(content); off += 97 {
				if got, w := l.Position(off), want.Position(off); got != w {
					errs <- fmt.Sprintf("Position(%d) = %+v, want %+v", off, got, w)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestLineStarts holds the line table to a byte-by-byte reading of line
// breaks (`\n`, `\r\n` and a lone `\r` each end a line), for contents with
// line feeds only, which the table finds by jumping, and with returns.
func TestLineStarts(t *testing.T) {
	reference := func(content []byte) []uint32 {
		starts := []uint32{0}
		for i := 0; i < len(content); i++ {
			switch content[i] {
			case '\n':
				starts = append(starts, uint32(i+1))
			case '\r':
				if i+1 < len(content) && content[i+1] == '\n' {
					i++
				}
				starts = append(starts, uint32(i+1))
			}
		}
		return starts
	}
	for _, s := range []string{"", "a", "\n", "\n\n", "a\nb", "a\nb\n", "\na\n\nb", "a\r\nb", "a\rb\r", "\r\n\r\n", "a\n\rb\r\r\nc"} {
		l := NewLines([]byte(s))
		l.index()
		if want := reference([]byte(s)); !slices.Equal(l.starts, want) {
			t.Errorf("%q: line starts %v, want %v", s, l.starts, want)
		}
	}
}
