package contracts

import (
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// FormKind is one of the condition forms of SPEC §12.3.
type FormKind int

// The condition forms. FormUnknown is a key that names no form.
const (
	FormUnknown FormKind = iota
	FormFlag
	FormValueForm
	FormRowCount
	FormAny
	FormAll
	FormRow
	FormRowHas
)

var formNames = map[string]FormKind{
	"flag":       FormFlag,
	"value-form": FormValueForm,
	"row-count":  FormRowCount,
	"any":        FormAny,
	"all":        FormAll,
	"row":        FormRow,
	"row-has":    FormRowHas,
}

// String returns the form's key as written in JSON.
func (k FormKind) String() string {
	for name, kind := range formNames {
		if kind == k {
			return name
		}
	}
	return "unknown"
}

// Condition is a parsed condition object (SPEC §12.3). Parsing keeps every
// form the object carries, legal or not, so that the checks of each place
// can report what is wrong and the editor can still resolve the names.
type Condition struct {
	// Value is the condition as written.
	Value *jsonsrc.Value
	// Forms are the object's non-annotation members in source order.
	Forms []*Form
}

// Form is one member of a condition object.
type Form struct {
	Kind    FormKind
	Key     string
	KeySpan source.Span
	Value   *jsonsrc.Value
	// Entries are the members of a map form (flag, value-form, row-count,
	// row, row-has), annotations left out.
	Entries []*Entry
	// Members are the conditions of an `any` or `all` array; an element
	// that is not an object is kept as a Condition with no Forms.
	Members []*Condition
}

// Entry is one name of a map form with what it maps to.
type Entry struct {
	// Name is a question id (flag), value name (value-form), row-set name
	// (row-count, row-has) or field name (row).
	Name  Name
	Value *jsonsrc.Value
	// Items are the array elements of a flag, value-form or row entry.
	Items []*jsonsrc.Value
	// Inner is the row map of a row-has entry.
	Inner *Form
}

// ParseCondition reads a condition object. It never fails: a value that is
// not an object gives a Condition with no Forms, which the checks report.
func ParseCondition(v *jsonsrc.Value) *Condition {
	c := &Condition{Value: v}
	if v == nil || v.Kind() != jsonsrc.Object {
		return c
	}
	for _, m := range v.Members() {
		if isAnnotation(m.Key) {
			continue
		}
		f := &Form{Kind: formNames[m.Key], Key: m.Key, KeySpan: m.KeySpan(), Value: m.Value}
		switch f.Kind {
		case FormAny, FormAll:
			if m.Value != nil && m.Value.Kind() == jsonsrc.Array {
				for _, e := range m.Value.Elems() {
					f.Members = append(f.Members, ParseCondition(e))
				}
			}
		case FormFlag, FormValueForm, FormRowCount, FormRow, FormRowHas:
			f.Entries = parseEntries(f.Kind, m.Value)
		}
		c.Forms = append(c.Forms, f)
	}
	return c
}

func parseEntries(kind FormKind, v *jsonsrc.Value) []*Entry {
	if v == nil || v.Kind() != jsonsrc.Object {
		return nil
	}
	var out []*Entry
	for _, m := range v.Members() {
		if isAnnotation(m.Key) {
			continue
		}
		e := &Entry{Name: Name{Text: m.Key, Span: m.KeySpan()}, Value: m.Value}
		if m.Value != nil && m.Value.Kind() == jsonsrc.Array {
			e.Items = m.Value.Elems()
		}
		if kind == FormRowHas {
			e.Inner = &Form{Kind: FormRow, Key: "row", KeySpan: m.KeySpan(), Value: m.Value,
				Entries: parseEntries(FormRow, m.Value)}
		}
		out = append(out, e)
	}
	return out
}

// Form returns the condition's first form of kind k, or nil.
func (c *Condition) Form(k FormKind) *Form {
	if c == nil {
		return nil
	}
	for _, f := range c.Forms {
		if f.Kind == k {
			return f
		}
	}
	return nil
}

// Names calls visit for every name the condition reads, with the form it
// belongs to, walking into `any`, `all` and `row-has`. For a row-has entry
// visit is called for the row-set name (form FormRowHas) and then for each
// field of its row map (form FormRow). Option ids of a flag entry are
// reported with form FormFlag and their question in q.
func (c *Condition) Names(visit func(kind FormKind, name Name, question string)) {
	if c == nil {
		return
	}
	for _, f := range c.Forms {
		f.names(visit)
	}
}

func (f *Form) names(visit func(FormKind, Name, string)) {
	switch f.Kind {
	case FormAny, FormAll:
		for _, m := range f.Members {
			m.Names(visit)
		}
		return
	}
	for _, e := range f.Entries {
		visit(f.Kind, e.Name, "")
		if f.Kind == FormFlag {
			for _, it := range e.Items {
				if it.Kind() == jsonsrc.String {
					visit(FormFlag, Name{Text: it.Str(), Span: it.Span()}, e.Name.Text)
				}
			}
		}
		if e.Inner != nil {
			e.Inner.names(visit)
		}
	}
}

// Context is a place where a condition is written; it decides which forms
// are legal there (SPEC §12.3, "Where each form is legal").
type Context int

// The places a condition can be written.
const (
	// InQuestion is the `when` of a question.
	InQuestion Context = iota
	// InDeclaration is the `when` of a value declaration.
	InDeclaration
	// InField is the `when` of a contract record field.
	InField
	// InOnceTemplate is the `when` of a `once` pack template.
	InOnceTemplate
	// InPerRowTemplate is the `when` of a `per-row` pack template.
	InPerRowTemplate
	// InForbid is the `forbid` of an answer-aware rule.
	InForbid
)

// ProblemKind classifies a condition problem so that each place can report
// it under its own code.
type ProblemKind int

// The kinds of condition problems.
const (
	// ProblemShape is a form that is malformed or not legal in its place.
	ProblemShape ProblemKind = iota
	// ProblemUnknownKey is a key that names no condition form.
	ProblemUnknownKey
	// ProblemReference is a top-level flag or row naming an undeclared
	// question, option or field (SPEC §10.7 rule 16).
	ProblemReference
	// ProblemName is any other undeclared or unusable name.
	ProblemName
)

// Problem is one fault of a condition.
type Problem struct {
	Kind ProblemKind
	Span source.Span
	Msg  string
}
