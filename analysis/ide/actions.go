package ide

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/direction"

	"github.com/gddls/gddls/analysis/buildplan"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/analysis/migrate"
	"github.com/gddls/gddls/analysis/personalization"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// maxChoiceActions is the largest option set for which every option is
// offered as a replacement; larger sets offer only the nearest options.
const maxChoiceActions = 8

// maxNearActions bounds the replacements offered for a dangling name.
const maxNearActions = 3

// CodeActions returns fixes for the findings of path that overlap span:
// missing answers, required row fields, row sets and values are added;
// unknown answers and row choices, dangling anchors and tuning keys are
// replaced by the nearest existing names; the missing required members of
// manifest.json are added with placeholders. Every edit keeps the file valid
// JSON (or Markdown) and follows its indentation and line endings.
func CodeActions(s *analysis.Snapshot, path string, span source.Span) []CodeAction {
	f := s.File(path)
	if f == nil || f.Skipped != "" || f.Lines == nil {
		return nil
	}
	x := &fixer{s: s, f: f, pkg: s.PackageFor(f), seen: map[string]bool{}}
	_, x.a = s.AdoptionAt(path)
	for _, d := range s.Diagnostics(path) {
		ds := source.Span{Start: f.Lines.Offset(d.Range.Start), End: f.Lines.Offset(d.Range.End)}
		if ds.Start > span.End || span.Start > ds.End {
			continue
		}
		x.fix(d, ds)
	}
	return x.out
}

// fixer collects the actions of one file.
type fixer struct {
	s    *analysis.Snapshot
	f    *analysis.File
	pkg  *analysis.Package
	a    *contracts.Adoption // the adoption of the file, or nil
	out  []CodeAction
	seen map[string]bool
	// mig is the migration of the package, computed on first use
	// (migrateactions.go).
	mig *migrate.Result
}

// add records an action unless one with the same title exists.
func (x *fixer) add(title, code string, preferred bool, edits ...TextEdit) {
	if len(edits) == 0 || x.seen[title] {
		return
	}
	x.seen[title] = true
	x.out = append(x.out, CodeAction{
		Title: title, Kind: "quickfix", Codes: []string{code},
		Edits: map[string][]TextEdit{x.f.Path: edits}, Preferred: preferred,
	})
}

func (x *fixer) fix(d analysis.Diagnostic, ds source.Span) {
	if bom := (source.Span{Start: 0, End: len(jsonsrc.BOM)}); ds == bom && jsonsrc.HasBOM(x.f.Content) && analysis.IsJSONPath(x.f.Path) {
		// The syntax error of a leading byte-order mark, whatever the
		// file's kind (jsonsrc.Parse reports it on the mark).
		x.add("Remove the byte-order mark", d.Code, true, TextEdit{Span: bom})
		return
	}
	if d.Severity == source.Error && maybeRetired(d) {
		x.migrateFix(d) // migrateactions.go
	}
	if k, ok := shapedFile(x.pkg, x.f); ok && d.Code == k.code {
		x.fixShaped(k, ds)
		return
	}
	if isBuildRecord(x.f) && strings.HasPrefix(d.Code, "BUILD_") {
		x.fixBuildRecord(d, ds) // buildquery.go
		return
	}
	if x.fixCase(d.Code, ds) { // casefold.go
		return
	}
	switch d.Code {
	case "CONTRACT_ANSWER_MISSING":
		x.missingAnswers(d)
	case "CONTRACT_ROW_FIELD":
		x.missingRowFields(ds)
	case "CONTRACT_ROWS_BINDING":
		x.rowsBinding(ds)
	case "CONTRACT_VALUE_MISSING":
		x.missingValues(d)
	case "CONTRACT_ANSWER_UNKNOWN":
		x.unknownAnswer(ds)
	case "CONTRACT_ROW_CHOICE":
		x.rowChoice(ds)
	case "CONTRACT_CITATION_DANGLING":
		x.danglingCitation(ds)
		x.createHeading(d.Code, ds)
	case "PROSE_CITATION_DANGLING":
		x.danglingProse(ds)
	case "DOC_LINK_ANCHOR":
		x.linkAnchor(ds)
		x.createHeading(d.Code, ds)
	case "DOC_LINK_FILE":
		x.createFile(ds)
	case "TUNING_KEY_RESERVED":
		x.reservedKey(ds)
	case "FANTASY_BLOCK":
		x.fantasyBlock(ds)
	case "RULESET_INITIAL":
		x.rulesetInitial(ds)
	case "CLOCKS_MODE_MISSING":
		x.missingModes(ds)
	case "MODE_TAG_DANGLING":
		x.danglingTag(ds)
	case direction.CodeColorDangling, direction.CodeMoodPalette:
		x.danglingAddress(d.Code, ds)
	case personalization.CodeDefaultOption, personalization.CodeSetsTarget, "PERSONALIZATION_TAG_DANGLING":
		x.personalization(d.Code, ds) // personalize_query.go
	case buildplan.CodeField, buildplan.CodeGeneralScope, buildplan.CodeGeneralHolds:
		x.missingTestFields(d.Code, ds)
	}
}

