package ide

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
)

// loadEdited copies the demo, replaces old with new in one of its files
// and loads it; the cursor is where new holds "|", which is removed.
func loadEdited(t *testing.T, rel, old, new string) (*analysis.Snapshot, string, int) {
	t.Helper()
	root := analysistest.CopyTree(t, analysistest.Testdata(t, "demo"))
	path := filepath.Join(root, filepath.FromSlash(rel))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i := strings.Index(text, old)
	if i < 0 {
		t.Fatalf("%s does not contain %q", rel, old)
	}
	cursor := i + strings.Index(new, "|")
	text = text[:i] + strings.Replace(new, "|", "", 1) + text[i+len(old):]
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return analysis.Load([]string{root}, analysis.Options{}), path, cursor
}

func TestAnswerSnippet(t *testing.T) {
	s, path, at := loadEdited(t, "contracts/cauldron.json",
		"\"answers\": {\n    \"job-inputs\": \"required-inputs\",\n", "\"answers\": {\n    |\n")
	var item *CompletionItem
	for _, it := range Complete(s, path, at) {
		if it.Label == "job-inputs" {
			item = &it
		}
	}
	if item == nil || item.SnippetEdit == nil || item.Edit == nil {
		t.Fatalf("the job-inputs item = %+v, want a snippet edit", item)
	}
	if got := item.SnippetEdit.NewText; !strings.HasPrefix(got, `"job-inputs": "${1|required-inputs,`) || !strings.HasSuffix(got, `|}"$0`) {
		t.Errorf("answer snippet = %q", got)
	}
	// Inside a half-typed key with text after it, no snippet.
	s, path, at = loadEdited(t, "contracts/cauldron.json",
		`"job-inputs": "required-inputs",`, `"job-inp|": "required-inputs",`)
	for _, it := range Complete(s, path, at) {
		if it.SnippetEdit != nil {
			t.Errorf("a snippet where a value follows: %+v", it)
		}
	}
}

func TestRowSnippet(t *testing.T) {
	s, path, at := loadEdited(t, "contracts/cauldron.json", "\"rows\": {\n    \"job\": [\n", "\"rows\": {\n    \"job\": [\n      |\n")
	var item *CompletionItem
	for _, it := range Complete(s, path, at) {
		if it.Label == "new job row" {
			item = &it
		}
	}
	if item == nil || item.SnippetEdit == nil {
		t.Fatalf("no new-row item: %+v", Complete(s, path, at))
	}
	var row map[string]any
	if err := json.Unmarshal([]byte(item.Edit.NewText), &row); err != nil {
		t.Fatalf("the plain row is not JSON: %v\n%s", err, item.Edit.NewText)
	}
	_, a := s.AdoptionAt(path)
	set := a.RowSet("job")
	for _, f := range set.Fields {
		_, has := row[f.Name.Text]
		if want := f.When == nil && f.Required; has != want {
			t.Errorf("field %s in the new row: %v, want %v", f.Name.Text, has, want)
		}
	}
	if !strings.Contains(item.SnippetEdit.NewText, "${1") || !strings.HasSuffix(item.SnippetEdit.NewText, "}$0") {
		t.Errorf("row snippet = %q", item.SnippetEdit.NewText)
	}
}
