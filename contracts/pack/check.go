package pack

import (
	"sort"
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// CheckSet checks the packs of one package against its adoptions: a pack
// whose identity matches no adoption (CONTRACT_PACK_ORPHAN), and a second
// pack for one identity (CONTRACT_PACK_SHAPE, filed on every pack after the
// first in file-name order). File names that disagree with the fields are
// reported by ParsePack. A pack or an adoption that does not parse is paired
// with nothing; while an adoption is broken no pack is called an orphan,
// since the broken file may be the adoption that uses it.
func CheckSet(packs []*Pack, adoptions []*contracts.Adoption) []source.Finding {
	var out []source.Finding
	broken := false
	for _, a := range adoptions {
		if a != nil && a.ParseError != nil {
			broken = true
		}
	}
	sorted := make([]*Pack, 0, len(packs))
	for _, p := range packs {
		if p != nil && !p.Unparsed {
			sorted = append(sorted, p)
		}
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].File < sorted[j].File })
	first := map[string]*Pack{}
	for _, p := range sorted {
		id := p.Identity()
		if f, dup := first[id]; dup {
			out = append(out, source.Finding{
				Code: CodePackShape, File: p.File, Span: p.identitySpan(),
				Message: "a second pack for definition " + strconv.Quote(id) + "; a package holds one pack per definition, so remove one of them",
				Related: []source.Related{{File: f.File, Span: f.identitySpan(), Message: "the first pack for " + strconv.Quote(id)}},
			})
		} else {
			first[id] = p
		}
		matched := broken
		for _, a := range adoptions {
			if !matched && a.ParseError == nil && Matches(p, a) {
				matched = true
				break
			}
		}
		if !matched {
			out = append(out, source.Finding{
				Code: CodePackOrphan, File: p.File, Span: p.identitySpan(),
				Message: "no adoption in this package uses definition " + strconv.Quote(id) + "; add an adoption of it or remove the pack",
			})
		}
	}
	return out
}

// identitySpan is where set-level findings about a pack point: its
// `contract` value, or the start of the file.
func (p *Pack) identitySpan() source.Span {
	if p.FieldContract != nil {
		return p.FieldContract.Span()
	}
	if p.Root != nil {
		return p.Root.Opening()
	}
	return source.Span{}
}

// Matches reports whether pack p serves adoption a: the adoption's
// `contract` and integer `version` equal the pack's identity.
func Matches(p *Pack, a *contracts.Adoption) bool {
	if p == nil || a == nil || a.Contract == nil {
		return false
	}
	v, ok := intValue(a.Version)
	return ok && a.Contract.Text == p.Contract && v == p.Version
}

// begin starts the check of one adoption with its pack: a renderer holding
// the findings of the pack's hash, the names and the verification entry,
// and the status of every template.
func (c *ctx) begin(p *Pack) (*renderer, []TemplateStatus) {
	r := &renderer{c: c, p: p, seen: map[string]bool{}}
	c.checkHash(r, p)
	c.checkNames(r, p)
	statuses := c.statuses(p)
	c.checkVerification(r, p, statuses)
	return r, statuses
}

// check reports everything about one adoption with its pack except the
// pack's own findings (Pack.Findings), and returns the tests it rendered.
func (c *ctx) check(p *Pack) ([]source.Finding, []Test) {
	r, statuses := c.begin(p)
	tests := r.render(statuses)
	c.injection(r)
	return r.findings, tests
}

// checkHash compares the definition's `pack` with the pack's digest
// (§10.8 rule 4).
func (c *ctx) checkHash(r *renderer, p *Pack) {
	a := c.a
	related := []source.Related{{File: p.File, Span: p.identitySpan(), Message: "the pack present for this definition"}}
	switch {
	case a.Pack == nil:
		r.add(source.Finding{Code: CodePackHash, File: a.File, Span: a.ContractKey, Related: related,
			Message: "the definition names no pack digest, but pack " + baseName(p.File) + " is present; add \"pack\": \"" + p.Digest() + "\""})
	case a.Pack.Kind() != jsonsrc.String || a.Pack.Str() != p.Digest():
		r.add(source.Finding{Code: CodePackHash, File: a.File, Span: a.Pack.Span(), Related: related,
			Message: "the pack digest does not match " + baseName(p.File) + ", whose digest is " + p.Digest() + "; set \"pack\" to it, or restore the pack this digest names"})
	}
}

