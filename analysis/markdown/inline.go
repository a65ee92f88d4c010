package markdown

import (
	"bytes"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// inline records the code spans, links and quotes of one block with inline
// content (paragraph, tight list item text or heading).
func (p *builder) inline(block ast.Node, enclosing spanT, inHeading bool) {
	vt := &p.blockText
	vt.reset(p.src, block.Lines())
	if vt.total == 0 {
		return
	}
	var excl [][2]int // virtual ranges that are not prose
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.CodeSpan:
				if r, ok := p.codeSpan(vt.virt(c.Pos()), vt, enclosing, inHeading); ok {
					excl = append(excl, r)
				}
				continue
			case *ast.Link:
				if r, ok := p.link(c, c.Reference, false, vt); ok {
					excl = append(excl, r)
				}
			case *ast.Image:
				if r, ok := p.link(c, c.Reference, true, vt); ok {
					excl = append(excl, r)
				}
			case *ast.AutoLink:
				if r, ok := p.autolink(vt.virt(c.Pos()), vt); ok {
					excl = append(excl, r)
				}
				continue
			case *ast.RawHTML:
				excl = p.inlineHTML(c, vt, excl)
				continue
			}
			visit(c)
		}
	}
	visit(block)
	p.quotes(vt, excl, enclosing)
}

// proseInline records the code spans, links and quotes of a prose block,
// which proseScan.scan reads.
func (p *builder) proseInline(block *prose, enclosing spanT) {
	vt := &p.blockText
	vt.reset(p.src, block.Lines())
	if vt.total == 0 {
		return
	}
	excl := p.excl[:0] // virtual ranges that are not prose
	for _, it := range p.prose.scan(p.src, block) {
		start := vt.virt(it.start)
		var r [2]int
		ok := false
		switch it.kind {
		case proseCodeSpan:
			r, ok = p.codeSpan(start, vt, enclosing, false)
		case proseAutolink:
			r, ok = p.autolink(start, vt)
		case proseRawHTML:
			excl = p.inlineHTML(it.html, vt, excl)
		case proseLink:
			if open, isLink := linkOpen(vt.b, start, it.image); isLink {
				closeText := vt.virt(it.closeText)
				var l linkTexts
				var end int
				if l, end, ok = p.linkTexts(start, open, closeText, it.inline, it.refType, it.image, vt); ok {
					p.addLink(l)
					r = [2]int{closeText, end}
				}
			}
		}
		if ok {
			excl = append(excl, r)
		}
	}
	p.quotes(vt, excl, enclosing)
	p.excl = excl
}

// inlineHTML records the tags of the raw HTML n in vt and returns excl
// with its ranges, which are not prose, appended.
func (p *builder) inlineHTML(n *ast.RawHTML, vt *vtext, excl [][2]int) [][2]int {
	p.htmlText.reset(p.src, n.Segments)
	p.rawHTML(&p.htmlText)
	if n.Segments != nil {
		for i := 0; i < n.Segments.Len(); i++ {
			s := n.Segments.At(i)
			a, b := vt.virt(s.Start), vt.virt(s.Stop-1)
			if a >= 0 && b >= a {
				excl = append(excl, [2]int{a, b + 1})
			}
		}
	}
	return excl
}

