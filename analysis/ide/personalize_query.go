package ide

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/analysis/personalization"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The editor queries of personalization.json (SPEC §5) and of the
// > PERSONALIZATION: tags that name its questions (§2).

// persQuery is one query in a package's personalization.json: the file's
// reading and the JSON context of the cursor.
type persQuery struct {
	pkg    *analysis.Package
	file   *analysis.File
	pers   *personalization.File
	offset int
	ctx    jsonsrc.Context
}

// newPersQuery returns the query context of personalization.json, or nil for
// another file. A file that does not parse is read from a repaired copy
// when one parses, so completion works while a member is being typed; its
// spans are then not used.
func newPersQuery(s *analysis.Snapshot, f *analysis.File, offset int) *persQuery {
	p := s.PackageFor(f)
	if p == nil || p.Rel(f.Path) != "personalization.json" {
		return nil
	}
	q := &persQuery{pkg: p, file: f, pers: p.PersonalizationFile(), offset: offset, ctx: jsonsrc.ContextAt(f.Content, offset)}
	if q.pers == nil {
		q.pers = personalization.Parse(f.Path, draftJSON(f.Content, q.ctx))
	}
	return q
}

// question returns the question at index i of questions, or nil.
func (q *persQuery) question(i int) *personalization.Question {
	root := q.pers.Root
	qs := root.Get("questions")
	if qs == nil || qs.Kind() != jsonsrc.Array || i < 0 || i >= len(qs.Elems()) {
		return nil
	}
	span := qs.Elems()[i].Span()
	for _, qu := range q.pers.Questions {
		if qu.Span == span {
			return qu
		}
	}
	return nil
}

// complete proposes, at the cursor: the option ids of a choice question in
// its default; the keys an answer may set (ranged values keys and open
// keys) as a sets target; elsewhere what completeShaped offers.
func (q *persQuery) complete() []CompletionItem {
	c := q.ctx
	keys := c.Keys()
	n := len(keys)
	switch {
	case c.Pos == jsonsrc.PosValue && n == 3 && keys[0] == "questions" && keys[2] == "default":
		return q.defaultItems(q.question(c.Path[1].Index))
	case c.Pos == jsonsrc.PosValue && n == 3 && keys[0] == "questions" && keys[2] == "sets":
		if qu := q.question(c.Path[1].Index); qu == nil || qu.Type != personalization.Number {
			return nil
		}
		return q.targetItems(func(key string) *TextEdit { return valueEditAt(c, key, true) })
	case c.Pos == jsonsrc.PosKey && n == 5 && keys[0] == "questions" && keys[2] == "options" && keys[4] == "sets":
		return q.targetItems(func(key string) *TextEdit { return keyEditAt(c, key) })
	}
	// The members a question or option still lacks (by its type), the
	// values of type: the queries of every shaped file.
	k, _ := shapedFile(q.pkg, q.file)
	return completeShaped(k, q.file.Content, q.offset)
}

// defaultItems lists the option ids of a choice question.
func (q *persQuery) defaultItems(qu *personalization.Question) []CompletionItem {
	if qu == nil || qu.Type != personalization.Choice {
		return nil
	}
	var out []CompletionItem
	seen := map[string]bool{}
	for i, o := range qu.Options {
		if o.ID == "" || seen[o.ID] {
			continue
		}
		seen[o.ID] = true
		out = append(out, CompletionItem{Label: o.ID, Kind: CompleteOption, Detail: o.Label, Documentation: setsText(o.Sets),
			SortText: fmt.Sprintf("%04d", i), Edit: valueEditAt(q.ctx, o.ID, true)})
	}
	return out
}

// targetItems lists the tuning keys a personalization answer may set: the
// ranged values keys and the open keys, never a contract value.
func (q *persQuery) targetItems(edit func(string) *TextEdit) []CompletionItem {
	var out []CompletionItem
	for _, it := range tuningItems(q.pkg.Tuning, false, edit) {
		if _, s := q.pkg.Tuning.SetsTarget(it.Label); s == tuning.Settable && !q.ctx.HasKey(it.Label) {
			out = append(out, it)
		}
	}
	return out
}

// setsText lists an option's assignments, "`a.b` = 1, `c.d` = 2".
func setsText(sets []personalization.Assignment) string {
	var parts []string
	for _, a := range sets {
		if a.HasValue {
			parts = append(parts, fmt.Sprintf("`%s` = %s", a.Key, fmtFloat(a.Value)))
		}
	}
	return strings.Join(parts, ", ")
}

