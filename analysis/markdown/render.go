package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// renderText writes the plain text a browser would show for n's inline
// content: the text content of the rendered HTML.
func renderText(n ast.Node, src []byte, w *strings.Builder) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(src)
			if c.IsRaw() {
				w.Write(v)
			} else {
				w.Write(util.UnescapePunctuations(util.ResolveEntityNames(util.ResolveNumericReferences(v))))
			}
			if c.SoftLineBreak() || c.HardLineBreak() {
				w.WriteByte('\n')
			}
		case *ast.String:
			w.Write(c.Value)
		case *ast.CodeSpan:
			var code strings.Builder
			renderText(c, src, &code)
			w.WriteString(strings.ReplaceAll(code.String(), "\n", " "))
		case *ast.AutoLink:
			w.Write(c.Label(src))
		case *ast.Image, *ast.RawHTML:
			// An image and a tag have no text content.
		default:
			renderText(c, src, w)
		}
	}
}

// renderHeadingText renders the raw text of a heading to plain text. Each
// line is read as the content of an ATX heading; lines are joined by "\n".
func renderHeadingText(raw string) (out string) {
	defer func() {
		if recover() != nil {
			out = raw
		}
	}()
	raw = strings.ReplaceAll(raw, "\r\n", "\n")
	parts := strings.Split(raw, "\n")
	p := defaultParser()
	for i, line := range parts {
		src := []byte("# " + strings.TrimRight(line, "\r"))
		root := p.Parse(text.NewReader(src))
		var b strings.Builder
		if h, ok := root.FirstChild().(*ast.Heading); ok {
			renderText(h, src, &b)
			parts[i] = b.String()
		}
	}
	return strings.Join(parts, "\n")
}
