package ide

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/pack"
	"github.com/gddls/gddls/contracts/ruleline"
	"github.com/gddls/gddls/contracts/source"
)

// sectionLines is how many lines of a cited section a hover shows.
const sectionLines = 8

// Hover returns the hover text at offset, or nil. In an adoption it
// explains questions, answers, options, values, row fields, citations and
// rules; in a Markdown file, inline-code citations and links; in
// manifest.json, what a member holds.
func Hover(s *analysis.Snapshot, path string, offset int) *HoverInfo {
	f := s.File(path)
	if f == nil || f.Skipped != "" || offset < 0 || offset > len(f.Content) {
		return nil
	}
	if f.Markdown != nil {
		return hoverMarkdown(s, f, offset)
	}
	if h, ok := hoverClocks(s, f, offset); ok {
		return h
	}
	if pq := newPersQuery(s, f, offset); pq != nil {
		return pq.hover()
	}
	if isBuildRecord(f) {
		if h, ok := hoverBuildRecord(s, f, offset); ok {
			return h
		}
	}
	if isDirectionFile(f) {
		return hoverDirection(s, f, offset)
	}
	if h := hoverRecordLink(s, f, offset); h != nil {
		return h // a record id in a link field (collectionquery.go)
	}
	if k, ok := shapedFile(s.PackageFor(f), f); ok {
		return hoverShaped(k, f.ParsedJSON(), offset)
	}
	q := hoverQuery(s, f, offset)
	if q == nil || q.a.Root == nil {
		return nil
	}
	return q.hover()
}

// hoverQuery is like adoptionQuery but keeps the snapshot's model, whose
// spans match the file's content.
func hoverQuery(s *analysis.Snapshot, f *analysis.File, offset int) *adoptionQuery {
	p := s.PackageFor(f)
	if p == nil {
		return nil
	}
	q := &adoptionQuery{snap: s, pkg: p, file: f, offset: offset, a: draftAdoption(s, f)}
	if q.a == nil {
		return nil
	}
	q.st = p.State(q.a)
	if q.st == nil {
		q.st = contracts.Evaluate(q.a, p.Citations())
	}
	return q
}

func (q *adoptionQuery) hover() *HoverInfo {
	hit := LocateJSON(q.a.Root, q.offset)
	if hit.Member == nil && hit.Value == nil {
		return nil
	}
	keys := PathKeys(hit.Path)
	n := len(keys)
	var span source.Span
	if hit.OnKey {
		span = hit.Member.KeySpan()
	} else if hit.Value != nil {
		span = hit.Value.Span()
	}
	str := ""
	if !hit.OnKey && hit.Value != nil && hit.Value.Kind() == jsonsrc.String {
		str = hit.Value.Str()
	}
	var md string
	switch {
	case n == 2 && keys[0] == "questions" && hit.OnKey:
		md = q.questionHover(keys[1])
	case n == 4 && keys[0] == "questions" && keys[2] == "options" && hit.OnKey:
		md = q.optionHover(keys[1], keys[3])
	case n == 2 && keys[0] == "answers" && hit.OnKey:
		md = q.questionHover(keys[1])
	case n == 2 && keys[0] == "answers" && str != "":
		md = q.optionHover(keys[1], str)
	case n == 3 && keys[0] == "declares" && keys[1] == "values" && hit.OnKey,
		n == 2 && keys[0] == "values" && hit.OnKey:
		md = q.valueHover(keys[n-1])
	case n == 2 && keys[0] == "values" && str != "":
		md = q.citationHover(str)
		if v := q.valueHover(keys[1]); v != "" && md != "" {
			md += "\n\n---\n\n" + v
		}
	case n == 3 && keys[0] == "declares" && keys[1] == "rows" && hit.OnKey,
		n == 2 && keys[0] == "rows" && hit.OnKey:
		md = q.rowSetHover(keys[n-1])
	case n == 5 && keys[0] == "declares" && keys[1] == "rows" && keys[3] == "record" && hit.OnKey:
		md = q.fieldHover(keys[2], keys[4], nil)
	case n == 4 && keys[0] == "rows" && keys[2] == "[]" && hit.OnKey:
		md = q.fieldHover(keys[1], keys[3], q.row(keys[1], hit.Path[2].Index))
	case n == 4 && keys[0] == "rows" && keys[2] == "[]" && str != "":
		if f := q.a.RowSet(keys[1]).Field(keys[3]); f != nil && f.Type == contracts.TypeCitation {
			md = q.citationHover(str)
		}
	case n == 2 && keys[0] == "rules" && hit.OnKey:
		md = q.ruleHover(keys[1])
	case n == 2 && keys[0] == "verification" && hit.OnKey:
		md = q.templateHover(keys[1])
	case n >= 2 && keys[n-2] == "flag" && hit.OnKey:
		md = q.questionHover(keys[n-1])
	}
	if md == "" {
		return nil
	}
	return &HoverInfo{Markdown: md, Span: span}
}

