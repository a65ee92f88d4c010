package collections

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The codes of a record.
const (
	CodeRecordSchema  = "COLLECTION_RECORD_SCHEMA"
	CodeLinkType      = "COLLECTION_LINK_TYPE"
	CodeLinkDuplicate = "COLLECTION_LINK_DUPLICATE"
)

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Shape returns the record schema as a jsonshape object: the declared
// fields with their types, options and patterns, closed to other fields,
// open to annotations. A Broken field is declared with any value. The conditions of when and the values of link
// fields are checked by CheckRecord itself; a link field takes any value
// here.
func (r *Record) Shape() jsonshape.Object {
	r.once.Do(func() { r.shape = r.build() })
	return r.shape
}

func (r *Record) build() jsonshape.Object {
	o := jsonshape.Object{Annotations: true, LastWins: true, What: "the record"}
	if r.Parent != nil {
		o.What = fmt.Sprintf("an entry of %q", r.Parent.Path())
	}
	for _, f := range r.Fields {
		if f.Broken {
			// Declared, so not unknown to the record, but its value is
			// not checked against a shape that has a finding of its own.
			o.Fields = append(o.Fields, jsonshape.Field{Name: f.Name, Shape: jsonshape.Any{}, Doc: f.Doc()})
			continue
		}
		o.Fields = append(o.Fields, jsonshape.Field{Name: f.Name, Shape: f.shape(), Required: f.Required && f.Type != TypeLink, Doc: f.Doc()})
	}
	return o
}

func (f *Field) shape() jsonshape.Shape {
	var s jsonshape.Shape
	switch f.Type {
	case TypeNumber, TypeInteger:
		s = jsonshape.Number{Integer: f.Type == TypeInteger}
		if f.Open {
			s = jsonshape.OneOf{Shapes: []jsonshape.Shape{s, jsonshape.Null{}}}
		}
	case TypeString:
		str := jsonshape.String{Enum: f.Options}
		if f.Kebab {
			str.Pattern, str.PatternDoc = kebab, "kebab-case"
		}
		s = str
	case TypeGrid:
		// An array of strings; that it has a row, and rows of one width,
		// is the §7a congruence check's (CONTENT_LAYER_*), not this one's.
		s = jsonshape.Array{Elem: jsonshape.String{}}
	case TypeList:
		var elem jsonshape.Shape = jsonshape.Object{Annotations: true}
		if f.Of != nil {
			elem = f.Of.Shape()
		}
		s = jsonshape.Array{Elem: elem}
	default:
		s = jsonshape.Any{}
	}
	return s
}

// Doc is what the editor shows of a field: its type and description.
func (f *Field) Doc() string {
	var b strings.Builder
	b.WriteString(f.Type)
	if f.Type == TypeLink {
		fmt.Fprintf(&b, " to %s", f.To)
		if f.Many {
			b.WriteString(" (many)")
		}
	}
	if f.Open {
		b.WriteString(" (open)")
	}
	if f.Description != "" {
		b.WriteString(": " + f.Description)
	}
	return b.String()
}

// Link is one link a record holds: the id it names, in a link field.
type Link struct {
	// Field is the link field that declares it.
	Field *Field
	// ID is the linked record id; Span is its string.
	ID   string
	Span source.Span
}

// Value is one value of a field with unique: true, as canonical JSON.
type Value struct {
	Field *Field
	Text  string
	Span  source.Span
}

// Checked is what CheckRecord finds in one record.
type Checked struct {
	Findings []source.Finding
	// Links are the links the record holds, in document order; a link
	// field whose value has the wrong type holds none.
	Links []Link
	// Uniques are the values of the fields with unique: true.
	Uniques []Value
}

// CheckRecord checks a record against the record schema r (SPEC §1b rule
// 2 and the link values of "Links between records") and extracts its
// links and unique values. file is the record's path. A nil r (a
// collection without a record schema) checks nothing.
func CheckRecord(r *Record, file string, v *jsonsrc.Value) *Checked {
	c := &Checked{}
	if r == nil || v == nil {
		return c
	}
	for _, p := range jsonshape.Check(r.Shape(), v, "the record") {
		c.Findings = append(c.Findings, source.Finding{Code: CodeRecordSchema, Severity: source.Error, File: file, Span: p.Span, Message: p.Msg})
	}
	c.walk(r, file, v)
	return c
}

