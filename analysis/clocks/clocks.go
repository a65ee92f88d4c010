// Package clocks reads the runtime values, time modes and clocks of a
// package (SPEC §4b): clocks.json, parsed JSON in, a typed model with spans
// and the findings of the file by itself out (Parse); the runtime-address
// grammar (IsAddress); the retired `state:` prose form (RetiredState); the
// mode tags of chapter headings (ModeTags); and the `unchanged` member of
// an acceptance test (CheckUnchanged), which the build plan's test blocks
// carry.
//
// The shape of clocks.json is described once with jsonshape (Shape); its
// problems are CLOCKS_SHAPE, except those of a unit (CLOCKS_UNIT) and of a
// word of a modes map (CLOCKS_MODE_WORD). The rules across clocks are
// checked on the model: every clock names every time mode
// (CLOCKS_MODE_MISSING) and no runtime address is advanced by two clocks
// (CLOCKS_ADVANCES_DISJOINT). A part of the file that breaks its shape
// contributes nothing to the model, so it causes no finding beyond its own.
//
// Pure: no file system, no globals.
package clocks

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The finding codes of clocks.json.
const (
	CodeShape    = "CLOCKS_SHAPE"
	CodeUnit     = "CLOCKS_UNIT"
	CodeWord     = "CLOCKS_MODE_WORD"
	CodeMissing  = "CLOCKS_MODE_MISSING"
	CodeDisjoint = "CLOCKS_ADVANCES_DISJOINT"
)

// The four words a clock's modes map gives.
const (
	Running = "running"
	Paused  = "paused"
	Steps   = "steps"
	None    = "none"
)

// Words are the four words of a modes map, in the order the format lists
// them.
var Words = [...]string{Running, Paused, Steps, None}

// WordMeaning says what a clock does in a mode with word w, or "" for a
// word that is not one of the four.
func WordMeaning(w string) string {
	switch w {
	case Running:
		return "moves continuously"
	case Paused:
		return "keeps its value and does not move"
	case Steps:
		return "moves only when a turn or another discrete step is taken"
	case None:
		return "has no value"
	}
	return ""
}

// Moves reports whether a clock with word w moves the values it advances.
func Moves(w string) bool { return w == Running || w == Steps }

var modeID = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// IsModeID reports whether s is a mode id: kebab-case, lowercase ASCII
// letters and digits.
func IsModeID(s string) bool { return modeID.MatchString(s) }

// IsClockName reports whether s is a clock name: one tuning-key segment.
func IsClockName(s string) bool { return tuning.ValidSegment(s) }

// IsAddress reports whether s is a runtime address: `runtime.` and one or
// more tuning-key segments joined by single dots (SPEC §4b.1).
func IsAddress(s string) bool {
	rest, ok := strings.CutPrefix(s, "runtime.")
	if !ok {
		return false
	}
	for _, seg := range strings.Split(rest, ".") {
		if !tuning.ValidSegment(seg) {
			return false
		}
	}
	return true
}

// AddressProblem says why an inline-code token that is `runtime` or starts
// with `runtime.` is not a runtime address, or "" when it is one.
func AddressProblem(s string) string {
	switch {
	case IsAddress(s):
		return ""
	case s == "runtime" || s == "runtime.":
		return fmt.Sprintf("`%s` is not a runtime address: name the value after the dot, as in `runtime.oxygen_seconds`", s)
	}
	return fmt.Sprintf("`%s` is not a runtime address: after `runtime.` write one or more segments joined by single dots, each of letters, digits, `_` and `-` (not at either end)", s)
}

// RetiredState says what to write instead of an inline-code token of the
// retired `state:` form (a token that starts with `state:` and holds no
// `<` or `>`), or "" for any other token.
func RetiredState(token string) string {
	rest, ok := strings.CutPrefix(token, "state:")
	if !ok || strings.ContainsAny(token, "<>") {
		return ""
	}
	if name, ok := strings.CutPrefix(rest, "number:"); ok && name != "" && !strings.Contains(name, ":") {
		return fmt.Sprintf("`%s` is a retired state reference; write the runtime address `runtime.%s`", token, name)
	}
	return fmt.Sprintf("`%s` is a retired state reference; name the value with a `runtime.<name>` address and state the condition in a sentence", token)
}

var addressPattern = regexp.MustCompile(`^runtime\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)*$`)

// AddressShape is the shape of one runtime address in JSON.
var AddressShape = jsonshape.String{Pattern: addressPattern, PatternDoc: "the runtime-address form runtime.<name>"}

