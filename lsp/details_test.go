package lsp

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestDiagnosticDetails checks that a pushed diagnostic links its spec
// section and that an answer with no effect is tagged unnecessary.
func TestDiagnosticDetails(t *testing.T) {
	root := copyDemo(t)
	garden := fileURI(filepath.Join(root, "contracts", "garden-away.json"))
	c := start(t, hooks)
	c.initialize(root, nil, nil)
	c.result("gddls/test.flush", nil, nil)
	var diags []struct {
		Code            string `json:"code"`
		CodeDescription *struct {
			Href string `json:"href"`
		} `json:"codeDescription"`
		Tags []int `json:"tags"`
	}
	for _, m := range c.since(0) {
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI         string          `json:"uri"`
			Diagnostics json.RawMessage `json:"diagnostics"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatal(err)
		}
		if p.URI == garden {
			if err := json.Unmarshal(p.Diagnostics, &diags); err != nil {
				t.Fatal(err)
			}
		}
	}
	found := map[string]bool{}
	for _, d := range diags {
		found[d.Code] = true
		switch d.Code {
		case "CONTRACT_ANSWER_NOT_ASKED":
			if d.CodeDescription == nil || d.CodeDescription.Href != "https://opengdd.org/spec/#103-questions-and-answers" {
				t.Errorf("%s codeDescription = %+v", d.Code, d.CodeDescription)
			}
			if len(d.Tags) != 1 || d.Tags[0] != 1 {
				t.Errorf("%s tags = %v, want [1] (unnecessary)", d.Code, d.Tags)
			}
		case "CONTRACT_CITATION_DANGLING":
			if d.CodeDescription == nil || d.CodeDescription.Href != "https://opengdd.org/spec/#1010-citations-in-a-contract" {
				t.Errorf("%s codeDescription = %+v", d.Code, d.CodeDescription)
			}
			if len(d.Tags) != 0 {
				t.Errorf("%s tags = %v, want none", d.Code, d.Tags)
			}
		}
	}
	if !found["CONTRACT_ANSWER_NOT_ASKED"] || !found["CONTRACT_CITATION_DANGLING"] {
		t.Errorf("garden-away.json lacks the planted findings: %v", found)
	}
	c.shutdown()
}
