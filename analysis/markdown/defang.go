package markdown

import "bytes"

// goldmark, like most CommonMark parsers, takes time that grows faster than
// the input on a few shapes of text: thousands of nested container markers
// on one line ("- - - - …"), thousands of emphasis delimiters or link
// openers in one paragraph. A designer never writes such text, but a file
// in a repository can hold anything, and a language server must not stall
// on it. defang bounds those shapes before goldmark sees the text: past a
// budget, the extra markers of a block are replaced by spaces. Replacing a
// byte by a byte keeps every offset, so every span still points into the
// original data; only text that was already beyond any sensible document
// is read differently.

const (
	// maxContainerDepth bounds the block quote and list markers opening one
	// line.
	maxContainerDepth = 32
	// maxDelimiters bounds, per block, the emphasis delimiters, link and
	// image brackets, parentheses, angle brackets and backtick runs.
	maxDelimiters = 2000
)

// defang returns src with pathological runs neutralised; it returns src
// itself when there is nothing to change.
func defang(src []byte) []byte { return defangCounting(src, false) }

// defangCounting is defang; eager counts the delimiters of every line at
// once, which gives the same result (the tests compare the two) and which
// defang does not, since most blocks are too short to need counting.
func defangCounting(src []byte, eager bool) []byte {
	var out []byte // copy on first change
	set := func(i int, c byte) {
		if out == nil {
			out = append([]byte(nil), src...)
		}
		out[i] = c
	}
	var counts [6]int // per block: emphasis, brackets, parens, angles, backticks, bangs
	blockBytes, counting := 0, false
	var pending [][2]int // the lines of the block not counted yet
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
			blockBytes, counting, pending = 0, false, pending[:0]
		default:
			from := openers(src, start, end, set)
			// A block holds no more delimiters than bytes, so none can
			// pass the budget before the block's lines hold more than
			// maxDelimiters bytes: until then the lines are only
			// remembered, and counted when it comes to that.
			blockBytes += end - from
			switch {
			case counting || eager:
				countDelimiters(src, from, end, &counts, set)
			case blockBytes > maxDelimiters:
				counting = true
				for _, l := range pending {
					countDelimiters(src, l[0], l[1], &counts, set)
				}
				pending = pending[:0]
				countDelimiters(src, from, end, &counts, set)
			default:
				pending = append(pending, [2]int{from, end})
			}
		}
		start = end + 1
	}
	if out == nil {
		return src
	}
	return out
}

// openers bounds the container markers that open the line [start, end)
// and returns where the rest of the line starts.
func openers(src []byte, start, end int, set func(int, byte)) int {
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
	return i
}

// countDelimiters counts the delimiters of [from, end), a line after its
// container markers, against the block's budget.
func countDelimiters(src []byte, from, end int, counts *[6]int, set func(int, byte)) {
	for k := from; k < end; k++ {
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

// closingRun returns the offset in b of the first run of exactly n
// backticks, or -1.
func closingRun(b []byte, n int) int {
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(b) && b[j] == '`' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}