// checkNames reports the names in the pack that point at nothing the
// definition declares (rule 16), binding map keys that name no option,
// and row sets expanded per row without a proper `id` (rule 9).
func (c *ctx) checkNames(r *renderer, p *Pack) {
	a := c.a
	ref := func(span source.Span, msg string) { r.packFinding(CodeReference, span, msg, false) }
	rowIDDone := map[string]bool{}
	for _, t := range p.Templates {
		// The labels are made only for a finding: most checks find none.
		label := func() string {
			if t.ID == "" {
				return "template " + strconv.Itoa(t.Index)
			}
			return "template " + strconv.Quote(t.ID)
		}
		var set *contracts.RowSet
		if t.Expand == ExpandPerRow && t.Collection != "" {
			set = a.RowSet(t.Collection)
			if set == nil {
				ref(t.CollectionSpan, label()+" expands row set "+strconv.Quote(t.Collection)+", which the definition does not declare"+suggestList(a.RowSetNames()))
			} else if !rowIDDone[t.Collection] {
				rowIDDone[t.Collection] = true
				c.checkRowID(r, p, t, set)
			}
		}
		if t.When != nil {
			for _, term := range t.When.Flag {
				q := a.Question(term.Question)
				if q == nil {
					ref(term.QuestionSpan, label()+"'s condition names question "+strconv.Quote(term.Question)+", which the definition does not declare"+suggestList(a.QuestionIDs()))
					continue
				}
				for _, o := range term.Options {
					if q.Option(o.Text) == nil {
						ref(o.Span, label()+"'s condition names option "+strconv.Quote(o.Text)+", which question "+strconv.Quote(term.Question)+" does not have"+suggestList(q.OptionIDs()))
					}
				}
			}
			if set != nil {
				for _, term := range t.When.Row {
					if set.Field(term.Field) == nil {
						ref(term.FieldSpan, label()+"'s row condition names field "+strconv.Quote(term.Field)+", which row set "+strconv.Quote(t.Collection)+" does not declare"+suggestList(set.FieldNames()))
					}
				}
			}
		}
		for _, b := range t.Bindings {
			where := func() string { return "binding " + strconv.Quote(b.ID) + " of " + label() }
			switch {
			case b.Flag != nil:
				q := a.Question(b.Flag.Text)
				if q == nil {
					ref(b.Flag.Span, where()+" reads question "+strconv.Quote(b.Flag.Text)+", which the definition does not declare"+suggestList(a.QuestionIDs()))
					continue
				}
				for _, ph := range b.Map {
					if q.Option(ph.Key) == nil {
						r.packFinding(CodeBindingMap, ph.KeySpan, where()+" maps "+strconv.Quote(ph.Key)+", which is not an option of question "+strconv.Quote(b.Flag.Text)+suggestList(q.OptionIDs()), false)
					}
				}
			case b.RowField != nil && set != nil:
				f := set.Field(b.RowField.Text)
				if f == nil {
					ref(b.RowField.Span, where()+" reads field "+strconv.Quote(b.RowField.Text)+", which row set "+strconv.Quote(t.Collection)+" does not declare"+suggestList(set.FieldNames()))
					continue
				}
				if len(f.Options) > 0 {
					for _, ph := range b.Map {
						if !hasContractName(f.Options, ph.Key) {
							r.packFinding(CodeBindingMap, ph.KeySpan, where()+" maps "+strconv.Quote(ph.Key)+", which is not an option of field "+strconv.Quote(f.Name.Text)+suggestList(contractNames(f.Options)), false)
						}
					}
				}
			}
		}
		for _, ph := range t.Placeholders {
			switch ph.Kind {
			case PlaceValueCite:
				if a.Declaration(ph.Arg) == nil {
					ref(ph.ArgSpan, label()+" cites value "+strconv.Quote(ph.Arg)+", which the definition does not declare"+suggestList(a.ValueNames()))
				}
			case PlaceRow:
				if set != nil && set.Field(ph.Arg) == nil {
					ref(ph.ArgSpan, label()+" reads row field "+strconv.Quote(ph.Arg)+", which row set "+strconv.Quote(t.Collection)+" does not declare"+suggestList(set.FieldNames()))
				}
			}
		}
	}
}

