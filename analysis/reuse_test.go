package analysis

import "testing"

// TestMaybeChapter holds maybeChapter to its promise: it is true for every
// name chapterName matches.
func TestMaybeChapter(t *testing.T) {
	for _, name := range []string{
		"01-overview.md", "02-a.md", "99-x.y.md", "00-.md.md", "05-build-plan.md",
		"1-overview.md", "01overview.md", "01-.md", "01-overview.markdown", "ab-overview.md",
		"01-overview.MD", "part-1.json", "", "01-", "01-\n.md",
	} {
		if chapterName.MatchString(name) && !maybeChapter(name) {
			t.Errorf("maybeChapter(%q) = false, but the name is a chapter's", name)
		}
	}
}
