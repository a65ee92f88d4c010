package ide

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/pack"
	"github.com/gddls/gddls/contracts/source"
)

// Complete returns completion proposals at offset: in a contract adoption,
// the names and values that fit the place of the cursor (answers, values,
// row fields and their options, citations, verification templates); in a
// Markdown file, tuning keys and contract addresses in inline code, and
// files and heading anchors in link destinations; in manifest.json, the
// members an object may still take and the values a member allows. The
// JSON may be half typed.
func Complete(s *analysis.Snapshot, path string, offset int) []CompletionItem {
	f := s.File(path)
	if f == nil || f.Skipped != "" || offset < 0 || offset > len(f.Content) {
		return nil
	}
	if f.Markdown != nil {
		return completeMarkdown(s, f, offset)
	}
	if items, ok := completeClocks(s, f, offset); ok {
		return items
	}
	if pq := newPersQuery(s, f, offset); pq != nil {
		return pq.complete()
	}
	if isBuildRecord(f) {
		if items, ok := completeBuildRecord(s, f, offset); ok {
			return items
		}
	}
	if isDirectionFile(f) {
		return completeDirection(s, f, offset)
	}
	if items, ok := completeLink(s, f, offset); ok {
		return items // the record ids a link field may hold
	}
	if k, ok := shapedFile(s.PackageFor(f), f); ok {
		return completeShaped(k, f.Content, offset)
	}
	q := newAdoptionQuery(s, f, offset)
	if q == nil {
		return nil
	}
	return q.complete()
}

// adoptionQuery is one query in an adoption file: the adoption's model and
// evaluation, and the JSON context of the cursor.
type adoptionQuery struct {
	snap   *analysis.Snapshot
	pkg    *analysis.Package
	file   *analysis.File
	a      *contracts.Adoption
	st     *contracts.State
	offset int
	ctx    jsonsrc.Context
}

// newAdoptionQuery returns the query context of an adoption file, or nil when
// the file is not an adoption of a package. When the file does not parse,
// it reads a repaired copy if one parses, so that an edit in progress still
// completes against the whole definition and the current answers;
// otherwise the partial model the snapshot kept (everything before the
// syntax error).
func newAdoptionQuery(s *analysis.Snapshot, f *analysis.File, offset int) *adoptionQuery {
	p := s.PackageFor(f)
	if p == nil {
		return nil
	}
	a := draftAdoption(s, f)
	if a == nil {
		return nil
	}
	q := &adoptionQuery{snap: s, pkg: p, file: f, a: a, st: p.State(a), offset: offset}
	q.ctx = jsonsrc.ContextAt(f.Content, offset)
	if a.ParseError != nil {
		for _, fixed := range repairJSON(f.Content, q.ctx) {
			if b := contracts.ParseAdoption(f.Path, fixed); b.ParseError == nil {
				q.a = b
				q.st = contracts.Evaluate(b, p.Citations())
				break
			}
		}
	}
	if q.st == nil {
		q.st = contracts.Evaluate(q.a, p.Citations())
	}
	return q
}

// draftAdoption returns the adoption parsed from f, also when the package
// does not count f as one (a first adoption still too broken to claim to
// be one leaves contracts/ reserved): completion and hover help while it is
// being written. It returns nil for a file that cannot be an adoption.
func draftAdoption(s *analysis.Snapshot, f *analysis.File) *contracts.Adoption {
	if _, a := s.AdoptionAt(f.Path); a != nil {
		return a
	}
	p := s.PackageFor(f)
	dir, name := path.Split(p.Rel(f.Path))
	if _, _, isPack := pack.IsPackFileName(name); dir != "contracts/" || isPack || !strings.HasSuffix(name, ".json") || !f.Parsed() {
		return nil
	}
	return f.ParsedAdoption()
}

