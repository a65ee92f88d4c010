package ide

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/migrate"
	"github.com/gddls/gddls/contracts/source"
)

// The editor's side of `gddls migrate` (docs/MIGRATE.md): a quick fix for
// each retired-form finding that makes the migration's rewrite of that
// place, and the source action source.migrate that makes every rewrite of
// the file. Both carry what the rewrite depends on: the root JSON files the
// migration rewrites or creates (a chapter's `mood.<name>` resolves only
// once the mood has moved to direction.json; tuning.json's clocks must land
// in clocks.json), so an action never leaves a citation dangling or loses
// a value.

// retiredWords are the words by which a finding's message says that it is
// about a retired form: the checks say so, and name gddls migrate.
var retiredWords = []string{"retired", "earlier version", "older version", "older format", "older field", "gddls migrate"}

// IsRetiredForm reports a finding about a form of an earlier format
// version (SPEC Appendix A), by its message.
func IsRetiredForm(d analysis.Diagnostic) bool {
	for _, w := range retiredWords {
		if strings.Contains(d.Message, w) {
			return true
		}
	}
	return false
}

// schemaCodes are the codes whose findings are about a retired form when
// the form is one (an old member is an unknown member to the schema), so
// the editor asks the migration about them too.
var schemaCodes = map[string]bool{
	"TUNING_SHAPE": true, "TUNING_SCHEMA": true, "MANIFEST_SCHEMA": true, "DIRECTION_SCHEMA": true,
	"PERSONALIZATION_SCHEMA": true, "FANTASY_REFERENCE": true, "RULESET_TAG_SHAPE": true,
	"CONTRACT_ENVELOPE_UNKNOWN": true, "VERIFICATION_BLOCK": true, "DIRECTION_CLAIMS_DANGLING": true,
	"CLOCKS_SHAPE": true, "COLLECTION_SCHEMA_SHAPE": true, "PROSE_REFERENCE_DANGLING": true,
	"PROSE_CITATION_DANGLING": true, "MODE_TAG_DANGLING": true, "CONTRACT_CITATION_GRAMMAR": true,
}

// maybeRetired reports a finding the migration may have rewritten.
func maybeRetired(d analysis.Diagnostic) bool { return schemaCodes[d.Code] || IsRetiredForm(d) }

// migration returns the migration of the package of the fixer's file,
// computed once per fixer; nil outside a package.
func (x *fixer) migration() *migrate.Result {
	if x.mig != nil || x.pkg == nil {
		return x.mig
	}
	x.mig = x.s.Migration(x.pkg)
	return x.mig
}

// rel returns the path of the fixer's file relative to its package.
func (x *fixer) rel() string {
	if x.pkg == nil {
		return ""
	}
	r, err := filepath.Rel(x.pkg.Root, x.f.Path)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(r)
}

// isRootJSON reports a JSON file at the package root.
func isRootJSON(rel string) bool {
	return !strings.Contains(rel, "/") && strings.HasSuffix(rel, ".json")
}

// migrateEdits returns the edits and file creations that make the
// migration's rewrite of the file (limited to the edits that touch the
// one-based lines [from, to] when from > 0 and the file is edited by
// spans), with the rewrites of the root JSON files it depends on. ok is
// false when the migration does not change that part of the file.
func (x *fixer) migrateEdits(from, to int) (edits map[string][]TextEdit, creates []FileCreate, others []string, ok bool) {
	res := x.migration()
	rel := x.rel()
	if res == nil || rel == "" {
		return nil, nil, nil, false
	}
	newContent, changed := res.Files[rel]
	if !changed {
		return nil, nil, nil, false
	}
	edits = map[string][]TextEdit{}
	if es, spans := res.Edits[rel]; spans {
		for _, e := range es {
			if from > 0 {
				a, b := x.f.Lines.Line(e.Start)+1, x.f.Lines.Line(max(e.Start, e.End-1))+1
				if b < from || a > to {
					continue
				}
			}
			edits[x.f.Path] = append(edits[x.f.Path], TextEdit{Span: source.Span{Start: e.Start, End: e.End}, NewText: e.Text})
		}
		if len(edits[x.f.Path]) == 0 {
			return nil, nil, nil, false
		}
	} else {
		edits[x.f.Path] = []TextEdit{{Span: source.Span{Start: 0, End: len(x.f.Content)}, NewText: string(newContent)}}
	}
	var texts []string
	for _, e := range edits[x.f.Path] {
		texts = append(texts, e.NewText)
	}
	for _, p := range res.Paths() {
		if p == rel || !isRootJSON(p) || !dependsOn(rel, p, texts) {
			continue
		}
		abs := filepath.Join(x.pkg.Root, filepath.FromSlash(p))
		if f := x.pkg.FileAt(p); f != nil {
			edits[abs] = []TextEdit{{Span: source.Span{Start: 0, End: len(f.Content)}, NewText: string(res.Files[p])}}
		} else {
			creates = append(creates, FileCreate{Path: abs, Content: string(res.Files[p])})
		}
		others = append(others, p)
	}
	return edits, creates, others, true
}

