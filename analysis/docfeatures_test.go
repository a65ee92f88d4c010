package analysis

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// cursor marks the cursor in a fixture file; it is removed before writing.
const cursor = "‸"

// docRepo writes files (slash paths relative to a fresh folder) and
// returns the folder and the path and offset of the one cursor mark.
func docRepo(t *testing.T, files map[string]string) (dir, path string, offset int) {
	t.Helper()
	dir = t.TempDir()
	offset = -1
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if i := strings.Index(content, cursor); i >= 0 {
			if offset >= 0 {
				t.Fatalf("two cursor marks in the fixture")
			}
			content = content[:i] + content[i+len(cursor):]
			path, offset = p, i
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, path, offset
}

// slotsTest is a test file of more than ten lines.
const slotsTest = `import { describe, expect, it } from "vitest";

describe("save slots", () => {
  it("loads an empty slot", () => {
    expect(1).toBe(1);
  });

  it("writes then reads the same bytes", () => {
    expect(2).toBe(2);
  });

  it("real Pi keeps the slot after reload", () => {
    expect(3).toBe(3);
  });
});
`

// baseRepo is the repository the feature tests share; each test adds the
// document holding the cursor.
func baseRepo(doc string) map[string]string {
	return map[string]string{
		"tests/slots.test.ts":       slotsTest,
		"tests/migration.test.ts":   "test(\"upgrades a v1 save\", () => {});\n",
		"tests/unit/index.ts":       "export {};\n",
		"tests/.hidden.ts":          "",
		"tests/node_modules/x.js":   "",
		"README.md":                 "# Saves\n",
		"docs/notes.md":             "# Notes\n",
		"docs/acceptance.md":        doc,
		"pkg/manifest.json":         `{"opengdd": "0.9", "id": "p", "version": "0.1.0", "title": "P", "designer": {"name": "x"}, "target": {"platform": "web-2d", "genre": "puzzle"}}`,
		"pkg/tuning.json":           `{"values": {"saves.slot_count": 3}}`,
		"pkg/01-overview.md":        "# P\n",
		"pkg/02-mechanics.md":       "# Mechanics\n",
		"pkg/05-build-plan.md":      "# Build\n",
		"pkg/assets/slot-frame.svg": "<svg/>\n",
	}
}

func TestDocPathCompletion(t *testing.T) {
	tests := []struct {
		name     string
		file     string // the file holding the cursor; docs/acceptance.md when empty
		doc      string
		want     []string // labels, in order
		retrig   []string // labels that re-trigger completion
		editText string   // the text the edit of the first item replaces
	}{
		{name: "folder", doc: "See `tests/‸", want: []string{"tests/unit/", "tests/migration.test.ts", "tests/slots.test.ts"}, retrig: []string{"tests/unit/"}, editText: "tests/"},
		{name: "prefix", doc: "See `tests/sl‸` here.", want: []string{"tests/slots.test.ts"}, editText: "tests/sl"},
		{name: "prefix before closing text", doc: "See `tests/sl‸ots.ts` here.", want: []string{"tests/slots.test.ts"}, editText: "tests/slots.ts"},
		{name: "root prefix", doc: "See `te‸`.", want: []string{"tests/"}, retrig: []string{"tests/"}, editText: "te"},
		{name: "nested folder", doc: "`tests/unit/‸`", want: []string{"tests/unit/index.ts"}, editText: "tests/unit/"},
		{name: "hidden files on request", doc: "`tests/.h‸`", want: []string{"tests/.hidden.ts"}, editText: "tests/.h"},
		{name: "document folder", doc: "`./‸`", want: []string{"./acceptance.md", "./notes.md"}, editText: "./"},
		{name: "parent folder", doc: "`../tests/m‸`", want: []string{"../tests/migration.test.ts"}, editText: "../tests/m"},
		{name: "nothing before the first character", doc: "See `‸"},
		{name: "not a path", doc: "Run `npm run ‸`"},
		{name: "absolute", doc: "`/usr/‸`"},
		{name: "missing folder", doc: "`nowhere/‸`"},
		{name: "not in code", doc: "tests/‸"},
		{name: "in a fenced block", doc: "```\n`tests/‸`\n```\n"},
		{name: "package root", file: "pkg/05-build-plan.md", doc: "# Build\n\nSee `ass‸`.\n", want: []string{"assets/"}, retrig: []string{"assets/"}, editText: "ass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := baseRepo("# Acceptance\n")
			name := tt.file
			if name == "" {
				name = "docs/acceptance.md"
			}
			files[name] = tt.doc
			dir, path, offset := docRepo(t, files)
			s := Load([]string{dir}, Options{})
			var got []CompletionItem
			for _, it := range s.Complete(path, offset) {
				if it.Kind == CompleteFile {
					got = append(got, it)
				}
			}
			sort.SliceStable(got, func(i, j int) bool { return got[i].SortText < got[j].SortText })
			var gotLabels []string
			for _, it := range got {
				gotLabels = append(gotLabels, it.Label)
			}
			if strings.Join(gotLabels, " ") != strings.Join(tt.want, " ") {
				t.Fatalf("labels = %q, want %q", gotLabels, tt.want)
			}
			retrig := map[string]bool{}
			for _, l := range tt.retrig {
				retrig[l] = true
			}
			content := s.File(path).Content
			for _, it := range got {
				if it.Retrigger != retrig[it.Label] {
					t.Errorf("%s: Retrigger = %v", it.Label, it.Retrigger)
				}
				if it.Edit == nil || it.Edit.NewText != it.Label {
					t.Fatalf("%s: edit %+v", it.Label, it.Edit)
				}
				if old := string(content[it.Edit.Span.Start:it.Edit.Span.End]); old != tt.editText {
					t.Errorf("%s: the edit replaces %q, want %q", it.Label, old, tt.editText)
				}
			}
		})
	}
}

