package ide

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
)

// plantedLine is the line of a query archive's comment that lists the
// findings its first versions carry on purpose: "planted: CODE CODE…", a
// code written once for each finding.
var plantedLine = regexp.MustCompile(`(?m)^planted:((?: [A-Z][A-Z0-9_]*)+)\s*$`)

// TestQueryFixturesClean holds the query archives to the rule of every
// fixture: the first version of each file, taken together, is a repository
// the whole specification calls clean but for the mistakes planted on
// purpose, which the archive's comment lists on a "planted:" line. The
// variants are moments of typing and may be broken.
func TestQueryFixturesClean(t *testing.T) {
	analysistest.RunArchives(t, filepath.Join("..", "..", "testdata", "query"), func(t *testing.T, path string) {
		t.Parallel()
		qa := readQueryArchive(t, path)
		base, _ := qa.files(t)
		r := qa.newRepo(t, base, nil)
		var want []string
		if m := plantedLine.FindSubmatch(qa.ar.Comment); m != nil {
			want = strings.Fields(string(m[1]))
		}
		var got, shown []string
		for _, d := range r.snap.AllDiagnostics() {
			got = append(got, d.Code)
			shown = append(shown, fmt.Sprintf("%s:%d: %s %s", r.rel(d.File), d.Range.Start.Line+1, d.Code, d.Message))
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: the first versions give %v, the comment plants %v:\n\t%s", path, got, want, strings.Join(shown, "\n\t"))
		}
	})
}
