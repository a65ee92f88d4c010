package tuning

import (
	"github.com/gddls/gddls/contracts/ruleline"
	"github.com/gddls/gddls/contracts/source"
)

// The finding codes this package reports.
const (
	CodeJSON               = "TUNING_JSON"
	CodeShape              = "TUNING_SHAPE"
	CodeKey                = "TUNING_KEY"
	CodeKeyReserved        = "TUNING_KEY_RESERVED"
	CodeNumber             = "TUNING_NUMBER"
	CodeOpenOverlap        = "TUNING_OPEN_OVERLAP"
	CodeRange              = "TUNING_RANGE"
	CodeRangeKey           = "TUNING_RANGE_KEY"
	CodeRangeValue         = "TUNING_RANGE_VALUE"
	CodeRuleInvalid        = "TUNING_RULE_INVALID"
	CodeRuleFailed         = "TUNING_RULE_FAILED"
	CodePinConflict        = "TUNING_PIN_CONFLICT"
	CodeRuleGuessFailed    = "TUNING_RULE_GUESS_FAILED"
	CodeRuleGuessUncompute = "TUNING_RULE_GUESS_UNCOMPUTABLE"
)

// File is a parsed tuning.json with its findings.
type File struct {
	// Name is the file name given to Parse, used in findings.
	Name string
	// Findings are every §4 finding about the file by itself, in source
	// order.
	Findings []source.Finding
	// Readable is false when the file did not parse as JSON or its top
	// level is not an object. Prose citations are then not resolved.
	// Entries, ranges and rules are still filled from whatever part of the
	// file could be read, for completion in a half-typed file.
	Readable bool
	// HasValues is true when the top level holds a values object. Without
	// one (TUNING_SHAPE) the decided keys are unknown: see KeysKnown.
	HasValues bool
	// Entries are the keys of values and open, in source order. A key in
	// both tables has two entries.
	Entries []*Entry
	// Ranges maps each key of ranges to its entry.
	Ranges map[string]*RangeEntry
	// Rules are the members of rules, in source order.
	Rules []*RuleEntry

	values map[string]*Entry
	open   map[string]*Entry
}

// KeysKnown reports whether the keys of the file are known, so that a
// citation naming no key of it dangles: the file is readable and holds a
// values object. While it lacks one, which TUNING_SHAPE reports, a citation
// may name a key the designer has yet to put back, and is not judged.
func (f *File) KeysKnown() bool {
	return f != nil && f.Readable && f.HasValues
}

// Kind is the number kind of an entry (SPEC §4, "Number kinds").
type Kind uint8

// The three number kinds.
const (
	Decided Kind = iota + 1 // a values key without a range
	Ranged                  // a values key with a range
	Open                    // an open key
)

// String returns "decided", "ranged" or "open".
func (k Kind) String() string {
	switch k {
	case Decided:
		return "decided"
	case Ranged:
		return "ranged"
	case Open:
		return "open"
	}
	return "unknown"
}

// Entry is one key of values or open.
type Entry struct {
	Key       string
	KeySpan   source.Span
	ValueSpan source.Span
	// Open is true for a key of open.
	Open bool
	// HasNumber is true when the entry holds a finite number: the value of
	// a values key, or the guess of an open key. It is false for an open
	// key without a guess (null) and for an entry of the wrong type.
	HasNumber bool
	Number    float64
	// Range is the key's range when ranges holds a well-formed pair for it.
	Range *[2]float64

	bad bool // the entry has the wrong type (a TUNING_NUMBER finding)
}

// Kind returns the number kind of the entry.
func (e *Entry) Kind() Kind {
	switch {
	case e.Open:
		return Open
	case e.Range != nil:
		return Ranged
	}
	return Decided
}

// RangeEntry is one key of ranges.
type RangeEntry struct {
	Key       string
	KeySpan   source.Span
	ValueSpan source.Span
	// Valid is true when the entry is a pair of finite numbers with
	// Min <= Max.
	Valid    bool
	Min, Max float64
}

// RuleEntry is one member of rules.
type RuleEntry struct {
	Name     string
	NameSpan source.Span
	// Line is the rule line; it is empty when the entry is not a string.
	Line     string
	LineSpan source.Span // the whole JSON value
	IsString bool
	// Parsed is the rule, nil when the entry is not a string or the line
	// cannot be read.
	Parsed *ruleline.Rule
	// Err is the syntax error of an unreadable line.
	Err *ruleline.SyntaxError
	// RecordFields is true when the rule names a record field
	// (collections.<collection>.<record>.<field>). Parse does not evaluate
	// such a rule; CheckEnvironments does, with the package's collections.
	RecordFields bool

	exact bool // the raw JSON text of the string equals Line
}

// SpanOf converts byte offsets in Line to a span in the file. When the JSON
// string holds escapes the offsets cannot be mapped exactly, and the span of
// the whole string is returned; so it is for an empty range.
func (r *RuleEntry) SpanOf(start, end int) source.Span {
	if !r.exact || start >= end || start < 0 || end > len(r.Line) {
		return r.LineSpan
	}
	base := r.LineSpan.Start + 1
	return source.Span{Start: base + start, End: base + end}
}

// Lookup returns the entry of key in values or, when values has none, in
// open.
func (f *File) Lookup(key string) (*Entry, bool) {
	if e, ok := f.values[key]; ok {
		return e, true
	}
	e, ok := f.open[key]
	return e, ok
}

// Rule returns the rule named name.
func (f *File) Rule(name string) (*RuleEntry, bool) {
	for i := len(f.Rules) - 1; i >= 0; i-- {
		if f.Rules[i].Name == name {
			return f.Rules[i], true
		}
	}
	return nil, false
}

// Range returns the entry of key in ranges.
func (f *File) Range(key string) (*RangeEntry, bool) {
	r, ok := f.Ranges[key]
	return r, ok
}

// Decided reports the number of key when the package decides it: a values
// key holding a finite number.
func (f *File) Decided(key string) (float64, bool) {
	if e, ok := f.values[key]; ok && e.HasNumber {
		return e.Number, true
	}
	return 0, false
}
