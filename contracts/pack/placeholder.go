package pack

import (
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// PlaceholderKind is the form of a placeholder.
type PlaceholderKind int

// The placeholder forms of SPEC §10.7. PlaceUnknown is anything else
// between `{{` and `}}`.
const (
	PlaceUnknown PlaceholderKind = iota
	PlaceInstance
	PlaceValueCite
	PlaceInputs
	PlaceBind
	PlaceRow
)

// Placeholder is one `{{...}}` in a template.
type Placeholder struct {
	Kind PlaceholderKind
	// Raw is the placeholder with its braces; Body is the text between
	// them; Arg is the name after `value-cite:`, `inputs:`, `bind:` or
	// `row.`.
	Raw, Body, Arg string
	// Span covers the placeholder in the pack file. When the string that
	// holds it uses escape sequences, the span covers the whole string.
	Span source.Span
	// ArgSpan covers Arg when the placeholder span is exact; otherwise it
	// equals Span.
	ArgSpan source.Span
	// Whole reports that the placeholder is the entire string, so that it
	// is replaced by a raw JSON value (rule 12).
	Whole bool
	// In is the string value that holds the placeholder.
	In *jsonsrc.Value
	// Where says in which part of the template it stands: "title", "text",
	// "test" or "binding <id>".
	Where string
	// Start and End are the byte range of Raw in In.Str.
	Start, End int
}

// match is one placeholder occurrence in a decoded string: the byte range
// of `{{body}}` in the string.
type match struct {
	start, end int
	body       string
}

// findPlaceholders returns every `{{body}}` in s where body holds no brace,
// scanning left to right without overlap.
func findPlaceholders(s string) []match {
	var out []match
	for i := 0; i+1 < len(s); {
		if s[i] != '{' || s[i+1] != '{' {
			i++
			continue
		}
		j := i + 2
		for j < len(s) && s[j] != '{' && s[j] != '}' {
			j++
		}
		if j+1 < len(s) && s[j] == '}' && s[j+1] == '}' {
			out = append(out, match{start: i, end: j + 2, body: s[i+2 : j]})
			i = j + 2
			continue
		}
		i++
	}
	return out
}

// classify splits a placeholder body into its kind and argument.
func classify(body string) (PlaceholderKind, string) {
	if body == "instance" {
		return PlaceInstance, ""
	}
	for _, f := range []struct {
		prefix string
		kind   PlaceholderKind
	}{{"value-cite:", PlaceValueCite}, {"inputs:", PlaceInputs}, {"bind:", PlaceBind}, {"row.", PlaceRow}} {
		if arg, ok := strings.CutPrefix(body, f.prefix); ok && arg != "" {
			return f.kind, arg
		}
	}
	return PlaceUnknown, ""
}

// scanTemplate collects the placeholders of a template's title, test, text
// and binding phrases.
func scanTemplate(t *Template) []*Placeholder {
	var out []*Placeholder
	if t.Title != nil {
		out = scanValue(out, t.Title, "title")
	}
	if t.Test != nil {
		out = scanValue(out, t.Test, "test")
	}
	if t.Text != nil {
		out = scanValue(out, t.Text, "text")
	}
	for _, b := range t.Bindings {
		for _, ph := range b.Map {
			out = scanValue(out, ph.Value, "binding "+strconv.Quote(b.ID))
		}
	}
	return out
}

// scanValue appends the placeholders of every string in v, skipping
// annotation members.
func scanValue(out []*Placeholder, v *jsonsrc.Value, where string) []*Placeholder {
	if v == nil {
		return out
	}
	switch v.Kind() {
	case jsonsrc.String:
		exact := v.Span().Len() == len(v.Str())+2 // no escape sequences
		for _, m := range findPlaceholders(v.Str()) {
			kind, arg := classify(m.body)
			p := &Placeholder{Kind: kind, Raw: v.Str()[m.start:m.end], Body: m.body, Arg: arg,
				Whole: m.start == 0 && m.end == len(v.Str()), In: v, Where: where, Span: v.Span(), ArgSpan: v.Span(),
				Start: m.start, End: m.end}
			if exact {
				p.Span = source.Span{Start: v.Span().Start + 1 + m.start, End: v.Span().Start + 1 + m.end}
				p.ArgSpan = source.Span{Start: p.Span.End - 2 - len(arg), End: p.Span.End - 2}
			}
			out = append(out, p)
		}
	case jsonsrc.Array:
		for _, e := range v.Elems() {
			out = scanValue(out, e, where)
		}
	case jsonsrc.Object:
		for _, m := range v.Members() {
			if !strings.HasPrefix(m.Key, "_") {
				out = scanValue(out, m.Value, where)
			}
		}
	}
	return out
}

// checkPlaceholdersLocal reports the placeholder faults that need no
// adoption: unknown forms, and inputs, bindings and row fields that the
// template itself cannot supply.
func (p *Pack) checkPlaceholdersLocal(t *Template, label string) {
	for _, ph := range t.Placeholders {
		switch ph.Kind {
		case PlaceUnknown:
			msg := label + ": " + ph.Raw + " is not a placeholder; use {{instance}}, {{value-cite:<value>}}, {{inputs:scope}}, {{inputs:seeds}}, {{bind:<id>}} or {{row.<field>}}"
			if arg, ok := strings.CutPrefix(ph.Body, "surface:"); ok {
				msg = label + ": " + ph.Raw + " is a retired placeholder; write {{inputs:" + arg + "}}"
			}
			p.add(CodePlaceholder, ph.Span, msg)
		case PlaceInputs:
			if t.input(ph.Arg) == nil {
				msg := label + " reads input " + strconv.Quote(ph.Arg) + ", which its \"inputs\" does not declare"
				if ph.Arg != "scope" && ph.Arg != "seeds" {
					msg = label + ": " + strconv.Quote(ph.Arg) + " is not an input; the inputs are scope and seeds"
				}
				p.add(CodeReference, ph.ArgSpan, msg)
			}
		case PlaceBind:
			if !t.declaresBinding(ph.Arg) {
				p.add(CodeReference, ph.ArgSpan, label+" reads binding "+strconv.Quote(ph.Arg)+", which its \"bindings\" does not declare")
			}
		case PlaceRow:
			if t.Expand == ExpandOnce {
				p.add(CodePlaceholder, ph.ArgSpan, label+" expands once and has no row, so "+ph.Raw+" cannot be reached; use a per-row template")
			}
		}
	}
}
