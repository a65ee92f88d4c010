package analysis

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
)

// TestWorkspaceMatchesLoadRandomEdits types small random edits into the
// demo package through a Workspace, one file at a time and with earlier
// edits kept, and requires the diagnostics and hints after each to equal
// those of a fresh Load. The edits are those of a designer's typing that
// the carried checks must follow: a word changed, a line removed or
// doubled, a heading renamed, a number changed, a file restored. The seed
// is fixed, so a failure names a step that reproduces.
func TestWorkspaceMatchesLoadRandomEdits(t *testing.T) {
	dir := analysistest.CopyTree(t, filepath.Join("..", "testdata", "demo"))
	var files []string
	if err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (filepath.Ext(path) == ".md" || filepath.Ext(path) == ".json") && filepath.Base(path) != "README.md" {
			files = append(files, path)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	original := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		original[f] = data
	}
	opts := Options{Lenient: true, BuildRecords: true}
	ws := NewWorkspace([]string{dir}, opts)
	ws.Snapshot()
	overlay := Overlay{}
	rng := rand.New(rand.NewPCG(16, 2026))
	steps := 120
	if testing.Short() {
		steps = 30
	}
	for step := range steps {
		f := files[rng.IntN(len(files))]
		cur, ok := overlay[f]
		if !ok {
			cur = original[f]
		}
		next, what := randomEdit(rng, cur, original[f])
		overlay[f] = next
		ws.SetOverlay(f, next)
		snap := ws.Snapshot()
		load := opts
		load.Overlay = overlay
		fresh := Load([]string{dir}, load)
		rel, _ := filepath.Rel(dir, f)
		if got, want := snap.AllDiagnostics(), fresh.AllDiagnostics(); !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d (%s in %s): workspace and fresh load differ\nworkspace: %v\nload:      %v", step, what, rel, got, want)
		}
		if got, want := snap.Hints(), fresh.Hints(); !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d (%s in %s): hints differ\nworkspace: %v\nload:      %v", step, what, rel, got, want)
		}
	}
}

// randomEdit returns content with one small edit and what it did.
func randomEdit(rng *rand.Rand, content, original []byte) ([]byte, string) {
	lines := bytes.SplitAfter(content, []byte("\n"))
	i := rng.IntN(len(lines))
	out := func(replaced ...[]byte) []byte {
		var b []byte
		for _, l := range lines[:i] {
			b = append(b, l...)
		}
		for _, l := range replaced {
			b = append(b, l...)
		}
		for _, l := range lines[i+1:] {
			b = append(b, l...)
		}
		return b
	}
	line := lines[i]
	switch rng.IntN(6) {
	case 0:
		return bytes.Clone(original), "restore the file"
	case 1:
		return out(), "remove a line"
	case 2:
		return out(line, line), "double a line"
	case 3: // a heading renamed, or any line: a letter added at its end
		body := bytes.TrimRight(line, "\n")
		return out(append(append(bytes.Clone(body), 's'), line[len(body):]...)), "add a letter at a line's end"
	case 4: // a digit changed
		for k := range line {
			if line[k] >= '0' && line[k] <= '9' {
				l := bytes.Clone(line)
				l[k] = '0' + byte(rng.IntN(10))
				return out(l), "change a digit"
			}
		}
		return out(line), "change nothing"
	default: // a letter changed, as a typo
		for range 8 {
			k := rng.IntN(len(line) + 1)
			if k < len(line) && line[k] >= 'a' && line[k] <= 'z' {
				l := bytes.Clone(line)
				l[k] = 'a' + byte(rng.IntN(26))
				return out(l), "change a letter"
			}
		}
		return out(line), "change nothing"
	}
}
