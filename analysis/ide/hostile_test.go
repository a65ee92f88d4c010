package ide

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/source"
)

// The hostile-input tests of package analysis load damaged packages with
// Load and then run every editor query over the damaged files, at many
// offsets: nothing may panic or hang, and nothing outside the roots may be
// read. The command-level tests (cmd/gddls/hostile_test.go) cover the
// findings themselves.

const hostileLimit = 30 * time.Second

// hostileRun runs fn in a goroutine and fails the test on a panic or when
// fn does not return within hostileLimit (a hang detector, not a speed
// requirement).
func hostileRun(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan string, 1)
	go func() {
		msg := ""
		defer func() {
			if p := recover(); p != nil {
				msg = fmt.Sprintf("%v\n%s", p, debug.Stack())
			}
			done <- msg
		}()
		fn()
	}()
	select {
	case msg := <-done:
		if msg != "" {
			t.Fatalf("%s panicked: %s", what, msg)
		}
	case <-time.After(hostileLimit):
		t.Fatalf("%s did not return within %v (hang?)", what, hostileLimit)
	}
}

// hostileBase returns the base adoption text.
func hostileBase(t *testing.T) string {
	t.Helper()
	files := analysistest.ArchiveFiles(analysistest.ReadArchive(t, filepath.Join("..", "..", "testdata", "hostile", "lamp.txtar")))
	adoption, ok := files["contracts/lamp-oil.json"]
	if !ok {
		t.Fatal("lamp.txtar has no adoption")
	}
	return string(adoption)
}

// TestHostileBaseFixtureClean makes sure the fixture reports nothing.
func TestHostileBaseFixtureClean(t *testing.T) {
	s := analysis.Load([]string{analysistest.WriteHostile(t, nil)}, analysis.Options{})
	if ds := s.AllDiagnostics(); len(ds) != 0 {
		t.Fatalf("the base fixture reports %d findings, first %s %s", len(ds), ds[0].Code, ds[0].Message)
	}
}

// queryEverywhere runs every per-file and per-offset query of the snapshot
// on path, at every offset of a small file and at a sample of offsets of a
// big one, plus the offsets just outside the file.
func queryEverywhere(s *analysis.Snapshot, path string) {
	f := s.File(path)
	n := 0
	if f != nil {
		n = len(f.Content)
	}
	step := 1
	if n > 4000 {
		step = n / 2000
	}
	offsets := []int{-1, n + 1, n + 100}
	for off := 0; off <= n; off += step {
		offsets = append(offsets, off)
	}
	DocumentSymbols(s, path)
	DocumentLinks(s, path)
	CodeLenses(s, path)
	LinesOf(s, path)
	_, _ = RenderTests(s, path)
	WorkspaceSymbols(s, "")
	WorkspaceSymbols(s, "lamp")
	InlayHints(s, path, source.Span{Start: 0, End: n})
	FoldingRanges(s, path)
	SemanticTokens(s, path)
	SourceActions(s, path)
	SelectionRanges(s, path, offsets)
	_, _ = RenameFiles(s, []FileRename{{Old: path, New: path + ".moved.json"}})
	for _, off := range offsets {
		DocumentHighlights(s, path, off)
		Complete(s, path, off)
		Hover(s, path, off)
		Definition(s, path, off)
		References(s, path, off, true)
		if _, _, err := PrepareRename(s, path, off); err == nil {
			_, _ = Rename(s, path, off, "renamed-x")
		}
		CodeActions(s, path, source.Span{Start: off, End: off})
		CodeActions(s, path, source.Span{Start: off - 3, End: off + 3})
	}
}

