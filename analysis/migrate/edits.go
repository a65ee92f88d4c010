package migrate

import (
	"bytes"
	"sort"
)

// edit replaces the bytes [start, end) of a file with text.
type edit struct {
	start, end int
	text       string
}

// applyEdits applies non-overlapping edits; an edit that overlaps an
// earlier one (by start) is dropped.
func applyEdits(data []byte, edits []edit) []byte {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b bytes.Buffer
	at := 0
	for _, e := range edits {
		if e.start < at {
			continue
		}
		b.Write(data[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.Write(data[at:])
	return b.Bytes()
}

// mapOffset returns where an offset of the old content lands after the
// edits.
func mapOffset(edits []edit, off int) int {
	delta := 0
	for _, e := range edits {
		if e.end <= off {
			delta += len(e.text) - (e.end - e.start)
		} else if e.start < off {
			return e.start + delta
		}
	}
	return off + delta
}

// lineBounds returns the start of the line holding off and the start of
// the next line (after its line break).
func lineBounds(data []byte, off int) (int, int) {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	end := bytes.IndexByte(data[off:], '\n')
	if end < 0 {
		return start, len(data)
	}
	return start, off + end + 1
}