// repairJSON returns repaired copies of a half-typed JSON text to try in
// order: the token under the cursor dropped (a value position gets null),
// then the cursor's line blanked; both without trailing commas. Offsets
// after the cursor may shift; the model read from a copy is used for its
// names and values only, never for its spans.
func repairJSON(data []byte, ctx jsonsrc.Context) [][]byte {
	var out [][]byte
	tok := ctx.Token
	if tok.Start < 0 || tok.End > len(data) || tok.Start > tok.End {
		return nil
	}
	fill := ""
	if ctx.Pos == jsonsrc.PosValue || ctx.Pos == jsonsrc.PosElement {
		fill = "null"
	}
	a := append(append(append([]byte(nil), data[:tok.Start]...), fill...), data[tok.End:]...)
	out = append(out, dropTrailingCommas(a))

	b := append([]byte(nil), data...)
	start, end := tok.Start, tok.Start
	for start > 0 && b[start-1] != '\n' && b[start-1] != '\r' {
		start--
	}
	for end < len(b) && b[end] != '\n' && b[end] != '\r' {
		end++
	}
	for i := start; i < end; i++ {
		b[i] = ' '
	}
	return append(out, dropTrailingCommas(b))
}

// dropTrailingCommas blanks every comma followed only by white space and a
// closer, outside strings.
func dropTrailingCommas(out []byte) []byte {
	inStr := false
	lastComma := -1
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"', '\n':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr, lastComma = true, -1
		case ',':
			lastComma = i
		case '}', ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case ' ', '\t', '\n', '\r':
		default:
			lastComma = -1
		}
	}
	return out
}

func (q *adoptionQuery) complete() []CompletionItem {
	c := q.ctx
	keys := c.Keys()
	n := len(keys)
	switch {
	case c.Pos == jsonsrc.PosKey && n == 0:
		return q.topLevelKeys()
	case c.Pos == jsonsrc.PosKey && n == 1 && keys[0] == "answers":
		return q.answerSnippets(q.answerKeys())
	case c.Pos == jsonsrc.PosValue && n == 2 && keys[0] == "answers":
		return q.answerValues(keys[1])
	case c.Pos == jsonsrc.PosKey && n == 1 && keys[0] == "values":
		return q.valueKeys()
	case c.Pos == jsonsrc.PosValue && n == 2 && keys[0] == "values":
		d := q.a.Declaration(keys[1])
		if d == nil || !d.AcceptsCitation {
			return nil
		}
		return q.citations(false, keys[1])
	case c.Pos == jsonsrc.PosKey && n == 1 && keys[0] == "rows":
		return q.rowSetKeys()
	case c.Pos == jsonsrc.PosElement && n == 3 && keys[0] == "rows" && keys[2] == "[]":
		return q.rowSnippet(keys[1])
	case c.Pos == jsonsrc.PosKey && n == 3 && keys[0] == "rows" && keys[2] == "[]":
		return q.rowFields(keys[1], c.Path[2].Index)
	case c.Pos == jsonsrc.PosValue && n == 4 && keys[0] == "rows" && keys[2] == "[]":
		return q.rowValue(keys[1], keys[3])
	case c.Pos == jsonsrc.PosKey && n == 1 && keys[0] == "verification":
		return q.templateKeys()
	case c.Pos == jsonsrc.PosKey && n == 2 && keys[0] == "verification":
		return q.inputKeys(keys[1])
	}
	return nil
}

// keyEdit is the edit that puts member name key at the cursor: inside a
// string its content is replaced; elsewhere the quoted name and ": " are
// inserted.
func (q *adoptionQuery) keyEdit(key string) *TextEdit { return keyEditAt(q.ctx, key) }

// keyEditAt is keyEdit at the cursor of context c.
func keyEditAt(c jsonsrc.Context, key string) *TextEdit {
	if c.InString {
		text := jsonEscape(key)
		if !c.Closed {
			text += `": `
		}
		return &TextEdit{Span: c.Content, NewText: text}
	}
	return &TextEdit{Span: c.Token, NewText: `"` + jsonEscape(key) + `": `}
}

// valueEdit is the edit that puts the string value text at the cursor.
// final is false when completion continues after it (a file name before
// '#'), so an unclosed string is not closed.
func (q *adoptionQuery) valueEdit(text string, final bool) *TextEdit {
	return valueEditAt(q.ctx, text, final)
}

