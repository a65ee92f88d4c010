package markdown

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/gddls/gddls/contracts/source"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// at returns the text a span covers.
func at(d *Doc, s spanT) string { return string(d.Data[s.Start:s.End]) }

func TestHeadings(t *testing.T) {
	src := "# Intro\n\ntext\n\n```\n# not a heading\n```\n\n    # indented code\n\n" +
		"## Rules ##\n\nSetext *Two*\nlines\n---\n\n## Rules\n\n# End\n"
	d := Parse([]byte(src))
	type want struct {
		level         int
		text, span    string
		anchor, gh    string
		setext        bool
		sectionEndsAt string // text of the line where the section ends, "" for EOF
	}
	wants := []want{
		{1, "Intro", "# Intro", "intro", "intro", false, "# End"},
		{2, "Rules", "## Rules ##", "rules", "rules", false, "Setext *Two*"},
		{2, "Setext *Two*\nlines", "Setext *Two*\nlines\n---", "setext-two-lines", "setext-twolines", true, "## Rules"},
		{2, "Rules", "## Rules", "rules", "rules-1", false, "# End"},
		{1, "End", "# End", "end", "end", false, ""},
	}
	if len(d.Headings) != len(wants) {
		t.Fatalf("got %d headings %+v, want %d", len(d.Headings), d.Headings, len(wants))
	}
	for i, w := range wants {
		h := d.Headings[i]
		if h.Level() != w.level || h.Text(d) != w.text || at(d, h.Span()) != w.span || h.Anchor != w.anchor ||
			h.GitHubAnchor != w.gh || h.Setext != w.setext {
			t.Errorf("heading %d = level %d text %q span %q anchor %q gh %q setext %v; want %+v",
				i, h.Level(), h.Text(d), at(d, h.Span()), h.Anchor, h.GitHubAnchor, h.Setext, w)
		}
		if w.text != "" && !strings.Contains(w.text, "\n") && at(d, h.TextSpan()) != w.text {
			t.Errorf("heading %d TextSpan covers %q, want %q", i, at(d, h.TextSpan()), w.text)
		}
		rest := src[h.SectionEnd():]
		if w.sectionEndsAt == "" && rest != "" || w.sectionEndsAt != "" && !strings.HasPrefix(rest, w.sectionEndsAt) {
			t.Errorf("heading %d section ends before %q, want before %q", i, rest, w.sectionEndsAt)
		}
	}
	if got := d.FindAnchor("rules", false); len(got) != 2 {
		t.Errorf("FindAnchor(rules) = %v, want two headings", got)
	}
	if got := d.FindAnchor("rules-1", true); len(got) != 1 || got[0] != 3 {
		t.Errorf("FindAnchor(rules-1, github) = %v, want [3]", got)
	}
	if got := d.HeadingAt(strings.Index(src, "text")); got != 0 {
		t.Errorf("HeadingAt(text) = %d, want 0", got)
	}
	if got := d.HeadingAt(0); got != 0 {
		t.Errorf("HeadingAt(0) = %d, want 0", got)
	}
	if got, want := d.SectionText(0, 3), "# Intro\n\ntext"; got != want {
		t.Errorf("SectionText = %q, want %q", got, want)
	}
	if len(d.CodeBlocks) != 2 || !d.CodeBlocks[0].Fenced || d.CodeBlocks[0].StartLine != 4 || d.CodeBlocks[0].EndLine != 7 || d.CodeBlocks[1].Fenced {
		t.Errorf("code blocks = %+v", d.CodeBlocks)
	}
}

func TestCRLFAndBOM(t *testing.T) {
	src := "\xEF\xBB\xBF# Title\r\n\r\nSee `a.b` and [x](y.md#z).\r\n\r\nSub\r\n===\r\n> DELEGATED: c\r\n> more\r\n\r\nafter\r\n"
	d := Parse([]byte(src))
	if len(d.Headings) != 2 {
		t.Fatalf("headings = %+v", d.Headings)
	}
	h := d.Headings[0]
	if h.Text(d) != "Title" || at(d, h.TextSpan()) != "Title" || at(d, h.Span()) != "# Title" || h.Span().Start != 3 {
		t.Errorf("first heading %+v covers %q", h, at(d, h.Span()))
	}
	if h2 := d.Headings[1]; h2.Text(d) != "Sub" || !h2.Setext || at(d, h2.Span()) != "Sub\r\n===" {
		t.Errorf("setext heading %+v covers %q", h2, at(d, h2.Span()))
	}
	if len(d.CodeSpans) != 1 || at(d, d.CodeSpans[0].Span()) != "`a.b`" || d.CodeSpans[0].Line() != 2 {
		t.Errorf("code spans = %+v", d.CodeSpans)
	}
	if len(d.Links) != 1 || at(d, d.Links[0].DestSpan()) != "y.md#z" || at(d, d.Links[0].Span()) != "[x](y.md#z)" {
		t.Errorf("links = %+v", d.Links)
	}
	if len(d.Tags) != 1 || d.Tags[0].Line != 6 || d.Tags[0].EndLine != 8 {
		t.Errorf("tags = %+v", d.Tags)
	}
	if p := d.Lines.Position(d.CodeSpans[0].Span().Start); p.Line != 2 || p.Character != 4 {
		t.Errorf("position of code span = %+v", p)
	}
}

