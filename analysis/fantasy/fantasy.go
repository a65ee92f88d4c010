// Package fantasy reads the fantasy block of a package's 01-overview.md
// (OpenGDD §1a) into a typed model with byte spans, and reports what the
// block breaks: FANTASY_BLOCK, FANTASY_POSITION, FANTASY_SENTENCE,
// FANTASY_LENGTH, FANTASY_FEEL, FANTASY_ANTI_REFERENCES,
// FANTASY_LABEL_DUPLICATE and FANTASY_REFERENCE.
//
// The fence itself is found with the Markdown parse of analysis/markdown;
// the block's lines are read as the format defines them, line by line.
// Read is a pure function of the parsed document.
package fantasy

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/source"
)

// Budget is the most Unicode scalar values the player-fantasy lines may
// hold together (§1a rule 10).
const Budget = 280

// Block is the fantasy block of one 01-overview.md. Every span is a byte
// span into the document's data.
type Block struct {
	// Found reports that the file has a fenced block tagged fantasy; the
	// fields below but Findings are zero when it has none.
	Found bool
	// Title is the `#` title line before the block, or empty.
	Title source.Span
	// Open and Close are the fence lines. Close is empty when the fence is
	// never closed: the block then runs to the end of the file, its lines
	// are not read and Findings holds FANTASY_BLOCK alone. Span covers the
	// block from the opening fence to the closing one.
	Open, Close, Span source.Span
	// Fantasy are the player-fantasy lines, in order.
	Fantasy []Line
	// Feel is the first `Feel:` line and Anti the first anti-reference
	// line (`NOT:` or `Anti-references:`); nil when the block has none.
	Feel, Anti *LabelLine
	// Used is the number of Unicode scalar values the player-fantasy lines
	// hold together, the part of Budget they use.
	Used int
	// Findings are the §1a problems of the block, with an empty File.
	Findings []source.Finding
}

// Line is one player-fantasy line.
type Line struct {
	// Text is the line without its leading and trailing white space, and
	// Span its place.
	Text string
	Span source.Span
	// Count is the number of Unicode scalar values of Text.
	Count int
}

// LabelLine is a `Feel:` or anti-reference line.
type LabelLine struct {
	// Label is the label with its colon as written (any letter case), and
	// LabelSpan its place.
	Label     string
	LabelSpan source.Span
	// Span covers the line without its surrounding white space.
	Span source.Span
	// Text is what follows the label, trimmed, without a sentence-ending
	// mark at its end (§1a rule 8); TextSpan is its place.
	Text     string
	TextSpan source.Span
	// Entries are the non-empty entries of Text, split at the entry
	// separators of §1a rule 6.
	Entries []Entry
}

// Entry is one entry of a labelled line.
type Entry struct {
	Text string
	Span source.Span
}

// The labels of §1a rule 4, lowercase.
const (
	feelLabel = "feel:"
	notLabel  = "not:"
	antiLabel = "anti-references:"
)

// Read finds the fantasy block of an overview chapter and checks it.
func Read(doc *markdown.Doc) *Block {
	b := &Block{}
	cb, near := find(doc)
	if cb == nil {
		b.missing(doc, near)
		return b
	}
	b.Found = true
	lines := doc.Lines
	b.Open = lineSpan(lines, cb.StartLine)
	last := cb.EndLine - 1
	b.Span = source.Span{Start: b.Open.Start, End: lineSpan(lines, last).End}
	if !cb.Closed {
		// CommonMark runs a fence that never closes to the end of the
		// file; §1a writes the block between two fence lines, so there is
		// no block, and the prose after the opening line is not measured
		// as player fantasy.
		b.report("FANTASY_BLOCK", b.Open, "this fantasy fence is never closed, so the rest of the file would be read as the block; end the block with a line of three backticks after its NOT: line")
		return b
	}
	b.Close = lineSpan(lines, last)
	b.position(lines, cb.StartLine)
	for i := cb.StartLine + 1; i < last; i++ {
		b.line(lines.LineText(i), lines.LineStart(i))
	}
	b.finish()
	return b
}

// find returns the first fenced block tagged fantasy whose opening line
// starts with backticks (not inside a quote or a list item). When there is
// none, near is the opening line of a block that was probably meant, or -1.
func find(doc *markdown.Doc) (cb *markdown.CodeBlock, near int) {
	near = -1
	for i := range doc.CodeBlocks {
		c := &doc.CodeBlocks[i]
		if !c.Fenced {
			continue
		}
		info, _, _ := strings.Cut(strings.TrimSpace(c.Info), " ")
		open := bytes.TrimLeft(doc.Lines.LineText(c.StartLine), " \t")
		if info == "fantasy" && bytes.HasPrefix(open, []byte("```")) {
			return c, -1
		}
		if near < 0 && strings.EqualFold(strings.Trim(info, "{}."), "fantasy") {
			near = c.StartLine
		}
	}
	return nil, near
}

