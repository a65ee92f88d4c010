// Package contracts reads OpenGDD contract adoptions (SPEC §10) into a typed
// model that remembers where every name and value stands in the file, and
// checks them: the envelope (§10.2), questions and answers (§10.3), values
// (§10.4), row sets and rows (§10.5), rules (§10.6), citations (§10.10) and
// definition identity (§10.11).
//
// The package is pure: it reads no files. What lies outside one adoption
// (tuning.json, chapter headings, other adoptions) comes through a Resolver
// that the analysis layer implements over the whole package.
package contracts

import (
	"sync"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// Name is a name as written in the file: a member key (Span covers the key
// with its quotes) or a string value (Span covers the string with its
// quotes).
type Name struct {
	Text string
	Span source.Span
}

// Adoption is one adoption file, parsed. Every part that could be read is
// kept, even when other parts are malformed; Findings reports what was
// wrong with the shape.
type Adoption struct {
	// File is the path the caller gave; findings carry it.
	File string
	// ID is the adoption id: the base name of File without ".json".
	ID string
	// Data is the file content the adoption was parsed from.
	Data []byte
	// Root is the parsed JSON, nil when the file holds no value at all.
	Root *jsonsrc.Value
	// ParseError is the JSON syntax error, if any.
	ParseError *jsonsrc.Error

	// Contract is the definition id; Contract.Span is the string value.
	// ContractKey is the span of the "contract" key.
	Contract    *Name
	ContractKey source.Span
	// Version is the definition version as written (its raw number text)
	// and its numeric value.
	Version     *jsonsrc.Value
	Origin      *jsonsrc.Value
	Summary     *jsonsrc.Value
	Mechanism   *jsonsrc.Value
	Questions   []*Question
	Values      []*Declaration
	RowSets     []*RowSet
	Rules       []*Rule
	Pack        *jsonsrc.Value
	Answers     []*Answer
	Supplied    []*Supplied
	Rows        []*RowArray
	Verify      []*Verification
	AnswersKey  *jsonsrc.Member // the "answers" member, nil when absent
	ValuesKey   *jsonsrc.Member // the "values" member, nil when absent
	RowsKey     *jsonsrc.Member // the "rows" member, nil when absent
	DeclaresKey *jsonsrc.Member

	findings []source.Finding

	// definitionOnce and definitionDigest memoize definitionDigest; an
	// Adoption never changes after parsing.
	definitionOnce   sync.Once
	definitionDigest [32]byte
	// identityOnce and identity memoize Identity, which every build asks
	// of every adoption several times.
	identityOnce sync.Once
	identity     string
}

// Question is one entry of `questions`.
type Question struct {
	Name  Name
	Value *jsonsrc.Value
	// Asks is the question text, nil when absent.
	Asks    *jsonsrc.Value
	Options []*Option
	// When is the question's condition, nil when the question has none.
	When *Condition
	// Otherwise is the `otherwise` value, nil when absent.
	Otherwise *jsonsrc.Value
}

// Option is one option of a question.
type Option struct {
	Name  Name
	Value *jsonsrc.Value
	// Meaning is the `meaning` value, nil when absent.
	Meaning *jsonsrc.Value
}

// Declaration is one value declaration of `declares.values`.
type Declaration struct {
	Name        Name
	Value       *jsonsrc.Value
	Description *jsonsrc.Value
	// Range is the `range` value as written; HasRange reports whether it
	// is a valid pair, then Min and Max hold it.
	Range    *jsonsrc.Value
	HasRange bool
	Min, Max float64
	// Forms is the `forms` value as written, nil when absent. AcceptsNumber
	// and AcceptsCitation give the accepted forms (number only without a
	// valid `forms`).
	Forms           *jsonsrc.Value
	AcceptsNumber   bool
	AcceptsCitation bool
	// When is the declaration's condition, nil when it has none.
	When *Condition
}

// Conditional reports whether the declaration carries `when`.
func (d *Declaration) Conditional() bool { return d.When != nil }

// RowSet is one row-set declaration of `declares.rows`.
type RowSet struct {
	Name        Name
	Value       *jsonsrc.Value
	Description *jsonsrc.Value
	// Record is the `record` value as written.
	Record *jsonsrc.Value
	Fields []*Field
	// WhenEmpty is the `when-empty` value, nil when absent.
	WhenEmpty *jsonsrc.Value
}

// Broken reports whether the declaration of the set is not an object or
// has no record object, which CONTRACT_ENVELOPE_TYPE or
// CONTRACT_ENVELOPE_REQUIRED reports: its fields are then unknown, and the
// rows of the set are not judged against them.
func (s *RowSet) Broken() bool {
	return s.Value == nil || s.Value.Kind() != jsonsrc.Object || s.Record == nil || s.Record.Kind() != jsonsrc.Object
}

// RowSetsUnknown reports whether the row sets the definition declares are
// unknown because "declares", or its "rows" map, is missing or not an
// object (reported as CONTRACT_ENVELOPE_REQUIRED or CONTRACT_ENVELOPE_TYPE).
// No row array is then judged undeclared.
func (a *Adoption) RowSetsUnknown() bool {
	if a.DeclaresKey == nil || a.DeclaresKey.Value == nil || a.DeclaresKey.Value.Kind() != jsonsrc.Object {
		return true
	}
	r := a.DeclaresKey.Value.Get("rows")
	return r != nil && r.Kind() != jsonsrc.Object
}

// Field returns the declared field named name, or nil.
func (s *RowSet) Field(name string) *Field {
	if s == nil {
		return nil
	}
	for _, f := range s.Fields {
		if f.Name.Text == name {
			return f
		}
	}
	return nil
}

// Field types of the contract form (SPEC §12.1).
const (
	TypeNumber   = "number"
	TypeInteger  = "integer"
	TypeString   = "string"
	TypeCitation = "citation"
)

// Field is one record field of a row set.
type Field struct {
	Name  Name
	Value *jsonsrc.Value
	// Type is the declared type when it is a string ("" otherwise);
	// TypeValue is the value as written.
	Type      string
	TypeValue *jsonsrc.Value
	// Required is true when `required` is the boolean true.
	Required      bool
	RequiredValue *jsonsrc.Value
	// When is the field's condition, nil when it has none.
	When *Condition
	// Options holds the string entries of `options`; OptionsValue is the
	// value as written.
	Options      []Name
	OptionsValue *jsonsrc.Value
	Pattern      *jsonsrc.Value
	Unique       bool
	UniqueValue  *jsonsrc.Value
	Description  *jsonsrc.Value
	// Within is the `within` pair, nil when absent.
	Within *Within
}

// Unconditional reports whether the field is required and carries no
// `when` (SPEC §12.3 rule 4).
func (f *Field) Unconditional() bool { return f.Required && f.When == nil }

// Within is a field's `within` pair.
type Within struct {
	Value *jsonsrc.Value
	// Valid reports whether the pair has the right shape.
	Valid  bool
	Bounds [2]Bound
}

// Bound is one bound of a `within` pair: a value name or a number.
type Bound struct {
	// Name is set for a named bound.
	Name  string
	IsNum bool
	Num   float64
	Span  source.Span
}

// RuleKind tells a comparison from an answer-aware rule.
type RuleKind int

// The kinds of rules.
const (
	RuleMalformed RuleKind = iota
	RuleComparison
	RuleAnswerAware
)

// Rule is one entry of `rules`.
type Rule struct {
	Name  Name
	Value *jsonsrc.Value
	Kind  RuleKind
	// Line is the comparison text of a comparison rule.
	Line string
	// Forbid, Message and Severity belong to an answer-aware rule.
	Forbid   *Condition
	Message  *jsonsrc.Value
	Severity source.Severity
}

// Answer is one entry of `answers`.
type Answer struct {
	// Question is the answered question id (the key).
	Question Name
	Value    *jsonsrc.Value
	// Option is the answer text when the value is a string.
	Option string
	// IsString reports whether the value is a string.
	IsString bool
}

// Supplied is one entry of the designer's `values`.
type Supplied struct {
	Name  Name
	Value *jsonsrc.Value
}

// Form reports the supplied value's form: "number" for a finite number,
// "citation" for a string that has the shape of a citation, "" otherwise.
func (s *Supplied) Form() string {
	if s == nil {
		return ""
	}
	return valueForm(s.Value)
}

// RowArray is the designer's array of rows for one row set.
type RowArray struct {
	Name  Name
	Value *jsonsrc.Value
	// Rows are the array's elements that are objects; other elements are
	// reported and skipped.
	Rows []*Row
}

// Row is one row of a row set.
type Row struct {
	Set   string
	Index int
	Value *jsonsrc.Value
	// Fields are the row's members other than annotations, in source
	// order.
	Fields []RowField
}

// Get returns the row's field named name, or nil.
func (r *Row) Get(name string) *RowField {
	if r == nil {
		return nil
	}
	for i := len(r.Fields) - 1; i >= 0; i-- {
		if r.Fields[i].Name.Text == name {
			return &r.Fields[i]
		}
	}
	return nil
}

// RowField is one field of a row.
type RowField struct {
	Name  Name
	Value *jsonsrc.Value
}

// Verification is one entry of the designer's `verification`.
type Verification struct {
	Template Name
	Value    *jsonsrc.Value
}

// Identity returns the definition identity "<contract>-<version>", or ""
// when the contract or version is missing or malformed.
func (a *Adoption) Identity() string {
	if a == nil {
		return ""
	}
	a.identityOnce.Do(func() {
		if a.Contract == nil || a.Version == nil || a.Version.Kind() != jsonsrc.Number {
			return
		}
		a.identity = a.Contract.Text + "-" + jsonsrc.FormatNumber(a.Version.Num())
	})
	return a.identity
}

// Findings returns the shape findings found while parsing. Check returns
// them too, followed by the findings of the checks.
func (a *Adoption) Findings() []source.Finding { return a.findings }

// Question returns the question named id, or nil.
func (a *Adoption) Question(id string) *Question {
	for _, q := range a.Questions {
		if q.Name.Text == id {
			return q
		}
	}
	return nil
}

// Declaration returns the value declaration named name, or nil.
func (a *Adoption) Declaration(name string) *Declaration {
	for _, d := range a.Values {
		if d.Name.Text == name {
			return d
		}
	}
	return nil
}

// RowSet returns the row-set declaration named name, or nil.
func (a *Adoption) RowSet(name string) *RowSet {
	for _, s := range a.RowSets {
		if s.Name.Text == name {
			return s
		}
	}
	return nil
}

// Answer returns the answer recorded for question id, or nil.
func (a *Adoption) Answer(id string) *Answer {
	for i := len(a.Answers) - 1; i >= 0; i-- {
		if a.Answers[i].Question.Text == id {
			return a.Answers[i]
		}
	}
	return nil
}

// SuppliedValue returns the designer's value named name, or nil.
func (a *Adoption) SuppliedValue(name string) *Supplied {
	for i := len(a.Supplied) - 1; i >= 0; i-- {
		if a.Supplied[i].Name.Text == name {
			return a.Supplied[i]
		}
	}
	return nil
}

// RowArray returns the designer's rows for the row set named name, or nil.
func (a *Adoption) RowArray(name string) *RowArray {
	for i := len(a.Rows) - 1; i >= 0; i-- {
		if a.Rows[i].Name.Text == name {
			return a.Rows[i]
		}
	}
	return nil
}

// Option returns the option named id, or nil.
func (q *Question) Option(id string) *Option {
	if q == nil {
		return nil
	}
	for _, o := range q.Options {
		if o.Name.Text == id {
			return o
		}
	}
	return nil
}

// IsAdoption reports whether the file counts as an adoption (SPEC §10.1
// rule 8): it parses and holds an object that carries `contract` or
// `format`.
func (a *Adoption) IsAdoption() bool {
	return a != nil && a.ParseError == nil && a.Root != nil && a.Root.Kind() == jsonsrc.Object &&
		(a.Root.Member("contract") != nil || a.Root.Member("format") != nil)
}

// QuestionIDs returns the ids of the declared questions, in file order.
func (a *Adoption) QuestionIDs() []string {
	return names(a.Questions, func(q *Question) Name { return q.Name })
}

// ValueNames returns the names of the value declarations, in file order.
func (a *Adoption) ValueNames() []string {
	return names(a.Values, func(d *Declaration) Name { return d.Name })
}

// RowSetNames returns the names of the row-set declarations, in file order.
func (a *Adoption) RowSetNames() []string {
	return names(a.RowSets, func(s *RowSet) Name { return s.Name })
}

// OptionIDs returns the ids of the question's options, in file order.
func (q *Question) OptionIDs() []string {
	return names(q.Options, func(o *Option) Name { return o.Name })
}

// FieldNames returns the names of the row set's record fields, in file order.
func (s *RowSet) FieldNames() []string { return names(s.Fields, func(f *Field) Name { return f.Name }) }

// OptionTexts returns the field's options (its `options` list), in file
// order.
func (f *Field) OptionTexts() []string { return names(f.Options, func(n Name) Name { return n }) }

// names lists the text of the name of each item.
func names[T any](items []T, name func(T) Name) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, name(it).Text)
	}
	return out
}
