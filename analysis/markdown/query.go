package markdown

import (
	"sort"
	"strings"
)

// FindAnchor returns the indices of the headings whose anchor equals
// anchor: the OpenGDD anchor, or the GitHub anchor (with its repeat
// suffix) when github is true.
func (d *Doc) FindAnchor(anchor string, github bool) []int {
	if len(d.Headings) <= linearAnchors {
		var out []int
		for i, h := range d.Headings {
			a := h.Anchor
			if github {
				a = h.GitHubAnchor
			}
			if a == anchor {
				out = append(out, i)
			}
		}
		return out
	}
	idx := d.anchors.Load()
	if idx == nil {
		idx = newAnchorIndex(d.Headings)
		d.anchors.Store(idx) // a concurrent caller may build the same index: harmless
	}
	if github {
		return idx.github[anchor]
	}
	return idx.opengdd[anchor]
}

// linearAnchors is the number of headings up to which FindAnchor scans
// instead of building an index: most documents have a few headings, and a
// document with thousands must not cost a scan per link.
const linearAnchors = 32

// anchorIndex maps each anchor of a document to its headings, in order.
type anchorIndex struct {
	opengdd, github map[string][]int
}

func newAnchorIndex(hs []Heading) *anchorIndex {
	idx := &anchorIndex{opengdd: make(map[string][]int, len(hs)), github: make(map[string][]int, len(hs))}
	for i, h := range hs {
		idx.opengdd[h.Anchor] = append(idx.opengdd[h.Anchor], i)
		idx.github[h.GitHubAnchor] = append(idx.github[h.GitHubAnchor], i)
	}
	return idx
}

// userContent is the prefix GitHub gives every id of rendered Markdown; its
// page script also finds an element by the fragment without it.
const userContent = "user-content-"

// FindFragment returns the indices of the headings a link fragment leads
// to. Under the OpenGDD rule (github false) that is FindAnchor. Under
// GitHub's rule it follows GitHub's page script: the headings whose anchor
// equals the fragment, else those whose anchor equals it without the
// "user-content-" prefix GitHub gives rendered ids, else those whose anchor
// equals it lowercased (LowerFull): heading ids are lowercase, and GitHub
// matches them whatever the case of the fragment.
func (d *Doc) FindFragment(fragment string, github bool) []int {
	out := d.FindAnchor(fragment, github)
	if !github || len(out) > 0 {
		return out
	}
	if rest, ok := strings.CutPrefix(fragment, userContent); ok {
		if out = d.FindAnchor(rest, true); len(out) > 0 {
			return out
		}
		fragment = rest
	}
	if lower := LowerFull(fragment); lower != fragment {
		out = d.FindAnchor(lower, true)
	}
	return out
}

// HasHTMLAnchor reports whether raw HTML of the document defines the
// fragment (an id, or the name of an <a>), matched exactly, as browsers
// match ids; under GitHub's rule also without the "user-content-" prefix.
func (d *Doc) HasHTMLAnchor(fragment string, github bool) bool {
	rest, cut := strings.CutPrefix(fragment, userContent)
	for _, a := range d.HTMLAnchors {
		if a.Name == fragment || github && cut && a.Name == rest {
			return true
		}
	}
	return false
}

// HeadingAt returns the index of the last heading that starts at or before
// offset, that is the innermost section holding offset, or -1 when offset
// is before the first heading.
func (d *Doc) HeadingAt(offset int) int {
	return sort.Search(len(d.Headings), func(i int) bool { return int(d.Headings[i].span.start) > offset }) - 1
}

// SectionText returns the first maxLines lines of heading h's section,
// heading line included, joined by "\n" (no limit when maxLines <= 0). It
// returns "" for an index out of range.
func (d *Doc) SectionText(h int, maxLines int) string {
	if h < 0 || h >= len(d.Headings) {
		return ""
	}
	hd := d.Headings[h]
	first, end := hd.Line(), d.sectionEndLine(h)
	if maxLines > 0 && end-first > maxLines {
		end = first + maxLines
	}
	lines := make([]string, 0, end-first)
	for i := first; i < end; i++ {
		lines = append(lines, string(d.lineText(i)))
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// sectionEndLine is the first line after heading h's section.
func (d *Doc) sectionEndLine(h int) int {
	end := d.Headings[h].SectionEnd()
	if end >= len(d.Data) {
		return d.Lines.LineCount()
	}
	return d.lineOf(end)
}

// lineOf returns the zero-based line holding offset.
func (d *Doc) lineOf(offset int) int { return d.Lines.Line(offset) }

// lineStart returns the offset where line i begins; the first line begins
// after a byte order mark.
func (d *Doc) lineStart(i int) int {
	if i == 0 {
		return min(d.bom, len(d.Data))
	}
	return d.Lines.LineStart(i)
}

// lineEnd returns the offset where line i's text ends, before its break.
func (d *Doc) lineEnd(i int) int { return d.Lines.LineEnd(i) }

// lineText returns line i without its break.
func (d *Doc) lineText(i int) []byte {
	if i < 0 || i >= d.Lines.LineCount() {
		return nil
	}
	return d.Data[d.lineStart(i):d.lineEnd(i)]
}
