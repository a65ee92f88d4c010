package ide

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts/source"
)

// queryKinds are the queries a marker of testdata/query can ask. Adding a
// query to the archives is one entry here: a function that asks the
// snapshot at the marker and renders the answer.
var queryKinds = map[string]queryKind{
	"complete":          {run: runComplete},
	"hover":             {run: runHover},
	"definition":        {run: runDefinition},
	"references":        {run: runReferences, mods: []string{"decl"}},
	"prepare-rename":    {run: runPrepareRename},
	"rename":            {run: runRename, inputs: 1},
	"actions":           {run: runActions},
	"action":            {run: runAction, inputs: 1},
	"lenses":            {run: runLenses},
	"links":             {run: runLinks},
	"symbols":           {run: runSymbols},
	"workspace-symbols": {run: runWorkspaceSymbols, inputs: 1},
	"render":            {run: runRender},
}

// queryKind is one query the archives can ask.
type queryKind struct {
	// inputs is how many leading arguments are the query's inputs.
	inputs int
	// mods are the modifiers the kind accepts after a colon.
	mods []string
	// run asks the query. Violations of what every answer of the kind must
	// satisfy (spans inside their file, no finding added by a rename…) go
	// to q.problemf.
	run func(q *queryRun) (queryResult, error)
}

// queryResult is a query's answer, rendered.
type queryResult struct {
	// brief is compared with the marker's expectation arguments.
	brief []string
	// full is compared with the golden sections: the part "" with
	// ">name", every other part with ">name/part".
	full map[string]string
}

// queryRun is one marker being asked.
type queryRun struct {
	repo     *queryRepo
	mark     *queryMark
	path     string // absolute path of the marker's file
	inputs   []string
	problems []string
}

func (q *queryRun) snap() *analysis.Snapshot { return q.repo.snap }
func (q *queryRun) offset() int              { return q.mark.offset }
func (q *queryRun) hasMod(m string) bool {
	return slices.Contains(q.mark.mods, m)
}

// problemf records a violated invariant.
func (q *queryRun) problemf(format string, args ...any) {
	q.problems = append(q.problems, fmt.Sprintf(format, args...))
}

// text returns the text of a span of a file, or "" when the span lies
// outside it (which is recorded as a problem).
func (q *queryRun) text(abs string, sp source.Span) string {
	c := q.repo.content(abs)
	if sp.Start < 0 || sp.End > len(c) || sp.Start > sp.End {
		q.problemf("span %d-%d outside %s (%d bytes)", sp.Start, sp.End, q.repo.rel(abs), len(c))
		return ""
	}
	return string(c[sp.Start:sp.End])
}

// one is a full result of one part, or none when s is empty.
func one(s string) map[string]string {
	if s == "" {
		return nil
	}
	return map[string]string{"": s}
}

// lineOf renders the one-based line:column of an offset of a file.
func (q *queryRun) lineOf(abs string, off int) string {
	p := source.NewLines(q.repo.content(abs)).Position(off)
	return fmt.Sprintf("%d:%d", p.Line+1, p.Character+1)
}

var completionKindNames = []string{"file", "anchor", "tuning-key", "contract-value", "field", "option", "question", "keyword"}

func kindName(names []string, k int) string {
	if k >= 0 && k < len(names) {
		return names[k]
	}
	return fmt.Sprint(k)
}

// runComplete lists the completion items in the editor's order (SortText,
// else the label). Brief: the labels. Full: each item with its kind,
// detail, documentation, flags and edit.
func runComplete(q *queryRun) (queryResult, error) {
	items := Complete(q.snap(), q.path, q.offset())
	key := func(it CompletionItem) string {
		if it.SortText != "" {
			return it.SortText
		}
		return it.Label
	}
	sort.SliceStable(items, func(i, j int) bool {
		if a, b := key(items[i]), key(items[j]); a != b {
			return a < b
		}
		return items[i].Label < items[j].Label
	})
	var res queryResult
	var full strings.Builder
	for _, it := range items {
		res.brief = append(res.brief, it.Label)
		fmt.Fprintf(&full, "%s (%s)", it.Label, kindName(completionKindNames, int(it.Kind)))
		if it.Deprecated {
			full.WriteString(" deprecated")
		}
		if it.Retrigger {
			full.WriteString(" retrigger")
		}
		full.WriteString("\n")
		if it.Detail != "" {
			fmt.Fprintf(&full, "  detail: %s\n", it.Detail)
		}
		if it.Documentation != "" {
			fmt.Fprintf(&full, "  doc: %s\n", strings.ReplaceAll(strings.TrimRight(it.Documentation, "\n"), "\n", "\n    "))
		}
		if it.Edit == nil {
			q.problemf("item %q has no edit", it.Label)
			continue
		}
		if it.Edit.Span.Start > q.offset() {
			q.problemf("item %q edits %d-%d, after the cursor", it.Label, it.Edit.Span.Start, it.Edit.Span.End)
		}
		fmt.Fprintf(&full, "  edit: %q → %q\n", q.text(q.path, it.Edit.Span), it.Edit.NewText)
	}
	res.full = one(full.String())
	return res, nil
}

