package source

import (
	"bytes"
	"sort"
	"sync"
	"unicode/utf8"
)

// Position is an LSP position: a zero-based line and a zero-based character
// offset counted in UTF-16 code units.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is an LSP range between two positions.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Lines converts between byte offsets and LSP positions for one file's
// content. Line breaks are "\n", "\r\n" and a lone "\r", as in LSP. A UTF-8
// byte order mark at the start of the file takes no column, because editors
// do not show it (except in NewJSONLines). An invalid UTF-8 byte counts as
// one code unit, the width of the replacement character an editor shows for
// it.
//
// The table is built on the first conversion, not when the Lines is made:
// a workspace makes one for every file it loads, and most files of a
// clean check are never asked for a position.
type Lines struct {
	content []byte
	hideBOM bool
	once    sync.Once
	starts  []uint32 // byte offset of the first byte of each line
	bom     int      // length of a leading byte order mark, 0 or 3
	// marks are columns known in advance on long lines, so that a position
	// far into a long line (a minified JSON file with many findings) costs
	// at most markGap bytes of counting, not the whole line's.
	marks []mark
}

// markGap is the distance in bytes between two marks of a long line.
const markGap = 1024

// mark is a byte offset at the start of a character of a long line, with
// its column in UTF-16 code units.
type mark struct{ offset, units int }

// NewLines indexes content (of up to 4 GiB). It does not copy content; the
// caller must not modify it afterwards.
func NewLines(content []byte) *Lines {
	return newLines(content, true)
}

// NewJSONLines indexes the content of a JSON file as NewLines does, except
// that a leading byte-order mark is a character of line 0 like any other
// (one UTF-16 code unit): in JSON it is a syntax error, reported on the
// mark itself, and an editor that sends it in a buffer counts it.
func NewJSONLines(content []byte) *Lines {
	return newLines(content, false)
}

func newLines(content []byte, hideBOM bool) *Lines {
	return &Lines{content: content, hideBOM: hideBOM}
}

// index builds the table once; every method that reads it calls index
// first.
func (l *Lines) index() { l.once.Do(l.build) }

func (l *Lines) build() {
	content := l.content
	// One slot per line break at most, allocated once: a line table is
	// kept for every file of a workspace.
	newlines, returns := bytes.Count(content, []byte{'\n'}), bytes.Count(content, []byte{'\r'})
	l.starts = append(make([]uint32, 0, 1+newlines+returns), 0)
	if l.hideBOM && len(content) >= 3 && content[0] == 0xEF && content[1] == 0xBB && content[2] == 0xBF {
		l.bom = 3
	}
	if returns == 0 {
		// Line feeds only, as most files have: jump from one to the next.
		for i := 0; ; {
			k := bytes.IndexByte(content[i:], '\n')
			if k < 0 {
				break
			}
			i += k + 1
			l.starts = append(l.starts, uint32(i))
		}
	} else {
		for i := 0; i < len(content); i++ {
			switch content[i] {
			case '\n':
				l.starts = append(l.starts, uint32(i+1))
			case '\r':
				if i+1 < len(content) && content[i+1] == '\n' {
					i++
				}
				l.starts = append(l.starts, uint32(i+1))
			}
		}
	}
	for i := range l.starts {
		l.markLine(i)
	}
}

// markLine adds the marks of line i when it is longer than markGap,
// counting its characters as Position does.
func (l *Lines) markLine(i int) {
	start, end := int(l.starts[i]), l.lineEnd(i)
	if i == 0 {
		start = max(start, l.bom)
	}
	if end-start <= markGap {
		return
	}
	units, next := 0, start+markGap
	for p := start; p < end; {
		if p >= next {
			l.marks = append(l.marks, mark{offset: p, units: units})
			next = p + markGap
		}
		if l.content[p] < utf8.RuneSelf {
			units++
			p++
			continue
		}
		r, size := utf8.DecodeRune(l.content[p:end])
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		p += size
	}
}

