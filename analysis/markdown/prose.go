package markdown

import (
	"slices"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// A paragraph's inline content is read by proseScan.scan rather than by
// goldmark's inline parser. A document records only a paragraph's code
// spans, links, images, autolinks and raw HTML, while goldmark's inline
// parser builds a node for every run of text and every line between them:
// on documents dense with links that tree was half of a parse's time and
// most of its garbage. proseScan.scan walks the paragraph's lines with
// goldmark's own block reader, in the same steps as goldmark's inline
// parser (parser.parseBlock and its link parser), and calls goldmark's own
// autolink and raw HTML parsers, so that it finds exactly the constructs
// goldmark would; emphasis, which docParser reads in headings only, plays
// no part in a paragraph. TestDocParserMatchesDefault and FuzzDocParser
// compare the documents of both ways of reading.

// kindProse is the node kind of prose.
var kindProse = ast.NewNodeKind("gddlsProse")

// prose is a paragraph whose inline content goldmark's parser leaves
// unread: a raw block, which goldmark's inline pass skips.
type prose struct {
	ast.BaseBlock
}

// Kind implements ast.Node.
func (n *prose) Kind() ast.NodeKind { return kindProse }

// IsRaw implements ast.Node: goldmark does not parse the inline content
// of a raw block.
func (n *prose) IsRaw() bool { return true }

// Dump implements ast.Node.
func (n *prose) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// proseTransformer is the last paragraph transformer of docParser: it
// replaces each paragraph that is left once link reference definitions
// are taken out of it by a prose block with the same lines, trimmed as
// goldmark trims a paragraph's lines when it closes it (a transformed
// paragraph is not closed). A list's tight paragraphs stay prose rather
// than becoming text blocks; a document reads both alike.
//
// goldmark also runs the transformers on a paragraph that a setext
// heading's underline may turn into the heading's text, and takes a
// paragraph they replaced for one that is no longer there to underline.
// That paragraph has left the open blocks already, while one that closes
// is still among them: only such a one becomes prose. A paragraph left as
// it is reads as before, through goldmark's inline parser.
type proseTransformer struct{}

// Transform implements parser.ParagraphTransformer.
func (proseTransformer) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	if !isOpen(pc, node) {
		return
	}
	lines := node.Lines()
	src := reader.Source()
	for i := range lines.Len() {
		l := lines.At(i)
		lines.Set(i, l.TrimLeftSpace(src))
	}
	if n := lines.Len(); n > 0 {
		l := lines.At(n - 1)
		lines.Set(n-1, l.TrimRightSpace(src))
	}
	parent := node.Parent()
	if lines.Len() == 0 {
		parent.RemoveChild(parent, node)
		return
	}
	p := &prose{}
	p.SetLines(lines)
	p.SetBlankPreviousLines(node.HasBlankPreviousLines())
	parent.ReplaceChild(parent, node, p)
}

// isOpen reports whether node is among the blocks goldmark has open.
func isOpen(pc parser.Context, node ast.Node) bool {
	blocks := pc.OpenedBlocks()
	for i := len(blocks) - 1; i >= 0; i-- {
		if blocks[i].Node == node {
			return true
		}
	}
	return false
}

// proseKind is the kind of construct a proseItem is.
type proseKind uint8

const (
	proseCodeSpan proseKind = iota
	proseLink
	proseAutolink
	proseRawHTML
)

// proseItem is one construct proseScan.scan found. Offsets are source offsets:
// start is that of its first byte (the `!` of an image), closeText that of
// the bracket closing a link's text.
type proseItem struct {
	kind      proseKind
	image     bool
	inline    bool // an inline link, `[text](dest)`; else a reference
	refType   ast.ReferenceLinkType
	start     int
	closeText int
	html      *ast.RawHTML
}

// proseOpener is a `[` or `![` whose closing bracket is not read yet:
// start and stop delimit it, and links is the number of links the scan
// had made when it was read.
type proseOpener struct {
	start, stop int
	image       bool
	links       int
}

// proseScan scans the prose blocks of one document, one after another,
// keeping its reader and its lists' memory from block to block.
type proseScan struct {
	r       text.BlockReader
	pc      parser.Context
	items   []proseItem
	openers []proseOpener
	links   int
}

// linkClosure is how goldmark's link parser finds a closing bracket or
// quote: no nesting, across lines.
var linkClosure = text.FindClosureOptions{Nesting: false, Newline: true, Advance: true}

