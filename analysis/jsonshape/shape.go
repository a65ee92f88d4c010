// Package jsonshape checks a parsed JSON value against a shape written in
// Go: closed objects with known, required and typed members, maps with a
// key grammar, arrays, strings with patterns and value sets, numbers with
// bounds, and alternatives. Every file format of a package (the manifest,
// clocks.json, personalization.json, the test blocks of the build plan, …)
// describes its shape once with these constructors and gets the same
// checks, the same messages and the same editor help (the members an
// object may still take, the values a field allows) instead of a copy per
// format.
//
// A shape reports problems; it does not know finding codes. The caller
// turns each Problem into a finding of its format's *_SCHEMA (or shape)
// code. Pure: no file system, no globals.
package jsonshape

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// Problem is one way a value breaks its shape: the span of the token at
// fault (a member's key, a value, or an object's opening brace for a
// missing member) and a message that says what is wrong and what would fix
// it.
type Problem struct {
	Span source.Span
	// Path is the JSON path of the value at fault, members joined by dots
	// and array indices in brackets, such as target.platform or
	// questions[2].id; "" for the document itself.
	Path string
	Msg  string
	// Kind says what kind of problem it is; Member names the member an
	// IsMissing, IsUnknown, IsRepeated or IsBadKey problem is about (for
	// IsMissing, Path is the object's path; for the others, the
	// member's). A format that files a code per member (the test blocks
	// of the build plan) reads these instead of the message.
	Kind   ProblemKind
	Member string
	// Tag is the tag of the innermost Tagged shape the problem arose in
	// (or whose member is missing), or "". Both is that shape's Both.
	Tag  string
	Both bool
}

// ProblemKind classifies a Problem.
type ProblemKind uint8

// The kinds of problem.
const (
	// IsInvalid is a value of the wrong type or outside its constraints.
	IsInvalid ProblemKind = iota
	// IsMissing is a required member that is absent.
	IsMissing
	// IsUnknown is a member a closed object does not take.
	IsUnknown
	// IsRepeated is a member written twice.
	IsRepeated
	// IsBadKey is a map key that breaks the key grammar.
	IsBadKey
)

// Shape is what a JSON value must be.
type Shape interface {
	// Describe says what the value must be, as a noun phrase for messages
	// and hovers: "a non-empty string", "an integer from 1 to 50".
	Describe() string
	check(c *checker, v *jsonsrc.Value, at place)
}

// place is where a value stands: its path and how messages name it.
type place struct {
	path string
	name string
}

func (p place) member(key string) place {
	path := key
	if p.path != "" {
		path = p.path + "." + key
	}
	return place{path: path, name: strconv.Quote(path)}
}

func (p place) index(i int) place {
	path := p.path + "[" + strconv.Itoa(i) + "]"
	return place{path: path, name: strconv.Quote(path)}
}

type checker struct {
	out []Problem
}

func (c *checker) add(span source.Span, at place, format string, args ...any) {
	c.out = append(c.out, Problem{Span: span, Path: at.path, Msg: fmt.Sprintf(format, args...)})
}

// addAbout adds a problem of a kind other than IsInvalid about member key.
func (c *checker) addAbout(kind ProblemKind, key string, span source.Span, at place, format string, args ...any) {
	c.out = append(c.out, Problem{Span: span, Path: at.path, Msg: fmt.Sprintf(format, args...), Kind: kind, Member: key})
}

// Check returns every problem of v against s, in document order. what names
// the document in messages, such as "the manifest". A nil v (an absent
// file) has no problem.
func Check(s Shape, v *jsonsrc.Value, what string) []Problem {
	if v == nil || s == nil {
		return nil
	}
	c := &checker{}
	s.check(c, v, place{name: what})
	sort.SliceStable(c.out, func(i, j int) bool { return c.out[i].Span.Start < c.out[j].Span.Start })
	return c.out
}

