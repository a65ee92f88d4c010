package migrate_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/analysis/migrate"
	"github.com/gddls/gddls/contracts/jsonsrc"
)

// TestTruncatedFiles runs the migration on every scenario package with one
// file cut short at many places, as an editor holds it while typing: the
// migration must not panic, and a cut JSON file must not be written.
func TestTruncatedFiles(t *testing.T) {
	analysistest.RunArchives(t, analysistest.Testdata(t, "migrate"), func(t *testing.T, path string) {
		ar := analysistest.ReadArchive(t, path)
		base := map[string][]byte{}
		for name, data := range analysistest.ArchiveFiles(ar) {
			if !strings.HasPrefix(name, "want/") {
				base[name] = data
			}
		}
		for name, data := range base {
			step := max(1, len(data)/23)
			for cut := 0; cut < len(data); cut += step {
				files := map[string][]byte{}
				for n, d := range base {
					files[n] = d
				}
				files[name] = data[:cut]
				res := migrate.Package(files)
				if _, errs := jsonsrc.Parse(data[:cut]); filepath.Ext(name) == ".json" && len(errs) > 0 {
					if _, written := res.Files[name]; written {
						t.Errorf("%s cut at %d does not parse, and the migration writes it", name, cut)
					}
				}
				if rec := migrate.BuildRecord(name, data[:cut]); len(rec.Files) > 0 && filepath.Ext(name) == ".json" {
					if _, errs := jsonsrc.Parse(data[:cut]); len(errs) > 0 {
						t.Errorf("a record that does not parse is written")
					}
				}
			}
		}
	})
}
