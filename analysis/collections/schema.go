// Package collections reads the structured content collections of SPEC
// §1b: the schema file _collection.json with its record schema in the
// collection form of the record-field grammar (§12.1), and the records
// checked against that schema. What needs more than one file (the links
// between records, the uniqueness of a field across records, whether the
// collection is cited) is decided by package analysis from what this
// package extracts. Pure: functions of parsed JSON values.
package collections

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The codes of the schema file.
const (
	CodeLabelSchema = "COLLECTION_LABEL_SCHEMA"
	CodeSchemaShape = "COLLECTION_SCHEMA_SHAPE"
)

// The field types of the collection form (SPEC §12.1).
const (
	TypeNumber  = "number"
	TypeInteger = "integer"
	TypeString  = "string"
	TypeGrid    = "grid"
	TypeLink    = "link"
	TypeList    = "list"
)

// Types lists the field types of the collection form, in the order the
// editor offers them.
var Types = []string{TypeNumber, TypeInteger, TypeString, TypeGrid, TypeLink, TypeList}

// maxOption is the longest option, in Unicode scalar values.
const maxOption = 64

// Schema is a parsed _collection.json.
type Schema struct {
	// Record is the record schema; nil when the file has no record member
	// or its record member is not an object.
	Record *Record
	// Broken is set when the file is not an object or its "record" is not
	// an object: there is then no record schema to apply to the records. A
	// fault inside one field shape marks that Field Broken instead, and
	// the records are still checked against every other field (§1b
	// rule 2), so that one fault in the schema neither turns into a
	// finding on every record nor switches off the collection's checks.
	Broken bool
	// Findings are the file's COLLECTION_LABEL_SCHEMA and
	// COLLECTION_SCHEMA_SHAPE findings.
	Findings []source.Finding
}

// Record is a record schema: the field shapes of a record or of the
// entries of a list.
type Record struct {
	// Value is the record schema object as written.
	Value *jsonsrc.Value
	// Fields are the declared fields in source order (annotations left
	// out; a name written twice counts with its last shape).
	Fields []*Field
	// Parent is the list field whose of this is, nil at the top.
	Parent *Field
	byName map[string]*Field
	once   sync.Once
	shape  jsonshape.Object
}

// Field returns the declared field of that name, or nil.
func (r *Record) Field(name string) *Field {
	if r == nil {
		return nil
	}
	return r.byName[name]
}

// Field is one field shape of a record schema.
type Field struct {
	Name     string
	NameSpan source.Span
	// Value is the field shape object as written.
	Value *jsonsrc.Value
	// Type is the field's type ("" when missing or not a known type).
	Type     string
	Required bool
	// When is the field's condition, nil when it has none.
	When *Condition
	Open bool
	// Options is the closed set of a string field, nil when unset.
	Options []string
	// Kebab is set by pattern: "kebab-case".
	Kebab  bool
	Unique bool
	// Description is the field's description.
	Description string
	// To is the target collection of a link field; ToSpan is its value.
	To     string
	ToSpan source.Span
	Many   bool
	// NoLoops is set by loops: false.
	NoLoops bool
	// MirroredBy names the mirror field of a link; MirrorSpan is its value.
	MirroredBy string
	MirrorSpan source.Span
	// Of is the record schema of a list's entries.
	Of *Record
	// Record is the record schema that declares the field.
	Record *Record
	// Broken is set when the field's shape has a finding of its own (a
	// fault inside the record schema of its of marks the field of that
	// record schema, not the list; a name outside the field-name grammar
	// does not make the shape broken). The field still counts as
	// declared, but nothing that depends on its shape is checked: its
	// value in a record, its condition, its links and its uniqueness.
	Broken bool
	// ofFindings counts the findings inside the record schema of of.
	ofFindings int
}

// Path is the field's dotted path from the top of the record schema, with
// [] after each list, such as inputs[].item_id.
func (f *Field) Path() string {
	if f.Record == nil || f.Record.Parent == nil {
		return f.Name
	}
	return f.Record.Parent.Path() + "[]." + f.Name
}

// TopLevel reports whether the field is declared at the top of the record
// schema, not inside an of.
func (f *Field) TopLevel() bool { return f.Record == nil || f.Record.Parent == nil }

