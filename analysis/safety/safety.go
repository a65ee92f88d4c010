// Package safety is the safety scan of a package's text files (SPEC §1 and
// §2d, conformance/INJECTION-LINT.md): it points out text shaped like an
// instruction to the reader — prompt-control language, requests to run a
// command or fetch a resource, directives to the reader, long encoded-looking
// runs and suspicious links — and the text files it could not read.
//
// The scan only matches patterns. It decodes, follows, fetches and executes
// nothing it finds, and a notice never decides anything about the package.
// The package is pure: it reads the bytes it is given.
package safety

import (
	"bytes"
	"iter"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/gddls/gddls/contracts/source"
)

// The codes of the scan.
const (
	PromptControl    = "INJECTION_PROMPT_CONTROL"
	ExternalAction   = "INJECTION_EXTERNAL_ACTION"
	ReaderDirective  = "INJECTION_READER_DIRECTIVE"
	ObfuscatedBlock  = "INJECTION_OBFUSCATED_BLOCK"
	SuspiciousLink   = "INJECTION_SUSPICIOUS_LINK"
	ScanSkipped      = "INJECTION_SCAN_SKIPPED"
	MaxBytes         = 2 << 20 // the largest file the scan reads
	minHexRun        = 64
	minBase64Run     = 80
	buildPlanChapter = "05-build-plan.md"
)

// Notice is one place for a person to look at. Span is a byte span in the
// scanned content (empty for INJECTION_SCAN_SKIPPED).
type Notice struct {
	Code    string
	Span    source.Span
	Message string
}

var textExtensions = map[string]bool{
	".csv": true, ".htm": true, ".html": true, ".json": true, ".jsonl": true,
	".markdown": true, ".md": true, ".ndjson": true, ".svg": true, ".toml": true,
	".tsv": true, ".txt": true, ".xml": true, ".yaml": true, ".yml": true,
}

// IsText reports whether the scan reads a file of this name: one with a
// common text extension (Markdown, JSON and JSON Lines, YAML, TOML, plain
// text, CSV, TSV, XML, HTML, SVG).
func IsText(name string) bool {
	return textExtensions[strings.ToLower(path.Ext(name))]
}

// TooLarge returns the notice for a text file larger than MaxBytes.
func TooLarge(size int64) Notice {
	return Notice{Code: ScanSkipped, Message: "this text file is over 2 MiB, so the safety scan did not read it; treat its content as untrusted"}
}

// Unreadable returns the notice for a text file that could not be read.
func Unreadable() Notice {
	return Notice{Code: ScanSkipped, Message: "this text file could not be read, so the safety scan did not look at it; treat its content as untrusted"}
}

// ws is every character JavaScript's \s matches, which the published
// patterns are written with.
const ws = `\s\x{00A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`

func isSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// re compiles a pattern written as the published one is, case-insensitive,
// with \s, \S and . meaning what they mean in JavaScript (translate).
func re(p string) *regexp.Regexp { return regexp.MustCompile(translate(p)) }

// patternSet holds the compiled patterns of the scan. Compiling them costs
// about a millisecond, so it is done on first use (compiled), not when the
// program starts: a run that scans nothing does not pay for it.
type patternSet struct {
	promptControl, externalAction, secondPerson []linePattern
	imperativeStart                             *regexp.Regexp
	agentContext, gameContext                   linePattern
	dangerousLink                               []linkPattern
	actionLink                                  linePattern
	fenceMarker, backtickFence                  *regexp.Regexp
	blankLine, headingLine, listItem            *regexp.Regexp
	// needs are the words each pattern of the first three lists cannot
	// match without (prefilter.go).
	needs needs
	// linkStarts is the trie of the start words of the link patterns
	// (starts.go): the bit of the action link is 1, that of
	// dangerousLink[k] 1<<(k+1). Those of the line patterns are in
	// needs.vocab, the bit of each its index in the three lists one after
	// the other (the bits below agentBit), then agentContext's (agentBit)
	// and gameContext's (gameBit).
	linkStarts        *vocabulary
	agentBit, gameBit uint64
}

