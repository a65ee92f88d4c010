package analysis

import "github.com/gddls/gddls/contracts/source"

// Nearest returns the candidate closest to s when it is close enough to be
// a likely typo (at most a third of s's length, and at most 3 edits), or "".
func Nearest(s string, candidates []string) string {
	best, bestD := "", 0
	limit := min(3, max(1, len([]rune(s))/3))
	for _, c := range candidates {
		if c == s {
			continue
		}
		d := source.EditDistance(s, c)
		if d <= limit && (best == "" || d < bestD || (d == bestD && c < best)) {
			best, bestD = c, d
		}
	}
	return best
}
