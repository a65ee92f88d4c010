package ide

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// maxWorkspaceSymbols caps the answer of WorkspaceSymbols.
const maxWorkspaceSymbols = 500

// DocumentSymbols returns the outline of a file: the heading tree of a
// Markdown file; the questions (with their options), values, row sets (with
// their rows) and rules of an adoption; the keys and rules of tuning.json;
// the questions (with their options) of personalization.json.
func DocumentSymbols(s *analysis.Snapshot, path string) []Symbol {
	f := s.File(path)
	if f == nil {
		return nil
	}
	if f.Markdown != nil {
		if analysis.IsChapter(s.PackageFor(f), f) {
			return planSymbols(f, addRulesetSymbols(f.Markdown, headingTree(f.Markdown)))
		}
		return headingTree(f.Markdown)
	}
	if _, a := s.AdoptionAt(path); a != nil {
		return adoptionSymbols(a)
	}
	if p := s.PackageFor(f); p != nil && p.TuningFile == f && p.Tuning != nil {
		return tuningSymbols(p)
	}
	if p := s.PackageFor(f); p != nil && p.PersonalizationFile() != nil && p.PersonalizationFile().Name == path {
		return persSymbols(p.PersonalizationFile()) // personalize_query.go
	}
	return nil
}

// headingTree nests the headings of a document by level.
func headingTree(doc *markdown.Doc) []Symbol {
	var roots []Symbol
	// stack holds the path of open headings as index paths into roots.
	type open struct {
		level int
		path  []int
	}
	var stack []open
	for _, h := range doc.Headings {
		sym := Symbol{
			Name:          headingName(doc, h),
			Detail:        "#" + h.Anchor,
			Kind:          SymbolHeading,
			Span:          trimSpanEnd(doc.Data, h.Section()),
			SelectionSpan: h.TextSpan(),
		}
		if sym.SelectionSpan.Len() == 0 {
			sym.SelectionSpan = h.Span()
		}
		for len(stack) > 0 && stack[len(stack)-1].level >= h.Level() {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, sym)
			stack = append(stack, open{h.Level(), []int{len(roots) - 1}})
			continue
		}
		parent := stack[len(stack)-1].path
		list := &roots
		for _, i := range parent {
			list = &(*list)[i].Children
		}
		*list = append(*list, sym)
		path := append(append([]int{}, parent...), len(*list)-1)
		stack = append(stack, open{h.Level(), path})
	}
	return roots
}

// headingName is the text shown for a heading of doc.
func headingName(doc *markdown.Doc, h markdown.Heading) string {
	name := strings.Join(strings.Fields(h.Text(doc)), " ")
	if name == "" {
		return "(empty heading)"
	}
	return name
}

// trimSpanEnd drops trailing line breaks and spaces from a span.
func trimSpanEnd(data []byte, sp source.Span) source.Span {
	for sp.End > sp.Start && sp.End <= len(data) && strings.ContainsRune(" \t\r\n", rune(data[sp.End-1])) {
		sp.End--
	}
	return sp
}

// memberSpan covers a member from its key through its value.
func memberSpan(name source.Span, v *jsonsrc.Value) source.Span {
	sp := name
	if v != nil && v.Span().End > sp.End {
		sp.End = v.Span().End
	}
	return sp
}

// str returns a string value's text, or "".
func str(v *jsonsrc.Value) string {
	if v != nil && v.Kind() == jsonsrc.String {
		return v.Str()
	}
	return ""
}

