package analysis

import (
	"regexp"
	"testing"
)

// TestHasScheme holds hasScheme to the pattern it replaces, on a table and
// on every string of up to three bytes from a small alphabet.
func TestHasScheme(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	cases := []string{"", ":", "a:", "https://x", "mailto:a@b", "a+b.c-d:x", "1a:", "a_b:", "a b:", "é:", "a", "./a.md", "#x", "C:\\x", "a/b:c", "a:b:c"}
	alphabet := []byte{'a', 'Z', '0', '+', '.', '-', ':', '/', '_', 0xC3}
	var gen func(prefix []byte, n int)
	gen = func(prefix []byte, n int) {
		cases = append(cases, string(prefix))
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(append(prefix[:len(prefix):len(prefix)], c), n-1)
		}
	}
	gen(nil, 3)
	for _, s := range cases {
		if got, want := hasScheme(s), re.MatchString(s); got != want {
			t.Errorf("hasScheme(%q) = %v, the pattern says %v", s, got, want)
		}
	}
}
