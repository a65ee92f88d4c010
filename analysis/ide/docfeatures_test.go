package ide

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
)

// Completion, hover and definition of cited paths and witnesses at their
// places are tested by testdata/query/docs.txtar.

// TestDocFixtureNavigation runs the features on the fixture repository.
func TestDocFixtureNavigation(t *testing.T) {
	root, err := filepath.Abs(analysistest.Testdata(t, "docs-repo"))
	if err != nil {
		t.Fatal(err)
	}
	s := analysis.Load([]string{root}, analysis.Options{})
	path := filepath.Join(root, "docs", "acceptance.md")
	content := s.File(path).Content
	at := func(text string) int {
		i := bytes.Index(content, []byte(text))
		if i < 0 {
			t.Fatalf("the fixture lacks %q", text)
		}
		return i + 1
	}
	locs := Definition(s, path, at("“keeps the player's name”"))
	if len(locs) != 1 || locs[0].File != filepath.Join(root, "tests", "migration.test.ts") {
		t.Fatalf("definition of the witness = %+v", locs)
	}
	lines := LinesOf(s, locs[0].File)
	if lines == nil || lines.Position(locs[0].Span.Start).Line != 7 {
		t.Errorf("the witness is not on line 8 of migration.test.ts")
	}
	if h := Hover(s, path, at("`tests/cloud-sync.test.ts`")); h != nil {
		t.Errorf("hover on a missing path: %q", h.Markdown)
	}
}

func TestLinesOf(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.ts"), []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := loadQueryRepo(t, "docs.txtar").dir
	if err := os.WriteFile(filepath.Join(dir, "tests", "big.ts"), bytes.Repeat([]byte("x"), analysis.MaxWitnessFileSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tests", "bin.dat"), []byte{'a', 0, 'b'}, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "tests", "escape.ts")
	haveLink := os.Symlink(filepath.Join(outside, "secret.ts"), link) == nil
	s := analysis.Load([]string{dir}, analysis.Options{})
	tests := []struct {
		path  string
		lines int // -1 for nil
	}{
		{filepath.Join(dir, "README.md"), 2},
		{filepath.Join(dir, "tests", "slots.test.ts"), 16},
		{filepath.Join(dir, "tests", "gone.ts"), -1},
		{filepath.Join(dir, "tests", "big.ts"), -1},
		{filepath.Join(dir, "tests", "bin.dat"), -1},
		{filepath.Join(dir, "tests"), -1},
		{filepath.Join(outside, "secret.ts"), -1},
	}
	if haveLink {
		tests = append(tests, struct {
			path  string
			lines int
		}{link, -1})
	}
	for _, tt := range tests {
		l := LinesOf(s, tt.path)
		switch {
		case tt.lines < 0 && l != nil:
			t.Errorf("LinesOf(%s) has %d lines, want nil", tt.path, l.LineCount())
		case tt.lines >= 0 && l == nil:
			t.Errorf("LinesOf(%s) = nil", tt.path)
		case tt.lines >= 0 && l.LineCount() != tt.lines:
			t.Errorf("LinesOf(%s) has %d lines, want %d", tt.path, l.LineCount(), tt.lines)
		}
	}
}

func TestFindWitness(t *testing.T) {
	const src = "// loads an empty slot is tested below\nit(\"loads an empty slot\", f);\nit('real Pi keeps the slot\n after reload', g);\nit(\"one … two\", h);\n"
	tests := []struct {
		name, want string
		line       int // zero-based line of the match; -1 for none
	}{
		{"loads an empty slot", "loads an empty slot", 1},
		{"  loads an empty slot ", "loads an empty slot", 1},
		{"real Pi keeps", "real Pi keeps", 2},
		{"real Pi … slot", "real Pi keeps the slot", 2},
		{"real … reload", "", -1}, // the parts are on two lines
		{"one … two", "one … two", 4},
		{"… two", "… two", 4}, // written with the ellipsis in the file
		{"… zzz", "", -1},
		{"", "", -1},
		{"missing", "", -1},
	}
	lines := func(off int) int { return strings.Count(src[:off], "\n") }
	for _, tt := range tests {
		sp, ok := analysis.FindWitness([]byte(src), tt.name)
		if tt.line < 0 {
			if ok {
				t.Errorf("findWitness(%q) = %q, want none", tt.name, src[sp.Start:sp.End])
			}
			continue
		}
		if !ok {
			t.Errorf("findWitness(%q) found nothing", tt.name)
			continue
		}
		if got := src[sp.Start:sp.End]; got != tt.want || lines(sp.Start) != tt.line {
			t.Errorf("findWitness(%q) = %q on line %d, want %q on line %d", tt.name, got, lines(sp.Start), tt.want, tt.line)
		}
	}
}