// codeSpan records the code span starting at index start of vt and returns
// its virtual range.
func (p *builder) codeSpan(start int, vt *vtext, enclosing spanT, inHeading bool) ([2]int, bool) {
	b := vt.b
	if start < 0 || start >= len(b) || b[start] != '`' {
		return [2]int{}, false
	}
	run := countRun(b, start, '`')
	open := start + run
	closeAt := -1
	for i := open; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		k := countRun(b, i, '`')
		if k == run {
			closeAt = i
			break
		}
		i += k
	}
	if closeAt < 0 {
		return [2]int{}, false
	}
	end := closeAt + run
	// CommonMark content: line endings become spaces; one space is
	// stripped from each end when both ends have one and not all is space.
	a, z := open, closeAt
	content := lineBreaksToSpaces(vt, a, z, p.shared)
	if len(content) >= 2 && content[0] == ' ' && content[len(content)-1] == ' ' && strings.Trim(content, " ") != "" {
		content = content[1 : len(content)-1]
		a++
		if z-1 > a && b[z-1] == '\n' && b[z-2] == '\r' {
			z -= 2
		} else {
			z--
		}
		if a < z && b[a-1] == '\r' && b[a] == '\n' {
			a++
		}
	}
	c := CodeSpan{
		span: pack(vt.span(start, end)), textSpan: pack(vt.span(a, z)), block: pack(enclosing),
		own: -1, InHeading: inHeading,
	}
	if p.d.keep(content, c.textSpan.span()) {
		c.own = int32(len(p.d.own) - 1)
	}
	p.d.CodeSpans = append(p.d.CodeSpans, c)
	return [2]int{start, end}, true
}

// link records an inline link, image or reference link. The returned range
// covers what follows the link text (destination, title or label), which
// is not prose.
func (p *builder) link(n ast.Node, ref *ast.ReferenceLink, image bool, vt *vtext) ([2]int, bool) {
	l, closeText, end, ok := p.scanLink(n, ref, image, vt)
	if !ok {
		return [2]int{}, false
	}
	p.addLink(l)
	return [2]int{closeText, end}, true
}

// linkTexts is a link being recorded with its texts, which addLink keeps
// in the document when they are not the source's bytes under their spans.
type linkTexts struct {
	Link
	text, raw, label string
}

// addLink appends l's record to the document.
func (p *builder) addLink(l linkTexts) {
	d := p.d
	l.own = int32(len(d.own))
	if d.keep(l.text, l.Link.text.span()) {
		l.owns |= ownLinkText
	}
	if d.keep(l.raw, l.dest.span()) {
		l.owns |= ownRaw
	}
	if d.keep(l.label, l.Link.label.span()) {
		l.owns |= ownLabel
	}
	d.Links = append(d.Links, l.Link)
}

// scanLink reads the link, image or reference link n in vt and returns it
// with the index of the bracket that closes its text and the index after
// the whole construct.
func (p *builder) scanLink(n ast.Node, ref *ast.ReferenceLink, image bool, vt *vtext) (l linkTexts, closeText, end int, ok bool) {
	b := vt.b
	start := vt.virt(n.Pos())
	open, ok := linkOpen(b, start, image)
	if !ok {
		return l, 0, 0, false
	}
	// The closing bracket of the text comes after the last source byte of
	// the link's content and after every image or link nested in it (as in
	// [![logo](logo.png)](home.md)); only delimiter characters lie in
	// between.
	lower := open + 1
	if stop := maxStop(n, p.src); stop > 0 {
		if v := vt.virt(stop - 1); v >= lower {
			lower = v + 1
		}
	}
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || c == n {
			return ast.WalkContinue, nil
		}
		var e int
		var ok bool
		switch c := c.(type) {
		case *ast.Image:
			_, _, e, ok = p.scanLink(c, c.Reference, true, vt)
		case *ast.Link:
			_, _, e, ok = p.scanLink(c, c.Reference, false, vt)
		default:
			return ast.WalkContinue, nil
		}
		if ok && e > lower {
			lower = e
		}
		return ast.WalkSkipChildren, nil
	})
	closeText = findUnescaped(b, lower, ']')
	if closeText < 0 {
		return l, 0, 0, false
	}
	typ := ast.ReferenceLinkShortcut
	if ref != nil {
		typ = ref.Type
	}
	l, end, ok = p.linkTexts(start, open, closeText, ref == nil, typ, image, vt)
	return l, closeText, end, ok
}

// linkOpen returns the index of the bracket opening the text of the link
// or image that starts at start in b.
func linkOpen(b []byte, start int, image bool) (open int, ok bool) {
	if start < 0 || start >= len(b) {
		return 0, false
	}
	open = start
	if image {
		if b[open] != '!' || open+1 >= len(b) {
			return 0, false
		}
		open++
	}
	return open, b[open] == '['
}

