package markdown

import (
	"bytes"
	"sort"
	"strings"
	"sync"

	"github.com/gddls/gddls/contracts/source"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

type spanT = source.Span

// defaultParser is goldmark's parser with its default options, built once:
// building one allocates its block and inline parser tables (about 13 KB),
// and goldmark's parsers keep no state between parses (a parse keeps its
// state in its own parser.Context), so one serves every document and
// goroutine.
var defaultParser = sync.OnceValue(goldmark.DefaultParser)

// docParser is the parser Parse reads documents with: goldmark's defaults,
// except that emphasis is parsed in headings only, built once like
// defaultParser. Emphasis changes no link, code span, autolink or raw HTML
// a paragraph holds (CommonMark gives all of them precedence over it) and
// nothing outside a heading's rendered text reads it, while its delimiters
// and nodes were a tenth of what a parse allocated.
// TestDocParserMatchesDefault compares the two parsers' documents.
var docParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(
			util.Prioritized(parser.NewCodeSpanParser(), 100),
			util.Prioritized(parser.NewLinkParser(), 200),
			util.Prioritized(parser.NewAutoLinkParser(), 300),
			util.Prioritized(parser.NewRawHTMLParser(), 400),
			util.Prioritized(headingOnly{parser.NewEmphasisParser()}, 500),
		),
		parser.WithParagraphTransformers(
			util.Prioritized(definitions{parser.LinkReferenceParagraphTransformer}, 100),
			util.Prioritized(proseTransformer{}, 1000),
		),
	)
})

// definitions is goldmark's transformer that takes link reference
// definitions out of a paragraph, skipped for a paragraph whose first
// character other than white space is not `[`: goldmark's transformer
// would find no definition there, and it allocates a reader for every
// paragraph to tell.
type definitions struct{ parser.ParagraphTransformer }

// Transform implements parser.ParagraphTransformer.
func (t definitions) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	if opensWithBracket(reader.Source(), node.Lines()) {
		t.ParagraphTransformer.Transform(node, reader, pc)
	}
}

// opensWithBracket reports whether the first byte of lines that goldmark
// does not count as white space is `[`.
func opensWithBracket(src []byte, lines *text.Segments) bool {
	for i := range lines.Len() {
		seg := lines.At(i)
		for _, c := range src[seg.Start:seg.Stop] {
			if !util.IsSpace(c) {
				return c == '['
			}
		}
	}
	return false
}

// headingOnly is an inline parser that parses only inside headings: in
// any other block its trigger characters are text.
type headingOnly struct{ parser.InlineParser }

// Parse parses at the reader's position when block is a heading.
func (h headingOnly) Parse(block ast.Node, r text.Reader, pc parser.Context) ast.Node {
	if _, ok := block.(*ast.Heading); !ok {
		return nil
	}
	return h.InlineParser.Parse(block, r, pc)
}

// Parse reads a Markdown document. It is a pure function of data, keeps a
// reference to data without copying it (unless it starts with a byte order
// mark), and never panics: bytes that are not valid Markdown or UTF-8 are
// read as CommonMark reads them. The records' strings taken as written
// (heading and link texts, destinations, labels, code) share data's memory
// rather than copying it, so data must not be modified once parsed (file
// contents never are: an edit makes a new buffer).
func Parse(data []byte) *Doc {
	return ParseIndexed(data, source.NewLines(data))
}

// ParseIndexed is Parse with the line index of data already built (a
// cache keeps one per content); lines must index exactly data. The
// document keeps lines as its Lines.
func ParseIndexed(data []byte, lines *source.Lines) *Doc {
	d := &Doc{Data: data, Lines: lines}
	if uint64(len(data)) > maxDoc {
		// Offsets past 32 bits do not fit the records: such a document
		// has no structure, only its tags.
		d.scanTags()
		return d
	}
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		d.bom = 3
	}
	d.parseStructure(docParser())
	d.scanTags()
	return d
}

