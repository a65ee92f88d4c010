package markdown

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// OpenGDDAnchor returns the anchor of a heading under the OpenGDD rule
// (SPEC §10.10). text is the raw heading text, Markdown syntax included. The
// steps run in this order:
//
//  1. lowercase;
//  2. remove every run from `<` through the next `>` (an unclosed `<` stays
//     for step 4);
//  3. remove every backtick, asterisk, underscore and tilde;
//  4. remove every rune that is not a Unicode letter, a Unicode number,
//     whitespace or a hyphen-minus;
//  5. trim whitespace at both ends;
//  6. replace each run of whitespace with one hyphen.
//
// No suffix tells equal anchors apart. Invalid UTF-8 bytes are dropped.
func OpenGDDAnchor(text string) string {
	if isASCII(text) {
		return openGDDAnchorASCII(text)
	}
	return openGDDAnchorUnicode(text)
}

// openGDDAnchorASCII is OpenGDDAnchor for ASCII text, in one pass.
func openGDDAnchorASCII(s string) string {
	b := make([]byte, 0, len(s)) // unsafeString makes it the result
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '<' {
			if j := strings.IndexByte(s[i+1:], '>'); j >= 0 {
				i += 1 + j
				continue
			}
		}
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
		case c == ' ' || c >= '\t' && c <= '\r':
			space = len(b) > 0
			continue
		default:
			continue
		}
		if space {
			b = append(b, '-')
			space = false
		}
		b = append(b, c)
	}
	return unsafeString(b)
}

// openGDDAnchorUnicode is OpenGDDAnchor step by step.
func openGDDAnchorUnicode(text string) string {
	s := strings.ToLower(text)

	// Step 2: HTML tags.
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '>')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		s = s[i+1+j+1:]
	}
	b.WriteString(s)
	s = b.String()

	// Steps 3 and 4 keep the same set of runes, because backtick,
	// asterisk, underscore and tilde are neither letters, numbers, spaces
	// nor hyphens; they are still listed separately to follow the rule.
	b.Reset()
	for _, r := range s {
		switch {
		case r == '`' || r == '*' || r == '_' || r == '~':
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsSpace(r) || r == '-':
			b.WriteRune(r)
		}
	}
	s = strings.TrimSpace(b.String())

	// Step 6.
	b.Reset()
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte('-')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// GitHubAnchor returns the id GitHub gives a heading whose raw Markdown text
// is text, before any suffix for repeats. The rule, as github-slugger
// states GitHub's behaviour:
//
//  1. render the heading content to plain text, as the text content of
//     the rendered HTML: emphasis markers and code-span backticks disappear
//     (code content stays), link and autolink text stays while the
//     destination goes, images, raw HTML tags and comments disappear,
//     backslash escapes and entities are resolved, and a line break inside
//     the text becomes "\n". The content is trimmed as Markdown source
//     (CommonMark strips the spaces around a heading's content), not as
//     rendered text: `# a <!-- b -->` renders as "a " and `# &#x20;c` as
//     " c";
//  2. lowercase with the full Unicode case mapping (LowerFull);
//  3. remove every rune that is not alphabetic (a letter, a letter number
//     such as Ⅻ, or another alphabetic rune such as Ⓐ), a mark, a decimal
//     digit, a connector punctuation (such as `_`), a space U+0020 or a
//     hyphen-minus (so tabs, line breaks, emoji and other digits go too);
//  4. replace each space, one by one, with a hyphen.
//
// Doc.Headings adds "-1", "-2", … for a slug already used earlier in the
// document (see Slugger).
func GitHubAnchor(text string) string {
	return githubSlug(renderHeadingText(text))
}

// githubSlug applies steps 2 to 4 of GitHubAnchor to rendered text.
func githubSlug(rendered string) string {
	if isASCII(rendered) {
		return githubSlugASCII(rendered)
	}
	return githubSlugUnicode(rendered)
}

