package pack

import (
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
)

// TemplateStatus says whether one template is live for one adoption
// (SPEC §10.7 rules 3–6) and why not.
type TemplateStatus struct {
	Template *Template
	// ID is the template id ("" when the template has none).
	ID   string
	Live bool
	// Rows are the rows a live per-row template expands, in authored order.
	Rows []*contracts.Row
	// Tests is the number of tests the template generates: 0 when not live,
	// 1 for a live once template, len(Rows) for a live per-row template.
	Tests int
	// Reason says why the template is not live; empty when it is.
	Reason string
	// Waiting reports that the template is not live only because the
	// adoption still lacks an answer or a required row field, so findings
	// that follow from it are dependent.
	Waiting bool
	// Malformed reports that the template's own shape is wrong: it
	// generates nothing, and since the pack reports the fault once, the
	// adoption's verification entry for it is not judged either.
	Malformed bool
}

// ctx is one adoption with what the evaluation decided about it.
type ctx struct {
	a      *contracts.Adoption
	asked  func(question string) bool
	active func(value string) bool
	// required reports whether row must carry field f.
	required func(row *contracts.Row, f *contracts.Field) bool
}

// answer returns the recorded answer of an asked question.
func (c *ctx) answer(q string) (*contracts.Answer, bool) {
	if !c.asked(q) {
		return nil, false
	}
	ans := c.a.Answer(q)
	if ans == nil || !ans.IsString {
		return nil, false
	}
	return ans, true
}

// statuses decides liveness for every template of p in authored order.
func (c *ctx) statuses(p *Pack) []TemplateStatus {
	out := make([]TemplateStatus, 0, len(p.Templates))
	for _, t := range p.Templates {
		out = append(out, c.status(t))
	}
	return out
}

func (c *ctx) status(t *Template) TemplateStatus {
	st := TemplateStatus{Template: t, ID: t.ID}
	if !t.Usable {
		st.Reason = "the template's own shape is wrong (see the pack's findings)"
		st.Malformed = true
		return st
	}
	// block is the first reason the template is not live; the later ones
	// are not worded, as nobody reads them.
	block, wait := "", ""
	if t.When != nil {
		for _, term := range t.When.Flag {
			q := c.a.Question(term.Question)
			switch {
			case q == nil:
				if block == "" {
					block = "its condition names question " + strconv.Quote(term.Question) + ", which the definition does not declare"
				}
				continue
			case !c.asked(term.Question):
				if block == "" {
					block = "its condition reads question " + strconv.Quote(term.Question) + ", which is not asked"
				}
				continue
			}
			ans, ok := c.answer(term.Question)
			if !ok {
				if wait == "" {
					wait = "it waits on the answer to question " + strconv.Quote(term.Question)
				}
				continue
			}
			if !hasName(term.Options, ans.Option) && block == "" {
				block = "it applies when " + strconv.Quote(term.Question) + " is " + nameList(term.Options) + ", and the answer is " + strconv.Quote(ans.Option)
			}
		}
	}
	for _, b := range t.Bindings {
		if block == "" && b.Flag != nil && (c.a.Question(b.Flag.Text) == nil || !c.asked(b.Flag.Text)) {
			block = "binding " + strconv.Quote(b.ID) + " reads question " + strconv.Quote(b.Flag.Text) + ", which is not asked"
		}
	}
	for _, ph := range t.Placeholders {
		if block == "" && ph.Kind == PlaceValueCite && c.a.Declaration(ph.Arg) != nil && !c.active(ph.Arg) {
			block = "it cites value " + strconv.Quote(ph.Arg) + ", whose declaration is not active"
		}
	}
	switch {
	case block != "":
		st.Reason = block
		return st
	case wait != "":
		st.Reason, st.Waiting = wait, true
		return st
	}
	if t.Expand == ExpandOnce {
		st.Live, st.Tests = true, 1
		return st
	}
	c.expand(t, &st)
	return st
}

// expand finds the rows of a per-row template (rule 4).
func (c *ctx) expand(t *Template, st *TemplateStatus) {
	set := c.a.RowSet(t.Collection)
	if set == nil {
		st.Reason = "it expands row set " + strconv.Quote(t.Collection) + ", which the definition does not declare"
		return
	}
	arr := c.a.RowArray(t.Collection)
	if arr == nil || len(arr.Rows) == 0 {
		st.Reason = "row set " + strconv.Quote(t.Collection) + " has no rows"
		return
	}
	fields := readFields(t)
	var lacking *contracts.Row
	lackingField := ""
	for _, row := range arr.Rows {
		if !rowHolds(t.When, row) {
			continue
		}
		missing := ""
		for _, f := range fields {
			rf := row.Get(f)
			if rf == nil || (f == "id" && (rf.Value == nil || rf.Value.Kind() != jsonsrc.String)) {
				missing = f
				break
			}
		}
		if missing != "" {
			if lacking == nil {
				lacking, lackingField = row, missing
			}
			continue
		}
		st.Rows = append(st.Rows, row)
	}
	if len(st.Rows) > 0 {
		st.Live, st.Tests = true, len(st.Rows)
		return
	}
	if lacking == nil {
		st.Reason = "no row of " + strconv.Quote(t.Collection) + " meets its row condition"
		return
	}
	st.Reason = "row " + strconv.Itoa(lacking.Index) + " of " + strconv.Quote(t.Collection) + " meets its row condition but lacks field " + strconv.Quote(lackingField)
	if f := set.Field(lackingField); f != nil && c.required(lacking, f) {
		st.Waiting = true
		st.Reason = "it waits on required field " + strconv.Quote(lackingField) + " in row " + strconv.Itoa(lacking.Index) + " of " + strconv.Quote(t.Collection)
	}
}

// readFields lists the row fields a per-row template reads: `id` (its test
// names), its `when.row` fields, its row_field selectors and its
// {{row.<field>}} placeholders.
func readFields(t *Template) []string {
	fields := []string{"id"}
	addField := func(f string) {
		for _, x := range fields {
			if x == f {
				return
			}
		}
		fields = append(fields, f)
	}
	if t.When != nil {
		for _, r := range t.When.Row {
			addField(r.Field)
		}
	}
	for _, b := range t.Bindings {
		if b.RowField != nil {
			addField(b.RowField.Text)
		}
	}
	for _, ph := range t.Placeholders {
		if ph.Kind == PlaceRow {
			addField(ph.Arg)
		}
	}
	return fields
}

// rowHolds evaluates a template's `when.row` against one row (SPEC §12.3:
// an absent field makes it false; an absent or empty map holds).
func rowHolds(w *When, row *contracts.Row) bool {
	if w == nil {
		return true
	}
	for _, term := range w.Row {
		rf := row.Get(term.Field)
		if rf == nil {
			return false
		}
		ok := false
		for _, v := range term.Values {
			if jsonsrc.SameScalar(v, rf.Value) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func hasName(list []Name, s string) bool {
	for _, n := range list {
		if n.Text == s {
			return true
		}
	}
	return false
}

func nameList(list []Name) string {
	q := make([]string, len(list))
	for i, n := range list {
		q[i] = strconv.Quote(n.Text)
	}
	if len(q) == 1 {
		return q[0]
	}
	return "one of " + strings.Join(q, ", ")
}
