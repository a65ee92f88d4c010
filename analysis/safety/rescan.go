package safety

import (
	"bytes"

	"github.com/gddls/gddls/contracts/source"
)

// Scanned is the scan of one content: its notices, as Scan returns them,
// kept with what Rescan needs to scan an edited copy of the content.
type Scanned struct {
	// Notices are the notices of the content, in the order Scan gives.
	Notices []Notice
	// lineNotices is how many of Notices the line-by-line part of the
	// scan found: they come first, in the order of the lines they start
	// in; the paragraphs' notices follow.
	lineNotices int
}

// ScanText is Scan, keeping what Rescan reads.
func ScanText(name string, content []byte) Scanned {
	return new(Scanner).ScanText(name, content)
}

// Rescan returns the scan of content, an edited copy of old whose scan
// under the same name is s. Its notices are those Scan finds in content;
// only the lines the edit touched, and the two lines before them (whose
// windows reach into them), are scanned again, and the paragraphs' openings
// are read again (a few lines each). The notices of the other lines are
// those of s, moved by the length the edit added. An edit that adds or
// removes a fence marker changes what the lines after it are, so content
// is then scanned whole.
func (s Scanned) Rescan(name string, old, content []byte) Scanned {
	// The edit replaced old[p:len(old)-suffix] with
	// content[p:len(content)-suffix].
	p := commonPrefix(old, content)
	if p == len(old) && p == len(content) {
		return s
	}
	suffix := commonSuffix(old[p:], content[p:])
	oldEnd, newEnd := len(old)-suffix, len(content)-suffix
	// The edited lines: from the start of the line p is in to the end of
	// the line the edit's end is in, in both contents.
	from := bytes.LastIndexByte(content[:p], '\n') + 1
	if mayFence(old[from:lineEnd(old, oldEnd)]) || mayFence(content[from:lineEnd(content, newEnd)]) {
		return ScanText(name, content)
	}
	pt := compiled()
	lines := splitLines(content)
	md, plan := kindOf(name)
	// Lines [first, last] of content are edited; those before first are
	// old's own, and those after last are old's lines after the edit.
	first := bytes.Count(content[:p], []byte{'\n'})
	last := first + bytes.Count(content[p:newEnd], []byte{'\n'})
	delta := len(content) - len(old)
	lo, hi := max(0, first-2), min(last+3, len(lines))
	keepBefore := lines[lo].start // the same offset in old
	keepAfter := len(old) + 1     // where old's lines after the edit start
	if last+1 < len(lines) {
		keepAfter = lines[last+1].start - delta
	}

	out := make([]Notice, 0, len(s.Notices)+1)
	for _, n := range s.Notices[:s.lineNotices] {
		if n.Span.Start < keepBefore {
			out = append(out, n)
		}
	}
	fenced := fencedLines(nil, content, lines, md, hi)
	ls := newLineScan(content, lines[lo:hi], true)
	for i := lo; i <= last; i++ {
		out = ls.line(out, i-lo, fenced[i])
	}
	for _, n := range s.Notices[:s.lineNotices] {
		if n.Span.Start >= keepAfter {
			n.Span = source.Span{Start: n.Span.Start + delta, End: n.Span.End + delta}
			out = append(out, n)
		}
	}
	lineNotices := len(out)

	// The paragraphs: each opening is a few lines, read again; the whole
	// paragraph is read only when its opening is imperative.
	for _, par := range paragraphs(nil, content, lines, true) {
		head := normalizeLines(content, opening(content, par))
		if head.size == 0 {
			continue
		}
		n, ok := imperativeOpening(head.whole(), plan, head.span, func() bool {
			whole := normalizeLines(content, par)
			return pt.agentContext.re.Match(whole.whole())
		})
		if ok {
			out = append(out, n)
		}
	}
	return Scanned{Notices: out, lineNotices: lineNotices}
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	// Compare in blocks first: most of an edited file is its old text.
	const block = 256
	i := 0
	for i+block <= n && bytes.Equal(a[i:i+block], b[i:i+block]) {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix returns the length of the longest common suffix of a and b.
func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	const block = 256
	i := 0
	for i+block <= n && bytes.Equal(a[len(a)-i-block:len(a)-i], b[len(b)-i-block:len(b)-i]) {
		i += block
	}
	for i < n && a[len(a)-i-1] == b[len(b)-i-1] {
		i++
	}
	return i
}

// lineEnd returns the offset of the line break that ends the line holding
// offset at, or the content's length when that line is the last.
func lineEnd(content []byte, at int) int {
	if i := bytes.IndexByte(content[at:], '\n'); i >= 0 {
		return at + i
	}
	return len(content)
}
