package markdown

import (
	"unsafe"

	"github.com/gddls/gddls/contracts/source"
)

// span32 is a span of a document's bytes in 32-bit offsets: the records a
// parse keeps hold their spans in this form, which halves them, and
// Parse leaves a document longer than maxDoc without records.
type span32 struct{ start, end uint32 }

// maxDoc is the longest document whose structure Parse records.
const maxDoc = 1<<32 - 1

func pack(s spanT) span32 { return span32{uint32(s.Start), uint32(s.End)} }

func (s span32) span() source.Span { return source.Span{Start: int(s.start), End: int(s.end)} }

// text returns the document's bytes under s as a string that shares their
// memory (Parse's data is never modified), or "" when s lies outside them.
func (d *Doc) text(s span32) string {
	if s.end <= s.start || int(s.end) > len(d.Data) {
		return ""
	}
	b := d.Data[s.start:s.end]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// keep records the text s of a record whose source span is at: it returns
// false when s is the document's own bytes under at, which the record
// reads back on demand, and otherwise appends s to the document's own
// texts and returns true. A text differs from its bytes when it was
// joined from lines under container prefixes, had its line breaks turned
// into spaces, or was read from bytes the parse changed.
func (d *Doc) keep(s string, at spanT) bool {
	if s == d.text(pack(at)) {
		return false
	}
	d.own = append(d.own, s)
	return true
}

// ownText returns the k-th own text from base, or "" when there is none.
func (d *Doc) ownText(base int32, k int) string {
	if i := int(base) + k; base >= 0 && i < len(d.own) {
		return d.own[i]
	}
	return ""
}
