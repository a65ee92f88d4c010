package fantasy

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts/source"
)

// Reference is a reference form found in a player-fantasy line.
type Reference struct {
	// Span covers the form; Message says what it is and what to write.
	Span    source.Span
	Message string
}

// typedColons are the prefixes of the typed-colon references of §1a.
var typedColons = [...]string{"tuning:", "state:", "collections:", "descriptor:", "palette:"}

// TypedReference is a typed-colon reference of §1a in a line of text
// (`tuning:oil`, `palette:night`): its prefix, and its offsets in the
// text from the prefix to the next white space.
type TypedReference struct {
	Prefix     string
	Start, End int
}

// TypedReferences returns the typed-colon references of text, prefix by
// prefix in the order of typedColons: a prefix that does not follow a
// letter or digit and is followed by something other than white space.
func TypedReferences(text string) []TypedReference {
	var out []TypedReference
	for _, prefix := range typedColons {
		for from := 0; ; {
			i := strings.Index(text[from:], prefix)
			if i < 0 {
				break
			}
			i += from
			from = i + len(prefix)
			before, _ := utf8.DecodeLastRuneInString(text[:i])
			after, _ := utf8.DecodeRuneInString(text[from:])
			if i > 0 && isWordRune(before) || from == len(text) || unicode.IsSpace(after) {
				continue
			}
			end := from + strings.IndexFunc(text[from:]+" ", unicode.IsSpace)
			out = append(out, TypedReference{Prefix: prefix, Start: i, End: end})
		}
	}
	return out
}

// References returns the reference forms of §1a in a player-fantasy line
// whose text starts at offset start, in order: typed-colon references, a
// runtime address or a bare tuning citation in inline code, and chapter
// anchors (`file.md#anchor`, a bare `#anchor`).
func References(text string, start int) []Reference {
	var out []Reference
	add := func(a, b int, msg string) {
		out = append(out, Reference{Span: source.Span{Start: start + a, End: start + b}, Message: msg})
	}
	for _, r := range TypedReferences(text) {
		add(r.Start, r.End, fmt.Sprintf("%q is a typed reference, and the player fantasy cites nothing; say it in plain words here and cite it in a chapter", text[r.Start:r.End]))
	}
	for _, c := range codeSpans(text) {
		class, segs := tuning.ClassifyToken(c.text)
		switch {
		case class == tuning.TuningCitation:
			add(c.start, c.end, fmt.Sprintf("`%s` reads as a tuning citation, and the player fantasy cites no number; describe the feeling in words and cite the key in a chapter", c.text))
		case class == tuning.MechanismPath && segs[0] == "runtime" && len(segs) > 1:
			add(c.start, c.end, fmt.Sprintf("`%s` is a runtime address, and the player fantasy cites none; describe it in words and cite it in a chapter", c.text))
		}
	}
	for from := 0; ; {
		i := strings.Index(text[from:], ".md#")
		if i < 0 {
			break
		}
		i += from
		from = i + len(".md#")
		a := i
		for a > 0 {
			r, size := utf8.DecodeLastRuneInString(text[:a])
			if unicode.IsSpace(r) || strings.ContainsRune("([<\"'`", r) {
				break
			}
			a -= size
		}
		z := from
		for z < len(text) {
			r, size := utf8.DecodeRuneInString(text[z:])
			if !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsNumber(r) && r != '-' && r != '_' {
				break
			}
			z += size
		}
		if a == i || z == from {
			continue
		}
		add(a, z, fmt.Sprintf("%q is a chapter anchor, and the player fantasy links nowhere; keep the line plain prose", text[a:z]))
	}
	for i := 0; i < len(text); i++ {
		if text[i] != '#' {
			continue
		}
		if before, _ := utf8.DecodeLastRuneInString(text[:i]); i > 0 && !unicode.IsSpace(before) {
			continue
		}
		if n := bareAnchor(text[i+1:]); n > 0 {
			add(i, i+1+n, fmt.Sprintf("%q reads as a chapter anchor, and the player fantasy links nowhere; drop the # or reword", text[i:i+1+n]))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	// One place holds one reference: drop forms inside an earlier one.
	kept := out[:0]
	for _, r := range out {
		if len(kept) > 0 && r.Span.Start < kept[len(kept)-1].Span.End {
			continue
		}
		kept = append(kept, r)
	}
	return kept
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' }

// bareAnchor returns the length of the anchor id that s opens with under
// the wide grammar of §1a (lowercase or caseless letters, their marks and
// numbers of any script, joined by single hyphens, at least one letter),
// or 0.
func bareAnchor(s string) int {
	end, letter := 0, false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '-':
			next, _ := utf8.DecodeRuneInString(s[i+size:])
			if i == 0 || i+size == len(s) || next == '-' || !anchorRune(next) {
				return finish(end, letter)
			}
		case anchorRune(r):
			if unicode.IsLetter(r) {
				letter = true
			}
			end = i + size
		default:
			return finish(end, letter)
		}
		i += size
	}
	return finish(end, letter)
}

func finish(end int, letter bool) int {
	if !letter {
		return 0
	}
	return end
}

// anchorRune reports a lowercase or caseless letter, a mark or a number.
func anchorRune(r rune) bool {
	if unicode.IsLetter(r) {
		return !unicode.IsUpper(r) && !unicode.IsTitle(r)
	}
	return unicode.IsMark(r) || unicode.IsNumber(r)
}

// codeSpan is an inline code span in a line: its content and the span of
// the whole span with its backticks, as offsets into the line.
type codeSpan struct {
	text       string
	start, end int
}

// codeSpans finds the inline code spans of one line as CommonMark does: a
// run of backticks opens a span that the next run of the same length
// closes; one space is stripped from each end when both ends have one.
func codeSpans(line string) []codeSpan {
	var out []codeSpan
	run := func(i int) int {
		n := 0
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		return n
	}
	for i := 0; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		n := run(i)
		closed := false
		for j := i + n; j < len(line); {
			if line[j] != '`' {
				j++
				continue
			}
			m := run(j)
			if m == n {
				c := line[i+n : j]
				if len(c) >= 2 && c[0] == ' ' && c[len(c)-1] == ' ' && strings.Trim(c, " ") != "" {
					c = c[1 : len(c)-1]
				}
				out = append(out, codeSpan{text: c, start: i, end: j + m})
				i, closed = j+m, true
				break
			}
			j += m
		}
		if !closed {
			i += n
		}
	}
	return out
}