// walk checks what the shape does not: the conditions, the links, and
// collects the unique values, in one object and in the entries of its
// lists.
func (c *Checked) walk(r *Record, file string, obj *jsonsrc.Value) {
	if obj == nil || obj.Kind() != jsonsrc.Object {
		return
	}
	for _, f := range r.Fields {
		if f.Broken {
			continue // its shape has its own finding
		}
		m := obj.Member(f.Name)
		if f.When != nil {
			holds := f.When.Holds(obj)
			switch {
			case m != nil && !holds:
				c.add(CodeRecordSchema, file, m.KeySpan(), "%q is present, but its \"when\" condition does not hold for this %s; remove it, or change the fields the condition reads", f.Name, entryWord(r))
			case m == nil && holds && f.Type != TypeLink:
				c.add(CodeRecordSchema, file, obj.Opening(), "this %s lacks %q, which its \"when\" condition makes required; add the field", entryWord(r), f.Name)
			}
		}
		if f.Type == TypeLink {
			required := f.Required || (f.When != nil && f.When.Holds(obj))
			c.link(f, file, obj, m, required)
			continue
		}
		if m == nil || m.Value == nil {
			continue
		}
		if f.Unique {
			c.Uniques = append(c.Uniques, Value{Field: f, Text: canonical(m.Value), Span: m.Value.Span()})
		}
		if f.Type == TypeList && f.Of != nil && m.Value.Kind() == jsonsrc.Array {
			for _, e := range m.Value.Elems() {
				c.walk(f.Of, file, e)
			}
		}
	}
}

// link reads the value of a link field by the table of link values.
func (c *Checked) link(f *Field, file string, obj *jsonsrc.Value, m *jsonsrc.Member, required bool) {
	var v *jsonsrc.Value
	if m != nil {
		v = m.Value
	}
	var ids []*jsonsrc.Value
	switch {
	case v == nil || v.Kind() == jsonsrc.Null || v.Kind() == jsonsrc.Array && len(v.Elems()) == 0:
	case v.Kind() == jsonsrc.String && !f.Many:
		ids = []*jsonsrc.Value{v}
	case v.Kind() == jsonsrc.Array && f.Many:
		for _, e := range v.Elems() {
			if e != nil && e.Kind() != jsonsrc.String {
				c.add(CodeLinkType, file, e.Span(), "%q holds record ids; %s is not one, write the id as a string", f.Name, e.Describe())
				return
			}
		}
		ids = v.Elems()
	case f.Many:
		c.add(CodeLinkType, file, v.Span(), "%q links to many records: write an array of record ids of %s (or null for none), not %s", f.Name, f.To, v.Describe())
		return
	default:
		c.add(CodeLinkType, file, v.Span(), "%q links to one record: write the id of a record of %s as a string (or null for none), not %s", f.Name, f.To, v.Describe())
		return
	}
	if required && len(ids) == 0 {
		span := obj.Opening()
		if m != nil {
			span = m.KeySpan()
		}
		c.add(CodeRecordSchema, file, span, "the link field %q is required here and holds no link; link at least one record of %s", f.Name, f.To)
	}
	if f.Unique && v != nil {
		c.Uniques = append(c.Uniques, Value{Field: f, Text: canonical(v), Span: v.Span()})
	}
	seen := map[string]source.Span{}
	for _, id := range ids {
		if id == nil {
			continue
		}
		if first, dup := seen[id.Str()]; dup {
			c.Findings = append(c.Findings, source.Finding{
				Code: CodeLinkDuplicate, Severity: source.Warning, File: file, Span: id.Span(),
				Message: fmt.Sprintf("%q links to %s twice; remove the repeated id", f.Name, id.Str()),
				Related: []source.Related{{File: file, Span: first, Message: "first link to " + id.Str()}},
			})
			continue
		}
		seen[id.Str()] = id.Span()
		c.Links = append(c.Links, Link{Field: f, ID: id.Str(), Span: id.Span()})
	}
}

func (c *Checked) add(code, file string, span source.Span, format string, args ...any) {
	c.Findings = append(c.Findings, source.Finding{Code: code, Severity: source.Error, File: file, Span: span, Message: fmt.Sprintf(format, args...)})
}

func entryWord(r *Record) string {
	if r.Parent != nil {
		return "entry of " + r.Parent.Name
	}
	return "record"
}

// canonical writes v as compact JSON, so that equal values compare equal
// as JSON text.
func canonical(v *jsonsrc.Value) string {
	var b strings.Builder
	jsonsrc.Write(&b, v, jsonsrc.WriteOptions{})
	return b.String()
}

// Unique reports the values of fields with unique: true that repeat
// across the records of a collection: each repeat after the first, with
// the first as related information. files[i] is the path of the record
// that checked[i] is of; records are compared in the order given.
func Unique(files []string, checked []*Checked) []source.Finding {
	type first struct {
		file string
		span source.Span
	}
	seen := map[*Field]map[string]first{}
	var out []source.Finding
	for i, c := range checked {
		for _, u := range c.Uniques {
			m := seen[u.Field]
			if m == nil {
				m = map[string]first{}
				seen[u.Field] = m
			}
			if f, dup := m[u.Text]; dup {
				out = append(out, source.Finding{
					Code: CodeRecordSchema, Severity: source.Error, File: files[i], Span: u.Span,
					Message: fmt.Sprintf("%q is unique, and this value %s is already used; give the field a value no other %s has", u.Field.Path(), short(u.Text), entryWord(u.Field.Record)),
					Related: []source.Related{{File: f.file, Span: f.span, Message: "the same value"}},
				})
				continue
			}
			m[u.Text] = first{files[i], u.Span}
		}
	}
	return out
}

func short(s string) string {
	if len(s) > 40 {
		return s[:37] + "…"
	}
	return s
}