// ModesShape is the shape of a clock's modes map.
var ModesShape = jsonshape.Object{
	LastWins:   true,
	Rest:       jsonshape.Tagged{Tag: CodeWord, Shape: jsonshape.String{Enum: Words[:]}},
	MinMembers: 1,
	KeyDoc:     "mode",
	Key: func(k string) string {
		if IsModeID(k) {
			return ""
		}
		return "is not a mode id: write it in kebab-case, lowercase letters and digits joined by single hyphens"
	},
}

// ClockShape is the shape of one clock object.
var ClockShape = jsonshape.Object{
	What:     "a clock object",
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "unit", Required: true, Doc: "The unit the clock counts in, such as seconds or turns.",
			Shape: jsonshape.Tagged{Tag: CodeUnit, Shape: jsonshape.String{NonEmpty: true, Valid: func(s string) string {
				if strings.TrimSpace(s) == "" {
					return "holds only white space; write the unit the clock counts in"
				}
				return ""
			}}}},
		{Name: "advances", Doc: "The runtime values the clock moves forward.", Shape: jsonshape.Array{Elem: AddressShape}},
		{Name: "modes", Required: true, Doc: "What the clock does in each time mode: running, paused, steps or none.", Shape: ModesShape},
	},
}

// Shape is the shape of clocks.json: a non-empty map from clock names to
// clock objects, without the retired root keys modes and clocks. A member
// written twice counts with its last value, as JSON readers (and the
// format's validator) take it.
var Shape = jsonshape.Object{
	LastWins:   true,
	Rest:       ClockShape,
	MinMembers: 1,
	KeyDoc:     "clock",
	Key: func(k string) string {
		switch {
		case k == "modes" || k == "clocks":
			return "is a root key of an older format version; each clock now stands at the root with its own modes map (`gddls migrate` rewrites the file)"
		case !IsClockName(k):
			return "is not a clock name: use letters, digits, `_` and `-` (not at either end), with no dots"
		}
		return ""
	},
}

// File is a parsed clocks.json.
type File struct {
	// Path is the file's absolute path.
	Path string
	// Clocks are the clocks whose name is valid and whose value is an
	// object, in document order.
	Clocks []*Clock
	// Modes are the time modes: the union of the valid mode ids of every
	// clock's modes map, in order of first appearance.
	Modes []Mode
	// Findings are the findings of the file by itself.
	Findings []source.Finding
}

// Clock is one clock of clocks.json.
type Clock struct {
	Name     string
	NameSpan source.Span
	// Value is the clock object.
	Value *jsonsrc.Value
	// Unit is the unit when it is a string; UnitSpan its value's span.
	Unit     string
	UnitSpan source.Span
	// Advances are the runtime addresses of advances that have the
	// address form.
	Advances []Ref
	// ModesSpan is the span of the modes key, or the clock name when the
	// clock has no modes map; HasModes reports a modes object.
	ModesSpan source.Span
	HasModes  bool
	// Modes are the valid mode ids of the modes map with their words.
	Modes []ModeWord
}

// Ref is a name with the span of its JSON string.
type Ref struct {
	Text string
	Span source.Span
}

// ModeWord is one entry of a clock's modes map.
type ModeWord struct {
	ID      string
	KeySpan source.Span
	// Word is the value when it is a string, and WordSpan its span.
	Word     string
	WordSpan source.Span
}

// Mode is one time mode of the package.
type Mode struct {
	ID string
	// Decl is the key of the mode in the first clock that names it.
	Decl source.Span
}

