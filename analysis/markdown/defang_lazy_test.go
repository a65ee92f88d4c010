package markdown

import (
	"bytes"
	"strings"
	"testing"
)

// TestDefangMatchesEagerCount holds defang, which counts a block only once
// it is long enough to need it, to the count of every line.
func TestDefangMatchesEagerCount(t *testing.T) {
	for _, in := range defangSeeds() {
		if got, want := defang([]byte(in)), defangCounting([]byte(in), true); !bytes.Equal(got, want) {
			t.Errorf("defang(%.60q…) differs from the eager count", in)
		}
	}
}

func FuzzDefang(f *testing.F) {
	for _, s := range defangSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := defang([]byte(in)), defangCounting([]byte(in), true); !bytes.Equal(got, want) {
			t.Fatalf("defang differs from the eager count on %q", in)
		}
	})
}

// defangSeeds are blocks on either side of the budget: short ones, long
// ones with few delimiters, long ones with many, split by blank lines and
// fences, with nested markers.
func defangSeeds() []string {
	return []string{
		"",
		"# Title\n\nplain *text* [l](u)\n",
		strings.Repeat("*a", 10000) + "\n",
		strings.Repeat("word ", 500) + "\n" + strings.Repeat("[a](", 1000) + "\n",
		strings.Repeat("x", 1990) + "\n" + strings.Repeat("*", 30) + "\n" + strings.Repeat("_", 2000) + "\n",
		strings.Repeat("- ", 100) + strings.Repeat("*", 2500) + "\n\n" + strings.Repeat("*", 2500),
		strings.Repeat("`a` ", 700) + "\n" + strings.Repeat("``", 1500),
		"para\n```\n" + strings.Repeat("*", 3000) + "\n```\n" + strings.Repeat("*", 2001) + "\n",
		strings.Repeat("> ", 40) + strings.Repeat("(", 1000) + "\n" + strings.Repeat(")", 1001) + "\n   \n" + strings.Repeat("!", 2001),
		strings.Repeat("ab\n", 800) + strings.Repeat("<", 2100),
	}
}
