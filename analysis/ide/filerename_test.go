package ide

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
)

// findingKeys lists the findings of a snapshot as code, file (relative to
// root, after mapping it through moved) and line, sorted.
func findingKeys(s *analysis.Snapshot, root string, moved func(string) string) []string {
	var out []string
	for _, d := range s.AllDiagnostics() {
		rel, _ := filepath.Rel(root, moved(d.File))
		out = append(out, fmt.Sprintf("%s %s:%d", d.Code, filepath.ToSlash(rel), d.Range.Start.Line+1))
	}
	sort.Strings(out)
	return out
}

// renameOnDisk asks for the edits of renaming old to new (relative to
// root), applies them to the files, renames the file or folder, loads the
// tree again and requires the same findings as before, apart from findings
// with the codes in layout, which are about the new name itself. It returns
// the edited files, relative to root, with their new content.
func renameOnDisk(t *testing.T, root, old, new string, layout ...string) map[string]string {
	t.Helper()
	before := analysis.Load([]string{root}, analysis.Options{})
	oldAbs, newAbs := filepath.Join(root, filepath.FromSlash(old)), filepath.Join(root, filepath.FromSlash(new))
	edits, err := RenameFiles(before, []FileRename{{Old: oldAbs, New: newAbs}})
	if err != nil {
		t.Fatalf("RenameFiles(%s -> %s): %v", old, new, err)
	}
	fr := fileRenamer{renames: []FileRename{{Old: oldAbs, New: newAbs}}}
	out := map[string]string{}
	for path, es := range edits {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := applyEdits(t, string(data), es)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, fr.moved(path))
		out[filepath.ToSlash(rel)] = text
	}
	if err := os.MkdirAll(filepath.Dir(newAbs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(oldAbs, newAbs); err != nil {
		t.Fatal(err)
	}
	after := analysis.Load([]string{root}, analysis.Options{})
	want := findingKeys(before, root, fr.moved)
	var got []string
	for _, k := range findingKeys(after, root, func(p string) string { return p }) {
		code, _, _ := strings.Cut(k, " ")
		if !slices.Contains(layout, code) {
			got = append(got, k)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after renaming %s to %s the findings changed:\ngot  %q\nwant %q", old, new, got, want)
	}
	return out
}

// mustContain fails unless the edited file rel holds each of subs.
func mustContain(t *testing.T, edited map[string]string, rel string, subs ...string) {
	t.Helper()
	text, ok := edited[rel]
	if !ok {
		t.Fatalf("%s was not edited; edited: %v", rel, keysOf(edited))
	}
	for _, sub := range subs {
		if !strings.Contains(text, sub) {
			t.Errorf("%s does not contain %q after the edit", rel, sub)
		}
	}
}

func keysOf(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestRenameChapterFile(t *testing.T) {
	root := analysistest.CopyTree(t, analysistest.Testdata(t, "demo"))
	edited := renameOnDisk(t, root, "02-mechanics.md", "02-systems.md",
		"CHAPTER_NAME_RESERVED", "PACKAGE_REQUIRED_FILE") // 02-mechanics.md is a required chapter
	mustContain(t, edited, "contracts/garden-away.json", `"02-systems.md#crop-growth"`)
	mustContain(t, edited, "contracts/cauldron.json", `"02-systems.md#`)
	for rel, text := range edited {
		if strings.Contains(text, "02-mechanics.md#") {
			t.Errorf("%s still cites 02-mechanics.md#", rel)
		}
	}
}

func TestRenameAdoptionFile(t *testing.T) {
	root := analysistest.CopyTree(t, analysistest.Testdata(t, "demo"))
	edited := renameOnDisk(t, root, "contracts/daily-forage.json", "contracts/forage-day.json")
	mustContain(t, edited, "02-mechanics.md", "`contracts.forage-day.allowed-position-gap`")
	edited = renameOnDisk(t, root, "contracts/cauldron.json", "contracts/brew-pot.json")
	mustContain(t, edited, "02-mechanics.md", "`contracts.brew-pot`")
}

func TestRenameDocsFolderAndFile(t *testing.T) {
	root := analysistest.CopyTree(t, analysistest.Testdata(t, "docs-repo"))
	edited := renameOnDisk(t, root, "docs/design.md", "docs/notes/design.md")
	if len(edited) == 0 {
		t.Fatal("moving docs/design.md into a folder edited nothing")
	}
	edited = renameOnDisk(t, root, "tests/slots.test.ts", "tests/slot-store.test.ts")
	mustContain(t, edited, "docs/acceptance.md", "`tests/slot-store.test.ts`")
	edited = renameOnDisk(t, root, "docs/img/slots.svg", "docs/img/save-slots.svg")
	mustContain(t, edited, "docs/notes/design.md", "(../img/save-slots.svg)")
	renameOnDisk(t, root, "docs", "handbook")
	renameOnDisk(t, root, "design-pkg", "game")
}

func TestRenameFilesLinkForms(t *testing.T) {
	root := analysistest.WriteFiles(t, "", map[string]string{
		"a.md":        "# A\n\nSee [b](sub/b.md#b-head), [root](/sub/b.md), [dot](./sub/b.md?x=1) and [def].\n\n[def]: <sub/b.md> \"t\"\n\nAlso `sub/b.md` and [self](#a).\n",
		"sub/b.md":    "# B head\n\nBack to [a](../a.md) and [c](c.md) and ![img](pic.svg); see `./c.md`.\n",
		"sub/c.md":    "# C\n",
		"sub/pic.svg": "<svg/>",
	})
	edited := renameOnDisk(t, root, "sub/b.md", "other/b two.md")
	mustContain(t, edited, "a.md",
		"[b](other/b%20two.md#b-head)", "[root](/other/b%20two.md)", "[dot](./other/b%20two.md?x=1)",
		"[def]: <other/b two.md>", "`other/b two.md`", "[self](#a)")
	mustContain(t, edited, "other/b two.md", "[a](../a.md)", "[c](../sub/c.md)", "![img](../sub/pic.svg)", "`../sub/c.md`")
	edited = renameOnDisk(t, root, "sub", "lib")
	mustContain(t, edited, "other/b two.md", "[c](../lib/c.md)", "![img](../lib/pic.svg)")
}

func TestRenameAdoptionAddressInTuningRule(t *testing.T) {
	root := analysistest.CopyTree(t, analysistest.Testdata(t, "demo"))
	path := filepath.Join(root, "tuning.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), `"rules": {`, `"rules": {
    "gap-is-small": "combat.poison_duration_turns >= contracts.daily-forage.allowed-position-gap",
    "gap-escaped": "combat.poison_duration_turns >= contracts.daily\u002dforage.allowed-position-gap",`, 1)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	edited := renameOnDisk(t, root, "contracts/daily-forage.json", "contracts/forage.json")
	mustContain(t, edited, "tuning.json", `"gap-is-small": "combat.poison_duration_turns >= contracts.forage.allowed-position-gap"`,
		`"gap-escaped": "combat.poison_duration_turns >= contracts.forage.allowed-position-gap"`)
	mustContain(t, edited, "02-mechanics.md", "`contracts.forage.allowed-position-gap`")
}
