package lsp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// entry is what the no-writes test records of a file or folder.
type entry struct {
	mode  fs.FileMode
	size  int64
	mtime int64 // nanoseconds
	hash  string
}

// record walks a tree and returns every entry by path relative to root.
func record(t *testing.T, root string) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		e := entry{mode: info.Mode(), size: info.Size(), mtime: info.ModTime().UnixNano()}
		if d.Type().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			e.hash = hex.EncodeToString(sum[:])
		}
		rel, _ := filepath.Rel(root, path)
		out[filepath.ToSlash(rel)] = e
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// makeReadOnly removes every write permission bit under root and restores
// them when the test ends, so that the temporary folder can be removed.
func makeReadOnly(t *testing.T, root string) {
	t.Helper()
	var paths []string
	filepath.WalkDir(root, func(path string, _ fs.DirEntry, err error) error {
		if err == nil {
			paths = append(paths, path)
		}
		return nil
	})
	for _, p := range paths {
		info, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, info.Mode().Perm()&^0o222); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil {
				if d.IsDir() {
					os.Chmod(path, 0o755)
				} else {
					os.Chmod(path, 0o644)
				}
			}
			return nil
		})
	})
}

// TestNoWritesDuringSession runs a whole editing session on a read-only
// copy of the demo package, with every feature including renames (whose
// WorkspaceEdits the server must return, not apply), and checks that no
// byte, size, mode or modification time changed and that no file was
// created or deleted, in the package or in the server's home, config,
// cache and temporary folders. Permission bits alone prove nothing when
// the tests run as root, hence the hashes.
func TestNoWritesDuringSession(t *testing.T) {
	root := copyDemo(t)
	home := t.TempDir()
	env := append([]string{
		"HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "TMPDIR=" + home,
	}, hooks...)
	makeReadOnly(t, root)
	before := record(t, root)

	c := start(t, env)
	caps := map[string]any{
		"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}, "applyEdit": true},
		"window":    map[string]any{"workDoneProgress": true},
	}
	c.initialize(root, caps, fastDiagnostics)
	c.awaitDiagnostics(0, fileURI(filepath.Join(root, "contracts", "garden-away.json")), "initial diagnostics", nonEmpty)

	// Open every chapter, adoption and other package file.
	var docs []string
	for rel := range before {
		if strings.HasSuffix(rel, ".md") || strings.HasSuffix(rel, ".json") {
			docs = append(docs, filepath.Join(root, filepath.FromSlash(rel)))
		}
	}
	slices.Sort(docs)
	for _, p := range docs {
		c.open(p, readFile(t, p), 1)
	}
	doc := func(p string) map[string]any { return map[string]any{"uri": fileURI(p)} }
	mech := filepath.Join(root, "02-mechanics.md")
	tuning := filepath.Join(root, "tuning.json")
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	forage := filepath.Join(root, "contracts", "daily-forage.json")

	// Unsaved edits: a new heading in a chapter, a wrong answer in an
	// adoption.
	c.change(mech, 2, []int{0, 0, 0, 0}, "# Draft notes\n\n")
	answer := posOf(t, forage, `"continue-and-flag"`, 1)
	c.change(forage, 2, []int{answer["line"], answer["character"], answer["line"], answer["character"] + 8}, "carry-on")
	if got := c.content(mech); !strings.HasPrefix(got, "# Draft notes\n\n# Mechanics") {
		t.Fatalf("the unsaved edit did not reach the workspace: %.40q", got)
	}

	// Navigation.
	citation := posOf(t, cauldron, `"02-mechanics.md#brewing"`, len(`"02-mechanics.md#br`))
	c.result("textDocument/completion", map[string]any{"textDocument": doc(cauldron), "position": posOf(t, cauldron, `"02-mechanics.md#brewing"`, len(`"02-mechanics.md#`))}, nil)
	c.result("textDocument/completion", map[string]any{"textDocument": doc(mech), "position": map[string]int{"line": 9, "character": 30}}, nil)
	c.result("textDocument/hover", map[string]any{"textDocument": doc(cauldron), "position": citation}, nil)
	c.result("textDocument/definition", map[string]any{"textDocument": doc(cauldron), "position": citation}, nil)
	// The edit moved the heading down two lines.
	heading := posOf(t, mech, "### Brewing", 5)
	heading["line"] += 2
	c.result("textDocument/references", map[string]any{"textDocument": doc(mech), "position": heading, "context": map[string]any{"includeDeclaration": true}}, nil)
	c.result("workspace/symbol", map[string]any{"query": "brew"}, nil)

	// Renames of a heading and of a tuning key answer WorkspaceEdits.
	key := posOf(t, tuning, `"forage.turns_per_day"`, 3)
	for _, r := range []struct {
		name    string
		path    string
		pos     map[string]int
		newName string
	}{
		{"heading", mech, heading, "Simmering"},
		{"tuning key", tuning, key, "forage.turns_per_run"},
	} {
		var prep *struct {
			Placeholder string `json:"placeholder"`
		}
		c.result("textDocument/prepareRename", map[string]any{"textDocument": doc(r.path), "position": r.pos}, &prep)
		if prep == nil || prep.Placeholder == "" {
			t.Errorf("prepareRename of the %s = %+v, want a placeholder", r.name, prep)
		}
		var edit struct {
			Changes map[string][]json.RawMessage `json:"changes"`
		}
		c.result("textDocument/rename", map[string]any{"textDocument": doc(r.path), "position": r.pos, "newName": r.newName}, &edit)
		if len(edit.Changes) == 0 {
			t.Errorf("rename of the %s answered no edits", r.name)
		}
	}

	// Code actions for every published diagnostic.
	actions := 0
	pubs := c.settleAll(0)
	for _, p := range docs {
		pub := pubs[fileURI(p)]
		for _, d := range pub.Diagnostics {
			raw, _ := json.Marshal(d)
			var got []json.RawMessage
			c.result("textDocument/codeAction", map[string]any{
				"textDocument": doc(p), "range": d.Range,
				"context": map[string]any{"diagnostics": []json.RawMessage{raw}},
			}, &got)
			actions += len(got)
		}
	}
	if actions == 0 {
		t.Errorf("no code action for any diagnostic")
	}

	// Lenses, links and symbols of every document; tests of every adoption.
	for _, p := range docs {
		c.result("textDocument/codeLens", map[string]any{"textDocument": doc(p)}, nil)
		c.result("textDocument/documentLink", map[string]any{"textDocument": doc(p)}, nil)
		c.result("textDocument/documentSymbol", map[string]any{"textDocument": doc(p)}, nil)
		if strings.Contains(p, string(filepath.Separator)+"contracts"+string(filepath.Separator)) {
			m := c.call("workspace/executeCommand", map[string]any{"command": RenderTestsCommand, "arguments": []string{fileURI(p)}})
			if !sensible(m) {
				t.Errorf("rendering the tests of %s: error %+v", p, m.Error)
			}
		}
	}

	for _, p := range docs {
		c.notify("textDocument/didClose", map[string]any{"textDocument": doc(p)})
	}
	c.result("workspace/symbol", map[string]any{"query": ""}, nil)
	c.shutdown()

	for _, m := range c.since(0) {
		if m.Method == "workspace/applyEdit" {
			t.Errorf("the server asked the client to apply an edit: %s", m.Params)
		}
	}
	after := record(t, root)
	for rel, b := range before {
		a, ok := after[rel]
		switch {
		case !ok:
			t.Errorf("%s was deleted", rel)
		case a != b:
			t.Errorf("%s changed: before %+v, after %+v", rel, b, a)
		}
	}
	for rel := range after {
		if _, ok := before[rel]; !ok {
			t.Errorf("%s was created", rel)
		}
	}
	if left := record(t, home); len(left) != 1 {
		t.Errorf("the server wrote in its home, config, cache or temporary folder: %v", left)
	}
}
