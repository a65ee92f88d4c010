package review

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/source"
)

// Literal is one number written in prose.
type Literal struct {
	// Span covers the number as written, with its sign.
	Span source.Span
	// Text is the number as written; Value its value (thousands
	// separators dropped).
	Text  string
	Value float64
}

// sectionWords are the words after which a number names a part of a
// document, not a quantity.
var sectionWords = map[string]bool{"section": true, "sections": true, "chapter": true, "chapters": true}

// Literals returns the numbers of doc's prose, in order: digits with an
// optional minus sign, thousands separators (1,000) and decimal part,
// standing alone as a word. Left out are fenced and indented code, inline
// code, headings, the tag lines of §2, HTML comments, link destinations,
// ordered-list numbers, section numbers (after § or "section", "chapter"),
// test ids (AT-3, AT 3), and numbers glued to letters or to other numbers
// (3D, 2nd, 10px, v0.9, 1.2.3, 10:30, 1/2, 3-4, 2026-12-01, rule-3).
func Literals(doc *markdown.Doc) []Literal {
	var out []Literal
	m := newMasker(doc)
	for _, p := range Paragraphs(doc) {
		text := m.masked(p)
		for start := 0; start <= len(text); {
			end := bytes.IndexByte(text[start:], '\n')
			if end < 0 {
				end = len(text)
			} else {
				end += start
			}
			line := bytes.TrimSuffix(text[start:end], []byte("\r"))
			out = append(out, lineLiterals(line, p.Span.Start+start)...)
			start = end + 1
		}
	}
	return out
}

// lineLiterals returns the literals of one line; base is the line's offset
// in the document.
func lineLiterals(line []byte, base int) []Literal {
	var out []Literal
	list := listNumberEnd(line)
	for i := 0; i < len(line); {
		if !isDigit(line[i]) {
			i++
			continue
		}
		start, end := i, scanNumber(line, i)
		if start < list || !alone(line, start, end) {
			i = skipRun(line, end)
			continue
		}
		i = end
		sign := start
		if r, size := utf8.DecodeLastRune(line[:start]); (r == '-' || r == '−') && size > 0 {
			sign = start - size
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(string(line[start:end]), ",", ""), 64)
		if err != nil {
			continue
		}
		if sign != start {
			v = -v
		}
		out = append(out, Literal{Span: source.Span{Start: base + sign, End: base + end}, Text: string(line[sign:end]), Value: v})
	}
	return out
}

// listNumberEnd returns the offset after the number of an ordered-list
// marker that opens the line (after quote markers and indentation), or 0.
func listNumberEnd(line []byte) int {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '>') {
		i++
	}
	j := i
	for j < len(line) && j-i < 9 && isDigit(line[j]) {
		j++
	}
	if j == i || j >= len(line) || (line[j] != '.' && line[j] != ')') {
		return 0
	}
	if j+1 < len(line) && line[j+1] != ' ' && line[j+1] != '\t' {
		return 0
	}
	return j
}

// scanNumber returns the end of the number starting at line[i]: digits,
// then thousands groups when the leading run has at most three digits,
// then a decimal part.
func scanNumber(line []byte, i int) int {
	end := i
	for end < len(line) && isDigit(line[end]) {
		end++
	}
	if end-i <= 3 {
		for end < len(line) && line[end] == ',' && digits(line, end+1, 3) && (end+4 == len(line) || !isDigit(line[end+4])) {
			end += 4
		}
	}
	if end+1 < len(line) && line[end] == '.' && isDigit(line[end+1]) {
		end++
		for end < len(line) && isDigit(line[end]) {
			end++
		}
	}
	return end
}

// digits reports whether line[i:i+n] are n digits.
func digits(line []byte, i, n int) bool {
	if i+n > len(line) {
		return false
	}
	for _, c := range line[i : i+n] {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// skipRun returns the end of the glued run that continues at line[i], so
// that 1.2.3 or 2026-12-01 gives no literal at all.
func skipRun(line []byte, i int) int {
	for i < len(line) {
		r, size := utf8.DecodeRune(line[i:])
		if isWordRune(r) {
			i += size
			continue
		}
		if strings.ContainsRune(".,:/-", r) && i+1 < len(line) {
			if n, _ := utf8.DecodeRune(line[i+1:]); isWordRune(n) {
				i++
				continue
			}
		}
		break
	}
	return i
}

// alone reports whether line[start:end] is a number of its own: not glued
// to a word, an identifier, a version, a time, a date or a path, and not a
// section number or a test id.
func alone(line []byte, start, end int) bool {
	if start > 0 {
		r, size := utf8.DecodeLastRune(line[:start])
		switch {
		case isWordRune(r) || strings.ContainsRune(".,/#:§\\@_", r):
			return false
		case r == '-' || r == '−':
			// A minus sign opens the line or follows a space or a bracket;
			// otherwise the number ends an identifier (AT-3, rule-3).
			if at := start - size; at > 0 {
				if p, _ := utf8.DecodeLastRune(line[:at]); !unicode.IsSpace(p) && p != '(' && p != '[' {
					return false
				}
			}
		}
	}
	if end < len(line) {
		r, size := utf8.DecodeRune(line[end:])
		if isWordRune(r) {
			return false
		}
		if strings.ContainsRune(".,:/-", r) && end+size < len(line) {
			if n, _ := utf8.DecodeRune(line[end+size:]); isWordRune(n) {
				return false
			}
		}
	}
	// The word before: § 4, section 4, AT 3.
	k := start
	if k > 0 && (line[k-1] == '-') {
		k--
	}
	w := bytes.TrimRight(line[:k], " \t")
	if len(w) == len(line[:k]) && k == start {
		return true // no space before: nothing more to read
	}
	if r, _ := utf8.DecodeLastRune(w); r == '§' {
		return false
	}
	i := len(w)
	for i > 0 && (w[i-1] >= 'a' && w[i-1] <= 'z' || w[i-1] >= 'A' && w[i-1] <= 'Z') {
		i--
	}
	word := string(w[i:])
	return !sectionWords[strings.ToLower(word)] && word != "AT"
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
