package safety

import (
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/gddls/gddls/contracts/source"
)

// referenceScan is the scan written the straightforward way, to compare the
// scan with: every pattern runs over the normalized window of every line
// (the line and the two after it), every line pattern over every line and
// the imperative pattern over every whole paragraph, with no prefilter, no
// shortcut and nothing shared between lines.
func referenceScan(name string, content []byte) []Notice {
	pt := compiled()
	var out []Notice
	lines := splitLines(content)
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, `\`, "/")))
	md := strings.HasSuffix(base, ".md") || strings.HasSuffix(base, ".markdown")
	fenced := make([]bool, len(lines))
	if md {
		in := false
		for i, l := range lines {
			marker := pt.fenceMarker.Match(content[l.start:l.end])
			fenced[i] = in || marker
			if marker {
				in = !in
			}
		}
	}
	first := func(patterns []*regexp.Regexp, win refNormalized, curLen int) (source.Span, bool) {
		for _, p := range patterns {
			if loc := p.FindStringIndex(win.text); loc != nil && loc[0] < curLen {
				return win.span(loc[0], loc[1]), true
			}
		}
		return source.Span{}, false
	}
	for i, l := range lines {
		end := min(i+3, len(lines))
		cur := normalize(content, lines[i:i+1])
		if cur.text != "" {
			win := normalize(content, lines[i:end])
			curLen := len(cur.text)
			if sp, ok := first(referencePatterns(pt.promptControl), win, curLen); ok {
				out = append(out, Notice{PromptControl, sp, msgPrompt})
			}
			if sp, ok := first(referencePatterns(pt.externalAction), win, curLen); ok {
				out = append(out, Notice{ExternalAction, sp, msgAction})
			}
			if sp, ok := first(referencePatterns(pt.secondPerson), win, curLen); ok &&
				(!pt.gameContext.re.MatchString(win.text) || pt.agentContext.re.MatchString(win.text)) {
				out = append(out, Notice{ReaderDirective, sp, msgSecond})
			}
		}
		raw := content[l.start:l.end]
		if s, e, ok := referenceHexRun(raw); ok {
			out = append(out, Notice{ObfuscatedBlock, source.Span{Start: l.start + s, End: l.start + e}, msgHex})
		}
		if s, e, ok := referenceBase64Run(raw); ok {
			out = append(out, Notice{ObfuscatedBlock, source.Span{Start: l.start + s, End: l.start + e}, msgBase64})
		}
		if !fenced[i] {
			if s, e, ok := linkMatch(raw, false); ok {
				out = append(out, Notice{SuspiciousLink, source.Span{Start: l.start + s, End: l.start + e}, msgLink})
			}
		}
	}
	for _, par := range paragraphs(nil, content, lines, false) {
		p := normalize(content, par)
		if p.text == "" {
			continue
		}
		loc := pt.imperativeStart.FindStringSubmatchIndex(p.text)
		if loc == nil {
			continue
		}
		if !pt.agentContext.re.MatchString(p.text) && base != buildPlanChapter {
			continue
		}
		out = append(out, Notice{ReaderDirective, p.span(loc[2], loc[3]), msgImpera})
	}
	return out
}

// referencePatterns returns the patterns as published, unanchored.
func referencePatterns(ps []linePattern) []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(ps))
	for i, p := range ps {
		out[i] = p.re
	}
	return out
}

// refNormalized is text whose whitespace runs are one space, trimmed, with
// the byte offset in the content of each of its bytes.
type refNormalized struct {
	text   string
	origin []int
}

// normalize joins lines with spaces, collapses every whitespace run to one
// space and trims, keeping where each byte came from.
func normalize(content []byte, lines []line) refNormalized {
	var b []byte
	var origin []int
	pending := -1 // offset of a whitespace run not yet written
	for li, l := range lines {
		if li > 0 && pending < 0 {
			pending = l.start
		}
		for i := l.start; i < l.end; {
			r, size := utf8.DecodeRune(content[i:l.end])
			if isSpace(r) {
				if pending < 0 {
					pending = i
				}
				i += size
				continue
			}
			if pending >= 0 && len(b) > 0 {
				b = append(b, ' ')
				origin = append(origin, pending)
			}
			pending = -1
			for k := 0; k < size; k++ {
				b = append(b, content[i+k])
				origin = append(origin, i+k)
			}
			i += size
		}
	}
	return refNormalized{string(b), origin}
}

// span maps a match [s,e) of the normalized text back to the content.
func (n refNormalized) span(s, e int) source.Span {
	if e <= s {
		return source.Span{Start: n.origin[s], End: n.origin[s]}
	}
	return source.Span{Start: n.origin[s], End: n.origin[e-1] + 1}
}

// referenceHexRun is hexRun as it was first written, reading every byte:
// it finds the first run of at least 64 hexadecimal digits (with an
// optional 0x before it) that is not a `sha256:` pin of exactly 64
// lowercase digits.
func referenceHexRun(raw []byte) (int, int, bool) {
	pin := regexp.MustCompile(`sha256:[0-9a-f]{64}`)
	masked := []byte(nil)
	for from := 0; from < len(raw); {
		loc := pin.FindIndex(raw[from:])
		if loc == nil {
			break
		}
		s, e := from+loc[0], from+loc[1]
		if e < len(raw) && isHex(raw[e]) {
			from = s + 1
			continue
		}
		if masked == nil {
			masked = append([]byte(nil), raw...)
		}
		for k := s; k < e; k++ {
			masked[k] = '-'
		}
		from = e
	}
	if masked == nil {
		masked = raw
	}
	for i := 0; i < len(masked); {
		if !isHex(masked[i]) {
			i++
			continue
		}
		j := i
		for j < len(masked) && isHex(masked[j]) {
			j++
		}
		if j-i >= minHexRun {
			s := i
			if s >= 2 && masked[s-1] == 'x' && masked[s-2] == '0' && (s < 3 || !isHex(masked[s-3])) {
				s -= 2
			}
			return s, j, true
		}
		i = j
	}
	return 0, 0, false
}

// referenceBase64Run is base64Run as it was first written, reading every
// byte: it finds the first run of at least 80 base64 or base64url
// characters (padding included) that stands alone, is not all
// hexadecimal, has a length divisible by four and uses at least three of
// the classes lower case, upper case, digits and symbols.
func referenceBase64Run(raw []byte) (int, int, bool) {
	in := func(b byte) bool { return isBase64Body(b) || b == '=' }
	for i := 0; i < len(raw); {
		if !in(raw[i]) {
			i++
			continue
		}
		j := i
		for j < len(raw) && in(raw[j]) {
			j++
		}
		if ok := base64Token(raw[i:j]); ok {
			return i, j, true
		}
		i = j
	}
	return 0, 0, false
}