// adoptionSymbols outlines an adoption.
func adoptionSymbols(a *contracts.Adoption) []Symbol {
	var out []Symbol
	for _, q := range a.Questions {
		sym := Symbol{Name: q.Name.Text, Detail: oneLine(str(q.Asks)), Kind: SymbolQuestion,
			Span: memberSpan(q.Name.Span, q.Value), SelectionSpan: q.Name.Span}
		for _, o := range q.Options {
			sym.Children = append(sym.Children, Symbol{Name: o.Name.Text, Detail: oneLine(str(o.Meaning)), Kind: SymbolOption,
				Span: memberSpan(o.Name.Span, o.Value), SelectionSpan: o.Name.Span})
		}
		out = append(out, sym)
	}
	for _, d := range a.Values {
		out = append(out, Symbol{Name: d.Name.Text, Detail: oneLine(str(d.Description)), Kind: SymbolValue,
			Span: memberSpan(d.Name.Span, d.Value), SelectionSpan: d.Name.Span})
	}
	for _, set := range a.RowSets {
		out = append(out, Symbol{Name: set.Name.Text, Detail: oneLine(str(set.Description)), Kind: SymbolRowSet,
			Span: memberSpan(set.Name.Span, set.Value), SelectionSpan: set.Name.Span})
	}
	for _, r := range a.Rules {
		detail := r.Line
		if r.Message != nil {
			detail = str(r.Message)
		}
		out = append(out, Symbol{Name: r.Name.Text, Detail: oneLine(detail), Kind: SymbolRule,
			Span: memberSpan(r.Name.Span, r.Value), SelectionSpan: r.Name.Span})
	}
	for _, sup := range a.Supplied {
		detail := "value"
		if sup.Value != nil {
			detail = "value " + valueText(sup.Value)
		}
		out = append(out, Symbol{Name: sup.Name.Text, Detail: detail, Kind: SymbolValue,
			Span: memberSpan(sup.Name.Span, sup.Value), SelectionSpan: sup.Name.Span})
	}
	for _, ra := range a.Rows {
		sym := Symbol{Name: ra.Name.Text, Detail: strconv.Itoa(len(ra.Rows)) + " rows", Kind: SymbolRowSet,
			Span: memberSpan(ra.Name.Span, ra.Value), SelectionSpan: ra.Name.Span}
		for _, row := range ra.Rows {
			name := "[" + strconv.Itoa(row.Index) + "]"
			sel := row.Value.Span()
			if id := row.Get("id"); id != nil && id.Value != nil && id.Value.Kind() == jsonsrc.String && id.Value.Str() != "" {
				name = id.Value.Str()
				sel = id.Value.Span()
			}
			sym.Children = append(sym.Children, Symbol{Name: name, Kind: SymbolRow, Span: row.Value.Span(), SelectionSpan: sel})
		}
		out = append(out, sym)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	return out
}

// valueText renders a short form of a JSON scalar.
func valueText(v *jsonsrc.Value) string {
	switch v.Kind() {
	case jsonsrc.String:
		return strconv.Quote(v.Str())
	case jsonsrc.Number:
		return v.Raw()
	}
	return v.Kind().String()
}

// oneLine shortens text to one line of at most 80 runes.
func oneLine(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) > 80 {
		r := []rune(text)
		text = string(r[:79]) + "…"
	}
	return text
}

