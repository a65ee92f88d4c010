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