// missing reports a file without a fantasy block.
func (b *Block) missing(doc *markdown.Doc, near int) {
	msg := "01-overview.md has no fantasy block; open the file with a fenced block tagged fantasy that says what the player gets to be, a Feel: line of three to five entries and a NOT: line"
	span := lineSpan(doc.Lines, 0)
	if near >= 0 {
		span = lineSpan(doc.Lines, near)
		msg = "this fence is not the fantasy block: the block stands at the top of the file, outside quotes and lists, and opens with three backticks and the tag fantasy in lowercase, as in ```fantasy"
	}
	b.report("FANTASY_BLOCK", span, msg)
}

// position reports content other than blank lines, HTML comments and one
// `#` title line before the block (§1a rule 2).
func (b *Block) position(lines *source.Lines, open int) {
	inComment := false
	for i := 0; i < open; i++ {
		text := lines.LineText(i)
		start := lines.LineStart(i)
		if i == 0 && bytes.HasPrefix(text, []byte("\ufeff")) {
			text, start = text[3:], start+3
		}
		at := 0
		for at < len(text) {
			if inComment {
				end := bytes.Index(text[at:], []byte("-->"))
				if end < 0 {
					at = len(text)
					break
				}
				at += end + 3
				inComment = false
				continue
			}
			for at < len(text) && (text[at] == ' ' || text[at] == '\t') {
				at++
			}
			if at == len(text) {
				break
			}
			if bytes.HasPrefix(text[at:], []byte("<!--")) {
				inComment = true
				at += 4
				continue
			}
			if at == leading(text) && isTitle(text) && b.Title == (source.Span{}) {
				b.Title = lineSpan(lines, i)
				break
			}
			span := source.Span{Start: start + at, End: start + len(bytes.TrimRight(text, " \t"))}
			msg := "only one # title line, blank lines and HTML comments may come before the fantasy block; move this below the block"
			if isTitle(text) {
				msg = "the fantasy block may follow one # title line, not two; move this line below the block"
			}
			b.report("FANTASY_POSITION", span, msg, source.Related{Span: b.Open, Message: "the fantasy block"})
			return
		}
	}
}

// leading counts the spaces and tabs that start text.
func leading(text []byte) int { return len(text) - len(bytes.TrimLeft(text, " \t")) }

// isTitle reports an ATX heading of level one: at most three spaces, one
// `#`, then white space or the end of the line.
func isTitle(text []byte) bool {
	n := leading(text)
	if n > 3 || n >= len(text) || text[n] != '#' {
		return false
	}
	rest := text[n+1:]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t'
}

// line reads one line of the block.
func (b *Block) line(raw []byte, start int) {
	text, span := trim(string(raw), start)
	if text == "" {
		return
	}
	label := ""
	for _, l := range []string{feelLabel, notLabel, antiLabel} {
		if hasPrefixFold(text, l) {
			label = l
			break
		}
	}
	if label == "" {
		n := utf8.RuneCountInString(text)
		b.Fantasy = append(b.Fantasy, Line{Text: text, Span: span, Count: n})
		b.Used += n
		return
	}
	ll := &LabelLine{
		Label:     text[:len(label)],
		LabelSpan: source.Span{Start: span.Start, End: span.Start + len(label)},
		Span:      span,
	}
	ll.Text, ll.TextSpan = trim(trimTerminal(text[len(label):]), span.Start+len(label))
	ll.Entries = split(ll.Text, ll.TextSpan.Start)
	first := &b.Feel
	what := "Feel:"
	if label != feelLabel {
		first, what = &b.Anti, "anti-reference"
	}
	if *first != nil {
		b.report("FANTASY_LABEL_DUPLICATE", ll.LabelSpan,
			fmt.Sprintf("the fantasy block holds a second %s line; keep one and merge the entries of both into it", what),
			source.Related{Span: (*first).Span, Message: "the first " + what + " line"})
		return
	}
	*first = ll
}

// finish reports what the whole block lacks or breaks.
func (b *Block) finish() {
	if len(b.Fantasy) == 0 {
		b.report("FANTASY_SENTENCE", b.Open, "the fantasy block has no player-fantasy line; write at least one line, without a label, that says what the player gets to be")
	}
	if b.Used > Budget {
		b.report("FANTASY_LENGTH", b.overBudget(),
			fmt.Sprintf("the player-fantasy lines hold %d characters together, %d over the limit of %d; shorten them (characters are counted as Unicode scalar values, without the white space around each line)", b.Used, b.Used-Budget, Budget))
	}
	lookalike := b.lookalike()
	switch {
	case b.Feel == nil && lookalike.Feel != nil:
		b.report("FANTASY_FEEL", lookalike.Feel.LabelSpan, "this line reads as player fantasy: a label ends with an ASCII colon, so write Feel: with ':' instead of '：'")
	case b.Feel == nil:
		b.report("FANTASY_FEEL", b.Open, "the fantasy block has no Feel: line; add one with three to five words or short phrases, as in Feel: fast, smooth, breathless")
	case len(b.Feel.Entries) < 3 || len(b.Feel.Entries) > 5:
		b.report("FANTASY_FEEL", b.Feel.Span, fmt.Sprintf("the Feel: line holds %d %s; it needs three to five, separated by commas", len(b.Feel.Entries), plural(len(b.Feel.Entries), "entry", "entries")))
	}
	switch {
	case b.Anti == nil && lookalike.Anti != nil:
		b.report("FANTASY_ANTI_REFERENCES", lookalike.Anti.LabelSpan, "this line reads as player fantasy: a label ends with an ASCII colon, so write NOT: with ':' instead of '：'")
	case b.Anti == nil:
		b.report("FANTASY_ANTI_REFERENCES", b.Open, "the fantasy block has no anti-reference line; add one that says what the game is not, as in NOT: repetitive, tactical, punishing")
	case b.Anti.Text == "":
		b.report("FANTASY_ANTI_REFERENCES", b.Anti.Span, "the anti-reference line is empty; after "+b.Anti.Label+" say what the game is not, as in NOT: repetitive, tactical, punishing")
	}
	for _, l := range b.Fantasy {
		for _, r := range References(l.Text, l.Span.Start) {
			b.report("FANTASY_REFERENCE", r.Span, r.Message)
		}
	}
}

