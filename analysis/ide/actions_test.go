package ide

import (
	"fmt"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/source"
)

// Code actions, lenses and rendered tests at their places are tested by
// testdata/query/actions.txtar and promised.txtar; this file keeps what is
// not about one place.

// TestQueriesOfMissingFile asks for actions and lenses of a file that
// does not exist.
func TestQueriesOfMissingFile(t *testing.T) {
	r := loadQueryRepo(t, "actions.txtar")
	if got := CodeActions(r.snap, r.path("nothing.json"), source.Span{}); got != nil {
		t.Errorf("actions for a file that does not exist: %v", got)
	}
	if got := CodeLenses(r.snap, r.path("missing.json")); len(got) != 0 {
		t.Errorf("lenses for a file that does not exist: %v", got)
	}
}

// TestQueriesSurviveBrokenFiles cuts every file of the package of
// testdata/query/actions.txtar at many points and runs the queries over
// the whole file: none may panic.
func TestQueriesSurviveBrokenFiles(t *testing.T) {
	base := loadQueryRepo(t, "actions.txtar").files
	for _, name := range []string{"contracts/meter.json", "tuning.json", "01-overview.md", "02-mechanics.md"} {
		full := base[name]
		for cut := 0; cut < len(full); cut += 37 {
			files := map[string][]byte{}
			for k, v := range base {
				files[k] = v
			}
			files[name] = full[:cut]
			dir := analysistest.WriteFiles(t, "", files)
			snap := analysis.Load([]string{dir}, analysis.Options{})
			for _, f := range snap.Files() {
				CodeActions(snap, f.Path, source.Span{Start: 0, End: len(f.Content)})
				CodeLenses(snap, f.Path)
				_, _ = RenderTests(snap, f.Path)
			}
			editorQueriesSurvive(t, snap, dir, fmt.Sprintf("%s cut at %d", name, cut))
		}
	}
}

func TestFileURI(t *testing.T) {
	if got := fileURI("/tmp/a b/c#d.json"); got != "file:///tmp/a%20b/c%23d.json" {
		t.Errorf("fileURI = %q", got)
	}
}
