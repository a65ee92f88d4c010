package markdown

import (
	"bytes"
	"html"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Raw HTML in Markdown (HTML blocks and inline tags) is read the way the
// HTML tokenizer of a browser reads it (WHATWG HTML §13.2.5), as far as the
// checks need: start tags with their attributes, quoted, unquoted or
// without a value, with spaces around `=`, in any order, the first of two
// equal attribute names winning. Comments, declarations, processing
// instructions, end tags and the content of raw text elements such as
// <script> hold no tags.

// htmlTag is one start tag of raw HTML. Offsets are indexes into the text
// that was scanned.
type htmlTag struct {
	name       string // lowercase
	attrs      []htmlAttr
	start, end int // from `<` through `>`
}

// htmlAttr is one attribute of a start tag.
type htmlAttr struct {
	name string // lowercase
	// value is the value as written, without quotes and with no character
	// reference resolved; start and end delimit it in the scanned text.
	value      string
	start, end int
}

// attr returns the attribute of the given lowercase name.
func (t htmlTag) attr(name string) (htmlAttr, bool) {
	for _, a := range t.attrs {
		if a.name == name {
			return a, true
		}
	}
	return htmlAttr{}, false
}

// rawTextElements hold text, not tags, up to their end tag.
var rawTextElements = map[string]bool{
	"script": true, "style": true, "textarea": true, "title": true,
	"xmp": true, "iframe": true, "noembed": true, "noframes": true,
}

// scanHTML calls fn for every start tag of the raw HTML in b, in order.
// A tag cut off by the end of b is not reported.
func scanHTML(b []byte, fn func(htmlTag)) {
	for i := 0; i < len(b); {
		lt := bytes.IndexByte(b[i:], '<')
		if lt < 0 {
			return
		}
		i += lt
		rest := b[i+1:]
		switch {
		case bytes.HasPrefix(rest, []byte("!--")):
			i = skipComment(b, i+4)
		case len(rest) > 0 && (rest[0] == '!' || rest[0] == '?'):
			i = skipPast(b, i+2, '>') // declaration, CDATA or bogus comment
		case len(rest) > 1 && rest[0] == '/' && isASCIILetter(rest[1]):
			_, next, _ := scanTag(b, i+2) // attributes of an end tag are ignored
			i = next
		case len(rest) > 0 && rest[0] == '/':
			i = skipPast(b, i+2, '>')
		case len(rest) > 0 && isASCIILetter(rest[0]):
			t, next, ok := scanTag(b, i+1)
			if !ok {
				return
			}
			t.start = i
			fn(t)
			i = next
			if rawTextElements[t.name] {
				i = skipRawText(b, i, t.name)
			}
		default:
			i++
		}
	}
}

// skipComment returns the index after the comment whose text starts at i
// (just after `<!--`); `<!-->` and `<!--->` are empty comments.
func skipComment(b []byte, i int) int {
	if bytes.HasPrefix(b[i:], []byte(">")) {
		return i + 1
	}
	if bytes.HasPrefix(b[i:], []byte("->")) {
		return i + 2
	}
	if j := bytes.Index(b[i:], []byte("-->")); j >= 0 {
		return i + j + 3
	}
	return len(b)
}

// skipPast returns the index after the first c at or after i, or len(b).
func skipPast(b []byte, i int, c byte) int {
	if j := bytes.IndexByte(b[i:], c); j >= 0 {
		return i + j + 1
	}
	return len(b)
}

// skipRawText returns the index of the end tag of the raw text element
// name whose content starts at i, or len(b).
func skipRawText(b []byte, i int, name string) int {
	for i < len(b) {
		j := bytes.Index(b[i:], []byte("</"))
		if j < 0 {
			return len(b)
		}
		i += j
		k := i + 2 + len(name)
		if k <= len(b) && bytes.EqualFold(b[i+2:k], []byte(name)) && (k == len(b) || isHTMLSpace(b[k]) || b[k] == '/' || b[k] == '>') {
			return i
		}
		i += 2
	}
	return len(b)
}

// scanTag reads a tag name and its attributes starting at i (the first
// letter of the name) and returns the tag, the index after its `>`, and
// whether the `>` was found.
func scanTag(b []byte, i int) (t htmlTag, next int, ok bool) {
	j := i
	for j < len(b) && !isHTMLSpace(b[j]) && b[j] != '/' && b[j] != '>' {
		j++
	}
	t.name = string(bytes.ToLower(b[i:j]))
	seen := map[string]bool{}
	for {
		// Before an attribute name: spaces and stray slashes.
		for j < len(b) && (isHTMLSpace(b[j]) || b[j] == '/') {
			j++
		}
		if j >= len(b) {
			return t, len(b), false
		}
		if b[j] == '>' {
			t.end = j + 1
			return t, j + 1, true
		}
		// The name; a leading `=` belongs to it.
		ns := j
		j++
		for j < len(b) && !isHTMLSpace(b[j]) && b[j] != '/' && b[j] != '>' && b[j] != '=' {
			j++
		}
		a := htmlAttr{name: string(bytes.ToLower(b[ns:j])), start: j, end: j}
		k := j
		for k < len(b) && isHTMLSpace(b[k]) {
			k++
		}
		if k < len(b) && b[k] == '=' {
			k++
			for k < len(b) && isHTMLSpace(b[k]) {
				k++
			}
			switch {
			case k >= len(b):
				return t, len(b), false
			case b[k] == '"' || b[k] == '\'':
				q := bytes.IndexByte(b[k+1:], b[k])
				if q < 0 {
					return t, len(b), false
				}
				a.start, a.end = k+1, k+1+q
				j = k + 1 + q + 1
			case b[k] == '>':
				a.start, a.end = k, k
				j = k
			default:
				e := k
				for e < len(b) && !isHTMLSpace(b[e]) && b[e] != '>' {
					e++
				}
				a.start, a.end = k, e
				j = e
			}
			a.value = string(b[a.start:a.end])
		}
		if !seen[a.name] {
			seen[a.name] = true
			t.attrs = append(t.attrs, a)
		}
	}
}

func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// htmlBlock records the anchors and links of an HTML block.
func (p *builder) htmlBlock(n *ast.HTMLBlock) {
	segs := n.Lines()
	if n.HasClosure() {
		all := text.NewSegments()
		for i := 0; i < segs.Len(); i++ {
			all.Append(segs.At(i))
		}
		all.Append(n.ClosureLine)
		segs = all
	}
	p.blockText.reset(p.src, segs)
	p.rawHTML(&p.blockText)
}

// rawHTML records the anchors of raw HTML (an `id` on any element, a
// `name` on <a>) and its links (<a href>, <img src>).
func (p *builder) rawHTML(vt *vtext) {
	if bytes.IndexByte(vt.b, '<') < 0 {
		return
	}
	scanHTML(vt.b, func(t htmlTag) {
		for _, a := range t.attrs {
			if (a.name == "id" || a.name == "name" && t.name == "a") && a.value != "" {
				p.d.HTMLAnchors = append(p.d.HTMLAnchors, HTMLAnchor{Name: html.UnescapeString(a.value), Span: vt.span(a.start, a.end)})
			}
		}
		dest := ""
		switch t.name {
		case "a":
			dest = "href"
		case "img":
			dest = "src"
		default:
			return
		}
		a, ok := t.attr(dest)
		if !ok {
			return
		}
		// A URL in an attribute is read without the spaces around it.
		s, e := a.start, a.end
		for s < e && isHTMLSpace(vt.b[s]) {
			s++
		}
		for e > s && isHTMLSpace(vt.b[e-1]) {
			e--
		}
		p.addLink(linkTexts{
			Link: Link{Kind: HTMLLink, Image: t.name == "img", def: -1, span: pack(vt.span(t.start, t.end)), dest: pack(vt.span(s, e))},
			raw:  vt.str(s, e, p.shared),
		})
	})
}
