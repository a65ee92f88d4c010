// Package markdown is the document model gddls uses for every Markdown file
// of a package: chapters and general design documents. Parse reads a file
// once and records, with byte spans into the original bytes, the things the
// checks and the editor need: headings with their anchors and sections,
// inline code spans, links and link reference definitions, quoted strings,
// and the authority and ruleset tags of OpenGDD §2 with the lines they
// cover.
//
// Block and inline structure come from goldmark (CommonMark). The tag scan
// is line based, as the format defines it, and only borrows goldmark's
// fenced code ranges.
package markdown

import (
	"sync/atomic"

	"github.com/gddls/gddls/contracts/source"
)

// Doc is one parsed Markdown file. All spans are byte offsets into Data;
// all line numbers are zero-based, as in source.Lines and the LSP.
type Doc struct {
	// Data is the content that was parsed; it is not copied.
	Data []byte
	// Lines converts offsets in Data to LSP positions and back.
	Lines *source.Lines

	// Headings lists ATX and setext headings in document order. Heading
	// lines inside fenced or indented code are not headings.
	Headings []Heading
	// CodeSpans lists inline code spans outside code blocks, in order.
	CodeSpans []CodeSpan
	// Links lists inline links, images, reference links, link reference
	// definitions, autolinks and the links of raw HTML (<a href>,
	// <img src>), in document order.
	Links []Link
	// HTMLAnchors lists the fragment targets raw HTML defines: the id
	// attribute of any element and the name attribute of <a>, outside code
	// and HTML comments, in document order.
	HTMLAnchors []HTMLAnchor
	// Quotes lists strings in prose between “…” or "…", outside code.
	Quotes []Quote
	// CodeBlocks lists fenced and indented code blocks.
	CodeBlocks []CodeBlock
	// Tags lists the DELEGATED, PERSONALIZATION and RULESET tag lines.
	Tags []Tag
	// Findings are the problems the document shows on its own:
	// AUTHORITY_TAG_OVERLAP, RULESET_TAG_OVERLAP, RULESET_TAG_SHAPE,
	// PERSONALIZATION_TAG_DANGLING for a tag without an id, and
	// COLLECTION_TAG_RETIRED for the retired > COLLECTION: tag. Their File
	// is empty; the caller fills it in.
	Findings []source.Finding

	bom int // length of a leading byte order mark, which no line holds: 0 or 3
	// own holds the records' texts that are not the source's bytes under
	// their spans (see Doc.keep); a record knows the index of its own.
	own []string
	// anchors indexes the headings by anchor for FindAnchor, built on
	// first use in a document with many headings.
	anchors atomic.Pointer[anchorIndex]
}

// Heading is one ATX or setext heading. Its spans and lines are methods
// over a compact record; its text is read from the document (Text).
type Heading struct {
	// Anchor is the heading's anchor under the OpenGDD rule (OpenGDDAnchor);
	// two headings can share one.
	Anchor string
	// GitHubAnchor is the id GitHub gives the heading, including the -1,
	// -2 suffixes for repeats earlier in the document.
	GitHubAnchor string

	span, textSpan   span32
	line, sectionEnd uint32
	own              int32 // index in Doc.own of the text, or -1 when it is the source's
	level            uint8
	// Setext reports an underlined heading.
	Setext bool
}

// Level is the number of `#` marks, or 1 and 2 for setext `=` and `-`.
func (h Heading) Level() int { return int(h.level) }

// Text returns the raw source of the heading content in d, the document
// that holds the heading: for ATX the text after the `#` run without an
// optional closing `#` sequence, for setext the text lines joined by "\n".
// It still holds Markdown syntax.
func (h Heading) Text(d *Doc) string {
	if h.own >= 0 {
		return d.ownText(h.own, 0)
	}
	return d.text(h.textSpan)
}

// Span covers the whole heading line(s), from the start of the first line
// to the end of the last, without the final line break.
func (h Heading) Span() source.Span { return h.span.span() }

// TextSpan covers Text in the source (for a multi-line setext heading it
// also covers the line breaks and prefixes in between).
func (h Heading) TextSpan() source.Span { return h.textSpan.span() }