func TestDocHover(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		// want are substrings of the hover, in order; nil means no hover.
		want []string
		// not are substrings the hover must not hold.
		not []string
		// span is the hovered text.
		span string
	}{
		{name: "file", doc: "1. `tests/sl‸ots.test.ts` covers slots.\n",
			want: []string{"`tests/slots.test.ts`", "```ts\nimport { describe", `it("writes then reads the same bytes"`, "```", "… 6 more lines"},
			not:  []string{"real Pi keeps"}, span: "`tests/slots.test.ts`"},
		{name: "folder", doc: "All of `tes‸ts/` runs.\n", want: []string{"folder `tests/`, 3 entries", "`migration.test.ts`", "`slots.test.ts`", "`unit/`"},
			not: []string{".hidden", "node_modules"}, span: "`tests/`"},
		{name: "curly witness", doc: "1. `tests/slots.test.ts` — “writes then ‸reads the same bytes” compares.\n",
			want: []string{"`tests/slots.test.ts`, line 8", "```ts\n  });\n\n  it(\"writes then reads the same bytes\"", "expect(2).toBe(2);\n  });\n```"},
			not:  []string{"loads an empty slot"}, span: "“writes then reads the same bytes”"},
		{name: "straight witness", doc: "`tests/migration.test.ts` - \"upgrades a ‸v1 save\".\n",
			want: []string{"`tests/migration.test.ts`, line 1", "upgrades a v1 save"}, span: `"upgrades a v1 save"`},
		{name: "ellipsis witness", doc: "`tests/slots.test.ts` — “real Pi … after ‸reload”.\n",
			want: []string{"line 12", "real Pi keeps the slot after reload"}, span: "“real Pi … after reload”"},
		{name: "missing witness", doc: "`tests/slots.test.ts` — “restores after a ‸crash”.\n",
			want: []string{"test name not found in `tests/slots.test.ts`"}, span: "“restores after a crash”"},
		{name: "witness after a missing file", doc: "`tests/slots.test.ts` and `tests/gone.test.ts` — “loads an ‸empty slot”.\n"},
		{name: "quote without a path", doc: "The “quick ‸save” button.\n"},
		{name: "quote in another item", doc: "1. `tests/slots.test.ts`\n2. “loads an ‸empty slot”\n"},
		{name: "command", doc: "Run `npm run ‸test`.\n"},
		{name: "missing path", doc: "`tests/gone‸.test.ts`\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, path, offset := docRepo(t, baseRepo("# Acceptance\n\n"+tt.doc))
			s := Load([]string{dir}, Options{})
			h := s.Hover(path, offset)
			if tt.want == nil {
				if h != nil {
					t.Fatalf("hover = %q, want none", h.Markdown)
				}
				return
			}
			if h == nil {
				t.Fatalf("no hover")
			}
			rest := h.Markdown
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("hover lacks %q (in order):\n%s", w, h.Markdown)
				}
				rest = rest[i+len(w):]
			}
			for _, n := range tt.not {
				if strings.Contains(h.Markdown, n) {
					t.Errorf("hover holds %q:\n%s", n, h.Markdown)
				}
			}
			if got := string(s.File(path).Content[h.Span.Start:h.Span.End]); got != tt.span {
				t.Errorf("hover span = %q, want %q", got, tt.span)
			}
		})
	}
}

