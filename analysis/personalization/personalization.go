// Package personalization reads personalization.json (SPEC §5): the
// questions a builder is asked for each build, their options and defaults,
// and the tuning keys their answers set, each with the span of its token;
// and it checks what the file decides by itself (its schema, unique ids,
// choice defaults, sets only on number questions). Whether a sets target is
// a key that an answer may set needs tuning.json: package analysis checks
// that, through Targets. Pure: no file system, no globals.
package personalization

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The finding codes of SPEC §5. CodeJSON is reported by the reader of the
// file, which hands Parse only a file that parses; the last three need
// tuning.json and are reported by package analysis.
const (
	CodeJSON          = "PERSONALIZATION_JSON"
	CodeSchema        = "PERSONALIZATION_SCHEMA"
	CodeQuestionID    = "PERSONALIZATION_QUESTION_ID"
	CodeOptionID      = "PERSONALIZATION_OPTION_ID"
	CodeDefaultOption = "PERSONALIZATION_DEFAULT_OPTION"
	CodeSetsType      = "PERSONALIZATION_SETS_TYPE"
	CodeSetsTarget    = "PERSONALIZATION_SETS_TARGET"
	CodeSetsUnranged  = "PERSONALIZATION_SETS_UNRANGED"
	CodeSetsRange     = "PERSONALIZATION_SETS_RANGE"
)

// File is a parsed personalization.json with the findings of the file by
// itself.
type File struct {
	// Name is the path given to Parse, used in findings.
	Name string
	// Root is the parsed JSON.
	Root *jsonsrc.Value
	// Questions are the objects of questions, in order. An element that is
	// not an object is not a question.
	Questions []*Question
	// Findings are the file's PERSONALIZATION_SCHEMA, _QUESTION_ID,
	// _OPTION_ID, _DEFAULT_OPTION and _SETS_TYPE findings, in source order.
	Findings []source.Finding
}

// Question is one question object.
type Question struct {
	// ID is the id string ("" when absent or not a string); IDSpan is the
	// span of its JSON string, quotes included.
	ID     string
	IDSpan source.Span
	// Span is the question object.
	Span   source.Span
	Prompt string
	// Type is the type string ("" when absent or not a string).
	Type     string
	TypeSpan source.Span
	// Options are the option objects of options, in order; OptionsKey is
	// the span of the member's key, zero when there is none.
	Options    []*Option
	OptionsKey source.Span
	// Default is the default's value, nil when absent.
	Default *jsonsrc.Value
	// Sets is the sets member of the question, nil when absent. SetsKey is
	// its key when it is a string (the target of a number question).
	Sets    *jsonsrc.Member
	SetsKey string
	Notes   string
}

// Option is one option object of a question.
type Option struct {
	// ID is the id string; IDSpan the span of its JSON string.
	ID     string
	IDSpan source.Span
	Span   source.Span
	Label  string
	Notes  string
	// Sets are the numeric entries of sets, in order; of two entries with
	// one key, the later counts, as JSON readers take it.
	Sets []Assignment
}

// Assignment is a number an answer gives a tuning key.
type Assignment struct {
	Key string
	// KeySpan is the span of the key's token (a sets key, or the string
	// value of a number question's sets).
	KeySpan source.Span
	Value   float64
	// ValueSpan is the number's token; zero when the answer has no number
	// (a number question whose default is not a number).
	ValueSpan source.Span
	// HasValue is false for a target without a number.
	HasValue bool
}

// Target is one sets target of the file with the answer it receives: an
// entry of an option's sets, or the sets key of a number question with its
// default. Option is nil for a number question.
type Target struct {
	Assignment
	Question *Question
	Option   *Option
}

// Parse reads a parsed personalization.json. A nil v (an absent file, or
// one that does not parse) gives a file without questions or findings.
func Parse(name string, v *jsonsrc.Value) *File {
	f := &File{Name: name, Root: v}
	if v == nil {
		return f
	}
	for _, qv := range elems(v.Get("questions")) {
		if qv.Kind() == jsonsrc.Object {
			f.Questions = append(f.Questions, readQuestion(qv))
		}
	}
	f.Findings = jsonshape.Findings(jsonshape.Check(Shape, v, "personalization.json"), CodeSchema, source.Error, name)
	f.check()
	sort.SliceStable(f.Findings, func(i, j int) bool { return f.Findings[i].Span.Start < f.Findings[j].Span.Start })
	return f
}

// str returns v's string and span, or "" and the zero span.
func str(v *jsonsrc.Value) (string, source.Span) {
	if v == nil || v.Kind() != jsonsrc.String {
		return "", source.Span{}
	}
	return v.Str(), v.Span()
}