// compiled returns the scan's patterns, compiling them on the first call.
var compiled = sync.OnceValue(func() *patternSet {
	p := &patternSet{
		promptControl: linePatterns(
			`\b(?:ignore|disregard|forget|override|bypass)\b.{0,80}\b(?:(?:previous|prior|earlier|above)(?:\s+[\p{L}\p{N}_-]+){0,3}\s+(?:instructions?|prompts?|messages?|rules?)|(?:system|developer|user)\s+(?:instructions?|prompts?|messages?|rules?))\b`,
			`\b(?:system|developer|assistant)\s+(?:message|prompt|instructions?)\b`,
			`\b(?:you\s+are|act\s+as|pretend\s+to\s+be)\s+(?:chatgpt|an?\s+(?:ai|assistant|agent|language\s+model)|the\s+(?:assistant|agent|model))\b`,
			`\b(?:follow|obey)\s+(?:only\s+)?(?:these|the\s+following|my|this)\s+(?:instructions?|prompt)\b`,
			`\b(?:do\s+not|never)\s+(?:mention|reveal|disclose|report)\b.{0,60}\b(?:instructions?|prompt|message)\b`,
		),
		externalAction: linePatterns(
			`\b(?:run|execute|invoke|launch)\s+(?:(?:this|the|a|following)\s+)?(?:command|script|shell|terminal|powershell|cmd(?:\.exe)?|bash|executable|program)\b`,
			`\b(?:fetch|download|upload|send|post|open|visit|browse|navigate(?:\s+to)?|request)\s+(?:(?:this|the|a|following)\s+)?(?:url|uri|link|endpoint|https?://|www\.)`,
			`\b(?:curl|wget|invoke-webrequest|start-bitstransfer|npm\s+(?:install|exec)|npx|pip\s+install|powershell(?:\.exe)?\s+-|cmd(?:\.exe)?\s+/c|bash\s+-c|sh\s+-c)\b`,
		),
		secondPerson: linePatterns(
			`\byou\s+(?:must|should|need\s+to|are\s+(?:required|expected|instructed)\s+to|will\s+now)\b`,
			`\b(?:make\s+sure|ensure)\s+(?:that\s+)?you\b`,
			`\byour\s+(?:task|job|goal|instructions?)\s+is\b`,
		),
		imperativeStart: re(`^\s*(?:>\s*)?(?:(?:[-+*]|\d+[.)])\s+)?(?:\*\*|__)?(run|execute|invoke|fetch|download|install|upload|send|post|browse|navigate|open|visit|read|write|edit|delete|copy|paste|return|respond|output|reveal)\b`),
		agentContext:    newLinePattern(`\b(?:agent|assistant|builder|implementer|developer|reader|validator|auditor|model|ai|llm|chatgpt|system\s+prompt|repository|repo|file|filesystem|shell|terminal|command|script|url|uri|endpoint|browser|network|credential|secret|environment\s+variable|tool)\b`),
		gameContext:     newLinePattern(`\b(?:player|character|avatar|piece|card|token|turn|round|tile|cell|board|controller|button|key|input|move|jump|attack|score|health|inventory|dialogue|camera|screen|level|room|puzzle|enemy|boss|win|lose|victory|defeat|press|hold|release|choose|select)\b`),
		// The published link pattern is one alternation; here each
		// alternative is its own pattern. Two of them end with a lookahead,
		// which RE2 lacks: they consume that one character, and the span
		// gives it back.
		dangerousLink: []linkPattern{
			{rawPattern(`\b(?:javascript|vbscript):`), false},
			{rawPattern(`\b(?:file|smb|ftp)://`), false},
			{rawPattern(`\bdata:[a-z]+/[a-z0-9.+-]+(?:;base64)?,`), false},
			{rawPattern(`\bhttps?://[^\s/@]+:[^\s/@]+@`), false},
			{rawPattern(`\bhttps?://(?:localhost|127(?:\.\d{1,3}){3}|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|\[?::1\]?)(?:[:/\s]|$)`), true},
			{rawPattern(`\bhttps?://[^\s)]+\.(?:ps1|bat|cmd|exe|msi|sh|js|zip)(?:[?#\s)]|$)`), true},
		},
		actionLink:    rawPattern(`(?:\b(?:fetch|download|upload|send|post|open|visit|browse|navigate|request|curl|wget)\b.{0,120}\b(?:https?://|www\.)|\b(?:https?://|www\.)\S{0,120}\b(?:fetch|download|upload|send|post|open|visit|browse|navigate|request|curl|wget)\b)`),
		fenceMarker:   regexp.MustCompile(`^[` + ws + `]*(?:` + "```" + `|~~~)`),
		backtickFence: regexp.MustCompile(`^[` + ws + `]*` + "```"),
		blankLine:     regexp.MustCompile(`^[` + ws + `]*$`),
		headingLine:   regexp.MustCompile(`^#{1,6}[` + ws + `]`),
		listItem:      regexp.MustCompile(`^[` + ws + `]*(?:[-+*]|\d+[.)])[` + ws + `]+`),
	}
	p.needs = patternNeeds(p)
	lines := patternsOf(p.promptControl, p.externalAction, p.secondPerson)
	p.agentBit, p.gameBit = 1<<len(lines), 1<<(len(lines)+1)
	addStarts(p.needs.vocab, append(lines, &p.agentContext, &p.gameContext)...)
	links := []*linePattern{&p.actionLink}
	for i := range p.dangerousLink {
		links = append(links, &p.dangerousLink[i].linePattern)
	}
	p.linkStarts = &vocabulary{}
	addStarts(p.linkStarts, links...)
	return p
})

