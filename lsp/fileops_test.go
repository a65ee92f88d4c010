package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// currentFindings flushes the server's diagnostics and returns the last
// publication of every file as "code file:line" strings relative to root,
// sorted; codes in skip are left out.
func (c *client) currentFindings(root string, skip ...string) []string {
	c.t.Helper()
	c.result("gddls/test.flush", nil, nil)
	last := map[string]publication{}
	for _, m := range c.since(0) {
		if m.Method == "textDocument/publishDiagnostics" {
			p := decodePublication(c.t, m)
			last[p.URI] = p
		}
	}
	var out []string
	for u, p := range last {
		path, _ := pathOf(u)
		rel, _ := filepath.Rel(root, path)
		for _, d := range p.Diagnostics {
			if !slices.Contains(skip, d.Code) {
				out = append(out, fmt.Sprintf("%s %s:%d", d.Code, filepath.ToSlash(rel), d.Range.Start.Line+1))
			}
		}
	}
	sort.Strings(out)
	return out
}

// renameCaps declares file rename operations.
var renameCaps = map[string]any{"workspace": map[string]any{"fileOperations": map[string]any{"willRename": true, "didRename": true}}}

// workspaceEditJSON is a WorkspaceEdit with changes by URI.
type workspaceEditJSON struct {
	Changes map[string][]textEditJSON `json:"changes"`
}

// renameThroughServer asks the server for the edit of renaming old to new
// under root, applies it to the files, renames the file or folder, sends
// didRenameFiles and requires the same findings as before (apart from the
// codes in layout, which are about the new name itself). It returns the
// edit.
func renameThroughServer(t *testing.T, c *client, root, old, new string, layout ...string) workspaceEditJSON {
	t.Helper()
	before := c.currentFindings(root, layout...)
	if len(before) == 0 {
		t.Fatal("no findings before the rename: the comparison would prove nothing")
	}
	oldPath, newPath := filepath.Join(root, filepath.FromSlash(old)), filepath.Join(root, filepath.FromSlash(new))
	files := []map[string]string{{"oldUri": fileURI(oldPath), "newUri": fileURI(newPath)}}
	var edit *workspaceEditJSON
	c.result("workspace/willRenameFiles", map[string]any{"files": files}, &edit)
	if edit == nil || len(edit.Changes) == 0 {
		t.Fatalf("willRenameFiles %s -> %s proposed no edit", old, new)
	}
	var changed []map[string]any
	for u, edits := range edit.Changes {
		changed = append(changed, map[string]any{"uri": u, "type": 2})
		path, ok := pathOf(u)
		if !ok {
			t.Fatalf("bad URI %s", u)
		}
		text := applyEdits(readFile(t, path), edits)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Rename(oldPath, newPath); err != nil {
		t.Fatal(err)
	}
	// The edited files changed on disk, as the client's file watcher
	// reports; the rename itself comes as didRenameFiles alone.
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": changed})
	c.notify("workspace/didRenameFiles", map[string]any{"files": files})
	for i, k := range before {
		code, place, _ := strings.Cut(k, " ")
		if rest, ok := strings.CutPrefix(place, old); ok && (strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "/")) {
			before[i] = code + " " + new + rest
		}
	}
	sort.Strings(before)
	if after := c.currentFindings(root, layout...); !reflect.DeepEqual(after, before) {
		t.Errorf("after renaming %s to %s the findings changed:\ngot  %q\nwant %q", old, new, after, before)
	}
	return *edit
}

func TestWillRenameFilesDemo(t *testing.T) {
	root := copyDemo(t)
	c := start(t, hooks)
	if announced(t, c.initialize(root, nil, nil), "workspace") {
		t.Error("file operations announced to a client that does not declare them")
	}
	c.shutdown()
	c = start(t, hooks)
	res := c.initialize(root, renameCaps, nil)
	var init struct {
		Capabilities struct {
			Workspace struct {
				FileOperations struct {
					WillRename struct {
						Filters []json.RawMessage `json:"filters"`
					} `json:"willRename"`
					DidRename *json.RawMessage `json:"didRename"`
				} `json:"fileOperations"`
			} `json:"workspace"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(res, &init); err != nil {
		t.Fatal(err)
	}
	if fo := init.Capabilities.Workspace.FileOperations; len(fo.WillRename.Filters) == 0 || fo.DidRename == nil {
		t.Errorf("fileOperations not announced: %s", res)
	}
	edit := renameThroughServer(t, c, root, "02-mechanics.md", "02-systems.md", "CHAPTER_NAME_RESERVED", "PACKAGE_REQUIRED_FILE")
	if got := edit.Changes[fileURI(filepath.Join(root, "contracts", "cauldron.json"))]; len(got) == 0 {
		t.Error("the edit does not rewrite the citations of cauldron.json")
	}
	edit = renameThroughServer(t, c, root, "contracts/cauldron.json", "contracts/brew-pot.json")
	found := false
	for _, e := range edit.Changes[fileURI(filepath.Join(root, "02-systems.md"))] {
		found = found || e.NewText == "brew-pot"
	}
	if !found {
		t.Errorf("the edit does not rewrite contracts.cauldron in the chapter: %+v", edit.Changes)
	}
	c.shutdown()
}

func TestWillRenameFilesDocsRepo(t *testing.T) {
	root := copyTestdata(t, "docs-repo")
	c := start(t, hooks)
	c.initialize(root, renameCaps, nil)
	edit := renameThroughServer(t, c, root, "docs", "handbook")
	for u := range edit.Changes {
		if strings.Contains(u, "/docs/") {
			continue
		}
		return // at least one file outside the folder was edited
	}
	t.Errorf("renaming docs/ edited only files inside it: %v", edit.Changes)
	c.shutdown()
}
