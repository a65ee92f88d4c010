package ide

import (
	"path/filepath"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
)

// TestRenameRecordFile renames a record file in the editor: every citation
// and link of the record follows; a record moved to another collection
// keeps them as they are (they dangle, as for a removed record). Renaming
// the collection's folder rewrites its citations and the to naming it.
func TestRenameRecordFile(t *testing.T) {
	dir := analysistest.WriteFiles(t, "", map[string][]byte{
		"manifest.json":                      []byte(`{}`),
		"tuning.json":                        []byte(`{ "values": {} }`),
		"02-mechanics.md":                    []byte("# Mechanics\n\nThe `collections.moths.dusk.mate` of `collections.moths.dusk`.\n"),
		"collections/moths/_collection.json": []byte(`{ "record": { "mate": { "type": "link", "to": "moths" } } }`),
		"collections/moths/dusk.json":        []byte(`{ "mate": "dawn" }`),
		"collections/moths/dawn.json":        []byte(`{ "mate": "dusk" }`),
		"collections/owls/barn.json":         []byte(`{}`),
	})
	s := analysis.Load([]string{dir}, analysis.Options{})
	old := filepath.Join(dir, "collections", "moths", "dusk.json")
	count := func(edits map[string][]TextEdit) (n int, texts []string) {
		for _, es := range edits {
			for _, e := range es {
				n++
				texts = append(texts, e.NewText)
			}
		}
		return n, texts
	}
	edits, err := RenameFiles(s, []FileRename{{Old: old, New: filepath.Join(dir, "collections", "moths", "twilight.json")}})
	if err != nil {
		t.Fatal(err)
	}
	if n, texts := count(edits); n != 3 || len(edits[filepath.Join(dir, "02-mechanics.md")]) != 2 || len(edits[filepath.Join(dir, "collections", "moths", "dawn.json")]) != 1 {
		t.Errorf("rename in the folder: %d edits %v, want 2 in the chapter and 1 in dawn.json", n, texts)
	}
	for _, es := range edits {
		for _, e := range es {
			if e.NewText != "twilight" {
				t.Errorf("edit to %q, want twilight", e.NewText)
			}
		}
	}
	edits, err = RenameFiles(s, []FileRename{{Old: old, New: filepath.Join(dir, "collections", "owls", "dusk.json")}})
	if err != nil {
		t.Fatal(err)
	}
	if n, texts := count(edits); n != 0 {
		t.Errorf("a move to another collection rewrote %v", texts)
	}
	edits, err = RenameFiles(s, []FileRename{{Old: filepath.Join(dir, "collections", "moths"), New: filepath.Join(dir, "collections", "insects")}})
	if err != nil {
		t.Fatal(err)
	}
	if n, texts := count(edits); n != 3 || len(edits[filepath.Join(dir, "collections", "moths", "_collection.json")]) != 1 {
		t.Errorf("renaming the collection folder: %d edits %v, want 2 in the chapter and the to of the schema", n, texts)
	}
}
