// Package review holds the heuristics of review mode (OpenGDD §2d): the
// English-language readings of chapter prose that give hints, never
// findings. It reads a parsed Markdown document and returns places:
//
//   - Literals: the numbers written in prose (for PROSE_TUNING_LITERAL,
//     §4, which the analysis layer compares with tuning.json), leaving out
//     code, headings, the format's tag lines, section numbers, test ids,
//     list numbers and numbers glued to words;
//   - TieBreaks: the Fixed paragraphs that describe a choice or a shared
//     limit and state nothing that settles it (TIE_BREAK_CHOICE and
//     TIE_BREAK_SHARED_CEILING, §2a).
//
// The package is pure: no file system, no globals beyond compiled word
// lists.
package review

import (
	"bytes"
	"sort"

	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/source"
)

// The hint codes of review mode.
const (
	CodeTuningLiteral = "PROSE_TUNING_LITERAL"
	CodeChoice        = "TIE_BREAK_CHOICE"
	CodeSharedCeiling = "TIE_BREAK_SHARED_CEILING"
)

// Paragraph is a run of prose lines: consecutive non-blank lines outside
// code blocks and headings, split where a tag's blockquote starts or ends.
type Paragraph struct {
	// Span covers the paragraph's lines, without the last line break.
	Span source.Span
	// Line is the zero-based first line; EndLine the line after the last.
	Line, EndLine int
	// Delegated is set when a DELEGATED or PERSONALIZATION tag's blockquote
	// holds the paragraph: it is not Fixed prose.
	Delegated bool
}

// lineKind says how a line of a document is read: as prose, as a blank
// line, or left out (code, heading, tag line, HTML comment).
type lineKind uint8

const (
	prose lineKind = iota
	blank
	excluded
)

// classify returns the kind of every line, and for each line the index of
// the tag whose blockquote covers it (-1 for none).
func classify(doc *markdown.Doc) (kinds []lineKind, tagOf []int) {
	n := doc.Lines.LineCount()
	kinds = make([]lineKind, n)
	tagOf = make([]int, n)
	for i := range tagOf {
		tagOf[i] = -1
		if len(bytes.TrimSpace(doc.Lines.LineText(i))) == 0 {
			kinds[i] = blank
		}
	}
	mark := func(from, to int) {
		for i := max(from, 0); i < to && i < n; i++ {
			kinds[i] = excluded
		}
	}
	for _, cb := range doc.CodeBlocks {
		mark(cb.StartLine, cb.EndLine)
	}
	for _, h := range doc.Headings {
		mark(h.Line(), doc.Lines.Position(h.Span().End).Line+1)
	}
	for ti, t := range doc.Tags {
		mark(t.Line, t.Line+1) // the tag line is a format line
		for i := max(t.Line, 0); i < t.EndLine && i < n; i++ {
			tagOf[i] = ti
		}
	}
	// HTML comments are no prose; a comment opener in code opens none.
	inComment := false
	for i := 0; i < n; i++ {
		if kinds[i] == excluded && !inComment {
			continue
		}
		text := doc.Lines.LineText(i)
		if inComment || bytes.HasPrefix(bytes.TrimSpace(text), []byte("<!--")) {
			kinds[i] = excluded
			inComment = !bytes.Contains(text, []byte("-->"))
		}
	}
	return kinds, tagOf
}

// Paragraphs returns the paragraphs of doc in order.
func Paragraphs(doc *markdown.Doc) []Paragraph {
	kinds, tagOf := classify(doc)
	var out []Paragraph
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		p := Paragraph{Line: start, EndLine: end,
			Span: source.Span{Start: doc.Lines.LineStart(start), End: doc.Lines.LineStart(end-1) + len(doc.Lines.LineText(end-1))}}
		p.Delegated = doc.AuthorityAt(start) != markdown.Fixed
		out = append(out, p)
		start = -1
	}
	for i, k := range kinds {
		if k != prose {
			flush(i)
			continue
		}
		if start >= 0 && tagOf[i] != tagOf[start] {
			flush(i)
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(kinds))
	return out
}

// masker blanks out the parts of a document's prose that are not read:
// inline code, link destinations and autolinks.
type masker struct {
	doc *markdown.Doc
	// spans are the parts to blank, sorted by start; reach[i] is the
	// largest end of spans[:i+1].
	spans []source.Span
	reach []int
}

// newMasker collects the parts of doc to blank, once per document, so
// that masking every paragraph is not quadratic in the document's size.
func newMasker(doc *markdown.Doc) *masker {
	m := &masker{doc: doc}
	for _, c := range doc.CodeSpans {
		m.spans = append(m.spans, c.Span())
	}
	for _, l := range doc.Links {
		switch l.Kind {
		case markdown.Autolink, markdown.Definition, markdown.HTMLLink:
			m.spans = append(m.spans, l.Span())
		default:
			m.spans = append(m.spans, l.DestSpan())
		}
	}
	sort.SliceStable(m.spans, func(i, j int) bool { return m.spans[i].Start < m.spans[j].Start })
	m.reach = make([]int, len(m.spans))
	for i, sp := range m.spans {
		m.reach[i] = sp.End
		if i > 0 && m.reach[i-1] > sp.End {
			m.reach[i] = m.reach[i-1]
		}
	}
	return m
}

// masked returns a copy of the paragraph's bytes in which inline code,
// link destinations and autolinks are blanked out (same length, so that
// offsets still match).
func (m *masker) masked(p Paragraph) []byte {
	text := append([]byte(nil), m.doc.Data[p.Span.Start:p.Span.End]...)
	blank := func(s source.Span) {
		for i := max(s.Start, p.Span.Start); i < s.End && i < p.Span.End; i++ {
			if text[i-p.Span.Start] != '\n' && text[i-p.Span.Start] != '\r' {
				text[i-p.Span.Start] = ' '
			}
		}
	}
	// The spans that start inside the paragraph, and those before it that
	// reach into it.
	first := sort.Search(len(m.spans), func(i int) bool { return m.spans[i].Start >= p.Span.Start })
	for i := first - 1; i >= 0 && m.reach[i] > p.Span.Start; i-- {
		blank(m.spans[i])
	}
	for i := first; i < len(m.spans) && m.spans[i].Start < p.Span.End; i++ {
		blank(m.spans[i])
	}
	return text
}