// questionHover shows what a question asks, whether it is asked and why,
// and the answer chosen.
func (q *adoptionQuery) questionHover(id string) string {
	qu := q.a.Question(id)
	if qu == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**question `%s`**\n\n", id)
	if asks := strValue(qu.Asks); asks != "" {
		b.WriteString(asks + "\n\n")
	}
	switch {
	case q.st.Asked(id) && qu.When == nil:
		b.WriteString("Asked: always (no condition).")
	case q.st.Asked(id):
		fmt.Fprintf(&b, "Asked: yes, its condition holds (`%s`).", rawText(q.a, qu.When.Value))
	default:
		b.WriteString("Asked: no")
		if why := q.conditionWhy(qu.When, nil); why != "" {
			b.WriteString(" — " + why)
		}
		b.WriteString(".")
		if o := strValue(qu.Otherwise); o != "" {
			b.WriteString("\n\nOtherwise: " + o)
		}
	}
	if ans := q.a.Answer(id); ans != nil && ans.IsString {
		fmt.Fprintf(&b, "\n\nAnswer: `%s`", ans.Option)
		if o := qu.Option(ans.Option); o != nil {
			b.WriteString(" — " + strValue(o.Meaning))
			if sem := strValue(o.Value.Get("semantics")); sem != "" {
				b.WriteString("\n\n**Semantics:** " + sem)
			}
		} else {
			b.WriteString(" (not an option of this question)")
		}
	} else if q.st.Asked(id) {
		b.WriteString("\n\nNot answered yet; " + optionList(qu) + ".")
	}
	return b.String()
}