// linkTexts reads the link or image whose text the brackets at open and
// closeText of vt delimit, which starts at start: an inline link when
// inline is set, else a reference link of type typ. It returns the link
// and the index after the whole construct.
func (p *builder) linkTexts(start, open, closeText int, inline bool, typ ast.ReferenceLinkType, image bool, vt *vtext) (l linkTexts, end int, ok bool) {
	b := vt.b
	l = linkTexts{Link: Link{Image: image, def: -1}}
	l.text = vt.str(open+1, closeText, p.shared)
	l.Link.text = pack(vt.span(open+1, closeText))
	end = closeText + 1
	switch {
	case inline:
		l.Kind = InlineLink
		e, ok := scanInlineDest(b, closeText+1, &l, vt, p.shared)
		if !ok {
			return l, 0, false
		}
		end = e
	case typ == ast.ReferenceLinkFull:
		l.Kind, l.Style = ReferenceLink, Full
		if closeText+1 < len(b) && b[closeText+1] == '[' {
			if c := findUnescaped(b, closeText+2, ']'); c >= 0 {
				l.label = vt.str(closeText+2, c, p.shared)
				l.Link.label = pack(vt.span(closeText+2, c))
				end = c + 1
			}
		}
	case typ == ast.ReferenceLinkCollapsed:
		l.Kind, l.Style = ReferenceLink, Collapsed
		l.label, l.Link.label = l.text, l.Link.text
		if c := findUnescaped(b, closeText+1, ']'); c >= 0 {
			end = c + 1
		}
	default:
		l.Kind, l.Style = ReferenceLink, Shortcut
		l.label, l.Link.label = l.text, l.Link.text
	}
	l.span = pack(vt.span(start, end))
	return l, end, true
}

// scanInlineDest reads `(dest "title")` starting at the `(` at index i, as
// goldmark reads it, fills l and returns the index after the `)`.
func scanInlineDest(b []byte, i int, l *linkTexts, vt *vtext, shared bool) (int, bool) {
	if i >= len(b) || b[i] != '(' {
		return 0, false
	}
	k := skipSpace(b, i+1)
	if k < len(b) && b[k] == ')' {
		l.dest = pack(vt.span(k, k))
		return k + 1, true
	}
	a, z, next, ok := scanDest(b, k)
	if !ok {
		return 0, false
	}
	l.raw = vt.str(a, z, shared)
	l.dest = pack(vt.span(a, z))
	k = skipSpace(b, next)
	if k < len(b) && b[k] != ')' {
		_, _, tnext, ok := scanTitle(b, k)
		if !ok {
			return 0, false
		}
		k = skipSpace(b, tnext)
	}
	if k >= len(b) || b[k] != ')' {
		return 0, false
	}
	return k + 1, true
}

// scanDest reads a link destination at k as goldmark reads one: `<...>`
// up to the first `>` of the line that no backslash escapes, or a run
// without white space whose parentheses balance (goldmark, unlike
// CommonMark, lets either hold control characters). It returns the
// destination's range and the index after it.
func scanDest(b []byte, k int) (a, z, next int, ok bool) {
	if k >= len(b) {
		return 0, 0, 0, false
	}
	if b[k] == '<' {
		for i := k + 1; i < len(b); i++ {
			switch b[i] {
			case '\\':
				if i+1 < len(b) && isASCIIPunct(b[i+1]) {
					i++
				}
			case '\n':
				return 0, 0, 0, false
			case '>':
				return k + 1, i, i + 1, true
			}
		}
		return 0, 0, 0, false
	}
	depth := 0
	i := k
loop:
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\\' && i+1 < len(b) && isASCIIPunct(b[i+1]):
			i++
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth < 0 {
				break loop
			}
		case util.IsSpace(c):
			break loop
		}
	}
	if i == k {
		return 0, 0, 0, false
	}
	return k, i, i, true
}

