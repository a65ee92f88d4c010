package analysis

import (
	"regexp"
	"strconv"
	"testing"
)

// chapterPattern is the chapter file name pattern splitChapterName
// replaces.
var chapterPattern = regexp.MustCompile(`^([0-9]{2})-(.+)\.md$`)

// chapterNameCases are the names TestSplitChapterName and
// FuzzSplitChapterName start from.
var chapterNameCases = []string{
	"01-overview.md", "02-a.md", "99-x.y.md", "00-.md.md", "05-build-plan.md",
	"1-overview.md", "01overview.md", "01-.md", "01-overview.markdown", "ab-overview.md",
	"01-overview.MD", "part-1.json", "", "01-", "01-\n.md", "01-a\nb.md", "01-\xff.md",
	"12-über.md", "07-tags.md.md", "3a-x.md", "01-x.mdx",
}

// TestSplitChapterName holds splitChapterName and maybeChapter to the
// pattern splitChapterName replaces.
func TestSplitChapterName(t *testing.T) {
	for _, name := range chapterNameCases {
		checkChapterName(t, name)
	}
}

// FuzzSplitChapterName holds splitChapterName to the pattern it replaces
// on any name.
func FuzzSplitChapterName(f *testing.F) {
	for _, name := range chapterNameCases {
		f.Add(name)
	}
	f.Fuzz(checkChapterName)
}

func checkChapterName(t *testing.T, name string) {
	m := chapterPattern.FindStringSubmatch(name)
	n, title, ok := splitChapterName(name)
	if ok != (m != nil) {
		t.Fatalf("splitChapterName(%q) ok = %v, the pattern says %v", name, ok, m != nil)
	}
	if m != nil && !maybeChapter(name) {
		t.Errorf("maybeChapter(%q) = false, but the name is a chapter's", name)
	}
	if !ok {
		return
	}
	if want, _ := strconv.Atoi(m[1]); n != want || title != m[2] {
		t.Errorf("splitChapterName(%q) = %d, %q; the pattern says %d, %q", name, n, title, want, m[2])
	}
}
