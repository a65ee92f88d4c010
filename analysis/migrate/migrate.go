// Package migrate rewrites a package written in an earlier version of the
// OpenGDD format into its v0.9 form (SPEC Appendix A, "Retired forms and
// migration", and the rules on retired forms of each section).
//
// The package is pure: it reads bytes and returns new bytes, the list of
// changes it made and the list of items a person has to decide. It never
// reads or writes a file; cmd/gddls does that. A rewrite that cannot be
// shown to keep the package's meaning is not made: the form stays where it
// is, so the check keeps reporting it, and an Item says why.
//
// JSON files are re-serialised from their parsed tree with the file's own
// indentation: every scalar keeps its spelling (a number is written as it
// was written), members keep their order, and a subtree the migration does
// not touch that was written on one line is kept character for character.
// Markdown files are edited by spans, so every line the migration does not
// rewrite stays byte for byte.
package migrate

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis/personalization"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// Change is one rewrite the migration made (or, in a dry run, would make).
type Change struct {
	// Code is the finding code of the retired form (Appendix A).
	Code string `json:"code"`
	// File is the file's path relative to the package root, with forward
	// slashes.
	File string `json:"file"`
	// Line is the one-based line of the retired form in the file as it was
	// before the migration (1 for a file the migration creates).
	Line int `json:"line"`
	// What says what was rewritten, and into what.
	What string `json:"what"`
}

// Item is something the migration left for a person: content the format
// now requires that no old file held, a meaning that changed, a decision
// the format leaves to the designer, or a rewrite that could not be proved.
type Item struct {
	// Code is the finding code the check reports for it, or, for a Review
	// item, the code of the retired form it comes from.
	Code string `json:"code"`
	// File is the path relative to the package root, forward slashes.
	File string `json:"file"`
	// Line is the one-based line in the file as the migration leaves it.
	Line int `json:"line"`
	// Need says what a person has to write or decide; Why says why the
	// migration did not do it.
	Need string `json:"need"`
	Why  string `json:"why"`
	// Review marks an item that no check reports after the migration (a
	// meaning that changed); the other items are errors the check still
	// reports, at this file and line.
	Review bool `json:"review,omitempty"`
}

// Result is what a migration does to a package.
type Result struct {
	// Files holds the new content of every file the migration writes,
	// created files included, by path relative to the package root.
	Files map[string][]byte
	// Edits holds, for a file of Files that the migration edited by spans
	// alone, the edits of its old content (in order, not overlapping);
	// a file of Files without Edits was re-serialised or created.
	Edits map[string][]Edit
	// Changes and Items are sorted by file and line.
	Changes []Change
	Items   []Item
}

// Edit replaces the bytes [Start, End) of a file's old content with Text.
type Edit struct {
	Start, End int
	Text       string
}

// Paths returns the paths of Files in order.
func (r *Result) Paths() []string {
	out := make([]string, 0, len(r.Files))
	for p := range r.Files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// run holds the state of one migration.
type run struct {
	// old is the package as given; cur the content of each file as the
	// migration has left it so far.
	old, cur map[string][]byte
	res      *Result
	// older reports a manifest that names a format version other than
	// v0.9, or no manifest version: a package of an earlier version.
	older bool
	// pending holds items whose line is found in the final content.
	pending []pendingItem
	// rules are the names of the rules the migration wrote.
	rules []string
	// dirTree is direction.json's tree when the manifest's palette or
	// moods went into it, so that its own rewrites see the old lines.
	dirTree *node
}

// pendingItem is an item placed by a locator in a file's final content.
type pendingItem struct {
	item   Item
	locate func(data []byte) int
}

// Package migrates the files of one package. files maps each path relative
// to the package root (forward slashes) to its bytes; only the files the
// migration reads are needed (the root's JSON files, the chapters,
// collections/ and contracts/). The input is not modified.
func Package(files map[string][]byte) *Result {
	r := &run{old: files, cur: map[string][]byte{}, res: &Result{Files: map[string][]byte{}, Edits: map[string][]Edit{}}}
	for p, b := range files {
		r.cur[p] = b
	}
	r.older = olderManifest(files["manifest.json"])
	r.tuning()
	r.clocks()
	r.manifest()
	r.direction()
	r.chapters()
	r.buildPlan()
	r.collections()
	r.personalization()
	r.adoptions()
	r.designerForms()
	r.verifyRules()
	r.finish()
	return r.res
}

// setEdits records the new content of a file made by span edits of its
// current content: the edits are kept when the file had not changed yet.
func (r *run) setEdits(path string, data []byte, edits []edit) {
	_, changed := r.res.Files[path]
	r.set(path, data)
	if _, still := r.res.Files[path]; !still || changed {
		return
	}
	sorted := append([]edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].start < sorted[j].start })
	var out []Edit
	at := 0
	for _, e := range sorted {
		if e.start < at {
			continue
		}
		out = append(out, Edit{Start: e.start, End: e.end, Text: e.text})
		at = e.end
	}
	r.res.Edits[path] = out
}

