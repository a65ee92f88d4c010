package ide

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/source"
)

// applyAction applies an action's file creations and edits on disk.
func applyAction(t *testing.T, a CodeAction) {
	t.Helper()
	for _, c := range a.Creates {
		if err := os.MkdirAll(filepath.Dir(c.Path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(c.Path, []byte(c.Content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for path, es := range a.Edits {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(applyEdits(t, string(data), es)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// codesOf counts the findings of one file by code.
func codesOf(s *analysis.Snapshot, path string) map[string]int {
	out := map[string]int{}
	for _, d := range s.Diagnostics(path) {
		out[d.Code]++
	}
	return out
}

// actionTitled returns the action of path at the first occurrence of needle
// with the given title.
func actionTitled(t *testing.T, s *analysis.Snapshot, path, needle, title string) CodeAction {
	t.Helper()
	i := strings.Index(string(s.File(path).Content), needle)
	if i < 0 {
		t.Fatalf("%s does not contain %q", path, needle)
	}
	var titles []string
	for _, a := range CodeActions(s, path, source.Span{Start: i, End: i}) {
		if a.Title == title {
			return a
		}
		titles = append(titles, a.Title)
	}
	t.Fatalf("no action %q at %q; got %q", title, needle, titles)
	return CodeAction{}
}

func TestFixAll(t *testing.T) {
	root := analysistest.CopyTree(t, analysistest.Testdata(t, "demo"))
	garden := filepath.Join(root, "contracts", "garden-away.json")
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	// Two more typos, each with one close fix, beside the demo's "stoped".
	data, err := os.ReadFile(cauldron)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), `"02-mechanics.md#bottling"`, `"02-mechanics.md#botling"`, 1)
	text = strings.Replace(text, `"output-kind": "new-thing"`, `"output-kind": "new-thng"`, 1)
	if err := os.WriteFile(cauldron, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s := analysis.Load([]string{root}, analysis.Options{})
	if FixAll(s, garden) != nil {
		t.Errorf("garden-away.json has no unambiguous fix, but fix all offers %+v", FixAll(s, garden))
	}
	a := FixAll(s, cauldron)
	if a == nil || a.Kind != "source.fixAll" || a.Title != "Fix all: apply 3 unambiguous fixes" {
		t.Fatalf("FixAll(cauldron.json) = %+v", a)
	}
	applyAction(t, *a)
	after := analysis.Load([]string{root}, analysis.Options{})
	if n := codesOf(after, cauldron)["CONTRACT_CITATION_DANGLING"]; n != 0 {
		t.Errorf("cauldron.json still has %d dangling citations after fix all", n)
	}
	if n := codesOf(after, cauldron)["CONTRACT_ROW_CHOICE"]; n != 0 {
		t.Errorf("cauldron.json still has %d bad row choices after fix all", n)
	}
	if n := codesOf(after, cauldron)["CONTRACT_RULE_FORBIDDEN"]; n != 1 {
		t.Errorf("the forbidden pair, which has no unambiguous fix, changed: %d findings", n)
	}
	if FixAll(after, cauldron) != nil {
		t.Errorf("a second fix all still has work: %+v", FixAll(after, cauldron))
	}
}

func TestCreateMissingHeading(t *testing.T) {
	root := analysistest.CopyTree(t, analysistest.Testdata(t, "demo"))
	garden := filepath.Join(root, "contracts", "garden-away.json")
	s := analysis.Load([]string{root}, analysis.Options{})
	a := actionTitled(t, s, garden, `"02-mechanics.md#crop-growth"`, `Create the heading "Crop growth" in 02-mechanics.md`)
	if a.Preferred {
		t.Error("creating a heading is preferred over the nearest anchor")
	}
	applyAction(t, a)
	after := analysis.Load([]string{root}, analysis.Options{})
	if n := codesOf(after, garden)["CONTRACT_CITATION_DANGLING"]; n != 0 {
		t.Errorf("the citation still dangles after the heading was created")
	}
	if n := len(after.AllDiagnostics()); n != len(s.AllDiagnostics())-1 {
		t.Errorf("after creating the heading there are %d findings, want %d", n, len(s.AllDiagnostics())-1)
	}
}

func TestCreateMissingFileAndLinkHeading(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "a.md")
	b := filepath.Join(root, "b.md")
	if err := os.WriteFile(a, []byte("# A\n\nSee [the plan](notes/new-page.md#first-steps) and [b](b.md#later-on).\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("# B\n\nText."), 0o644); err != nil {
		t.Fatal(err)
	}
	s := analysis.Load([]string{root}, analysis.Options{})
	create := actionTitled(t, s, a, "notes/new-page.md", "Create notes/new-page.md")
	if len(create.Creates) != 1 || create.Creates[0].Content != "# New page\n\n## First steps\n" {
		t.Errorf("the file to create is %+v", create.Creates)
	}
	applyAction(t, create)
	applyAction(t, actionTitled(t, s, a, "later-on", `Create the heading "Later on" in b.md`))
	after := analysis.Load([]string{root}, analysis.Options{})
	if ds := after.AllDiagnostics(); len(ds) != 0 {
		t.Errorf("findings after creating the file and the heading: %v", ds)
	}
}

func TestAddAllMissingAnswers(t *testing.T) {
	root := analysistest.CopyTree(t, analysistest.Testdata(t, "demo"))
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	data, err := os.ReadFile(cauldron)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "    \"job-inputs\": \"required-inputs\",\n", "", 1)
	text = strings.Replace(text, "    \"cancel-return\": \"return-claimed\",\n", "", 1)
	if err := os.WriteFile(cauldron, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s := analysis.Load([]string{root}, analysis.Options{})
	if codesOf(s, cauldron)["CONTRACT_ANSWER_MISSING"] == 0 {
		t.Fatal("removing two answers raised no CONTRACT_ANSWER_MISSING")
	}
	a := actionTitled(t, s, cauldron, `"answers"`, "Add all 2 missing answers, each with its first option")
	applyAction(t, a)
	after := analysis.Load([]string{root}, analysis.Options{})
	if n := codesOf(after, cauldron)["CONTRACT_ANSWER_MISSING"]; n != 0 {
		t.Errorf("%d answers still missing", n)
	}
}

func TestTableOfContents(t *testing.T) {
	root := analysistest.CopyTree(t, analysistest.Testdata(t, "demo"))
	mech := filepath.Join(root, "02-mechanics.md")
	s := analysis.Load([]string{root}, analysis.Options{})
	var toc *CodeAction
	for _, a := range SourceActions(s, mech) {
		if a.Kind == "source.toc" {
			toc = &a
		}
	}
	if toc == nil || toc.Title != "Insert a table of contents" {
		t.Fatalf("no table of contents action for 02-mechanics.md: %+v", SourceActions(s, mech))
	}
	applyAction(t, *toc)
	after := analysis.Load([]string{root}, analysis.Options{})
	if got, want := len(after.AllDiagnostics()), len(s.AllDiagnostics()); got != want {
		t.Errorf("the table of contents changed the findings: %d, want %d: %v", got, want, after.Diagnostics(mech))
	}
	content := string(after.File(mech).Content)
	if !strings.Contains(content, "<!-- toc -->\n- [The day loop](#the-day-loop)\n  - [Turn clock](#turn-clock)\n") {
		t.Errorf("the table of contents is not as expected:\n%s", content[:min(len(content), 600)])
	}
	for _, a := range SourceActions(after, mech) {
		if a.Kind == "source.toc" {
			t.Errorf("an up-to-date table of contents is offered again: %q", a.Title)
		}
	}
	// A new heading makes the table stale.
	if err := os.WriteFile(mech, []byte(content+"\n## Appendix\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	again := analysis.Load([]string{root}, analysis.Options{})
	found := false
	for _, a := range SourceActions(again, mech) {
		found = found || a.Title == "Update the table of contents"
	}
	if !found {
		t.Error("a stale table of contents is not offered for update")
	}
}