// dependsOn reports whether the rewrite of rel, whose edits write texts,
// needs the migration's rewrite of the root JSON file p: the root JSON
// files need one another (tuning.json's clocks land in clocks.json, the
// manifest's moods in direction.json); a chapter needs direction.json and
// the manifest for the direction addresses it writes, tuning.json for a
// tuning key it writes, clocks.json for an unchanged member of a test.
func dependsOn(rel, p string, texts []string) bool {
	if isRootJSON(rel) {
		return true
	}
	if !strings.HasSuffix(rel, ".md") {
		return false
	}
	for _, t := range texts {
		switch p {
		case "direction.json", "manifest.json":
			for _, prefix := range []string{"mood.", "colors.", "contrast.", "timing.", "palette."} {
				if strings.Contains(t, prefix) {
					return true
				}
			}
		case "tuning.json":
			if !strings.ContainsAny(t, " \n") && strings.Contains(t, ".") && !strings.HasPrefix(t, "runtime.") {
				return true
			}
		case "clocks.json":
			if strings.Contains(t, `"unchanged"`) {
				return true
			}
		}
	}
	return false
}

// migrateFix offers the migration's rewrite of the place of a finding d
// whose code names a retired form the migration rewrote at that line.
func (x *fixer) migrateFix(d analysis.Diagnostic) {
	res := x.migration()
	if res == nil {
		return
	}
	rel := x.rel()
	line := d.Range.Start.Line + 1
	var what []string
	for _, c := range res.Changes {
		if c.File == rel && c.Line == line {
			what = append(what, c.What)
		}
	}
	if len(what) == 0 {
		return
	}
	from, to := line, d.Range.End.Line+1
	edits, creates, others, ok := x.migrateEdits(from, to)
	if !ok {
		return
	}
	title := "Rewrite as v0.9, as gddls migrate does: " + what[0]
	if len(what) > 1 {
		title = fmt.Sprintf("Rewrite as v0.9, as gddls migrate does (%d changes on this line)", len(what))
	}
	if _, spans := res.Edits[rel]; !spans {
		title = "Migrate " + rel + " to v0.9, as gddls migrate does"
	}
	if len(others) > 0 {
		title += " (also rewrites " + strings.Join(others, ", ") + ")"
	}
	if x.seen[title] {
		// Two findings on one place (as TUNING_SHAPE and TUNING_SCHEMA):
		// one action fixes both.
		for i := range x.out {
			if a := &x.out[i]; a.Title == title && !slices.Contains(a.Codes, d.Code) {
				a.Codes = append(a.Codes, d.Code)
				sort.Strings(a.Codes)
			}
		}
		return
	}
	x.seen[title] = true
	x.out = append(x.out, CodeAction{Title: title, Kind: "quickfix", Codes: []string{d.Code}, Edits: edits, Creates: creates})
}

// MigrateAction returns the source action source.migrate of a file: every
// rewrite the migration makes in it (with the root JSON files it depends
// on), or nil when the migration leaves the file as it is.
func MigrateAction(s *analysis.Snapshot, path string) *CodeAction {
	f := s.File(path)
	if f == nil || f.Skipped != "" || f.Lines == nil {
		return nil
	}
	x := &fixer{s: s, f: f, pkg: s.PackageFor(f), seen: map[string]bool{}}
	edits, creates, others, ok := x.migrateEdits(0, 0)
	if !ok {
		return nil
	}
	var codes []string
	for _, c := range x.migration().Changes {
		if c.File == x.rel() {
			codes = append(codes, c.Code)
		}
	}
	sort.Strings(codes)
	title := "Migrate this file to OpenGDD v0.9 (gddls migrate)"
	if len(others) > 0 {
		title += "; also rewrites " + strings.Join(others, ", ")
	}
	return &CodeAction{Title: title, Kind: "source.migrate", Codes: compactStrings(codes), Edits: edits, Creates: creates}
}
