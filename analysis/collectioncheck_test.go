package analysis

import (
	"path/filepath"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/analysis/collections"
)

// TestEditRechecksOnlyThatRecord checks that an edit of one record reuses
// the schema checks of the other records, that the checks across records
// run again after an edit of a record and not after an edit of a chapter,
// and that an edit of the schema file re-checks every record of its
// collection.
func TestEditRechecksOnlyThatRecord(t *testing.T) {
	dir := analysistest.WriteFiles(t, "", map[string][]byte{
		"manifest.json":                      []byte(`{}`),
		"tuning.json":                        []byte(`{ "values": {} }`),
		"collections/moths/_collection.json": []byte(`{ "record": { "speed": { "type": "number" }, "mate": { "type": "link", "to": "moths" } } }`),
		"collections/moths/dusk.json":        []byte(`{ "speed": 1, "mate": "dawn" }`),
		"collections/moths/dawn.json":        []byte(`{ "speed": 2, "mate": "dusk" }`),
		"collections/moths/gloom.json":       []byte(`{ "speed": 3 }`),
	})
	ws := NewWorkspace([]string{dir}, Options{})
	results := func() map[string]*collections.Checked {
		s := ws.Snapshot()
		out := map[string]*collections.Checked{}
		for _, id := range []string{"dusk", "dawn", "gloom"} {
			f := s.File(filepath.Join(dir, "collections", "moths", id+".json"))
			if f == nil || f.entry.recordChecked == nil {
				t.Fatalf("record %s was not checked", id)
			}
			out[id] = f.entry.recordChecked.checked
		}
		return out
	}
	before := results()
	ws.SetOverlay(filepath.Join(dir, "collections", "moths", "gloom.json"), []byte(`{ "speed": 4 }`))
	after := results()
	for id, r := range after {
		if changed := r != before[id]; changed != (id == "gloom") {
			t.Errorf("record %s re-checked: %v, want %v", id, changed, id == "gloom")
		}
	}
	// The links are checked across the records: again after an edit of a
	// record, not after an edit elsewhere.
	schema := filepath.Join(dir, "collections", "moths", "_collection.json")
	cross := func() *crossMemo { return ws.Snapshot().File(schema).entry.crossChecked }
	links := cross()
	ws.SetOverlay(filepath.Join(dir, "02-mechanics.md"), []byte("# Mechanics\n\nThe `collections.moths`.\n"))
	if cross() != links || links == nil {
		t.Error("an edit of a chapter re-ran the link checks of the records")
	}
	ws.SetOverlay(filepath.Join(dir, "collections", "moths", "gloom.json"), []byte(`{ "speed": 5, "mate": "dusk" }`))
	if cross() == links {
		t.Error("an edit of a record did not re-run the link checks")
	}
	after = results()
	ws.SetOverlay(schema, []byte(`{ "record": { "speed": { "type": "integer" }, "mate": { "type": "link", "to": "moths" } } }`))
	for id, r := range results() {
		if r == after[id] {
			t.Errorf("editing the schema did not re-check record %s", id)
		}
	}
}

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
	s := Load([]string{dir}, Options{})
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
	edits, err := s.RenameFiles([]FileRename{{Old: old, New: filepath.Join(dir, "collections", "moths", "twilight.json")}})
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
	edits, err = s.RenameFiles([]FileRename{{Old: old, New: filepath.Join(dir, "collections", "owls", "dusk.json")}})
	if err != nil {
		t.Fatal(err)
	}
	if n, texts := count(edits); n != 0 {
		t.Errorf("a move to another collection rewrote %v", texts)
	}
	edits, err = s.RenameFiles([]FileRename{{Old: filepath.Join(dir, "collections", "moths"), New: filepath.Join(dir, "collections", "insects")}})
	if err != nil {
		t.Fatal(err)
	}
	if n, texts := count(edits); n != 3 || len(edits[filepath.Join(dir, "collections", "moths", "_collection.json")]) != 1 {
		t.Errorf("renaming the collection folder: %d edits %v, want 2 in the chapter and the to of the schema", n, texts)
	}
}
