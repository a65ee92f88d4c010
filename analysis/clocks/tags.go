package clocks

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/source"
)

// CodeTagDangling is the finding code of a mode tag that names no time
// mode, or of `[ALL]`.
const CodeTagDangling = "MODE_TAG_DANGLING"

// Tag is one mode tag of a chapter heading: a bracketed word, such as
// `[IN-MISSION]`.
type Tag struct {
	// Heading is the index of the heading in the document.
	Heading int
	// Word is the text between the brackets, as written.
	Word string
	// Span covers the brackets and the word; WordSpan the word alone.
	Span     source.Span
	WordSpan source.Span
}

// IsAll reports the retired tag `[ALL]`, in any letter case.
func (t Tag) IsAll() bool { return asciiLower(t.Word) == "all" }

// ModeTags returns the mode tags of every heading of doc, in document
// order (SPEC §4b.2 "Mode tags"). A bracketed word is `[`, one or more
// letters, digits, `-` or `_`, and `]`, anywhere in the heading's text;
// a word of digits only is not a tag, and neither is anything inside a
// link (its text, as in `[PAUSED](#paused)`, or an image's), nor inside
// inline code. The tags are read whether or not the package declares a
// mode; CheckTags decides what they name.
func ModeTags(doc *markdown.Doc) []Tag {
	if doc == nil {
		return nil
	}
	var out []Tag
	for hi, h := range doc.Headings {
		ts := h.TextSpan()
		if ts.Start < 0 || ts.End > len(doc.Data) || ts.Start >= ts.End {
			continue
		}
		var skip []source.Span
		for _, l := range doc.Links {
			if l.Span().Start >= ts.Start && l.Span().End <= ts.End {
				skip = append(skip, l.Span())
			}
		}
		for _, cs := range doc.CodeSpans {
			if cs.Span().Start >= ts.Start && cs.Span().End <= ts.End {
				skip = append(skip, cs.Span())
			}
		}
		text := doc.Data[:ts.End]
		for i := ts.Start; i < ts.End; i++ {
			if text[i] != '[' || inAny(skip, i) {
				continue
			}
			j, digits := i+1, true
			for j < ts.End {
				r, n := utf8.DecodeRune(text[j:])
				if !wordRune(r) {
					break
				}
				digits = digits && '0' <= r && r <= '9'
				j += n
			}
			if j == i+1 || j >= ts.End || text[j] != ']' || digits {
				continue
			}
			out = append(out, Tag{
				Heading:  hi,
				Word:     string(text[i+1 : j]),
				Span:     source.Span{Start: i, End: j + 1},
				WordSpan: source.Span{Start: i + 1, End: j},
			})
			i = j
		}
	}
	return out
}

func wordRune(r rune) bool {
	return r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func inAny(spans []source.Span, off int) bool {
	for _, s := range spans {
		if s.Start <= off && off < s.End {
			return true
		}
	}
	return false
}

// CheckTags reports the mode tags of a chapter that name no time mode of
// f, and every `[ALL]`, as MODE_TAG_DANGLING in file. Nothing is checked
// when f is nil (the package has no clocks.json) or declares no mode.
func CheckTags(f *File, tags []Tag, file string) []source.Finding {
	if f == nil || len(f.Modes) == 0 {
		return nil
	}
	var out []source.Finding
	for _, t := range tags {
		var msg string
		switch {
		case t.IsAll():
			msg = fmt.Sprintf("[%s] is retired: a statement without a mode tag already holds in every mode, so remove the tag", t.Word)
		case f.ModeFold(t.Word) == nil:
			msg = fmt.Sprintf("[%s] names no time mode of clocks.json; the modes are %s. In a package with time modes every bracketed word of a heading is a mode tag", t.Word, modeList(f))
			if near := nearestMode(f, t.Word); near != "" {
				msg += fmt.Sprintf(" (did you mean [%s]?)", near)
			}
		default:
			continue
		}
		out = append(out, source.Finding{Code: CodeTagDangling, Severity: source.Error, File: file, Span: t.Span, Message: msg})
	}
	return out
}

func modeList(f *File) string {
	s := ""
	for i, m := range f.Modes {
		switch {
		case i == 0:
		case i == len(f.Modes)-1:
			s += " and "
		default:
			s += ", "
		}
		s += m.ID
	}
	return s
}

// nearestMode returns the mode id one or two edits from word (ignoring
// case), written in the case of word's first letter, or "".
func nearestMode(f *File, word string) string {
	lw := asciiLower(word)
	best, bestD := "", 3
	for _, m := range f.Modes {
		if d := source.EditDistance(lw, m.ID); d < bestD {
			best, bestD = m.ID, d
		}
	}
	if best != "" && word != lw {
		return asciiUpper(best)
	}
	return best
}

func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}