// optionHover shows an option's meaning and semantics.
func (q *adoptionQuery) optionHover(qid, oid string) string {
	qu := q.a.Question(qid)
	o := qu.Option(oid)
	if o == nil {
		if qu == nil {
			return ""
		}
		return fmt.Sprintf("`%s` is not an option of question `%s`; %s.", oid, qid, optionList(qu))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**option `%s`** of question `%s`\n\n%s", oid, qid, strValue(o.Meaning))
	if sem := strValue(o.Value.Get("semantics")); sem != "" {
		b.WriteString("\n\n**Semantics:** " + sem)
	}
	if asks := strValue(qu.Asks); asks != "" {
		b.WriteString("\n\n*" + asks + "*")
	}
	if ans := q.a.Answer(qid); ans != nil && ans.IsString && ans.Option == oid {
		if q.st.Asked(qid) {
			b.WriteString("\n\nThis is the adoption's answer.")
		} else {
			b.WriteString("\n\nThis is the adoption's answer, but the question is not asked.")
		}
	}
	return b.String()
}

// valueHover shows a value's description, range, forms, whether it is
// active and its supplied and resolved number.
func (q *adoptionQuery) valueHover(name string) string {
	return valueMarkdown(q.a, q.st, name)
}

func valueMarkdown(a *contracts.Adoption, st *contracts.State, name string) string {
	d := a.Declaration(name)
	if d == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**value `%s`** of `contracts.%s`\n\n", name, a.ID)
	if desc := strValue(d.Description); desc != "" {
		b.WriteString(desc + "\n\n")
	}
	b.WriteString(declDetail(d))
	if st != nil {
		if st.Active(name) {
			if d.When != nil {
				fmt.Fprintf(&b, "\n\nActive: yes, its condition holds (`%s`).", rawText(a, d.When.Value))
			} else {
				b.WriteString("\n\nActive: always.")
			}
		} else {
			b.WriteString("\n\nActive: no")
			if why := explainCondition(a, st, d.When, nil); why != "" {
				b.WriteString(" — " + why)
			}
			b.WriteString("; it takes no value.")
		}
	}
	if sv := a.SuppliedValue(name); sv != nil {
		fmt.Fprintf(&b, "\n\nSupplied: `%s`", rawText(a, sv.Value))
		if st != nil {
			if v, ok := st.Resolved(name); ok {
				if sv.Value.Kind() != jsonsrc.Number {
					b.WriteString(" → " + fmtFloat(v))
				}
			} else if st.Active(name) {
				b.WriteString(" (does not resolve to a number)")
			}
		}
	} else if st != nil && st.Active(name) {
		b.WriteString("\n\nNot supplied yet.")
	}
	return b.String()
}

func (q *adoptionQuery) rowSetHover(name string) string {
	set := q.a.RowSet(name)
	if set == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**row set `%s`**\n\n", name)
	if d := strValue(set.Description); d != "" {
		b.WriteString(d + "\n\n")
	}
	var fields []string
	for _, f := range set.Fields {
		fields = append(fields, "`"+f.Name.Text+"`")
	}
	b.WriteString("Fields: " + strings.Join(fields, ", "))
	if ra := q.a.RowArray(name); ra != nil {
		fmt.Fprintf(&b, "\n\nRows: %d", len(ra.Rows))
	}
	return b.String()
}

// fieldHover shows a record field's description, type and when it is
// required; with a row, whether it is required in that row.
func (q *adoptionQuery) fieldHover(setName, field string, row *contracts.Row) string {
	f := q.a.RowSet(setName).Field(field)
	if f == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**field `%s`** of row set `%s`\n\n", field, setName)
	if d := strValue(f.Description); d != "" {
		b.WriteString(d + "\n\n")
	}
	b.WriteString("Type: " + fieldType(f))
	switch {
	case f.When != nil:
		fmt.Fprintf(&b, "\n\nPresent exactly when `%s` holds.", rawText(q.a, f.When.Value))
		if row != nil {
			if q.st.FieldRequired(row, f) {
				b.WriteString(" In this row: required.")
			} else {
				b.WriteString(" In this row: not allowed")
				if why := q.conditionWhy(f.When, row); why != "" {
					b.WriteString(" — " + why)
				}
				b.WriteString(".")
			}
		}
	case f.Required:
		b.WriteString("\n\nRequired in every row.")
	default:
		b.WriteString("\n\nOptional.")
	}
	if f.Unique {
		b.WriteString(" Unique across the rows.")
	}
	return b.String()
}

// citationHover shows what a citation names: a heading and the start of
// its section, a tuning number with its kind, or a contract value.
func (q *adoptionQuery) citationHover(text string) string {
	return citationMarkdown(q.pkg, text)
}

func citationMarkdown(p *analysis.Package, text string) string {
	if file, anchor, ok := strings.Cut(text, "#"); ok {
		rel, inside := analysis.PackageRelative(file)
		if !inside {
			return fmt.Sprintf("`%s` leaves the package; a citation names a file inside it.", file)
		}
		f := p.FileAt(rel)
		if f == nil || f.Markdown == nil {
			return fmt.Sprintf("The package has no chapter `%s`.", file)
		}
		return headingMarkdown(f.Markdown, rel, anchor, false, true)
	}
	if strings.HasPrefix(text, "contracts.") {
		return contractMarkdown(p, text)
	}
	return tuningMarkdown(p, text, true)
}

// headingMarkdown shows the heading of doc with the anchor and the first
// lines of its section.
func headingMarkdown(doc *markdown.Doc, file, anchor string, github, fixedMatters bool) string {
	hs := doc.FindFragment(anchor, github)
	if len(hs) == 0 {
		return fmt.Sprintf("No heading of `%s` has the anchor `%s`.", file, anchor)
	}
	h := hs[0]
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** — `%s`\n\n", strings.TrimSpace(doc.Headings[h].Text(doc)), file)
	if len(hs) > 1 {
		fmt.Fprintf(&b, "Ambiguous: %d headings have this anchor.\n\n", len(hs))
	}
	if fixedMatters {
		if fixed, tag := doc.SectionFixed(h); !fixed {
			b.WriteString("The section is not Fixed")
			if tag != nil {
				fmt.Fprintf(&b, ": a %s tag covers it", strings.TrimSuffix(tag.Kind.Word(), ":"))
			}
			b.WriteString(", so a contract cannot cite it.\n\n")
		}
	}
	b.WriteString(quoteBlock(doc.SectionText(h, sectionLines)))
	return b.String()
}

// quoteBlock quotes Markdown text line by line.
func quoteBlock(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = "> " + l
	}
	return strings.Join(lines, "\n")
}

