package clocks

import (
	"fmt"

	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The finding codes of a test's `unchanged` (SPEC §4b.3).
const (
	CodeUnchangedShape     = "UNCHANGED_SHAPE"
	CodeUnchangedNoClocks  = "UNCHANGED_NO_CLOCKS"
	CodeUnchangedMode      = "UNCHANGED_MODE"
	CodeRuntimeUndeclared  = "RUNTIME_UNDECLARED"
	CodeUnchangedAdvances  = "UNCHANGED_ADVANCES"
	CodeUnchangedUndefined = "UNCHANGED_UNDEFINED"
)

// UnchangedShape is the shape of a test's `unchanged`: a closed object of
// a non-empty array of mode ids and a non-empty array of runtime
// addresses.
var UnchangedShape = jsonshape.Object{
	What:     "an unchanged object",
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "modes", Required: true, Doc: "The time modes during which the values stay the same.",
			Shape: jsonshape.Array{MinItems: 1, Elem: jsonshape.String{Pattern: modeID, PatternDoc: "the mode-id form (kebab-case)"}}},
		{Name: "values", Required: true, Doc: "The runtime values that read the same at every observation during one period of a named mode.",
			Shape: jsonshape.Array{MinItems: 1, Elem: AddressShape}},
	},
}

// CheckUnchanged checks the `unchanged` member of one acceptance test
// (SPEC §4b.3). f is the package's clocks.json, nil when the package has
// none; unchanged is the member's value (nil: the test has none, and
// nothing is reported); declared reports whether a runtime address is
// declared by the package (a numbered root chapter's prose or a clock's
// advances; nil counts only the advances of f); file is the file that holds
// the test, where the findings are reported.
//
// A caller whose clocks.json exists but does not parse must not call it:
// nothing about the test's modes or values can be known then.
//
// A shape fault (UNCHANGED_SHAPE) leaves the rest of the member unchecked
// only where it stands: a mode or a value of the wrong type or form is not
// read further, and the others are.
func CheckUnchanged(f *File, unchanged *jsonsrc.Value, declared func(runtimeAddr string) bool, file string) []source.Finding {
	if unchanged == nil {
		return nil
	}
	out := jsonshape.Findings(jsonshape.Check(UnchangedShape, unchanged, "unchanged"), CodeUnchangedShape, source.Error, file)
	if f == nil {
		out = append(out, source.Finding{
			Code: CodeUnchangedNoClocks, Severity: source.Error, File: file, Span: unchanged.Opening(),
			Message: "this test says values stay unchanged during time modes, but the package has no clocks.json to declare them; add clocks.json or remove unchanged",
		})
	}
	if unchanged.Kind() != jsonsrc.Object {
		return out
	}
	if declared == nil {
		declared = func(addr string) bool { _, _, ok := f.Advancer(addr); return ok }
	}
	var modes []*jsonsrc.Value
	seenMode := map[string]bool{}
	for _, m := range arrayOf(unchanged.Get("modes")) {
		if m == nil || m.Kind() != jsonsrc.String || !IsModeID(m.Str()) || seenMode[m.Str()] {
			continue
		}
		seenMode[m.Str()] = true
		if f == nil {
			continue
		}
		if f.Mode(m.Str()) == nil {
			msg := fmt.Sprintf("%q is not a time mode of clocks.json", m.Str())
			if len(f.Modes) > 0 {
				msg += "; the modes are " + modeList(f)
			} else {
				msg += ", which declares none"
			}
			out = append(out, source.Finding{Code: CodeUnchangedMode, Severity: source.Error, File: file, Span: m.Span(), Message: msg})
			continue
		}
		modes = append(modes, m)
	}
	seenValue := map[string]bool{}
	for _, v := range arrayOf(unchanged.Get("values")) {
		if v == nil || v.Kind() != jsonsrc.String || !IsAddress(v.Str()) || seenValue[v.Str()] {
			continue
		}
		seenValue[v.Str()] = true
		if !declared(v.Str()) {
			out = append(out, source.Finding{
				Code: CodeRuntimeUndeclared, Severity: source.Error, File: file, Span: v.Span(),
				Message: fmt.Sprintf("%s is not declared: name it in the prose of a numbered chapter, as `%s` in inline code, or in a clock's advances", v.Str(), v.Str()),
			})
			continue
		}
		c, _, ok := f.Advancer(v.Str())
		if !ok {
			continue
		}
		for _, m := range modes {
			w, ok := c.Word(m.Str())
			if !ok {
				continue // the clock's own CLOCKS_MODE_MISSING
			}
			related := []source.Related{
				{File: f.Path, Span: w.KeySpan, Message: fmt.Sprintf("clock %q is %s in %s", c.Name, w.Word, m.Str())},
				{File: file, Span: m.Span(), Message: "the named mode"},
			}
			switch {
			case Moves(w.Word):
				out = append(out, source.Finding{
					Code: CodeUnchangedAdvances, Severity: source.Warning, File: file, Span: v.Span(), Related: related,
					Message: fmt.Sprintf("%s is advanced by clock %q, which is %s in %q, so the value moves during that mode; remove the mode or the value, or make the clock paused there", v.Str(), c.Name, w.Word, m.Str()),
				})
			case w.Word == None:
				out = append(out, source.Finding{
					Code: CodeUnchangedUndefined, Severity: source.Error, File: file, Span: v.Span(), Related: related,
					Message: fmt.Sprintf("%s has no value in %q: its clock %q is none there, so it cannot stay unchanged; remove the mode or the value", v.Str(), m.Str(), c.Name),
				})
			}
		}
	}
	return out
}

func arrayOf(v *jsonsrc.Value) []*jsonsrc.Value {
	if v == nil || v.Kind() != jsonsrc.Array {
		return nil
	}
	return v.Elems()
}