// valueEditAt is valueEdit at the cursor of context c.
func valueEditAt(c jsonsrc.Context, text string, final bool) *TextEdit {
	if c.InString {
		t := jsonEscape(text)
		if !c.Closed && final {
			t += `"`
		}
		return &TextEdit{Span: c.Content, NewText: t}
	}
	t := `"` + jsonEscape(text)
	if final {
		t += `"`
	}
	return &TextEdit{Span: c.Token, NewText: t}
}

// jsonEscape escapes s for the inside of a JSON string.
func jsonEscape(s string) string {
	if !strings.ContainsAny(s, "\"\\\n\r\t") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`)
	return r.Replace(s)
}

// designerFields are the top-level members a designer writes.
var designerFields = []string{"answers", "values", "rows", "verification"}

func (q *adoptionQuery) topLevelKeys() []CompletionItem {
	var out []CompletionItem
	for i, k := range designerFields {
		if q.ctx.HasKey(k) {
			continue
		}
		out = append(out, CompletionItem{Label: k, Kind: CompleteKeyword, Detail: "designer part",
			SortText: fmt.Sprintf("%d", i), Edit: q.keyEdit(k)})
	}
	return out
}

// answerKeys proposes the questions not yet answered: asked ones first.
func (q *adoptionQuery) answerKeys() []CompletionItem {
	var out []CompletionItem
	for i, qu := range q.a.Questions {
		id := qu.Name.Text
		if q.ctx.HasKey(id) {
			continue
		}
		it := CompletionItem{Label: id, Kind: CompleteQuestion, Edit: q.keyEdit(id),
			Documentation: strValue(qu.Asks)}
		if q.st.Asked(id) {
			it.Detail = "asked: " + optionList(qu)
			it.SortText = fmt.Sprintf("0%04d", i)
		} else {
			it.Detail = "not asked"
			if why := q.conditionWhy(qu.When, nil); why != "" {
				it.Detail += ": " + why
			}
			it.SortText = fmt.Sprintf("1%04d", i)
		}
		out = append(out, it)
	}
	return out
}

// optionList is "one of a, b, c" for a question's options.
func optionList(qu *contracts.Question) string {
	ids := make([]string, len(qu.Options))
	for i, o := range qu.Options {
		ids[i] = o.Name.Text
	}
	return "one of " + strings.Join(ids, ", ")
}

// answerValues proposes the option ids of question id.
func (q *adoptionQuery) answerValues(id string) []CompletionItem {
	qu := q.a.Question(id)
	if qu == nil {
		return nil
	}
	var out []CompletionItem
	for i, o := range qu.Options {
		meaning := strValue(o.Meaning)
		doc := meaning
		if sem := strValue(o.Value.Get("semantics")); sem != "" {
			doc += "\n\n**Semantics:** " + sem
		}
		out = append(out, CompletionItem{Label: o.Name.Text, Kind: CompleteOption, Detail: firstLineOf(meaning),
			Documentation: doc, SortText: fmt.Sprintf("%04d", i), Edit: q.valueEdit(o.Name.Text, true)})
	}
	return out
}

// valueKeys proposes the active declarations not yet supplied.
func (q *adoptionQuery) valueKeys() []CompletionItem {
	var out []CompletionItem
	for i, d := range q.a.Values {
		name := d.Name.Text
		if q.ctx.HasKey(name) || !q.st.Active(name) {
			continue
		}
		out = append(out, CompletionItem{Label: name, Kind: CompleteField, Detail: declDetail(d),
			Documentation: strValue(d.Description), SortText: fmt.Sprintf("%04d", i), Edit: q.keyEdit(name)})
	}
	return out
}

// declDetail is a declaration's range and accepted forms.
func declDetail(d *contracts.Declaration) string {
	var parts []string
	if d.HasRange {
		parts = append(parts, "range "+fmtFloat(d.Min)+" to "+fmtFloat(d.Max))
	}
	switch {
	case d.AcceptsNumber && d.AcceptsCitation:
		parts = append(parts, "number or citation")
	case d.AcceptsCitation:
		parts = append(parts, "citation")
	default:
		parts = append(parts, "number")
	}
	return strings.Join(parts, "; ")
}

func (q *adoptionQuery) rowSetKeys() []CompletionItem {
	var out []CompletionItem
	for i, set := range q.a.RowSets {
		if q.ctx.HasKey(set.Name.Text) {
			continue
		}
		out = append(out, CompletionItem{Label: set.Name.Text, Kind: CompleteField, Detail: "row set",
			Documentation: strValue(set.Description), SortText: fmt.Sprintf("%04d", i), Edit: q.keyEdit(set.Name.Text)})
	}
	return out
}

// rowFields proposes the record fields a row does not carry yet: the ones
// it must carry first, then the optional ones, then those it may not
// carry.
func (q *adoptionQuery) rowFields(setName string, index int) []CompletionItem {
	set := q.a.RowSet(setName)
	if set == nil {
		return nil
	}
	row := q.row(setName, index)
	var out []CompletionItem
	for i, f := range set.Fields {
		name := f.Name.Text
		if q.ctx.HasKey(name) {
			continue
		}
		it := CompletionItem{Label: name, Kind: CompleteField, Documentation: strValue(f.Description), Edit: q.keyEdit(name)}
		status, rank := "optional", 1
		switch {
		case f.When == nil && f.Required:
			status, rank = "required", 0
		case f.When != nil && row != nil && q.st.FieldRequired(row, f):
			status, rank = "required here", 0
		case f.When != nil && row != nil:
			status, rank = "not allowed here", 2
			if why := q.conditionWhy(f.When, row); why != "" {
				status += ": " + why
			}
			it.Deprecated = true
		case f.When != nil:
			status = "required when its condition holds"
		}
		it.Detail = fieldType(f) + " — " + status
		it.SortText = fmt.Sprintf("%d%04d", rank, i)
		out = append(out, it)
	}
	return out
}

// fieldType is a field's type with its options.
func fieldType(f *contracts.Field) string {
	t := f.Type
	if t == "" {
		t = "untyped"
	}
	if len(f.Options) > 0 {
		ids := make([]string, len(f.Options))
		for i, o := range f.Options {
			ids[i] = o.Text
		}
		t += " (" + strings.Join(ids, " | ") + ")"
	}
	return t
}

// row returns the row of set at index in the model, or nil.
func (q *adoptionQuery) row(set string, index int) *contracts.Row {
	ra := q.a.RowArray(set)
	if ra == nil {
		return nil
	}
	for _, r := range ra.Rows {
		if r.Index == index {
			return r
		}
	}
	return nil
}

// rowValue completes the value of a row field: the options of a closed
// choice, or a citation.
func (q *adoptionQuery) rowValue(setName, field string) []CompletionItem {
	f := q.a.RowSet(setName).Field(field)
	if f == nil {
		return nil
	}
	if len(f.Options) > 0 {
		var out []CompletionItem
		for i, o := range f.Options {
			out = append(out, CompletionItem{Label: o.Text, Kind: CompleteOption, Detail: "option of " + field,
				Documentation: strValue(f.Description), SortText: fmt.Sprintf("%04d", i), Edit: q.valueEdit(o.Text, true)})
		}
		return out
	}
	if f.Type == contracts.TypeCitation {
		return q.citations(true, "")
	}
	return nil
}

// citations proposes citation targets. A row citation may cite chapter
// anchors, tuning keys and contract values of any adoption; a value
// citation (self names the value being supplied) cites tuning keys and the
// other numeric values of the same adoption.
func (q *adoptionQuery) citations(rowCitation bool, self string) []CompletionItem {
	typed := q.ctx.Partial
	if file, _, ok := strings.Cut(typed, "#"); ok {
		if !rowCitation {
			return nil
		}
		rel, inside := analysis.PackageRelative(file)
		if !inside {
			return nil
		}
		target := q.pkg.FileAt(rel)
		if target == nil || target.Markdown == nil {
			return nil
		}
		span := q.ctx.Content
		span.Start += strings.IndexByte(typed, '#') + 1
		edit := func(anchor string) *TextEdit {
			if !q.ctx.InString {
				return q.valueEdit(file+"#"+anchor, true)
			}
			t := jsonEscape(anchor)
			if !q.ctx.Closed {
				t += `"`
			}
			return &TextEdit{Span: span, NewText: t}
		}
		return anchorItems(target.Markdown, false, true, edit)
	}
	var out []CompletionItem
	if rowCitation {
		for _, c := range q.pkg.Chapters {
			out = append(out, CompletionItem{Label: c.Name + "#", Kind: CompleteFile, Detail: "chapter",
				SortText: "0" + c.Name, Retrigger: true, Edit: q.valueEdit(c.Name+"#", false)})
		}
	}
	out = append(out, tuningItems(q.pkg.Tuning, true, func(key string) *TextEdit { return q.valueEdit(key, true) })...)
	if rowCitation {
		for _, a := range q.pkg.Adoptions.All() {
			st := q.pkg.State(a)
			for _, d := range a.Values {
				if st != nil && !st.Active(d.Name.Text) {
					continue
				}
				addr := "contracts." + a.ID + "." + d.Name.Text
				out = append(out, q.contractValueItem(a, st, d, addr))
			}
		}
	} else {
		for _, d := range q.a.Values {
			name := d.Name.Text
			if name == self || !q.st.Active(name) {
				continue
			}
			if _, ok := q.st.Resolved(name); !ok {
				continue
			}
			out = append(out, q.contractValueItem(q.a, q.st, d, "contracts."+q.a.ID+"."+name))
		}
	}
	return out
}