// adoption returns the file's adoption and its state when the adoption
// parsed cleanly enough to edit.
func (x *fixer) adoption() (*contracts.Adoption, *contracts.State) {
	a := x.a
	if a == nil || a.ParseError != nil || a.Root == nil || a.Root.Kind() != jsonsrc.Object {
		return nil, nil
	}
	st := x.pkg.State(a)
	if st == nil {
		st = contracts.Evaluate(a, nil)
	}
	return a, st
}

func (x *fixer) editor() *jsonEditor { return newJSONEditor(x.f.Content, x.a.Root) }

// missingAnswers offers one action per option of each asked question that
// has no answer and that the diagnostic names.
func (x *fixer) missingAnswers(d analysis.Diagnostic) {
	a, st := x.adoption()
	if a == nil {
		return
	}
	var missing []*contracts.Question
	for _, q := range a.Questions {
		if st.Asked(q.Name.Text) && a.Answer(q.Name.Text) == nil {
			missing = append(missing, q)
		}
	}
	all := missing
	var named []*contracts.Question
	for _, q := range missing {
		if strings.Contains(d.Message, strconv.Quote(q.Name.Text)) {
			named = append(named, q)
		}
	}
	if len(named) > 0 {
		missing = named
	}
	e := x.editor()
	for _, q := range missing {
		for _, o := range q.Options {
			title := fmt.Sprintf("Answer %s with %s", q.Name.Text, o.Name.Text)
			if o.Meaning != nil && o.Meaning.Kind() == jsonsrc.String && strings.TrimSpace(o.Meaning.Str()) != "" {
				title += ": " + singleLine(o.Meaning.Str())
			}
			edit, ok := e.addToMember(a.AnswersKey, "answers", []jsonKV{{q.Name.Text, quoteJSON(o.Name.Text)}})
			if ok {
				x.add(title, "CONTRACT_ANSWER_MISSING", len(missing) == 1 && len(q.Options) == 1, edit)
			}
		}
	}
	x.allMissingAnswers(a, all)
}

