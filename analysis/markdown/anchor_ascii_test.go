package markdown

import "testing"

var asciiHeadings = []string{
	"", "Core loop", "  Core   loop  ", "The `x` *y* _z_ ~w~", "A <b>bold</b> move", "a < b > c", "a <b c", "Tab\there", "x\v\f\ry", "x\ry", "\rx\r",
	"Mixed-CASE_words 42!", "--lead", "end--", "(brackets) [and] {braces}", "a*b", "a * b", "<>", "<<a>>", "#hash #tags", "dots...and,commas",
}

// TestASCIIAnchors: the one-pass ASCII anchors equal the rune-by-rune ones.
func TestASCIIAnchors(t *testing.T) {
	for _, h := range asciiHeadings {
		if got, want := openGDDAnchorASCII(h), openGDDAnchorUnicode(h); got != want {
			t.Errorf("OpenGDD anchor of %q: %q, want %q", h, got, want)
		}
		if got, want := githubSlugASCII(h), githubSlugUnicode(h); got != want {
			t.Errorf("GitHub slug of %q: %q, want %q", h, got, want)
		}
	}
}

func FuzzASCIIAnchors(f *testing.F) {
	for _, h := range asciiHeadings {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, h string) {
		b := []byte(h)
		for i := range b {
			b[i] &= 0x7f
		}
		h = string(b)
		if got, want := openGDDAnchorASCII(h), openGDDAnchorUnicode(h); got != want {
			t.Fatalf("OpenGDD anchor of %q: %q, want %q", h, got, want)
		}
		if got, want := githubSlugASCII(h), githubSlugUnicode(h); got != want {
			t.Fatalf("GitHub slug of %q: %q, want %q", h, got, want)
		}
	})
}
