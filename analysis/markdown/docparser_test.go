package markdown

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/source"
	"golang.org/x/tools/txtar"
)

// docParserCases are inputs where emphasis meets the constructs a
// document records: links, images, code spans, autolinks, raw HTML,
// quotes and headings.
var docParserCases = []string{
	"Some *emphasis* with `code` and [a link](x.md) and **strong [b](y.md#z)**.\n",
	"*[foo*](bar.md) and [*foo](baz.md)* and _[x_](y)\n",
	"**[a](b)** *[c][d]* _[e]_\n\n[d]: d.md\n[e]: e.md\n",
	"*`code*` and `*` then *x `y` z*\n",
	"*<a href=\"x.md\">y*</a> *<https://example.com/*>* _<a id=\"q\">_\n",
	"\"*quoted*\" and *\"quoted\"* and “*curly*” and *“curly”*\n",
	"[*a*][b] [c *d*] [**e**]\n\n[b]: b.md\n[c *d*]: cd.md\n[**e**]: e.md\n",
	"![*alt*](img.png \"*title*\") [![*logo*](l.png)](home.md)\n",
	"# A *heading* with `code`\n\n## _Under_ score_s\n\nSetext *one*\n============\n\n### [*link*](x.md) **b** __c__\n",
	"# *[foo*][bar] _[x_](y)\n\n[bar]: bar.md\n",
	"- *item [one](1.md)*\n- _item_ `two`\n  * nested *[three](3.md)*\n",
	"> *quote [x](x.md)*\n> \"*said*\"\n",
	"***a** b* *a **b*** ___x___ **a*b** _a_b_ a*b*c\n",
	"\\*not emphasis\\* [\\*](x.md) *\\[not a link](x)*\n",
	"| *a* | `b` | [c](c.md) |\n| --- | --- | --- |\n| _d_ | *e `f`* | [*g*](g.md) |\n",
	"*multi\nline [link\ntext](x.md) end*\n",
	"# Heading *one*\n# Heading *one*\n# Heading _one_\n",
	"Emphasis *left open [x](y.md) and `code *` here\n",
	"**[unclosed](x.md\n",
	"<div>\n*html block* [x](y.md)\n</div>\n\n*after* [z](z.md)\n",
	// The links, code spans, autolinks and raw HTML of paragraphs, which
	// docParser reads without goldmark's inline parser.
	"[a [b](c.md) d](e.md) ![x [y](z.md)](i.png) [![l](l.png)](h.md)\n",
	"[full][Ref] [collapsed][] [ref] [REF] [missing] [missing][] [x][missing] [ ref ]\n\n[ref]: r.md \"T\"\n",
	"[a](<b c.md>) [d](e.md 'f') [g](h.md (i)) [j]( k.md ) [l](m.md \"n\nn\") [o](p(q).md) [r](s\\).md)\n",
	"[broken](x.md \"t) [open [inner](i.md) [](empty.md) [x]() [y](<z>\n",
	"`[not](x.md)` [`code`](c.md) [a `]` b](d.md) ``two ` ticks`` `unclosed [e](f.md)\n",
	"<https://example.com/a_b> <mailto:x@y.z> <a@b.cd> <not a link> <b>bold</b> <!-- [c](d.md) --> <?pi?> <!DOC> <![CDATA[x]]>\n",
	"\\[escaped](x.md) [\\]](y.md) \\`tick` [a\\\n](b.md) line\\\n[c](d.md)  \n[e](f.md)\n",
	"> [quoted\n> link][q] and [q\n> ]\n\n[q]: q.md\n[quoted link]: ql.md\n[q ]: q2.md\n",
	"- [a](a.md)\n- [b][c]\n\n  [d](d.md)\n- `e`\n\n[c]: c.md\n",
	"Para [x](y.md)\n===\n\n[z]: z.md\nTitle [z]\n---\n\n[w]: w.md\n---\n",
	"[" + strings.Repeat("x", 1000) + "](long.md) [" + strings.Repeat("[", 5) + "a](b.md)\n",
	"[a " + strings.Repeat("x", 1000) + " [b [c](d.md) [e][f]\n\n[f]: f.md\n",
	"[" + strings.Repeat("y", 1000) + "] [g][" + strings.Repeat("z", 1000) + "]\n\n[" + strings.Repeat("y", 1000) + "]: y.md\n",
	"![img][i] ![i] ![i][] ![](empty.png) ![a ![b](c.png)](d.png)\n\n[i]: i.png\n",
	"\t[tab](t.md)\n  [indent](i.md)\n    not code [c](c.md)\n",
	"a\r\n[crlf](c.md)\r\n`x\r\ny`\r\n",
}

// TestDocParserMatchesDefault parses inputs with emphasis around every
// recorded construct, and every Markdown file of the repository's test
// data, with docParser and with goldmark's default parser, and requires
// the same document from both.
func TestDocParserMatchesDefault(t *testing.T) {
	inputs := map[string][]byte{}
	for i, s := range docParserCases {
		inputs["case "+string(rune('A'+i))] = []byte(s)
	}
	for _, root := range []string{"testdata", filepath.Join("..", "..", "testdata")} {
		err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			switch {
			case strings.HasSuffix(path, ".md"):
				inputs[path] = data
			case strings.HasSuffix(path, ".txtar"):
				for _, f := range txtar.Parse(data).Files {
					if strings.HasSuffix(f.Name, ".md") {
						inputs[path+":"+f.Name] = f.Data
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(inputs) < 100 {
		t.Fatalf("only %d inputs: the test data moved", len(inputs))
	}
	for name, data := range inputs {
		if diff := docParserDiff(data); diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
	}
}

// FuzzDocParser requires the same document from docParser and goldmark's
// default parser on any input.
func FuzzDocParser(f *testing.F) {
	for _, s := range docParserCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if diff := docParserDiff(data); diff != "" {
			t.Fatalf("%q: %s", data, diff)
		}
	})
}

// docParserDiff parses data with both parsers and names the first part of
// the documents that differs, or returns "".
func docParserDiff(data []byte) string {
	parse := func(full bool) *Doc {
		d := &Doc{Data: data, Lines: source.NewLines(data)}
		if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
			d.bom = 3
		}
		if full {
			d.parseStructure(defaultParser())
		} else {
			d.parseStructure(docParser())
		}
		return d
	}
	want, got := parse(true), parse(false)
	for _, part := range []struct {
		name      string
		want, got any
	}{
		{"headings", want.Headings, got.Headings},
		{"code spans", want.CodeSpans, got.CodeSpans},
		{"links", want.Links, got.Links},
		{"HTML anchors", want.HTMLAnchors, got.HTMLAnchors},
		{"quotes", want.Quotes, got.Quotes},
		{"code blocks", want.CodeBlocks, got.CodeBlocks},
		{"texts", want.own, got.own},
	} {
		if !reflect.DeepEqual(part.want, part.got) {
			return fmt.Sprintf("%s differ: default parser %+v, docParser %+v", part.name, part.want, part.got)
		}
	}
	return ""
}
