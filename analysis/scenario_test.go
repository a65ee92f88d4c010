package analysis

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/source"
)

// The scenario tests read testdata/check/*.txtar. Each archive is a small
// repository; its files may hold inline markers ⟦CODE⟧ (or ⟦CODE:severity⟧,
// several separated by spaces) placed immediately before the token where a
// finding must start. The driver removes the markers, writes the files to a
// temporary folder, checks it, and requires the findings to be exactly the
// marked ones: a marker without a finding and a finding without a marker
// both fail the test. Safety notices are marked like findings; the
// review-mode hints are read, and marked, only in archives whose name
// starts with "review-".

// marker is one expected finding.
type marker struct {
	file     string
	pos      source.Position
	code     string
	severity string
}

func (m marker) String() string {
	s := fmt.Sprintf("%s:%d:%d %s", m.file, m.pos.Line+1, m.pos.Character+1, m.code)
	if m.severity != "" {
		s += ":" + m.severity
	}
	return s
}

// stripMarkers removes the ⟦CODE⟧ markers from content and returns the
// clean content with the findings they expect.
func stripMarkers(file string, content []byte) ([]byte, []marker, error) {
	out, raws, err := analysistest.StripMarkers(content)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", file, err)
	}
	lines := NewLines(file, out)
	var ms []marker
	for _, r := range raws {
		for _, code := range strings.Fields(r.Text) {
			m := marker{file: file, pos: lines.Position(r.Offset), code: code}
			if c, sev, ok := strings.Cut(code, ":"); ok {
				m.code, m.severity = c, sev
			}
			ms = append(ms, m)
		}
	}
	return out, ms, nil
}

// loadScenario writes an archive's files to a temporary folder and returns
// the folder and the expected findings.
func loadScenario(t *testing.T, path string) (string, []marker) {
	t.Helper()
	ar := analysistest.ReadArchive(t, path)
	files := map[string][]byte{}
	var want []marker
	for _, f := range ar.Files {
		content, ms, err := stripMarkers(f.Name, f.Data)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, ms...)
		files[f.Name] = content
	}
	return analysistest.WriteFiles(t, "", files), want
}

func TestScenarios(t *testing.T) {
	analysistest.RunArchives(t, filepath.Join("..", "testdata", "check"), func(t *testing.T, file string) {
		dir, want := loadScenario(t, file)
		snap := Load([]string{dir}, Options{})
		var got []marker
		// Safety notices are marked like findings (severity warning, as
		// the report gives them), so every archive also shows that it
		// raises no notice it does not mark.
		all := append(snap.AllDiagnostics(), snap.Safety()...)
		if strings.HasPrefix(filepath.Base(file), "review-") {
			// A review-* archive is checked in review mode: its hints
			// are marked too (⟦CODE:hint⟧).
			all = append(all, snap.Hints()...)
		}
		for _, d := range all {
			rel, _ := filepath.Rel(dir, d.File)
			got = append(got, marker{file: filepath.ToSlash(rel), pos: d.Range.Start, code: d.Code, severity: d.Severity.String()})
		}
		compareMarkers(t, want, got, snap)
	})
}

// compareMarkers fails the test for every expected finding that is missing
// and every finding that was not expected.
func compareMarkers(t *testing.T, want, got []marker, snap *Snapshot) {
	t.Helper()
	key := func(m marker) string { return m.file + fmt.Sprintf(":%d:%d ", m.pos.Line, m.pos.Character) + m.code }
	remaining := map[string][]marker{}
	for _, g := range got {
		remaining[key(g)] = append(remaining[key(g)], g)
	}
	var missing []string
	for _, w := range want {
		k := key(w)
		if len(remaining[k]) == 0 {
			missing = append(missing, w.String())
			continue
		}
		g := remaining[k][0]
		remaining[k] = remaining[k][1:]
		if w.severity != "" && w.severity != g.severity {
			t.Errorf("%s: severity %s, want %s", w, g.severity, w.severity)
		}
	}
	var extra []string
	for _, gs := range remaining {
		for _, g := range gs {
			extra = append(extra, g.String())
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		var all []string
		for _, d := range snap.AllDiagnostics() {
			all = append(all, fmt.Sprintf("  %s:%d:%d %s %s", filepath.Base(d.File), d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code, d.Message))
		}
		t.Errorf("findings differ\nmissing (marked, not found):\n  %s\nunexpected (found, not marked):\n  %s\nall findings:\n%s",
			strings.Join(missing, "\n  "), strings.Join(extra, "\n  "), strings.Join(all, "\n"))
	}
}
