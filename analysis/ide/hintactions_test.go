package ide

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/source"
)

// TestHintActions: the quick fix of PROSE_TUNING_LITERAL replaces the
// number by the citation of the key, which then resolves and leaves no
// hint; a number that two keys share offers both, neither preferred.
func TestHintActions(t *testing.T) {
	dir := analysistest.WriteFiles(t, "", map[string]string{
		"game/tuning.json":      `{"values": {"lantern.oil_units": 12, "moth.speed": 2, "lamp.rows": 2}, "open": {"night.minutes": 45}}`,
		"game/02-mechanics.md":  "# Mechanics\n\nThe lantern holds 12 units; moths fly at 2 for 45 minutes.\n",
		"game/01-overview.md":   "# Overview\n",
		"game/manifest.json":    `{}`,
		"game/05-build-plan.md": "# Build plan\n",
	})
	mech := filepath.Join(dir, "game", "02-mechanics.md")
	snap := analysis.Load([]string{dir}, analysis.Options{})
	hs := snap.HintsOf(mech)
	if len(hs) != 2 {
		t.Fatalf("hints %v, want two (12 and 2; 45 is a guess)", hs)
	}
	for _, h := range hs {
		if h.Severity != source.Hint || h.Code != "PROSE_TUNING_LITERAL" {
			t.Errorf("%+v: want a PROSE_TUNING_LITERAL hint", h)
		}
		if len(h.Related) == 0 || !strings.HasSuffix(h.Related[0].File, "tuning.json") {
			t.Errorf("%+v: want related places in tuning.json", h)
		}
	}
	if !strings.Contains(hs[1].Message, "`moth.speed` and `lamp.rows`") {
		t.Errorf("the hint of 2 names both keys: %s", hs[1].Message)
	}
	for _, d := range snap.AllDiagnostics() {
		if d.Severity == source.Hint {
			t.Errorf("a hint among the findings: %+v", d)
		}
	}
	content := snap.File(mech).Content
	at := strings.Index(string(content), "12")
	acts := HintActions(snap, mech, source.Span{Start: at, End: at})
	if len(acts) != 1 || acts[0].Title != "Cite `lantern.oil_units` instead of 12" || !acts[0].Preferred {
		t.Fatalf("actions at 12: %+v", acts)
	}
	fixed := applyEdits(t, string(content), acts[0].Edits[mech])
	if !strings.Contains(fixed, "holds `lantern.oil_units` units") {
		t.Errorf("fixed text: %s", fixed)
	}
	two := strings.Index(string(content), " 2 ") + 1
	acts = HintActions(snap, mech, source.Span{Start: two, End: two + 1})
	if len(acts) != 2 || acts[0].Preferred || acts[1].Title != "Cite `lamp.rows` instead of 2" {
		t.Errorf("actions at 2: %+v", acts)
	}
	if acts := HintActions(snap, mech, source.Span{Start: 0, End: 1}); len(acts) != 0 {
		t.Errorf("actions on the heading: %+v", acts)
	}
	after := analysis.Load([]string{dir}, analysis.Options{Overlay: analysis.Overlay{mech: []byte(fixed)}})
	if hs := after.HintsOf(mech); len(hs) != 1 {
		t.Errorf("after the fix: hints %v, want only the one of 2", hs)
	}
	for _, d := range after.Diagnostics(mech) {
		if d.Code == "PROSE_CITATION_DANGLING" {
			t.Errorf("the citation the fix wrote dangles: %+v", d)
		}
	}
}