// Line is the zero-based line of the heading's first line.
func (h Heading) Line() int { return int(h.line) }

// SectionEnd is the byte offset where the heading's section ends: the
// start of the line of the next heading with the same or a smaller level,
// or len(Data).
func (h Heading) SectionEnd() int { return int(h.sectionEnd) }

// Section returns the span of the heading's section.
func (h Heading) Section() source.Span {
	return source.Span{Start: int(h.span.start), End: int(h.sectionEnd)}
}

// CodeSpan is one inline code span, a compact record whose spans and
// lines are methods and whose text is read from the document (Text).
type CodeSpan struct {
	span, textSpan, block span32
	heading               int32
	line                  uint32
	own                   int32 // index in Doc.own of the text, or -1 when it is the source's
	// InHeading reports a code span in a heading's text.
	InHeading bool
}

// Text returns the content in d, the document that holds the span, as
// CommonMark defines it: line endings become spaces, and one leading and
// one trailing space are stripped when both are present and the content
// is not all spaces.
func (c CodeSpan) Text(d *Doc) string {
	if c.own >= 0 {
		return d.ownText(c.own, 0)
	}
	return d.text(c.textSpan)
}

// Span covers the code span with its backticks.
func (c CodeSpan) Span() source.Span { return c.span.span() }

// TextSpan covers the content that Text was taken from.
func (c CodeSpan) TextSpan() source.Span { return c.textSpan.span() }

// Block is the span of the enclosing list item, or of the paragraph or
// heading when the span is in no list item.
func (c CodeSpan) Block() source.Span { return c.block.span() }

// Heading is the index of the heading whose section holds the span (the
// nearest heading at or before it), or -1 before the first heading.
func (c CodeSpan) Heading() int { return int(c.heading) }

// Line is the zero-based line of the opening backtick.
func (c CodeSpan) Line() int { return int(c.line) }

// LinkKind tells the form of a Link.
type LinkKind uint8

// The forms of a link.
const (
	// InlineLink is `[text](dest "title")` or `![alt](dest)`.
	InlineLink LinkKind = iota + 1
	// ReferenceLink is `[text][label]`, `[label][]` or `[label]` that names a
	// defined label.
	ReferenceLink
	// Definition is a link reference definition `[label]: dest "title"`.
	Definition
	// Autolink is `<scheme:...>` or `<user@host>`.
	Autolink
	// HTMLLink is the href of a raw HTML <a> or the src of an <img>
	// (Image is set for <img>). Raw and DestSpan are the attribute value as
	// written, character references unresolved; Text is empty.
	HTMLLink
)

// String returns a short lowercase name of the kind.
func (k LinkKind) String() string {
	switch k {
	case InlineLink:
		return "inline"
	case ReferenceLink:
		return "reference"
	case Definition:
		return "definition"
	case Autolink:
		return "autolink"
	case HTMLLink:
		return "html"
	}
	return "unknown"
}

// RefStyle tells how a reference link names its label.
type RefStyle uint8

// The reference styles; NoRef is for every other kind of link.
const (
	NoRef     RefStyle = iota
	Full               // [text][label]
	Collapsed          // [label][]
	Shortcut           // [label]
)

// Link is one link, image, reference definition or autolink: a compact
// record whose spans and indexes are methods and whose texts are read from
// the document that holds it (Text, Raw, Label, Dest).
type Link struct {
	Kind LinkKind
	// Image reports `![...]`.
	Image bool
	// Style is the reference style of a ReferenceLink.
	Style RefStyle
	// owns tells which of the texts are the document's own (ownLinkText,
	// ownRaw, ownLabel) rather than the source's bytes under their spans;
	// they are in Doc.own from index own, in that order.
	owns uint8

	span, text, dest, label span32
	def, heading            int32
	line                    uint32
	own                     int32
}

// The bits of Link.owns.
const (
	ownLinkText = 1 << iota
	ownRaw
	ownLabel
)

// Span covers the whole construct: from `[` or `![` through the closing
// `)` or `]`; for a definition the label, destination and title; for an
// autolink the angle brackets.
func (l Link) Span() source.Span { return l.span.span() }

