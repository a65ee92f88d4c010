package analysis

import (
	"path/filepath"
	"testing"
)

// TestUnnecessaryFindings checks which of the demo's findings mark a token
// that has no effect.
func TestUnnecessaryFindings(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "testdata", "demo"))
	s := Load([]string{root}, Options{})
	want := map[string]bool{
		"CONTRACT_ANSWER_NOT_ASKED": true, // an answer to a question not asked
		"CONTRACT_ROW_FIELD":        true, // a field whose condition does not hold
		"CONTRACT_RULE_FORBIDDEN":   false,
		"CONTRACT_ROW_CHOICE":       false,
		"TUNING_RANGE_VALUE":        false,
	}
	seen := map[string]bool{}
	for _, d := range s.AllDiagnostics() {
		w, ok := want[d.Code]
		if !ok {
			continue
		}
		seen[d.Code] = true
		if d.Unnecessary != w {
			t.Errorf("%s at %s:%d: Unnecessary = %v, want %v", d.Code, filepath.Base(d.File), d.Range.Start.Line+1, d.Unnecessary, w)
		}
	}
	for code := range want {
		if !seen[code] {
			t.Errorf("the demo has no %s finding", code)
		}
	}
}