// hover explains the question, option or sets target under the cursor.
func (q *persQuery) hover() *HoverInfo {
	if q.pkg.PersonalizationFile() == nil {
		return nil // the spans of a repaired copy are not the file's
	}
	hit := LocateJSON(q.pers.Root, q.offset)
	keys := PathKeys(hit.Path)
	n := len(keys)
	if n < 2 || keys[0] != "questions" {
		return q.memberHover()
	}
	qu := q.question(hit.Path[1].Index)
	if qu == nil {
		return nil
	}
	span := source.Span{}
	if hit.Value != nil {
		span = hit.Value.Span()
	}
	if hit.OnKey {
		span = hit.Member.KeySpan()
	}
	switch {
	case n == 2 || n == 3 && keys[2] == "id":
		if n == 2 {
			span = qu.Span
		}
		return &HoverInfo{Markdown: questionMarkdown(q.pkg, qu), Span: span}
	case n == 3 && keys[2] == "default" && !hit.OnKey && qu.DefaultOption() != nil:
		return &HoverInfo{Markdown: optionMarkdown(qu, qu.DefaultOption()), Span: span}
	case n == 3 && keys[2] == "sets" && !hit.OnKey && qu.SetsKey != "":
		return &HoverInfo{Markdown: targetMarkdown(q.pkg, qu.SetsKey), Span: span}
	case n >= 4 && keys[2] == "options":
		var o *personalization.Option
		for _, x := range qu.Options {
			if x.Span.Contains(q.offset) {
				o = x
			}
		}
		if o == nil {
			return nil
		}
		if n == 6 && keys[4] == "sets" && hit.OnKey {
			return &HoverInfo{Markdown: targetMarkdown(q.pkg, keys[5]), Span: span}
		}
		if n == 4 || n == 5 && keys[4] == "id" {
			return &HoverInfo{Markdown: optionMarkdown(qu, o), Span: span}
		}
	}
	return q.memberHover()
}

// memberHover is the hover of every shaped file on the member at the
// cursor.
func (q *persQuery) memberHover() *HoverInfo {
	k, _ := shapedFile(q.pkg, q.file)
	return hoverShaped(k, q.pers.Root, q.offset)
}

// targetMarkdown explains a sets target: the tuning key and whether an
// answer may set it.
func targetMarkdown(p *analysis.Package, key string) string {
	md := tuningMarkdown(p, key, false)
	switch _, s := p.Tuning.SetsTarget(key); s {
	case tuning.ContractValue:
		return fmt.Sprintf("`%s` is a contract value: it is fixed in its adoption, and no answer can set it.", key)
	case tuning.Unranged:
		md += "\n\nA decided number: no answer can set it until it has a range."
	}
	return md
}

// questionMarkdown shows a question: its id and type, prompt, default,
// options with what each sets, the key a number answer sets, and notes.
func questionMarkdown(p *analysis.Package, qu *personalization.Question) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**personalization question `%s`** (%s)", qu.ID, qu.Type)
	if qu.Prompt != "" {
		fmt.Fprintf(&b, "\n\n%s", qu.Prompt)
	}
	if d := qu.Default; d != nil {
		fmt.Fprintf(&b, "\n\nDefault: `%s`", jsonText(d))
	}
	if qu.Type == personalization.Choice && len(qu.Options) > 0 {
		b.WriteString("\n\n| Option | Label | Sets |\n| --- | --- | --- |")
		for _, o := range qu.Options {
			sets := setsText(o.Sets)
			if sets == "" {
				sets = "nothing (instruction for the builder)"
			}
			fmt.Fprintf(&b, "\n| `%s` | %s | %s |", o.ID, tableCell(o.Label), sets)
		}
	}
	if qu.Type == personalization.Number {
		if qu.SetsKey != "" {
			fmt.Fprintf(&b, "\n\nThe answer sets `%s`", qu.SetsKey)
			if p.Tuning != nil {
				if e, ok := p.Tuning.Lookup(qu.SetsKey); ok {
					fmt.Fprintf(&b, ", now %s", tuningDetail(e))
				}
			}
			b.WriteString(".")
		} else {
			b.WriteString("\n\nThe answer sets no number: it is an instruction for the builder.")
		}
	}
	if qu.Notes != "" {
		fmt.Fprintf(&b, "\n\nNotes: %s", qu.Notes)
	}
	return b.String()
}

// optionMarkdown shows one option of a choice question.
func optionMarkdown(qu *personalization.Question, o *personalization.Option) string {
	md := fmt.Sprintf("**option `%s`** of question `%s`: %s", o.ID, qu.ID, o.Label)
	if qu.DefaultOption() == o {
		md += " (the default)"
	}
	if sets := setsText(o.Sets); sets != "" {
		md += "\n\nSets " + sets + "."
	} else {
		md += "\n\nSets no number: an instruction for the builder."
	}
	if o.Notes != "" {
		md += "\n\nNotes: " + o.Notes
	}
	return md
}