func readQuestion(qv *jsonsrc.Value) *Question {
	q := &Question{Span: qv.Span(), Default: qv.Get("default")}
	q.ID, q.IDSpan = str(qv.Get("id"))
	q.Prompt, _ = str(qv.Get("prompt"))
	q.Type, q.TypeSpan = str(qv.Get("type"))
	q.Notes, _ = str(qv.Get("notes"))
	if m := qv.Member("options"); m != nil {
		q.OptionsKey = m.KeySpan()
		for _, ov := range elems(m.Value) {
			if ov.Kind() == jsonsrc.Object {
				q.Options = append(q.Options, readOption(ov))
			}
		}
	}
	if m := qv.Member("sets"); m != nil {
		q.Sets = m
		q.SetsKey, _ = str(m.Value)
	}
	return q
}

func readOption(ov *jsonsrc.Value) *Option {
	o := &Option{Span: ov.Span()}
	o.ID, o.IDSpan = str(ov.Get("id"))
	o.Label, _ = str(ov.Get("label"))
	o.Notes, _ = str(ov.Get("notes"))
	sets := ov.Get("sets")
	if sets == nil || sets.Kind() != jsonsrc.Object {
		return o
	}
	for _, m := range sets.LastMembers() {
		if m.Value == nil {
			continue
		}
		a := Assignment{Key: m.Key, KeySpan: m.KeySpan()}
		if m.Value.Finite() {
			a.Value, a.ValueSpan, a.HasValue = m.Value.Num(), m.Value.Span(), true
		}
		o.Sets = append(o.Sets, a)
	}
	return o
}

// Question returns the first question with the id, or nil.
func (f *File) Question(id string) *Question {
	for _, q := range f.Questions {
		if q.ID == id && id != "" {
			return q
		}
	}
	return nil
}

// QuestionIDs lists the question ids in file order, each once; nil for a
// nil file.
func (f *File) QuestionIDs() []string {
	if f == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, q := range f.Questions {
		if q.ID != "" && !seen[q.ID] {
			seen[q.ID] = true
			out = append(out, q.ID)
		}
	}
	return out
}

// IDs returns the set of question ids the file declares.
func (f *File) IDs() map[string]bool {
	ids := make(map[string]bool, len(f.Questions))
	for _, q := range f.Questions {
		if q.ID != "" {
			ids[q.ID] = true
		}
	}
	return ids
}

// Option returns the first option of the question with the id, or nil.
func (q *Question) Option(id string) *Option {
	for _, o := range q.Options {
		if o.ID == id {
			return o
		}
	}
	return nil
}

// DefaultOption returns the option a choice question's default names, or
// nil.
func (q *Question) DefaultOption() *Option {
	if q.Type != Choice || q.Default == nil || q.Default.Kind() != jsonsrc.String {
		return nil
	}
	return q.Option(q.Default.Str())
}

// Targets returns every sets target that the answer procedure can apply,
// in source order: the entries of the sets of each option of a choice
// question, and the sets key of each number question with its default.
// A key that is not in the tuning-key grammar is left out (see Misspelt),
// and so are the sets of a
// question of another type (PERSONALIZATION_SETS_TYPE, or a schema
// finding for options outside a choice question).
func (f *File) Targets() []Target {
	var out []Target
	for _, q := range f.Questions {
		switch q.Type {
		case Choice:
			for _, o := range q.Options {
				for _, a := range o.Sets {
					if ValidKey(a.Key) {
						out = append(out, Target{Assignment: a, Question: q, Option: o})
					}
				}
			}
		case Number:
			if q.Sets == nil || q.Sets.Value == nil || !ValidKey(q.SetsKey) {
				continue
			}
			a := Assignment{Key: q.SetsKey, KeySpan: q.Sets.Value.Span()}
			if q.Default.Finite() {
				a.Value, a.ValueSpan, a.HasValue = q.Default.Num(), q.Default.Span(), true
			}
			out = append(out, Target{Assignment: a, Question: q})
		}
	}
	return out
}

// Misspelt returns the sets keys Targets leaves out because they are not
// in the tuning-key grammar, in source order: the numeric entries of the
// sets of each option of a choice question, and the sets string of each
// number question. Such a key breaks personalization.schema.json and names
// no key of tuning.json either, so it gets both findings.
func (f *File) Misspelt() []Assignment {
	var out []Assignment
	for _, q := range f.Questions {
		switch q.Type {
		case Choice:
			for _, o := range q.Options {
				for _, a := range o.Sets {
					if !ValidKey(a.Key) {
						out = append(out, a)
					}
				}
			}
		case Number:
			if q.Sets != nil && q.Sets.Value != nil && q.Sets.Value.Kind() == jsonsrc.String && !ValidKey(q.SetsKey) {
				out = append(out, Assignment{Key: q.SetsKey, KeySpan: q.Sets.Value.Span()})
			}
		}
	}
	return out
}

// Defaults returns the assignments of the package defaults (SPEC §4
// "Package defaults", §5 "The resolved tuning snapshot"): the default of
// every question in question order, a choice default applying the sets of
// the option it names and a number default its sets key. A later
// assignment to a key replaces an earlier one when they are applied in
// order. Whether tuning.json lets a default set its key is for the caller
// to decide (see Targets).
func (f *File) Defaults() []Target { return f.Apply(nil) }