// missingRowFields adds every missing required field of the row whose
// opening brace the diagnostic points at.
func (x *fixer) missingRowFields(ds source.Span) {
	a, st := x.adoption()
	if a == nil {
		return
	}
	for _, ra := range a.Rows {
		set := a.RowSet(ra.Name.Text)
		if set == nil {
			continue
		}
		for _, row := range ra.Rows {
			if row.Value == nil || row.Value.Span().Start != ds.Start {
				continue
			}
			// A placeholder can make another field's when hold, so fields
			// are added until no more become required.
			probe := &contracts.Row{Set: row.Set, Index: row.Index, Value: row.Value, Fields: append([]contracts.RowField{}, row.Fields...)}
			var kvs []jsonKV
			var names []string
			for changed := true; changed; {
				changed = false
				for _, fd := range set.Fields {
					if probe.Get(fd.Name.Text) != nil || !st.FieldRequired(probe, fd) {
						continue
					}
					text := fieldPlaceholder(fd)
					v, _ := jsonsrc.Parse([]byte(text))
					probe.Fields = append(probe.Fields, contracts.RowField{Name: contracts.Name{Text: fd.Name.Text}, Value: v})
					kvs = append(kvs, jsonKV{fd.Name.Text, text})
					names = append(names, strconv.Quote(fd.Name.Text))
					changed = true
				}
			}
			if len(kvs) == 0 {
				return
			}
			edit, ok := x.editor().insertMembers(row.Value, kvs, false)
			if !ok {
				return
			}
			title := "Add the missing required field " + names[0]
			if len(names) > 1 {
				title = "Add the missing required fields " + strings.Join(names, ", ")
			}
			x.add(title, "CONTRACT_ROW_FIELD", true, edit)
			return
		}
	}
}

// placeholder is the JSON text a new row field starts with: the first
// option of a closed choice, an empty string, or a number.
func fieldPlaceholder(fd *contracts.Field) string {
	switch fd.Type {
	case contracts.TypeNumber, contracts.TypeInteger:
		if w := fd.Within; w != nil && w.Valid && w.Bounds[0].IsNum && (w.Bounds[0].Num > 0 || (w.Bounds[1].IsNum && w.Bounds[1].Num < 0)) {
			n := w.Bounds[0].Num
			if fd.Type == contracts.TypeInteger && n != float64(int64(n)) {
				n = float64(int64(n) + 1)
			}
			return numText(n)
		}
		return "0"
	case contracts.TypeString:
		if len(fd.Options) > 0 {
			return quoteJSON(fd.Options[0].Text)
		}
	}
	return `""`
}

// rowsBinding adds missing row sets to rows, or renames an undeclared one
// to the nearest declared set that is missing.
func (x *fixer) rowsBinding(ds source.Span) {
	a, _ := x.adoption()
	if a == nil {
		return
	}
	if a.RowsKey != nil && (a.RowsKey.Value == nil || a.RowsKey.Value.Kind() != jsonsrc.Object) {
		return
	}
	var missing []string
	for _, set := range a.RowSets {
		if a.RowArray(set.Name.Text) == nil {
			missing = append(missing, set.Name.Text)
		}
	}
	for _, ra := range a.Rows {
		if ra.Name.Span == ds && a.RowSet(ra.Name.Text) == nil {
			x.replaceWithChoices("CONTRACT_ROWS_BINDING", ra.Name.Text, missing, ra.Name.Span, true)
			return
		}
	}
	if a.RowsKey != nil && a.RowsKey.KeySpan() != ds {
		return
	}
	e := x.editor()
	for _, name := range missing {
		edit, ok := e.addToMember(a.RowsKey, "rows", []jsonKV{{name, "[]"}})
		if ok {
			x.add(fmt.Sprintf("Add row set %q to rows, with no rows", name), "CONTRACT_ROWS_BINDING", len(missing) == 1, edit)
		}
	}
	if len(missing) > 1 {
		var kvs []jsonKV
		for _, name := range missing {
			kvs = append(kvs, jsonKV{name, "[]"})
		}
		if edit, ok := e.addToMember(a.RowsKey, "rows", kvs); ok {
			x.add("Add every missing row set to rows", "CONTRACT_ROWS_BINDING", true, edit)
		}
	}
}

