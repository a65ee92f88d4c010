package markdown

import (
	"sort"
	"unsafe"

	"github.com/yuin/goldmark/text"
)

// vtext is the inline content of one block as the inline parser sees it:
// the block's line segments joined, without container prefixes such as
// `> ` or list indentation. It maps each of its indexes back to a source
// offset so that scans over the content give exact source spans.
type vtext struct {
	b     []byte
	vOff  []int // virtual start of each segment
	sOff  []int // source start of each segment
	total int
	// inSrc reports that b is a slice of the source rather than a copy.
	inSrc bool
	// buf holds the joined text of the last block whose segments are not
	// contiguous, reused by the next one: nothing keeps a slice of b past
	// the block (str copies it when it is not the source's).
	buf []byte
}

// reset makes v the text of the segments segs of src. A builder keeps a
// vtext per use and resets it for each block, so that the offsets and
// the joined text reuse the last block's memory.
func (v *vtext) reset(src []byte, segs *text.Segments) {
	v.b, v.total, v.inSrc = nil, 0, false
	v.vOff, v.sOff = v.vOff[:0], v.sOff[:0]
	if segs == nil {
		return
	}
	n := segs.Len()
	// When each segment starts where the one before it stops (a block
	// without container prefixes), the joined text is a slice of the
	// source and is not copied; the text is only read.
	contiguous, size, prev := true, 0, -1
	for i := 0; i < n; i++ {
		seg := segs.At(i)
		start, stop := clamp(seg.Start, len(src)), clamp(seg.Stop, len(src))
		if stop < start {
			stop = start
		}
		if prev >= 0 && start != prev {
			contiguous = false
		}
		v.vOff = append(v.vOff, size)
		v.sOff = append(v.sOff, start)
		size += stop - start
		prev = stop
	}
	if contiguous && n > 0 {
		first := v.sOff[0]
		v.b = src[first : first+size : first+size]
		v.inSrc = true
	} else {
		v.buf = v.buf[:0]
		for i := 0; i < n; i++ {
			start := v.sOff[i]
			v.buf = append(v.buf, src[start:start+(segEnd(v, i, size)-v.vOff[i])]...)
		}
		v.b = v.buf[:len(v.buf):len(v.buf)]
	}
	v.total = len(v.b)
}

// segEnd returns the virtual end of segment i of a text of size bytes.
func segEnd(v *vtext, i, size int) int {
	if i+1 < len(v.vOff) {
		return v.vOff[i+1]
	}
	return size
}

// src maps a virtual index (0..len) to a source offset. The end index maps
// to just after the last byte.
func (v *vtext) src(i int) int {
	if len(v.vOff) == 0 {
		return 0
	}
	if i >= v.total {
		last := len(v.vOff) - 1
		return v.sOff[last] + (v.total - v.vOff[last])
	}
	if i < 0 {
		i = 0
	}
	k := sort.Search(len(v.vOff), func(k int) bool { return v.vOff[k] > i }) - 1
	if k < 0 {
		k = 0
	}
	return v.sOff[k] + (i - v.vOff[k])
}

// srcEnd maps an exclusive virtual end index to a source offset: the end
// of the byte before it, so that a span never ends at the start of the
// next segment's prefix-skipped line.
func (v *vtext) srcEnd(i int) int {
	if i <= 0 {
		return v.src(0)
	}
	return v.src(i-1) + 1
}

// virt maps a source offset to a virtual index, or -1 when the offset is in
// no segment (the offset just after the last byte is mapped to the end).
func (v *vtext) virt(off int) int {
	if len(v.vOff) == 0 {
		return -1
	}
	k := sort.Search(len(v.sOff), func(k int) bool { return v.sOff[k] > off }) - 1
	if k >= 0 {
		end := v.total
		if k+1 < len(v.vOff) {
			end = v.vOff[k+1]
		}
		if off < v.sOff[k]+(end-v.vOff[k]) {
			return v.vOff[k] + off - v.sOff[k]
		}
	}
	if off == v.src(v.total) {
		return v.total
	}
	return -1
}

// span maps the virtual half-open range [i, j) to a source span.
func (v *vtext) span(i, j int) spanT {
	if j <= i {
		s := v.src(i)
		return spanT{Start: s, End: s}
	}
	return spanT{Start: v.src(i), End: v.srcEnd(j)}
}

func clamp(x, n int) int {
	if x < 0 {
		return 0
	}
	if x > n {
		return n
	}
	return x
}

// str returns the text of b[i:j] as a string. When b is a slice of the
// source and shared is set (the source is the document's own content,
// which nobody modifies), the string shares the source's memory instead
// of copying it: a document's records then cost their headers and not
// their text a second time.
func (v *vtext) str(i, j int, shared bool) string {
	if v.inSrc {
		return view(v.b[i:j], shared)
	}
	return string(v.b[i:j])
}

// view returns b as a string: sharing b's memory when shared is set, a
// copy otherwise. b must never be modified once shared.
func view(b []byte, shared bool) string {
	if !shared || len(b) == 0 {
		return string(b)
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}
