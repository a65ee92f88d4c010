package safety

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// The line patterns all open with \b and one of a few words. Run as they
// are over a window, each of them tries every position of the window, and
// the window of a line is read again for each of the next two lines: on
// long prose that is most of a check. The scan runs them another way (the
// shortcut): it finds, in the current line only, the starts of words that
// a match can begin with (the start words of each pattern, taken from the
// pattern itself), and runs at each of those, in order, the pattern
// anchored there, over no more text than its longest match. The first
// such match is the leftmost match of the pattern in the window that
// begins in the current line, which is what the scan reports: the shortcut
// changes no result (TestScanMatchesReference, FuzzPrefilter).

// linePattern is one pattern of the line signals, with what the shortcut
// needs to run it.
type linePattern struct {
	re *regexp.Regexp
	// anchored is re matching only at the start of the text.
	anchored *regexp.Regexp
	// starts are the lower-case words, ASCII letters, one of which begins
	// every match, in any ASCII case, at a word boundary.
	starts []string
	// maxLen is the largest number of bytes a match can span, or -1 when
	// it has no bound.
	maxLen int
}

// linePatterns compiles patterns written as the published ones are (re).
func linePatterns(patterns ...string) []linePattern {
	out := make([]linePattern, len(patterns))
	for i, p := range patterns {
		out[i] = newLinePattern(p)
	}
	return out
}

// newLinePattern compiles a pattern written as the published one is (re),
// every alternative of which opens with \b and a word, to run on normalized
// text (normalizeLines).
func newLinePattern(p string) linePattern { return compilePattern(p, true) }

// rawPattern is newLinePattern for a pattern that runs on the lines as they
// are.
func rawPattern(p string) linePattern { return compilePattern(p, false) }

// compilePattern is newLinePattern, for normalized text when collapsed.
func compilePattern(p string, collapsed bool) linePattern {
	src := translate(p)
	lp := linePattern{re: regexp.MustCompile(src), anchored: regexp.MustCompile(`^(?:` + src + `)`)}
	tree, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		panic("safety: " + err.Error())
	}
	lp.maxLen = maxLen(tree, collapsed)
	starts, ok := openings(tree)
	if !ok {
		panic("safety: an alternative of a pattern does not open with \\b and a word: " + p)
	}
	lp.starts = starts
	return lp
}

// openings returns the start words of a pattern every alternative of which
// opens with \b and a word. The shortcut reads the word boundary itself:
// the anchored pattern cannot see the character before the match.
func openings(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpCapture:
		return openings(re.Sub[0])
	case syntax.OpConcat:
		if len(re.Sub) > 1 && re.Sub[0].Op == syntax.OpWordBoundary {
			return startWords(re.Sub[1:])
		}
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			words, ok := openings(sub)
			if !ok {
				return nil, false
			}
			out = append(out, words...)
		}
		return out, true
	}
	return nil, false
}

// startWords returns the words, ASCII letters in lower case, one of which
// begins every match of the sequence, or false when there are none.
func startWords(seq []*syntax.Regexp) ([]string, bool) {
	if len(seq) == 0 {
		return nil, false
	}
	re := seq[0]
	switch re.Op {
	case syntax.OpLiteral:
		var word []byte
		for _, r := range re.Rune {
			if c, ok := lowerLetter(byte(r)); r < utf8.RuneSelf && ok {
				word = append(word, 'a'+c)
			} else {
				break
			}
		}
		if len(word) == 0 {
			return nil, false
		}
		if len(word) < len(re.Rune) {
			return []string{string(word)}, true
		}
		rest, ok := startWords(seq[1:])
		if !ok {
			return []string{string(word)}, true
		}
		out := make([]string, len(rest))
		for i, r := range rest {
			out[i] = string(word) + r
		}
		return out, true
	case syntax.OpConcat:
		return startWords(re.Sub)
	case syntax.OpCapture, syntax.OpPlus:
		return startWords(re.Sub[:1])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return startWords(re.Sub[:1])
		}
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			words, ok := startWords([]*syntax.Regexp{sub})
			if !ok {
				return nil, false
			}
			out = append(out, words...)
		}
		return out, true
	}
	return nil, false
}