// runHover renders the hover as the text it covers, a blank line and its
// Markdown.
func runHover(q *queryRun) (queryResult, error) {
	h := Hover(q.snap(), q.path, q.offset())
	if h == nil {
		return queryResult{}, nil
	}
	md := strings.TrimRight(h.Markdown, "\n")
	return queryResult{full: one(fmt.Sprintf("covers: %s\n\n%s\n", q.text(q.path, h.Span), md))}, nil
}

// locations renders locations sorted, checking that each can be shown.
func (q *queryRun) locations(ls []Location) []string {
	var out []string
	for _, l := range ls {
		if LinesOf(q.snap(), l.File) == nil {
			q.problemf("no lines for %s, so the location cannot be converted", q.repo.rel(l.File))
		}
		out = append(out, q.repo.showLoc(l))
	}
	sort.Strings(out)
	return out
}

// runDefinition lists the definitions as places.
func runDefinition(q *queryRun) (queryResult, error) {
	return queryResult{brief: q.locations(Definition(q.snap(), q.path, q.offset()))}, nil
}

// runReferences lists the references as places; references:decl includes
// the declaration.
func runReferences(q *queryRun) (queryResult, error) {
	return queryResult{brief: q.locations(References(q.snap(), q.path, q.offset(), q.hasMod("decl")))}, nil
}

// runPrepareRename gives the text of the span to rename and the name
// proposed.
func runPrepareRename(q *queryRun) (queryResult, error) {
	span, name, err := PrepareRename(q.snap(), q.path, q.offset())
	if err != nil {
		return queryResult{}, err
	}
	return queryResult{brief: []string{q.text(q.path, span), name}}, nil
}

// applyTextEdits applies edits to content, last first, and reports
// overlapping or out-of-range edits.
func (q *queryRun) applyTextEdits(rel string, content []byte, edits []TextEdit) string {
	es := slices.Clone(edits)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Span.Start > es[j].Span.Start })
	out := string(content)
	end := len(out)
	for _, e := range es {
		if e.Span.Start < 0 || e.Span.Start > e.Span.End || e.Span.End > end {
			q.problemf("%s: overlapping or bad edit %+v", rel, e)
			continue
		}
		out = out[:e.Span.Start] + e.NewText + out[e.Span.End:]
		end = e.Span.Start
	}
	return out
}

// applyAll applies edits to the repository and returns the changed texts
// by slash path and a snapshot of the repository after them.
func (q *queryRun) applyAll(edits map[string][]TextEdit, moves ...FileRename) (map[string]string, *analysis.Snapshot) {
	texts := map[string]string{}
	overlay := analysis.Overlay{}
	moved := func(abs string) string {
		for _, m := range moves {
			if m.Old == abs {
				return m.New
			}
			if rel, err := filepath.Rel(m.Old, abs); err == nil && !strings.HasPrefix(rel, "..") {
				return filepath.Join(m.New, rel) // inside a moved folder
			}
		}
		return abs
	}
	for abs, es := range edits {
		rel := q.repo.rel(abs)
		if q.snap().File(abs) == nil {
			q.problemf("edit of a file the snapshot does not hold: %s", rel)
			continue
		}
		texts[rel] = q.applyTextEdits(rel, q.snap().File(abs).Content, es)
		overlay[moved(abs)] = []byte(texts[rel])
	}
	for abs, data := range q.repo.overlay {
		if _, ok := overlay[moved(abs)]; !ok {
			overlay[moved(abs)] = data
		}
	}
	// The moves are made on disk for the load and undone after it.
	for _, m := range moves {
		if err := os.Rename(m.Old, m.New); err != nil {
			q.problemf("the rename moves %s: %v", q.repo.rel(m.Old), err)
			continue
		}
		defer os.Rename(m.New, m.Old)
	}
	return texts, analysis.Load([]string{q.repo.dir}, analysis.Options{Overlay: overlay})
}

// findingCounts counts the findings of a snapshot by code.
func findingCounts(s *analysis.Snapshot) map[string]int {
	n := map[string]int{}
	for _, d := range s.AllDiagnostics() {
		n[d.Code]++
	}
	return n
}

// mapOffset moves an offset of a file through edits of it.
func mapOffset(off int, edits []TextEdit) int {
	delta := 0
	for _, e := range edits {
		switch {
		case e.Span.End <= off && e.Span.Start < off:
			delta += len(e.NewText) - (e.Span.End - e.Span.Start)
		case e.Span.Start <= off && off < e.Span.End:
			delta += min(off-e.Span.Start, len(e.NewText)) - (off - e.Span.Start)
		}
	}
	return off + delta
}