// wrongType reports v as not of the kind s wants.
func (c *checker) wrongType(s Shape, v *jsonsrc.Value, at place) {
	c.add(v.Span(), at, "%s must be %s, not %s", at.name, s.Describe(), v.Describe())
}

// Any accepts every value.
type Any struct{}

// Describe implements Shape.
func (Any) Describe() string { return "any JSON value" }

func (Any) check(*checker, *jsonsrc.Value, place) {}

// Null is the JSON null.
type Null struct{}

// Describe implements Shape.
func (Null) Describe() string { return "null" }

func (n Null) check(c *checker, v *jsonsrc.Value, at place) {
	if v.Kind() != jsonsrc.Null {
		c.wrongType(n, v, at)
	}
}

// Bool is true or false.
type Bool struct{}

// Describe implements Shape.
func (Bool) Describe() string { return "true or false" }

func (b Bool) check(c *checker, v *jsonsrc.Value, at place) {
	if v.Kind() != jsonsrc.Bool {
		c.wrongType(b, v, at)
	}
}

// String is a JSON string with optional constraints.
type String struct {
	// NonEmpty requires at least one character.
	NonEmpty bool
	// MinLen and MaxLen bound the length in Unicode scalar values (0: no
	// bound), as JSON Schema counts.
	MinLen, MaxLen int
	// Enum, when set, is the closed set of allowed values.
	Enum []string
	// Pattern, when set, must match the whole string; PatternDoc names the
	// grammar in messages ("kebab-case", "a semantic version").
	Pattern    *regexp.Regexp
	PatternDoc string
	// Valid, when set, is a further check; it returns what is wrong, or "".
	Valid func(s string) string
}

// Describe implements Shape.
func (s String) Describe() string {
	switch {
	case len(s.Enum) == 1:
		return strconv.Quote(s.Enum[0])
	case len(s.Enum) > 0:
		return "one of " + quoteList(s.Enum)
	case s.PatternDoc != "":
		return "a string in " + s.PatternDoc
	case s.NonEmpty || s.MinLen > 0:
		return "a non-empty string"
	}
	return "a string"
}

func (s String) check(c *checker, v *jsonsrc.Value, at place) {
	if v.Kind() != jsonsrc.String {
		c.wrongType(s, v, at)
		return
	}
	n := utf8.RuneCountInString(v.Str())
	switch {
	case len(s.Enum) > 0:
		for _, e := range s.Enum {
			if v.Str() == e {
				return
			}
		}
		hint := ""
		if len(s.Enum) > 1 {
			hint = didYouMean(v.Str(), s.Enum)
		}
		c.add(v.Span(), at, "%s is %q; it must be %s%s", at.name, v.Str(), s.Describe(), hint)
	case (s.NonEmpty || s.MinLen > 0) && n == 0:
		c.add(v.Span(), at, "%s is empty; write %s", at.name, s.Describe())
	case s.MinLen > 0 && n < s.MinLen:
		c.add(v.Span(), at, "%s has %d characters; it needs at least %d", at.name, n, s.MinLen)
	case s.MaxLen > 0 && n > s.MaxLen:
		c.add(v.Span(), at, "%s has %d characters; it may have at most %d", at.name, n, s.MaxLen)
	case s.Pattern != nil && !s.Pattern.MatchString(v.Str()):
		doc := s.PatternDoc
		if doc == "" {
			doc = "the form " + s.Pattern.String()
		}
		c.add(v.Span(), at, "%s is %q, which is not in %s", at.name, v.Str(), doc)
	case s.Valid != nil:
		if msg := s.Valid(v.Str()); msg != "" {
			c.add(v.Span(), at, "%s %s", at.name, msg)
		}
	}
}

// Number is a JSON number with optional bounds. A number too large to be
// finite is never valid.
type Number struct {
	// Integer requires a whole number.
	Integer bool
	// Min and Max are inclusive bounds when HasMin / HasMax are set;
	// ExclusiveMin makes Min exclusive.
	Min, Max       float64
	HasMin, HasMax bool
	ExclusiveMin   bool
}

