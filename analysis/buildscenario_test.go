package analysis

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"sort"
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

// TestBuildRecordsInTheEditor: with Options.BuildRecords a record gets the
// findings build mode gives it against the package it is read with: the
// one holding it, or the one package beside its folder; a record with no
// package near is checked alone.
func TestBuildRecordsInTheEditor(t *testing.T) {
	for _, tc := range []struct {
		archive, record string
		// alone keeps only the record, so that no package is near.
		alone bool
		want  []string
	}{
		{"tuning-values", "opengdd-build.json", false, []string{"BUILD_TUNING_VALUE", "BUILD_TUNING_VALUE", "BUILD_TUNING_VALUE", "BUILD_TUNING_VALUE"}},
		{"conforming-outside", "builds/opengdd-build.json", false, nil},
		{"record-alone-invalid", "opengdd-build.json", true, []string{"BUILD_ACCEPTANCE_ACCOUNTING", "BUILD_SPEC_CROSS_CHECKS_SKIPPED"}},
	} {
		t.Run(tc.archive, func(t *testing.T) {
			dir, _ := loadScenario(t, filepath.Join("..", "testdata", "build", tc.archive+".txtar"))
			if tc.alone {
				data, err := os.ReadFile(filepath.Join(dir, tc.record))
				if err != nil {
					t.Fatal(err)
				}
				dir = analysistest.WriteFiles(t, "", map[string][]byte{tc.record: data})
			}
			snap := Load([]string{dir}, Options{BuildRecords: true})
			var got []string
			for _, d := range snap.Diagnostics(filepath.Join(dir, filepath.FromSlash(tc.record))) {
				if !d.Safety {
					got = append(got, d.Code)
				}
			}
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("codes %v, want %v", got, tc.want)
			}
			if n := len(Load([]string{dir}, Options{}).Diagnostics(filepath.Join(dir, filepath.FromSlash(tc.record)))); n != 0 {
				t.Errorf("without BuildRecords the record has %d findings, want none (gddls check leaves it to build mode)", n)
			}
		})
	}
}
