package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
)

// TestDemoIsCleanOnceFixed applies the fix of each mistake that
// testdata/demo/README.md lists and requires the package to have no finding
// left: the demo's only findings are the planted ones.
func TestDemoIsCleanOnceFixed(t *testing.T) {
	dir := analysistest.CopyTree(t, filepath.Join("..", "testdata", "demo"))
	fixes := []struct{ file, from, to string }{
		{"contracts/cauldron.json", `"partial-work": "reset-at-stop"`, `"partial-work": "keep-with-job"`},
		{"contracts/cauldron.json", `"from-state": "stoped"`, `"from-state": "stopped"`},
		{"contracts/garden-away.json", `    "backward-clock-notice": "explain",` + "\n", ""},
		{"contracts/garden-away.json", `"02-mechanics.md#crop-growth"`, `"02-mechanics.md#crops-and-growth"`},
		{"contracts/status-windows.json", `        "clock": "02-mechanics.md#turn-clock",` + "\n" + `        "while-suspended": "stops",`, `        "clock": "02-mechanics.md#turn-clock",`},
		{"tuning.json", `"garden.growth_minutes_per_stage": 45`, `"garden.growth_minutes_per_stage": 25`},
		{"03-content.md", "`garden.growth_minutes`", "`garden.growth_minutes_per_stage`"},
		{"manifest.json", `"builder": 20`, `"builder": 30`},
		{"01-overview.md", ", one bottle every `cauldron.brew_minutes`.", " one bottle at a time."},
		{"05-build-plan.md", `"seeds": "the morning seed of each day"`, `"seeds": ["the morning seed of each day"]`},
	}
	for _, fx := range fixes {
		path := filepath.Join(dir, filepath.FromSlash(fx.file))
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), fx.from) {
			t.Fatalf("%s no longer holds %q: update this test with the demo", fx.file, fx.from)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(string(data), fx.from, fx.to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if ds := Load([]string{dir}, Options{}).AllDiagnostics(); len(ds) != 0 {
		for _, d := range ds {
			t.Errorf("%s:%d:%d %s %s", filepath.Base(d.File), d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code, d.Message)
		}
	}
}

// TestDemoExpected requires the demo's findings to be exactly the list of
// testdata/demo/EXPECTED.txt, which its README describes.
func TestDemoExpected(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "testdata", "demo"))
	if err != nil {
		t.Fatal(err)
	}
	got := findingLines(t, Load([]string{root}, Options{}), root)
	if want := readExpected(t, filepath.Join(root, "EXPECTED.txt")); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings differ from EXPECTED.txt\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