// missingValues adds the active values that are not supplied.
func (x *fixer) missingValues(d analysis.Diagnostic) {
	a, st := x.adoption()
	if a == nil {
		return
	}
	if a.ValuesKey != nil && (a.ValuesKey.Value == nil || a.ValuesKey.Value.Kind() != jsonsrc.Object) {
		return
	}
	var missing []*contracts.Declaration
	for _, dcl := range a.Values {
		if st.Active(dcl.Name.Text) && a.SuppliedValue(dcl.Name.Text) == nil {
			missing = append(missing, dcl)
		}
	}
	named := false
	for _, dcl := range missing {
		named = named || strings.Contains(d.Message, strconv.Quote(dcl.Name.Text))
	}
	e := x.editor()
	var all []jsonKV
	for _, dcl := range missing {
		kv := jsonKV{dcl.Name.Text, startValue(dcl)}
		all = append(all, kv)
		if named && !strings.Contains(d.Message, strconv.Quote(dcl.Name.Text)) {
			continue
		}
		if edit, ok := e.addToMember(a.ValuesKey, "values", []jsonKV{kv}); ok {
			x.add(fmt.Sprintf("Add value %q = %s", dcl.Name.Text, kv.value), "CONTRACT_VALUE_MISSING", len(missing) == 1, edit)
		}
	}
	if len(missing) > 1 {
		if edit, ok := e.addToMember(a.ValuesKey, "values", all); ok {
			x.add("Add every missing value", "CONTRACT_VALUE_MISSING", true, edit)
		}
	}
}

// startValue is the JSON text a new value starts with: 0, or the range
// minimum when 0 is outside the range, or an empty citation when the
// declaration accepts only citations.
func startValue(d *contracts.Declaration) string {
	if !d.AcceptsNumber && d.AcceptsCitation {
		return `""`
	}
	if d.HasRange && (d.Min > 0 || d.Max < 0) {
		return numText(d.Min)
	}
	return "0"
}

// unknownAnswer replaces an answer that is not an option, or a question id
// that is not declared, with the nearest valid one.
func (x *fixer) unknownAnswer(ds source.Span) {
	a, _ := x.adoption()
	if a == nil {
		return
	}
	for _, ans := range a.Answers {
		if ans.Value != nil && ans.Value.Span() == ds {
			q := a.Question(ans.Question.Text)
			if q == nil {
				return
			}
			var opts []string
			for _, o := range q.Options {
				opts = append(opts, o.Name.Text)
			}
			cur := ans.Option
			if !ans.IsString {
				cur = string(textUnder(x.f.Content, ans.Value.Span()))
			}
			x.replaceWithChoices("CONTRACT_ANSWER_UNKNOWN", cur, opts, ans.Value.Span(), true)
			return
		}
		if ans.Question.Span == ds && a.Question(ans.Question.Text) == nil {
			var free []string
			for _, q := range a.Questions {
				if a.Answer(q.Name.Text) == nil {
					free = append(free, q.Name.Text)
				}
			}
			x.replaceWithChoices("CONTRACT_ANSWER_UNKNOWN", ans.Question.Text, free, ans.Question.Span, true)
			return
		}
	}
}

// rowChoice replaces a row value that is not one of its field's options.
func (x *fixer) rowChoice(ds source.Span) {
	a, _ := x.adoption()
	if a == nil {
		return
	}
	for _, ra := range a.Rows {
		set := a.RowSet(ra.Name.Text)
		for _, row := range ra.Rows {
			for _, rf := range row.Fields {
				if rf.Value == nil || rf.Value.Span() != ds {
					continue
				}
				fd := set.Field(rf.Name.Text)
				if fd == nil {
					return
				}
				x.replaceWithChoices("CONTRACT_ROW_CHOICE", rf.Value.Str(), fd.OptionTexts(), ds, true)
				return
			}
		}
	}
}