// Describe implements Shape.
func (n Number) Describe() string {
	kind := "a number"
	if n.Integer {
		kind = "an integer"
	}
	switch {
	case n.HasMin && n.HasMax:
		return fmt.Sprintf("%s from %s to %s", kind, num(n.Min), num(n.Max))
	case n.HasMin && n.ExclusiveMin:
		return fmt.Sprintf("%s greater than %s", kind, num(n.Min))
	case n.HasMin:
		return fmt.Sprintf("%s of at least %s", kind, num(n.Min))
	case n.HasMax:
		return fmt.Sprintf("%s of at most %s", kind, num(n.Max))
	}
	return kind
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func (n Number) check(c *checker, v *jsonsrc.Value, at place) {
	if v.Kind() != jsonsrc.Number || !v.Finite() {
		c.wrongType(n, v, at)
		return
	}
	x := v.Num()
	switch {
	case n.Integer && x != math.Trunc(x):
		c.add(v.Span(), at, "%s is %s; it must be a whole number", at.name, v.Raw())
	case n.HasMin && (x < n.Min || n.ExclusiveMin && x == n.Min), n.HasMax && x > n.Max:
		c.add(v.Span(), at, "%s is %s; it must be %s", at.name, v.Raw(), n.Describe())
	}
}

// Array is a JSON array whose elements have one shape.
type Array struct {
	Elem               Shape
	MinItems, MaxItems int
	// Unique forbids two equal elements (compared as canonical JSON).
	Unique bool
}

// Describe implements Shape.
func (a Array) Describe() string {
	what := "an array"
	if a.MinItems > 0 {
		what = "a non-empty array"
	}
	if a.Elem != nil {
		if _, any := a.Elem.(Any); !any {
			what += " of " + plural(a.Elem.Describe())
		}
	}
	return what
}

func (a Array) check(c *checker, v *jsonsrc.Value, at place) {
	if v.Kind() != jsonsrc.Array {
		c.wrongType(a, v, at)
		return
	}
	switch n := len(v.Elems()); {
	case a.MinItems > 0 && n < a.MinItems:
		if n == 0 {
			c.add(v.Span(), at, "%s is empty; it needs at least %d %s", at.name, a.MinItems, itemWord(a.MinItems))
		} else {
			c.add(v.Span(), at, "%s has %d %s; it needs at least %d", at.name, n, itemWord(n), a.MinItems)
		}
	case a.MaxItems > 0 && n > a.MaxItems:
		c.add(v.Span(), at, "%s has %d items; it may have at most %d", at.name, n, a.MaxItems)
	}
	seen := map[string]int{}
	for i, e := range v.Elems() {
		if e == nil {
			continue // the partial tree of a syntax error
		}
		if a.Elem != nil {
			a.Elem.check(c, e, at.index(i))
		}
		if a.Unique {
			key := canonical(e)
			if j, dup := seen[key]; dup {
				c.add(e.Span(), at.index(i), "%s repeats %s; the items of %s must differ", at.index(i).name, at.index(j).name, at.name)
				continue
			}
			seen[key] = i
		}
	}
}

// Field is one named member of an Object.
type Field struct {
	Name     string
	Shape    Shape
	Required bool
	// Doc says what the member holds, for hovers and completion.
	Doc string
	// Example, when set, is the JSON text of a valid value that a quick fix
	// writes for a missing member; see Placeholder.
	Example string
}

// Object is a JSON object. Named members are described by Fields; other
// members are allowed only when Rest is set (a map, or an object open to
// more members), and then their keys must satisfy Key when it is set.
type Object struct {
	Fields []Field
	// Rest, when set, is the shape of every member not named in Fields.
	Rest Shape
	// Key, when set, checks the key of every member not named in Fields;
	// it returns what is wrong with the key, or "".
	Key func(key string) string
	// KeyDoc names what the keys are, for messages ("clock names").
	KeyDoc string
	// Annotations allows members whose key starts with "_".
	Annotations bool
	// MinMembers is the least number of members (for "a non-empty map").
	MinMembers int
	// What names the object in messages when the caller's name is generic,
	// such as "a clock"; it is optional.
	What string
	// LastWins reads a member written twice as JSON readers do: the last
	// one counts and the earlier ones are neither checked nor reported.
	// Without it, a repeated member is a problem at its second key.
	LastWins bool
	// Valid, when set, is a further check of the whole object run after the
	// members; it reports through the Report it is given.
	Valid func(v *jsonsrc.Value, report func(span source.Span, msg string))
	// Tag names the member whose string value picks one of Variants (a
	// discriminator, such as a question's "type"); an object whose Tag
	// member is absent, not a string, or names no variant is checked
	// against Fields alone.
	Tag      string
	Variants []Variant

	// forbid and tagValue are set on the refinement For returns.
	forbid   []string
	tagValue string
}

// Variant refines an Object for one value of its Tag member, as a JSON
// Schema if/then/else on a constant does.
type Variant struct {
	// Value is the Tag member's value that selects the variant.
	Value string
	// Fields replace the object's fields of the same name (their shape,
	// whether they are required, their doc) or add new ones.
	Fields []Field
	// Forbid names members the variant does not allow.
	Forbid []string
}

// For returns the object shape that applies to v: o refined by the
// variant v's Tag member selects, or o itself. Completion and quick fixes
// use it to offer the members of the object's variant.
func (o Object) For(v *jsonsrc.Value) Object {
	if o.Tag == "" || len(o.Variants) == 0 {
		return o
	}
	tag := v.Get(o.Tag)
	if tag == nil || tag.Kind() != jsonsrc.String {
		return o
	}
	for _, vr := range o.Variants {
		if vr.Value != tag.Str() {
			continue
		}
		r := o
		r.Variants = nil
		r.Fields = append([]Field(nil), o.Fields...)
		for _, f := range vr.Fields {
			if i := r.fieldIndex(f.Name); i >= 0 {
				r.Fields[i] = f
			} else {
				r.Fields = append(r.Fields, f)
			}
		}
		for _, name := range vr.Forbid {
			if i := r.fieldIndex(name); i >= 0 {
				r.Fields = append(r.Fields[:i:i], r.Fields[i+1:]...)
			}
		}
		r.forbid = vr.Forbid
		r.tagValue = vr.Value
		return r
	}
	return o
}

func (o Object) fieldIndex(name string) int {
	for i := range o.Fields {
		if o.Fields[i].Name == name {
			return i
		}
	}
	return -1
}

func (o Object) forbids(name string) bool {
	for _, f := range o.forbid {
		if f == name {
			return true
		}
	}
	return false
}

// Describe implements Shape.
func (o Object) Describe() string {
	switch {
	case o.What != "":
		return o.What
	case len(o.Fields) == 0 && o.Rest != nil && o.MinMembers > 0:
		return "a non-empty map"
	case len(o.Fields) == 0 && o.Rest != nil:
		return "a map"
	}
	return "an object"
}

// Field returns the named field, or nil.
func (o Object) Field(name string) *Field {
	if i := o.fieldIndex(name); i >= 0 {
		return &o.Fields[i]
	}
	return nil
}

// FieldNames lists the named fields, in declaration order.
func (o Object) FieldNames() []string {
	out := make([]string, len(o.Fields))
	for i, f := range o.Fields {
		out[i] = f.Name
	}
	return out
}

func (o Object) check(c *checker, v *jsonsrc.Value, at place) {
	if v.Kind() != jsonsrc.Object {
		c.wrongType(o, v, at)
		return
	}
	o = o.For(v)
	seen := map[string]bool{}
	members := v.Members()
	if o.LastWins {
		members = v.LastMembers() // a later member of the same name counts
	}
	others := 0
	for _, m := range members {
		if o.Annotations && strings.HasPrefix(m.Key, "_") {
			continue
		}
		if seen[m.Key] {
			c.addAbout(IsRepeated, m.Key, m.KeySpan(), at.member(m.Key), "%s is written twice in %s; keep one", strconv.Quote(m.Key), at.name)
			continue
		}
		seen[m.Key] = true
		if m.Value == nil {
			continue // the end of a partial tree
		}
		if o.forbids(m.Key) {
			c.add(m.KeySpan(), at.member(m.Key), "%s is not allowed in %s whose %q is %q; remove it", strconv.Quote(m.Key), at.name, o.Tag, o.tagValue)
			continue
		}
		if f := o.Field(m.Key); f != nil {
			if f.Shape != nil {
				f.Shape.check(c, m.Value, at.member(m.Key))
			}
			continue
		}
		if o.Rest == nil {
			c.addAbout(IsUnknown, m.Key, m.KeySpan(), at.member(m.Key), "%s is not a field of %s%s", strconv.Quote(m.Key), at.name, fieldHint(m.Key, o.FieldNames(), o.Annotations))
			continue
		}
		others++
		if o.Key != nil {
			if msg := o.Key(m.Key); msg != "" {
				c.addAbout(IsBadKey, m.Key, m.KeySpan(), at.member(m.Key), "%s in %s %s", strconv.Quote(m.Key), at.name, msg)
				continue
			}
		}
		o.Rest.check(c, m.Value, at.member(m.Key))
	}
	for _, f := range o.Fields {
		if f.Required && !seen[f.Name] {
			c.addAbout(IsMissing, f.Name, v.Opening(), at, "%s lacks the required field %q (%s)", at.name, f.Name, f.Shape.Describe())
			if t, ok := f.Shape.(Tagged); ok {
				c.out[len(c.out)-1].Tag, c.out[len(c.out)-1].Both = t.Tag, t.Both
			}
		}
	}
	if o.MinMembers > 0 && len(seen) < o.MinMembers {
		c.add(v.Opening(), at, "%s is empty; it needs at least %d %s", at.name, o.MinMembers, entryWord(o.MinMembers, o.KeyDoc))
	}
	if o.Valid != nil {
		o.Valid(v, func(span source.Span, msg string) { c.add(span, at, "%s", msg) })
	}
}

// OneOf is a value that must have one of several shapes. The alternative
// whose JSON kind matches the value decides the problems; a value of a
// kind no alternative takes is reported once.
type OneOf struct {
	Shapes []Shape
	// Doc, when set, describes the alternatives as a whole.
	Doc string
}

// Describe implements Shape.
func (o OneOf) Describe() string {
	if o.Doc != "" {
		return o.Doc
	}
	parts := make([]string, len(o.Shapes))
	for i, s := range o.Shapes {
		parts[i] = s.Describe()
	}
	return strings.Join(parts, " or ")
}

func (o OneOf) check(c *checker, v *jsonsrc.Value, at place) {
	var first []Problem
	matched := false
	for _, s := range o.Shapes {
		if !kindFits(s, v) {
			continue
		}
		sub := &checker{}
		s.check(sub, v, at)
		if len(sub.out) == 0 {
			return
		}
		if !matched {
			first, matched = sub.out, true
		}
	}
	if !matched {
		c.wrongType(o, v, at)
		return
	}
	c.out = append(c.out, first...)
}

// Tagged is a shape whose problems carry a tag: a format whose
// specification gives one part of a file a code of its own (a clock's unit,
// the words of a map) tags that part with the code, and Findings reports
// its problems under it. A missing required member whose shape is Tagged
// carries the tag too. Problems of an inner Tagged keep the inner tag.
//
// Both is set when the tagged part is also part of the file's published
// schema, so that a fault there meets two rows of the format's table (a
// palette entry of direction.json is PALETTE_ENTRY_FORM and
// DIRECTION_SCHEMA): Findings then reports the problem under the tag and
// under the file's code.
type Tagged struct {
	Shape Shape
	Tag   string
	Both  bool
}

// Describe implements Shape.
func (t Tagged) Describe() string { return t.Shape.Describe() }

func (t Tagged) check(c *checker, v *jsonsrc.Value, at place) {
	n := len(c.out)
	t.Shape.check(c, v, at)
	for i := n; i < len(c.out); i++ {
		if c.out[i].Tag == "" {
			c.out[i].Tag, c.out[i].Both = t.Tag, t.Both
		}
	}
}

// untag returns the shape inside any Tagged wrappers.
func untag(s Shape) Shape {
	for {
		t, ok := s.(Tagged)
		if !ok {
			return s
		}
		s = t.Shape
	}
}

// kindFits reports whether v has the JSON kind shape s takes.
func kindFits(s Shape, v *jsonsrc.Value) bool {
	switch s := untag(s).(type) {
	case String:
		return v.Kind() == jsonsrc.String
	case Number:
		return v.Kind() == jsonsrc.Number
	case Bool:
		return v.Kind() == jsonsrc.Bool
	case Null:
		return v.Kind() == jsonsrc.Null
	case Array:
		return v.Kind() == jsonsrc.Array
	case Object:
		return v.Kind() == jsonsrc.Object
	case OneOf:
		for _, x := range s.Shapes {
			if kindFits(x, v) {
				return true
			}
		}
		return false
	}
	return true
}

// At returns the shape of the value at path inside a value of shape s:
// member names for objects, any segment (an index) for arrays. It returns
// nil when the path leaves the shape. Completion and hover use it to find
// what a member may hold.
func At(s Shape, path []string) Shape {
	for _, seg := range path {
		switch x := untag(s).(type) {
		case Object:
			if f := x.Field(seg); f != nil {
				s = f.Shape
			} else if x.Rest != nil {
				s = x.Rest
			} else {
				return nil
			}
		case Array:
			s = x.Elem
		case OneOf:
			var next Shape
			for _, alt := range x.Shapes {
				if n := At(alt, []string{seg}); n != nil {
					next = n
					break
				}
			}
			s = next
		default:
			return nil
		}
		if s == nil {
			return nil
		}
	}
	return s
}

// Values lists the closed set of string values a shape allows (an Enum,
// or the enums of its alternatives), for completion; nil when it is open.
func Values(s Shape) []string {
	switch x := untag(s).(type) {
	case String:
		return x.Enum
	case OneOf:
		var out []string
		for _, alt := range x.Shapes {
			out = append(out, Values(alt)...)
		}
		return out
	}
	return nil
}

// Missing lists the named fields of an object shape that v does not hold
// yet, required ones first, for completion and for the quick fix that adds
// required members.
func Missing(s Shape, v *jsonsrc.Value) []Field {
	o, ok := untag(s).(Object)
	if !ok {
		return nil
	}
	o = o.For(v)
	var req, opt []Field
	for _, f := range o.Fields {
		if v != nil && v.Member(f.Name) != nil {
			continue
		}
		if f.Required {
			req = append(req, f)
		} else {
			opt = append(opt, f)
		}
	}
	return append(req, opt...)
}

// Placeholder returns the JSON text of a value for a member that a quick
// fix adds: the field's Example when it has one, else a value built from
// its shape that the shape accepts where it can (the first allowed string,
// the lowest allowed number, an object of its required members), else
// an empty value of the right type.
func Placeholder(f Field) string {
	if f.Example != "" {
		return f.Example
	}
	return placeholder(f.Shape)
}

func placeholder(s Shape) string {
	switch x := s.(type) {
	case String:
		if len(x.Enum) > 0 {
			return strconv.Quote(x.Enum[0])
		}
		return `""`
	case Number:
		switch {
		case x.HasMin && !x.ExclusiveMin:
			return num(x.Min)
		case x.HasMin:
			return num(math.Floor(x.Min) + 1)
		case x.HasMax && x.Max < 0:
			return num(math.Floor(x.Max))
		}
		return "0"
	case Bool:
		return "false"
	case Array:
		if x.MinItems > 0 && x.Elem != nil {
			return "[" + placeholder(x.Elem) + "]" // a non-empty array needs an element
		}
		return "[]"
	case Object:
		var parts []string
		for _, f := range x.Fields {
			if f.Required {
				parts = append(parts, strconv.Quote(f.Name)+": "+Placeholder(f))
			}
		}
		if len(parts) == 0 {
			return "{}"
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	case OneOf:
		if len(x.Shapes) > 0 {
			return placeholder(x.Shapes[0])
		}
	}
	return "null"
}

// canonical writes v as compact JSON with members in source order, so that
// equal values compare equal.
func canonical(v *jsonsrc.Value) string {
	var b strings.Builder
	jsonsrc.Write(&b, v, jsonsrc.WriteOptions{})
	return b.String()
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	if len(q) <= 2 {
		return strings.Join(q, " or ")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// Closest returns the candidate one or two edits away from s, or "": the
// suggestion of a "did you mean" in the messages of every format.
func Closest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := source.EditDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// didYouMean suggests the closest candidate, in parentheses.
func didYouMean(s string, candidates []string) string {
	if c := Closest(s, candidates); c != "" {
		return fmt.Sprintf(" (did you mean %q?)", c)
	}
	return ""
}

// fieldHint follows "is not a field of …": the likely field, or the list.
func fieldHint(key string, names []string, annotations bool) string {
	hint := ""
	if c := Closest(key, names); c != "" {
		hint = fmt.Sprintf("; did you mean %q?", c)
	} else if len(names) > 0 {
		hint = "; its fields are " + strings.Join(names, ", ")
	}
	if annotations {
		hint += " (a key starting with _ is a free annotation)"
	}
	return hint
}

func plural(noun string) string {
	for _, art := range []string{"a ", "an "} {
		if rest, ok := strings.CutPrefix(noun, art); ok {
			// Adjectives written with a hyphen (non-empty) come before
			// the noun that takes the plural.
			lead := ""
			for {
				word, tail, more := strings.Cut(rest, " ")
				if !more || !strings.Contains(word, "-") {
					break
				}
				lead, rest = lead+word+" ", tail
			}
			word, tail, _ := strings.Cut(rest, " ")
			if strings.HasSuffix(word, "s") {
				return lead + rest
			}
			if tail != "" {
				return lead + word + "s " + tail
			}
			return lead + word + "s"
		}
	}
	return noun
}

func itemWord(n int) string {
	if n == 1 {
		return "item"
	}
	return "items"
}

func entryWord(n int, doc string) string {
	if doc != "" {
		return doc
	}
	if n == 1 {
		return "entry"
	}
	return "entries"
}

// Findings turns problems into findings of one code and severity in file,
// the usual last step of a format's schema check. A problem with a Tag is
// reported under its tag as the code instead, and also under code when
// its Tagged shape has Both.
func Findings(problems []Problem, code string, sev source.Severity, file string) []source.Finding {
	out := make([]source.Finding, 0, len(problems))
	for _, p := range problems {
		c := code
		if p.Tag != "" {
			c = p.Tag
		}
		out = append(out, source.Finding{Code: c, Severity: sev, File: file, Span: p.Span, Message: p.Msg})
		if p.Tag != "" && p.Both && p.Tag != code {
			out = append(out, source.Finding{Code: code, Severity: sev, File: file, Span: p.Span, Message: p.Msg})
		}
	}
	return out
}