// runRename renames at the marker to the input name. Brief: the changed
// files. Full: the edits, and the changed files' texts after them. Every rename must be
// prepared first, must add no finding anywhere, and must leave the renamed
// thing with at least as many references as before.
func runRename(q *queryRun) (queryResult, error) {
	s := q.snap()
	if _, _, err := PrepareRename(s, q.path, q.offset()); err != nil {
		return queryResult{}, err
	}
	edits, moves, err := RenameWithFiles(s, q.path, q.offset(), q.inputs[0])
	if err != nil {
		return queryResult{}, err
	}
	if plain, err := Rename(s, q.path, q.offset(), q.inputs[0]); err != nil || !reflect.DeepEqual(plain, edits) {
		q.problemf("Rename and RenameWithFiles differ: %v, %v", plain, err)
	}
	texts, after := q.applyAll(edits, moves...)
	before := findingCounts(s)
	for code, n := range findingCounts(after) {
		if n > before[code] {
			q.problemf("the rename adds %d %s: %v", n-before[code], code, after.AllDiagnostics())
		}
	}
	// A JSON string that spells the old name with escapes is one
	// reference before and plain text after, so references may grow.
	refs := len(References(s, q.path, q.offset(), false))
	newPath := q.path
	for _, m := range moves {
		if m.Old == q.path {
			newPath = m.New
		}
	}
	if got := len(References(after, newPath, mapOffset(q.offset(), edits[q.path]), false)); got < refs {
		q.problemf("after the rename %d references, before %d", got, refs)
	}
	full := maps.Clone(texts)
	full[""] = q.showEdits(edits)
	for _, m := range moves {
		full[""] += fmt.Sprintf("move %s → %s\n", q.repo.rel(m.Old), q.repo.rel(m.New))
	}
	return queryResult{brief: slices.Sorted(maps.Keys(texts)), full: full}, nil
}

// showEdits lists edits by file and offset, each as the place and text it
// replaces and the new text.
func (q *queryRun) showEdits(edits map[string][]TextEdit) string {
	var b strings.Builder
	for _, abs := range slices.Sorted(maps.Keys(edits)) {
		es := slices.Clone(edits[abs])
		sort.SliceStable(es, func(i, j int) bool { return es[i].Span.Start < es[j].Span.Start })
		for _, e := range es {
			fmt.Fprintf(&b, "%s:%s %q → %q\n", q.repo.rel(abs), q.lineOf(abs, e.Span.Start), q.text(abs, e.Span), e.NewText)
		}
	}
	return b.String()
}

// runActions lists the code actions for the empty span at the marker.
// Brief: the titles. Full: each title with its kind, codes and whether it
// is preferred.
func runActions(q *queryRun) (queryResult, error) {
	var res queryResult
	var full strings.Builder
	for _, a := range CodeActions(q.snap(), q.path, source.Span{Start: q.offset(), End: q.offset()}) {
		res.brief = append(res.brief, a.Title)
		fmt.Fprintf(&full, "%s\n  %s\n", a.Title, strings.Join(actionTraits(a), " "))
	}
	res.full = one(full.String())
	return res, nil
}

// actionTraits renders an action's kind, codes and preference.
func actionTraits(a CodeAction) []string {
	out := append([]string{a.Kind}, a.Codes...)
	if a.Preferred {
		out = append(out, "preferred")
	}
	return out
}

// runAction applies the code action titled by the input at the marker.
// Brief: its kind, codes and "preferred" when it is. Full: the changed
// files after the edit. The file must hold a finding of the action's codes
// before and none after, and an edited JSON file must stay valid.
func runAction(q *queryRun) (queryResult, error) {
	s := q.snap()
	actions := CodeActions(s, q.path, source.Span{Start: q.offset(), End: q.offset()})
	i := slices.IndexFunc(actions, func(a CodeAction) bool { return a.Title == q.inputs[0] })
	if i < 0 {
		var titles []string
		for _, a := range actions {
			titles = append(titles, a.Title)
		}
		return queryResult{}, fmt.Errorf("no action %q; offered %q", q.inputs[0], titles)
	}
	act := actions[i]
	count := func(s *analysis.Snapshot) int {
		n := 0
		for _, d := range s.Diagnostics(q.path) {
			if slices.Contains(act.Codes, d.Code) {
				n++
			}
		}
		return n
	}
	if len(act.Codes) > 0 && count(s) == 0 {
		q.problemf("the file has no finding %v for the action to fix", act.Codes)
	}
	texts, after := q.applyAll(act.Edits)
	for rel, text := range texts {
		if strings.HasSuffix(rel, ".json") && !json.Valid([]byte(text)) {
			q.problemf("the edit leaves invalid JSON in %s", rel)
		}
	}
	if n := count(after); n != 0 {
		q.problemf("%d findings %v remain after the edit: %v", n, act.Codes, after.Diagnostics(q.path))
	}
	return queryResult{brief: actionTraits(act), full: texts}, nil
}

