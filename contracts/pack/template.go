package pack

import (
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

var templateFields = []string{"id", "title", "type", "expand", "when", "bindings", "collection", "test", "text", "inputs"}

// parseTemplate reads one template object and reports its shape faults.
func (p *Pack) parseTemplate(index int, node *jsonsrc.Value) *Template {
	t := &Template{Index: index, Node: node, Usable: true}
	label := "template " + strconv.Itoa(index)
	p.closed(node, label, templateFields)

	// id
	idv := node.Get("id")
	switch {
	case idv == nil:
		p.add(CodePackShape, node.Opening(), label+` lacks "id"; add a kebab-case template id`)
		t.Usable = false
	case idv.Kind() != jsonsrc.String || !source.IsKebab(idv.Str()):
		p.add(CodePackShape, idv.Span(), label+`: "id" must be a kebab-case string`)
		t.Usable = false
		if idv.Kind() == jsonsrc.String {
			t.ID, t.IDSpan = idv.Str(), idv.Span()
		}
	default:
		t.ID, t.IDSpan = idv.Str(), idv.Span()
		label = "template " + strconv.Quote(t.ID)
		if first, dup := p.byID[t.ID]; dup {
			p.Findings = append(p.Findings, source.Finding{
				Code: CodePackShape, File: p.File, Span: idv.Span(),
				Message: "template id " + strconv.Quote(t.ID) + " is used twice; template ids are unique in a pack",
				Related: []source.Related{{File: p.File, Span: first.IDSpan, Message: "first use of the id"}},
			})
			t.Usable = false
		} else {
			p.byID[t.ID] = t
		}
	}
	missing := func(field, what string) {
		p.add(CodePackShape, t.anchor(), label+" lacks "+strconv.Quote(field)+"; add "+what)
	}

	// title and text
	for _, f := range []struct {
		name string
		dst  **jsonsrc.Value
	}{{"title", &t.Title}, {"text", &t.Text}} {
		v := node.Get(f.name)
		switch {
		case v == nil:
			missing(f.name, "a string")
			t.Usable = false
		case v.Kind() != jsonsrc.String:
			p.add(CodePackShape, v.Span(), label+": "+strconv.Quote(f.name)+" must be a string, not "+v.Describe())
			t.Usable = false
		default:
			*f.dst = v
		}
	}

	// type
	typ := node.Get("type")
	switch {
	case typ == nil:
		missing("type", `"scenario" or "general"`)
		t.Usable = false
	case typ.Kind() != jsonsrc.String || (typ.Str() != "scenario" && typ.Str() != "general"):
		msg := label + `: "type" must be "scenario" or "general"`
		if typ.Kind() == jsonsrc.String && (typ.Str() == "property" || typ.Str() == "exhaustive-search" || typ.Str() == "document-check") {
			msg += "; " + strconv.Quote(typ.Str()) + " is a retired test type; write the template as a \"general\" test (gddls migrate leaves packs, which their catalog publishes, as they are)"
		}
		p.add(CodePackShape, typ.Span(), msg)
		t.Usable = false
	default:
		t.Type = typ.Str()
	}

	// expand and collection
	exp := node.Get("expand")
	switch {
	case exp == nil:
		missing("expand", `"once" or "per-row"`)
		t.Usable = false
	case exp.Kind() != jsonsrc.String || (exp.Str() != ExpandOnce && exp.Str() != ExpandPerRow):
		p.add(CodePackShape, exp.Span(), label+`: "expand" must be "once" or "per-row"`)
		t.Usable = false
	default:
		t.Expand = exp.Str()
	}
	col := node.Member("collection")
	switch {
	case t.Expand == ExpandPerRow && col == nil:
		missing("collection", "the name of the row set it expands (a per-row template needs one)")
		t.Usable = false
	case t.Expand == ExpandPerRow && col.Value.Kind() != jsonsrc.String:
		p.add(CodePackShape, col.Value.Span(), label+`: "collection" must be the name of a declared row set`)
		t.Usable = false
	case t.Expand == ExpandPerRow:
		t.Collection, t.CollectionSpan = col.Value.Str(), col.Value.Span()
	case t.Expand == ExpandOnce && col != nil:
		p.add(CodePackShape, col.KeySpan(), label+` expands once and takes no "collection"; remove it or use "expand": "per-row"`)
	}

	// test
	test := node.Get("test")
	switch {
	case test == nil:
		missing("test", "the test block object")
		t.Usable = false
	case test.Kind() != jsonsrc.Object:
		p.add(CodePackShape, test.Span(), label+`: "test" must be a test block object, not `+test.Describe())
		t.Usable = false
	default:
		t.Test = test
		if t.Type != "" {
			tt := test.Get("type")
			switch {
			case tt == nil:
				p.add(CodePackShape, test.Opening(), label+`: the test block lacks "type"; add "type": `+strconv.Quote(t.Type))
				t.Usable = false
			case tt.Kind() != jsonsrc.String || tt.Str() != t.Type:
				p.add(CodePackShape, tt.Span(), label+": the test block's type must equal the template's type "+strconv.Quote(t.Type))
				t.Usable = false
			}
		}
	}

	// when
	if w := node.Get("when"); w != nil {
		t.When = p.parseWhen(t, label, w)
	}

	// inputs
	if in := node.Get("inputs"); in != nil {
		p.parseInputs(t, label, in)
	}

	// bindings
	if b := node.Get("bindings"); b != nil {
		p.parseBindings(t, label, b)
	}

	// placeholders
	t.Placeholders = scanTemplate(t)
	p.checkPlaceholdersLocal(t, label)
	p.prepareTemplate(t)
	if t.Test != nil {
		t.alike = t.blocksAlike(false)
		t.alikeInAdoption = t.blocksAlike(true)
	}
	return t
}

// prepareTemplate fills p.scans for the values of t a rendering reads:
// its title, test and text and its bindings' phrases, with the
// placeholders scanTemplate found in them.
func (p *Pack) prepareTemplate(t *Template) {
	runs := make(map[*jsonsrc.Value]placeholderRun)
	for i := 0; i < len(t.Placeholders); {
		// The placeholders of one string are consecutive.
		j := i + 1
		for j < len(t.Placeholders) && t.Placeholders[j].In == t.Placeholders[i].In {
			j++
		}
		runs[t.Placeholders[i].In] = placeholderRun{t.Placeholders, i, j}
		i = j
	}
	for _, v := range []*jsonsrc.Value{t.Title, t.Test, t.Text} {
		if v != nil {
			p.prepare(v, runs)
		}
	}
	for _, b := range t.Bindings {
		for _, ph := range b.Map {
			if ph.Value != nil {
				p.prepare(ph.Value, runs)
			}
		}
	}
}

// blocksAlike reports whether the blocks rendered from t's test are
// alike: the same members in the same order, the same kinds and array
// lengths, the same text where the test's strings have no placeholder,
// and text that is not empty where they have. That is so when every
// string with placeholders has text of its own besides them (the text
// substituted inside a string does not change its kind), or is a whole
// {{bind:…}} every phrase of which is such a string, and the block's type
// has no placeholder. A string that is another whole placeholder can
// become a value of any kind.
//
// With inputs set, a string may also be a whole {{inputs:…}}, which
// stands for the same value in every test of one adoption: the blocks
// rendered for one adoption are then alike.
func (t *Template) blocksAlike(inputs bool) bool {
	for _, m := range t.Test.Members() {
		if m.Key == "type" && len(scanValue(nil, m.Value, "")) > 0 {
			return false
		}
	}
	return t.stringsAlike(t.Test, inputs)
}

// stringsAlike reports whether every string in v (annotations skipped)
// renders to a non-empty string, or to what a whole {{inputs:…}} stands
// for when inputs is set; see blocksAlike.
func (t *Template) stringsAlike(v *jsonsrc.Value, inputs bool) bool {
	switch v.Kind() {
	case jsonsrc.String:
		ms := findPlaceholders(v.Str())
		if len(ms) == 1 && ms[0].start == 0 && ms[0].end == len(v.Str()) {
			switch kind, arg := classify(ms[0].body); kind {
			case PlaceInputs:
				return inputs
			case PlaceBind:
				return t.phrasesHaveText(arg)
			}
			return false
		}
		return len(ms) == 0 || ownText(v.Str(), ms)
	case jsonsrc.Array:
		for _, e := range v.Elems() {
			if !t.stringsAlike(e, inputs) {
				return false
			}
		}
	case jsonsrc.Object:
		for _, m := range v.Members() {
			if !strings.HasPrefix(m.Key, "_") && m.Value != nil && !t.stringsAlike(m.Value, inputs) {
				return false
			}
		}
	}
	return true
}

// ownText reports whether s has text besides its placeholders ms.
func ownText(s string, ms []match) bool {
	own := len(s)
	for _, m := range ms {
		own -= m.end - m.start
	}
	return own > 0
}

// phrasesHaveText reports whether a whole {{bind:id}} always renders to a
// string that is not empty: every phrase of every binding id is a string
// with text besides its placeholders. Without a phrase the placeholder
// stays as it is written, which is such a string too.
func (t *Template) phrasesHaveText(id string) bool {
	for _, b := range t.Bindings {
		if b.ID != id {
			continue
		}
		for _, ph := range b.Map {
			if ph.Value == nil || ph.Value.Kind() != jsonsrc.String {
				return false
			}
			if ms := findPlaceholders(ph.Value.Str()); ph.Value.Str() == "" || len(ms) > 0 && !ownText(ph.Value.Str(), ms) {
				return false
			}
		}
	}
	return true
}

// anchor is the span used for findings about a template as a whole: its id
// when it has one, otherwise its opening brace.
func (t *Template) anchor() source.Span {
	if t.ID != "" {
		return t.IDSpan
	}
	return t.Node.Opening()
}

func (p *Pack) parseWhen(t *Template, label string, w *jsonsrc.Value) *When {
	bad := func(span source.Span, msg string) {
		p.add(CodeEnvelopeType, span, label+": "+msg)
		t.Usable = false
	}
	if w.Kind() != jsonsrc.Object {
		bad(w.Span(), `"when" must be an object with "flag" and, on a per-row template, "row"`)
		return nil
	}
	out := &When{Node: w}
	for _, m := range w.Members() {
		switch {
		case strings.HasPrefix(m.Key, "_"):
		case m.Key == "flag":
			if m.Value.Kind() != jsonsrc.Object || len(nonAnnotation(m.Value.Members())) == 0 {
				bad(m.Value.Span(), `"when.flag" must map one or more question ids to non-empty arrays of option ids`)
				continue
			}
			for _, q := range m.Value.Members() {
				if strings.HasPrefix(q.Key, "_") {
					continue
				}
				term := &FlagTerm{Question: q.Key, QuestionSpan: q.KeySpan()}
				if q.Value.Kind() != jsonsrc.Array || len(q.Value.Elems()) == 0 {
					bad(q.Value.Span(), "the options for question "+strconv.Quote(q.Key)+" must be a non-empty array of option ids")
					continue
				}
				ok := true
				for _, e := range q.Value.Elems() {
					if e.Kind() != jsonsrc.String {
						// A non-string entry names no option: SPEC §10.7 rule 16.
						p.add(CodeReference, e.Span(), label+": an entry of \"when.flag\" must be an option id string, not "+e.Describe())
						t.Usable = false
						ok = false
						continue
					}
					term.Options = append(term.Options, Name{Text: e.Str(), Span: e.Span()})
				}
				if ok {
					out.Flag = append(out.Flag, term)
				}
			}
		case m.Key == "row":
			if t.Expand != ExpandPerRow {
				p.add(CodeWhenDomain, m.KeySpan(), label+` expands once, so its "when" has no row to read; remove "row" or use "expand": "per-row"`)
				t.Usable = false
				continue
			}
			if m.Value.Kind() != jsonsrc.Object {
				bad(m.Value.Span(), `"when.row" must map field names to non-empty arrays of allowed values`)
				continue
			}
			for _, f := range m.Value.Members() {
				if strings.HasPrefix(f.Key, "_") {
					continue
				}
				if f.Value.Kind() != jsonsrc.Array || len(f.Value.Elems()) == 0 {
					bad(f.Value.Span(), "the allowed values for field "+strconv.Quote(f.Key)+" must be a non-empty array")
					continue
				}
				out.Row = append(out.Row, &RowTerm{Field: f.Key, FieldSpan: f.KeySpan(), Values: f.Value.Elems()})
			}
		default:
			p.add(CodeEnvelopeUnknown, m.KeySpan(), label+`: "when" has no field `+strconv.Quote(m.Key)+`; a template condition holds "flag" and, on a per-row template, "row"`)
			t.Usable = false
		}
	}
	return out
}

func nonAnnotation(ms []jsonsrc.Member) []jsonsrc.Member {
	var out []jsonsrc.Member
	for _, m := range ms {
		if !strings.HasPrefix(m.Key, "_") {
			out = append(out, m)
		}
	}
	return out
}

func (p *Pack) parseInputs(t *Template, label string, in *jsonsrc.Value) {
	if in.Kind() != jsonsrc.Object {
		p.add(CodePackShape, in.Span(), label+`: "inputs" must be an object that can hold "scope" and "seeds"`)
		return
	}
	seen := map[string]bool{}
	for _, m := range in.Members() {
		if strings.HasPrefix(m.Key, "_") {
			continue
		}
		if m.Key != "scope" && m.Key != "seeds" {
			p.add(CodePackShape, m.KeySpan(), label+": "+strconv.Quote(m.Key)+` is not an input; the inputs are "scope" and "seeds"`)
			continue
		}
		if seen[m.Key] {
			p.add(CodePackShape, m.KeySpan(), label+": input "+strconv.Quote(m.Key)+" is declared twice")
			continue
		}
		seen[m.Key] = true
		input := &Input{Name: m.Key, NameSpan: m.KeySpan()}
		if m.Value.Kind() != jsonsrc.Object {
			p.add(CodePackShape, m.Value.Span(), label+": input "+strconv.Quote(m.Key)+` must be an object whose only field is an optional "default"`)
			t.Inputs = append(t.Inputs, input)
			continue
		}
		p.closed(m.Value, label+" input "+strconv.Quote(m.Key), []string{"default"})
		if d := m.Value.Get("default"); d != nil {
			if msg := inputShape(m.Key, d); msg != "" {
				p.add(CodePackShape, d.Span(), label+": the default of input "+strconv.Quote(m.Key)+" must be "+msg)
			} else {
				input.Default = d
			}
		}
		t.Inputs = append(t.Inputs, input)
	}
}

// inputShape returns "" when v has the shape of the named input, otherwise
// a description of the shape it needs.
func inputShape(name string, v *jsonsrc.Value) string {
	switch name {
	case "scope":
		if v.Kind() != jsonsrc.String || strings.TrimSpace(v.Str()) == "" {
			return "a non-empty string"
		}
	case "seeds":
		if v.Kind() != jsonsrc.Array || len(v.Elems()) == 0 {
			return "a non-empty array of non-empty strings"
		}
		for _, e := range v.Elems() {
			if e.Kind() != jsonsrc.String || strings.TrimSpace(e.Str()) == "" {
				return "a non-empty array of non-empty strings"
			}
		}
	}
	return ""
}

// input returns the declared input with the given name, or nil.
func (t *Template) input(name string) *Input {
	for _, in := range t.Inputs {
		if in.Name == name {
			return in
		}
	}
	return nil
}

// binding returns the well-formed binding with the given id, or nil.
func (t *Template) binding(id string) *Binding {
	for _, b := range t.Bindings {
		if b.ID == id {
			return b
		}
	}
	return nil
}

// declaresBinding reports whether the template's `bindings` has a member
// with that id, well-formed or not.
func (t *Template) declaresBinding(id string) bool {
	if b := t.Node.Get("bindings"); b != nil {
		return b.Member(id) != nil
	}
	return false
}

func (p *Pack) parseBindings(t *Template, label string, bs *jsonsrc.Value) {
	if bs.Kind() != jsonsrc.Object {
		p.add(CodePackShape, bs.Span(), label+`: "bindings" must map binding ids to bindings`)
		return
	}
	for _, m := range bs.Members() {
		if strings.HasPrefix(m.Key, "_") {
			continue
		}
		where := label + " binding " + strconv.Quote(m.Key)
		if !source.IsKebab(m.Key) {
			p.add(CodePackShape, m.KeySpan(), label+": binding id "+strconv.Quote(m.Key)+" is not kebab-case")
		}
		v := m.Value
		if v.Kind() != jsonsrc.Object {
			p.add(CodeBindingShape, v.Span(), where+" must be an object with one selector (flag or row_field) and a map")
			continue
		}
		b := &Binding{ID: m.Key, IDSpan: m.KeySpan(), Node: v}
		ok := true
		for _, f := range v.Members() {
			switch {
			case strings.HasPrefix(f.Key, "_"):
			case f.Key == "flag" || f.Key == "row_field":
				if f.Value.Kind() != jsonsrc.String {
					p.add(CodeBindingShape, f.Value.Span(), where+": "+strconv.Quote(f.Key)+" must be a name string")
					ok = false
					continue
				}
				n := &Name{Text: f.Value.Str(), Span: f.Value.Span()}
				if f.Key == "flag" {
					b.Flag = n
				} else {
					b.RowField = n
				}
			case f.Key == "map":
			default:
				p.add(CodeBindingShape, f.KeySpan(), where+" has no field "+strconv.Quote(f.Key)+"; a binding holds one selector and a map")
				ok = false
			}
		}
		hasFlag, hasRow := v.Member("flag") != nil, v.Member("row_field") != nil
		switch {
		case hasFlag && hasRow:
			p.add(CodeBindingShape, v.Member("row_field").KeySpan(), where+` carries both "flag" and "row_field"; keep exactly one selector`)
			ok = false
		case !hasFlag && !hasRow:
			p.add(CodeBindingShape, m.KeySpan(), where+` has no selector; add "flag" (a question id) or "row_field" (a field of the row set)`)
			ok = false
		}
		mv := v.Get("map")
		switch {
		case mv == nil:
			p.add(CodeBindingShape, m.KeySpan(), where+` has no "map"; add a map from selected values to phrases`)
			ok = false
		case mv.Kind() != jsonsrc.Object:
			p.add(CodeBindingShape, mv.Span(), where+`: "map" must be an object from selected values to phrases`)
			ok = false
		default:
			for _, e := range mv.Members() {
				if strings.HasPrefix(e.Key, "_") {
					continue
				}
				if e.Value.Kind() != jsonsrc.String {
					// Not a shape of the binding (SPEC §10.7 lists those): the
					// phrase breaks the text its placeholder lands in.
					p.add(CodePlaceholder, e.Value.Span(), where+": the phrase for "+strconv.Quote(e.Key)+" must be a string, not "+e.Value.Describe()+"; it replaces {{bind:"+m.Key+"}} inside text")
					ok = false
					continue
				}
				b.Map = append(b.Map, Phrase{Key: e.Key, KeySpan: e.KeySpan(), Value: e.Value})
			}
		}
		if b.RowField != nil && t.Expand == ExpandOnce {
			p.add(CodeReference, b.RowField.Span, where+" reads a row field, but the template expands once and has no row; use a flag selector or a per-row template")
			ok = false
		}
		if ok {
			t.Bindings = append(t.Bindings, b)
		}
	}
}
