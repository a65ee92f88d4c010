package markdown

import (
	"strings"
	"testing"
)

// TestHTMLAnchors checks which ids and names of raw HTML a document
// defines, read as an HTML tokenizer reads attributes.
func TestHTMLAnchors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"double quoted", `<a id="x"></a>`, "x"},
		{"single quoted", `<a id='x'></a>`, "x"},
		{"unquoted", `<a id=x></a>`, "x"},
		{"unquoted before the end", `<a id=x>`, "x"},
		{"spaces around equals", `<a id = "x"></a>`, "x"},
		{"unquoted with spaces", `<a id = x></a>`, "x"},
		{"unquoted then another attribute", `<a id=x href=y.md></a>`, "x"},
		{"id after name", `<a name="n" id="x"></a>`, "n x"},
		{"upper case attribute", `<A ID="x"></A>`, "x"},
		{"entity in value", `<a id="a&amp;b"></a>`, "a&b"},
		{"value with spaces", `<a id="a b"></a>`, "a b"},
		{"first of two ids wins", `<a id="x" id="y"></a>`, "x"},
		{"id on any element", "<div id=\"box\">\n\ntext\n\n</div>", "box"},
		{"name only on a", `<span name="n"></span> <a name="m"></a>`, "m"},
		{"data-id is not id", `<a data-id="x"></a>`, ""},
		{"xid is not id", `<a xid="x"></a>`, ""},
		{"empty id", `<a id=""></a>`, ""},
		{"no value", `<a id></a>`, ""},
		{"self closing", `<img id="pic"/>`, "pic"},
		// CommonMark reads an inline tag without spaces between its
		// attributes as text; an HTML block goes to the HTML parser whole.
		{"inline attribute without space", `<a href="h"id="x"></a>`, ""},
		{"block attribute without space", "<div class=\"a\"id=\"x\">\n</div>", "x"},
		{"gt inside quotes", `<a title="a>b" id="x"></a>`, "x"},
		{"inline comment", `text <!-- <a id="x"></a> --> more`, ""},
		{"block comment", "<!--\n<a id=\"x\"></a>\n-->", ""},
		{"comment inside a block", "<div>\n<!-- <a id=\"x\"> -->\n<a id=\"y\"></a>\n</div>", "y"},
		{"code span", "`<a id=\"x\"></a>` text", ""},
		{"fenced code", "```html\n<a id=\"x\"></a>\n```", ""},
		{"indented code", "    <a id=\"x\"></a>", ""},
		{"end tag attributes", `</a id="x">`, ""},
		{"script content", "<script>\nvar s = '<a id=\"x\">';\n</script>", ""},
		{"in a list item", "- item <a id=\"li\"></a>", "li"},
		{"in a quote", "> <a id=\"q\"></a>", "q"},
		{"in a heading", "# Title <a id=\"h\"></a>", "h"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Parse([]byte(tt.src))
			var got []string
			for _, a := range d.HTMLAnchors {
				got = append(got, a.Name)
				if a.Span.End > len(tt.src) || a.Span.Start > a.Span.End {
					t.Fatalf("span %v out of range", a.Span)
				}
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("anchors = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestHTMLLinks checks the links of raw HTML and that their destination
// spans cover the attribute values.
func TestHTMLLinks(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // destination as written, with "img:" for images
	}{
		{"a href", `<a href="guide.md#x">guide</a>`, []string{"guide.md#x"}},
		{"img src", `<img src="logo.png" alt="logo">`, []string{"img:logo.png"}},
		{"unquoted src", "<p>\n<img src=logo.png>\n</p>", []string{"img:logo.png"}},
		{"src after other attributes", `<img alt="a" width=3 src = 'b.png'>`, []string{"img:b.png"}},
		{"spaces around the URL", `<a href=" guide.md ">g</a>`, []string{"guide.md"}},
		{"over three lines", "text <img\n  src=\"x.png\"\n  alt=\"y\"> more", []string{"img:x.png"}},
		{"in a quote over two lines", "> quote <a\n> href=\"q.md\">x</a>", []string{"q.md"}},
		{"a without href", `<a id="x"></a>`, nil},
		{"data-src is not src", `<img data-src="x.png">`, nil},
		{"other element", `<video src="v.mp4"></video>`, nil},
		{"inside a comment", `<!-- <img src="x.png"> -->`, nil},
		{"inside code", "`<img src=\"x.png\">`", nil},
		{"image in a link", `<a href="home.md"><img src="logo.png"></a>`, []string{"home.md", "img:logo.png"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Parse([]byte(tt.src))
			var got []string
			for _, l := range d.Links {
				if l.Kind != HTMLLink {
					t.Errorf("link kind %v, want html", l.Kind)
					continue
				}
				if w := tt.src[l.DestSpan().Start:l.DestSpan().End]; w != l.Raw(d) {
					t.Errorf("DestSpan covers %q, Raw is %q", w, l.Raw(d))
				}
				s := l.Raw(d)
				if l.Image {
					s = "img:" + s
				}
				got = append(got, s)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("links = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestLinkAroundImage checks that a link whose text is an image gets its
// own destination, not the image's.
func TestLinkAroundImage(t *testing.T) {
	src := "[![logo](logo.png)](home.md) and ![alt [a](b.md)](c.png)"
	d := Parse([]byte(src))
	var got []string
	for _, l := range d.Links {
		got = append(got, src[l.Span().Start:l.Span().End]+" -> "+l.Raw(d))
	}
	want := []string{
		"[![logo](logo.png)](home.md) -> home.md",
		"![logo](logo.png) -> logo.png",
		"![alt [a](b.md)](c.png) -> c.png",
		"[a](b.md) -> b.md",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("links:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