// runLenses lists the code lenses of the marker's file. Brief: the titles.
// Full: each lens's place, the text under it, title and command, with the
// repository's folder written as $REPO.
func runLenses(q *queryRun) (queryResult, error) {
	var res queryResult
	var full strings.Builder
	for _, l := range CodeLenses(q.snap(), q.path) {
		res.brief = append(res.brief, l.Title)
		fmt.Fprintf(&full, "%s %s: %s\n", q.lineOf(q.path, l.Span.Start), q.text(q.path, l.Span), l.Title)
		if l.Command != "" {
			args := make([]string, len(l.Arguments))
			for i, a := range l.Arguments {
				args[i] = strings.ReplaceAll(fmt.Sprint(a), fileURI(q.repo.dir), "$REPO")
			}
			fmt.Fprintf(&full, "  command: %s %s\n", l.Command, strings.Join(args, " "))
		}
	}
	res.full = one(full.String())
	return res, nil
}

// runLinks lists the document links of the marker's file in order.
// Brief: the targets. Full: each link's text, target and tooltip.
func runLinks(q *queryRun) (queryResult, error) {
	var res queryResult
	var full strings.Builder
	for _, l := range DocumentLinks(q.snap(), q.path) {
		target := q.repo.showLoc(Location{File: l.Target, Span: l.TargetSpan})
		res.brief = append(res.brief, target)
		fmt.Fprintf(&full, "%s -> %s\n", q.text(q.path, l.Span), target)
		if l.Tooltip != "" {
			fmt.Fprintf(&full, "  tooltip: %s\n", l.Tooltip)
		}
	}
	res.full = one(full.String())
	return res, nil
}

var symbolKindNames = []string{"heading", "question", "option", "value", "row-set", "row", "tuning-key", "adoption", "rule", "ruleset", "test"}

// runSymbols gives the outline of the marker's file. Brief: the names in
// order. Full: the tree with kinds and details. Every symbol must lie
// inside its parent and its selection inside itself.
func runSymbols(q *queryRun) (queryResult, error) {
	var res queryResult
	var full strings.Builder
	var walk func(syms []Symbol, parent source.Span, depth int)
	walk = func(syms []Symbol, parent source.Span, depth int) {
		for _, s := range syms {
			if s.Span.Start < parent.Start || s.Span.End > parent.End {
				q.problemf("symbol %s %v lies outside its parent %v", s.Name, s.Span, parent)
			}
			if s.SelectionSpan.Start < s.Span.Start || s.SelectionSpan.End > s.Span.End {
				q.problemf("symbol %s selection %v lies outside %v", s.Name, s.SelectionSpan, s.Span)
			}
			res.brief = append(res.brief, s.Name)
			fmt.Fprintf(&full, "%s%s (%s)", strings.Repeat("  ", depth), s.Name, kindName(symbolKindNames, int(s.Kind)))
			if s.Detail != "" {
				fmt.Fprintf(&full, " %s", s.Detail)
			}
			full.WriteString("\n")
			walk(s.Children, s.Span, depth+1)
		}
	}
	walk(DocumentSymbols(q.snap(), q.path), source.Span{Start: 0, End: len(q.repo.content(q.path))}, 0)
	res.full = one(full.String())
	return res, nil
}

// runWorkspaceSymbols searches the workspace for the input. Brief: the
// names, sorted. Full: kind, name, detail and file of each, sorted.
func runWorkspaceSymbols(q *queryRun) (queryResult, error) {
	var res queryResult
	var lines []string
	for _, s := range WorkspaceSymbols(q.snap(), q.inputs[0]) {
		res.brief = append(res.brief, s.Name)
		lines = append(lines, fmt.Sprintf("%s (%s) %s — %s\n", s.Name, kindName(symbolKindNames, int(s.Kind)), s.Detail, q.repo.rel(s.File)))
	}
	sort.Strings(res.brief)
	sort.Strings(lines)
	res.full = one(strings.Join(lines, ""))
	return res, nil
}

// runRender renders the generated tests of the marker's adoption.
func runRender(q *queryRun) (queryResult, error) {
	md, err := RenderTests(q.snap(), q.path)
	if err != nil {
		return queryResult{}, err
	}
	if md != "" && !strings.HasSuffix(md, "\n") {
		md += "\n"
	}
	return queryResult{full: one(md)}, nil
}

// queryKindNames lists the kinds, for messages.
func queryKindNames() []string { return slices.Sorted(maps.Keys(queryKinds)) }
