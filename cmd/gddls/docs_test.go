package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
)

// repoRoot is the top of the repository, seen from this package.
var repoRoot = filepath.Join("..", "..")

// manualText returns the text of every page of the manual, docs/*.md,
// joined.
func manualText(t *testing.T) string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages in docs/ (%v)", err)
	}
	var b strings.Builder
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestDocsNameEveryFlag requires every flag of every gddls subcommand to
// appear in docs/ as the pages write flags (`--name`, or `-name`), so a new
// flag cannot ship undocumented.
func TestDocsNameEveryFlag(t *testing.T) {
	text := manualText(t)
	checkSet, _ := newCheckFlags(io.Discard)
	migrateSet, _ := newMigrateFlags(io.Discard)
	flags := map[string][]string{
		// runServe reads its arguments by hand rather than with a flag set.
		"serve": {"stdio", "clientProcessId"},
	}
	for cmd, fs := range map[string]*flag.FlagSet{"check": checkSet, "migrate": migrateSet} {
		fs.VisitAll(func(f *flag.Flag) { flags[cmd] = append(flags[cmd], f.Name) })
	}
	if len(flags["check"]) == 0 || len(flags["migrate"]) == 0 {
		t.Fatalf("no flags read from the flag sets: %v", flags)
	}
	for _, cmd := range []string{"check", "migrate", "serve"} {
		for _, name := range flags[cmd] {
			if !flagPattern(name).MatchString(text) {
				t.Errorf("gddls %s --%s appears nowhere in docs/*.md; document it (docs/CLI.md)", cmd, name)
			}
		}
	}
}

// TestDocsNameEveryToolFlag requires every flag of the measuring tools
// cmd/gddls-gen and cmd/gddls-load to appear in docs/. They are other
// programs, so their flags are read from the flag definitions in their
// source.
func TestDocsNameEveryToolFlag(t *testing.T) {
	text := manualText(t)
	for _, tool := range []string{"gddls-gen", "gddls-load"} {
		names, err := sourceFlags(filepath.Join(repoRoot, "cmd", tool, "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(names) == 0 {
			t.Fatalf("%s: no flag definitions found", tool)
		}
		for _, name := range names {
			if !flagPattern(name).MatchString(text) {
				t.Errorf("%s -%s appears nowhere in docs/*.md; document it (docs/DEVELOPMENT.md)", tool, name)
			}
		}
	}
}

// flagPattern matches the flag name written with one or two dashes as a
// whole word.
func flagPattern(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^-\w])--?` + regexp.QuoteMeta(name) + `([^-\w]|$)`)
}

// sourceFlags returns the names of the flags the Go file at path defines
// with the flag package's methods (fs.String("name", ...),
// fs.IntVar(&v, "name", ...) and the like).
func sourceFlags(path string) ([]string, error) {
	file, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return nil, err
	}
	var names []string
	ast.Inspect(file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		arg := -1
		switch sel.Sel.Name {
		case "String", "Bool", "Int", "Int64", "Uint", "Uint64", "Float64", "Duration":
			arg = 0
		case "StringVar", "BoolVar", "IntVar", "Int64Var", "UintVar", "Uint64Var", "Float64Var", "DurationVar":
			arg = 1
		}
		if arg < 0 || len(call.Args) <= arg {
			return true
		}
		if lit, ok := call.Args[arg].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if name, err := strconv.Unquote(lit.Value); err == nil {
				names = append(names, name)
			}
		}
		return true
	})
	return names, nil
}

// TestDocsNameEverySetting requires every setting and command the VS Code
// extension contributes (editors/vscode/package.json) to appear in docs/.
func TestDocsNameEverySetting(t *testing.T) {
	text := manualText(t)
	data, err := os.ReadFile(filepath.Join(repoRoot, "editors", "vscode", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"configuration"`
			Commands []struct {
				Command string `json:"command"`
			} `json:"commands"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatalf("editors/vscode/package.json: %v", err)
	}
	var names []string
	for key := range pkg.Contributes.Configuration.Properties {
		names = append(names, key)
	}
	for _, c := range pkg.Contributes.Commands {
		names = append(names, c.Command)
	}
	if len(pkg.Contributes.Configuration.Properties) == 0 || len(pkg.Contributes.Commands) == 0 {
		t.Fatalf("no settings or commands read from editors/vscode/package.json")
	}
	slices.Sort(names)
	for _, name := range names {
		// The name stands alone: not the start of a longer dotted name
		// (gddls.inlayHints is not gddls.inlayHints.headings), though a
		// sentence may end after it.
		re := regexp.MustCompile(`(^|[^\w.])` + regexp.QuoteMeta(name) + `([^\w.]|\.([^\w]|$)|$)`)
		if !re.MatchString(text) {
			t.Errorf("%s of editors/vscode/package.json appears nowhere in docs/*.md; document it (docs/EDITORS.md)", name)
		}
	}
}

// TestDocsLinksResolve checks the manual with gddls itself: no relative
// link or image of README.md, docs/ or the editors' READMEs names a file,
// folder or anchor that does not exist (DOC_LINK_FILE, DOC_LINK_ANCHOR,
// DOC_LINK_AMBIGUOUS).
func TestDocsLinksResolve(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range manualLinkFindings(root, nil) {
		t.Error(f)
	}
	// The check sees the pages: a dead link planted in docs/README.md is
	// found.
	index := filepath.Join(root, "docs", "README.md")
	data, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	planted := append(slices.Clip(data), "\n[gone](no-such-page.md)\n"...)
	if got := manualLinkFindings(root, analysis.Overlay{index: planted}); len(got) != 1 || !strings.Contains(got[0], "DOC_LINK_FILE") {
		t.Errorf("a dead link planted in docs/README.md: got %q, want one DOC_LINK_FILE", got)
	}
}

// manualLinkFindings loads the repository at root, with overlay, and
// returns its link findings in the pages of the manual, each as
// "file:line:col: CODE message".
func manualLinkFindings(root string, overlay analysis.Overlay) []string {
	manual := func(rel string) bool {
		return rel == "README.md" || strings.HasPrefix(rel, "docs/") ||
			rel == "editors/README-snippets.md" || rel == "editors/vscode/README.md"
	}
	var out []string
	for _, d := range analysis.Load([]string{root}, analysis.Options{Overlay: overlay}).AllDiagnostics() {
		rel, err := filepath.Rel(root, d.File)
		if err != nil || !manual(filepath.ToSlash(rel)) || !strings.HasPrefix(d.Code, "DOC_LINK_") {
			continue
		}
		out = append(out, fmt.Sprintf("%s:%d:%d: %s %s", filepath.ToSlash(rel), d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code, d.Message))
	}
	return out
}
