package gen

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// readTree returns every file of a folder by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !bytes.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

func TestPackageDeterministic(t *testing.T) {
	cfg := Config{Adoptions: 10, Chapters: 8, Sections: 5, TuningKeys: 150, Rows: 5, Records: 40, Seed: 9}
	d1, d2, d3 := t.TempDir(), t.TempDir(), t.TempDir()
	r1, err := Package(d1, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Package(d2, cfg); err != nil {
		t.Fatal(err)
	}
	other := cfg
	other.Seed = 10
	if _, err := Package(d3, other); err != nil {
		t.Fatal(err)
	}
	a, b, c := readTree(t, d1), readTree(t, d2), readTree(t, d3)
	if !sameTree(a, b) {
		t.Error("two runs with the same config wrote different trees")
	}
	if sameTree(a, c) {
		t.Error("a different seed wrote the same tree")
	}
	if len(r1.Adoptions) != 10 || len(r1.Chapters) != 8 || r1.Headings != 8*6+14 { // 8 chapters of a title and 5 sections, the build plan's tests under their own heading, and the art direction of 04-presentation.md
		t.Errorf("report: %d adoptions, %d chapters, %d headings", len(r1.Adoptions), len(r1.Chapters), r1.Headings)
	}
	if _, ok := a["contracts/gen-system-ka-1.pack.json"]; !ok {
		t.Error("the pack is missing")
	}
	hot := a[r1.HotHeading.File][r1.HotHeading.Offset:]
	if !bytes.HasPrefix(hot, []byte(r1.HotHeadingText+"\n")) {
		t.Errorf("HotHeading points at %q", hot[:min(len(hot), 30)])
	}
	site := a[r1.CitationSite.File]
	if site[r1.CitationSite.Offset-1] != '#' {
		t.Errorf("CitationSite is not just after a '#': %q", site[r1.CitationSite.Offset-10:r1.CitationSite.Offset+5])
	}
}

func TestDefaultSizes(t *testing.T) {
	r, err := Package(t.TempDir(), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Adoptions) != 200 || len(r.Chapters) != 100 {
		t.Errorf("%d adoptions, %d chapters", len(r.Adoptions), len(r.Chapters))
	}
	if r.Citations < 9000 || r.Citations > 12000 {
		t.Errorf("%d citations, want about 10,000", r.Citations)
	}
	if r.Headings < 1900 || r.TuningKeys < 2000 {
		t.Errorf("%d headings, %d tuning keys", r.Headings, r.TuningKeys)
	}
	if len(r.Expected) < 5 {
		t.Errorf("only %d planted findings", len(r.Expected))
	}
}

func TestDocsTree(t *testing.T) {
	d1, d2 := t.TempDir(), t.TempDir()
	cfg := DocsConfig{Areas: 3, Topics: 2, Files: 4, Links: 6, Seed: 1}
	r, err := DocsTree(d1, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DocsTree(d2, cfg); err != nil {
		t.Fatal(err)
	}
	if !sameTree(readTree(t, d1), readTree(t, d2)) {
		t.Error("two runs wrote different trees")
	}
	if r.Files != 24 || r.Links != 24*6 || len(r.Expected) != 6 {
		t.Errorf("report %+v", r)
	}
}

func TestRelPath(t *testing.T) {
	tests := []struct{ from, target, want string }{
		{"a/b", "a/b/x.md", "x.md"},
		{"a/b", "a/c/x.md", "../c/x.md"},
		{"a/b", "d/e/x.md", "../../d/e/x.md"},
	}
	for _, tc := range tests {
		if got := relPath(tc.from, tc.target); got != tc.want {
			t.Errorf("relPath(%q, %q) = %q, want %q", tc.from, tc.target, got, tc.want)
		}
	}
}

func TestWordDistinct(t *testing.T) {
	seen := map[string]int{}
	for i := 0; i < 5000; i++ {
		w := word(i)
		if j, ok := seen[w]; ok {
			t.Fatalf("word(%d) = word(%d) = %q", i, j, w)
		}
		seen[w] = i
	}
}

func TestRealPackageDeterministic(t *testing.T) {
	src := FindReference("../..")
	if src == "" {
		t.Skip("no published contracts (shared/reference/contracts) beside the repository")
	}
	cfg := RealConfig{Source: src, Adoptions: 30, Chapters: 8}
	d1, d2 := t.TempDir(), t.TempDir()
	r1, err := RealPackage(d1, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RealPackage(d2, cfg); err != nil {
		t.Fatal(err)
	}
	a, b := readTree(t, d1), readTree(t, d2)
	if !sameTree(a, b) {
		t.Error("two runs with the same config wrote different trees")
	}
	if len(r1.Adoptions) != 30 || len(r1.Chapters) != 8 {
		t.Errorf("report: %d adoptions, %d chapters", len(r1.Adoptions), len(r1.Chapters))
	}
	site := a[r1.CitationSite.File]
	if site[r1.CitationSite.Offset-1] != '#' {
		t.Errorf("CitationSite is not just after a '#': %q", site[r1.CitationSite.Offset-10:r1.CitationSite.Offset+5])
	}
	if _, err := RealPackage(t.TempDir(), RealConfig{Source: t.TempDir()}); err == nil {
		t.Error("a folder without contracts gave no error")
	}
}