// TextSpan is the source of Text.
func (l Link) TextSpan() source.Span { return l.text.span() }

// DestSpan is the source of Raw (empty, at the position where it would
// be, for `[t]()`; empty for reference links).
func (l Link) DestSpan() source.Span { return l.dest.span() }

// LabelSpan is the source of Label.
func (l Link) LabelSpan() source.Span { return l.label.span() }

// Def is the index in Doc.Links of the definition a reference link
// resolves to (the first definition of that label), or -1.
func (l Link) Def() int { return int(l.def) }

// Heading is the index of the heading whose section holds the link, or -1.
func (l Link) Heading() int { return int(l.heading) }

// Line is the zero-based line where the link starts.
func (l Link) Line() int { return int(l.line) }

// ownIndex returns the position in Doc.own of the own text of bit, or -1
// when that text is the source's.
func (l Link) ownIndex(bit uint8) int32 {
	if l.owns&bit == 0 {
		return -1
	}
	k := int32(0)
	for b := uint8(1); b < bit; b <<= 1 {
		if l.owns&b != 0 {
			k++
		}
	}
	return l.own + k
}

func (l Link) field(d *Doc, bit uint8, s span32) string {
	if i := l.ownIndex(bit); i >= 0 {
		return d.ownText(i, 0)
	}
	return d.text(s)
}

// Text returns the raw link text between the first brackets in d, the
// document that holds the link (empty for definitions; the address for
// autolinks).
func (l Link) Text(d *Doc) string { return l.field(d, ownLinkText, l.text) }

// Raw returns the destination as written, with `<...>` unwrapped and no
// escapes resolved, for inline links, definitions, autolinks and HTML
// links; empty for reference links, whose destination is written in the
// definition (see Def).
func (l Link) Raw(d *Doc) string { return l.field(d, ownRaw, l.dest) }

// Label returns the reference label as written: of a definition, or of
// the label a reference link uses (for collapsed and shortcut links, the
// link text).
func (l Link) Label(d *Doc) string { return l.field(d, ownLabel, l.label) }

// Dest returns the destination the link goes to: Raw for inline links,
// definitions, autolinks and HTML links; for a reference link the Raw of
// its definition, or "" when it has none.
func (l Link) Dest(d *Doc) string {
	if l.Kind != ReferenceLink {
		return l.Raw(d)
	}
	if l.def < 0 || int(l.def) >= len(d.Links) {
		return ""
	}
	return d.Links[l.def].Raw(d)
}

// HTMLAnchor is an id or name attribute of raw HTML.
type HTMLAnchor struct {
	// Name is the attribute value with character references resolved.
	Name string
	// Span covers the value as written, without quotes.
	Span source.Span
}

// Quote is a string between quotation marks in prose.
type Quote struct {
	// Text is the text between the marks; line breaks inside it become
	// single spaces.
	Text string
	// Curly reports “…” rather than "…".
	Curly bool
	// Span covers the quotation marks and the text; TextSpan only the text.
	Span     source.Span
	TextSpan source.Span
	// Block is the span of the enclosing list item, or of the paragraph or
	// heading when the quote is in no list item.
	Block source.Span
	// Heading is the index of the heading whose section holds the quote, or
	// -1; Line is the zero-based line of the opening mark.
	Heading int
	Line    int
}

// CodeBlock is a fenced or indented code block.
type CodeBlock struct {
	// Fenced reports a fenced block; otherwise it is indented.
	Fenced bool
	// Closed reports a fenced block that ends with a closing fence line.
	// CommonMark runs a fence that is never closed to the end of its
	// container; the formats that write a block between two fence lines
	// (§1a, §6) read such a fence as no block.
	Closed bool
	// Info is the info string of a fenced block.
	Info string
	// StartLine and EndLine (exclusive) are the zero-based lines the block
	// occupies, including the opening and closing fence lines.
	StartLine, EndLine int
	// Span covers the lines, without the final line break.
	Span source.Span
	// Content covers the block's text: for a fenced block, from the start
	// of the line after the opening fence to the start of the closing
	// fence line (or the end of the document when the fence is never
	// closed); for an indented block it equals Span.
	Content source.Span
}