func (q *adoptionQuery) contractValueItem(a *contracts.Adoption, st *contracts.State, d *contracts.Declaration, addr string) CompletionItem {
	detail := "contract value"
	if st != nil {
		if v, ok := st.Resolved(d.Name.Text); ok {
			detail = "= " + fmtFloat(v)
		}
	}
	return CompletionItem{Label: addr, Kind: CompleteContractValue, Detail: detail,
		Documentation: strValue(d.Description), SortText: "2" + addr, Edit: q.valueEdit(addr, true)}
}

// tuningItems lists the keys of values and open. In a citation an open
// number cannot be cited and is marked so.
func tuningItems(t *tuning.File, citation bool, edit func(string) *TextEdit) []CompletionItem {
	if t == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []CompletionItem
	for _, e := range t.Entries {
		if seen[e.Key] {
			continue
		}
		if got, ok := t.Lookup(e.Key); ok && got != e {
			continue // the values entry of a key in both tables wins
		}
		seen[e.Key] = true
		it := CompletionItem{Label: e.Key, Kind: CompleteTuningKey, Detail: tuningDetail(e), SortText: "1" + e.Key, Edit: edit(e.Key)}
		if e.Open && citation {
			it.Deprecated = true
			it.Detail = "open number: cannot be cited"
			it.SortText = "3" + e.Key
		}
		out = append(out, it)
	}
	return out
}

