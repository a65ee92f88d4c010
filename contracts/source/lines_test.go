package source

import "testing"

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

// BenchmarkPositionLongLine converts 20,000 offsets of one 1 MB line of
// ASCII, the shape of a minified JSON file with a finding per member: the
// conversion does not rescan the line from its start for each one.
func BenchmarkPositionLongLine(b *testing.B) {
	content := make([]byte, 1<<20)
	for i := range content {
		content[i] = 'a'
	}
	l := NewLines(content)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for off := 0; off < len(content); off += len(content) / 20000 {
			if p := l.Position(off); p.Character != off {
				b.Fatalf("Position(%d) = %+v", off, p)
			}
		}
	}
}