// tuningMarkdown shows a tuning key's number and kind.
func tuningMarkdown(p *analysis.Package, key string, citation bool) string {
	if p.Tuning == nil {
		return ""
	}
	e, ok := p.Tuning.Lookup(key)
	if !ok {
		return fmt.Sprintf("tuning.json has no key `%s` in values or open.", key)
	}
	md := fmt.Sprintf("**tuning `%s`** = %s", key, tuningDetail(e))
	if e.Open && citation {
		md += "\n\nAn open number cannot be cited."
	}
	return md
}

// contractMarkdown shows what contracts.<adoption>[.<value>] names.
func contractMarkdown(p *analysis.Package, text string) string {
	segs := strings.Split(text, ".")
	if len(segs) < 2 || len(segs) > 3 {
		return ""
	}
	a := p.Adoption(segs[1])
	if a == nil {
		return fmt.Sprintf("contracts/ has no adoption `%s`.", segs[1])
	}
	if len(segs) == 2 {
		return fmt.Sprintf("**adoption `%s`** of `%s`\n\n%s", a.ID, a.Identity(), strValue(a.Summary))
	}
	md := valueMarkdown(a, p.State(a), segs[2])
	if md == "" {
		return fmt.Sprintf("Adoption `%s` declares no value `%s`.", a.ID, segs[2])
	}
	return md
}

// ruleHover shows a rule's line or forbid condition and message, and
// whether it holds now.
func (q *adoptionQuery) ruleHover(name string) string {
	var r *contracts.Rule
	for _, x := range q.a.Rules {
		if x.Name.Text == name {
			r = x
		}
	}
	if r == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**rule `%s`**\n\n", name)
	switch r.Kind {
	case contracts.RuleComparison:
		fmt.Fprintf(&b, "`%s`\n\n", r.Line)
		rl, err := ruleline.Parse(r.Line)
		if err != nil {
			b.WriteString("The line cannot be read: " + err.Error())
			break
		}
		res := rl.Eval(func(n string) (float64, bool) { return q.st.Resolved(n) })
		switch {
		case len(res.Missing) > 0:
			b.WriteString("Not evaluated now: no resolved number for " + strings.Join(res.Missing, ", ") + ".")
		case res.Err != nil:
			b.WriteString("Cannot be computed: " + res.Err.Msg)
		case res.Holds:
			fmt.Fprintf(&b, "Holds now: %s %s %s.", ruleline.FormatNumber(res.Left), rl.Op, ruleline.FormatNumber(res.Right))
		default:
			fmt.Fprintf(&b, "Fails now: %s %s %s is false.", ruleline.FormatNumber(res.Left), rl.Op, ruleline.FormatNumber(res.Right))
		}
	case contracts.RuleAnswerAware:
		if r.Forbid != nil {
			fmt.Fprintf(&b, "Forbids: `%s`\n\n", rawText(q.a, r.Forbid.Value))
		}
		if m := strValue(r.Message); m != "" {
			b.WriteString("Message: " + m + "\n\n")
		}
		fmt.Fprintf(&b, "Severity: %s\n\n", severityWord(r.Severity))
		if r.Forbid != nil && q.st.Holds(r.Forbid, nil) {
			b.WriteString("The forbidden combination holds under the current answers.")
		} else {
			b.WriteString("The current answers are allowed.")
		}
	default:
		b.WriteString("A rule is a comparison string or an object with forbid and message.")
	}
	return b.String()
}

func severityWord(s source.Severity) string {
	if s == source.Warning {
		return "warning"
	}
	return "error"
}

