package ide

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts/source"
)

// RenameWithFiles is Rename for a rename that also moves files: a record
// id is the name of its record file (SPEC §1b), so renaming a record
// renames collections/<c>/<id>.json and rewrites every citation and link
// of it. The edits apply to the files at their old paths, before the
// moves. For any other rename the moves are empty.
func RenameWithFiles(s *analysis.Snapshot, path string, offset int, newName string) (map[string][]TextEdit, []FileRename, error) {
	site, err := renameSiteAt(s, path, offset)
	if err != nil {
		return nil, nil, err
	}
	if site.record != nil {
		return renameRecord(s, *site.record, newName)
	}
	edits, err := Rename(s, path, offset, newName)
	return edits, nil, err
}

// renameRecord returns the edits and the file move that rename record t,
// or the folder move that renames collection t.
func renameRecord(s *analysis.Snapshot, t targetKey, newID string) (map[string][]TextEdit, []FileRename, error) {
	if t.kind == targetCollection {
		return renameCollection(s, t, newID)
	}
	p := packageAt(s, t.scope)
	if p == nil || p.Collections[t.name] == nil {
		return nil, nil, fmt.Errorf("the package has no collection %s", t.name)
	}
	c := p.Collections[t.name]
	if _, ok := c.Records[t.sub]; !ok {
		return nil, nil, fmt.Errorf("collection %s has no record %s", t.name, t.sub)
	}
	if !source.IsKebab(newID) {
		return nil, nil, fmt.Errorf("%q is not a valid record id: a record id is kebab-case (lowercase letters and digits joined by single hyphens)", newID)
	}
	if newID == t.sub {
		return map[string][]TextEdit{}, nil, nil
	}
	if _, taken := c.Records[newID]; taken {
		return nil, nil, fmt.Errorf("collection %s already has the record %s", t.name, newID)
	}
	edits, err := rewriteAll(s, t, newID)
	if err != nil {
		return nil, nil, err
	}
	return edits, []FileRename{{Old: c.RecordPath(t.sub), New: c.RecordPath(newID)}}, nil
}

// record rewrites the citations and links of a record file that a rename
// moves to another name in the same collection folder. A record moved out
// of its folder leaves them to dangle, as any removed record does.
func (fr *fileRenamer) record(p *analysis.Package, c *analysis.Collection, id string) error {
	old := c.RecordPath(id)
	moved := fr.moved(old)
	if moved == old {
		return nil
	}
	newID, ok := strings.CutSuffix(filepath.Base(moved), ".json")
	if !ok || filepath.Dir(moved) != fr.moved(c.Dir) || newID == id || newID == "_collection" {
		return nil
	}
	t := targetKey{kind: targetRecord, scope: p.Root, name: c.ID, sub: id}
	for _, r := range citeIndex(fr.snap).byTarget[t] {
		if !fr.w.rewrite(r, newID) {
			return fr.stuck(r)
		}
	}
	return nil
}

// renameCollection returns the edits and the folder move that rename a
// collection: every collections.<id> address in prose and rules and every
// to naming it.
func renameCollection(s *analysis.Snapshot, t targetKey, newID string) (map[string][]TextEdit, []FileRename, error) {
	p := packageAt(s, t.scope)
	if p == nil || p.Collections[t.name] == nil {
		return nil, nil, fmt.Errorf("the package has no collection %s", t.name)
	}
	if !source.IsKebab(newID) {
		return nil, nil, fmt.Errorf("%q is not a valid collection id: a collection id is kebab-case (lowercase letters and digits joined by single hyphens)", newID)
	}
	if newID == t.name {
		return map[string][]TextEdit{}, nil, nil
	}
	if p.Collections[newID] != nil {
		return nil, nil, fmt.Errorf("the package already has the collection %s", newID)
	}
	edits, err := rewriteAll(s, t, newID)
	if err != nil {
		return nil, nil, err
	}
	c := p.Collections[t.name]
	return edits, []FileRename{{Old: c.Dir, New: filepath.Join(filepath.Dir(c.Dir), newID)}}, nil
}

// collection rewrites the citations of a collection folder that a rename
// moves to another name directly in collections/.
func (fr *fileRenamer) collection(p *analysis.Package, c *analysis.Collection) error {
	moved := fr.moved(c.Dir)
	if moved == c.Dir || filepath.Dir(moved) != fr.moved(filepath.Dir(c.Dir)) {
		return nil
	}
	newID := filepath.Base(moved)
	for _, r := range citeIndex(fr.snap).byTarget[targetKey{kind: targetCollection, scope: p.Root, name: c.ID}] {
		if !fr.w.rewrite(r, newID) {
			return fr.stuck(r)
		}
	}
	return nil
}