func TestDocDefinition(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		// file is the slash path of the target; "" means no definition.
		file string
		// text is the target span's text; "" means the top of the file.
		text string
	}{
		{name: "path", doc: "`tests/slo‸ts.test.ts`", file: "tests/slots.test.ts"},
		{name: "doc-relative path", doc: "`./notes‸.md`", file: "docs/notes.md"},
		{name: "parent path", doc: "`../README‸.md`", file: "README.md"},
		{name: "curly witness", doc: "- `tests/slots.test.ts` — “loads an ‸empty slot”", file: "tests/slots.test.ts", text: "loads an empty slot"},
		{name: "straight witness", doc: "- `tests/migration.test.ts` — \"upgrades ‸a v1 save\"", file: "tests/migration.test.ts", text: "upgrades a v1 save"},
		{name: "second path wins", doc: "- `tests/migration.test.ts` and `tests/slots.test.ts` — “loads an ‸empty slot”", file: "tests/slots.test.ts", text: "loads an empty slot"},
		{name: "ellipsis witness", doc: "`tests/slots.test.ts` — “real Pi ... after ‸reload”", file: "tests/slots.test.ts", text: "real Pi keeps the slot after reload"},
		{name: "on the quotation mark", doc: "`tests/slots.test.ts` — ‸“loads an empty slot”", file: "tests/slots.test.ts", text: "loads an empty slot"},
		{name: "missing witness", doc: "`tests/slots.test.ts` — “restores ‸after a crash”"},
		{name: "folder", doc: "`tes‸ts/`"},
		{name: "missing file", doc: "`tests/gone‸.test.ts`"},
		{name: "not a path", doc: "`go test ./..‸.`"},
		{name: "prose", doc: "plain te‸xt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, path, offset := docRepo(t, baseRepo("# Acceptance\n\n"+tt.doc+"\n"))
			s := Load([]string{dir}, Options{})
			locs := s.Definition(path, offset)
			if tt.file == "" {
				if len(locs) != 0 {
					t.Fatalf("definition = %+v, want none", locs)
				}
				return
			}
			if len(locs) != 1 {
				t.Fatalf("definition = %+v, want one location", locs)
			}
			l := locs[0]
			if want := filepath.Join(dir, filepath.FromSlash(tt.file)); l.File != want {
				t.Fatalf("file = %s, want %s", l.File, want)
			}
			content, err := os.ReadFile(l.File)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(content[l.Span.Start:l.Span.End]); got != tt.text {
				t.Errorf("span text = %q, want %q", got, tt.text)
			}
			if s.LinesOf(l.File) == nil {
				t.Errorf("LinesOf(%s) = nil, so the location cannot be converted", tt.file)
			}
		})
	}
}