// checkRowID reports a row set expanded per row whose record lacks a
// required, unique, kebab-case string `id` without `when`.
func (c *ctx) checkRowID(r *renderer, p *Pack, t *Template, set *contracts.RowSet) {
	f := set.Field("id")
	var problem string
	switch {
	case f == nil:
		problem = "declares no field \"id\""
	case f.Type != contracts.TypeString:
		problem = "declares \"id\" with a type other than \"string\""
	case !f.Required || f.When != nil:
		problem = "declares \"id\" without \"required\": true"
	case !f.Unique:
		problem = "declares \"id\" without \"unique\": true"
	case f.Pattern == nil || f.Pattern.Kind() != jsonsrc.String || f.Pattern.Str() != "kebab-case":
		problem = "declares \"id\" without \"pattern\": \"kebab-case\""
	default:
		return
	}
	span := set.Name.Span
	if f != nil {
		span = f.Name.Span
	}
	related := []source.Related{{File: p.File, Span: t.CollectionSpan, Message: "template " + strconv.Quote(t.ID) + " expands this row set"}}
	r.add(source.Finding{Code: CodeRowID, File: c.a.File, Span: span, Related: related,
		Message: "row set " + strconv.Quote(set.Name.Text) + " is expanded one test per row, so it needs a required, unique, kebab-case string field \"id\"; it " + problem})
}

// checkVerification reports `verification` entries that name no template
// or a template that is not live (rule 6).
func (c *ctx) checkVerification(r *renderer, p *Pack, statuses []TemplateStatus) {
	for _, v := range c.a.Verify {
		id := v.Template.Text
		t := p.Template(id)
		if t == nil {
			r.add(source.Finding{Code: CodeReference, File: c.a.File, Span: v.Template.Span,
				Message: "verification entry " + strconv.Quote(id) + " names no template of pack " + baseName(p.File) + suggestList(templateIDs(p))})
			continue
		}
		for _, st := range statuses {
			if st.Template != t || st.Live || st.Malformed {
				continue
			}
			r.add(source.Finding{Code: CodeReference, File: c.a.File, Span: v.Template.Span, Dependent: st.Waiting,
				Message: "template " + strconv.Quote(id) + " is not live for this adoption (" + st.Reason + "), so it takes no verification inputs; remove the entry",
				Related: []source.Related{{File: p.File, Span: t.IDSpan, Message: "the template"}}})
		}
	}
}

// injection reports every string the adoption supplies (answers, values,
// rows and verification, at any depth, annotations aside) that holds `{{`,
// `}}` or a three-backtick fence (rule 14).
func (c *ctx) injection(r *renderer) {
	root := c.a.Root
	if root == nil || root.Kind() != jsonsrc.Object {
		return
	}
	for _, m := range root.Members() {
		switch m.Key {
		case "answers", "values", "rows", "verification":
			injectionWalk(r, c.a.File, m.Value)
		}
	}
}

func injectionWalk(r *renderer, file string, v *jsonsrc.Value) {
	if v == nil {
		return
	}
	switch v.Kind() {
	case jsonsrc.String:
		for _, bad := range []string{"{{", "}}", "```"} {
			if strings.Contains(v.Str(), bad) {
				r.add(source.Finding{Code: CodeInjection, File: file, Span: v.Span(),
					Message: "this string contains " + bad + "; strings an adoption supplies may not contain {{, }} or ``` because they are pasted into generated tests; reword it"})
				return
			}
		}
	case jsonsrc.Array:
		for _, e := range v.Elems() {
			injectionWalk(r, file, e)
		}
	case jsonsrc.Object:
		for _, m := range v.Members() {
			if !strings.HasPrefix(m.Key, "_") {
				injectionWalk(r, file, m.Value)
			}
		}
	}
}

func suggestList(names []string) string {
	if len(names) == 0 {
		return ""
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return "; declared: " + strings.Join(q, ", ")
}

func templateIDs(p *Pack) []string {
	var out []string
	for _, t := range p.Templates {
		if t.ID != "" && p.Template(t.ID) == t {
			out = append(out, t.ID)
		}
	}
	return out
}

func hasContractName(list []contracts.Name, s string) bool {
	for _, n := range list {
		if n.Text == s {
			return true
		}
	}
	return false
}

func contractNames(list []contracts.Name) []string {
	out := make([]string, len(list))
	for i, n := range list {
		out[i] = n.Text
	}
	return out
}