// scan returns the constructs of the prose block n, sorted by their
// start (a link before what its text holds), reusing s's memory.
func (s *proseScan) scan(src []byte, n *prose) []proseItem {
	s.items, s.openers, s.links = s.items[:0], s.openers[:0], 0
	if s.r == nil {
		s.r = text.NewBlockReader(src, nil)
	}
	r := s.r
	r.Reset(n.Lines())
	escaped := false
	for {
	retry:
		line, _ := r.PeekLine()
		if line == nil {
			break
		}
		l, _ := r.Position()
		size := contentLength(line)
		run := 0 // bytes read since the reader's position
		for i := 0; i < size; i++ {
			c := line[i]
			if c == '\n' {
				break
			}
			// goldmark offers a punctuation character to the inline
			// parsers unless a backslash escapes it, and the first of a
			// line always.
			if util.IsPunct(c) && (!escaped || i == 0) && isProseTrigger(c) {
				r.Advance(run)
				run = 0
				savedLine, savedPos := r.Position()
				if s.construct(c) {
					goto retry
				}
				r.SetPosition(savedLine, savedPos)
			}
			if escaped {
				escaped = false
				run++
				continue
			}
			if c == '\\' {
				escaped = true
			}
			run++
		}
		if run != 0 {
			r.Advance(run)
		}
		if current, _ := r.Position(); current != l {
			continue
		}
		r.AdvanceLine()
	}
	slices.SortFunc(s.items, func(a, b proseItem) int { return a.start - b.start })
	return s.items
}

// contentLength is the length of line that goldmark's inline parser reads:
// without a hard line break's backslash or two trailing spaces.
func contentLength(line []byte) int {
	n := len(line)
	if n == 0 || line[n-1] != '\n' {
		return n
	}
	switch {
	case n >= 3 && line[n-2] == '\\' && line[n-3] != '\\' || n == 2 && line[n-2] == '\\':
		return n - 2
	case n >= 4 && line[n-3] == '\\' && line[n-2] == '\r' && line[n-4] != '\\' || n == 3 && line[n-3] == '\\' && line[n-2] == '\r':
		return n - 3
	case n >= 3 && line[n-3] == ' ' && line[n-2] == ' ':
		return n - 3
	case n >= 4 && line[n-4] == ' ' && line[n-3] == ' ' && line[n-2] == '\r':
		return n - 4
	}
	return n
}

// isProseTrigger reports whether c starts a construct a paragraph may hold.
func isProseTrigger(c byte) bool {
	switch c {
	case '`', '<', '!', '[', ']':
		return true
	}
	return false
}

// construct reads the construct that c at the reader's position starts,
// as goldmark's inline parsers for c would, and reports whether one of
// them took it (a backtick run that opens no code span is taken as text).
// When it reports false the caller rewinds the reader.
func (s *proseScan) construct(c byte) bool {
	r := s.r
	line, seg := r.PeekLine()
	switch c {
	case '`':
		s.codeSpan(line, seg.Start)
		return true
	case '<':
		l, pos := r.Position()
		if parser.NewAutoLinkParser().Parse(nil, r, s.pc) != nil {
			s.items = append(s.items, proseItem{kind: proseAutolink, start: seg.Start})
			return true
		}
		r.SetPosition(l, pos)
		return s.rawHTML(seg.Start)
	case '!':
		if len(line) > 1 && line[1] == '[' {
			r.Advance(2)
			s.openers = append(s.openers, proseOpener{start: seg.Start, stop: seg.Start + 2, image: true, links: s.links})
			return true
		}
		return false
	case '[':
		r.Advance(1)
		s.openers = append(s.openers, proseOpener{start: seg.Start, stop: seg.Start + 1, links: s.links})
		return true
	}
	return s.closeBracket(seg.Start)
}

// codeSpan reads the backtick run at the start of line (at source offset
// start) and the code span it opens, if a run of the same length closes
// it; otherwise the run is text.
func (s *proseScan) codeSpan(line []byte, start int) {
	r := s.r
	opener := 0
	for opener < len(line) && line[opener] == '`' {
		opener++
	}
	r.Advance(opener)
	l, pos := r.Position()
	for {
		line, _ := r.PeekLine()
		if line == nil {
			r.SetPosition(l, pos)
			return
		}
		for i := 0; i < len(line); i++ {
			if line[i] != '`' {
				continue
			}
			from := i
			for i < len(line) && line[i] == '`' {
				i++
			}
			if i-from == opener {
				r.Advance(i)
				s.items = append(s.items, proseItem{kind: proseCodeSpan, start: start})
				return
			}
		}
		r.AdvanceLine()
	}
}

