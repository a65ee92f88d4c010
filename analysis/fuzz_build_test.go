package analysis

import (
	"path/filepath"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/analysis/buildrecord"
)

// FuzzCheckBuild checks arbitrary records against the package of
// testdata/build/conforming.txtar: no panic, every finding inside the
// record's text, and an outcome that agrees with the errors.
func FuzzCheckBuild(f *testing.F) {
	ar := analysistest.ReadArchive(f, filepath.Join("..", "testdata", "build", "conforming.txtar"))
	files := map[string][]byte{}
	for _, file := range ar.Files {
		content, _, err := analysistest.StripMarkers(file.Data)
		if err != nil {
			f.Fatal(err)
		}
		files[file.Name] = content
	}
	dir := analysistest.WriteFiles(f, "", files)
	record := filepath.Join(dir, buildrecord.FileName)
	snap := Load([]string{dir}, Options{})
	seed := snap.File(record).Content
	f.Add(string(seed))
	f.Add(`{"personalization": {"answers": {"pace": 1, "glow": "x"}}, "resolved_tuning": {"values": {"contracts.tower.x": 1e400}}, "evidence": {"acceptance": {"passed": 1, "total": 1, "sampled": ["AT tower/x", 3]}, "contracts": [{}, 1, {"adoption": "tower", "pack": 2}]}}`)
	f.Fuzz(func(t *testing.T, src string) {
		res := CheckBuild(record, []byte(src), true, snap, dir)
		errors := 0
		for _, d := range res.Diagnostics {
			if d.File != record {
				t.Fatalf("finding in %s", d.File)
			}
			if d.Severity.String() == "error" {
				errors++
			}
		}
		if (errors > 0) != (res.Outcome == buildrecord.Invalid) {
			t.Fatalf("%d errors, outcome %s", errors, res.Outcome)
		}
	})
}