// Clock returns the clock named name, or nil.
func (f *File) Clock(name string) *Clock {
	if f == nil {
		return nil
	}
	for _, c := range f.Clocks {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Mode returns the time mode id, compared exactly, or nil.
func (f *File) Mode(id string) *Mode {
	if f == nil {
		return nil
	}
	for i := range f.Modes {
		if f.Modes[i].ID == id {
			return &f.Modes[i]
		}
	}
	return nil
}

// ModeFold returns the time mode whose id equals s ignoring ASCII letter
// case, as a mode tag names it, or nil.
func (f *File) ModeFold(s string) *Mode {
	return f.Mode(asciiLower(s))
}

// Word returns what the clock does in mode id, or "" when it does not say.
func (c *Clock) Word(id string) (ModeWord, bool) {
	for _, m := range c.Modes {
		if m.ID == id {
			return m, true
		}
	}
	return ModeWord{}, false
}

// Advancer returns the clock whose advances names addr, and the entry.
func (f *File) Advancer(addr string) (*Clock, Ref, bool) {
	if f == nil {
		return nil, Ref{}, false
	}
	for _, c := range f.Clocks {
		for _, a := range c.Advances {
			if a.Text == addr {
				return c, a, true
			}
		}
	}
	return nil, Ref{}, false
}

// Parse reads a parsed clocks.json at path. A nil v gives nil.
func Parse(path string, v *jsonsrc.Value) *File {
	if v == nil {
		return nil
	}
	f := &File{Path: path}
	f.Findings = jsonshape.Findings(jsonshape.Check(Shape, v, "clocks.json"), CodeShape, source.Error, path)
	if v.Kind() != jsonsrc.Object {
		return f
	}
	seenMode := map[string]bool{}
	for _, m := range v.LastMembers() {
		if m.Value == nil || Shape.Key(m.Key) != "" || m.Value.Kind() != jsonsrc.Object {
			continue
		}
		c := &Clock{Name: m.Key, NameSpan: m.KeySpan(), Value: m.Value, ModesSpan: m.KeySpan()}
		if u := m.Value.Get("unit"); u != nil && u.Kind() == jsonsrc.String {
			c.Unit, c.UnitSpan = u.Str(), u.Span()
		}
		if adv := m.Value.Get("advances"); adv != nil && adv.Kind() == jsonsrc.Array {
			for _, e := range adv.Elems() {
				if e != nil && e.Kind() == jsonsrc.String && IsAddress(e.Str()) {
					c.Advances = append(c.Advances, Ref{Text: e.Str(), Span: e.Span()})
				}
			}
		}
		if mm := m.Value.Member("modes"); mm != nil && mm.Value != nil && mm.Value.Kind() == jsonsrc.Object {
			c.ModesSpan, c.HasModes = mm.KeySpan(), true
			for _, e := range mm.Value.LastMembers() {
				if e.Value == nil || !IsModeID(e.Key) {
					continue
				}
				mw := ModeWord{ID: e.Key, KeySpan: e.KeySpan()}
				if e.Value.Kind() == jsonsrc.String {
					mw.Word, mw.WordSpan = e.Value.Str(), e.Value.Span()
				}
				c.Modes = append(c.Modes, mw)
				if !seenMode[e.Key] {
					seenMode[e.Key] = true
					f.Modes = append(f.Modes, Mode{ID: e.Key, Decl: e.KeySpan()})
				}
			}
		}
		f.Clocks = append(f.Clocks, c)
	}
	f.checkModes()
	f.checkDisjoint()
	return f
}

// checkModes reports each time mode a clock's modes map does not name. A
// clock without a modes object, or with an empty one, already has its
// shape finding.
func (f *File) checkModes() {
	for _, c := range f.Clocks {
		if !c.HasModes || len(c.Modes) == 0 {
			continue
		}
		has := make(map[string]bool, len(c.Modes))
		for _, w := range c.Modes {
			has[w.ID] = true
		}
		for _, m := range f.Modes {
			if has[m.ID] {
				continue
			}
			f.Findings = append(f.Findings, source.Finding{
				Code: CodeMissing, Severity: source.Error, File: f.Path, Span: c.ModesSpan,
				Message: fmt.Sprintf("clock %q does not say what it does in the time mode %q, which another clock names; add \"%s\": running, paused, steps or none", c.Name, m.ID, m.ID),
				Related: []source.Related{{File: f.Path, Span: m.Decl, Message: "the mode is declared here"}},
			})
		}
	}
}

// checkDisjoint reports a runtime address that a second clock advances.
func (f *File) checkDisjoint() {
	type first struct {
		clock *Clock
		ref   Ref
	}
	seen := map[string]first{}
	for _, c := range f.Clocks {
		mine := map[string]bool{}
		for _, a := range c.Advances {
			if mine[a.Text] {
				continue
			}
			mine[a.Text] = true
			prev, ok := seen[a.Text]
			if !ok {
				seen[a.Text] = first{c, a}
				continue
			}
			f.Findings = append(f.Findings, source.Finding{
				Code: CodeDisjoint, Severity: source.Error, File: f.Path, Span: a.Span,
				Message: fmt.Sprintf("%s is advanced by clock %q and by clock %q; one runtime value moves with one clock, so remove it from one of them", a.Text, prev.clock.Name, c.Name),
				Related: []source.Related{{File: f.Path, Span: prev.ref.Span, Message: fmt.Sprintf("clock %q advances it here", prev.clock.Name)}},
			})
		}
	}
}

// asciiLower lowers the ASCII letters of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
