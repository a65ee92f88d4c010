package analysis

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts"
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

// TestCheckDivergentGroup compares the uniform shortcut of
// checkDivergentGroup with contracts.CheckDivergentGroup on groups whose
// diverging copy stands first, in the middle and last.
func TestCheckDivergentGroup(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "demo", "contracts", "garden-away.json"))
	if err != nil {
		t.Fatal(err)
	}
	other := bytes.Replace(data, []byte(`"summary": "`), []byte(`"summary": "Changed. `), 1)
	if bytes.Equal(other, data) {
		t.Fatal("the demo adoption has no summary to change")
	}
	parse := func(shape string) []*contracts.Adoption {
		var g []*contracts.Adoption
		for i, c := range shape {
			content := data
			if c == 'b' {
				content = other
			}
			g = append(g, contracts.ParseAdoption(fmt.Sprintf("/p/contracts/copy-%d.json", i), content))
		}
		return g
	}
	for _, shape := range []string{"a", "aa", "aaa", "aab", "aba", "baa", "ab", "abb"} {
		g := parse(shape)
		id := g[0].Identity()
		got, want := checkDivergentGroup(id, g, &contracts.DigestCache{}), contracts.CheckDivergentGroup(id, g)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: checkDivergentGroup gives %d findings, contracts.CheckDivergentGroup %d", shape, len(got), len(want))
		}
		if strings.Contains(shape, "b") && len(want) == 0 {
			t.Errorf("%s: the copies do not diverge", shape)
		}
	}
}

// TestPruneForgetsRemovedFiles checks that a build forgets the cache
// entries of files it no longer has, an unsaved file dropped or a file
// deleted on disk, and keeps those of the files it has.
func TestPruneForgetsRemovedFiles(t *testing.T) {
	dir := analysistest.CopyTree(t, filepath.Join("..", "testdata", "demo"))
	ws := NewWorkspace([]string{dir}, Options{})
	extra := filepath.Join(dir, "08-extra.md")
	gone := filepath.Join(dir, "04-presentation.md")
	has := func(path string) bool {
		ws.cache.mu.Lock()
		defer ws.cache.mu.Unlock()
		return ws.cache.entries[path] != nil
	}
	ws.SetOverlay(extra, []byte("# Extra\n\nWords.\n"))
	ws.Snapshot()
	if !has(extra) || !has(gone) {
		t.Fatal("the first build has no entry of its files")
	}
	ws.SetOverlay(extra, nil)
	ws.Snapshot()
	if has(extra) {
		t.Error("the entry of a dropped unsaved file outlives the build without it")
	}
	moveOnDisk(t, ws, gone, filepath.Join(t.TempDir(), "04-presentation.md"))
	ws.Snapshot()
	if has(gone) {
		t.Error("the entry of a deleted file outlives the build without it")
	}
	if !has(filepath.Join(dir, "02-mechanics.md")) {
		t.Error("the entry of a kept file is gone")
	}
}
