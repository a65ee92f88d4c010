package analysis

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/jsonsrc"
)

func TestRuntimeDeclared(t *testing.T) {
	dir := analysistest.WriteFiles(t, "", analysistest.RuntimePackage(
		`{"world": {"unit": "s", "advances": ["runtime.scan", "runtime.tide"], "modes": {"playing": "running", "paused": "paused"}}}`,
		"# Mechanics\n\nThe scanner moves `runtime.scan` and `runtime.battery.level`; `runtime.` and `runtime..x` are no addresses.\n"))
	p := Load([]string{dir}, Options{}).Packages[0]
	for addr, want := range map[string]bool{
		"runtime.scan": true, "runtime.tide": true, "runtime.battery.level": true, "runtime.mood": true,
		"runtime.fenced": false, "runtime.nested": false, "runtime.readme": false, "runtime.": false, "runtime.battery": false,
	} {
		if got := p.RuntimeDeclared(addr); got != want {
			t.Errorf("RuntimeDeclared(%s) = %v, want %v", addr, got, want)
		}
	}
	if got := strings.Join(p.RuntimeAddresses(), " "); got != "runtime.scan runtime.tide runtime.mood runtime.battery.level" {
		t.Errorf("RuntimeAddresses = %s", got)
	}
	ds := p.RuntimeDeclarations("runtime.scan")
	if len(ds) != 2 || ds[0].Clock != "world" || filepath.Base(ds[1].File) != "02-mechanics.md" {
		t.Fatalf("declarations of runtime.scan = %+v", ds)
	}
	for _, d := range ds {
		content := p.files.get(p.Rel(d.File)).Content
		if got := string(content[d.Span.Start:d.Span.End]); got != "runtime.scan" {
			t.Errorf("declaration in %s spans %q", d.File, got)
		}
	}
}

func TestCheckUnchangedInPackage(t *testing.T) {
	const clocksJSON = `{"world": {"unit": "s", "advances": ["runtime.scan"], "modes": {"playing": "running", "paused": "paused"}}}`
	const mechanics = "# Mechanics\n\nThe battery is `runtime.battery`.\n"
	unchanged, _ := jsonsrc.Parse([]byte(`{"modes": ["paused", "playing"], "values": ["runtime.scan", "runtime.battery", "runtime.ghost"]}`))
	codes := func(files map[string][]byte) (string, []dep) {
		p := Load([]string{analysistest.WriteFiles(t, "", files)}, Options{}).Packages[0]
		var deps []dep
		note := func(kind depKind, key string) {
			d := dep{kind: kind, key: key}
			d.seen = p.token(d, nil)
			deps = append(deps, d)
		}
		var out []string
		for _, f := range p.checkUnchanged(unchanged, filepath.Join(p.Root, "05-build-plan.md"), note) {
			out = append(out, f.Code)
		}
		return strings.Join(out, " "), deps
	}
	if got, deps := codes(analysistest.RuntimePackage(clocksJSON, mechanics)); got != "UNCHANGED_ADVANCES RUNTIME_UNDECLARED" || len(deps) != 4 {
		t.Errorf("with clocks.json: %s, %d deps", got, len(deps))
	}
	if got, _ := codes(analysistest.RuntimePackage("", mechanics)); got != "UNCHANGED_NO_CLOCKS RUNTIME_UNDECLARED RUNTIME_UNDECLARED" {
		t.Errorf("without clocks.json: %s", got)
	}
	if got, _ := codes(analysistest.RuntimePackage(`{"world": `, mechanics)); got != "" {
		t.Errorf("with a clocks.json that does not parse: %s", got)
	}
	// A dependency on a named address follows the chapters.
	files := analysistest.RuntimePackage(clocksJSON, mechanics)
	dir := analysistest.WriteFiles(t, "", files)
	ws := NewWorkspace([]string{dir}, Options{})
	p := ws.Snapshot().Packages[0]
	d := dep{kind: depRuntime, key: "runtime.ghost"}
	d.seen = p.token(d, nil)
	ws.SetOverlay(filepath.Join(dir, "02-mechanics.md"), []byte(mechanics+"\nAnd `runtime.ghost`.\n"))
	if p2 := ws.Snapshot().Packages[0]; p2.depsValid([]dep{d}, p.sourcesOf([]dep{d}), nil) {
		t.Error("declaring runtime.ghost in a chapter left the dependency valid")
	}
}
