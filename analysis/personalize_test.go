package analysis

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
)

// TestPersonalizationRecheck checks that the sets targets of
// personalization.json are checked again after an edit of tuning.json,
// which they read, and not after an edit of a chapter.
func TestPersonalizationRecheck(t *testing.T) {
	dir := analysistest.CopyTree(t, filepath.Join("..", "testdata", "demo"))
	pers := filepath.Join(dir, "personalization.json")
	if err := os.WriteFile(pers, []byte(personalizationSets), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := NewWorkspace([]string{dir}, Options{})
	result := func() *persResult {
		r := ws.Snapshot().File(pers).entry.persChecked
		if r == nil {
			t.Fatal("personalization.json's targets were not checked")
		}
		return r
	}
	before := result()
	mechanics := filepath.Join(dir, "02-mechanics.md")
	content, err := os.ReadFile(mechanics)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetOverlay(mechanics, append(content, "\nMore text.\n"...))
	if result() != before {
		t.Error("an edit of a chapter checked the sets targets again")
	}
	tuningPath := filepath.Join(dir, "tuning.json")
	content, err = os.ReadFile(tuningPath)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetOverlay(tuningPath, append(content, '\n'))
	if result() == before {
		t.Error("an edit of tuning.json did not check the sets targets again")
	}
}