// replaceWithChoices offers replacing the token at span with the options:
// the nearest first (preferred when exactly one is close), then every
// option when there are few. quote writes the replacement as a JSON string.
func (x *fixer) replaceWithChoices(code, cur string, opts []string, span source.Span, quote bool) {
	ranked := rankByDistance(cur, opts)
	limit := typoLimit(cur)
	var close []string
	for _, c := range ranked {
		if source.EditDistance(cur, c) <= limit {
			close = append(close, c)
		}
	}
	offer := close
	if len(offer) > maxNearActions {
		offer = offer[:maxNearActions]
	}
	if len(opts) <= maxChoiceActions {
		offer = append(offer, ranked...)
	}
	for i, c := range offer {
		text := c
		if quote {
			text = quoteJSON(c)
		}
		x.add(fmt.Sprintf("Replace %s with %s", titleToken(cur), strconv.Quote(c)), code,
			i == 0 && len(close) == 1, TextEdit{Span: span, NewText: text})
	}
}

// danglingCitation replaces a dangling citation of the adoption with the
// nearest existing target: an anchor of the cited file, a chapter, a
// tuning key or a value of the cited adoption.
func (x *fixer) danglingCitation(ds source.Span) {
	v := x.citationUnder(ds)
	if v == nil {
		return
	}
	cur := v.Str()
	var cands []string
	switch {
	case strings.Contains(cur, "#"):
		file, anchor, _ := strings.Cut(cur, "#")
		rel, ok := analysis.PackageRelative(file)
		if !ok {
			return
		}
		if tf := x.pkg.FileAt(rel); tf != nil && tf.Markdown != nil {
			for _, h := range docAnchors(tf.Markdown, false) {
				cands = append(cands, file+"#"+h)
			}
			x.nearest("CONTRACT_CITATION_DANGLING", cur, file+"#"+anchor, cands, ds, true)
			return
		}
		for _, c := range x.pkg.Chapters {
			if len(c.File.Markdown.FindAnchor(anchor, false)) > 0 {
				cands = append(cands, c.Name+"#"+anchor)
			}
		}
		if len(cands) == 0 {
			for _, c := range x.pkg.Chapters {
				if hs := docAnchors(c.File.Markdown, false); len(hs) > 0 {
					cands = append(cands, c.Name+"#"+rankByDistance(anchor, hs)[0])
				}
			}
		}
	case cur == "contracts" || strings.HasPrefix(cur, "contracts."):
		segs := strings.Split(cur, ".")
		if len(segs) < 2 {
			return
		}
		if other := x.pkg.Adoption(segs[1]); other != nil && len(segs) == 3 {
			for _, d := range other.Values {
				cands = append(cands, "contracts."+other.ID+"."+d.Name.Text)
			}
		} else if other == nil {
			for _, o := range x.pkg.Adoptions.All() {
				cands = append(cands, "contracts."+strings.Join(append([]string{o.ID}, segs[2:]...), "."))
			}
		}
	default:
		if x.pkg.Tuning == nil {
			return
		}
		for _, e := range x.pkg.Tuning.Entries {
			if !e.Open {
				cands = append(cands, e.Key)
			}
		}
	}
	x.nearest("CONTRACT_CITATION_DANGLING", cur, cur, cands, ds, true)
}

// nearest offers up to maxNearActions replacements of the token at span,
// nearest to key first; the first is preferred when it is close.
func (x *fixer) nearest(code, cur, key string, cands []string, span source.Span, quote bool) {
	ranked := rankByDistance(key, cands)
	if len(ranked) > maxNearActions {
		ranked = ranked[:maxNearActions]
	}
	for i, c := range ranked {
		text := c
		if quote {
			text = quoteJSON(c)
		}
		x.add(fmt.Sprintf("Replace %s with %s", titleToken(cur), strconv.Quote(c)), code,
			i == 0 && source.EditDistance(key, c) <= typoLimit(key), TextEdit{Span: span, NewText: text})
	}
}