func TestCodeSpans(t *testing.T) {
	src := "# Head `h.k`\n\nUse `tuning.jump`, `` a`b `` and ` x ` here.\n\n```\n`fenced.not`\n```\n\n" +
		"    `indented.not`\n\n> quoted `q.a`\n> continues `multi\n> line`\n\n- item `i.x` “Name here”\n"
	d := Parse([]byte(src))
	type want struct{ text, span, textSpan string }
	wants := []want{
		{"h.k", "`h.k`", "h.k"},
		{"tuning.jump", "`tuning.jump`", "tuning.jump"},
		{"a`b", "`` a`b ``", "a`b"},
		{"x", "` x `", "x"},
		{"q.a", "`q.a`", "q.a"},
		{"multi line", "`multi\n> line`", "multi\n> line"},
		{"i.x", "`i.x`", "i.x"},
	}
	if len(d.CodeSpans) != len(wants) {
		t.Fatalf("code spans = %+v", d.CodeSpans)
	}
	for i, w := range wants {
		c := d.CodeSpans[i]
		if c.Text(d) != w.text || at(d, c.Span()) != w.span || at(d, c.TextSpan()) != w.textSpan {
			t.Errorf("code span %d: %q %q %q, want %+v", i, c.Text(d), at(d, c.Span()), at(d, c.TextSpan()), w)
		}
	}
	if !d.CodeSpans[0].InHeading || d.CodeSpans[1].InHeading || d.CodeSpans[0].Heading() != 0 {
		t.Errorf("heading flags: %+v", d.CodeSpans[:2])
	}
	last := d.CodeSpans[len(d.CodeSpans)-1]
	if len(d.Quotes) != 1 || d.Quotes[0].Text != "Name here" || d.Quotes[0].Block != last.Block() ||
		at(d, last.Block()) != "- item `i.x` “Name here”" {
		t.Errorf("quote %+v and code span block %q should share the list item", d.Quotes, at(d, last.Block()))
	}
}

func TestQuotes(t *testing.T) {
	src := "Para with \"straight one\" and `\"in code\"` and “curly `x` two”.\n" +
		"Wrapped “across\nlines” <a title=\"attr\">t</a> [l](u \"title\").\n\n" +
		"Second para “other”.\n\n```\n\"fenced\"\n```\n"
	d := Parse([]byte(src))
	var got []string
	for _, q := range d.Quotes {
		got = append(got, q.Text)
		if at(d, q.TextSpan) != strings.ReplaceAll(q.Text, " ", " ") && !strings.Contains(at(d, q.TextSpan), "\n") {
			t.Errorf("quote %q TextSpan covers %q", q.Text, at(d, q.TextSpan))
		}
	}
	want := []string{"straight one", "curly `x` two", "across lines", "other"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("quotes = %q, want %q", got, want)
	}
	if d.Quotes[0].Block != d.Quotes[1].Block || d.Quotes[0].Block == d.Quotes[3].Block {
		t.Errorf("blocks: %+v", d.Quotes)
	}
	if !d.Quotes[1].Curly || d.Quotes[0].Curly {
		t.Errorf("curly flags wrong: %+v", d.Quotes)
	}
}