// templateHover shows whether a template of the pack is live and its
// inputs.
func (q *adoptionQuery) templateHover(id string) string {
	pk := q.pkg.PackFor(q.a)
	if pk == nil {
		return ""
	}
	for _, st := range pack.Live(q.a, q.st, pk) {
		if st.ID != id {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "**template `%s`**", id)
		if t := strValue(st.Template.Title); t != "" {
			b.WriteString(" — " + t)
		}
		if st.Live {
			fmt.Fprintf(&b, "\n\nLive: %d test(s).", st.Tests)
		} else {
			b.WriteString("\n\nNot live: " + st.Reason)
		}
		if names := inputNames(st.Template); len(names) > 0 {
			b.WriteString("\n\nInputs: " + strings.Join(names, ", "))
		}
		return b.String()
	}
	return fmt.Sprintf("The pack has no template `%s`.", id)
}

// hoverMarkdown explains the inline-code citation or the link at offset.
func hoverMarkdown(s *analysis.Snapshot, f *analysis.File, offset int) *HoverInfo {
	if h, ok := hoverPlan(s, f, offset); ok {
		return h // a test heading or a member of a test block
	}
	if h := docHover(s, f, offset); h != nil {
		return h // an inline-code path or a quoted test name (docfeatures.go)
	}
	if h := fantasyHover(s, f, offset); h != nil {
		return h
	}
	if h := rulesetHover(s, f, offset); h != nil {
		return h
	}
	if h := tagHover(s, f, offset); h != nil {
		return h // a > PERSONALIZATION: tag (personalize_query.go)
	}
	doc := f.Markdown
	p := s.PackageFor(f)
	if h := modeTagHover(p, f, offset); h != nil {
		return h
	}
	for _, cs := range doc.CodeSpans {
		if !cs.Span().Contains(offset) || p == nil {
			continue
		}
		md := proseMarkdown(p, cs.Text(doc))
		if md == "" {
			return nil
		}
		return &HoverInfo{Markdown: md, Span: cs.Span()}
	}
	for _, l := range doc.Links {
		if !l.Span().Contains(offset) {
			continue
		}
		dest := l.Dest(doc)
		if dest == "" || strings.Contains(dest, "://") || strings.HasPrefix(dest, "mailto:") {
			continue
		}
		file, anchor, _ := strings.Cut(dest, "#")
		target := f
		if file != "" {
			target = s.File(filepath.Join(filepath.Dir(f.Path), filepath.FromSlash(file)))
		}
		if target == nil || target.Markdown == nil {
			return nil
		}
		name := filepath.Base(target.Path)
		var md string
		if anchor == "" {
			md = fmt.Sprintf("`%s`", name)
			if len(target.Markdown.Headings) > 0 {
				md += "\n\n" + quoteBlock(target.Markdown.SectionText(0, sectionLines))
			}
		} else {
			md = headingMarkdown(target.Markdown, name, anchor, !target.InPackage(), false)
		}
		return &HoverInfo{Markdown: md, Span: l.Span()}
	}
	return nil
}

// proseMarkdown explains an inline-code token of a chapter.
func proseMarkdown(p *analysis.Package, text string) string {
	class, segs := analysis.ClassifyToken(text)
	switch class {
	case analysis.TuningCitation:
		return tuningMarkdown(p, text, false)
	case analysis.MechanismPath:
		rest := strings.Join(segs[1:], ".")
		switch segs[0] {
		case "contracts":
			return contractMarkdown(p, text)
		case "clocks", "runtime":
			if t, ok := clockTokenTarget(p, text); ok {
				return clockTargetMarkdown(p, t)
			}
		case "values":
			return tuningMarkdown(p, rest, false)
		case "palette", "pillars", "mood", "anti", "must_keep", "colors", "contrast", "timing":
			return directionMarkdown(p, text)
		case "collections":
			return collectionMarkdown(p, segs)
		case "rules":
			if p.Tuning == nil {
				return ""
			}
			if r, ok := p.Tuning.Rule(rest); ok {
				return fmt.Sprintf("**rule `%s`** of tuning.json\n\n`%s`", rest, r.Line)
			}
		case "ranges":
			if p.Tuning == nil {
				return ""
			}
			if r, ok := p.Tuning.Range(rest); ok && r.Valid {
				return fmt.Sprintf("**range of `%s`**: %s to %s", rest, fmtFloat(r.Min), fmtFloat(r.Max))
			}
		}
	}
	return ""
}