// overBudget returns the span from the first character over the budget to
// the end of its line.
func (b *Block) overBudget() source.Span {
	used := 0
	for _, l := range b.Fantasy {
		if used+l.Count > Budget {
			at := 0
			for n := Budget - used; n > 0; n-- {
				_, size := utf8.DecodeRuneInString(l.Text[at:])
				at += size
			}
			return source.Span{Start: l.Span.Start + at, End: l.Span.End}
		}
		used += l.Count
	}
	return b.Open
}

// lookalike finds player-fantasy lines that open with a label written with
// a full-width colon (§1a rule 4: they have no label).
func (b *Block) lookalike() (out struct{ Feel, Anti *LabelLine }) {
	for _, l := range b.Fantasy {
		for _, label := range []string{feelLabel, notLabel, antiLabel} {
			word := label[:len(label)-1]
			if !hasPrefixFold(l.Text, word) || !strings.HasPrefix(l.Text[len(word):], "：") {
				continue
			}
			ll := &LabelLine{Label: l.Text[:len(word)+len("：")], Span: l.Span,
				LabelSpan: source.Span{Start: l.Span.Start, End: l.Span.Start + len(word) + len("：")}}
			if label == feelLabel && out.Feel == nil {
				out.Feel = ll
			} else if label != feelLabel && out.Anti == nil {
				out.Anti = ll
			}
		}
	}
	return out
}

func (b *Block) report(code string, span source.Span, msg string, related ...source.Related) {
	b.Findings = append(b.Findings, source.Finding{Code: code, Severity: source.Error, Span: span, Message: msg, Related: related})
}

// lineSpan is the span of line i without its line break, and without the
// byte order mark that can open the first line.
func lineSpan(lines *source.Lines, i int) source.Span {
	start := lines.LineStart(i)
	end := start + len(lines.LineText(i))
	if i == 0 && bytes.HasPrefix(lines.LineText(0), []byte("\ufeff")) {
		start += len("\ufeff")
	}
	return source.Span{Start: start, End: end}
}

// trim removes the white space around s, which starts at offset start, and
// returns the rest with its span.
func trim(s string, start int) (string, source.Span) {
	left := len(s) - len(strings.TrimLeftFunc(s, isSpace))
	t := strings.TrimFunc(s, isSpace)
	return t, source.Span{Start: start + left, End: start + left + len(t)}
}

// isSpace reports white space as the format trims it: Unicode white space
// and a stray byte order mark.
func isSpace(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' }

// hasPrefixFold reports whether s opens with the ASCII prefix in any
// letter case. Only ASCII letters fold: a label is syntax.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// trimTerminal removes the sentence-ending marks at the end of s, with the
// closing brackets and quotation marks after them (§1a rule 8). Closing
// marks that follow no sentence-ending mark stay.
func trimTerminal(s string) string {
	t := strings.TrimRightFunc(s, isSpace)
	u := strings.TrimRightFunc(t, isCloser)
	v := strings.TrimRightFunc(u, isTerminal)
	if len(v) == len(u) {
		return t
	}
	return v
}

// isTerminal reports a character with the Unicode property
// Sentence_Terminal.
func isTerminal(r rune) bool { return unicode.Is(unicode.Sentence_Terminal, r) }

// isCloser reports a closing bracket or closing quotation mark.
func isCloser(r rune) bool {
	return unicode.In(r, unicode.Pe, unicode.Pf) ||
		unicode.Is(unicode.Quotation_Mark, r) && !unicode.In(r, unicode.Ps, unicode.Pi)
}

// isSeparator reports an entry separator of §1a rule 6.
func isSeparator(r rune) bool {
	switch r {
	case ',', '、', '，', '،', '・':
		return true
	}
	return false
}

// split returns the non-empty entries of s, which starts at offset start.
func split(s string, start int) []Entry {
	var out []Entry
	from := 0
	add := func(to int) {
		if t, span := trim(s[from:to], start+from); t != "" {
			out = append(out, Entry{Text: t, Span: span})
		}
	}
	for i, r := range s {
		if isSeparator(r) {
			add(i)
			from = i + utf8.RuneLen(r)
		}
	}
	add(len(s))
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