// citationAt finds the string value of a value or row citation at span.
func citationAt(a *contracts.Adoption, span source.Span) *jsonsrc.Value {
	for _, sup := range a.Supplied {
		if sup.Value != nil && sup.Value.Span() == span && sup.Value.Kind() == jsonsrc.String {
			return sup.Value
		}
	}
	for _, ra := range a.Rows {
		for _, row := range ra.Rows {
			for _, rf := range row.Fields {
				if rf.Value != nil && rf.Value.Span() == span && rf.Value.Kind() == jsonsrc.String {
					return rf.Value
				}
			}
		}
	}
	return nil
}

// danglingProse replaces a dangling inline-code citation of a chapter with
// the nearest address of the same kind.
func (x *fixer) danglingProse(ds source.Span) {
	doc := x.f.Markdown
	if doc == nil || x.pkg == nil {
		return
	}
	for _, cs := range doc.CodeSpans {
		if cs.Span() != ds {
			continue
		}
		ts, text := cs.TextSpan(), cs.Text(doc)
		start := ts.Start
		if ts.End > len(x.f.Content) || start < 0 || start > ts.End {
			return
		}
		i := strings.Index(string(x.f.Content[start:ts.End]), text)
		if text == "" || i < 0 {
			return
		}
		span := source.Span{Start: start + i, End: start + i + len(text)}
		class, segs := analysis.ClassifyToken(text)
		var cands []string
		p := x.pkg
		reserved := false
		if now := direction.RetiredConstraint(text); now != "" && p.ResolveProse(now) == "" {
			// The retired form of a measured promise (SPEC Appendix A).
			x.add(fmt.Sprintf("Replace `%s` with `%s`", text, now), "PROSE_CITATION_DANGLING", true, TextEdit{Span: span, NewText: now})
			return
		}
		switch class {
		case analysis.TuningCitation:
			if near := analysis.NearReserved(segs[0]); near != "" {
				alt := near + "." + strings.Join(segs[1:], ".")
				if p.ResolveProse(alt) == "" {
					reserved = true
					x.add(fmt.Sprintf("Replace `%s` with `%s`", text, alt), "PROSE_CITATION_DANGLING", true, TextEdit{Span: span, NewText: alt})
				}
			}
			cands = p.TuningKeys()
		case analysis.MechanismPath:
			cands = mechanismCandidates(p, segs)
		default:
			return
		}
		ranked := rankByDistance(text, cands)
		if len(ranked) > maxNearActions {
			ranked = ranked[:maxNearActions]
		}
		for i, c := range ranked {
			x.add(fmt.Sprintf("Replace `%s` with `%s`", text, c), "PROSE_CITATION_DANGLING",
				i == 0 && !reserved && source.EditDistance(text, c) <= typoLimit(text), TextEdit{Span: span, NewText: c})
		}
		return
	}
}

// mechanismCandidates lists the addresses a prose token with a reserved
// first segment could have meant.
func mechanismCandidates(p *analysis.Package, segs []string) []string {
	var out []string
	switch segs[0] {
	case "values":
		if p.Tuning != nil {
			for _, e := range p.Tuning.Entries {
				if !e.Open {
					out = append(out, "values."+e.Key)
				}
			}
		}
	case "ranges":
		if p.Tuning != nil {
			for k := range p.Tuning.Ranges {
				out = append(out, "ranges."+k)
			}
		}
	case "rules":
		if p.Tuning != nil {
			for _, r := range p.Tuning.Rules {
				out = append(out, "rules."+r.Name)
			}
		}
	case "contracts":
		if len(segs) == 3 {
			if a := p.Adoption(segs[1]); a != nil {
				for _, d := range a.Values {
					out = append(out, "contracts."+a.ID+"."+d.Name.Text)
				}
				return out
			}
		}
		for _, a := range p.Adoptions.All() {
			out = append(out, "contracts."+strings.Join(append([]string{a.ID}, segs[min(2, len(segs)):]...), "."))
		}
	case "clocks":
		for c := range p.Clocks {
			out = append(out, "clocks."+c)
		}
	}
	return out
}

