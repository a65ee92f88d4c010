package markdown

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gddls/gddls/contracts/source"
)

// FuzzAnchors checks the two anchor rules and the slugger on any heading
// text: no panic, valid UTF-8 out, no whitespace in an anchor, the OpenGDD
// rule idempotent, and repeated slugs made unique.
func FuzzAnchors(f *testing.F) {
	for _, s := range []string{
		"Burning", "The *lantern* `oil` <b>x</b>", "  Ünïcödé  Héading ", "a\tb\nc", "<unclosed", "[link](x) and ![img](y)",
		"\xff\xfe bad", "İstanbul ǅ ß", "&amp; &#x41; \\*", "---", "日本語 ٣ ⅷ", "\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		o := OpenGDDAnchor(text)
		g := GitHubAnchor(text)
		for _, a := range []string{o, g} {
			if !utf8.ValidString(a) {
				t.Fatalf("anchor of %q is not valid UTF-8: %q", text, a)
			}
			if strings.IndexFunc(a, unicode.IsSpace) >= 0 {
				t.Fatalf("anchor of %q holds whitespace: %q", text, a)
			}
		}
		if again := OpenGDDAnchor(o); again != o {
			t.Fatalf("OpenGDDAnchor is not idempotent on %q: %q then %q", text, o, again)
		}
		s := NewSlugger()
		seen := map[string]bool{}
		for i := 0; i < 4; i++ {
			u := s.Unique(g)
			if seen[u] {
				t.Fatalf("slugger gave %q twice for %q", u, g)
			}
			seen[u] = true
		}
	})
}

// FuzzDocQueries parses a document and runs every per-line and per-offset
// query over it: heading lookup, authority tags, rulesets, fixed sections,
// section text and anchor search; the spans of links and HTML anchors stay
// inside the document.
func FuzzDocQueries(f *testing.F) {
	for _, s := range []string{
		"# A\n\n> DELEGATED: x\n\n## B\n\n> RULESET: r\ntext\n",
		"A\r\n===\r\n\r\n> PERSONALIZATION: p\r\n> more\r\n## A\r\n",
		"> > > DELEGATED: deep\n> > # heading in quote\n",
		"\xEF\xBB\xBF# BOM\n",
		"## same\n## same\n## same\n",
		"<div id=x>\n<!-- <a id=\"y\"> -->\n<img src = 'p.png'/>\n</div>\n\n[![l](a.png)](b.md) <a name=n href=\"c.md#d\">\n",
		"> <script>'<a id=z>'</script> <a id=\"q\" id='r'>\n",
		"> RULESET: All  (Initial) x\n> RULESET:\n>\tRULESET:\ta-b\t(initial)\t\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := Parse(data)
		lines := strings.Count(string(data), "\n") + 2
		for line := -1; line <= lines; line++ {
			d.AuthorityAt(line)
			d.AuthorityTagAt(line)
			d.RulesetAt(line)
		}
		for off := -1; off <= len(data)+1; off += 1 + len(data)/64 {
			if h := d.HeadingAt(off); h < -1 || h >= len(d.Headings) {
				t.Fatalf("HeadingAt(%d) = %d with %d headings", off, h, len(d.Headings))
			}
		}
		for i, h := range d.Headings {
			d.SectionFixed(i)
			d.SectionText(i, 5)
			found := false
			for _, j := range d.FindAnchor(h.Anchor, false) {
				found = found || j == i
			}
			if !found {
				t.Fatalf("heading %d (%q) is not found by its own anchor %q", i, h.Text(d), h.Anchor)
			}
		}
		d.SectionFixed(-1)
		d.SectionFixed(len(d.Headings))
		for i, h := range d.Headings {
			found := false
			for _, j := range d.FindFragment(h.GitHubAnchor, true) {
				found = found || j == i
			}
			if !found {
				t.Fatalf("heading %d (%q) is not found by its GitHub anchor %q", i, h.Text(d), h.GitHubAnchor)
			}
		}
		inside := func(what string, sp source.Span) {
			if sp.Start < 0 || sp.Start > sp.End || sp.End > len(data) {
				t.Fatalf("%s span %v outside the %d bytes", what, sp, len(data))
			}
		}
		for _, l := range d.Links {
			inside("link", l.Span())
			inside("destination", l.DestSpan())
		}
		for _, a := range d.HTMLAnchors {
			inside("HTML anchor", a.Span)
		}
		for _, fd := range d.Findings {
			inside(fd.Code, fd.Span)
		}
		for _, tag := range d.Tags {
			rest, span := tag.Rest()
			inside("tag text after the id", span)
			if string(data[span.Start:span.End]) != rest {
				t.Fatalf("Rest() = %q, its span holds %q", rest, data[span.Start:span.End])
			}
		}
	})
}
