package contracts

import (
	"strconv"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// legalForms lists the forms a context accepts at the top of a condition,
// and whether it takes exactly one of them (otherwise any subset, each at
// most once, the empty object included).
func legalForms(ctx Context) (forms []FormKind, exactlyOne bool) {
	switch ctx {
	case InQuestion:
		return []FormKind{FormFlag, FormValueForm, FormRowCount, FormAny, FormAll}, true
	case InDeclaration:
		return []FormKind{FormFlag, FormValueForm, FormRowCount, FormAny, FormAll, FormRowHas}, true
	case InField, InPerRowTemplate:
		return []FormKind{FormFlag, FormRow}, false
	case InOnceTemplate:
		return []FormKind{FormFlag}, false
	case InForbid:
		return []FormKind{FormFlag, FormAny, FormAll}, true
	}
	return nil, true
}

func formList(forms []FormKind) string {
	s := ""
	for i, f := range forms {
		if i > 0 {
			s += ", "
		}
		s += f.String()
	}
	return s
}

func contains(forms []FormKind, k FormKind) bool {
	for _, f := range forms {
		if f == k {
			return true
		}
	}
	return false
}

var placeNames = map[Context]string{
	InQuestion:       "a question's when",
	InDeclaration:    "a value declaration's when",
	InField:          "a field's when",
	InOnceTemplate:   "a once template's when",
	InPerRowTemplate: "a per-row template's when",
	InForbid:         "a rule's forbid",
}

// CheckCondition checks the condition c written in place ctx of adoption a
// against SPEC §12.3: which forms are legal there, the shape of each form,
// and the names it reads. set is the row set whose rows a `row` form reads
// (for a field's or a per-row template's when), or nil.
func CheckCondition(c *Condition, ctx Context, a *Adoption, set *RowSet) []Problem {
	ck := &condChecker{a: a, set: set, ctx: ctx}
	if c == nil {
		return nil
	}
	if c.Value == nil || c.Value.Kind() != jsonsrc.Object {
		span := source.Span{}
		if c.Value != nil {
			span = c.Value.Span()
		}
		ck.add(ProblemShape, span, "a condition must be an object")
		return ck.out
	}
	legal, one := legalForms(ctx)
	seen := 0
	for _, f := range c.Forms {
		if f.Kind == FormUnknown {
			ck.add(ProblemUnknownKey, f.KeySpan, strconv.Quote(f.Key)+" is not a condition form; "+placeNames[ctx]+" accepts "+formList(legal)+
				suggest(f.Key, formNamesOf(legal)))
			continue
		}
		if !contains(legal, f.Kind) {
			ck.add(ProblemShape, f.KeySpan, "\""+f.Kind.String()+"\" is not allowed in "+placeNames[ctx]+"; it accepts "+formList(legal))
			continue
		}
		seen++
		if one && seen > 1 {
			ck.add(ProblemShape, f.KeySpan, placeNames[ctx]+" holds exactly one form; move the others into \"any\" or \"all\" or remove them")
			continue
		}
		if !one && c.countKind(f.Kind) > 1 {
			ck.add(ProblemShape, f.KeySpan, "\""+f.Kind.String()+"\" appears more than once")
			continue
		}
		ck.form(f, true)
	}
	if one && seen == 0 && len(c.Forms) == 0 {
		ck.add(ProblemShape, c.Value.Opening(), placeNames[ctx]+" must hold exactly one of "+formList(legal))
	}
	return ck.out
}

func formNamesOf(forms []FormKind) []string {
	var out []string
	for _, f := range forms {
		out = append(out, f.String())
	}
	return out
}

func (c *Condition) countKind(k FormKind) int {
	n := 0
	for _, f := range c.Forms {
		if f.Kind == k {
			n++
		}
	}
	return n
}

type condChecker struct {
	a   *Adoption
	set *RowSet
	ctx Context
	out []Problem
}

func (ck *condChecker) add(kind ProblemKind, span source.Span, msg string) {
	ck.out = append(ck.out, Problem{Kind: kind, Span: span, Msg: msg})
}

// nameKind is ProblemReference for the names of a top-level flag or row,
// ProblemName elsewhere.
func nameKind(top bool) ProblemKind {
	if top {
		return ProblemReference
	}
	return ProblemName
}

func (ck *condChecker) mapForm(f *Form, allowEmpty bool) bool {
	if f.Value == nil || f.Value.Kind() != jsonsrc.Object {
		ck.add(ProblemShape, spanOf(f.Value, f.KeySpan), "\""+f.Key+"\" must be an object (a map)")
		return false
	}
	if !allowEmpty && len(f.Entries) == 0 {
		ck.add(ProblemShape, f.Value.Span(), "\""+f.Key+"\" must name at least one entry")
		return false
	}
	return true
}

func spanOf(v *jsonsrc.Value, fallback source.Span) source.Span {
	if v != nil {
		return v.Span()
	}
	return fallback
}

func (ck *condChecker) nonEmptyArray(e *Entry, what string) bool {
	if e.Value == nil || e.Value.Kind() != jsonsrc.Array || len(e.Value.Elems()) == 0 {
		ck.add(ProblemShape, spanOf(e.Value, e.Name.Span), what+" of "+strconv.Quote(e.Name.Text)+" must be a non-empty array")
		return false
	}
	return true
}

func (ck *condChecker) form(f *Form, top bool) {
	a := ck.a
	switch f.Kind {
	case FormFlag:
		if !ck.mapForm(f, false) {
			return
		}
		for _, e := range f.Entries {
			q := a.Question(e.Name.Text)
			if q == nil {
				ck.add(nameKind(top), e.Name.Span, "\"flag\" names "+strconv.Quote(e.Name.Text)+", which is not a declared question"+
					suggest(e.Name.Text, a.QuestionIDs()))
			}
			if !ck.nonEmptyArray(e, "the options") {
				continue
			}
			for _, it := range e.Items {
				if it.Kind() != jsonsrc.String {
					// An entry that is no string names no option: a reference
					// that points at nothing declared, as an unknown option is.
					ck.add(nameKind(top), it.Span(), "an entry of a \"flag\" array must be an option id string, not "+it.Describe())
					continue
				}
				if q != nil && q.Option(it.Str()) == nil {
					ck.add(nameKind(top), it.Span(), strconv.Quote(it.Str())+" is not an option of question "+strconv.Quote(q.Name.Text)+
						"; its options are "+quoteList(q.OptionIDs())+suggest(it.Str(), q.OptionIDs()))
				}
			}
		}
	case FormValueForm:
		if !ck.mapForm(f, false) {
			return
		}
		for _, e := range f.Entries {
			d := a.Declaration(e.Name.Text)
			switch {
			case d == nil:
				ck.add(ProblemName, e.Name.Span, "\"value-form\" names "+strconv.Quote(e.Name.Text)+", which is not a declared value"+
					suggest(e.Name.Text, a.ValueNames()))
			case d.Conditional():
				ck.add(ProblemName, e.Name.Span, "\"value-form\" may read only unconditional declarations; "+strconv.Quote(e.Name.Text)+" has a when")
			}
			if !ck.nonEmptyArray(e, "the forms") {
				continue
			}
			for _, it := range e.Items {
				if it.Kind() != jsonsrc.String || (it.Str() != "number" && it.Str() != "citation") {
					ck.add(ProblemShape, it.Span(), "a \"value-form\" entry lists \"number\", \"citation\" or both")
				}
			}
		}
	case FormRowCount:
		if !ck.mapForm(f, false) {
			return
		}
		for _, e := range f.Entries {
			if a.RowSet(e.Name.Text) == nil {
				ck.add(ProblemName, e.Name.Span, "\"row-count\" names "+strconv.Quote(e.Name.Text)+", which is not a declared row set"+
					suggest(e.Name.Text, a.RowSetNames()))
			}
			v := e.Value
			if v == nil || v.Kind() != jsonsrc.String || (v.Str() != "empty" && v.Str() != "non-empty" && v.Str() != "at-least-two") {
				ck.add(ProblemShape, spanOf(v, e.Name.Span), "a \"row-count\" entry is exactly one of \"empty\", \"non-empty\" or \"at-least-two\"")
			}
		}
	case FormAny, FormAll:
		if f.Value == nil || f.Value.Kind() != jsonsrc.Array || len(f.Value.Elems()) == 0 {
			ck.add(ProblemShape, spanOf(f.Value, f.KeySpan), "\""+f.Key+"\" must be a non-empty array of conditions")
			return
		}
		memberForms := []FormKind{FormFlag, FormValueForm, FormRowCount}
		if ck.ctx == InForbid {
			memberForms = []FormKind{FormFlag}
		}
		for _, m := range f.Members {
			if m.Value == nil || m.Value.Kind() != jsonsrc.Object {
				ck.add(ProblemShape, spanOf(m.Value, f.KeySpan), "a member of \""+f.Key+"\" must be a condition object")
				continue
			}
			n := 0
			for _, mf := range m.Forms {
				switch {
				case mf.Kind == FormUnknown:
					ck.add(ProblemUnknownKey, mf.KeySpan, strconv.Quote(mf.Key)+" is not a condition form")
				case !contains(memberForms, mf.Kind):
					ck.add(ProblemShape, mf.KeySpan, "a member of \""+f.Key+"\" is "+formList(memberForms)+"; \""+mf.Key+"\" cannot be nested there")
				default:
					n++
					if n > 1 {
						ck.add(ProblemShape, mf.KeySpan, "a member of \""+f.Key+"\" holds exactly one form")
						continue
					}
					ck.form(mf, false)
				}
			}
			if len(m.Forms) == 0 {
				ck.add(ProblemShape, m.Value.Opening(), "a member of \""+f.Key+"\" must hold one of "+formList(memberForms))
			}
		}
	case FormRow:
		if !ck.mapForm(f, true) {
			return
		}
		ck.rowMap(f, ck.set, nameKind(top), false)
	case FormRowHas:
		if !ck.mapForm(f, false) {
			return
		}
		if len(f.Entries) != 1 {
			ck.add(ProblemShape, f.Value.Span(), "\"row-has\" names exactly one row set")
		}
		for _, e := range f.Entries {
			set := a.RowSet(e.Name.Text)
			if set == nil {
				ck.add(ProblemName, e.Name.Span, "\"row-has\" names "+strconv.Quote(e.Name.Text)+", which is not a declared row set"+
					suggest(e.Name.Text, a.RowSetNames()))
			}
			if e.Value == nil || e.Value.Kind() != jsonsrc.Object || len(e.Inner.Entries) == 0 {
				ck.add(ProblemShape, spanOf(e.Value, e.Name.Span), "the row map of \"row-has\" must be an object naming at least one field")
				continue
			}
			if set != nil {
				ck.rowMap(e.Inner, set, ProblemName, true)
			}
		}
	}
}

// rowMap checks the entries of a row map against set. strict requires each
// field to be unconditional and required (row-has).
func (ck *condChecker) rowMap(f *Form, set *RowSet, kind ProblemKind, strict bool) {
	for _, e := range f.Entries {
		if set != nil {
			fd := set.Field(e.Name.Text)
			switch {
			case fd == nil:
				var names []string
				for _, x := range set.Fields {
					names = append(names, x.Name.Text)
				}
				ck.add(kind, e.Name.Span, strconv.Quote(e.Name.Text)+" is not a field of row set "+strconv.Quote(set.Name.Text)+suggest(e.Name.Text, names))
			case strict && !fd.Unconditional():
				ck.add(ProblemName, e.Name.Span, "\"row-has\" may read only fields that are required and carry no when; "+
					strconv.Quote(e.Name.Text)+" is not")
			}
		}
		ck.nonEmptyArray(e, "the allowed values")
	}
}