// tuningDetail is a tuning entry's number and kind.
func tuningDetail(e *tuning.Entry) string {
	num := "no number"
	if e.HasNumber {
		num = fmtFloat(e.Number)
	}
	switch e.Kind() {
	case tuning.Ranged:
		return fmt.Sprintf("%s (ranged %s to %s)", num, fmtFloat(e.Range[0]), fmtFloat(e.Range[1]))
	case tuning.Open:
		if e.HasNumber {
			return num + " (open, a guess)"
		}
		return "open, no guess"
	}
	return num + " (decided)"
}

// anchorItems lists the anchors of a document's headings. fixedMatters
// marks sections that are not Fixed as not citable (contract citations).
// An anchor shared by two headings is listed once and marked.
func anchorItems(doc *markdown.Doc, github, fixedMatters bool, edit func(string) *TextEdit) []CompletionItem {
	var out []CompletionItem
	seen := map[string]bool{}
	for i, h := range doc.Headings {
		anchor := h.Anchor
		if github {
			anchor = h.GitHubAnchor
		}
		if anchor == "" || seen[anchor] {
			continue
		}
		seen[anchor] = true
		it := CompletionItem{Label: anchor, Kind: CompleteAnchor, Detail: strings.TrimSpace(h.Text(doc)),
			Documentation: doc.SectionText(i, 6), SortText: fmt.Sprintf("%05d", i), Edit: edit(anchor)}
		if n := len(doc.FindAnchor(anchor, github)); n > 1 && !github {
			it.Deprecated = true
			it.Detail += fmt.Sprintf(" — ambiguous: %d headings share this anchor", n)
		} else if fixedMatters {
			if fixed, tag := doc.SectionFixed(i); !fixed {
				it.Deprecated = true
				why := "not Fixed"
				if tag != nil {
					why += fmt.Sprintf(": a %s tag covers it", strings.TrimSuffix(tag.Kind.Word(), ":"))
				}
				it.Detail += " — " + why
			}
		}
		out = append(out, it)
	}
	return out
}