// tuningSymbols outlines tuning.json.
func tuningSymbols(p *analysis.Package) []Symbol {
	t := p.Tuning
	var out []Symbol
	for _, e := range t.Entries {
		detail := e.Kind().String()
		if e.HasNumber {
			detail += " " + strconv.FormatFloat(e.Number, 'g', -1, 64)
		}
		out = append(out, Symbol{Name: e.Key, Detail: detail, Kind: SymbolTuningKey,
			Span: source.Span{Start: e.KeySpan.Start, End: max(e.KeySpan.End, e.ValueSpan.End)}, SelectionSpan: e.KeySpan})
	}
	for _, r := range t.Ranges {
		out = append(out, Symbol{Name: r.Key, Detail: "range", Kind: SymbolTuningKey,
			Span: source.Span{Start: r.KeySpan.Start, End: max(r.KeySpan.End, r.ValueSpan.End)}, SelectionSpan: r.KeySpan})
	}
	for _, r := range t.Rules {
		out = append(out, Symbol{Name: r.Name, Detail: oneLine(r.Line), Kind: SymbolRule,
			Span: source.Span{Start: r.NameSpan.Start, End: max(r.NameSpan.End, r.LineSpan.End)}, SelectionSpan: r.NameSpan})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	return out
}

// WorkspaceSymbols returns the headings, tuning keys, adoptions and
// personalization questions whose name matches query: case-insensitively,
// as a substring or else as a subsequence of its runes. Substring matches
// come first; at most 500 symbols are returned.
func WorkspaceSymbols(s *analysis.Snapshot, query string) []Symbol {
	q := strings.ToLower(strings.TrimSpace(query))
	type scored struct {
		sym   Symbol
		score int
	}
	var found []scored
	consider := func(sym Symbol) {
		if score, ok := matchSymbol(q, sym.Name); ok {
			found = append(found, scored{sym, score})
		}
	}
	for _, f := range s.Files() {
		if f.Markdown == nil {
			continue
		}
		rel := displayPath(s, f)
		for _, h := range f.Markdown.Headings {
			consider(Symbol{Name: headingName(f.Markdown, h), Detail: rel + "#" + headingAnchor(f, h), Kind: SymbolHeading,
				File: f.Path, Span: trimSpanEnd(f.Content, h.Section()), SelectionSpan: h.TextSpan()})
		}
	}
	for _, p := range s.Packages {
		if p.Tuning != nil && p.TuningFile != nil {
			rel := displayPath(s, p.TuningFile)
			for _, e := range p.Tuning.Entries {
				consider(Symbol{Name: e.Key, Detail: rel + " (" + e.Kind().String() + ")", Kind: SymbolTuningKey,
					File: p.TuningFile.Path, Span: e.KeySpan, SelectionSpan: e.KeySpan})
			}
		}
		for _, a := range p.Adoptions.All() {
			detail := a.Identity()
			if f := s.File(a.File); f != nil {
				detail = strings.TrimSpace(displayPath(s, f) + " " + detail)
			}
			consider(Symbol{Name: "contracts." + a.ID, Detail: detail, Kind: SymbolAdoption, File: a.File})
			for _, d := range a.Values {
				consider(Symbol{Name: "contracts." + a.ID + "." + d.Name.Text, Detail: oneLine(str(d.Description)), Kind: SymbolValue,
					File: a.File, Span: memberSpan(d.Name.Span, d.Value), SelectionSpan: d.Name.Span})
			}
		}
		if p.PersonalizationFile() != nil {
			for _, sym := range persSymbols(p.PersonalizationFile()) {
				sym.File, sym.Children = p.PersonalizationFile().Name, nil
				if f := s.File(p.PersonalizationFile().Name); f != nil {
					sym.Detail = displayPath(s, f) + " " + sym.Detail
				}
				consider(sym)
			}
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].score != found[j].score {
			return found[i].score < found[j].score
		}
		if found[i].sym.Name != found[j].sym.Name {
			return found[i].sym.Name < found[j].sym.Name
		}
		return found[i].sym.File < found[j].sym.File
	})
	if len(found) > maxWorkspaceSymbols {
		found = found[:maxWorkspaceSymbols]
	}
	out := make([]Symbol, len(found))
	for i, f := range found {
		out[i] = f.sym
	}
	return out
}

// matchSymbol scores name against a lowercase query: 0 for a prefix, 1 for
// a substring, 2 for a subsequence; ok is false when it does not match.
func matchSymbol(q, name string) (int, bool) {
	if q == "" {
		return 0, true
	}
	n := strings.ToLower(name)
	switch i := strings.Index(n, q); {
	case i == 0:
		return 0, true
	case i > 0:
		return 1, true
	}
	rest := n
	for _, r := range q {
		i := strings.IndexRune(rest, r)
		if i < 0 {
			return 0, false
		}
		rest = rest[i+utf8.RuneLen(r):]
	}
	return 2, true
}

// displayPath is a file's path relative to its package root, or to the
// snapshot root holding it, with forward slashes.
func displayPath(s *analysis.Snapshot, f *analysis.File) string {
	if f.InPackage() {
		return s.PackageFor(f).Rel(f.Path)
	}
	for _, r := range s.Roots {
		if analysis.Within(r, f.Path) {
			if rel, err := filepath.Rel(r, f.Path); err == nil {
				return filepath.ToSlash(rel)
			}
		}
	}
	return filepath.ToSlash(f.Path)
}