// parseStructure fills everything that comes from goldmark's tree, as gm
// parses it. If the
// parser ever panicked, the structural fields are left empty rather than
// half filled; the line-based tag scan still runs.
func (d *Doc) parseStructure(gm parser.Parser) {
	defer func() {
		if r := recover(); r != nil {
			d.Headings, d.CodeSpans, d.Links, d.Quotes, d.CodeBlocks, d.HTMLAnchors, d.own = nil, nil, nil, nil, nil, nil, nil
		}
	}()
	src := d.Data
	if bytes.HasPrefix(src, []byte("\xEF\xBB\xBF")) {
		// goldmark does not skip a byte order mark. Three spaces keep every
		// offset and still let the first line open any block.
		src = append([]byte("   "), src[3:]...)
	}
	src = defang(src)
	pc := parser.NewContext()
	root := gm.Parse(text.NewReader(src), parser.WithContext(pc))
	p := &builder{d: d, src: src, prose: proseScan{pc: pc}}
	// The records' strings share the document's bytes when the parse read
	// those bytes themselves (no byte order mark, nothing defanged).
	p.shared = len(src) > 0 && len(src) == len(d.Data) && &src[0] == &d.Data[0]
	// Room for the links, headings and code spans the source seems to
	// hold, so that appending them one by one does not copy the slices as
	// they grow; fit gives back what a wrong guess left unused. A link is
	// inline "](", a full reference "][" or a definition "]:"; a code span
	// has two backticks at least, which are not those of a code fence.
	d.Links = sized[Link](bytes.Count(src, []byte("](")) + bytes.Count(src, []byte("][")) + bytes.Count(src, []byte("]:")))
	d.Headings = sized[Heading](bytes.Count(src, []byte("\n#")) + 1)
	d.CodeSpans = sized[CodeSpan](max(bytes.Count(src, []byte("`"))-3*bytes.Count(src, []byte("```")), 0) / 2)
	p.walk(root)
	d.Links, d.Headings, d.CodeSpans = fit(d.Links), fit(d.Headings), fit(d.CodeSpans)
	p.finishHeadings()
	p.resolveReferences()
	p.place()
}

// sized returns an empty slice with room for n elements, or nil for none.
func sized[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, 0, n)
}

// fit returns s, copied to its length when much of its room is unused;
// nil when it is empty.
func fit[T any](s []T) []T {
	switch {
	case len(s) == 0:
		return nil
	case cap(s)-len(s) > len(s)/4:
		return append([]T(nil), s...)
	}
	return s
}

type builder struct {
	d   *Doc
	src []byte
	// shared reports that src is the document's Data, so that the
	// records' strings may share its memory (vtext.str).
	shared bool
	// blockText is the text of the block being read, htmlText that of a
	// raw HTML tag inside it; each is reset for the next.
	blockText, htmlText vtext
	// items are the list items the walk is inside, the innermost last,
	// each with its span once asked for (enclosing).
	items     []listItem
	headNodes []*ast.Heading
	// prose reads the inline content of prose blocks; excl is the memory
	// of the ranges of a block that are not prose, reused block to block.
	prose proseScan
	excl  [][2]int
}

// listItem is a list item the walk is inside; known reports that span is
// computed.
type listItem struct {
	node  ast.Node
	span  spanT
	known bool
}

func (p *builder) walk(root ast.Node) {
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			if _, ok := n.(*ast.ListItem); ok {
				p.items = p.items[:len(p.items)-1]
			}
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.ListItem:
			p.items = append(p.items, listItem{node: n})
		case *ast.Heading:
			span := p.heading(n)
			p.inline(n, p.enclosing(span), true)
			return ast.WalkSkipChildren, nil
		case *ast.Paragraph, *ast.TextBlock:
			p.inline(n, p.enclosing(p.linesSpan(n.Lines())), false)
			return ast.WalkSkipChildren, nil
		case *prose:
			p.proseInline(n, p.enclosing(p.linesSpan(n.Lines())))
			return ast.WalkSkipChildren, nil
		case *ast.LinkReferenceDefinition:
			p.definition(n)
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock:
			p.fenced(n)
			return ast.WalkSkipChildren, nil
		case *ast.CodeBlock:
			p.indented(n)
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			p.htmlBlock(n)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
}