// TestDocFixtureNavigation runs the features on the fixture repository.
func TestDocFixtureNavigation(t *testing.T) {
	root, err := filepath.Abs(docsRepo)
	if err != nil {
		t.Fatal(err)
	}
	s := Load([]string{root}, Options{})
	path := filepath.Join(root, "docs", "acceptance.md")
	content := s.File(path).Content
	at := func(text string) int {
		i := bytes.Index(content, []byte(text))
		if i < 0 {
			t.Fatalf("the fixture lacks %q", text)
		}
		return i + 1
	}
	locs := s.Definition(path, at("“keeps the player's name”"))
	if len(locs) != 1 || locs[0].File != filepath.Join(root, "tests", "migration.test.ts") {
		t.Fatalf("definition of the witness = %+v", locs)
	}
	lines := s.LinesOf(locs[0].File)
	if lines == nil || lines.Position(locs[0].Span.Start).Line != 7 {
		t.Errorf("the witness is not on line 8 of migration.test.ts")
	}
	if h := s.Hover(path, at("`tests/cloud-sync.test.ts`")); h != nil {
		t.Errorf("hover on a missing path: %q", h.Markdown)
	}
}

func TestLinesOf(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.ts"), []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, _, _ := docRepo(t, baseRepo("# A\n"))
	if err := os.WriteFile(filepath.Join(dir, "tests", "big.ts"), bytes.Repeat([]byte("x"), maxWitnessFileSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tests", "bin.dat"), []byte{'a', 0, 'b'}, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "tests", "escape.ts")
	haveLink := os.Symlink(filepath.Join(outside, "secret.ts"), link) == nil
	s := Load([]string{dir}, Options{})
	tests := []struct {
		path  string
		lines int // -1 for nil
	}{
		{filepath.Join(dir, "README.md"), 2},
		{filepath.Join(dir, "tests", "slots.test.ts"), 16},
		{filepath.Join(dir, "tests", "gone.ts"), -1},
		{filepath.Join(dir, "tests", "big.ts"), -1},
		{filepath.Join(dir, "tests", "bin.dat"), -1},
		{filepath.Join(dir, "tests"), -1},
		{filepath.Join(outside, "secret.ts"), -1},
	}
	if haveLink {
		tests = append(tests, struct {
			path  string
			lines int
		}{link, -1})
	}
	for _, tt := range tests {
		l := s.LinesOf(tt.path)
		switch {
		case tt.lines < 0 && l != nil:
			t.Errorf("LinesOf(%s) has %d lines, want nil", tt.path, l.LineCount())
		case tt.lines >= 0 && l == nil:
			t.Errorf("LinesOf(%s) = nil", tt.path)
		case tt.lines >= 0 && l.LineCount() != tt.lines:
			t.Errorf("LinesOf(%s) has %d lines, want %d", tt.path, l.LineCount(), tt.lines)
		}
	}
}

func TestFindWitness(t *testing.T) {
	const src = "// loads an empty slot is tested below\nit(\"loads an empty slot\", f);\nit('real Pi keeps the slot\n after reload', g);\nit(\"one … two\", h);\n"
	tests := []struct {
		name, want string
		line       int // zero-based line of the match; -1 for none
	}{
		{"loads an empty slot", "loads an empty slot", 1},
		{"  loads an empty slot ", "loads an empty slot", 1},
		{"real Pi keeps", "real Pi keeps", 2},
		{"real Pi … slot", "real Pi keeps the slot", 2},
		{"real … reload", "", -1}, // the parts are on two lines
		{"one … two", "one … two", 4},
		{"… two", "… two", 4}, // written with the ellipsis in the file
		{"… zzz", "", -1},
		{"", "", -1},
		{"missing", "", -1},
	}
	lines := func(off int) int { return strings.Count(src[:off], "\n") }
	for _, tt := range tests {
		sp, ok := findWitness([]byte(src), tt.name)
		if tt.line < 0 {
			if ok {
				t.Errorf("findWitness(%q) = %q, want none", tt.name, src[sp.Start:sp.End])
			}
			continue
		}
		if !ok {
			t.Errorf("findWitness(%q) found nothing", tt.name)
			continue
		}
		if got := src[sp.Start:sp.End]; got != tt.want || lines(sp.Start) != tt.line {
			t.Errorf("findWitness(%q) = %q on line %d, want %q on line %d", tt.name, got, lines(sp.Start), tt.want, tt.line)
		}
	}
}
