package ide

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// FoldRange is a foldable part of a file: it folds from the line of Start
// through the line of End.
type FoldRange struct {
	Start, End int
}

// FoldingRanges returns the folding ranges of a file: every multi-line
// object and array of a JSON file (questions, options, declarations, row
// sets and each row), and every section and fenced code block of a
// Markdown file. A JSON range ends on the line before its closing bracket,
// so the bracket stays visible; a section ends on its last non-blank line.
func FoldingRanges(s *analysis.Snapshot, path string) []FoldRange {
	f := s.File(path)
	if f == nil || f.Lines == nil {
		return nil
	}
	var out []FoldRange
	if f.Markdown != nil {
		for _, h := range f.Markdown.Headings {
			end := min(h.SectionEnd(), len(f.Content))
			if end < h.Span().Start {
				continue
			}
			section := bytes.TrimRight(f.Content[h.Span().Start:end], " \t\r\n")
			out = append(out, FoldRange{Start: h.Span().Start, End: h.Span().Start + max(len(section)-1, 0)})
		}
		for _, b := range f.Markdown.CodeBlocks {
			if b.Span.End > b.Span.Start {
				out = append(out, FoldRange{Start: b.Span.Start, End: b.Span.End - 1})
			}
		}
		return multiLine(f, out)
	}
	if !strings.EqualFold(filepath.Ext(path), ".json") {
		return nil
	}
	var walk func(v *jsonsrc.Value)
	walk = func(v *jsonsrc.Value) {
		if v == nil || (v.Kind() != jsonsrc.Object && v.Kind() != jsonsrc.Array) {
			return
		}
		end := v.Span().End - 1 // the closing bracket
		if v.Incomplete() {
			end = v.Span().End
		}
		if end > v.Span().Start {
			// Fold through the end of the line before the bracket.
			out = append(out, FoldRange{Start: v.Span().Start, End: max(v.Span().Start, lineStart(f.Content, end)-1)})
		}
		for _, m := range v.Members() {
			walk(m.Value)
		}
		for _, e := range v.Elems() {
			walk(e)
		}
	}
	walk(f.ParsedJSON())
	return multiLine(f, out)
}

// multiLine keeps the ranges that span more than one line.
func multiLine(f *analysis.File, rs []FoldRange) []FoldRange {
	out := rs[:0]
	for _, r := range rs {
		if f.Lines.Position(r.End).Line > f.Lines.Position(r.Start).Line {
			out = append(out, r)
		}
	}
	return out
}

// lineStart returns the offset of the start of the line holding offset.
func lineStart(content []byte, offset int) int {
	offset = min(offset, len(content))
	return bytes.LastIndexByte(content[:offset], '\n') + 1
}

// SelectionRanges returns, for each offset, the spans around it from the
// innermost outwards, each holding the one before: the part of a citation
// that names its target, the whole token, then the enclosing JSON values
// and members (a row field, the row, the row set, rows, the file), or the
// enclosing Markdown sections.
func SelectionRanges(s *analysis.Snapshot, path string, offsets []int) [][]source.Span {
	f := s.File(path)
	if f == nil {
		return nil
	}
	idx := fileIndex(s, path)
	out := make([][]source.Span, 0, len(offsets))
	for _, off := range offsets {
		var spans []source.Span
		add := func(sp source.Span) {
			if sp.Len() <= 0 || !sp.Contains(off) && sp.End != off {
				return
			}
			if n := len(spans); n > 0 && (spans[n-1] == sp || !(sp.Start <= spans[n-1].Start && spans[n-1].End <= sp.End)) {
				return
			}
			spans = append(spans, sp)
		}
		if r, ok := idx.refAt(path, off); ok {
			if r.Exact {
				add(r.Name)
			}
			add(r.Whole)
		}
		if f.Markdown != nil {
			for _, cs := range f.Markdown.CodeSpans {
				if cs.Span().Contains(off) {
					add(cs.TextSpan())
					add(cs.Span())
				}
			}
			// Sections nest: the innermost heading's section first.
			var secs []source.Span
			for _, h := range f.Markdown.Headings {
				if sec := h.Section(); sec.Contains(off) {
					secs = append(secs, sec)
				}
			}
			for i := len(secs) - 1; i >= 0; i-- {
				add(secs[i])
			}
		} else if root := f.ParsedJSON(); root != nil && strings.EqualFold(filepath.Ext(path), ".json") {
			for _, sp := range jsonEnclosing(root, off) {
				add(sp)
			}
		}
		add(source.Span{Start: 0, End: len(f.Content)})
		out = append(out, spans)
	}
	return out
}

// jsonEnclosing returns the spans of the JSON values and members that hold
// offset, innermost first: a string's content, the value, its member (key
// through value), the object holding it, and so on.
func jsonEnclosing(root *jsonsrc.Value, off int) []source.Span {
	var chain []source.Span
	v := root
	for v != nil && v.Span().Contains(off) {
		chain = append(chain, v.Span())
		var next *jsonsrc.Value
		for _, m := range v.Members() {
			if m.Value == nil {
				if m.KeySpan().Contains(off) {
					chain = append(chain, m.KeySpan())
				}
				continue
			}
			member := source.Span{Start: m.KeySpan().Start, End: m.Value.Span().End}
			if member.Contains(off) {
				chain = append(chain, member)
				if m.KeySpan().Contains(off) {
					chain = append(chain, m.KeySpan(), source.Span{Start: m.KeySpan().Start + 1, End: m.KeySpan().End - 1})
				}
				next = m.Value
				break
			}
		}
		for _, e := range v.Elems() {
			if e.Span().Contains(off) {
				next = e
				break
			}
		}
		if next == nil && v.Kind() == jsonsrc.String && v.Span().Len() >= 2 {
			chain = append(chain, source.Span{Start: v.Span().Start + 1, End: v.Span().End - 1})
		}
		v = next
	}
	// Reverse to innermost first.
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain
}

// Highlight is one occurrence of the token under the cursor in its file.
type Highlight struct {
	Span source.Span
	// Write marks the declaration (a heading, a key of tuning.json, a
	// value's declaration) rather than a citation of it.
	Write bool
}

// DocumentHighlights returns every occurrence in the file at path of the
// target named or declared at offset: a tuning key, an anchor, an
// adoption, a value or a rule, from the citation index.
func DocumentHighlights(s *analysis.Snapshot, path string, offset int) []Highlight {
	idx := fileIndex(s, path)
	t, ok := targetIn(s, idx, path, offset)
	if !ok {
		return nil
	}
	var out []Highlight
	for _, l := range targetLocations(s, t) {
		if l.File == path && l.Span.Len() > 0 {
			out = append(out, Highlight{Span: l.Span, Write: true})
		}
	}
next:
	for _, r := range idx.byFile[path] {
		if r.Target != t {
			continue
		}
		sp := r.span()
		for _, h := range out {
			if h.Span.Start < sp.End && sp.Start < h.Span.End {
				continue next // the declaration, found above
			}
		}
		out = append(out, Highlight{Span: sp, Write: r.Kind == refDecl})
	}
	return out
}
