package analysis

import (
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
)

// TestHintsUnreadableTuning: without a readable tuning.json no number is
// compared, and the tie-break hints still come.
func TestHintsUnreadableTuning(t *testing.T) {
	dir := analysistest.WriteFiles(t, "", map[string]string{
		"game/tuning.json":     `{"values": {"a.b": 12}`,
		"game/02-mechanics.md": "# Mechanics\n\nThe lantern holds 12 units and the moth picks a lamp.\n",
	})
	hs := Load([]string{dir}, Options{}).Hints()
	if len(hs) != 1 || hs[0].Code != "TIE_BREAK_CHOICE" {
		t.Errorf("hints %v, want only TIE_BREAK_CHOICE", hs)
	}
}
