package markdown

import (
	"strconv"
	"strings"
	"unicode"
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
// is text, before any suffix for repeats. The rule, as GitHub's HTML
// pipeline applies it:
//
//  1. render the heading text to plain text, as the text content of the
//     rendered HTML: emphasis markers and code-span backticks disappear
//     (code content stays), link and autolink text stays while the
//     destination goes, images and raw HTML tags disappear, backslash
//     escapes and entities are resolved, and a line break inside the text
//     becomes "\n";
//  2. lowercase;
//  3. remove every rune that is not a letter, a mark, a decimal digit, a
//     connector punctuation (such as `_`), a space U+0020 or a
//     hyphen-minus (so tabs, line breaks and other digits go too);
//  4. replace each space, one by one, with a hyphen.
//
// Leading and trailing spaces of the rendered text are trimmed, as the
// heading content is. Doc.Headings adds "-1", "-2", … for a slug already
// used earlier in the document (see Slugger).
func GitHubAnchor(text string) string {
	return githubSlug(renderHeadingText(text))
}

// githubSlug applies steps 2 to 4 of GitHubAnchor to rendered text.
func githubSlug(rendered string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(rendered) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-':
			b.WriteByte('-')
		case unicode.IsLetter(r) || unicode.Is(unicode.M, r) || unicode.Is(unicode.Nd, r) || unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	return b.String()
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
