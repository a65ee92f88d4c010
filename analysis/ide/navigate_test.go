package ide

import (
	"sort"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
)

// The navigation queries at their places are tested by
// testdata/query/navigate.txtar and rename-escaped.txtar; this file keeps
// what is not about one place.

// applyEdits applies edits to content, last first.
func applyEdits(t *testing.T, content string, edits []TextEdit) string {
	t.Helper()
	es := append([]TextEdit{}, edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Span.Start > es[j].Span.Start })
	end := len(content) + 1
	for _, e := range es {
		if e.Span.End > end || e.Span.Start > e.Span.End || e.Span.Start < 0 {
			t.Fatalf("overlapping or bad edit %+v", e)
		}
		content = content[:e.Span.Start] + e.NewText + content[e.Span.End:]
		end = e.Span.Start
	}
	return content
}

// citationFindings returns the findings that a broken citation or link
// produces.
func citationFindings(snap *analysis.Snapshot) []string {
	var out []string
	for _, d := range snap.AllDiagnostics() {
		if strings.HasPrefix(d.Code, "CONTRACT_CITATION") || strings.HasPrefix(d.Code, "DOC_LINK") || d.Code == "PROSE_CITATION_DANGLING" {
			out = append(out, d.Code+" "+d.File+": "+d.Message)
		}
	}
	return out
}

// TestRenameControl shows that the archive's rename check, which requires
// a rename to add no finding, can fail: a rename that only changes the
// heading leaves dangling citations.
func TestRenameControl(t *testing.T) {
	r := loadQueryRepo(t, "navigate.txtar")
	if fs := citationFindings(r.snap); len(fs) != 0 {
		t.Fatalf("the fixture should start clean, got %q", fs)
	}
	path, off := r.at(t, "poisonhead")
	edits, err := Rename(r.snap, path, off, "Venom")
	if err != nil {
		t.Fatal(err)
	}
	only := map[string][]TextEdit{}
	for _, e := range edits[path] {
		if e.NewText == "Venom" {
			only[path] = append(only[path], e)
		}
	}
	q := &queryRun{repo: r, path: path}
	_, after := q.applyAll(only)
	if fs := citationFindings(after); len(fs) == 0 {
		t.Fatal("renaming the heading alone should leave a dangling citation")
	}
}

// TestWorkspaceSymbolsEmptyQuery lists some symbols, and no more than the
// limit, for an empty query.
func TestWorkspaceSymbolsEmptyQuery(t *testing.T) {
	r := loadQueryRepo(t, "navigate.txtar")
	if n := len(WorkspaceSymbols(r.snap, "")); n == 0 || n > maxWorkspaceSymbols {
		t.Fatalf("empty query gave %d symbols", n)
	}
}

// TestQueriesSurviveBadPositions asks every query at every offset of every
// file, and past the end: none may panic.
func TestQueriesSurviveBadPositions(t *testing.T) {
	r := loadQueryRepo(t, "navigate.txtar")
	snap := r.snap
	for rel, content := range r.files {
		path := r.path(rel)
		for off := -2; off <= len(content)+2; off++ {
			Definition(snap, path, off)
			References(snap, path, off, true)
			if _, _, err := PrepareRename(snap, path, off); err == nil {
				_, _ = Rename(snap, path, off, "New name.x")
			}
		}
		DocumentSymbols(snap, path)
		DocumentLinks(snap, path)
	}
	Definition(snap, r.path("nope.md"), 0)
	DocumentSymbols(snap, r.path("nope.md"))
}