// jsonText is a scalar JSON value as written, a string without quotes.
func jsonText(v *jsonsrc.Value) string {
	if v.Kind() == jsonsrc.String {
		return v.Str()
	}
	return v.Raw()
}

// tableCell makes text safe inside a Markdown table cell.
func tableCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
}

// tagLine matches the text of a line before the cursor that is typing the
// id of a > PERSONALIZATION: tag.
var tagLine = regexp.MustCompile(`^ *(?:> *)+PERSONALIZATION:[ \t]*(\S*)$`)

// tagItems completes the question id of a > PERSONALIZATION: tag whose
// line runs from lineStart to lineEnd; ok is false when the cursor is not
// on the id of such a line.
func tagItems(s *analysis.Snapshot, f *analysis.File, lineStart, offset, lineEnd int) (items []CompletionItem, ok bool) {
	m := tagLine.FindSubmatchIndex(f.Content[lineStart:offset])
	if m == nil || !f.InPackage() {
		return nil, false
	}
	start := lineStart + m[2]
	space := ""
	if f.Content[start-1] == ':' {
		space = " " // the id is written after a space
	}
	end := offset
	for end < lineEnd && f.Content[end] != ' ' && f.Content[end] != '\t' {
		end++
	}
	p := s.PackageFor(f)
	if p.PersonalizationFile() == nil {
		return nil, true
	}
	seen := map[string]bool{}
	for i, qu := range p.PersonalizationFile().Questions {
		if qu.ID == "" || seen[qu.ID] || strings.IndexFunc(qu.ID, personalization.IsWhitespace) >= 0 {
			continue // a tag's id ends at the first space: it cannot name this one
		}
		seen[qu.ID] = true
		items = append(items, CompletionItem{Label: qu.ID, Kind: CompleteQuestion, Detail: qu.Type, Documentation: qu.Prompt,
			SortText: fmt.Sprintf("%04d", i), Edit: &TextEdit{Span: source.Span{Start: start, End: end}, NewText: space + qu.ID}})
	}
	return items, true
}

// tagHover explains the > PERSONALIZATION: tag under the cursor: the
// question it names.
func tagHover(s *analysis.Snapshot, f *analysis.File, offset int) *HoverInfo {
	p := s.PackageFor(f)
	if p == nil {
		return nil
	}
	for _, tag := range f.Markdown.Tags {
		if tag.Kind != markdown.Personalization || !(tag.WordSpan.Contains(offset) || tag.IDSpan.Contains(offset) || offset == tag.IDSpan.End) {
			continue
		}
		span := source.Span{Start: tag.WordSpan.Start, End: tag.IDSpan.End}
		if p.PersonalizationFile() == nil {
			if p.Unreadable("personalization.json") {
				return &HoverInfo{Markdown: "personalization.json does not parse, so the question is not known.", Span: span}
			}
			return &HoverInfo{Markdown: "The package has no personalization.json, so this tag names no question.", Span: span}
		}
		qu := p.PersonalizationFile().Question(tag.ID)
		if qu == nil {
			return &HoverInfo{Markdown: fmt.Sprintf("personalization.json declares no question `%s`.", tag.ID), Span: span}
		}
		return &HoverInfo{Markdown: "The passage is resolved by the build's answer to this question.\n\n" + questionMarkdown(p, qu), Span: span}
	}
	return nil
}

// personalization indexes the question ids of personalization.json, the
// > PERSONALIZATION: tags of the chapters that name them, and the sets
// targets, which cite tuning keys.
func (b *indexBuilder) personalization(p *analysis.Package) {
	if p.PersonalizationFile() == nil {
		return
	}
	pf := b.snap.File(p.PersonalizationFile().Name)
	if pf == nil {
		return
	}
	for _, qu := range p.PersonalizationFile().Questions {
		if qu.ID == "" {
			continue
		}
		t := targetKey{kind: targetQuestion, scope: p.Root, name: qu.ID}
		b.add(jsonRef(pf.Path, pf.Content, refDecl, t, qu.IDSpan, qu.ID, 0, len(qu.ID)))
	}
	for _, tg := range p.PersonalizationFile().Targets() {
		if _, s := p.Tuning.SetsTarget(tg.Key); s == tuning.ContractValue {
			continue
		}
		t := targetKey{kind: targetTuningKey, scope: p.Root, name: tg.Key}
		b.add(jsonRef(pf.Path, pf.Content, refSets, t, tg.KeySpan, tg.Key, 0, len(tg.Key)))
	}
	for _, c := range p.Chapters {
		for _, tag := range c.File.Markdown.Tags {
			if tag.Kind != markdown.Personalization || tag.ID == "" {
				continue
			}
			t := targetKey{kind: targetQuestion, scope: p.Root, name: tag.ID}
			b.add(citeRef{File: c.File.Path, Kind: refTag, Target: t, Whole: tag.IDSpan, Name: tag.IDSpan, Exact: true, Text: tag.ID})
		}
	}
}

