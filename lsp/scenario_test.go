package lsp

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/gddls/gddls/contracts/source"
)

// The scenarios below are the ones a designer meets most: they run against
// a copy of the demo package through the real binary.

// hasCode reports whether a publication holds a diagnostic with code.
func hasCode(code string) func(publication) bool {
	return func(p publication) bool {
		for _, d := range p.Diagnostics {
			if d.Code == code {
				return true
			}
		}
		return false
	}
}

func lacksCode(code string) func(publication) bool {
	has := hasCode(code)
	return func(p publication) bool { return !has(p) }
}

// applyEdits applies LSP text edits to text.
func applyEdits(text string, edits []textEditJSON) string {
	sort.Slice(edits, func(i, j int) bool {
		a, b := edits[i].Range.Start, edits[j].Range.Start
		return a.Line > b.Line || (a.Line == b.Line && a.Character > b.Character)
	})
	for _, e := range edits {
		lines := source.NewLines([]byte(text))
		start := lines.Offset(source.Position{Line: e.Range.Start.Line, Character: e.Range.Start.Character})
		end := lines.Offset(source.Position{Line: e.Range.End.Line, Character: e.Range.End.Character})
		text = text[:start] + e.NewText + text[end:]
	}
	return text
}

type textEditJSON struct {
	Range   rangeJSON `json:"range"`
	NewText string    `json:"newText"`
}

// TestForbiddenPairAppearsAndClears edits the answers of an adoption in an
// unsaved buffer: the forbidden combination's diagnostic, with the rule's
// own message, clears when one answer changes and comes back with it.
func TestForbiddenPairAppearsAndClears(t *testing.T) {
	root := copyDemo(t)
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	text := readFile(t, cauldron)
	u := fileURI(cauldron)
	c := start(t, nil)
	c.initialize(root, nil, nil)
	p, next := c.awaitDiagnostics(0, u, "the forbidden pair on start", hasCode("CONTRACT_RULE_FORBIDDEN"))
	for _, d := range p.Diagnostics {
		if d.Code == "CONTRACT_RULE_FORBIDDEN" && !strings.Contains(d.Message, "Inputs claimed as work advances") {
			t.Errorf("the finding does not carry the rule's message: %q", d.Message)
		}
	}
	c.open(cauldron, text, 1)
	allowed := strings.Replace(text, `"partial-work": "reset-at-stop"`, `"partial-work": "keep-with-job"`, 1)
	c.change(cauldron, 2, nil, allowed)
	_, next = c.awaitDiagnostics(next, u, "the pair cleared", lacksCode("CONTRACT_RULE_FORBIDDEN"))
	c.change(cauldron, 3, nil, text)
	p, _ = c.awaitDiagnostics(next, u, "the pair back", hasCode("CONTRACT_RULE_FORBIDDEN"))
	if p.Version != 3 {
		t.Errorf("publication version = %d, want 3", p.Version)
	}
	c.shutdown()
}

// TestUnsavedHeadingRenameBreaksCitations renames a heading in an unsaved
// chapter: the adoption citing it reports the dangling citation at once,
// and restoring the heading clears it.
func TestUnsavedHeadingRenameBreaksCitations(t *testing.T) {
	root := copyDemo(t)
	mech := filepath.Join(root, "02-mechanics.md")
	cauldron := fileURI(filepath.Join(root, "contracts", "cauldron.json"))
	text := readFile(t, mech)
	c := start(t, nil)
	c.initialize(root, nil, nil)
	_, next := c.awaitDiagnostics(0, cauldron, "the adoption's findings on start", nonEmpty)
	c.open(mech, text, 1)
	c.change(mech, 2, nil, strings.Replace(text, "### Brewing\n", "### Brewing potions\n", 1))
	p, next := c.awaitDiagnostics(next, cauldron, "dangling citations of #brewing", hasCode("CONTRACT_CITATION_DANGLING"))
	dangling := 0
	for _, d := range p.Diagnostics {
		if d.Code == "CONTRACT_CITATION_DANGLING" && strings.Contains(d.Message, "brewing") {
			dangling++
		}
	}
	if dangling == 0 {
		t.Errorf("no dangling citation names #brewing: %+v", p.Diagnostics)
	}
	c.change(mech, 3, nil, text)
	p, _ = c.awaitDiagnostics(next, cauldron, "the citations restored", func(p publication) bool {
		for _, d := range p.Diagnostics {
			if d.Code == "CONTRACT_CITATION_DANGLING" && strings.Contains(d.Message, "brewing") {
				return false
			}
		}
		return true
	})
	c.shutdown()
}

