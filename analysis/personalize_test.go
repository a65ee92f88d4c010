package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/source"
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

// TestTagSuggestion checks that a dangling > PERSONALIZATION: tag names the
// declared question its id is a typo of.
func TestTagSuggestion(t *testing.T) {
	dir := analysistest.WriteFiles(t, "", map[string][]byte{
		"tuning.json":          []byte(`{"values": {"a.b": 1}}`),
		"personalization.json": []byte(`{"questions": [{"id": "hazard_pace", "prompt": "?", "type": "text", "default": ""}]}`),
		"02-mechanics.md":      []byte("# Mechanics\n\n> PERSONALIZATION: hazard_pase\n\n> PERSONALIZATION: wind\n"),
	})
	var msgs []string
	for _, d := range Load([]string{dir}, Options{}).AllDiagnostics() {
		if d.Code == "PERSONALIZATION_TAG_DANGLING" {
			msgs = append(msgs, d.Message)
		}
	}
	if len(msgs) != 2 || !strings.Contains(msgs[0], `did you mean "hazard_pace"?`) || strings.Contains(msgs[1], "did you mean") {
		t.Errorf("messages %q: want a suggestion for the typo only", msgs)
	}
}

// TestSetsRelated checks the related places of the sets findings: the key
// a misspelt target is close to, the decided key, the range.
func TestSetsRelated(t *testing.T) {
	tuningSrc := `{"values": {"hazard.interval_seconds": 1, "hazard.damage": 1}, "ranges": {"hazard.interval_seconds": [0.5, 3]}}`
	dir := analysistest.WriteFiles(t, "", map[string][]byte{
		"tuning.json": []byte(tuningSrc),
		"personalization.json": []byte(`{"questions": [{"id": "q", "prompt": "?", "type": "choice", "default": "x", "options": [{"id": "x", "label": "X", "sets": ` +
			`{"hazard.intervl_seconds": 1, "hazard.damage": 2, "hazard.interval_seconds": 9, "ridge.height": 3}}]}]}`),
	})
	want := map[string]string{
		"PERSONALIZATION_SETS_TARGET":   `"hazard.interval_seconds"`,
		"PERSONALIZATION_SETS_UNRANGED": `"hazard.damage"`,
		"PERSONALIZATION_SETS_RANGE":    `[0.5, 3]`,
	}
	s := Load([]string{dir}, Options{})
	lines := s.File(filepath.Join(dir, "tuning.json")).Lines
	got := map[string][]string{}
	for _, d := range s.Diagnostics(filepath.Join(dir, "personalization.json")) {
		var at []string
		for _, r := range d.Related {
			sp := source.Span{Start: lines.Offset(r.Range.Start), End: lines.Offset(r.Range.End)}
			at = append(at, tuningSrc[sp.Start:sp.End])
		}
		got[d.Code] = append(got[d.Code], strings.Join(at, " "))
	}
	for code, place := range want {
		if len(got[code]) == 0 || got[code][0] != place {
			t.Errorf("%s related %q, want %s", code, got[code], place)
		}
	}
	if len(got["PERSONALIZATION_SETS_TARGET"]) != 2 || got["PERSONALIZATION_SETS_TARGET"][1] != "" {
		t.Errorf("SETS_TARGET related %q: want none for a key close to nothing", got["PERSONALIZATION_SETS_TARGET"])
	}
}