// set records the new content of a file.
func (r *run) set(path string, data []byte) {
	delete(r.res.Edits, path)
	if old, ok := r.old[path]; ok && bytes.Equal(old, data) {
		delete(r.res.Files, path)
		r.cur[path] = data
		return
	}
	r.cur[path] = data
	r.res.Files[path] = data
}

// change records a change.
func (r *run) change(code, file string, line int, what string) {
	r.res.Changes = append(r.res.Changes, Change{Code: code, File: file, Line: line, What: what})
}

// item records an item for a person, its line found in the file's final
// content by locate (nil: line 1).
func (r *run) item(it Item, locate func(data []byte) int) {
	r.pending = append(r.pending, pendingItem{item: it, locate: locate})
}

// verifyRules evaluates the rules the migration wrote in both environments
// of the format (the authored numbers and the package defaults of
// personalization.json): a rule that does not hold, or cannot be computed,
// is listed for a person. An old invariant never had the package
// defaults to hold over, so its rule can fail there.
func (r *run) verifyRules() {
	if len(r.rules) == 0 {
		return
	}
	data := r.cur["tuning.json"]
	tf := tuning.Parse("tuning.json", data)
	var pers *personalization.File
	if pd, ok := r.cur["personalization.json"]; ok {
		if v, errs := jsonsrc.Parse(pd); len(errs) == 0 && v != nil {
			pers = personalization.Parse("personalization.json", v)
		}
	}
	findings := append(tf.Findings, tf.CheckEnvironments(nil, pers)...)
	ours := map[int]bool{}
	v, _ := jsonsrc.Parse(data)
	for _, name := range r.rules {
		if m := v.Get("rules").Member(name); m != nil {
			ours[lineOf(data, m.KeySpan().Start)] = true
		}
	}
	for _, f := range findings {
		line := lineOf(data, f.Span.Start)
		if f.Severity == source.Error && ours[line] && strings.HasPrefix(f.Code, "TUNING_RULE") {
			r.res.Items = append(r.res.Items, Item{Code: f.Code, File: "tuning.json", Line: line,
				Need: "change a number or the rule so that it holds: " + strings.Join(strings.Fields(strings.ReplaceAll(f.Message, "\n", "; ")), " "),
				Why:  "the rule says what the old invariant said; the migration keeps its meaning, not its truth"})
		}
	}
}

// finish places the items and sorts the lists.
func (r *run) finish() {
	for _, p := range r.pending {
		it := p.item
		if it.Line == 0 {
			it.Line = 1
			if p.locate != nil {
				if l := p.locate(r.cur[it.File]); l > 0 {
					it.Line = l
				}
			}
		}
		r.res.Items = append(r.res.Items, it)
	}
	sort.SliceStable(r.res.Changes, func(i, j int) bool {
		a, b := r.res.Changes[i], r.res.Changes[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	sort.SliceStable(r.res.Items, func(i, j int) bool {
		a, b := r.res.Items[i], r.res.Items[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	// One item per place and code.
	seen := map[string]bool{}
	kept := r.res.Items[:0]
	for _, it := range r.res.Items {
		k := fmt.Sprintf("%s:%d:%s", it.File, it.Line, it.Code)
		if !seen[k] {
			seen[k] = true
			kept = append(kept, it)
		}
	}
	r.res.Items = kept
}

// lineOf returns the one-based line of a byte offset.
func lineOf(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

func sortStrings(s []string) { sort.Strings(s) }
