package source

// IsKebab reports whether s is kebab-case as OpenGDD defines it: one or more
// groups of lowercase ASCII letters and digits joined by single hyphens
// (^[a-z0-9]+(-[a-z0-9]+)*$). Adoption ids, question and option ids, value
// names, row-set and field names, rule names and template ids use it.
func IsKebab(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '-' && s[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

// maxEditInput bounds the length of the strings EditDistance compares in
// full; longer strings are only compared for equality, so that a hostile
// file cannot make a suggestion quadratic in its size.
const maxEditInput = 256

// EditDistance is the Levenshtein distance between a and b, counted in
// runes. Strings longer than 256 runes are either equal (0) or as far apart
// as the longer one is long.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > maxEditInput || len(rb) > maxEditInput {
		if a == b {
			return 0
		}
		return max(len(ra), len(rb))
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// CaseMismatch is the end of the message of a citation of written, a path
// that names a file or folder only when letter case is ignored, whose
// names on disk give real: Windows and macOS open it, case-sensitive
// systems do not. It follows a verb: "the link names " + CaseMismatch(…).
func CaseMismatch(written, real string) string {
	return "`" + written + "`, which exists only as `" + real + "`: the names differ in letter case, " +
		"so the citation works on Windows and macOS but fails on case-sensitive systems such as Linux CI; write `" + real + "`"
}