// linkAnchor replaces the dangling fragment of a Markdown link with the
// nearest anchors of the linked file.
func (x *fixer) linkAnchor(ds source.Span) {
	d, tf, ok := x.linkUnder(ds)
	if !ok || tf == nil || tf.Markdown == nil {
		return
	}
	anchor := d.Fragment
	x.nearest("DOC_LINK_ANCHOR", "#"+anchor, anchor, docAnchors(tf.Markdown, !tf.InPackage()), ds, false)
}

// reservedKey offers new names for a tuning key whose first segment is
// reserved: the key without that segment, and the key under "feel".
func (x *fixer) reservedKey(ds source.Span) {
	p := x.pkg
	if p == nil || p.Tuning == nil || p.TuningFile != x.f {
		return
	}
	key := ""
	for _, e := range p.Tuning.Entries {
		if e.KeySpan == ds {
			key = e.Key
		}
	}
	for k, r := range p.Tuning.Ranges {
		if r.KeySpan == ds {
			key = k
		}
	}
	segs := strings.Split(key, ".")
	if key == "" || len(segs) < 2 {
		return
	}
	rest := strings.Join(segs[1:], ".")
	for _, c := range []string{rest, "feel." + rest} {
		if _, _, ok := tuning.CheckKey(c); !ok {
			continue
		}
		if _, taken := p.Tuning.Lookup(c); taken {
			continue
		}
		x.add(fmt.Sprintf("Rename the key %q to %q", key, c), "TUNING_KEY_RESERVED", false, TextEdit{Span: ds, NewText: quoteJSON(c)})
	}
}

// docAnchors lists a document's anchors under one rule, each once, in
// document order.
func docAnchors(doc *markdown.Doc, github bool) []string {
	seen := map[string]bool{}
	var out []string
	for _, h := range doc.Headings {
		a := h.Anchor
		if github {
			a = h.GitHubAnchor
		}
		if a != "" && !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

// rankByDistance orders the candidates other than s by edit distance to s, then
// by name, without repeats.
func rankByDistance(s string, cands []string) []string {
	seen := map[string]bool{s: true}
	type scored struct {
		c string
		d int
	}
	var list []scored
	for _, c := range cands {
		if seen[c] {
			continue
		}
		seen[c] = true
		list = append(list, scored{c, source.EditDistance(s, c)})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].d != list[j].d {
			return list[i].d < list[j].d
		}
		return list[i].c < list[j].c
	})
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = e.c
	}
	return out
}

// typoLimit is the edit distance up to which a candidate counts as a likely
// typo of s, as in nearest.
func typoLimit(s string) int { return min(3, max(1, len([]rune(s))/3)) }

// titleToken shows the token being replaced in an action title.
func titleToken(s string) string {
	if strings.HasPrefix(s, "#") {
		return s
	}
	return strconv.Quote(s)
}

func singleLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// quoteJSON writes s as a JSON string.
func quoteJSON(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return strconv.Quote(s)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func numText(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func textUnder(content []byte, span source.Span) []byte {
	start, end := max(0, span.Start), min(len(content), span.End)
	if start >= end {
		return nil
	}
	return content[start:end]
}

// jsonKV is a member to insert: a key and its JSON value text.
type jsonKV struct {
	key   string
	value string
}

// jsonEditor builds insertions into one JSON file that follow its line
// endings and indentation.
type jsonEditor struct {
	content []byte
	root    *jsonsrc.Value
	nl      string
	unit    string // one level of indentation
}

func newJSONEditor(content []byte, root *jsonsrc.Value) *jsonEditor {
	e := &jsonEditor{content: content, root: root, nl: "\n", unit: "  "}
	if bytes.Contains(content, []byte("\r\n")) {
		e.nl = "\r\n"
	}
	if root != nil && root.Kind() == jsonsrc.Object {
		for _, m := range root.Members() {
			if ind, first := e.indentAt(m.KeySpan().Start); first && ind != "" {
				base, _ := e.indentAt(root.Span().Start)
				if strings.HasPrefix(ind, base) && len(ind) > len(base) {
					e.unit = ind[len(base):]
				} else {
					e.unit = ind
				}
				break
			}
		}
	}
	return e
}

// indentAt returns the leading white space of the line holding off, and
// whether off is the first non-blank byte of that line.
func (e *jsonEditor) indentAt(off int) (string, bool) {
	off = min(max(off, 0), len(e.content))
	start := off
	for start > 0 && e.content[start-1] != '\n' && e.content[start-1] != '\r' {
		start--
	}
	i := start
	for i < off && (e.content[i] == ' ' || e.content[i] == '\t') {
		i++
	}
	// A byte order mark at the start of the file is not indentation.
	ind := string(e.content[start:i])
	return ind, i == off
}

// multiline reports whether a value spans more than one line.
func (e *jsonEditor) multiline(v *jsonsrc.Value) bool {
	end := min(v.Span().End, len(e.content))
	start := min(max(v.Span().Start, 0), end)
	return bytes.ContainsAny(e.content[start:end], "\r\n")
}

// addToMember inserts kvs into the object value of m, or, when m is nil,
// adds a top-level member name holding an object of kvs.
func (e *jsonEditor) addToMember(m *jsonsrc.Member, name string, kvs []jsonKV) (TextEdit, bool) {
	if m != nil {
		if m.Value == nil || m.Value.Kind() != jsonsrc.Object {
			return TextEdit{}, false
		}
		return e.insertMembers(m.Value, kvs, e.root != nil && e.multiline(e.root))
	}
	if e.root == nil || e.root.Kind() != jsonsrc.Object {
		return TextEdit{}, false
	}
	parts := make([]string, len(kvs))
	for i, kv := range kvs {
		parts[i] = quoteJSON(kv.key) + ": " + kv.value
	}
	return e.insertMembers(e.root, []jsonKV{{name, "{ " + strings.Join(parts, ", ") + " }"}}, true)
}

// insertMembers inserts kvs at the end of obj. An empty object is written
// out over several lines when expand is set, else inline; a non-empty one
// follows the layout of its last member.
func (e *jsonEditor) insertMembers(obj *jsonsrc.Value, kvs []jsonKV, expand bool) (TextEdit, bool) {
	if obj == nil || obj.Kind() != jsonsrc.Object || obj.Incomplete() || len(kvs) == 0 || obj.Span().End > len(e.content) {
		return TextEdit{}, false
	}
	member := func(kv jsonKV) string { return quoteJSON(kv.key) + ": " + kv.value }
	if len(obj.Members()) == 0 {
		interior := source.Span{Start: obj.Span().Start + 1, End: obj.Span().End - 1}
		if interior.End < interior.Start {
			return TextEdit{}, false
		}
		var b strings.Builder
		if expand {
			base, _ := e.indentAt(obj.Span().Start)
			for i, kv := range kvs {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(e.nl + base + e.unit + member(kv))
			}
			b.WriteString(e.nl + base)
		} else {
			for i, kv := range kvs {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(" " + member(kv))
			}
			b.WriteString(" ")
		}
		return TextEdit{Span: interior, NewText: b.String()}, true
	}
	last := obj.Members()[len(obj.Members())-1]
	if last.Value == nil || last.Value.Kind() == jsonsrc.Invalid {
		return TextEdit{}, false
	}
	ind, first := e.indentAt(last.KeySpan().Start)
	sameLine := !bytes.ContainsAny(e.content[obj.Span().Start:max(obj.Span().Start, last.KeySpan().Start)], "\r\n")
	var b strings.Builder
	for _, kv := range kvs {
		if first && !sameLine {
			b.WriteString("," + e.nl + ind + member(kv))
		} else {
			b.WriteString(", " + member(kv))
		}
	}
	at := last.Value.Span().End
	return TextEdit{Span: source.Span{Start: at, End: at}, NewText: b.String()}, true
}
