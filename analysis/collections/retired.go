package collections

import (
	"fmt"
	"strings"
)

// RetiredCount says what to write instead of an inline-code token of the
// retired colon form of a collection reference (SPEC Appendix A: a token
// that starts with the word collections, holds a colon and holds no < or
// >), or "" for any other token.
func RetiredCount(token string) string {
	rest, ok := strings.CutPrefix(token, "collections")
	if !ok || !strings.Contains(token, ":") || strings.ContainsAny(token, "<>") {
		return ""
	}
	if rest != "" {
		c := rest[0]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
			return "" // another word, such as collectionsets:
		}
	}
	return fmt.Sprintf("`%s` is the retired colon form of a collection reference; cite the collection by its dotted address `collections.<collection>` and state the count in prose, or keep it under a tuning key if the package needs it", token)
}
