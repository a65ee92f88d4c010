package lsp

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeDidChange decodes the params of didChange. Most of such a message
// is the text of its changes, which quickDidChange reads once, straight
// into the bytes the document keeps; params it leaves (see there) are
// decoded by encoding/json.
func decodeDidChange(raw []byte) (versionedDocument, []contentChange, error) {
	if doc, changes, ok := quickDidChange(raw); ok {
		return doc, changes, nil
	}
	var p struct {
		TextDocument   versionedDocument `json:"textDocument"`
		ContentChanges []struct {
			Range *wireRange `json:"range"`
			Text  string     `json:"text"`
		} `json:"contentChanges"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return versionedDocument{}, nil, err
	}
	changes := make([]contentChange, len(p.ContentChanges))
	for i, c := range p.ContentChanges {
		changes[i] = contentChange{Range: c.Range, Text: []byte(c.Text)}
	}
	return p.TextDocument, changes, nil
}

// quickDidChange reads the params of didChange as editors write them. It
// relies on raw being valid JSON, which jsonrpc2 checked when it read the
// message, and reads only what encoding/json would read the same way: an
// object with the members textDocument and contentChanges spelt so, once
// each, the changes objects with a string text and an optional range, and
// member names without escapes. It reports false for anything else, which
// decodeDidChange leaves to encoding/json.
func quickDidChange(raw []byte) (doc versionedDocument, changes []contentChange, ok bool) {
	var list []byte
	var seen [2]bool
	ok = eachMember(raw, func(key string, value []byte) bool {
		switch k := known(key, "textDocument", "contentChanges"); {
		case k < 0:
			return k == -1
		case seen[k]:
			return false // encoding/json takes the last one
		case k == 0:
			seen[k] = true
			return json.Unmarshal(value, &doc) == nil
		default:
			seen[k] = true
			list = value
			return true
		}
	})
	if !ok || !seen[1] || len(list) == 0 || list[0] != '[' {
		return doc, nil, false
	}
	ok = eachElement(list, func(value []byte) bool {
		var ch contentChange
		var seen [2]bool
		if !eachMember(value, func(key string, value []byte) bool {
			k := known(key, "range", "text")
			switch {
			case k < 0:
				return k == -1
			case seen[k]:
				return false
			}
			seen[k] = true
			if k == 0 {
				if string(value) == "null" {
					return true
				}
				ch.Range = new(wireRange)
				return json.Unmarshal(value, ch.Range) == nil
			}
			var ok bool
			ch.Text, ok = unquote(value)
			return ok
		}) || !seen[1] {
			return false
		}
		changes = append(changes, ch)
		return true
	})
	return doc, changes, ok
}

// known returns the index of key among names, -1 for a key no name folds
// to, and -2 for one that folds to a name without being it (which
// encoding/json would take for it).
func known(key string, names ...string) int {
	for i, n := range names {
		if key == n {
			return i
		}
		if strings.EqualFold(key, n) {
			return -2
		}
	}
	return -1
}

// unquote returns the bytes a JSON string literal stands for, never nil,
// as encoding/json unquotes them; it reports false for a literal that is
// not valid UTF-8, where encoding/json replaces bytes.
func unquote(lit []byte) ([]byte, bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return nil, false
	}
	s := lit[1 : len(lit)-1]
	if !utf8.Valid(s) {
		return nil, false
	}
	out := make([]byte, 0, len(s))
	for {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			return append(out, s...), true
		}
		out = append(out, s[:i]...)
		s = s[i:]
		if len(s) < 2 {
			return nil, false
		}
		switch c := s[1]; c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(s)
			if r < 0 {
				return nil, false
			}
			s = s[6:]
			if utf16.IsSurrogate(r) {
				// As encoding/json: a valid pair is one character, any
				// other surrogate a replacement character.
				if dec := utf16.DecodeRune(r, hex4(s)); dec != unicode.ReplacementChar {
					s = s[6:]
					r = dec
				} else {
					r = unicode.ReplacementChar
				}
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return nil, false
		}
		s = s[2:]
	}
}

// hex4 returns the code unit of the \uXXXX escape s starts with, or -1.
func hex4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// eachMember calls member with the name and the value of each member of
// the JSON object b, in order, while it returns true. It reports false
// when b is not an object, a name holds an escape, or member returned
// false. b is valid JSON.
func eachMember(b []byte, member func(name string, value []byte) bool) bool {
	i := skipSpace(b, 0)
	if i == len(b) || b[i] != '{' {
		return false
	}
	return eachItem(b, i, '}', func(b []byte, i int) (int, bool) {
		if b[i] != '"' {
			return 0, false
		}
		end := valueEnd(b, i)
		if end < 0 {
			return 0, false
		}
		name := b[i+1 : end-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			return 0, false
		}
		if i = skipSpace(b, end); i == len(b) || b[i] != ':' {
			return 0, false
		}
		i = skipSpace(b, i+1)
		if i == len(b) {
			return 0, false
		}
		if end = valueEnd(b, i); end < 0 {
			return 0, false
		}
		return end, member(string(name), b[i:end])
	})
}

// eachElement calls element with each element of the JSON array b, in
// order, while it returns true, and reports whether it always did. b is
// valid JSON.
func eachElement(b []byte, element func(value []byte) bool) bool {
	i := skipSpace(b, 0)
	if i == len(b) || b[i] != '[' {
		return false
	}
	return eachItem(b, i, ']', func(b []byte, i int) (int, bool) {
		end := valueEnd(b, i)
		return end, end >= 0 && element(b[i:end])
	})
}

// eachItem reads the items of the object or array that opens at b[open]
// and closes with the byte close: item reads the one at i and returns
// where it ends.
func eachItem(b []byte, open int, close byte, item func(b []byte, i int) (int, bool)) bool {
	i := skipSpace(b, open+1)
	if i < len(b) && b[i] == close {
		return true
	}
	for i < len(b) {
		end, ok := item(b, i)
		if !ok {
			return false
		}
		i = skipSpace(b, end)
		if i == len(b) || b[i] != ',' {
			return i < len(b) && b[i] == close
		}
		i = skipSpace(b, i+1)
	}
	return false
}

// valueEnd returns the end of the JSON value that starts at b[i], or -1
// where a string, an object or an array does not end. The value is not
// checked: b is valid JSON.
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		for j := i + 1; ; {
			k := bytes.IndexByte(b[j:], '"')
			if k < 0 {
				return -1
			}
			q := j + k
			// The quote ends the string unless an odd number of
			// backslashes escapes it.
			n := 0
			for q-n-1 > i && b[q-n-1] == '\\' {
				n++
			}
			if n%2 == 0 {
				return q + 1
			}
			j = q + 1
		}
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				if j = valueEnd(b, j) - 1; j < 0 {
					return -1
				}
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default: // a number, true, false or null
		j := i + 1
		for j < len(b) && !strings.ContainsRune(",}] \t\r\n", rune(b[j])) {
			j++
		}
		return j
	}
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}