// LineCount reports the number of lines; an empty file has one.
func (l *Lines) LineCount() int {
	l.index()
	return len(l.starts)
}

// Line returns the zero-based line holding offset; offsets before the
// content are on the first line, offsets after it on the last.
func (l *Lines) Line(offset int) int {
	l.index()
	return max(sort.Search(len(l.starts), func(i int) bool { return int(l.starts[i]) > offset })-1, 0)
}

// LineEnd returns the byte offset where line i's text ends, before its
// line break; len(content) for the last line and beyond.
func (l *Lines) LineEnd(i int) int {
	l.index()
	return l.lineEnd(i)
}

// lineEnd is LineEnd on a built table.
func (l *Lines) lineEnd(i int) int {
	i = max(i, 0)
	if i+1 < len(l.starts) {
		end := int(l.starts[i+1])
		if end > 0 && l.content[end-1] == '\n' {
			end--
		}
		if end > int(l.starts[i]) && l.content[end-1] == '\r' {
			end--
		}
		return end
	}
	return len(l.content)
}

// Position converts a byte offset to a position. Offsets outside the
// content are clamped to it; an offset inside a multi-byte character or a
// line break is moved to its start.
func (l *Lines) Position(offset int) Position {
	l.index()
	if offset < 0 {
		offset = 0
	}
	if offset > len(l.content) {
		offset = len(l.content)
	}
	line := sort.Search(len(l.starts), func(i int) bool { return int(l.starts[i]) > offset }) - 1
	start := int(l.starts[line])
	if line == 0 && start < l.bom {
		start = l.bom
	}
	if end := l.lineEnd(line); offset > end {
		offset = end
	}
	offset = l.runeStart(start, offset)
	from, units := start, 0
	if k := sort.Search(len(l.marks), func(i int) bool { return l.marks[i].offset > offset }) - 1; k >= 0 && l.marks[k].offset >= start {
		from, units = l.marks[k].offset, l.marks[k].units
	}
	return Position{Line: line, Character: units + utf16Len(l.content[min(from, offset):offset])}
}

// runeStart moves offset back to the start of the UTF-8 sequence that
// contains it, never before lineStart.
func (l *Lines) runeStart(lineStart, offset int) int {
	for p := offset - 1; p >= lineStart && p >= offset-3; p-- {
		if utf8.RuneStart(l.content[p]) {
			if _, size := utf8.DecodeRune(l.content[p:]); p+size > offset {
				return p
			}
			break
		}
	}
	return offset
}

// Range converts a span to a range.
func (l *Lines) Range(s Span) Range {
	return Range{Start: l.Position(s.Start), End: l.Position(s.End)}
}

// Offset converts a position back to a byte offset. A line past the end
// gives the end of the content; a character past the end of its line gives
// the end of that line.
func (l *Lines) Offset(p Position) int {
	l.index()
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(l.starts) {
		return len(l.content)
	}
	start := int(l.starts[p.Line])
	if p.Line == 0 {
		start = max(start, l.bom)
	}
	end := l.lineEnd(p.Line)
	units := 0
	i := start
	for i < end && units < p.Character {
		r, size := utf8.DecodeRune(l.content[i:end])
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		if units > p.Character { // inside a surrogate pair: stay before it
			break
		}
		i += size
	}
	return i
}

// LineText returns the text of line i without its line break.
func (l *Lines) LineText(i int) []byte {
	l.index()
	if i < 0 || i >= len(l.starts) {
		return nil
	}
	return l.content[int(l.starts[i]):l.lineEnd(i)]
}

// LineStart returns the byte offset where line i begins.
func (l *Lines) LineStart(i int) int {
	l.index()
	if i < 0 {
		return 0
	}
	if i >= len(l.starts) {
		return len(l.content)
	}
	return int(l.starts[i])
}

// utf16Len counts the UTF-16 code units of b, counting each invalid byte as
// one unit.
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		b = b[size:]
	}
	return n
}

// UTF16Len reports the number of UTF-16 code units in s.
func UTF16Len(s string) int { return utf16Len([]byte(s)) }