// TestHostileQueries damages the package in many ways and runs every query
// over the damaged file.
func TestHostileQueries(t *testing.T) {
	base := hostileBase(t)
	const adoption = "contracts/lamp-oil.json"
	cases := map[string]map[string][]byte{}
	for _, cut := range []int{1, 17, 100, len(base) / 2, len(base) - 5} {
		cases[fmt.Sprintf("adoption cut at %d", cut)] = map[string][]byte{adoption: []byte(base[:cut])}
	}
	for _, top := range []string{"[]", `"x"`, "null", "1e400", "{}", `{"contract": null}`} {
		cases["adoption "+top] = map[string][]byte{adoption: []byte(top)}
		cases["tuning "+top] = map[string][]byte{"tuning.json": []byte(top)}
		cases["pack "+top] = map[string][]byte{"contracts/lamp-oil-1.pack.json": []byte(top)}
	}
	for _, repl := range []string{"null", "1", `"x"`, "[]", "{}", "true"} {
		for _, field := range []string{`"questions": `, `"declares": `, `"values": `, `"rows": `, `"rules": `, `"answers": `, `"record": `, `"options": `} {
			i := strings.Index(base, field)
			if i < 0 {
				t.Fatalf("no %s in the base adoption", field)
			}
			// Replace the value that follows the field name up to its
			// matching close, found by counting brackets.
			j := i + len(field)
			end := matchEnd(base, j)
			cases[fmt.Sprintf("%s%s", field, repl)] = map[string][]byte{adoption: []byte(base[:j] + repl + base[end:])}
		}
	}
	cases["CRLF adoption"] = map[string][]byte{adoption: []byte(strings.ReplaceAll(base, "\n", "\r\n"))}
	cases["CR adoption"] = map[string][]byte{adoption: []byte(strings.ReplaceAll(base, "\n", "\r"))}
	cases["BOM adoption"] = map[string][]byte{adoption: []byte("\ufeff" + base)}
	cases["invalid UTF-8 adoption"] = map[string][]byte{adoption: []byte(strings.Replace(base, "Oil in", "Oil \xff\xc3 in", 1))}
	cases["astral adoption"] = map[string][]byte{adoption: []byte(strings.Replace(base, `"summary": "Oil in the lamp."`, `"summary": "😀😀 Oil \u2028 in the lamp.", "_x😀": 1`, 1))}
	cases["deep adoption"] = map[string][]byte{adoption: []byte(`{"contract": "lamp-oil", "questions": ` + strings.Repeat("[", 600))}
	cases["rule garbage"] = map[string][]byte{adoption: []byte(strings.Replace(base, `"capacity >= 1"`, `"((((capacity >= min(,,)) ) + - * / 1e999 > capacity.x.y"`, 1))}
	cases["chapter CRLF and tags"] = map[string][]byte{"02-mechanics.md": []byte("# Mechanics\r\n\r\n> DELEGATED: burn\r\n> > RULESET: r\r\n## Burning\r\n\r\n`lantern.oil_units` `contracts.lamp-oil.capacity` [x](#burning) [y](01-overview.md#nope)\r\n")}
	cases["chapter invalid UTF-8"] = map[string][]byte{"02-mechanics.md": []byte("# Mech\xffanics\n\n## Burn\xc3ing\n\n`lantern.\xffoil` [x](\xff.md#\xfe)\n")}
	cases["chapter BOM"] = map[string][]byte{"02-mechanics.md": []byte("\ufeff# Mechanics\n\n## Burning\n\n`lantern.oil_units`\n")}
	cases["chapter empty"] = map[string][]byte{"02-mechanics.md": {}}
	cases["tuning CRLF garbage"] = map[string][]byte{"tuning.json": []byte("{\r\n\"values\": {\"lantern.oil_units\": 1e400, \"a\": -0, \"b.c\": 1E+2},\r\n\"ranges\": {\"b.c\": [1]}, \"rules\": {\"x\": \"b.c >\"}")}
	pers := `{"questions": [{"id": "oil", "prompt": "How much oil?", "type": "choice", "options": [{"id": "lots", "label": "Lots", "sets": {"lantern.oil_units": 12, "contracts.lamp-oil.capacity": 1, "x": "y"}}, {"id": "lots"}], "default": "lot"}, {"id": "burn", "prompt": "?", "type": "number", "default": 2e999, "sets": "lantern.oil_units"}, {"id": "oil", "prompt": "\u00e9", "type": "text", "default": 1, "sets": {}, "options": 3}]}`
	for cut := 0; cut <= len(pers); cut += 9 {
		cases[fmt.Sprintf("personalization cut at %d", cut)] = map[string][]byte{"personalization.json": []byte(pers[:cut])}
	}
	cases["personalization CRLF and tags"] = map[string][]byte{
		"personalization.json": []byte(strings.ReplaceAll(pers, ", ", ",\r\n")),
		"02-mechanics.md":      []byte("# Mechanics\r\n\r\n> PERSONALIZATION: oil\r\n> > PERSONALIZATION:\r\n>PERSONALIZATION: bu\r\n## Burning\r\n"),
	}
	for name, changes := range cases {
		t.Run(name, func(t *testing.T) {
			dir := analysistest.WriteHostile(t, changes)
			var s *analysis.Snapshot
			hostileRun(t, "Load", func() { s = analysis.Load([]string{dir}, analysis.Options{}) })
			for rel := range changes {
				path := filepath.Join(dir, filepath.FromSlash(rel))
				hostileRun(t, "queries on "+rel, func() { queryEverywhere(s, path) })
			}
			// A query on a file the snapshot does not hold must not panic.
			hostileRun(t, "queries on a missing file", func() { queryEverywhere(s, filepath.Join(dir, "no-such.md")) })
		})
	}
}