// Condition is the row condition of a when (SPEC §12.3): the object holds
// when it carries every named field with one of its allowed values. An
// empty condition holds.
type Condition struct {
	Tests []RowTest
}

// RowTest is one field of a row condition with its allowed values.
type RowTest struct {
	Field   string
	Span    source.Span
	Allowed []*jsonsrc.Value
}

// Holds reports whether the condition holds for an object (a record or a
// list entry).
func (c *Condition) Holds(obj *jsonsrc.Value) bool {
	for _, t := range c.Tests {
		v := obj.Get(t.Field)
		if v == nil {
			return false
		}
		ok := false
		for _, a := range t.Allowed {
			if jsonsrc.SameScalar(a, v) {
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

// FieldNameProblem says what is wrong with a field name of the collection
// form, or "" when it is one: lowercase letters, digits, underscores and
// hyphens, not beginning or ending with a hyphen.
func FieldNameProblem(name string) string {
	if name == "" {
		return "is empty; a field name needs at least one character"
	}
	if name[0] == '-' || name[len(name)-1] == '-' {
		return "begins or ends with a hyphen; a field name may not"
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return "holds " + strconv.QuoteRune(rune(c)) + "; a field name holds only lowercase letters, digits, underscores and hyphens"
		}
	}
	return ""
}

// IsAnnotation reports whether a key is an annotation (SPEC §1b rule 4).
func IsAnnotation(key string) bool { return strings.HasPrefix(key, "_") }

// members returns the members of an object that count: annotations left
// out, and of a key written twice only the last, as JSON readers keep.
func members(v *jsonsrc.Value) []jsonsrc.Member {
	var out []jsonsrc.Member
	for _, m := range v.LastMembers() {
		if IsAnnotation(m.Key) || m.Value == nil {
			continue
		}
		out = append(out, m)
	}
	return out
}

type parser struct {
	file string
	out  []source.Finding
}

func (p *parser) add(code string, span source.Span, format string, args ...any) {
	p.out = append(p.out, source.Finding{Code: code, Severity: source.Error, File: p.file, Span: span, Message: fmt.Sprintf(format, args...)})
}

// ParseSchema reads the parsed schema file of a collection. file is its
// path, for the findings. A nil v (a file that is absent or does not parse)
// gives a Schema with no record schema.
func ParseSchema(file string, v *jsonsrc.Value) *Schema {
	s := &Schema{}
	if v == nil {
		return s
	}
	p := &parser{file: file}
	if v.Kind() != jsonsrc.Object {
		p.add(CodeLabelSchema, v.Span(), "the schema file holds one JSON object, not %s; write { \"record\": { … } }", v.Describe())
		s.Broken = true
	}
	for _, m := range members(v) {
		if m.Key != "record" {
			p.add(CodeLabelSchema, m.KeySpan(), "%q is not a field of the schema file; its one field is \"record\" (a key starting with _ is an annotation)", m.Key)
			continue
		}
		if m.Value.Kind() != jsonsrc.Object {
			p.both(m.Value.Span(), "\"record\" must be an object mapping field names to field shapes, not %s", m.Value.Describe())
			s.Broken = true
			continue
		}
		s.Record = p.record(m.Value, nil)
	}
	s.Findings = p.out
	return s
}

// both reports a fault that breaks collection.schema.json and the
// collection form of §12.1 alike (a record schema, a field shape or an of
// that is not an object): COLLECTION_LABEL_SCHEMA and
// COLLECTION_SCHEMA_SHAPE on the same token, as the two rows of §1b apply.
func (p *parser) both(span source.Span, format string, args ...any) {
	p.add(CodeLabelSchema, span, format, args...)
	p.add(CodeSchemaShape, span, format, args...)
}

// record reads a record schema object; parent is the list whose of it is.
func (p *parser) record(v *jsonsrc.Value, parent *Field) *Record {
	r := &Record{Value: v, Parent: parent, byName: map[string]*Field{}}
	for _, m := range members(v) {
		if msg := FieldNameProblem(m.Key); msg != "" {
			// The name breaks the grammar, not the shape: the records
			// are still checked against the field as declared.
			p.add(CodeSchemaShape, m.KeySpan(), "the field name %q %s", m.Key, msg)
		}
		start := len(p.out)
		var f *Field
		if m.Value.Kind() != jsonsrc.Object {
			p.both(m.Value.Span(), "the shape of field %q must be an object such as { \"type\": \"number\" }, not %s", m.Key, m.Value.Describe())
			f = &Field{Name: m.Key, NameSpan: m.KeySpan(), Value: m.Value, Record: r}
		} else {
			f = p.field(m, r)
		}
		f.Broken = len(p.out)-start-f.ofFindings > 0
		r.Fields = append(r.Fields, f)
		r.byName[f.Name] = f
	}
	return r
}

// allowedOn says on which types a member is allowed (nil: every type).
var allowedOn = map[string][]string{
	"type": nil, "required": nil, "when": nil, "unique": nil, "description": nil,
	"open":        {TypeNumber, TypeInteger},
	"options":     {TypeString},
	"pattern":     {TypeString},
	"to":          {TypeLink},
	"many":        {TypeLink},
	"loops":       {TypeLink},
	"mirrored_by": {TypeLink},
	"of":          {TypeList},
}

func (p *parser) field(m jsonsrc.Member, r *Record) *Field {
	f := &Field{Name: m.Key, NameSpan: m.KeySpan(), Value: m.Value, Record: r}
	what := fmt.Sprintf("field %q", f.Path())
	v := m.Value
	// The type first: it decides which members are allowed.
	if tm := v.Member("type"); tm == nil {
		p.add(CodeSchemaShape, m.KeySpan(), "%s has no \"type\"; give it one of %s", what, strings.Join(Types, ", "))
	} else {
		p.fieldType(f, tm, what)
	}
	ms := members(v)
	for _, mm := range ms {
		ons, known := allowedOn[mm.Key]
		switch {
		case mm.Key == "within":
			p.add(CodeSchemaShape, mm.KeySpan(), "\"within\" belongs to the contract form of a record schema; a collection field does not take it, so remove it")
			continue
		case !known:
			p.add(CodeSchemaShape, mm.KeySpan(), "%q is not a member of a field shape%s", mm.Key, hint(mm.Key))
			continue
		case ons != nil && f.Type != "" && !contains(ons, f.Type):
			p.add(CodeSchemaShape, mm.KeySpan(), "%q is allowed only on a field of type %s; %s is of type %s, so remove it", mm.Key, strings.Join(ons, " or "), what, f.Type)
			continue
		}
		p.member(f, mm, what)
	}
	if f.Type == TypeLink && v.Member("to") == nil {
		p.add(CodeSchemaShape, m.KeySpan(), "%s is a link and names no target collection; add \"to\" with a collection id", what)
	}
	if f.Type == TypeList && v.Member("of") == nil {
		p.add(CodeSchemaShape, m.KeySpan(), "%s is a list and has no \"of\"; add the record schema of its entries", what)
	}
	if rq := v.Member("required"); rq != nil {
		if w := v.Member("when"); w != nil {
			p.add(CodeSchemaShape, w.KeySpan(), "%s carries both \"required\" and \"when\"; keep one (\"when\" alone makes the field required exactly when it holds)", what)
		}
		if o := v.Member("open"); o != nil {
			p.add(CodeSchemaShape, o.KeySpan(), "%s carries both \"open\" and \"required\"; an open field is never required, so remove one", what)
		}
	}
	return f
}

func (p *parser) fieldType(f *Field, tm *jsonsrc.Member, what string) {
	t := tm.Value
	if t == nil {
		return
	}
	if t.Kind() != jsonsrc.String {
		p.add(CodeSchemaShape, t.Span(), "the \"type\" of %s must be one of %s, not %s", what, strings.Join(Types, ", "), t.Describe())
		return
	}
	switch t.Str() {
	case TypeNumber, TypeInteger, TypeString, TypeLink, TypeList:
		f.Type = t.Str()
	case TypeGrid:
		f.Type = t.Str()
		if !f.TopLevel() {
			p.add(CodeSchemaShape, t.Span(), "%s is a grid inside \"of\"; a grid field is allowed only at the top of the record schema", what)
		}
	case "reference":
		p.add(CodeSchemaShape, t.Span(), "the type \"reference\" is retired; write \"link\" (`gddls migrate` does this)")
	case "citation":
		p.add(CodeSchemaShape, t.Span(), "the type \"citation\" belongs to contract row sets; a collection field cannot have it (use \"string\" or \"link\")")
	default:
		p.add(CodeSchemaShape, t.Span(), "the \"type\" of %s is %q; it must be one of %s", what, t.Str(), strings.Join(Types, ", "))
	}
}

func (p *parser) boolMember(v *jsonsrc.Value, key, what string) (bool, bool) {
	if v.Kind() != jsonsrc.Bool {
		p.add(CodeSchemaShape, v.Span(), "%q of %s must be true or false, not %s", key, what, v.Describe())
		return false, false
	}
	return v.Bool(), true
}

func (p *parser) member(f *Field, m jsonsrc.Member, what string) {
	v := m.Value
	switch m.Key {
	case "type":
		// read by fieldType
	case "required":
		f.Required, _ = p.boolMember(v, m.Key, what)
	case "unique":
		f.Unique, _ = p.boolMember(v, m.Key, what)
	case "many":
		f.Many, _ = p.boolMember(v, m.Key, what)
	case "loops":
		if v.Kind() == jsonsrc.String && v.Str() == "never" {
			p.add(CodeSchemaShape, v.Span(), "\"loops\": \"never\" is retired; write \"loops\": false (`gddls migrate` does this)")
			return
		}
		b, ok := p.boolMember(v, m.Key, what)
		f.NoLoops = ok && !b
	case "description":
		if v.Kind() != jsonsrc.String {
			p.add(CodeSchemaShape, v.Span(), "\"description\" of %s must be a string, not %s", what, v.Describe())
			return
		}
		f.Description = v.Str()
	case "open":
		switch {
		case v.Kind() != jsonsrc.Bool || !v.Bool():
			p.add(CodeSchemaShape, v.Span(), "\"open\" of %s can only be true; remove it for a decided field", what)
		case !f.TopLevel():
			p.add(CodeSchemaShape, m.KeySpan(), "%s is inside \"of\"; only a field at the top of the record schema can be open", what)
		default:
			f.Open = true
		}
	case "pattern":
		if v.Kind() != jsonsrc.String || v.Str() != "kebab-case" {
			p.add(CodeSchemaShape, v.Span(), "\"pattern\" of %s can only be \"kebab-case\"", what)
			return
		}
		f.Kebab = true
	case "options":
		p.options(f, v, what)
	case "to":
		if v.Kind() != jsonsrc.String || !source.IsKebab(v.Str()) {
			if v.Kind() == jsonsrc.String {
				p.add(CodeSchemaShape, v.Span(), "\"to\" of %s is %q, which is not a collection id: ids are kebab-case", what, v.Str())
				return
			}
			p.add(CodeSchemaShape, v.Span(), "\"to\" of %s must be a collection id in kebab-case, not %s", what, v.Describe())
			return
		}
		f.To, f.ToSpan = v.Str(), v.Span()
	case "mirrored_by":
		if v.Kind() != jsonsrc.String {
			p.add(CodeSchemaShape, v.Span(), "\"mirrored_by\" of %s must name a field of the target collection, not %s", what, v.Describe())
			return
		}
		if msg := FieldNameProblem(v.Str()); msg != "" || IsAnnotation(v.Str()) {
			if msg == "" {
				msg = "starts with _, which makes it an annotation"
			}
			p.add(CodeSchemaShape, v.Span(), "\"mirrored_by\" of %s: the field name %q %s", what, v.Str(), msg)
			return
		}
		f.MirroredBy, f.MirrorSpan = v.Str(), v.Span()
	case "when":
		f.When = p.when(v, what)
	case "of":
		if v.Kind() != jsonsrc.Object {
			p.both(v.Span(), "\"of\" of %s must be an object mapping field names to field shapes, not %s", what, v.Describe())
			return
		}
		n := len(p.out)
		f.Of = p.record(v, f)
		f.ofFindings = len(p.out) - n
	}
}

func (p *parser) options(f *Field, v *jsonsrc.Value, what string) {
	if v.Kind() != jsonsrc.Array || len(v.Elems()) == 0 {
		p.add(CodeSchemaShape, v.Span(), "\"options\" of %s must be a non-empty array of kebab-case strings, not %s", what, describe(v))
		return
	}
	opts := make([]string, 0, len(v.Elems()))
	for _, e := range v.Elems() {
		if e == nil {
			continue
		}
		switch {
		case e.Kind() != jsonsrc.String:
			p.add(CodeSchemaShape, e.Span(), "an option of %s must be a kebab-case string, not %s", what, e.Describe())
		case !source.IsKebab(e.Str()):
			p.add(CodeSchemaShape, e.Span(), "the option %q of %s is not kebab-case; write lowercase letters and digits in groups joined by single hyphens", e.Str(), what)
		case utf8.RuneCountInString(e.Str()) > maxOption:
			p.add(CodeSchemaShape, e.Span(), "an option of %s has %d characters; an option has at most %d", what, utf8.RuneCountInString(e.Str()), maxOption)
		default:
			opts = append(opts, e.Str())
		}
	}
	f.Options = opts
}

// when reads the condition of a field: in the collection form, a row
// condition only (SPEC §12.3).
func (p *parser) when(v *jsonsrc.Value, what string) *Condition {
	if v.Kind() != jsonsrc.Object {
		p.add(CodeSchemaShape, v.Span(), "\"when\" of %s must be an object holding a \"row\" condition, not %s", what, v.Describe())
		return nil
	}
	c := &Condition{}
	for _, m := range members(v) {
		if m.Key != "row" {
			p.add(CodeSchemaShape, m.KeySpan(), "%q is not allowed in the \"when\" of a collection field; only a \"row\" condition is (it reads the record or the list entry)", m.Key)
			continue
		}
		if m.Value.Kind() != jsonsrc.Object {
			p.add(CodeSchemaShape, m.Value.Span(), "\"row\" must map field names to non-empty arrays of allowed values, not %s", m.Value.Describe())
			continue
		}
		for _, e := range members(m.Value) {
			if msg := FieldNameProblem(e.Key); msg != "" {
				p.add(CodeSchemaShape, e.KeySpan(), "the field name %q of the row condition %s", e.Key, msg)
				continue
			}
			if e.Value.Kind() != jsonsrc.Array || len(e.Value.Elems()) == 0 {
				p.add(CodeSchemaShape, e.Value.Span(), "the row condition on %q must hold a non-empty array of allowed values, not %s", e.Key, describe(e.Value))
				continue
			}
			t := RowTest{Field: e.Key, Span: e.KeySpan()}
			for _, a := range e.Value.Elems() {
				if a == nil {
					continue
				}
				if a.Kind() != jsonsrc.String && !a.Finite() {
					p.add(CodeSchemaShape, a.Span(), "an allowed value of a row condition is a string or a number, not %s", a.Describe())
					continue
				}
				t.Allowed = append(t.Allowed, a)
			}
			c.Tests = append(c.Tests, t)
		}
	}
	return c
}

// Members lists the members of a field shape, in the order the editor
// offers them.
var Members = []string{"type", "required", "when", "open", "options", "pattern", "unique", "description", "to", "many", "loops", "mirrored_by", "of"}

// MemberAllowed reports whether a field shape of type typ ("" when unknown)
// may carry the member.
func MemberAllowed(member, typ string) bool {
	ons, known := allowedOn[member]
	return known && (ons == nil || typ == "" || contains(ons, typ))
}

func hint(key string) string {
	for _, m := range Members {
		if source.EditDistance(m, key) == 1 {
			return fmt.Sprintf("; did you mean %q?", m)
		}
	}
	return "; a field shape takes " + strings.Join(Members, ", ") + " (a key starting with _ is an annotation)"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// describe names a value in messages, an empty array as such.
func describe(v *jsonsrc.Value) string {
	if v.Kind() == jsonsrc.Array && len(v.Elems()) == 0 {
		return "an empty array"
	}
	return v.Describe()
}
