package analysis

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/analysis/buildrecord"
)

// The build scenarios read testdata/build/*.txtar. Each archive holds a
// build record (the file named opengdd-build.json) and, usually, its source
// package; the files carry ⟦CODE⟧ markers as in testdata/check. The
// archive's comment holds two directives:
//
//	package: <folder>   the source package, relative to the archive ("."
//	                    by default; "-" checks the record alone)
//	outcome: <outcome>  the outcome the check must derive (required)
//
// The driver checks the record as `gddls check --build` does and requires
// the findings to be exactly the marked ones, and the outcome.
func TestBuildScenarios(t *testing.T) {
	analysistest.RunArchives(t, filepath.Join("..", "testdata", "build"), func(t *testing.T, file string) {
		ar := analysistest.ReadArchive(t, file)
		pkg, outcome := ".", ""
		sc := bufio.NewScanner(bytes.NewReader(ar.Comment))
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "package: "); ok {
				pkg = strings.TrimSpace(v)
			}
			if v, ok := strings.CutPrefix(line, "outcome: "); ok {
				outcome = strings.TrimSpace(v)
			}
		}
		if outcome == "" {
			t.Fatal("the archive's comment names no outcome")
		}
		dir, want := loadScenario(t, file)
		record := ""
		for _, f := range ar.Files {
			if filepath.Base(f.Name) == buildrecord.FileName {
				record = filepath.Join(dir, filepath.FromSlash(f.Name))
			}
		}
		if record == "" {
			record = filepath.Join(dir, buildrecord.FileName) // a missing record
		}
		res := checkBuildAt(t, record, dir, pkg)
		var got []marker
		for _, d := range res.Diagnostics {
			rel, _ := filepath.Rel(dir, d.File)
			got = append(got, marker{file: filepath.ToSlash(rel), pos: d.Range.Start, code: d.Code, severity: d.Severity.String()})
		}
		compareMarkers(t, want, got, &Snapshot{diags: map[string][]Diagnostic{record: res.Diagnostics}})
		if string(res.Outcome) != outcome {
			t.Errorf("outcome %s, want %s", res.Outcome, outcome)
		}
	})
}

// checkBuildAt checks the record at the absolute path record against the
// package folder pkg of dir ("-" for none), reading the files as the
// command does.
func checkBuildAt(t *testing.T, record, dir, pkg string) *BuildResult {
	t.Helper()
	data, err := os.ReadFile(record)
	found := err == nil
	if info, err := os.Stat(record); err == nil && !info.Mode().IsRegular() {
		found = false
	}
	if pkg == "-" {
		return CheckBuild(record, data, found, nil, "")
	}
	root := filepath.Join(dir, filepath.FromSlash(pkg))
	return CheckBuild(record, data, found, Load([]string{root}, Options{}), root)
}