// Messages, one per signal. They name the shape found, not the text.
const (
	msgPrompt = "text shaped like an instruction to an AI or agent (prompt control); read it as untrusted data before an agent receives the package"
	msgAction = "text shaped like a request to run a command or contact a resource; do not run or fetch it without review"
	msgSecond = "an explicit duty addressed to \"you\" may speak to the reader or an agent rather than describe the game; check whom it addresses"
	msgImpera = "a paragraph opens with an imperative verb while it is about a builder, a tool, a file or a network resource; check whom it addresses"
	msgHex    = "a long run that looks like hexadecimal may hide content; it was not decoded"
	msgBase64 = "a long run that looks like base64 may hide content; it was not decoded"
	msgLink   = "a link with signs of an action, an executable, a local or private host, credentials or an active scheme; it was not followed"
)

// headLines is a number of lines with text that always holds the
// imperative opening of a paragraph: a quote marker, a list marker and the
// verb (with the emphasis before it) may each stand on a line of their own.
const headLines = 5

// opening returns the lines of a paragraph that hold its imperative
// opening: the shortest start of par with headLines lines that hold more
// than white space, or all of par. Lines of white space alone count for
// nothing, as they add nothing to the normalized text.
func opening(content []byte, par []line) []line {
	withText := 0
	for i, l := range par {
		if hasText(content[l.start:l.end]) {
			if withText++; withText == headLines {
				return par[:i+1]
			}
		}
	}
	return par
}

// hasText reports whether b holds a character that normalizing keeps
// (isSpace).
func hasText(b []byte) bool {
	_, ok := firstOutside(b, isSpace)
	return ok
}

// line is one line of the content: its byte span without the line break.
type line struct{ start, end int }

// splitLines splits like JavaScript's split(/\r?\n/).
func splitLines(content []byte) []line { return splitLinesInto(nil, content) }

// splitLinesInto is splitLines, reusing the memory of out.
func splitLinesInto(out []line, content []byte) []line {
	out = resize(out, bytes.Count(content, []byte{'\n'})+1)[:0]
	start := 0
	for {
		i := bytes.IndexByte(content[start:], '\n')
		if i < 0 {
			return append(out, line{start, len(content)})
		}
		end := start + i
		if end > start && content[end-1] == '\r' {
			end--
		}
		out = append(out, line{start, end})
		start += i + 1
	}
}

// normalized is the text of lines whose whitespace runs are one space,
// trimmed: the text the line patterns read. It is not kept whole. Most
// lines' text is their content without the white space around it (plain:
// printable characters with single spaces between them), so a part of the
// text that a pattern reads is sliced from the content, or copied from it
// when it spans lines (slice), and only the other lines are normalized,
// one at a time, when they are read.
type normalized struct {
	content []byte
	lines   []line
	// bounds is the span in the text of each line: from its first byte that
	// is not white space to the end of its last; for a line of white space
	// alone, the empty span where the text before it ends.
	bounds []line
	// at is where in the content a plain line's text starts, or -1 for a
	// line whose text is not its content as it is.
	at []int
	// size is the length of the text.
	size int
	// buf and scratch are reused by slice and lineText.
	buf, scratch []byte
}

// normalizeLines returns the normalized text of lines: joined with spaces,
// every whitespace run collapsed to one space, trimmed. As the whitespace
// runs between the lines are collapsed the same way, the normalized text
// of lines[i:j] alone is the text from the start of the first of them that
// is not empty to the end of the last (textOf). Where each byte of the
// text comes from is worked out for the few bytes that need it (offset),
// not kept for all.
func normalizeLines(content []byte, lines []line) normalized {
	n := normalized{content: content, lines: lines}
	n.reset(content, lines, nil)
	return n
}

// reset makes n the normalized text of lines, reusing n's memory. With w,
// it reads the words of each line too (lineWords), in the same pass where
// a line is plain.
func (n *normalized) reset(content []byte, lines []line, w *lineWords) {
	n.content, n.lines, n.size = content, lines, 0
	n.bounds = resize(n.bounds, len(lines))
	n.at = resize(n.at, len(lines))
	if w != nil {
		w.masks = resize(w.masks, len(lines))
		w.firstCand = resize(w.firstCand, len(lines)+1)
		w.cands = w.cands[:0]
	}
	for li, l := range lines {
		var s, e int
		var plain bool
		if w != nil {
			// Where the line has text, it starts here in the text.
			base := n.size
			if base > 0 {
				base++
			}
			w.firstCand[li] = len(w.cands)
			s, e, plain, w.masks[li], w.cands = w.vocab.spanWords(content[l.start:l.end], base, w.cands)
		} else {
			s, e, plain = textSpan(content[l.start:l.end])
		}
		size := e - s
		n.at[li] = l.start + s
		if !plain {
			n.at[li] = -1
			n.scratch = normalizeLine(n.scratch[:0], content[l.start:l.end])
			size = len(n.scratch)
		}
		if size == 0 {
			n.bounds[li] = line{n.size, n.size}
			continue
		}
		if n.size > 0 {
			n.size++ // the space that stands for the white space before it
		}
		n.bounds[li] = line{n.size, n.size + size}
		n.size += size
		if w != nil && !plain {
			// The words again, on the line's normalized text.
			w.cands = w.cands[:w.firstCand[li]]
			w.masks[li], w.cands = w.vocab.words(n.scratch, n.bounds[li].start, w.cands)
		}
	}
	if w != nil {
		w.firstCand[len(lines)] = len(w.cands)
	}
}