// rawHTML reads raw HTML at the reader's position with goldmark's parser.
func (s *proseScan) rawHTML(start int) bool {
	n, ok := parser.NewRawHTMLParser().Parse(nil, s.r, s.pc).(*ast.RawHTML)
	if !ok {
		return false
	}
	s.items = append(s.items, proseItem{kind: proseRawHTML, start: start, html: n})
	return true
}

// closeBracket reads the `]` at source offset at, which closes the last
// opener into a link or image when what follows it makes one, as
// goldmark's link parser does, and reports whether it did; otherwise the
// opener and the bracket are text.
func (s *proseScan) closeBracket(at int) bool {
	if len(s.openers) == 0 {
		return false
	}
	r := s.r
	r.Advance(1)
	last := s.openers[len(s.openers)-1]
	s.openers = s.openers[:len(s.openers)-1]
	// goldmark's bound on a label's length, measured as it measures it:
	// from the first opener still open to the end of the last one.
	if k := len(s.openers); k > 0 && s.openers[k-1].stop-s.openers[0].start > 998 {
		return false
	}
	// A link's text holds no other link (an image's may).
	if !last.image && s.links > last.links {
		return false
	}
	item := proseItem{kind: proseLink, image: last.image, start: last.start, closeText: at}
	made := false
	l, pos := r.Position()
	switch r.Peek() {
	case '(':
		made = s.inlineTail()
		item.inline = true
	case '[':
		typ, found, resolved := s.referenceTail(last)
		if found && !resolved {
			return false
		}
		made, item.refType = resolved, typ
	}
	if !made {
		r.SetPosition(l, pos)
		label := r.Value(text.NewSegment(last.stop, at))
		if len(label) > 999 {
			return false
		}
		if _, ok := s.pc.Reference(util.ToLinkReference(label)); !ok {
			return false
		}
		item.inline, item.refType = false, ast.ReferenceLinkShortcut
	}
	if !last.image {
		s.links++
	}
	s.items = append(s.items, item)
	return true
}

// inlineTail reads `(destination "title")` at the reader's position and
// reports whether it is one: an empty pair of parentheses, or a
// destination and an optional title before the closing one.
func (s *proseScan) inlineTail() bool {
	r := s.r
	r.Advance(1)
	if closeParen(r) {
		return true
	}
	if !linkDestination(r) {
		return false
	}
	if closeParen(r) {
		return true
	}
	return linkTitle(r) && closeParen(r)
}

// closeParen reads white space and the `)` that closes an inline link's
// tail, and reports whether it was there.
func closeParen(r text.Reader) bool {
	r.SkipSpaces()
	if r.Peek() != ')' {
		return false
	}
	r.Advance(1)
	return true
}

// referenceTail reads `[label]` or `[]` at the reader's position: found
// reports a closing bracket, resolved a definition of the label.
func (s *proseScan) referenceTail(last proseOpener) (typ ast.ReferenceLinkType, found, resolved bool) {
	r := s.r
	_, org := r.Position()
	r.Advance(1)
	segs, ok := r.FindClosure('[', ']', linkClosure)
	if !ok {
		return 0, false, false
	}
	var label []byte
	for i := range segs.Len() {
		label = append(label, r.Value(segs.At(i))...)
	}
	typ = ast.ReferenceLinkFull
	if util.IsBlank(label) {
		label = r.Value(text.NewSegment(last.stop, org.Start-1))
		typ = ast.ReferenceLinkCollapsed
	}
	if len(label) > 999 {
		return typ, true, false
	}
	_, ok = s.pc.Reference(util.ToLinkReference(label))
	return typ, true, ok
}

// linkDestination reads a link destination on the reader's line, as
// goldmark reads one (scanDest).
func linkDestination(r text.Reader) bool {
	r.SkipSpaces()
	line, _ := r.PeekLine()
	_, _, next, ok := scanDest(line, 0)
	if ok {
		r.Advance(next)
	}
	return ok
}

// linkTitle reads a link title, as goldmark reads one.
func linkTitle(r text.Reader) bool {
	r.SkipSpaces()
	opener := r.Peek()
	closer := opener
	switch opener {
	case '"', '\'':
	case '(':
		closer = ')'
	default:
		return false
	}
	r.Advance(1)
	_, found := r.FindClosure(opener, closer, linkClosure)
	return found
}
