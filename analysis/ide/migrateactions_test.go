package ide

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/analysis/migrate"
)

// TestMigrateAction applies the source action source.migrate of every file
// of the v0.5-style package of testdata/migrate and requires the file's
// content to be what gddls migrate writes, and every file the action
// creates or also rewrites to be what the migration writes there too.
func TestMigrateAction(t *testing.T) {
	ar := analysistest.ReadArchive(t, filepath.Join("..", "..", "testdata", "migrate", "v05-package.txtar"))
	files := map[string][]byte{}
	for name, data := range analysistest.ArchiveFiles(ar) {
		if !strings.HasPrefix(name, "want/") {
			files[name] = data
		}
	}
	dir := analysistest.WriteFiles(t, t.TempDir(), files)
	snap := analysis.Load([]string{dir}, analysis.Options{})
	res := migrate.Package(files)
	offered := 0
	for _, rel := range sortedRel(files) {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		var act *CodeAction
		for _, a := range SourceActions(snap, path) {
			if a.Kind == "source.migrate" {
				a := a
				act = &a
			}
		}
		want, changed := res.Files[rel]
		if act == nil {
			if changed {
				t.Errorf("%s: the migration rewrites it, but no source.migrate is offered", rel)
			}
			continue
		}
		offered++
		if !changed {
			t.Errorf("%s: source.migrate is offered, but the migration leaves the file", rel)
			continue
		}
		for abs, edits := range act.Edits {
			r, _ := filepath.Rel(dir, abs)
			r = filepath.ToSlash(r)
			got := applyEdits(t, string(files[r]), edits)
			if got != string(res.Files[r]) {
				t.Errorf("%s: source.migrate leaves %s as\n%s\nwant\n%s", rel, r, got, res.Files[r])
			}
		}
		for _, c := range act.Creates {
			r, _ := filepath.Rel(dir, c.Path)
			if c.Content != string(res.Files[filepath.ToSlash(r)]) {
				t.Errorf("%s: source.migrate creates %s as\n%s", rel, r, c.Content)
			}
		}
		if got := applyEdits(t, string(files[rel]), act.Edits[path]); got != string(want) {
			t.Errorf("%s: the file after source.migrate:\n%s\nwant\n%s", rel, got, want)
		}
	}
	if offered == 0 {
		t.Fatal("no source.migrate offered")
	}
}

func sortedRel(files map[string][]byte) []string {
	var out []string
	for k := range files {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