// matchEnd returns the offset just after the JSON value that starts at or
// after i in s (skipping spaces), counting brackets outside strings.
func matchEnd(s string, i int) int {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	depth, inStr := 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
			if !inStr && depth == 0 {
				return i + 1
			}
		case inStr:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

// TestHostileNoReadOutside checks that symbolic links, citations and links
// that lead outside the root put nothing from outside into the snapshot.
func TestHostileNoReadOutside(t *testing.T) {
	base := hostileBase(t)
	secret := "# Secret\n\n## Root\n\nTOP-SECRET-CONTENT `lantern.secret`\n"
	dir := analysistest.WriteHostile(t, map[string][]byte{
		"contracts/lamp-oil.json": []byte(strings.Replace(base, `"02-mechanics.md#burning"`, `"../outside/secret.md#root"`, 1)),
		"03-content.md":           []byte("# Content\n\n[a](../outside/secret.md#root) [b](../../../../etc/passwd) [c](/../outside/secret.md)\n"),
	})
	outside := filepath.Join(filepath.Dir(dir), "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		filepath.Join(dir, "04-presentation.md"):  filepath.Join(outside, "secret.md"),
		filepath.Join(dir, "notes", "rel.md"):     filepath.Join("..", "..", "outside", "secret.md"),
		filepath.Join(dir, "outside-dir"):         outside,
		filepath.Join(dir, "notes", "up"):         "..",
		filepath.Join(dir, "contracts", "x.json"): filepath.Join(outside, "secret.md"),
	}
	for link, target := range links {
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("cannot make symbolic links: %v", err)
		}
	}
	var s *analysis.Snapshot
	hostileRun(t, "Load", func() { s = analysis.Load([]string{dir}, analysis.Options{}) })
	for _, f := range s.Files() {
		if !analysis.Within(dir, f.Path) {
			t.Errorf("the snapshot holds %s, outside the root", f.Path)
		}
		if bytes.Contains(f.Content, []byte("TOP-SECRET-CONTENT")) {
			t.Errorf("the snapshot read the outside file through %s", f.Path)
		}
		real, err := filepath.EvalSymlinks(f.Path)
		if err == nil && !analysis.Within(dir, real) {
			t.Errorf("%s resolves to %s, outside the root", f.Path, real)
		}
	}
	for _, d := range s.AllDiagnostics() {
		if strings.Contains(d.Message, "lantern.secret") || !analysis.Within(dir, d.File) {
			t.Errorf("a finding shows the outside file was read: %s %s %s", d.File, d.Code, d.Message)
		}
	}
	hostileRun(t, "queries", func() {
		for _, f := range s.Files() {
			queryEverywhere(s, f.Path)
			for _, loc := range Definition(s, f.Path, 0) {
				if !analysis.Within(dir, loc.File) {
					t.Errorf("definition leads outside the root: %s", loc.File)
				}
			}
		}
	})
}

// TestHostileOverlay gives Load overlays that are outside the root, binary,
// oversized or deleting.
func TestHostileOverlay(t *testing.T) {
	dir := analysistest.WriteHostile(t, nil)
	outside := filepath.Join(filepath.Dir(dir), "outside.md")
	overlay := analysis.Overlay{
		outside:                                   []byte("# Outside\n\n`lantern.secret`\n"),
		"relative.md":                             []byte("# Relative\n"),
		filepath.Join(dir, "..", "escape.md"):     []byte("# Escape\n"),
		filepath.Join(dir, "03-content.md"):       append([]byte("# Content\n\n[gone](gone.md)"), 0),
		filepath.Join(dir, "04-presentation.md"):  bytes.Repeat([]byte("word "), 400),
		filepath.Join(dir, "tuning.json"):         nil,
		filepath.Join(dir, "contracts", "a.json"): []byte(strings.Repeat("[", 600)),
	}
	var s *analysis.Snapshot
	hostileRun(t, "Load", func() { s = analysis.Load([]string{dir}, analysis.Options{Overlay: overlay, MaxFileSize: 1000}) })
	for _, f := range s.Files() {
		if !analysis.Within(dir, f.Path) {
			t.Errorf("overlay file %s outside the root entered the snapshot", f.Path)
		}
	}
	codes := map[string]string{}
	for _, d := range s.AllDiagnostics() {
		codes[d.File] += d.Code + " "
	}
	for file, want := range map[string]string{
		"03-content.md":      "DOC_LINK_FILE", // NUL bytes do not stop Markdown
		"04-presentation.md": "FILE_NOT_ANALYSED",
		"contracts/a.json":   "CONTRACT_INSTANCE_JSON",
	} {
		if got := codes[filepath.Join(dir, filepath.FromSlash(file))]; !strings.Contains(got, want) {
			t.Errorf("%s: codes %q, want %s", file, got, want)
		}
	}
	hostileRun(t, "queries", func() {
		for path := range overlay {
			queryEverywhere(s, path)
		}
	})
}