func TestLinks(t *testing.T) {
	src := "A [text](dir/file.md#anchor \"Title\") and ![img](pic.png) and [angle](<my file.md>).\n" +
		"Full [see][Ref], collapsed [ref][], shortcut [ref] and [paren](a(b)c) and [empty]().\n" +
		"Code `[no](link.md)` and <https://example.com/x> and [**bold** `c]`](b.md).\n\n" +
		"[ref]: ref/target.md 'T'\n[Other]:\n  <other.md>\n\n" +
		"```\n[fenced](no.md)\n```\n\n> quoted [q](quoted.md)\n> on [two\n> lines](two.md)\n"
	d := Parse([]byte(src))
	type want struct {
		kind      LinkKind
		image     bool
		style     RefStyle
		span, raw string
		dest      string
		label     string
	}
	wants := []want{
		{InlineLink, false, NoRef, `[text](dir/file.md#anchor "Title")`, "dir/file.md#anchor", "dir/file.md#anchor", ""},
		{InlineLink, true, NoRef, "![img](pic.png)", "pic.png", "pic.png", ""},
		{InlineLink, false, NoRef, "[angle](<my file.md>)", "my file.md", "my file.md", ""},
		{ReferenceLink, false, Full, "[see][Ref]", "", "ref/target.md", "Ref"},
		{ReferenceLink, false, Collapsed, "[ref][]", "", "ref/target.md", "ref"},
		{ReferenceLink, false, Shortcut, "[ref]", "", "ref/target.md", "ref"},
		{InlineLink, false, NoRef, "[paren](a(b)c)", "a(b)c", "a(b)c", ""},
		{InlineLink, false, NoRef, "[empty]()", "", "", ""},
		{Autolink, false, NoRef, "<https://example.com/x>", "https://example.com/x", "https://example.com/x", ""},
		{InlineLink, false, NoRef, "[**bold** `c]`](b.md)", "b.md", "b.md", ""},
		{Definition, false, NoRef, "[ref]: ref/target.md 'T'", "ref/target.md", "ref/target.md", "ref"},
		{Definition, false, NoRef, "[Other]:\n  <other.md>", "other.md", "other.md", "Other"},
		{InlineLink, false, NoRef, "[q](quoted.md)", "quoted.md", "quoted.md", ""},
		{InlineLink, false, NoRef, "[two\n> lines](two.md)", "two.md", "two.md", ""},
	}
	if len(d.Links) != len(wants) {
		for _, l := range d.Links {
			t.Logf("%v %q", l.Kind, at(d, l.Span()))
		}
		t.Fatalf("got %d links, want %d", len(d.Links), len(wants))
	}
	for i, w := range wants {
		l := d.Links[i]
		if l.Kind != w.kind || l.Image != w.image || l.Style != w.style || at(d, l.Span()) != w.span ||
			l.Raw(d) != w.raw || at(d, l.DestSpan()) != w.raw || l.Dest(d) != w.dest || l.Label(d) != w.label {
			t.Errorf("link %d = kind %v image %v style %v span %q raw %q dest-span %q dest %q label %q; want %+v",
				i, l.Kind, l.Image, l.Style, at(d, l.Span()), l.Raw(d), at(d, l.DestSpan()), l.Dest(d), l.Label(d), w)
		}
		if w.label != "" && at(d, l.LabelSpan()) != w.label {
			t.Errorf("link %d LabelSpan covers %q", i, at(d, l.LabelSpan()))
		}
	}
	if d.Links[3].Def() != 10 {
		t.Errorf("def: %+v", d.Links[3])
	}
	if e := d.Links[7]; e.DestSpan().Start != e.DestSpan().End || e.DestSpan().Start != strings.Index(src, "[empty]()")+8 {
		t.Errorf("empty destination span = %+v", e.DestSpan())
	}
}

func TestCodeBlockContent(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
		closed          bool
	}{
		{"closed", "a\n\n```test\n{}\n```\n", "{}\n", true},
		{"tildes and CRLF", "~~~~ json\r\n[1,\r\n2]\r\n~~~~\r\n", "[1,\r\n2]\r\n", true},
		{"never closed", "```test\n{\"a\":\n", "{\"a\":\n", false},
		{"shorter fence does not close", "````test\n{}\n```\n", "{}\n```\n", false},
		{"empty", "```test\n```\n", "", true},
		{"opening line only", "```test", "", false},
		{"indented block", "para\n\n    code\n    more\n", "    code\n    more", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Parse([]byte(tc.src))
			if len(d.CodeBlocks) != 1 {
				t.Fatalf("%d code blocks", len(d.CodeBlocks))
			}
			c := d.CodeBlocks[0].Content
			if got := tc.src[c.Start:c.End]; got != tc.want {
				t.Errorf("content %q, want %q", got, tc.want)
			}
			if got := d.CodeBlocks[0].Closed; got != tc.closed {
				t.Errorf("closed %v, want %v", got, tc.closed)
			}
		})
	}
}

