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
	// anchors indexes the headings by anchor for FindAnchor, built on
	// first use in a document with many headings.
	anchors atomic.Pointer[anchorIndex]
}

// Heading is one ATX or setext heading.
type Heading struct {
	// Level is the number of `#` marks, or 1 and 2 for setext `=` and `-`.
	Level int
	// Setext reports an underlined heading.
	Setext bool
	// Text is the raw source of the heading content: for ATX the text after
	// the `#` run without an optional closing `#` sequence, for setext the
	// text lines joined by "\n". It still holds Markdown syntax.
	Text string
	// Span covers the whole heading line(s), from the start of the first
	// line to the end of the last, without the final line break.
	Span source.Span
	// TextSpan covers Text in the source (for a multi-line setext heading
	// it also covers the line breaks and prefixes in between).
	TextSpan source.Span
	// Line is the zero-based line of the heading's first line.
	Line int
	// Anchor is the heading's anchor under the OpenGDD rule (OpenGDDAnchor);
	// two headings can share one.
	Anchor string
	// GitHubAnchor is the id GitHub gives the heading, including the -1,
	// -2 suffixes for repeats earlier in the document.
	GitHubAnchor string
	// SectionEnd is the byte offset where the heading's section ends: the
	// start of the line of the next heading with the same or a smaller
	// level, or len(Data).
	SectionEnd int
}

// Section returns the span of the heading's section.
func (h Heading) Section() source.Span { return source.Span{Start: h.Span.Start, End: h.SectionEnd} }

// CodeSpan is one inline code span.
type CodeSpan struct {
	// Text is the content as CommonMark defines it: line endings become
	// spaces, and one leading and one trailing space are stripped when both
	// are present and the content is not all spaces.
	Text string
	// Span covers the code span with its backticks.
	Span source.Span
	// TextSpan covers the content that Text was taken from.
	TextSpan source.Span
	// Block is the span of the enclosing list item, or of the paragraph or
	// heading when the span is in no list item.
	Block source.Span
	// Heading is the index of the heading whose section holds the span (the
	// nearest heading at or before it), or -1 before the first heading.
	Heading int
	// Line is the zero-based line of the opening backtick.
	Line int
	// InHeading reports a code span in a heading's text.
	InHeading bool
}

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

// Link is one link, image, reference definition or autolink.
type Link struct {
	Kind LinkKind
	// Image reports `![...]`.
	Image bool
	// Style is the reference style of a ReferenceLink.
	Style RefStyle
	// Span covers the whole construct: from `[` or `![` through the closing
	// `)` or `]`; for a definition the label, destination and title; for an
	// autolink the angle brackets.
	Span source.Span
	// Text is the raw link text between the first brackets (empty for
	// definitions; the address for autolinks), and TextSpan its source.
	Text     string
	TextSpan source.Span
	// Raw is the destination as written, with `<...>` unwrapped and no
	// escapes resolved, for inline links, definitions and autolinks.
	// DestSpan is its source span (empty, at the position where it would
	// be, for `[t]()`). Both are empty for reference links: their
	// destination is written in the definition (see Def).
	Raw      string
	DestSpan source.Span
	// Label is the reference label as written: of a definition, or of the
	// label a reference link uses (for collapsed and shortcut links, the
	// link text). LabelSpan is its source span.
	Label     string
	LabelSpan source.Span
	// Dest is the destination the link goes to: Raw for inline links,
	// definitions and autolinks; for a reference link the Raw of its
	// definition.
	Dest string
	// Def is the index in Doc.Links of the definition a reference link
	// resolves to (the first definition of that label), or -1.
	Def int
	// Heading is the index of the heading whose section holds the link,
	// or -1; Line is the zero-based line where the link starts.
	Heading int
	Line    int
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
