package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
)

// buildFixture writes testdata/build/<name>.txtar without its markers.
func buildFixture(t *testing.T, name string) string {
	t.Helper()
	ar := analysistest.ReadArchive(t, filepath.Join("..", "testdata", "build", name+".txtar"))
	files := map[string]string{}
	for _, f := range ar.Files {
		content, _, err := analysistest.StripMarkers(f.Data)
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name] = string(content)
	}
	return writeFiles(t, files)
}

// TestBuildRecordDiagnostics: a build record inside its package gets the
// build checks against that package as diagnostics, and an unsaved edit of
// the record that fixes a number clears its finding.
func TestBuildRecordDiagnostics(t *testing.T) {
	root := buildFixture(t, "tuning-values")
	record := filepath.Join(root, "opengdd-build.json")
	c := start(t, nil)
	c.initialize(root, nil, map[string]any{"gddls": map[string]any{"diagnosticsDelay": 10}})
	count := func(p publication) int {
		n := 0
		for _, d := range p.Diagnostics {
			if d.Code == "BUILD_TUNING_VALUE" {
				n++
			}
		}
		return n
	}
	p, next := c.awaitDiagnostics(0, fileURI(record), "the record's build findings", func(p publication) bool { return count(p) == 4 })
	for _, d := range p.Diagnostics {
		if strings.HasPrefix(d.Code, "INJECTION_") {
			continue // the safety scan reads the record as package text
		}
		if d.Source != "gddls" || !strings.HasPrefix(d.Code, "BUILD_") {
			t.Errorf("diagnostic %+v", d)
		}
	}
	text := analysistest.ReadFile(t, record)
	c.open(record, text, 1)
	// Line 9 (0-based 8) holds "lantern.oil_units": 13; the number starts
	// at column 27.
	lines := strings.Split(text, "\n")
	col := strings.Index(lines[8], "13")
	if col < 0 {
		t.Fatalf("line 9 of the record is %q", lines[8])
	}
	c.change(record, 2, []int{8, col, 8, col + 2}, "12")
	c.awaitDiagnostics(next, fileURI(record), "one finding fixed", func(p publication) bool { return count(p) == 3 })
	c.shutdown()
}

// TestBuildRecordQueries: completion of a record's snapshot keys and
// hover on one, over the protocol, in a record beside its package.
func TestBuildRecordQueries(t *testing.T) {
	root := buildFixture(t, "conforming-outside")
	record := filepath.Join(root, "builds", "opengdd-build.json")
	c := start(t, nil)
	c.initialize(root, nil, nil)
	doc := map[string]any{"uri": fileURI(record)}
	var list struct {
		Items []struct {
			Label  string `json:"label"`
			Detail string `json:"detail"`
		} `json:"items"`
	}
	c.result("textDocument/completion", map[string]any{"textDocument": doc, "position": posOf(t, record, `"lantern.oil_units"`, 1)}, &list)
	labels := map[string]string{}
	for _, it := range list.Items {
		labels[it.Label] = it.Detail
	}
	// Every other key is present, so only the key being typed is offered,
	// with what the package requires of it.
	if len(list.Items) != 1 || labels["lantern.oil_units"] != "must be 12" {
		t.Errorf("completion in a complete snapshot offered %v", labels)
	}
	c.result("textDocument/completion", map[string]any{"textDocument": doc, "position": posOf(t, record, `"gentle"`, 1)}, &list)
	labels = map[string]string{}
	for _, it := range list.Items {
		labels[it.Label] = it.Detail
	}
	if _, ok := labels["brisk"]; !ok || !strings.Contains(labels["gentle"], "default") {
		t.Errorf("options of pace: %v", labels)
	}
	var hover struct {
		Contents struct {
			Value string `json:"value"`
		} `json:"contents"`
	}
	c.result("textDocument/hover", map[string]any{"textDocument": doc, "position": posOf(t, record, `"lantern.burn_seconds"`, 3)}, &hover)
	if !strings.Contains(hover.Contents.Value, "must be 40") || !strings.Contains(hover.Contents.Value, `question "pace"`) {
		t.Errorf("hover on lantern.burn_seconds: %q", hover.Contents.Value)
	}
	c.shutdown()
}
