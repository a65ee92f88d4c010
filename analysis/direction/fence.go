package direction

import (
	"bytes"

	"github.com/gddls/gddls/contracts/source"
)

// RetiredFences returns the span of every retired direction fence of a
// chapter (SPEC §9, Appendix A): three backticks directly followed by the
// word `direction` in any letter case, with three more backticks somewhere
// after the end of that line. The rule reads the text as it is written, so
// the opening counts wherever it stands; the span covers the backticks and
// the word.
func RetiredFences(content []byte) []source.Span {
	var out []source.Span
	const word = "direction"
	for at := 0; ; {
		i := bytes.Index(content[at:], []byte("```"))
		if i < 0 {
			return out
		}
		start := at + i
		at = start + 1
		w := start + 3
		if w+len(word) > len(content) || !bytes.EqualFold(content[w:w+len(word)], []byte(word)) {
			continue
		}
		eol := bytes.IndexAny(content[w:], "\r\n")
		if eol < 0 {
			return out
		}
		if bytes.Contains(content[w+eol:], []byte("```")) {
			out = append(out, source.Span{Start: start, End: w + len(word)})
		}
		at = w + len(word)
	}
}