// Apply returns the assignments of one build's answers (SPEC §5, "The
// resolved tuning snapshot", procedure step 2), in question order: for
// each question the answer that answer supplies, or its default when it
// supplies none (a nil answer supplies none). A choice answer applies the
// sets of the option it names, a number answer its sets key; a supplied
// answer of the wrong type, or naming no option, assigns nothing. The
// ValueSpan of an assignment from a supplied number answer is that
// answer's span, in the caller's file. A later assignment to a key
// replaces an earlier one when they are applied in order.
func (f *File) Apply(answer func(q *Question) *jsonsrc.Value) []Target {
	var out []Target
	for _, q := range f.Questions {
		v := q.Default
		if answer != nil {
			if a := answer(q); a != nil {
				v = a
			}
		}
		switch q.Type {
		case Choice:
			if v == nil || v.Kind() != jsonsrc.String {
				continue
			}
			o := q.Option(v.Str())
			if o == nil {
				continue
			}
			for _, a := range o.Sets {
				if a.HasValue && ValidKey(a.Key) {
					out = append(out, Target{Assignment: a, Question: q, Option: o})
				}
			}
		case Number:
			if q.Sets == nil || q.Sets.Value == nil || !ValidKey(q.SetsKey) || !v.Finite() {
				continue
			}
			out = append(out, Target{Assignment: Assignment{Key: q.SetsKey, KeySpan: q.Sets.Value.Span(), Value: v.Num(), ValueSpan: v.Span(), HasValue: true}, Question: q})
		}
	}
	return out
}

// check adds the findings of the file by itself beyond its schema.
func (f *File) check() {
	first := map[string]*Question{}
	for _, q := range f.Questions {
		if q.ID != "" {
			if p := first[q.ID]; p != nil {
				f.report(CodeQuestionID, q.IDSpan,
					fmt.Sprintf("question id %q is declared twice; a > PERSONALIZATION: tag and a build's answers must name one question, so rename one of them", q.ID),
					source.Related{File: f.Name, Span: p.IDSpan, Message: "the first question " + q.ID})
			} else {
				first[q.ID] = q
			}
		}
		f.checkOptions(q)
		f.checkSets(q)
	}
}

func (f *File) checkOptions(q *Question) {
	first := map[string]*Option{}
	var ids []string
	for _, o := range q.Options {
		if o.ID == "" {
			continue
		}
		if p := first[o.ID]; p != nil {
			f.report(CodeOptionID, o.IDSpan,
				fmt.Sprintf("option id %q appears twice in question %q; an answer must name one option, so rename one of them", o.ID, q.ID),
				source.Related{File: f.Name, Span: p.IDSpan, Message: "the first option " + o.ID})
			continue
		}
		first[o.ID] = o
		ids = append(ids, o.ID)
	}
	if q.Type != Choice || len(ids) == 0 || q.Default == nil {
		return // a missing default, or missing options, break the schema
	}
	if q.Default.Kind() != jsonsrc.String {
		// The schema wants a string here (PERSONALIZATION_SCHEMA), and a
		// default that is no string names no option either: two rows of
		// §5 apply.
		f.report(CodeDefaultOption, q.Default.Span(),
			fmt.Sprintf("the default of question %q is %s, which names none of its options (%s); write the id of one of them as a string", q.ID, q.Default.Describe(), strings.Join(quoted(ids), ", ")),
			source.Related{File: f.Name, Span: q.OptionsKey, Message: "the options of " + q.ID})
		return
	}
	if first[q.Default.Str()] != nil {
		return
	}
	msg := fmt.Sprintf("the default %q of question %q names none of its options (%s)", q.Default.Str(), q.ID, strings.Join(quoted(ids), ", "))
	if c := jsonshape.Closest(q.Default.Str(), ids); c != "" {
		msg += fmt.Sprintf("; did you mean %q?", c)
	} else {
		msg += "; write the id of one of them"
	}
	f.report(CodeDefaultOption, q.Default.Span(), msg, source.Related{File: f.Name, Span: q.OptionsKey, Message: "the options of " + q.ID})
}

func (f *File) checkSets(q *Question) {
	if q.Sets == nil || (q.Type != Choice && q.Type != Text) {
		return // a number question may have sets; an unknown type breaks the schema
	}
	msg := fmt.Sprintf("a %s question cannot have sets: only a number question sets a tuning key with its answer", q.Type)
	if q.Type == Choice {
		msg += "; put the numbers in the sets of each option instead"
	} else {
		msg += "; remove sets, or make the question a number question"
	}
	f.report(CodeSetsType, q.Sets.KeySpan(), msg)
}

func (f *File) report(code string, span source.Span, msg string, related ...source.Related) {
	f.Findings = append(f.Findings, source.Finding{Code: code, Severity: source.Error, File: f.Name, Span: span, Message: msg, Related: related})
}

func quoted(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// elems returns an array's elements, or nil for anything else.
func elems(v *jsonsrc.Value) []*jsonsrc.Value {
	if v == nil || v.Kind() != jsonsrc.Array {
		return nil
	}
	return v.Elems()
}