// githubSlugASCII is githubSlug for ASCII text: of the ASCII runes, letters,
// digits and the underscore (the one connector punctuation) stay.
func githubSlugASCII(s string) string {
	b := make([]byte, 0, len(s)) // unsafeString makes it the result
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '-':
			b = append(b, '-')
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_':
			b = append(b, c)
		}
	}
	return unsafeString(b)
}

// unsafeString returns the bytes of b as a string without copying them; b
// must be a buffer the caller made for the result and never writes again.
func unsafeString(b []byte) string { return view(b, true) }

// githubSlugUnicode is githubSlug rune by rune.
func githubSlugUnicode(rendered string) string {
	var b strings.Builder
	for _, r := range LowerFull(rendered) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-':
			b.WriteByte('-')
		case keepInSlug(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// keepInSlug reports whether a rune other than a space or hyphen survives
// step 3 of GitHubAnchor. github-slugger removes the runes of the general
// categories No, P (but Pc), S, Z, Cc, Cf, Co and Cn unless they are
// Alphabetic; what is left is letters, marks, Nd, Nl, Pc and the other
// alphabetic runes.
func keepInSlug(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.M, r) || unicode.Is(unicode.Nd, r) ||
		unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Other_Alphabetic, r)
}

// LowerFull lowercases s with the full Unicode case mapping, as
// JavaScript's String.prototype.toLowerCase does: the simple mapping of
// each rune, except that U+0130 (İ) becomes "i̇" (i and U+0307) and a
// capital sigma at the end of a word becomes the final form ς.
func LowerFull(s string) string {
	if isASCIILowerOrNeutral(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		switch r {
		case '\u0130':
			b.WriteString("i\u0307")
		case '\u03a3':
			if finalSigma(s, i) {
				b.WriteRune('\u03c2')
			} else {
				b.WriteRune('\u03c3')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// isASCIILowerOrNeutral reports whether s is ASCII without capital letters,
// which lowercasing leaves as it is.
func isASCIILowerOrNeutral(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c >= 'A' && c <= 'Z' {
			return false
		}
	}
	return true
}

// finalSigma reports whether the capital sigma at byte i of s is in the
// Final_Sigma context of the Unicode standard (Table 3-17): a cased letter
// comes before it and none after it, skipping case-ignorable runes.
func finalSigma(s string, i int) bool {
	before := false
	for j := i; j > 0; {
		r, n := utf8.DecodeLastRuneInString(s[:j])
		j -= n
		if caseIgnorable(r) {
			continue
		}
		before = cased(r)
		break
	}
	if !before {
		return false
	}
	for j := i + utf8.RuneLen('\u03a3'); j < len(s); {
		r, n := utf8.DecodeRuneInString(s[j:])
		j += n
		if caseIgnorable(r) {
			continue
		}
		return !cased(r)
	}
	return true
}

// cased is the Unicode property Cased.
func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable is the Unicode property Case_Ignorable: marks, format
// characters, modifier letters and symbols, and the word-internal
// punctuation of the word-break rules (apostrophes, periods, colons).
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '\u00b7', '\u0387', '\u055f', '\u05f4', '\u2018', '\u2019', '\u2024', '\u2027',
		'\ufe13', '\ufe52', '\ufe55', '\uff07', '\uff0e', '\uff1a':
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// Slugger gives repeated GitHub slugs their suffixes the way GitHub does: the
// first use of a slug stays as it is; a later use of the same base slug gets
// "-1", "-2", …, skipping any result that is already taken. The zero value
// is not ready; use NewSlugger.
type Slugger struct {
	counts map[string]int
}

// NewSlugger returns a slugger with no slug taken.
func NewSlugger() *Slugger { return &Slugger{counts: map[string]int{}} }

// Unique returns slug, or slug with a numeric suffix if it was used before,
// and records the result as used.
func (s *Slugger) Unique(slug string) string {
	result := slug
	for {
		if _, used := s.counts[result]; !used {
			break
		}
		s.counts[slug]++
		result = slug + "-" + strconv.Itoa(s.counts[slug])
	}
	s.counts[result] = 0
	return result
}

// isASCII reports whether s holds ASCII bytes only.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