// lineWords are the words of each line the prefilter reads, and the
// candidates of the shortcut: the words of lines[i] are masks[i], its
// candidates cands[firstCand[i]:firstCand[i+1]].
type lineWords struct {
	vocab     *vocabulary
	masks     []uint64
	cands     []candidate
	firstCand []int
}

// resize returns s with length n, reusing its memory when it has room.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// textSpan returns the span of b's text, from its first character that is
// not white space to the end of its last, and whether normalizing leaves
// that text as it is: it holds no white space but single spaces.
func textSpan(b []byte) (s, e int, plain bool) {
	s, e, plain, _, _ = (*vocabulary)(nil).spanWords(b, 0, nil)
	return s, e, plain
}

// spanWords is textSpan, and with a vocabulary v, words in the same pass:
// when the text is plain, the words and candidates are those of words on
// it, at base. (When it is not, the candidates' places are not those of
// the normalized text.)
func (v *vocabulary) spanWords(b []byte, base int, cands []candidate) (s, e int, plain bool, m uint64, _ []candidate) {
	s, plain = -1, true
	gap := 0 // the bytes of white space since the last character of text
	for i := 0; i < len(b); {
		c, size := b[i], 1
		if c-'!' <= '~'-'!' {
			// A run of printable ASCII characters with single spaces
			// between them, as most of a line of text is.
			if gap > 0 && s >= 0 && (gap > 1 || b[i-1] != ' ') {
				plain = false
			}
			if s < 0 {
				s = i
			}
			for i < len(b) {
				c := b[i]
				if v != nil && isLetter(c) {
					i, cands = v.letterRun(b, i, base-s, &m, cands)
					continue
				}
				if c-'!' > '~'-'!' && (c != ' ' || i+1 == len(b) || b[i+1]-'!' > '~'-'!') {
					break
				}
				i++
			}
			e, gap = i, 0
			continue
		}
		space := c == ' ' || c >= '\t' && c <= '\r'
		if c >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRune(b[i:])
			space = isSpace(r)
		}
		if space {
			gap += size
			i += size
			continue
		}
		if gap > 0 && s >= 0 && (gap > 1 || b[i-1] != ' ') {
			plain = false
		}
		if s < 0 {
			s = i
		}
		i += size
		e, gap = i, 0
	}
	if s < 0 {
		return 0, 0, true, m, cands
	}
	return s, e, plain, m, cands
}

// normalizeLine appends to dst the normalized text of one line: its
// whitespace runs one space, trimmed.
func normalizeLine(dst, b []byte) []byte {
	start, pending := len(dst), false
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if isSpace(r) {
			pending = true
			i += size
			continue
		}
		if pending && len(dst) > start {
			dst = append(dst, ' ')
		}
		pending = false
		dst = append(dst, b[i:i+size]...)
		i += size
	}
	return dst
}

// lineText returns the text of lines[i], which is valid until the next
// call of lineText or slice.
func (n *normalized) lineText(i int) []byte {
	b := n.bounds[i]
	if at := n.at[i]; at >= 0 {
		return n.content[at : at+b.end-b.start]
	}
	n.scratch = normalizeLine(n.scratch[:0], n.content[n.lines[i].start:n.lines[i].end])
	return n.scratch
}

// slice returns text[from:to] of the normalized text, which is valid until
// the next call of slice or lineText: a part of the content when it lies
// in a plain line, else a copy.
func (n *normalized) slice(from, to int) []byte {
	if from >= to {
		return nil
	}
	// The first line whose text ends after from: from is in its text, or
	// is the space before it.
	j := sort.Search(len(n.bounds), func(k int) bool { return n.bounds[k].end > from })
	if b := n.bounds[j]; from >= b.start && to <= b.end && n.at[j] >= 0 {
		return n.content[n.at[j]+from-b.start : n.at[j]+to-b.start]
	}
	buf := n.buf[:0]
	for x := from; x < to; j++ {
		b := n.bounds[j]
		if b.start == b.end {
			continue
		}
		if x < b.start { // the space before the line's text
			buf = append(buf, ' ')
			x = b.start
		}
		e := min(to, b.end)
		if x < e {
			buf = append(buf, n.lineText(j)[x-b.start:e-b.start]...)
			x = e
		}
	}
	n.buf = buf
	return buf
}

// whole returns the whole normalized text, as slice does.
func (n *normalized) whole() []byte { return n.slice(0, n.size) }

// textOf returns the span in the text of lines[from:to], which is empty
// when they are white space alone.
func (n *normalized) textOf(from, to int) (int, int) {
	start, end := -1, -1
	for _, b := range n.bounds[from:to] {
		if b.start == b.end {
			continue
		}
		if start < 0 {
			start = b.start
		}
		end = b.end
	}
	if start < 0 {
		return 0, 0
	}
	return start, end
}

