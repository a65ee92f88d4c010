package analysis

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// docsRepo is the general Markdown fixture: a repository that is not a
// package, with one package folder inside it.
var docsRepo = filepath.Join("..", "testdata", "docs-repo")

// findingLines renders every diagnostic of a snapshot as
// "rel/path:line:col CODE" with one-based line and UTF-16 column, sorted.
func findingLines(t *testing.T, s *Snapshot, root string) []string {
	t.Helper()
	var out []string
	for _, d := range s.AllDiagnostics() {
		rel, err := filepath.Rel(root, d.File)
		if err != nil {
			t.Fatalf("diagnostic outside the root: %s", d.File)
		}
		out = append(out, fmt.Sprintf("%s:%d:%d %s", filepath.ToSlash(rel), d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code))
	}
	sort.Strings(out)
	return out
}

// readExpected reads an EXPECTED.txt: one finding a line; blank lines and
// lines starting with '#' are ignored.
func readExpected(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	sort.Strings(out)
	return out
}

// TestDocsFixture checks the fixture repository: exactly the planted
// problems are found, and none of the traps.
func TestDocsFixture(t *testing.T) {
	root, err := filepath.Abs(docsRepo)
	if err != nil {
		t.Fatal(err)
	}
	s := Load([]string{root}, Options{})
	got := findingLines(t, s, root)
	want := readExpected(t, filepath.Join(root, "EXPECTED.txt"))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings differ from EXPECTED.txt\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		for _, d := range s.AllDiagnostics() {
			t.Logf("%s:%d:%d %s %s", filepath.Base(d.File), d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code, d.Message)
		}
	}
}

// TestDocsFixtureTraps makes sure the traps of the fixture are still there,
// so that TestDocsFixture keeps proving they stay silent.
func TestDocsFixtureTraps(t *testing.T) {
	root, err := filepath.Abs(docsRepo)
	if err != nil {
		t.Fatal(err)
	}
	s := Load([]string{root}, Options{})
	spans := map[string]bool{}
	dests := map[string]bool{}
	for _, f := range s.Files() {
		if f.Markdown == nil {
			continue
		}
		for _, cs := range f.Markdown.CodeSpans {
			spans[cs.Text(f.Markdown)] = true
		}
		for _, l := range f.Markdown.Links {
			dests[l.Raw(f.Markdown)] = true
		}
	}
	for _, text := range []string{"npm run test", "go test ./...", "v1.2.3", "1.2.3", "a + b", "and/or",
		"example.com/page.html", "*.ts", "/usr/bin/env", "tests/", "perf.md", "../README.md", "[broken](nowhere.md)"} {
		if !spans[text] {
			t.Errorf("the fixture lost the code span %q", text)
		}
	}
	for _, dest := range []string{"../tests/", "../tests", "save%20format.md#checksums", "save format.md#checksums",
		"#%C3%BCber-die-speicherung", "#notes-1", "mailto:saves@example.com", "https://example.com/spec.md#nowhere",
		"design.md#the-slot_index-field-v2", "design.md#über-die-speicherung", "img/slots.svg", "perf.md"} {
		if !dests[dest] {
			t.Errorf("the fixture lost the link destination %q", dest)
		}
	}
}

func TestLooksLikePath(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		// Paths.
		{"tests/slots.test.ts", true},
		{"tests/", true},
		{"docs/img/", true},
		{"./tests/a.ts", true},
		{"../README.md", true},
		{"README.md", false},
		{"tuning.json", false},
		{"slots.test.ts", false},
		{".github/workflows/ci.yml", true},
		{"src/index.d.ts", true},
		{"docs/save_format.md", true},
		{"assets/Ü-icon.png", true},
		// Commands, versions, prose.
		{"npm run test", false},
		{"go test ./...", false},
		{"./...", false},
		{"v1.2.3", false},
		{"1.2.3", false},
		{"a + b", false},
		{"and/or", false},
		{"G1/C0/S2", false},
		{"image/png", false},
		{"size + mtimeNs", false},
		{"toolResult.details", false},
		{"Array.prototype.map", false},
		{"emitContext()", false},
		{"prompt('/state-flow-stop')", false},
		{`""`, false},
		{"", false},
		// Addresses, globs, absolute and home paths, flags.
		{"example.com/page.html", false},
		{"golang.org/x/tools", false},
		{"https://example.com/a.md", false},
		{"mailto:saves@example.com", false},
		{"*.ts", false},
		{"src/**/*.ts", false},
		{"tests/?.ts", false},
		{"/usr/bin/env", false},
		{"~/saves/", false},
		{"--out=dist/", false},
		{"-v", false},
		{"@scope/pkg/index.js", false},
		{`tests\slots.test.ts`, false},
		{"tests/slots.test.ts:12", false},
		{"docs/perf.md#budgets", false},
		{"a//b.md", false},
		{".env", false},
		{"notes.unknownext", false},
		{"$HOME/x.md", false},
	}
	for _, tt := range tests {
		if got := LooksLikePath(tt.text); got != tt.want {
			t.Errorf("LooksLikePath(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestFolderDepth(t *testing.T) {
	for _, tc := range []struct {
		root, dir string
		want      int
	}{
		{"/r", "/r", 0},
		{"/r", "/r/a", 1},
		{"/r", "/r/a/b/c", 3},
		{"/r", "/ra/b", -1},
		{"/r", "/s", -1},
		{"/", "/", 0},
		{"/", "/a/b", 2},
		{"/r/", "/r/a", 1}, // not clean: through filepath.Rel
	} {
		if got := folderDepth(tc.root, tc.dir); got != tc.want {
			t.Errorf("folderDepth(%q, %q) = %d, want %d", tc.root, tc.dir, got, tc.want)
		}
	}
}
