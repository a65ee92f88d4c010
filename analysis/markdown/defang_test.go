package markdown

import (
	"bytes"
	"strings"
	"testing"
)

func TestDefangLeavesDocumentsAlone(t *testing.T) {
	doc := []byte("# Title\n\n> DELEGATED: pick\n> - a\n\n1. `x_y` *b* [l](u) <br>\n\n```\n" + strings.Repeat("*", 5000) + "\n```\n")
	if got := defang(doc); &got[0] != &doc[0] {
		t.Error("defang copied a document it had nothing to change in")
	}
	table := []byte(strings.Repeat("| `a_b_c` | `d_e` |\n", 2000))
	if got := defang(table); !bytes.Equal(got, table) {
		t.Error("defang changed underscores inside code spans")
	}
}

func TestDefangBoundsPathologicalBlocks(t *testing.T) {
	tests := []struct {
		name   string
		input  string
		marker string
		limit  int
	}{
		{"nested lists", strings.Repeat("- ", 10000) + "x\n", "-", maxContainerDepth},
		{"nested quotes", strings.Repeat("> ", 10000) + "x\n", ">", maxContainerDepth},
		{"emphasis", strings.Repeat("*a", 10000) + "\n", "*", maxDelimiters},
		{"link openers", strings.Repeat("[a](", 10000) + "\n", "[", maxDelimiters},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := defang([]byte(tt.input))
			if len(got) != len(tt.input) {
				t.Fatalf("length changed: %d -> %d", len(tt.input), len(got))
			}
			if n := strings.Count(string(got), tt.marker); n > tt.limit {
				t.Errorf("%d %q markers left, want at most %d", n, tt.marker, tt.limit)
			}
			// The budget is per block: a blank line resets it.
			one := strings.Count(string(got), tt.marker)
			two := tt.input + "\n" + tt.input
			if n := strings.Count(string(defang([]byte(two))), tt.marker); n != 2*one {
				t.Errorf("two blocks keep %d markers, want twice the %d of one", n, one)
			}
		})
	}
}
