package direction

import (
	"bytes"
	"fmt"
	"strings"

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

// RetiredDescriptor says what to write instead of an inline-code token of
// the retired descriptor form `descriptor:<kind>:<name>` (a kind that is
// not empty and holds no colon, a name that is not empty, and no `<` or
// `>` in the token), or "" for any other token.
func RetiredDescriptor(token string) string {
	rest, ok := strings.CutPrefix(token, "descriptor:")
	if !ok || strings.ContainsAny(token, "<>") {
		return ""
	}
	kind, name, ok := strings.Cut(rest, ":")
	if !ok || kind == "" || name == "" {
		return ""
	}
	if kind == "mood" {
		return fmt.Sprintf("`%s` is a retired descriptor reference; cite the mood as `mood.%s`", token, name)
	}
	return fmt.Sprintf("`%s` is a retired descriptor reference; descriptors no longer exist, so cite a direction entry such as `mood.<name>` or write the reference as prose", token)
}

// RetiredConstraint returns the address that replaces a citation of the
// retired `constraints.colors.<id>`, `constraints.thresholds.<id>` or
// `constraints.timing.<id>` form, or "".
func RetiredConstraint(token string) string {
	for old, now := range map[string]string{"constraints.colors.": "colors.", "constraints.thresholds.": "contrast.", "constraints.timing.": "timing."} {
		if id, ok := strings.CutPrefix(token, old); ok && id != "" && !strings.Contains(id, ".") {
			return now + id
		}
	}
	return ""
}
