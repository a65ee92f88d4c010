package analysis

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
)

// modulePath is the module's import path, the prefix of every package of
// the repository.
const modulePath = "github.com/gddls/gddls"

// layerRule forbids the packages under From (an import path, or a path
// ending in "/..." for a package and everything below it) to import,
// directly or through other packages of the module, any package under one
// of Not. Except lists packages under From the rule does not cover.
type layerRule struct {
	From   string
	Except []string
	Not    []string
}

// layerRules are the import rules of ARCHITECTURE.md: the format packages
// and analysis know nothing of the queries or the protocol, the queries
// know nothing of the protocol, and the protocol layer nothing of the
// command line.
var layerRules = []layerRule{
	{From: modulePath + "/contracts/...", Not: []string{modulePath + "/analysis/...", modulePath + "/lsp/...", modulePath + "/cmd/...", "go.lsp.dev/..."}},
	{From: modulePath + "/analysis/...", Except: []string{modulePath + "/analysis/ide/..."}, Not: []string{modulePath + "/analysis/ide/...", modulePath + "/lsp/...", modulePath + "/cmd/...", "go.lsp.dev/..."}},
	{From: modulePath + "/analysis/ide/...", Not: []string{modulePath + "/lsp/...", modulePath + "/cmd/...", "go.lsp.dev/..."}},
	{From: modulePath + "/lsp/...", Not: []string{modulePath + "/cmd/..."}},
}

// under reports whether the import path pkg matches pattern, an import path
// or one ending in "/..." for a package and everything below it.
func under(pkg, pattern string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == pattern
}

// layerViolations returns, for every rule, the packages it covers that
// reach a forbidden package through imports, as "from → … → to" chains.
// imports maps each package of the module to the paths it imports, of the
// module and outside it.
func layerViolations(imports map[string][]string, rules []layerRule) []string {
	var out []string
	pkgs := make([]string, 0, len(imports))
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, r := range rules {
		for _, from := range pkgs {
			if !under(from, r.From) || slices.ContainsFunc(r.Except, func(e string) bool { return under(from, e) }) {
				continue
			}
			// A breadth-first walk keeps the shortest chain to each package.
			via := map[string]string{from: ""}
			queue := []string{from}
			for len(queue) > 0 {
				p := queue[0]
				queue = queue[1:]
				for _, q := range imports[p] {
					if _, seen := via[q]; seen {
						continue
					}
					via[q] = p
					if slices.ContainsFunc(r.Not, func(n string) bool { return under(q, n) }) {
						chain := []string{q}
						for at := p; at != ""; at = via[at] {
							chain = append(chain, at)
						}
						slices.Reverse(chain)
						out = append(out, strings.Join(chain, " → "))
						continue
					}
					queue = append(queue, q)
				}
			}
		}
	}
	return out
}

// moduleImports reads the import clauses of every non-test Go file of the
// module under root and returns each package's imports.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	imports := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != root && (name == "testdata" || strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		pkg := path.Join(modulePath, filepath.ToSlash(rel))
		for _, is := range f.Imports {
			ip, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				return err
			}
			if !slices.Contains(imports[pkg], ip) {
				imports[pkg] = append(imports[pkg], ip)
			}
		}
		if _, ok := imports[pkg]; !ok {
			imports[pkg] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatalf("reading the module's imports: %v", err)
	}
	return imports
}

// TestLayers holds the module to the import rules of ARCHITECTURE.md, read
// from the import clauses of its sources, so that the layering is kept by
// a test and not only by convention.
func TestLayers(t *testing.T) {
	root, err := analysistest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "analysis", "ide")); err != nil {
		t.Fatalf("the query package is missing: %v", err)
	}
	imports := moduleImports(t, root)
	for _, must := range []string{modulePath + "/analysis", modulePath + "/analysis/ide", modulePath + "/lsp", modulePath + "/contracts"} {
		if _, ok := imports[must]; !ok {
			t.Fatalf("the walk found no package %s; it is broken", must)
		}
	}
	for _, v := range layerViolations(imports, layerRules) {
		t.Errorf("forbidden import chain: %s", v)
	}
}

// TestLayerViolations checks the rule walk on planted import graphs: a
// direct and an indirect forbidden import are found, with their chains,
// and excepted packages and allowed imports are not.
func TestLayerViolations(t *testing.T) {
	const (
		ana = modulePath + "/analysis"
		ide = modulePath + "/analysis/ide"
		lsp = modulePath + "/lsp"
		md  = modulePath + "/analysis/markdown"
	)
	for _, tc := range []struct {
		name    string
		imports map[string][]string
		want    []string
	}{
		{"clean", map[string][]string{
			ana: {md, "strings"}, ide: {ana, md}, lsp: {ide, ana, "go.lsp.dev/protocol"}, md: nil,
		}, nil},
		{"a check calls a query", map[string][]string{
			ana: {ide}, ide: {ana}, md: nil,
		}, []string{ana + " → " + ide}},
		{"a format package reaches the protocol through another", map[string][]string{
			md: {modulePath + "/analysis/tuning"}, modulePath + "/analysis/tuning": {"go.lsp.dev/protocol"},
		}, []string{md + " → " + modulePath + "/analysis/tuning → go.lsp.dev/protocol", modulePath + "/analysis/tuning → go.lsp.dev/protocol"}},
		{"the queries import the server", map[string][]string{
			ide: {lsp}, lsp: {ide},
		}, []string{ide + " → " + lsp}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := layerViolations(tc.imports, layerRules)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}