// templateKeys proposes the live templates of the adoption's pack that are
// not yet in verification; templates that declare inputs come first.
func (q *adoptionQuery) templateKeys() []CompletionItem {
	pk := q.pkg.PackFor(q.a)
	if pk == nil {
		return nil
	}
	var out []CompletionItem
	for i, st := range pack.Live(q.a, q.st, pk) {
		if !st.Live || st.ID == "" || q.ctx.HasKey(st.ID) {
			continue
		}
		it := CompletionItem{Label: st.ID, Kind: CompleteKeyword, Edit: q.keyEdit(st.ID), Documentation: strValue(st.Template.Title)}
		if names := inputNames(st.Template); len(names) > 0 {
			it.Detail = "live; inputs: " + strings.Join(names, ", ")
			it.SortText = fmt.Sprintf("0%04d", i)
		} else {
			it.Detail = "live; declares no inputs"
			it.SortText = fmt.Sprintf("1%04d", i)
		}
		out = append(out, it)
	}
	return out
}

func inputNames(t *pack.Template) []string {
	var names []string
	for _, in := range t.Inputs {
		names = append(names, in.Name)
	}
	return names
}

// inputKeys proposes the declared inputs of template id not yet given.
func (q *adoptionQuery) inputKeys(id string) []CompletionItem {
	pk := q.pkg.PackFor(q.a)
	t := pk.Template(id)
	if t == nil {
		return nil
	}
	var out []CompletionItem
	for i, in := range t.Inputs {
		if q.ctx.HasKey(in.Name) {
			continue
		}
		detail := "input"
		if in.Default != nil {
			detail = "input; has a default"
		}
		out = append(out, CompletionItem{Label: in.Name, Kind: CompleteField, Detail: detail,
			SortText: fmt.Sprintf("%04d", i), Edit: q.keyEdit(in.Name)})
	}
	return out
}

// conditionWhy explains why a condition does not hold, reading its flag
// and row forms; "" when it cannot tell.
func (q *adoptionQuery) conditionWhy(c *contracts.Condition, row *contracts.Row) string {
	return explainCondition(q.a, q.st, c, row)
}

func explainCondition(a *contracts.Adoption, st *contracts.State, c *contracts.Condition, row *contracts.Row) string {
	if c == nil || st == nil {
		return ""
	}
	for _, f := range c.Forms {
		switch f.Kind {
		case contracts.FormFlag:
			for _, e := range f.Entries {
				id := e.Name.Text
				want := itemList(e.Items)
				if !st.Asked(id) {
					return fmt.Sprintf("question %s is not asked", id)
				}
				ans, ok := st.Answer(id)
				if !ok {
					return fmt.Sprintf("question %s has no answer yet (needs %s)", id, want)
				}
				if !containsString(e.Items, ans) {
					return fmt.Sprintf("%s is answered %s, not %s", id, ans, want)
				}
			}
		case contracts.FormRow:
			if row == nil {
				continue
			}
			for _, e := range f.Entries {
				rf := row.Get(e.Name.Text)
				if rf == nil {
					return fmt.Sprintf("the row has no %s yet (needs %s)", e.Name.Text, itemList(e.Items))
				}
				if !sameRaw(a, rf.Value, e.Items) {
					return fmt.Sprintf("the row's %s is %s, not %s", e.Name.Text, rawText(a, rf.Value), itemList(e.Items))
				}
			}
		default:
			return "its " + f.Key + " condition does not hold"
		}
	}
	return ""
}