// span maps a match [s,e) of the text back to the content.
func (n *normalized) span(s, e int) source.Span {
	if e <= s {
		return source.Span{Start: n.offset(s), End: n.offset(s)}
	}
	return source.Span{Start: n.offset(s), End: n.offset(e-1) + 1}
}

// offset returns where in the content the byte at x of the text comes from:
// for a space, the first character of the whitespace run it stands for, or
// the start of the line when the run is the line break alone.
func (n *normalized) offset(x int) int {
	// The line that holds x, or after which the space at x stands: the
	// last line before x that is not blank.
	j := sort.Search(len(n.bounds), func(k int) bool { return n.bounds[k].start > x }) - 1
	for n.bounds[j].start == n.bounds[j].end {
		j--
	}
	l, b := n.lines[j], n.bounds[j]
	c := l.start
	for c < l.end { // the white space that opens the line
		r, size := utf8.DecodeRune(n.content[c:l.end])
		if !isSpace(r) {
			break
		}
		c += size
	}
	k := b.start
	for c < l.end {
		r, size := utf8.DecodeRune(n.content[c:l.end])
		if !isSpace(r) {
			if x < k+size {
				return c + x - k
			}
			k += size
			c += size
			continue
		}
		if k == x { // a run inside the line, or the one that closes it
			return c
		}
		k++ // the run is one space
		for c < l.end {
			r, size := utf8.DecodeRune(n.content[c:l.end])
			if !isSpace(r) {
				break
			}
			c += size
		}
	}
	// x is the space between the line, which does not end with white
	// space, and the next that is not blank: it stands for the line break.
	return n.lines[j+1].start
}

// window is the normalized text of a line and the two lines after it: a
// part of the normalized text of the whole content.
type window struct {
	n *normalized
	// The window is n.text[start:end], its current line n.text[start:cur].
	start, cur, end int
	// shortcut: the patterns run at the candidates (starts.go) alone.
	shortcut bool
	cands    []candidate
}

// text returns the text of the window, as normalized.slice does.
func (w *window) text() []byte { return w.n.slice(w.start, w.end) }

// firstInCurrent finds the leftmost match of any pattern in the window whose
// start lies within the current line. A pattern whose need the window's
// words (mask) do not meet cannot match and is not run. The bit of
// patterns[k] among the candidates' is 1<<(bit0+k).
func (w *window) firstInCurrent(patterns []linePattern, needs []need, mask uint64, bit0 int) (source.Span, bool) {
	for k := range patterns {
		p := &patterns[k]
		if !needs[k].passes(mask) {
			continue
		}
		if w.shortcut {
			if s, e, ok := p.firstAt(w.cands, 1<<(bit0+k), w.n, w.end); ok {
				return w.n.span(s, e), true
			}
			continue
		}
		if loc := p.re.FindIndex(w.text()); loc != nil && w.start+loc[0] < w.cur {
			return w.n.span(w.start+loc[0], w.start+loc[1]), true
		}
	}
	return source.Span{}, false
}

// Scan returns the notices of one text file. name is the file's path or
// base name; it says whether the file is Markdown (whose fences the link
// check skips) and whether it is the build plan. The caller decides which
// files to scan (IsText) and reports TooLarge and Unreadable itself.
func Scan(name string, content []byte) []Notice {
	return scan(name, content, true)
}

// scan is Scan, with the prefilter (prefilter.go) or without it.
func scan(name string, content []byte, prefilter bool) []Notice {
	return new(Scanner).scan(name, content, prefilter).Notices
}

// Scanner scans files one after the other, reusing from one file to the
// next the memory the scan of a file needs while it runs (its lines, their
// words and the parts of their normalized text the patterns read): the
// scans of many files then make little garbage. The zero Scanner is ready
// to use. A Scanner is not safe for concurrent use: give each goroutine
// its own.
type Scanner struct {
	lines  []line
	fenced []bool
	ls     lineScan
	pars   [][]line
}

// ScanText is ScanText, with the memory of sc.
func (sc *Scanner) ScanText(name string, content []byte) Scanned {
	return sc.scan(name, content, true)
}