// scanTitle reads a title delimited by "", ” or () starting at k.
func scanTitle(b []byte, k int) (a, z, next int, ok bool) {
	if k >= len(b) {
		return 0, 0, 0, false
	}
	closer := b[k]
	switch closer {
	case '"', '\'':
	case '(':
		closer = ')'
	default:
		return 0, 0, 0, false
	}
	c := findUnescaped(b, k+1, closer)
	if c < 0 {
		return 0, 0, 0, false
	}
	return k + 1, c, c + 1, true
}

// definition records a link reference definition.
func (p *builder) definition(n *ast.LinkReferenceDefinition) {
	vt := &p.blockText
	vt.reset(p.src, n.Lines())
	b := vt.b
	k := skipSpace(b, 0)
	if k >= len(b) || b[k] != '[' {
		return
	}
	c := findUnescaped(b, k+1, ']')
	if c < 0 || c+1 >= len(b) || b[c+1] != ':' {
		return
	}
	l := linkTexts{Link: Link{Kind: Definition, def: -1}}
	l.label = vt.str(k+1, c, p.shared)
	l.Link.label = pack(vt.span(k+1, c))
	d := skipSpace(b, c+2)
	a, z, next, ok := scanDest(b, d)
	if !ok {
		return
	}
	l.raw = vt.str(a, z, p.shared)
	l.dest = pack(vt.span(a, z))
	end := next
	if t := skipSpace(b, next); t > next && t < len(b) {
		if _, _, tnext, ok := scanTitle(b, t); ok && onlySpaceToEOL(b, tnext) {
			end = tnext
		}
	}
	l.span = pack(vt.span(k, end))
	p.addLink(l)
}

// autolink records the `<scheme:...>` or `<address>` starting at index
// start of vt.
func (p *builder) autolink(start int, vt *vtext) ([2]int, bool) {
	b := vt.b
	if start < 0 || start >= len(b) || b[start] != '<' {
		return [2]int{}, false
	}
	i := bytes.IndexByte(b[start:], '>')
	if i < 0 {
		return [2]int{}, false
	}
	end := start + i + 1
	raw := vt.str(start+1, end-1, p.shared)
	inner := pack(vt.span(start+1, end-1))
	p.addLink(linkTexts{
		Link: Link{Kind: Autolink, def: -1, span: pack(vt.span(start, end)), text: inner, dest: inner},
		text: raw, raw: raw,
	})
	return [2]int{start, end}, true
}

// quotes records the “…” and "…" strings of one block outside the
// excluded ranges. The closing mark must be outside code too; the text in
// between may hold code.
func (p *builder) quotes(vt *vtext, excl [][2]int, enclosing spanT) {
	b := vt.b
	for _, q := range findQuotes(b, excl) {
		if txt := lineBreaksToSpaces(vt, q.a, q.z, p.shared); strings.TrimSpace(txt) != "" {
			p.d.Quotes = append(p.d.Quotes, Quote{
				Text: txt, Curly: q.curly,
				Span: vt.span(q.open, q.end), TextSpan: vt.span(q.a, q.z),
				Block: enclosing,
			})
		}
	}
}

// quoteAt is one quoted string found in a block's text: its opening mark
// at open, its text [a, z), its closing mark ending at end.
type quoteAt struct {
	open, a, z, end int
	curly           bool
}