// TestStringsShareData checks that a record's text is read from the
// document's own bytes when it equals the bytes under its span, and is a
// copy kept with the document when it does not (a block quote's lines are
// joined without their markers, a code span's line breaks become spaces).
func TestStringsShareData(t *testing.T) {
	inData := func(data []byte, s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
		return lo <= p && p+uintptr(len(s)) <= lo+uintptr(len(data))
	}
	tests := []struct {
		name  string
		src   string
		owned int // texts that are not the bytes under their spans
	}{
		{"plain", "# Head `x`\n\nSee [text](a.md) and `code` and <https://x.y>.\n\n[r]: b.md\n", 0},
		{"block quote", "> See [text\n> more](a.md) and `code\n> span`.\n", 2},
		{"byte order mark", "\xEF\xBB\xBF# Head\n\nSee [text](a.md) and `code`.\n", 0},
		{"setext", "Two\n  lines\n===\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.src)
			d := Parse(data)
			type text struct {
				s    string
				span source.Span
			}
			var texts []text
			for _, h := range d.Headings {
				texts = append(texts, text{h.Text(d), h.TextSpan()})
			}
			for _, l := range d.Links {
				texts = append(texts, text{l.Text(d), l.TextSpan()}, text{l.Raw(d), l.DestSpan()}, text{l.Label(d), l.LabelSpan()})
			}
			for _, c := range d.CodeSpans {
				texts = append(texts, text{c.Text(d), c.TextSpan()})
			}
			owned := 0
			for _, x := range texts {
				if x.s == "" {
					continue
				}
				verbatim := x.span.End <= len(data) && string(data[x.span.Start:x.span.End]) == x.s
				if verbatim != inData(data, x.s) {
					t.Errorf("%q: equal to the bytes under its span %v, but shares them %v", x.s, verbatim, !verbatim)
				}
				if !verbatim {
					owned++
				}
			}
			if owned != tt.owned || len(d.own) != tt.owned {
				t.Errorf("%d texts differ from their bytes and %d are kept, want %d", owned, len(d.own), tt.owned)
			}
		})
	}
}

// TestNormalizeLabel checks that the labels normalizeLabel returns as they
// are need no folding or white space collapsing.
func TestNormalizeLabel(t *testing.T) {
	slow := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	for _, s := range []string{
		"", "r0-1", "a b", "a  b", " a", "a ", "Ref", "a\tb", "a\nb", "a\u00a0b", "ÉTÉ", "été", "a\u2003b",
		"x\vy", "x\fy", "x\ry", "[x]", "-", " ", "snake_case and more", "K",
	} {
		if got, want := normalizeLabel(s), slow(s); got != want {
			t.Errorf("normalizeLabel(%q) = %q, want %q", s, got, want)
		}
		if isNormalLabel(s) && slow(s) != s {
			t.Errorf("isNormalLabel(%q) but it normalizes to %q", s, slow(s))
		}
	}
}

// TestJoinedTextsAreCopied checks that the records of a block whose lines
// are joined without their container markers keep their own copies, not
// the joining buffer the next such block reuses.
func TestJoinedTextsAreCopied(t *testing.T) {
	d := Parse([]byte("> [one\n> a](a.md) `x\n> y`\n\n> [two\n> b](b.md) `z\n> w`\n"))
	var got []string
	for _, l := range d.Links {
		got = append(got, l.Text(d), l.Raw(d))
	}
	for _, c := range d.CodeSpans {
		got = append(got, c.Text(d))
	}
	want := []string{"one\na", "a.md", "two\nb", "b.md", "x y", "z w"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("texts = %q, want %q", got, want)
	}
}

// TestHeadingText checks that the text a heading's GitHub anchor is made
// from is renderText's, whether or not the heading is plain text.
func TestHeadingText(t *testing.T) {
	src := []byte("# Plain words\n\n## With `code`\n\n## A &amp; B\n\n## Esc\\*aped\n\n## *Emph* and [link](x.md)\n\nSet\next\n===\n\n# \n\n## Déjà vu\n")
	root := defaultParser().Parse(text.NewReader(src))
	p := &builder{d: &Doc{Data: src}, src: src, shared: true}
	n := 0
	_ = ast.Walk(root, func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := node.(*ast.Heading); ok && entering {
			n++
			var want strings.Builder
			renderText(h, src, &want)
			if got := p.headingText(h); got != want.String() {
				t.Errorf("heading %d: text %q, want %q", n, got, want.String())
			}
		}
		return ast.WalkContinue, nil
	})
	if n != 8 {
		t.Errorf("found %d headings, want 8", n)
	}
}