// TestCompletionInHalfTypedCitation completes the anchor of an unclosed
// citation string, as a designer is typing it.
func TestCompletionInHalfTypedCitation(t *testing.T) {
	root := copyDemo(t)
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	text := readFile(t, cauldron)
	typed := strings.Replace(text, `"job-declared-in": "02-mechanics.md#brewing",`, `"job-declared-in": "02-mechanics.md#bre`, 1)
	c := start(t, nil)
	c.initialize(root, nil, nil)
	c.open(cauldron, typed, 1)
	i := strings.Index(typed, `"02-mechanics.md#bre`) + len(`"02-mechanics.md#bre`)
	line := strings.Count(typed[:i], "\n")
	col := len(utf16.Encode([]rune(typed[strings.LastIndex(typed[:i], "\n")+1 : i])))
	var list struct {
		Items []struct {
			Label string `json:"label"`
		} `json:"items"`
	}
	c.result("textDocument/completion", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(cauldron)},
		"position":     map[string]int{"line": line, "character": col},
	}, &list)
	found := false
	for _, it := range list.Items {
		found = found || it.Label == "brewing"
	}
	if !found {
		t.Errorf("completion after \"02-mechanics.md#bre offers no brewing: %+v", list.Items)
	}
	c.shutdown()
}

// TestRenameHeadingLeavesRepositoryClean renames a heading through the
// server, applies the returned WorkspaceEdit the way an editor does (as
// unsaved buffers), and checks that every citation still resolves.
func TestRenameHeadingLeavesRepositoryClean(t *testing.T) {
	root := copyDemo(t)
	mech := filepath.Join(root, "02-mechanics.md")
	c := start(t, []string{"GDDLS_TEST_HOOKS=1"})
	c.initialize(root, nil, nil)
	mark := c.mark()
	pos := posOf(t, mech, "### Brewing", len("### Br"))
	var edit struct {
		Changes map[string][]textEditJSON `json:"changes"`
	}
	c.result("textDocument/rename", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(mech)}, "position": pos, "newName": "Brewing potions",
	}, &edit)
	if len(edit.Changes) < 2 {
		t.Fatalf("rename changed %d files, want the chapter and the adoptions citing it: %+v", len(edit.Changes), edit.Changes)
	}
	cauldron := fileURI(filepath.Join(root, "contracts", "cauldron.json"))
	if _, ok := edit.Changes[cauldron]; !ok {
		t.Fatalf("the rename does not rewrite cauldron.json, which cites the heading")
	}
	renamed := map[string]string{}
	for u, edits := range edit.Changes {
		path, ok := pathOf(u)
		if !ok {
			t.Fatalf("the rename edits %s, which names no file", u)
		}
		renamed[u] = applyEdits(readFile(t, path), edits)
		c.open(path, renamed[u], 7)
	}
	// The rename leaves the adoption's findings as they were, so the server
	// has nothing new to publish for it; one more edit that fixes its
	// misspelt option makes it publish the state after the rename.
	fixed := strings.Replace(renamed[cauldron], `"stoped"`, `"stopped"`, 1)
	c.change(filepath.Join(root, "contracts", "cauldron.json"), 8, nil, fixed)
	p, _ := c.awaitDiagnostics(mark, cauldron, "the adoption after the rename", func(p publication) bool { return p.Version == 8 })
	if hasCode("CONTRACT_ROW_CHOICE")(p) {
		t.Errorf("the last edit was not applied: %+v", p.Diagnostics)
	}
	for _, d := range p.Diagnostics {
		if d.Code == "CONTRACT_CITATION_DANGLING" {
			t.Errorf("dangling citation after the rename: %s", d.Message)
		}
	}
	mechText := c.content(mech)
	if !strings.Contains(mechText, "### Brewing potions\n") {
		t.Errorf("the heading was not renamed in the buffer")
	}
	if got := readFile(t, mech); strings.Contains(got, "Brewing potions") {
		t.Errorf("the server wrote the file on disk")
	}
	c.shutdown()
}

