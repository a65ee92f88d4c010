package markdown

import (
	"bytes"
	"strings"
	"testing"
)

// The reading of defang before it left short blocks uncounted, kept to
// hold the new one to it.

// defang returns src with pathological runs neutralised; it returns src
// itself when there is nothing to change.
func defangReference(src []byte) []byte {
	var out []byte // copy on first change
	set := func(i int, c byte) {
		if out == nil {
			out = append([]byte(nil), src...)
		}
		out[i] = c
	}
	var counts [6]int // per block: emphasis, brackets, parens, angles, backticks, bangs
	inFence := false
	var fence []byte
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		line := src[start:end]
		trimmed := bytes.TrimLeft(line, " ")
		switch {
		case inFence:
			if len(line)-len(trimmed) < 4 && bytes.HasPrefix(trimmed, fence) && len(bytes.Trim(trimmed, string(fence[:1])+" \t\r")) == 0 {
				inFence = false
			}
		case len(line)-len(trimmed) < 4 && (bytes.HasPrefix(trimmed, []byte("```")) || bytes.HasPrefix(trimmed, []byte("~~~"))):
			inFence = true
			n := 0
			for n < len(trimmed) && trimmed[n] == trimmed[0] {
				n++
			}
			fence = append(fence[:0], trimmed[:n]...)
		case len(bytes.TrimSpace(line)) == 0:
			counts = [6]int{}
		default:
			defangLineReference(src, start, end, &counts, set)
		}
		start = end + 1
	}
	if out == nil {
		return src
	}
	return out
}

// defangLine bounds the container markers that open the line [start, end)
// and counts its delimiters against the block's budget.
func defangLineReference(src []byte, start, end int, counts *[6]int, set func(int, byte)) {
	i, depth := start, 0
	for i < end {
		j := i
		for j < end && j-i < 3 && src[j] == ' ' {
			j++
		}
		if j >= end {
			break
		}
		n := 0 // length of a marker at j
		switch c := src[j]; {
		case c == '>':
			n = 1
		case (c == '-' || c == '*' || c == '+') && j+1 < end && (src[j+1] == ' ' || src[j+1] == '\t'):
			n = 1
		case c >= '0' && c <= '9':
			k := j
			for k < end && k-j < 9 && src[k] >= '0' && src[k] <= '9' {
				k++
			}
			if k < end && (src[k] == '.' || src[k] == ')') && k+1 < end && src[k+1] == ' ' {
				n = k + 1 - j
			}
		}
		if n == 0 {
			break
		}
		depth++
		if depth > maxContainerDepth {
			for k := j; k < j+n; k++ {
				set(k, ' ')
			}
		}
		i = j + n
	}
	for k := i; k < end; k++ {
		if src[k] == '`' {
			// A code span closed on the same line is skipped whole: what
			// it holds is literal text, never a delimiter.
			n := 1
			for k+n < end && src[k+n] == '`' {
				n++
			}
			if close := closingRun(src[k+n:end], n); close >= 0 {
				counts[4]++
				k += n + close + n - 1
				continue
			}
		}
		class := -1
		switch src[k] {
		case '*', '_', '~':
			class = 0
		case '[', ']':
			class = 1
		case '(', ')':
			class = 2
		case '<', '>':
			class = 3
		case '`':
			class = 4
		case '!':
			class = 5
		}
		if class < 0 {
			continue
		}
		counts[class]++
		if counts[class] > maxDelimiters {
			set(k, ' ')
		}
	}
}

func TestDefangMatchesReference(t *testing.T) {
	for _, in := range defangSeeds() {
		if got, want := defang([]byte(in)), defangReference([]byte(in)); !bytes.Equal(got, want) {
			t.Errorf("defang(%.60q…) differs from the reference", in)
		}
	}
}

func FuzzDefang(f *testing.F) {
	for _, s := range defangSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := defang([]byte(in)), defangReference([]byte(in)); !bytes.Equal(got, want) {
			t.Fatalf("defang differs from the reference on %q", in)
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