func itemList(items []*jsonsrc.Value) string {
	var parts []string
	for _, it := range items {
		if it.Kind() == jsonsrc.String {
			parts = append(parts, it.Str())
		} else if it.Kind() == jsonsrc.Number {
			parts = append(parts, it.Raw())
		} else {
			parts = append(parts, it.Kind().String())
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "one of " + strings.Join(parts, ", ")
}

func containsString(items []*jsonsrc.Value, s string) bool {
	for _, it := range items {
		if it.Kind() == jsonsrc.String && it.Str() == s {
			return true
		}
	}
	return false
}

// sameRaw reports whether v equals one of items as a scalar.
func sameRaw(a *contracts.Adoption, v *jsonsrc.Value, items []*jsonsrc.Value) bool {
	for _, it := range items {
		if it.Kind() == v.Kind() && (it.Kind() == jsonsrc.String && it.Str() == v.Str() ||
			it.Kind() == jsonsrc.Number && it.Num() == v.Num() || it.Kind() == jsonsrc.Bool && it.Bool() == v.Bool() || it.Kind() == jsonsrc.Null) {
			return true
		}
	}
	return false
}

// rawText is the source text of v.
func rawText(a *contracts.Adoption, v *jsonsrc.Value) string {
	if v == nil || v.Span().Start < 0 || v.Span().End > len(a.Data) || v.Span().Start > v.Span().End {
		return "?"
	}
	return string(a.Data[v.Span().Start:v.Span().End])
}

// strValue is the text of a string value, or "".
func strValue(v *jsonsrc.Value) string {
	if v == nil || v.Kind() != jsonsrc.String {
		return ""
	}
	return v.Str()
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func fmtFloat(f float64) string { return fmt.Sprintf("%g", f) }

// completeMarkdown completes inline-code citations and link destinations.
func completeMarkdown(s *analysis.Snapshot, f *analysis.File, offset int) []CompletionItem {
	doc := f.Markdown
	if items, ok := completePlan(s, f, offset); ok {
		return items // a test block or a test heading of the build plan
	}
	for _, b := range doc.CodeBlocks {
		if b.Span.Start <= offset && offset < b.Span.End {
			return nil
		}
	}
	start := offset
	for start > 0 && f.Content[start-1] != '\n' && f.Content[start-1] != '\r' {
		start--
	}
	end := offset
	for end < len(f.Content) && f.Content[end] != '\n' && f.Content[end] != '\r' {
		end++
	}
	if items, ok := tagItems(s, f, start, offset, end); ok {
		return items
	}
	before := string(f.Content[start:offset])
	after := string(f.Content[offset:end])
	if items, ok := rulesetItems(s, f, start, offset); ok {
		return items
	}
	if typed, span, ok := headingTagSpan(f, start, end, offset); ok {
		return modeTagItems(s.PackageFor(f), typed, span)
	}

	if strings.Count(before, "`")%2 == 1 {
		open := start + strings.LastIndexByte(before, '`') + 1
		stop := offset
		if i := strings.IndexByte(after, '`'); i >= 0 {
			stop = offset + i
		}
		span := source.Span{Start: open, End: stop}
		items := append(codeItems(s, s.PackageFor(f), span), pathItems(s, f, span, offset)...)
		edit := func(text string) *TextEdit { return &TextEdit{Span: span, NewText: text} }
		return append(items, collectionItems(s.PackageFor(f), string(f.Content[open:offset]), edit)...)
	}
	if i := strings.LastIndex(before, "]("); i >= 0 && !strings.ContainsAny(before[i+2:], ") \t") {
		destStart := start + i + 2
		stop := offset + len(after)
		if j := strings.IndexAny(after, ") \t"); j >= 0 {
			stop = offset + j
		}
		return linkItems(s, f, before[i+2:], destStart, stop)
	}
	return nil
}

// codeItems lists what inline code in a chapter can cite: tuning keys,
// contract addresses and tuning rules.
func codeItems(s *analysis.Snapshot, p *analysis.Package, span source.Span) []CompletionItem {
	if p == nil {
		return nil
	}
	edit := func(text string) *TextEdit { return &TextEdit{Span: span, NewText: text} }
	out := tuningItems(p.Tuning, false, edit)
	for _, a := range p.Adoptions.All() {
		addr := "contracts." + a.ID
		out = append(out, CompletionItem{Label: addr, Kind: CompleteContractValue, Detail: "adoption of " + a.Identity(),
			SortText: "2" + addr, Edit: edit(addr)})
		st := p.State(a)
		for _, d := range a.Values {
			addr := "contracts." + a.ID + "." + d.Name.Text
			detail := "contract value"
			if st != nil {
				if v, ok := st.Resolved(d.Name.Text); ok {
					detail = "= " + fmtFloat(v)
				} else if !st.Active(d.Name.Text) {
					detail = "contract value, inactive"
				}
			}
			out = append(out, CompletionItem{Label: addr, Kind: CompleteContractValue, Detail: detail,
				Documentation: strValue(d.Description), SortText: "2" + addr, Edit: edit(addr)})
		}
	}
	if p.Tuning != nil {
		for _, r := range p.Tuning.Rules {
			addr := "rules." + r.Name
			out = append(out, CompletionItem{Label: addr, Kind: CompleteKeyword, Detail: r.Line,
				SortText: "3" + addr, Edit: edit(addr)})
		}
	}
	out = append(out, clockItems(p, edit)...)
	out = append(out, directionItems(p, edit)...)
	return out
}

// linkItems completes a link destination: Markdown files, or after '#'
// the anchors of the target file.
func linkItems(s *analysis.Snapshot, f *analysis.File, typed string, destStart, stop int) []CompletionItem {
	dir := filepath.Dir(f.Path)
	if file, _, ok := strings.Cut(typed, "#"); ok {
		target := f
		if file != "" {
			target = s.File(filepath.Join(dir, filepath.FromSlash(file)))
		}
		if target == nil || target.Markdown == nil {
			return nil
		}
		span := source.Span{Start: destStart + strings.IndexByte(typed, '#') + 1, End: stop}
		return anchorItems(target.Markdown, !target.InPackage(), false, func(anchor string) *TextEdit {
			return &TextEdit{Span: span, NewText: anchor}
		})
	}
	var candidates []*analysis.File
	for _, g := range s.Files() {
		if g == f || g.Markdown == nil {
			continue
		}
		if f.InPackage() && s.PackageFor(g) != s.PackageFor(f) {
			continue
		}
		if !f.InPackage() && !sameRoot(s, f.Path, g.Path) {
			continue
		}
		candidates = append(candidates, g)
	}
	span := source.Span{Start: destStart, End: stop}
	var out []CompletionItem
	for _, g := range candidates {
		rel, err := filepath.Rel(dir, g.Path)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		out = append(out, CompletionItem{Label: rel, Kind: CompleteFile, Detail: firstHeading(g.Markdown),
			SortText: fmt.Sprintf("%03d", strings.Count(rel, "/")) + rel, Edit: &TextEdit{Span: span, NewText: rel}})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].SortText < out[j].SortText })
	return out
}

// sameRoot reports whether two paths lie under the same snapshot root.
func sameRoot(s *analysis.Snapshot, a, b string) bool {
	for _, r := range s.Roots {
		if analysis.Within(r, a) {
			return analysis.Within(r, b)
		}
	}
	return false
}

func firstHeading(d *markdown.Doc) string {
	if len(d.Headings) == 0 {
		return ""
	}
	return strings.TrimSpace(d.Headings[0].Text(d))
}