// TestNonASCIIHeading cites, completes and resolves a heading with
// non-ASCII letters.
func TestNonASCIIHeading(t *testing.T) {
	root := copyDemo(t)
	mech := filepath.Join(root, "02-mechanics.md")
	windows := filepath.Join(root, "contracts", "status-windows.json")
	mechText := readFile(t, mech) + "\n## Ärger über Öfen\n\nA kiln that overheats sulks for a turn.\n"
	winText := readFile(t, windows)
	cite := `"opens-at": "02-mechanics.md#`
	i := strings.Index(winText, cite)
	if i < 0 {
		t.Fatalf("status-windows.json has no %s", cite)
	}
	j := i + len(cite) + strings.Index(winText[i+len(cite):], `"`)
	cited := winText[:i+len(cite)] + "ärger-über-öfen" + winText[j:]
	c := start(t, nil)
	c.initialize(root, nil, nil)
	mark := c.mark()
	c.open(mech, mechText, 1)
	c.open(windows, cited, 1)
	p, _ := c.awaitDiagnostics(mark, fileURI(windows), "the adoption citing the new heading", func(p publication) bool { return p.Version == 1 })
	for _, d := range p.Diagnostics {
		if d.Code == "CONTRACT_CITATION_DANGLING" {
			t.Errorf("the non-ASCII anchor does not resolve: %s", d.Message)
		}
	}
	k := strings.Index(cited, "ärger-über-öfen") + len("ä")
	line := strings.Count(cited[:k], "\n")
	col := len(utf16.Encode([]rune(cited[strings.LastIndex(cited[:k], "\n")+1 : k])))
	var list struct {
		Items []struct {
			Label string `json:"label"`
		} `json:"items"`
	}
	c.result("textDocument/completion", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(windows)},
		"position":     map[string]int{"line": line, "character": col},
	}, &list)
	found := false
	for _, it := range list.Items {
		found = found || it.Label == "ärger-über-öfen"
	}
	if !found {
		t.Errorf("completion inside the anchor offers no ärger-über-öfen")
	}
	var locs []struct {
		URI   string    `json:"uri"`
		Range rangeJSON `json:"range"`
	}
	c.result("textDocument/definition", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(windows)},
		"position":     map[string]int{"line": line, "character": col},
	}, &locs)
	if len(locs) != 1 || locs[0].URI != fileURI(mech) || locs[0].Range.Start.Line != strings.Count(mechText[:strings.Index(mechText, "## Ärger")], "\n") {
		t.Errorf("definition of the citation = %+v, want the heading in 02-mechanics.md", locs)
	}
	c.shutdown()
}

// TestRenamedTestSeenThroughWatchedFiles renames a test in a source file on
// disk, as git or another editor would: the file event makes the quoted
// test name of the Markdown map dangle, and restoring it clears the finding.
func TestRenamedTestSeenThroughWatchedFiles(t *testing.T) {
	root := writeFiles(t, map[string]string{
		"docs/map.md":        "# Map\n\n- `tests/lamp.test.ts` — “lights when full” checks the flame.\n",
		"tests/lamp.test.ts": "it(\"lights when full\", () => {});\n",
	})
	test := filepath.Join(root, "tests", "lamp.test.ts")
	doc := fileURI(filepath.Join(root, "docs", "map.md"))
	c := start(t, nil)
	c.initialize(root, nil, map[string]any{"gddls": map[string]any{"diagnosticsDelay": 10}})
	mark := c.mark()
	if err := os.WriteFile(test, []byte("it(\"lights when the oil is full\", () => {});\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": fileURI(test), "type": 2}}})
	_, next := c.awaitDiagnostics(mark, doc, "the witness missing after the rename", hasCode("DOC_WITNESS_MISSING"))
	if err := os.WriteFile(test, []byte("it(\"lights when full\", () => {});\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": fileURI(test), "type": 2}}})
	c.awaitDiagnostics(next, doc, "the witness found again", lacksCode("DOC_WITNESS_MISSING"))
	c.shutdown()
}
