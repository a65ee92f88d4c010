package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// reviewMechanics is a mechanics chapter with a number that repeats a
// tuning value and a choice with no tie-break, and no finding.
const reviewMechanics = "# Mechanics\n\n## Burning\n\nThe lantern holds 12 units of oil, and a moth picks the nearest lamp.\n"

// reviewFixture is a valid package whose mechanics chapter gives two hints.
func reviewFixture(t *testing.T) string {
	return writeFiles(t, map[string]string{
		"manifest.json": `{"opengdd": "0.9", "id": "lantern-keeper", "version": "0.1.0", "title": "Lantern Keeper",
  "designer": {"name": "scenario"}, "target": {"platform": "web-2d", "genre": "puzzle"}}
`,
		"tuning.json":      `{"values": {"lantern.oil_units": 12}}` + "\n",
		"01-overview.md":   "# Lantern Keeper\n\n```fantasy\nYou keep a lantern lit on a long night walk.\nFeel: quiet, careful, calm\nNOT: frantic\n```\n\n## The game\n\nA walk home.\n",
		"02-mechanics.md":  reviewMechanics,
		"05-build-plan.md": "# Build plan\n\n## Stage 1: the lantern\n\nBuild the lantern. Checkpoint: it goes out.\n",
	})
}

// isReviewHints reports a publication of the two hints, at Hint severity.
func isReviewHints(p publication) bool {
	codes := map[string]bool{}
	for _, d := range p.Diagnostics {
		if d.Severity != 4 || d.Source != "gddls" {
			return false
		}
		codes[d.Code] = true
	}
	return len(p.Diagnostics) == 2 && codes["PROSE_TUNING_LITERAL"] && codes["TIE_BREAK_CHOICE"]
}

// TestReviewHints: without gddls.review no hint is published; turning it on
// through didChangeConfiguration publishes the hints at Hint severity, with
// the related place in tuning.json and the quick fix that cites the key;
// turning it off clears them and their fix.
func TestReviewHints(t *testing.T) {
	root := reviewFixture(t)
	mech := filepath.Join(root, "02-mechanics.md")
	c := start(t, hooks)
	c.initialize(root, nil, map[string]any{"gddls": map[string]any{"diagnosticsDelay": 10}})
	c.open(mech, reviewMechanics, 1)
	p, next := c.awaitDiagnostics(0, fileURI(mech), "02-mechanics.md published once open", func(p publication) bool { return p.Version == 1 })
	if len(p.Diagnostics) != 0 {
		t.Fatalf("hints published with gddls.review off: %+v", p.Diagnostics)
	}
	if acts := c.actions(mech); len(acts) != 0 {
		t.Errorf("actions with gddls.review off: %+v", acts)
	}
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"gddls": map[string]any{"review": true}}})
	p, next = c.awaitDiagnostics(next, fileURI(mech), "hints with gddls.review on", isReviewHints)
	var literal json.RawMessage
	var rng rangeJSON
	for i, d := range p.Diagnostics {
		if d.Code == "PROSE_TUNING_LITERAL" {
			literal, _ = json.Marshal(p.Diagnostics[i])
			rng = d.Range
			if len(d.Related) != 1 || !strings.HasSuffix(d.Related[0].Location.URI, "tuning.json") {
				t.Errorf("related places %+v, want the key in tuning.json", d.Related)
			}
		}
	}
	if rng.Start.Line != 4 || rng.Start.Character != 18 || rng.End.Character != 20 {
		t.Errorf("the literal hint at %+v, want line 4, characters 18-20", rng)
	}
	var actions []struct {
		Title       string            `json:"title"`
		Kind        string            `json:"kind"`
		IsPreferred bool              `json:"isPreferred"`
		Diagnostics []json.RawMessage `json:"diagnostics"`
		Edit        workspaceEditJSON `json:"edit"`
	}
	c.result("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(mech)}, "range": rng,
		"context": map[string]any{"diagnostics": []json.RawMessage{literal}},
	}, &actions)
	if len(actions) != 1 || actions[0].Title != "Cite `lantern.oil_units` instead of 12" || actions[0].Kind != "quickfix" || !actions[0].IsPreferred || len(actions[0].Diagnostics) != 1 {
		t.Fatalf("actions at the literal: %+v", actions)
	}
	edits := actions[0].Edit.Changes[fileURI(mech)]
	if got := applyEdits(reviewMechanics, edits); !strings.Contains(got, "holds `lantern.oil_units` units") {
		t.Errorf("the fix gives %q", got)
	}
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"gddls": map[string]any{"review": false}}})
	c.awaitDiagnostics(next, fileURI(mech), "hints cleared with gddls.review off", empty)
	if acts := c.actions(mech); len(acts) != 0 {
		t.Errorf("actions after gddls.review off: %+v", acts)
	}
	c.shutdown()
}

// TestReviewAtInitialize: gddls.review true in the initializationOptions
// publishes the hints of a file that is not open.
func TestReviewAtInitialize(t *testing.T) {
	root := reviewFixture(t)
	mech := filepath.Join(root, "02-mechanics.md")
	c := start(t, hooks)
	c.initialize(root, nil, map[string]any{"gddls": map[string]any{"diagnosticsDelay": 10, "review": true}})
	c.awaitDiagnostics(0, fileURI(mech), "hints of 02-mechanics.md", isReviewHints)
	c.shutdown()
}
