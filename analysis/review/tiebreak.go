package review

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/source"
)

// Hint is one review-mode hint of a document.
type Hint struct {
	Code    string
	Span    source.Span
	Message string
}

// tieWords are the English words the tie-break reading looks for, matched
// on whole words in lowercase text.
type tieWords struct {
	// choice describes a rule that picks one of several results: which
	// target, which order, two triggers at once, equal distances.
	choice *regexp.Regexp
	// ceiling names an upper limit; share says that several things draw
	// on it.
	ceiling, share *regexp.Regexp
	// tieBreak states how a tie or an order is decided.
	tieBreak *regexp.Regexp
	// division says how a shared limit is divided, or what happens to what
	// does not fit.
	division *regexp.Regexp
}

// words returns the word patterns, compiled on first use: only review mode
// reads them, so a start of the binary does not pay for them.
var words = sync.OnceValue(func() tieWords {
	return tieWords{
		choice:   regexp.MustCompile(`\b(choose|chooses|choosing|chosen|choice|pick|picks|picked|select|selects|selected|nearest|closest|farthest|furthest|whichever|at\s+the\s+same\s+time|simultaneous|simultaneously)\b`),
		ceiling:  regexp.MustCompile(`\b(at\s+most|up\s+to|no\s+more\s+than|not\s+more\s+than|maximum|max|cap|caps|capped|limit|limits|limited|ceiling)\b`),
		share:    regexp.MustCompile(`\b(share|shares|shared|sharing|total|combined|together|pool|pooled|across|among|between)\b`),
		tieBreak: regexp.MustCompile(`\b(tie|ties|tied|tie-break|tie-breaks|tie-breaker|tiebreak|tiebreaker|equal|equally|precedence|priority|prefer|prefers|preferred|earliest|oldest|newest|youngest|alphabetical|alphabetically|in\s+order|order\s+of|left\s+to\s+right|right\s+to\s+left|top\s+to\s+bottom|clockwise|counterclockwise|at\s+random|randomly)\b`),
		division: regexp.MustCompile(`\b(divide|divides|divided|split|splits|each\s+gets|each\s+receives|evenly|proportional|proportionally|first\s+come|first-come|queue|queued|refused|rejected|ignored|discarded|blocked|cannot|can't|waits)\b`),
	}
})

// TieBreaks returns the tie-break hints of a mechanics chapter: for each
// Fixed paragraph (one that no DELEGATED or PERSONALIZATION blockquote
// holds) that describes a choice and states no tie-break, TIE_BREAK_CHOICE
// on the first word of the choice; for each one that names a limit that
// several things share and says neither how it is divided nor another rule
// that settles it (a tie-break, an order, what happens to the rest),
// TIE_BREAK_SHARED_CEILING on the limit's word. Inline code and link
// destinations are not read.
func TieBreaks(doc *markdown.Doc) []Hint {
	var out []Hint
	m := newMasker(doc)
	w := words()
	for _, p := range Paragraphs(doc) {
		if p.Delegated {
			continue
		}
		// Lowercase ASCII only, so that offsets stay those of the
		// document; line breaks inside a paragraph are spaces.
		text := m.masked(p)
		for i, c := range text {
			switch {
			case c >= 'A' && c <= 'Z':
				text[i] = c + 'a' - 'A'
			case c == '\n' || c == '\r' || c == '\t':
				text[i] = ' '
			}
		}
		settled := w.tieBreak.Match(text)
		if m := w.choice.FindIndex(text); m != nil && !settled {
			word := sourceWords(doc, p, m)
			out = append(out, Hint{
				Code: CodeChoice, Span: source.Span{Start: p.Span.Start + m[0], End: p.Span.Start + m[1]},
				Message: fmt.Sprintf("this Fixed paragraph describes a choice (%q) but states no tie-break; if two results can be equally valid and a player could tell which is taken, say which one wins here or in a Fixed statement that covers this rule", word),
			})
		}
		if m := w.ceiling.FindIndex(text); m != nil && w.share.Match(text) && !settled && !w.division.Match(text) {
			word := sourceWords(doc, p, m)
			out = append(out, Hint{
				Code: CodeSharedCeiling, Span: source.Span{Start: p.Span.Start + m[0], End: p.Span.Start + m[1]},
				Message: fmt.Sprintf("this Fixed paragraph sets a limit (%q) that several things share but does not say how it is divided or what decides who gets it; state the division, an order or a tie-break", word),
			})
		}
	}
	return out
}

// sourceWords returns the words of a match as the document writes them,
// white space collapsed.
func sourceWords(doc *markdown.Doc, p Paragraph, m []int) string {
	return strings.Join(strings.Fields(string(doc.Data[p.Span.Start+m[0]:p.Span.Start+m[1]])), " ")
}