// scan is ScanText, with the prefilter or without it.
func (sc *Scanner) scan(name string, content []byte, prefilter bool) Scanned {
	pt := compiled()
	sc.lines = splitLinesInto(sc.lines, content)
	lines := sc.lines
	md, plan := kindOf(name)
	sc.fenced = fencedLines(sc.fenced, content, lines, md, len(lines))
	fenced := sc.fenced
	gate := prefilter // the paragraphs' shortcut needs no case folding
	ls := &sc.ls
	ls.reset(content, lines, prefilter)
	var out []Notice
	for i := range lines {
		out = ls.line(out, i, fenced[i])
	}
	lineNotices := len(out)
	sc.pars = paragraphs(sc.pars, content, lines, gate)
	for _, par := range sc.pars {
		first := sort.Search(len(lines), func(k int) bool { return lines[k].start >= par[0].start })
		start, end := ls.all.textOf(first, first+len(par))
		if start == end {
			continue
		}
		// The imperative opening lies within the paragraph's opening lines,
		// and their normalized text is the start of the paragraph's, so
		// the pattern reads no further.
		head := end
		if gate {
			if _, e := ls.all.textOf(first, first+len(opening(content, par))); e > start {
				head = e
			}
		}
		n, ok := imperativeOpening(ls.all.slice(start, head), plan,
			func(s, e int) source.Span { return ls.all.span(start+s, start+e) },
			func() bool { return ls.contains(&pt.agentContext, pt.agentBit, first, first+len(par)) })
		if ok {
			out = append(out, n)
		}
	}
	return Scanned{Notices: out, lineNotices: lineNotices}
}

// kindOf reports whether a file of this name is Markdown (whose fences the
// link check skips) and whether it is the build plan (whose imperative
// paragraphs need no agent context).
func kindOf(name string) (md, plan bool) {
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, `\`, "/")))
	md = strings.HasSuffix(base, ".md") || strings.HasSuffix(base, ".markdown")
	return md, base == buildPlanChapter
}

// fencedLines reports, for each of the first n lines of a Markdown
// content, whether it is a fence marker or lies inside a fence; for any
// other content, none is. It reuses the memory of fenced.
func fencedLines(fenced []bool, content []byte, lines []line, md bool, n int) []bool {
	fenced = resize(fenced, n)
	clear(fenced)
	if !md {
		return fenced
	}
	pt := compiled()
	in := false
	for i, l := range lines[:n] {
		text := content[l.start:l.end]
		// A marker holds three backticks or tildes in a row: a line without
		// them is not one, and the pattern does not run.
		marker := mayFence(text) && pt.fenceMarker.Match(text)
		fenced[i] = in || marker
		if marker {
			in = !in
		}
	}
	return fenced
}

// mayFence reports whether text holds three backticks or three tildes in a
// row, which every fence marker does.
func mayFence(text []byte) bool {
	return bytes.Contains(text, []byte("```")) || bytes.Contains(text, []byte("~~~"))
}

// imperativeOpening returns the notice of a paragraph whose normalized text
// opens with head (its first headLines lines, or all of it): one when head
// opens with an imperative verb and the paragraph is about an agent, a tool
// or a resource (agent, which is only called then), or anything in the
// build plan. span maps a span of head to the content. agent may reuse
// the memory of head.
func imperativeOpening(head []byte, plan bool, span func(s, e int) source.Span, agent func() bool) (Notice, bool) {
	loc := compiled().imperativeStart.FindSubmatchIndex(head)
	if loc == nil || !plan && !agent() {
		return Notice{}, false
	}
	return Notice{ReaderDirective, span(loc[2], loc[3]), msgImpera}, true
}

// lineScan is the line-by-line part of the scan over consecutive lines of
// a content: their normalized text and, with the prefilter, the words the
// patterns need and their candidates.
type lineScan struct {
	pt        *patternSet
	content   []byte
	lines     []line
	all       normalized
	prefilter bool
	// lineWords are the prefilter's: the words of each line and the
	// candidates of the shortcut.
	lineWords
}

// newLineScan prepares the scan of lines, which are consecutive lines of
// content: the windows of the last two of them end with them.
func newLineScan(content []byte, lines []line, prefilter bool) *lineScan {
	ls := &lineScan{}
	ls.reset(content, lines, prefilter)
	return ls
}

// reset prepares ls for the scan of lines, as newLineScan does, reusing
// its memory.
func (ls *lineScan) reset(content []byte, lines []line, prefilter bool) {
	ls.pt, ls.content, ls.lines = compiled(), content, lines
	if len(lines) > 0 {
		prefilter = prefilter && !foldsOutsideASCII(content[lines[0].start:lines[len(lines)-1].end])
	}
	ls.prefilter = prefilter
	// The windows are parts of the normalized text of all the lines
	// (normalized). With the prefilter, the same pass over each line gives
	// the words the patterns need (masks) and the candidates of the
	// shortcut.
	var w *lineWords
	if prefilter {
		ls.vocab = ls.pt.needs.vocab
		w = &ls.lineWords
	}
	ls.all.reset(content, lines, w)
}

// contains reports whether the pattern matches in the text of
// lines[from:to], whose candidates hold its bit.
func (ls *lineScan) contains(p *linePattern, bit uint64, from, to int) bool {
	start, end := ls.all.textOf(from, to)
	if !ls.prefilter {
		return p.re.Match(ls.all.slice(start, end))
	}
	_, _, ok := p.firstAt(ls.cands[ls.firstCand[from]:ls.firstCand[to]], bit, &ls.all, end)
	return ok
}