// findQuotes returns the curly quoted strings of b, then the straight
// ones, outside the excluded ranges (sorted here by their start). It jumps
// from mark to mark rather than looking at every byte.
func findQuotes(b []byte, excl [][2]int) []quoteAt {
	if bytes.IndexByte(b, '"') < 0 && !bytes.Contains(b, []byte("\u201c")) {
		return nil
	}
	sort.Slice(excl, func(i, j int) bool { return excl[i][0] < excl[j][0] })
	ptr := 0
	// inExcl returns the end of the exclusion holding i, or -1; calls must
	// come with growing i between resets of ptr.
	inExcl := func(i int) int {
		for ptr < len(excl) && excl[ptr][1] <= i {
			ptr++
		}
		if ptr < len(excl) && excl[ptr][0] <= i {
			return excl[ptr][1]
		}
		return -1
	}
	// next returns the first index at or after i where b holds mark
	// outside the exclusions and ok accepts it, or -1.
	next := func(i int, mark string, ok func(int) bool) int {
		for i < len(b) {
			k := bytes.Index(b[i:], []byte(mark))
			if k < 0 {
				return -1
			}
			k += i
			if e := inExcl(k); e >= 0 {
				i = e
				continue
			}
			if ok(k) {
				return k
			}
			i = k + 1
		}
		return -1
	}
	type mark struct {
		open, close string
		curly       bool
	}
	var out []quoteAt
	for _, m := range []mark{{"\u201c", "\u201d", true}, {`"`, `"`, false}} {
		ptr = 0
		for i := 0; i < len(b); {
			open := next(i, m.open, func(k int) bool { return m.curly || straightOpens(b, k) })
			if open < 0 {
				break
			}
			a := open + len(m.open)
			z := next(a, m.close, func(j int) bool { return m.curly || straightCloses(b, a, j) })
			if z < 0 {
				break
			}
			out = append(out, quoteAt{open: open, a: a, z: z, end: z + len(m.close), curly: m.curly})
			i = z + len(m.close)
		}
	}
	return out
}

// straightOpens reports whether the straight quote at i can open a quoted
// string: it does not follow a letter or digit (as the inch mark in 5"
// does) and is followed by text, not a space.
func straightOpens(b []byte, i int) bool {
	if i > 0 && isWordByte(b[i-1]) {
		return false
	}
	return i+1 < len(b) && !isSpaceByte(b[i+1])
}

// straightCloses reports whether the straight quote at j can close a string
// opened just before a: it follows text, not a space, and is not followed by
// a letter or digit.
func straightCloses(b []byte, a, j int) bool {
	if j == a || isSpaceByte(b[j-1]) {
		return false
	}
	return j+1 >= len(b) || !isWordByte(b[j+1])
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// maxStop returns the largest source stop of any segment under n, or -1.
func maxStop(n ast.Node, src []byte) int {
	best := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			if c.Segment.Stop > best {
				best = c.Segment.Stop
			}
		case *ast.RawHTML:
			if c.Segments != nil && c.Segments.Len() > 0 {
				if s := c.Segments.At(c.Segments.Len() - 1).Stop; s > best {
					best = s
				}
			}
		}
		if c != n && c.Pos() >= 0 && c.Pos()+1 > best {
			best = c.Pos() + 1
		}
		return ast.WalkContinue, nil
	})
	return best
}

// findUnescaped returns the index of the first c at or after i that no
// backslash escapes, or -1.
func findUnescaped(b []byte, i int, c byte) int {
	for ; i < len(b); i++ {
		switch b[i] {
		case '\\':
			if i+1 < len(b) && isASCIIPunct(b[i+1]) {
				i++
			}
		case c:
			return i
		}
	}
	return -1
}

func countRun(b []byte, i int, c byte) int {
	n := 0
	for i+n < len(b) && b[i+n] == c {
		n++
	}
	return n
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r' || b[i] == '\f' || b[i] == '\v') {
		i++
	}
	return i
}

func onlySpaceToEOL(b []byte, i int) bool {
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\r':
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// lineBreaksToSpaces returns vt's text from i to j with each "\r\n", "\n"
// or "\r" turned into one space (vtext.str when there is none).
func lineBreaksToSpaces(vt *vtext, i, j int, shared bool) string {
	if bytes.IndexByte(vt.b[i:j], '\n') < 0 && bytes.IndexByte(vt.b[i:j], '\r') < 0 {
		return vt.str(i, j, shared)
	}
	s := string(vt.b[i:j])
	s = strings.ReplaceAll(s, "\r\n", " ")
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "\r", " ")
}
