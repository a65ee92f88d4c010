package analysis

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/jsonsrc"
)

// fuzzKinds are the package files FuzzFormatFiles writes its input to, one
// of each JSON kind of the format, each with a small valid content that
// says nothing.
var fuzzKinds = []struct{ rel, empty string }{
	{"manifest.json", `{"opengdd": "0.9", "id": "lantern", "version": "1.0.0", "title": "Lantern", "designer": {"name": "fuzz"}, "target": {"platform": "web-2d", "genre": "puzzle"}}`},
	{"tuning.json", `{"values": {}}`},
	{"clocks.json", `{}`},
	{"personalization.json", `{"questions": []}`},
	{"direction.json", `{"viewing": {"speed_and_size": "s", "calibration": "c"}}`},
	{"contracts/lamp-oil.json", `{}`},
	{"contracts/lamp-oil-1.pack.json", `{"contract": "lamp-oil", "version": 1, "templates": []}`},
	{"collections/moths/_collection.json", `{"record": {}}`},
	{"collections/moths/dusk-moth.json", `{}`},
}

// FuzzFormatFiles puts arbitrary bytes into one JSON file of the format (the
// first byte picks which) and checks containment: the file's parse never
// panics; a file that is not valid JSON has its kind's syntax finding; and
// every finding on another file is one the package also has when the file
// is absent or holds a valid content that says nothing, so a broken file
// causes nothing elsewhere that could only come from its broken content.
func FuzzFormatFiles(f *testing.F) {
	dir := analysistest.WriteHostileIn(f, f.TempDir(), map[string][]byte{
		"02-mechanics.md": []byte("# Mechanics\n\n## Burning [WALKING] [SLEEPING]\n\nThe lantern holds `lantern.oil_units` units, on `clocks.night`, in `colors.amber` and `collections.moths.dusk-moth.speed`; see `contracts.lamp-oil.capacity`.\n"),
	})
	for i, seed := range []string{
		`{"values": {"lantern.oil_units": 12}}`,
		`{"night": {"unit": "seconds", "modes": {"walking": "running"}}`,
		`{"colors": {"amber": {"is": "#FFB000"}}, "anti": {"x": {"image": "assets/gone.png"}}}`,
		`{"speed": 3}`,
		"{\"contract\": \"lamp-oil\", \x00}",
		`[1, 2`,
		``,
	} {
		f.Add(byte(i), []byte(seed))
	}
	f.Fuzz(func(t *testing.T, which byte, data []byte) {
		k := fuzzKinds[int(which)%len(fuzzKinds)]
		rel := k.rel
		path := filepath.Join(dir, filepath.FromSlash(rel))
		kind, _ := FormatJSONKind(rel)
		broken := Load([]string{dir}, Options{Overlay: Overlay{path: data}})

		_, errs := jsonsrc.Parse(data)
		if len(errs) == 0 {
			return // a valid file may rightly cause findings elsewhere
		}
		{
			found := false
			for _, d := range broken.Diagnostics(path) {
				found = found || d.Code == kind.code
			}
			if !found {
				t.Fatalf("%s does not parse (%s) but has no %s: %v", rel, errs[0].Msg, kind.code, broken.Diagnostics(path))
			}
		}
		without := map[string]bool{}
		for _, content := range [][]byte{nil, []byte(k.empty)} {
			for _, d := range Load([]string{dir}, Options{Overlay: Overlay{path: content}}).AllDiagnostics() {
				without[diagKey(d)] = true
			}
		}
		for _, d := range broken.AllDiagnostics() {
			if d.File == path || d.Subject != "" {
				continue
			}
			if !without[diagKey(d)] {
				t.Fatalf("broken %s causes a finding that neither its absence nor an empty content does: %s %s %s", rel, d.File, d.Code, d.Message)
			}
		}
	})
}

// diagKey identifies a diagnostic by what a user sees of it.
func diagKey(d Diagnostic) string {
	return fmt.Sprintf("%s\x00%s\x00%v\x00%s", d.File, d.Code, d.Range, d.Message)
}