// maxLen returns the largest number of bytes a match of re can span, or -1
// when it has no bound. A character counts for utf8.UTFMax bytes: a
// case-insensitive literal matches characters of other lengths. A
// normalized text (collapsed) never holds two white-space characters in a
// row, so there a repeat of white space alone spans one character.
func maxLen(re *syntax.Regexp, collapsed bool) int {
	if collapsed && (re.Op == syntax.OpPlus || re.Op == syntax.OpStar) && onlySpace(re.Sub[0]) {
		return utf8.UTFMax
	}
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0
	case syntax.OpLiteral:
		return len(re.Rune) * utf8.UTFMax
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax
	case syntax.OpCapture, syntax.OpQuest:
		return maxLen(re.Sub[0], collapsed)
	case syntax.OpRepeat:
		n := maxLen(re.Sub[0], collapsed)
		if re.Max < 0 || n < 0 {
			return -1
		}
		return re.Max * n
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, sub := range re.Sub {
			n := maxLen(sub, collapsed)
			if n < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				total += n
			} else {
				total = max(total, n)
			}
		}
		return total
	}
	return -1
}

// onlySpace reports whether re is a class of white space alone.
func onlySpace(re *syntax.Regexp) bool {
	if re.Op != syntax.OpCharClass || len(re.Rune) == 0 {
		return false
	}
	for i := 0; i < len(re.Rune); i += 2 {
		for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
			if !isSpace(r) {
				return false
			}
		}
	}
	return true
}

// isWordChar reports whether b is a character \b looks for: an ASCII
// letter, digit or underscore.
func isWordChar(b byte) bool {
	_, letter := lowerLetter(b)
	return letter || b >= '0' && b <= '9' || b == '_'
}

// addStarts adds to v the start words of the patterns, the bit of
// patterns[k] being 1<<k.
func addStarts(v *vocabulary, patterns ...*linePattern) {
	if len(patterns) > 64 {
		panic("safety: more than 64 patterns in a trie")
	}
	for k, p := range patterns {
		for _, w := range p.starts {
			v.nodes[v.insert(w)].starts |= 1 << k
		}
	}
}

// patternsOf returns pointers to the patterns of the groups, one group
// after the other.
func patternsOf(groups ...[]linePattern) []*linePattern {
	var out []*linePattern
	for _, g := range groups {
		for i := range g {
			out = append(out, &g[i])
		}
	}
	return out
}

// candidate is a word start in the current line and the patterns (their
// bits) whose start words it begins with.
type candidate struct {
	at       int
	patterns uint64
}

// text is a text the patterns read a part of at a time: the normalized
// text (normalized.slice) or a line as it is (bytesText). A part is valid
// until the next is read.
type text interface{ slice(from, to int) []byte }

// bytesText is a text that is its bytes.
type bytesText []byte

func (t bytesText) slice(from, to int) []byte { return t[from:to] }

// firstAt returns the leftmost match of p, among the candidates with the
// pattern's bit, in text[:end] (the window ends at end): the first
// candidate at which the anchored pattern matches.
func (p *linePattern) firstAt(cands []candidate, bit uint64, text text, end int) (int, int, bool) {
	for _, c := range cands {
		if c.patterns&bit == 0 {
			continue
		}
		stop := end
		if p.maxLen >= 0 {
			// One more character after the longest match keeps what \b
			// sees there.
			stop = min(end, c.at+p.maxLen+utf8.UTFMax)
		}
		if loc := p.anchored.FindIndex(text.slice(c.at, stop)); loc != nil {
			return c.at, c.at + loc[1], true
		}
	}
	return 0, 0, false
}

// translate rewrites a pattern written as the published one is, to be
// case-insensitive, with \s, \S and . meaning what they mean in
// JavaScript.
func translate(p string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			next := p[i+1]
			i++
			switch {
			case next == 's' && inClass:
				b.WriteString(ws)
			case next == 's':
				b.WriteString("[" + ws + "]")
			case next == 'S' && !inClass:
				b.WriteString("[^" + ws + "]")
			default:
				b.WriteByte(c)
				b.WriteByte(next)
			}
			continue
		case c == '.' && !inClass:
			// JavaScript's dot stops at every line terminator.
			b.WriteString(`[^\n\r\x{2028}\x{2029}]`)
			continue
		case c == '[' && !inClass:
			inClass = true
		case c == ']' && inClass:
			inClass = false
		}
		b.WriteByte(c)
	}
	return "(?i)" + b.String()
}