// heading records one heading node and returns its span.
func (p *builder) heading(n *ast.Heading) spanT {
	src := p.src
	var text string
	var textSpan spanT
	var line int
	setext := false
	lines := n.Lines()
	pos := n.Pos()
	if lines.Len() == 0 {
		if pos < 0 || pos > len(src) {
			pos = 0
		}
		end := pos
		for end < len(src) && src[end] == '#' {
			end++
		}
		textSpan = spanT{Start: end, End: end}
		line = p.d.lineOf(pos)
	} else {
		first, last := lines.At(0), lines.At(lines.Len()-1)
		start := clamp(first.Start, len(src))
		stop := trimRight(src, start, clamp(last.Stop, len(src)))
		textSpan = spanT{Start: start, End: stop}
		line = p.d.lineOf(start)
		if pos < 0 || pos > start {
			pos = start
		}
		marks := bytes.TrimSpace(src[pos:start])
		atx := len(marks) > 0 && marks[0] == '#' && len(bytes.Trim(marks, "# \t")) == 0
		setext = !atx
		if setext {
			parts := make([]string, 0, lines.Len())
			for i := 0; i < lines.Len(); i++ {
				s := lines.At(i)
				a, b := clamp(s.Start, len(src)), clamp(s.Stop, len(src))
				if b < a {
					b = a
				}
				parts = append(parts, string(bytes.TrimSpace(src[a:b])))
			}
			text = strings.Join(parts, "\n")
		} else {
			text = view(src[start:stop], p.shared)
		}
	}
	lastLine := line
	if lines.Len() > 0 {
		lastLine = p.d.lineOf(lines.At(lines.Len() - 1).Start)
	}
	if setext {
		lastLine++
	}
	span := spanT{Start: p.d.lineStart(line), End: p.d.lineEnd(lastLine)}
	h := Heading{
		level: uint8(min(max(n.Level, 0), 255)), Setext: setext,
		span: pack(span), textSpan: pack(textSpan), line: uint32(line), own: -1,
		Anchor:       OpenGDDAnchor(text),
		GitHubAnchor: githubSlug(p.headingText(n)),
	}
	if p.d.keep(text, textSpan) {
		h.own = int32(len(p.d.own) - 1)
	}
	p.d.Headings = append(p.d.Headings, h)
	p.headNodes = append(p.headNodes, n)
	return span
}

// headingText renders the text of heading n as GitHub reads it for its
// anchor (renderText). A heading of plain text, without escapes or
// character references, is its own rendering, taken without a copy.
func (p *builder) headingText(n *ast.Heading) string {
	if c, ok := n.FirstChild().(*ast.Text); ok && c.NextSibling() == nil && !c.SoftLineBreak() && !c.HardLineBreak() {
		v := c.Segment.Value(p.src)
		if bytes.IndexByte(v, '\\') < 0 && bytes.IndexByte(v, '&') < 0 {
			return view(v, p.shared)
		}
	}
	var buf strings.Builder
	renderText(n, p.src, &buf)
	return buf.String()
}

// finishHeadings adds section ends and GitHub suffixes. A GitHub anchor
// equal to the OpenGDD one shares its string.
func (p *builder) finishHeadings() {
	hs := p.d.Headings
	slugger := &Slugger{counts: make(map[string]int, len(hs))}
	for i := range hs {
		hs[i].GitHubAnchor = slugger.Unique(hs[i].GitHubAnchor)
		if hs[i].GitHubAnchor == hs[i].Anchor {
			hs[i].GitHubAnchor = hs[i].Anchor
		}
		hs[i].sectionEnd = uint32(len(p.d.Data))
		for j := i + 1; j < len(hs); j++ {
			if hs[j].level <= hs[i].level {
				hs[i].sectionEnd = hs[j].span.start
				break
			}
		}
	}
}

// fenced records a fenced code block, finding its closing fence line.
func (p *builder) fenced(n *ast.FencedCodeBlock) {
	d := p.d
	pos := n.Pos()
	lines := n.Lines()
	if pos < 0 {
		if lines.Len() == 0 {
			return
		}
		pos = lines.At(0).Start
	}
	start := d.lineOf(pos)
	// The fence character and length, from the opening line.
	open := d.lineText(start)
	open = bytes.TrimLeft(open, " \t>")
	fc := byte('`')
	if len(open) > 0 && open[0] == '~' {
		fc = '~'
	}
	fl := 0
	for fl < len(open) && open[fl] == fc {
		fl++
	}
	next := start + 1
	if lines.Len() > 0 {
		next = d.lineOf(lines.At(lines.Len()-1).Start) + 1
	}
	end := next
	closed := false
	if next < d.Lines.LineCount() && fl >= 3 {
		t := bytes.TrimLeft(d.lineText(next), " \t>")
		k := 0
		for k < len(t) && t[k] == fc {
			k++
		}
		if k >= fl && len(bytes.TrimSpace(t[k:])) == 0 {
			end, closed = next+1, true
		}
	}
	cb := CodeBlock{Fenced: true, Closed: closed, StartLine: start, EndLine: end}
	cb.Content = spanT{Start: len(d.Data), End: len(d.Data)}
	if start+1 < d.Lines.LineCount() {
		cb.Content.Start = d.lineStart(start + 1)
	}
	if closed {
		cb.Content.End = d.lineStart(end - 1)
	}
	cb.Content.End = max(cb.Content.End, cb.Content.Start)
	if n.Info != nil {
		cb.Info = view(n.Info.Segment.Value(p.src), p.shared)
	}
	cb.Span = spanT{Start: d.lineStart(start), End: d.lineEnd(end - 1)}
	d.CodeBlocks = append(d.CodeBlocks, cb)
}