// line appends the notices of lines[i] to out: the line patterns over its
// window (it and the two lines after it), the encoded runs and the links.
// fenced says whether the line is in a Markdown fence.
func (ls *lineScan) line(out []Notice, i int, fenced bool) []Notice {
	pt, all, l := ls.pt, &ls.all, ls.lines[i]
	end := min(i+3, len(ls.lines))
	mask := ^uint64(0) // without the prefilter every pattern runs
	if ls.prefilter {
		mask = 0
		for _, m := range ls.masks[i:end] {
			mask |= m
		}
	}
	run := true
	if ls.prefilter {
		// A match begins at a candidate of the current line: without
		// one, no line pattern runs.
		var starts uint64
		for _, c := range ls.cands[ls.firstCand[i]:ls.firstCand[i+1]] {
			starts |= c.patterns
		}
		run = starts&(pt.agentBit-1) != 0
	}
	if run && pt.needs.any(mask) {
		cur := all.bounds[i]
		if cur.start == cur.end {
			// A line of white space alone holds none of the runs and
			// links below either.
			return out
		}
		_, winEnd := all.textOf(i, end)
		w := window{n: all, start: cur.start, cur: cur.end, end: winEnd, shortcut: ls.prefilter}
		if ls.prefilter {
			w.cands = ls.cands[ls.firstCand[i]:ls.firstCand[i+1]]
		}
		np, na := len(pt.promptControl), len(pt.externalAction)
		if sp, ok := w.firstInCurrent(pt.promptControl, pt.needs.prompt, mask, 0); ok {
			out = append(out, Notice{PromptControl, sp, msgPrompt})
		}
		if sp, ok := w.firstInCurrent(pt.externalAction, pt.needs.action, mask, np); ok {
			out = append(out, Notice{ExternalAction, sp, msgAction})
		}
		if sp, ok := w.firstInCurrent(pt.secondPerson, pt.needs.second, mask, np+na); ok &&
			(!ls.contains(&pt.gameContext, pt.gameBit, i, end) || ls.contains(&pt.agentContext, pt.agentBit, i, end)) {
			out = append(out, Notice{ReaderDirective, sp, msgSecond})
		}
	}
	raw := ls.content[l.start:l.end]
	if s, e, ok := hexRun(raw); ok {
		out = append(out, Notice{ObfuscatedBlock, source.Span{Start: l.start + s, End: l.start + e}, msgHex})
	}
	if s, e, ok := base64Run(raw); ok {
		out = append(out, Notice{ObfuscatedBlock, source.Span{Start: l.start + s, End: l.start + e}, msgBase64})
	}
	if !fenced && (!ls.prefilter || mayLink(raw)) {
		if s, e, ok := linkMatch(raw, ls.prefilter); ok {
			out = append(out, Notice{SuspiciousLink, source.Span{Start: l.start + s, End: l.start + e}, msgLink})
		}
	}
	return out
}

// linkPattern is one alternative of the suspicious-link pattern.
type linkPattern struct {
	linePattern
	// lookahead: the pattern's last character stands for a lookahead
	// and is not part of the span.
	lookahead bool
}

// linkMatch finds the leftmost match of the suspicious-link patterns in a
// line, or else of the action-link pattern. With shortcut, the patterns run
// at the word starts of the line they can begin with alone (starts.go).
func linkMatch(raw []byte, shortcut bool) (int, int, bool) {
	pt := compiled()
	var cands []candidate
	if shortcut {
		_, cands = pt.linkStarts.words(raw, 0, nil)
	}
	find := func(p *linePattern, bit uint64) (int, int, bool) {
		if shortcut {
			return p.firstAt(cands, bit, bytesText(raw), len(raw))
		}
		if loc := p.re.FindIndex(raw); loc != nil {
			return loc[0], loc[1], true
		}
		return 0, 0, false
	}
	best, bestEnd := -1, 0
	for k := range pt.dangerousLink {
		p := &pt.dangerousLink[k]
		s, e, ok := find(&p.linePattern, 1<<(k+1))
		if !ok || best >= 0 && s >= best {
			continue
		}
		// The host or the extension before the lookahead ends in a letter,
		// a digit or ']', so a last character of the lookahead's set was
		// consumed for it.
		if r, size := utf8.DecodeLastRune(raw[s:e]); p.lookahead && (isSpace(r) || strings.ContainsRune(":/?#)", r)) {
			e -= size
		}
		best, bestEnd = s, e
	}
	if best >= 0 {
		return best, bestEnd, true
	}
	return find(&pt.actionLink, 1)
}

