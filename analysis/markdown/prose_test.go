package markdown

import (
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// TestProseBlocks shows which blocks docParser leaves for proseScan.scan: every
// paragraph, in lists and quotes too, but not the text a setext underline
// makes a heading, nor a paragraph of link reference definitions only.
// Without it, TestDocParserMatchesDefault could compare goldmark with
// itself.
func TestProseBlocks(t *testing.T) {
	tests := []struct {
		in                  string
		prose, para, header int
	}{
		{"a [b](c.md)\n\nd `e`\n", 2, 0, 0},
		{"- a\n- b\n\n> c\n> d\n", 3, 0, 0},
		{"Title\n=====\n\ntext\n", 1, 0, 1},
		{"[a]: a.md\n[b]: b.md\n", 0, 0, 0},
		{"[a]: a.md\nthen [a]\n", 1, 0, 0},
		{"# Heading [x](y.md)\n", 0, 0, 1},
	}
	for _, tt := range tests {
		root := docParser().Parse(text.NewReader([]byte(tt.in)))
		var blocks, para, header int
		_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if entering {
				switch n.(type) {
				case *prose:
					blocks++
				case *ast.Paragraph, *ast.TextBlock:
					para++
				case *ast.Heading:
					header++
				}
			}
			return ast.WalkContinue, nil
		})
		if blocks != tt.prose || para != tt.para || header != tt.header {
			t.Errorf("%q: %d prose blocks, %d paragraphs, %d headings; want %d, %d, %d", tt.in, blocks, para, header, tt.prose, tt.para, tt.header)
		}
	}
}
