package markdown

import "testing"

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

func TestGitHubAnchor(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Landing Rules", "landing-rules"},
		{"*Bold* and `code.path`", "bold-and-codepath"},
		{"snake_case", "snake_case"},
		{"[Docs](other.md#x) page", "docs-page"},
		{"A - B", "a---b"},
		{"What? Yes!", "what-yes"},
		{"a < b", "a--b"},
		{"Ärger über Öfen", "ärger-über-öfen"},
		{"Fish &amp; Chips", "fish--chips"},
		{"Tag <em>inside</em>", "tag-inside"},
		{"Image ![alt](a.png) here", "image--here"},
		{"<https://example.com>", "httpsexamplecom"},
	}
	for _, tt := range tests {
		if got := GitHubAnchor(tt.in); got != tt.want {
			t.Errorf("GitHubAnchor(%q) = %q, want %q", tt.in, got, tt.want)
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