// paragraphs returns the lines of each prose paragraph of the content: blank lines,
// headings and ``` fences end a paragraph, fenced lines belong to none, and
// a list item starts a new one. With gate, a line pattern runs only when
// the line's first character allows it to match. It reuses the memory of
// out.
func paragraphs(out [][]line, content []byte, lines []line, gate bool) [][]line {
	pt := compiled()
	out = out[:0]
	// The paragraph being gathered is lines[from:to] (every line that
	// ends one flushes it, so its lines are consecutive): a paragraph is
	// sliced from lines, not copied.
	from, to := 0, 0
	fenced := false
	flush := func() {
		if to > from {
			out = append(out, lines[from:to:to])
		}
		from = to
	}
	for i, l := range lines {
		text := content[l.start:l.end]
		// Each pattern below is decided by the line's first character that
		// is not white space (none for a blank line), so only the one that
		// character allows is run.
		first := firstNonSpace(text)
		may := func(ok bool) bool { return ok || !gate }
		if may(first == '`') && pt.backtickFence.Match(text) {
			flush()
			fenced = !fenced
			continue
		}
		if fenced || may(first == 0) && pt.blankLine.Match(text) || may(first == '#') && pt.headingLine.Match(text) {
			flush()
			continue
		}
		if to > from && may(first == '-' || first == '+' || first == '*' || first >= '0' && first <= '9') && pt.listItem.Match(text) {
			flush()
		}
		if to == from {
			from = i
		}
		to = i + 1
	}
	flush()
	return out
}

// firstNonSpace returns the first character of text outside the class ws,
// or 0 when there is none (an invalid byte counts as U+FFFD, as in the
// patterns).
func firstNonSpace(text []byte) rune {
	// The indentation of most lines is spaces and tabs, which are in ws:
	// they are skipped here without decoding them one at a time.
	i := 0
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if i < len(text) && text[i] < utf8.RuneSelf && !inWS(rune(text[i])) {
		return rune(text[i])
	}
	r, _ := firstOutside(text[i:], inWS)
	return r
}

// firstOutside returns the first character of text for which space is
// false, and whether there is one (an invalid byte counts as U+FFFD).
func firstOutside(text []byte, space func(rune) bool) (rune, bool) {
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		if !space(r) {
			return r, true
		}
		i += size
	}
	return 0, false
}

// inWS reports whether r is in the class ws.
func inWS(r rune) bool {
	switch r {
	case '\t', '\n', '\f', '\r', ' ', '\u00A0', '\u1680', '\u2028', '\u2029', '\u202F', '\u205F', '\u3000', '\uFEFF':
		return true
	}
	return r >= '\u2000' && r <= '\u200A'
}

func isHex(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F'
}

// hexRun finds the first run of at least 64 hexadecimal digits (with an
// optional 0x before it) that is not a `sha256:` pin of exactly 64
// lowercase digits.
func hexRun(raw []byte) (int, int, bool) {
	for s, e := range longRuns(raw, isHex, minHexRun) {
		if e-s == minHexRun && bytes.HasSuffix(raw[:s], []byte("sha256:")) && !bytes.ContainsFunc(raw[s:e], isUpper) {
			continue // a pin: nothing hexadecimal can follow it in its run
		}
		if s >= 2 && raw[s-1] == 'x' && raw[s-2] == '0' && (s < 3 || !isHex(raw[s-3])) {
			s -= 2
		}
		return s, e, true
	}
	return 0, 0, false
}

func isUpper(r rune) bool { return r >= 'A' && r <= 'Z' }

// longRuns yields the start and end of each longest run of bytes of the
// class in, at least least long, in order. Where there is none it reads one
// byte in least: a run that long holds one of the bytes it reads.
func longRuns(raw []byte, in func(byte) bool, least int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for p := least - 1; p < len(raw); {
			if !in(raw[p]) {
				p += least
				continue
			}
			s, e := p, p+1
			for s > 0 && in(raw[s-1]) {
				s--
			}
			for e < len(raw) && in(raw[e]) {
				e++
			}
			if e-s >= least && !yield(s, e) {
				return
			}
			p = e + least // raw[e] is not of the class
		}
	}
}

func isBase64Body(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '+' || b == '/' || b == '_' || b == '-'
}

// base64Run finds the first run of at least 80 base64 or base64url
// characters (padding included) that stands alone, is not all hexadecimal,
// has a length divisible by four and uses at least three of the classes
// lower case, upper case, digits and symbols.
func base64Run(raw []byte) (int, int, bool) {
	for s, e := range longRuns(raw, isBase64, minBase64Run) {
		if base64Token(raw[s:e]) {
			return s, e, true
		}
	}
	return 0, 0, false
}

func isBase64(b byte) bool { return isBase64Body(b) || b == '=' }

func base64Token(tok []byte) bool {
	body := len(tok)
	for body > 0 && tok[body-1] == '=' {
		body--
	}
	if len(tok)-body > 2 || body < minBase64Run {
		return false
	}
	if strings.ContainsRune(string(tok[:body]), '=') || len(tok)%4 != 0 {
		return false
	}
	var lower, upper, digit, symbol, hex bool
	hex = true
	for _, b := range tok {
		switch {
		case b >= 'a' && b <= 'z':
			lower = true
		case b >= 'A' && b <= 'Z':
			upper = true
		case b >= '0' && b <= '9':
			digit = true
		default:
			symbol = true
		}
		if !isHex(b) {
			hex = false
		}
	}
	if hex {
		return false
	}
	n := 0
	for _, c := range []bool{lower, upper, digit, symbol} {
		if c {
			n++
		}
	}
	return n >= 3
}
