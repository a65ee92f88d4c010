package ruleline

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// maxTokens bounds the work spent on one line.
const maxTokens = 4096

type tokKind uint8

const (
	tEOF tokKind = iota
	tNumber
	tName
	tOp // + - * / ( ) , and the comparison operators
)

type token struct {
	kind       tokKind
	text       string
	num        float64
	start, end int
}

// SyntaxError is a rule line that cannot be read. Start and End are byte
// offsets into the line of the token at fault.
type SyntaxError struct {
	Start, End int
	Msg        string
}

// Error implements error.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("rule line, bytes %d-%d: %s", e.Start, e.End, e.Msg)
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// lex splits a line into tokens.
func lex(line string) ([]token, *SyntaxError) {
	var toks []token
	i := 0
	for i < len(line) {
		if len(toks) >= maxTokens {
			return nil, &SyntaxError{Start: i, End: len(line), Msg: fmt.Sprintf("rule line is too long: more than %d tokens", maxTokens)}
		}
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '\n' || c == '\r':
			return nil, &SyntaxError{Start: i, End: i + 1, Msg: "a rule line must stay on one line; remove the line break"}
		case isNameChar(c):
			tok, err := lexWord(line, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, tok)
			i = tok.end
		default:
			n := opLen(line, i)
			if n == 0 {
				r, size := utf8.DecodeRuneInString(line[i:])
				msg := fmt.Sprintf("unexpected character %q", r)
				switch {
				case c == '=':
					msg = `a single "=" is not an operator; compare with "=="`
				case c == '!':
					msg = `"!" is only valid in "!="`
				case r == utf8.RuneError && size == 1:
					msg = "invalid UTF-8 byte"
				}
				return nil, &SyntaxError{Start: i, End: i + size, Msg: msg}
			}
			toks = append(toks, token{kind: tOp, text: line[i : i+n], start: i, end: i + n})
			i += n
		}
	}
	toks = append(toks, token{kind: tEOF, start: len(line), end: len(line)})
	return toks, nil
}

// opLen returns the length of the operator at line[i:], or 0.
func opLen(line string, i int) int {
	if i+1 < len(line) {
		switch line[i : i+2] {
		case "==", "!=", "<=", ">=":
			return 2
		}
	}
	switch line[i] {
	case '+', '-', '*', '/', '(', ')', ',', '<', '>':
		return 1
	}
	return 0
}

// lexWord reads a name or a number starting at line[i], a name character.
func lexWord(line string, i int) (token, *SyntaxError) {
	// The word: name characters, and hyphens that sit between two of them.
	end := i
	for end < len(line) {
		c := line[end]
		if isNameChar(c) {
			end++
			continue
		}
		if c == '-' && end > i && end+1 < len(line) && isNameChar(line[end+1]) {
			end++
			continue
		}
		break
	}
	word := line[i:end]
	n := numberLen(line, i)
	if n > 0 && i+n >= end {
		return numberToken(line, i, i+n)
	}
	numeric := true // only digits, dots and hyphens: no letter or underscore
	for j := 0; j < len(word); j++ {
		if !isDigit(word[j]) && word[j] != '.' && word[j] != '-' {
			numeric = false
			break
		}
	}
	if numeric {
		// A number followed by a hyphen, as in 2-1, subtracts: a name needs
		// a letter or an underscore somewhere.
		if n > 0 && line[i+n] == '-' {
			return numberToken(line, i, i+n)
		}
		return token{}, &SyntaxError{Start: i, End: end, Msg: fmt.Sprintf("malformed number %q; write digits with at most one dot between them, such as 0.15", word)}
	}
	if msg := nameProblem(word); msg != "" {
		return token{}, &SyntaxError{Start: i, End: end, Msg: msg}
	}
	return token{kind: tName, text: word, start: i, end: end}, nil
}

// numberToken converts the literal line[start:end].
func numberToken(line string, start, end int) (token, *SyntaxError) {
	raw := line[start:end]
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return token{}, &SyntaxError{Start: start, End: end, Msg: fmt.Sprintf("number %s is too large for a 64-bit float", raw)}
	}
	return token{kind: tNumber, text: raw, num: v, start: start, end: end}, nil
}

// numberLen returns the length of a number literal at line[i:]: digits, an
// optional fraction and an optional exponent. It returns 0 when there is
// none.
func numberLen(line string, i int) int {
	j := i
	for j < len(line) && isDigit(line[j]) {
		j++
	}
	if j == i {
		return 0
	}
	if j+1 < len(line) && line[j] == '.' && isDigit(line[j+1]) {
		j++
		for j < len(line) && isDigit(line[j]) {
			j++
		}
	}
	if j < len(line) && (line[j] == 'e' || line[j] == 'E') {
		k := j + 1
		if k < len(line) && (line[k] == '+' || line[k] == '-') {
			k++
		}
		if k < len(line) && isDigit(line[k]) {
			for k < len(line) && isDigit(line[k]) {
				k++
			}
			j = k
		}
	}
	return j - i
}

// nameProblem reports why word is not a well-formed name, or "".
func nameProblem(word string) string {
	segStart := 0
	for j := 0; j <= len(word); j++ {
		if j < len(word) && word[j] != '.' {
			continue
		}
		seg := word[segStart:j]
		switch {
		case seg == "":
			return fmt.Sprintf("malformed name %q: a dot must sit between two name parts", word)
		case seg[0] == '-' || seg[len(seg)-1] == '-':
			return fmt.Sprintf("malformed name %q: a name part must not begin or end with a hyphen", word)
		}
		segStart = j + 1
	}
	return ""
}
