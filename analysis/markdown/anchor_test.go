package markdown

import (
	"strings"
	"testing"
)

func TestOpenGDDAnchor(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"lowercase", "Landing Rules", "landing-rules"},
		{"html tag", "Jump <span class=\"x\">Height</span> Rules", "jump-height-rules"},
		{"unclosed angle dropped as punctuation", "a < b", "a-b"},
		{"emphasis and code markers", "*Bold* `code` _under_ ~~gone~~", "bold-code-under-gone"},
		{"underscore inside word", "snake_case_name", "snakecasename"},
		{"non-ascii letters", "Ärger über Öfen", "ärger-über-öfen"},
		{"cjk", "跳跃 规则", "跳跃-规则"},
		{"digits kept", "Level 2 of 10", "level-2-of-10"},
		{"punctuation dropped", "What? Yes! (Maybe): a.b, c/d", "what-yes-maybe-ab-cd"},
		{"hyphens kept", "A - B", "a---b"},
		{"whitespace runs", "  many \t  spaces\u00a0here  ", "many-spaces-here"},
		{"link syntax", "[Docs](x.md) rule", "docsxmd-rule"},
		{"empty", "!!!", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := OpenGDDAnchor(tt.in); got != tt.want {
				t.Errorf("OpenGDDAnchor(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestGitHubAnchor checks the anchor of one heading against the id GitHub
// gives it, as github-slugger documents GitHub's behaviour.
func TestGitHubAnchor(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"lowercase and hyphens", "Landing Rules", "landing-rules"},
		{"camel case", "bravoCharlieDelta", "bravocharliedelta"},
		{"emphasis and code", "*Bold* and `code.path`", "bold-and-codepath"},
		{"underscore kept", "snake_case", "snake_case"},
		{"lone underscore", "heading with an _ underscore", "heading-with-an-_-underscore"},
		{"link text stays", "[Docs](other.md#x) page", "docs-page"},
		{"autolink text stays", "<https://example.com>", "httpsexamplecom"},
		{"every space a hyphen", "A - B", "a---b"},
		{"punctuation dropped", "What? Yes!", "what-yes"},
		{"dots parens brackets", "exchange.bind_headers(exchange, routing [, bindCallback])", "exchangebind_headersexchange-routing--bindcallback"},
		{"unclosed angle", "a < b", "a--b"},
		{"accented letters", "Ärger über Öfen", "ärger-über-öfen"},
		{"cyrillic and han", "Привет non-latin 你好", "привет-non-latin-你好"},
		{"entity resolved then dropped", "Fish &amp; Chips", "fish--chips"},
		{"tag removed, text kept", "Tag <em>inside</em>", "tag-inside"},
		{"image inside", "Image ![alt](a.png) here", "image--here"},
		{"trailing comment keeps the space", "a <!-- b -->", "a-"},
		{"trailing image keeps the space", "hello ![b](https://x/b.svg)", "hello-"},
		{"leading entity space", "&#x20;c", "-c"},
		{"final entity space", "a&#x20;", "a-"},
		{"only an entity space", "&#x20;", "-"},
		{"initial and final dashes", "-a-", "-a-"},
		{"letter number", "Chapter Ⅻ", "chapter-ⅻ"},
		{"roman numeral lowercase", "Part ⅳ", "part-ⅳ"},
		{"circled letter", "Ⓐ plan", "ⓐ-plan"},
		{"other number dropped", "Step ② done", "step--done"},
		{"superscript digit dropped", "x² rule", "x-rule"},
		{"other decimal digits kept", "Level ٣", "level-٣"},
		{"full case mapping of dotted I", "İstanbul", "i̇stanbul"},
		{"final sigma", "ΟΔΟΣ", "οδος"},
		{"sigma inside a word", "ΣΑΣ ΣΑ", "σας-σα"},
		{"lone sigma", "Σ", "σ"},
		{"combining mark kept", "e\u0301t\u00e9", "e\u0301t\u00e9"},
		{"apostrophe dropped", "apostrophe’s should be trimmed", "apostrophes-should-be-trimmed"},
		{"en dash dropped", "en–dash", "endash"},
		{"emoji dropped", "😄 unicode emoji", "-unicode-emoji"},
		{"gemoji shortcode", ":ok_hand: Single", "ok_hand-single"},
		{"heart symbol", "I ♥ unicode", "i--unicode"},
		{"tab dropped", "a\tb", "ab"},
		{"no-break space dropped", "a\u00a0b", "ab"},
		{"zero width joiner dropped", "a\u200db", "ab"},
		{"setext lines joined", "two\nlines", "twolines"},
		{"escaped punctuation", "\\*not emphasis\\*", "not-emphasis"},
		{"code span with entity text", "`&amp;` sign", "amp-sign"},
		{"empty", "!!!", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := GitHubAnchor(tt.in); got != tt.want {
				t.Errorf("GitHubAnchor(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestHeadingGitHubAnchors checks the anchors Parse gives the headings of a
// document, where the heading's own Markdown decides what is trimmed and
// repeats get suffixes.
func TestHeadingGitHubAnchors(t *testing.T) {
	src := "# a <!-- b -->\n" +
		"## hello ![b](https://x/b.svg)\n" +
		"# &#x20;c\n" +
		"#   spaced out   #\n" +
		"Setext\nover two lines\n===\n" +
		"# Echo\n# Echo\n# Echo 1\n# Echo-1\n# Echo\n"
	want := []string{"a-", "hello-", "-c", "spaced-out", "setextover-two-lines", "echo", "echo-1", "echo-1-1", "echo-1-2", "echo-2"}
	d := Parse([]byte(src))
	var got []string
	for _, h := range d.Headings {
		got = append(got, h.GitHubAnchor)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("anchors = %q, want %q", got, want)
	}
}

func TestLowerFull(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain ascii", "plain ascii"},
		{"MiXeD", "mixed"},
		{"İ", "i\u0307"},
		{"ΑΣ.", "ας."},
		{"ΑΣ'Α", "ασ'α"},
		{"Σ", "σ"},
		{"ǅ", "ǆ"},
	}
	for _, tt := range tests {
		if got := LowerFull(tt.in); got != tt.want {
			t.Errorf("LowerFull(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSlugger(t *testing.T) {
	s := NewSlugger()
	var got []string
	for _, in := range []string{"foo", "foo", "foo-1", "foo", "bar", ""} {
		got = append(got, s.Unique(in))
	}
	want := []string{"foo", "foo-1", "foo-1-1", "foo-2", "bar", ""}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Unique sequence = %q, want %q", got, want)
		}
	}
}