// indented records an indented code block.
func (p *builder) indented(n *ast.CodeBlock) {
	lines := n.Lines()
	if lines.Len() == 0 {
		return
	}
	d := p.d
	start := d.lineOf(lines.At(0).Start)
	end := d.lineOf(lines.At(lines.Len()-1).Start) + 1
	span := spanT{Start: d.lineStart(start), End: d.lineEnd(end - 1)}
	d.CodeBlocks = append(d.CodeBlocks, CodeBlock{StartLine: start, EndLine: end, Span: span, Content: span})
}

// linesSpan is the span from the first segment's start to the last
// segment's end, without trailing white space.
func (p *builder) linesSpan(lines *text.Segments) spanT {
	if lines == nil || lines.Len() == 0 {
		return spanT{}
	}
	a := clamp(lines.At(0).Start, len(p.src))
	b := trimRight(p.src, a, clamp(lines.At(lines.Len()-1).Stop, len(p.src)))
	return spanT{Start: a, End: b}
}

// enclosing returns the span of the innermost list item the walk is in,
// or own outside lists.
func (p *builder) enclosing(own spanT) spanT {
	if len(p.items) == 0 {
		return own
	}
	it := &p.items[len(p.items)-1]
	if !it.known {
		it.span, it.known = p.nodeSpan(it.node), true
	}
	return it.span
}

// nodeSpan covers a block and all its descendants' lines.
func (p *builder) nodeSpan(n ast.Node) spanT {
	start, end := -1, -1
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		if n.Type() != ast.TypeBlock {
			return
		}
		if pos := n.Pos(); pos >= 0 && (start < 0 || pos < start) {
			start = pos
		}
		if lines := n.Lines(); lines != nil && lines.Len() > 0 {
			s := p.linesSpan(lines)
			if start < 0 || s.Start < start {
				start = s.Start
			}
			if s.End > end {
				end = s.End
			}
		}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			visit(c)
		}
	}
	visit(n)
	start = clamp(start, len(p.src))
	if end < start {
		end = p.d.lineEnd(p.d.lineOf(start))
	}
	return spanT{Start: start, End: end}
}

// resolveReferences points every reference link at the first definition
// of its label.
func (p *builder) resolveReferences() {
	ndefs, nrefs := 0, 0
	for _, l := range p.d.Links {
		switch l.Kind {
		case Definition:
			ndefs++
		case ReferenceLink:
			nrefs++
		}
	}
	if ndefs == 0 || nrefs == 0 {
		return
	}
	defs := make(map[string]int, ndefs)
	for i, l := range p.d.Links {
		if l.Kind == Definition {
			key := normalizeLabel(l.Label(p.d))
			if _, seen := defs[key]; !seen {
				defs[key] = i
			}
		}
	}
	for i := range p.d.Links {
		l := &p.d.Links[i]
		if l.Kind != ReferenceLink {
			continue
		}
		if j, ok := defs[normalizeLabel(l.Label(p.d))]; ok {
			l.def = int32(j)
		}
	}
}

// normalizeLabel matches labels as CommonMark does: case-folded, with
// inner white space collapsed and the ends trimmed.
func normalizeLabel(s string) string {
	if isNormalLabel(s) {
		return s
	}
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// isNormalLabel reports whether normalizeLabel would return s itself: s is
// ASCII without capitals, and its only white space is single spaces
// between words.
func isNormalLabel(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80, 'A' <= c && c <= 'Z', c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '):
			return false
		}
	}
	return true
}

// place sorts the inline records and gives each its heading and line.
func (p *builder) place() {
	d := p.d
	sort.SliceStable(d.CodeSpans, func(i, j int) bool { return d.CodeSpans[i].span.start < d.CodeSpans[j].span.start })
	sort.SliceStable(d.Quotes, func(i, j int) bool { return d.Quotes[i].Span.Start < d.Quotes[j].Span.Start })
	for i := range d.CodeSpans {
		c := &d.CodeSpans[i]
		at := int(c.span.start)
		c.heading, c.line = int32(d.HeadingAt(at)), uint32(d.lineOf(at))
	}
	for i := range d.Links {
		l := &d.Links[i]
		at := int(l.span.start)
		l.heading, l.line = int32(d.HeadingAt(at)), uint32(d.lineOf(at))
	}
	for i := range d.Quotes {
		q := &d.Quotes[i]
		q.Heading, q.Line = d.HeadingAt(q.Span.Start), d.lineOf(q.Span.Start)
	}
}

// trimRight moves end back over white space (including line breaks), not
// before start.
func trimRight(src []byte, start, end int) int {
	for end > start {
		switch src[end-1] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			end--
			continue
		}
		break
	}
	return end
}