// questionLocations returns the ids of the questions named id.
func questionLocations(s *analysis.Snapshot, p *analysis.Package, id string) []Location {
	if p.PersonalizationFile() == nil {
		return nil
	}
	var out []Location
	for _, qu := range p.PersonalizationFile().Questions {
		if qu.ID == id {
			out = append(out, Location{File: p.PersonalizationFile().Name, Span: qu.IDSpan})
		}
	}
	return out
}

// renameQuestion rewrites question id old of package p to newID in
// personalization.json and in every > PERSONALIZATION: tag naming it.
func renameQuestion(s *analysis.Snapshot, p *analysis.Package, old, newID string) (map[string][]TextEdit, error) {
	if newID == "" || strings.IndexFunc(newID, personalization.IsWhitespace) >= 0 {
		return nil, fmt.Errorf("%q is not a question id: an id is one word, without whitespace", newID)
	}
	if newID == old {
		return map[string][]TextEdit{}, nil
	}
	if p.PersonalizationFile().Question(newID) != nil {
		return nil, fmt.Errorf("personalization.json already has a question %q", newID)
	}
	return rewriteAll(s, targetKey{kind: targetQuestion, scope: p.Root, name: old}, newID)
}

// personalization offers the fixes of a personalization finding at ds: a
// choice default replaced by an option id, a sets target by the nearest
// key an answer may set, a tag's id by a declared question id.
func (x *fixer) personalization(code string, ds source.Span) {
	p := x.pkg
	if p == nil {
		return
	}
	if code == "PERSONALIZATION_TAG_DANGLING" {
		if p.PersonalizationFile() == nil || x.f.Markdown == nil {
			return
		}
		for _, tag := range x.f.Markdown.Tags {
			if tag.Kind == markdown.Personalization && tag.IDSpan == ds {
				x.replaceWithChoices(code, tag.ID, p.PersonalizationFile().QuestionIDs(), ds, false)
			}
		}
		return
	}
	if p.PersonalizationFile() == nil || p.PersonalizationFile().Name != x.f.Path {
		return
	}
	for _, qu := range p.PersonalizationFile().Questions {
		if code == personalization.CodeDefaultOption && qu.Default != nil && qu.Default.Span() == ds {
			var ids []string
			for _, o := range qu.Options {
				ids = append(ids, o.ID)
			}
			cur := qu.Default.Str()
			if qu.Default.Kind() != jsonsrc.String {
				cur = string(x.f.Content[ds.Start:ds.End]) // a number or true, as written
			}
			x.replaceWithChoices(code, cur, ids, ds, true)
			return
		}
	}
	if code != personalization.CodeSetsTarget {
		return
	}
	for _, t := range p.PersonalizationFile().Targets() {
		if t.KeySpan == ds {
			x.nearest(code, t.Key, t.Key, p.SettableKeys(), ds, true)
			return
		}
	}
}

// definition leads from a choice question's default to the option it
// names.
func (q *persQuery) definition() []Location {
	if q.pkg.PersonalizationFile() == nil {
		return nil
	}
	for _, qu := range q.pers.Questions {
		if d := qu.Default; d != nil && d.Span().Contains(q.offset) {
			if o := qu.DefaultOption(); o != nil {
				return []Location{{File: q.file.Path, Span: o.IDSpan}}
			}
		}
	}
	return nil
}

// persSymbols outlines personalization.json: its questions with their
// options.
func persSymbols(pf *personalization.File) []Symbol {
	var out []Symbol
	for _, qu := range pf.Questions {
		if qu.ID == "" {
			continue
		}
		sym := Symbol{Name: qu.ID, Detail: oneLine(qu.Type + ": " + qu.Prompt), Kind: SymbolQuestion, Span: qu.Span, SelectionSpan: qu.IDSpan}
		for _, o := range qu.Options {
			if o.ID != "" {
				sym.Children = append(sym.Children, Symbol{Name: o.ID, Detail: oneLine(o.Label), Kind: SymbolOption, Span: o.Span, SelectionSpan: o.IDSpan})
			}
		}
		out = append(out, sym)
	}
	return out
}

// questionLenses returns a lens above each question of personalization.json
// with the number of > PERSONALIZATION: tags that name it.
func questionLenses(s *analysis.Snapshot, p *analysis.Package) []CodeLens {
	var out []CodeLens
	for _, qu := range p.PersonalizationFile().Questions {
		if qu.ID != "" {
			out = append(out, referenceLens(s, p.PersonalizationFile().Name, qu.IDSpan, targetKey{kind: targetQuestion, scope: p.Root, name: qu.ID}))
		}
	}
	return out
}
