package pack

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// Test is one generated acceptance test.
type Test struct {
	// Name is `<adoption>/<template>` or `<adoption>/<template>/<row-id>`,
	// the name a build record uses (the heading adds the `AT ` prefix).
	Name     string
	Adoption string
	Template string
	// Row is the row id of a per-row test, "" for a once test.
	Row string
	// Title and Text are the rendered title and prose.
	Title string
	Text  string
	// Type is the test type, "scenario" or "general".
	Type string
	// Block is the rendered §6 test block, without spans or annotations.
	Block *jsonsrc.Value
}

// JSON returns Block indented by two spaces, members in authored order.
// It is printed on demand: a check reads Block, and only the rendering
// for a reader (Markdown) needs the text.
func (t Test) JSON() string { return encodeIndent(t.Block) }

// renderer holds what the rendering of one adoption collects.
type renderer struct {
	c        *ctx
	p        *Pack
	findings []source.Finding
	seen     map[string]bool
	// instance is the adoption's id as a value, what {{instance}} stands
	// for in every test of the adoption; made on first use.
	instance *jsonsrc.Value
	// added counts the findings offered to add, repeated ones included.
	added int
	// x is the expansion of the test being generated (renderOne).
	x expansion
}

func (r *renderer) add(f source.Finding) {
	r.added++
	key := f.Code + "\x00" + f.File + "\x00" + strconv.Itoa(f.Span.Start) + "\x00" + strconv.Itoa(f.Span.End) + "\x00" + f.Message
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	r.findings = append(r.findings, f)
}

// adoptionRelated points from a pack finding back at the adoption.
func (r *renderer) adoptionRelated() []source.Related {
	return []source.Related{{File: r.c.a.File, Span: r.c.a.ContractKey, Message: "for adoption " + strconv.Quote(r.c.a.ID)}}
}

// packFinding is a finding filed in the pack that involves this adoption.
func (r *renderer) packFinding(code string, span source.Span, msg string, dependent bool) {
	r.add(source.Finding{Code: code, File: r.p.File, Span: span, Message: msg, Related: r.adoptionRelated(), Dependent: dependent})
}

// render generates the tests of every live template, in authored order.
func (r *renderer) render(statuses []TemplateStatus) []Test {
	tests, _ := r.renderFor(statuses, planTests)
	return tests
}

// renderMode says what renderOne builds. Every mode resolves every
// placeholder and reports the same findings.
type renderMode int

const (
	// renderAll builds the whole test.
	renderAll renderMode = iota
	// renderBlock builds the test's block alone, which is all a check of
	// the tests reads: the title and text are left empty.
	renderBlock
	// renderNone builds nothing: the rendering is for its findings alone.
	renderNone
)

// renderPlan says which tests renderFor generates.
type renderPlan int

const (
	// planTests generates every test whole.
	planTests renderPlan = iota
	// planBlocks generates the blocks a check of the tests must read:
	// those of every template but one whose blocks are alike and one of
	// which a check has found sound already (Template.checked).
	planBlocks
	// planFewBlocks generates the blocks of planBlocks but, of a template
	// whose blocks for one adoption are alike, the first alone: when a
	// check finds it sound, it finds them all so.
	planFewBlocks
)

// renderFor generates the tests of every live template that plan asks
// for, in authored order, and reports whether it left out a test of
// planBlocks (only planFewBlocks does).
func (r *renderer) renderFor(statuses []TemplateStatus, plan renderPlan) (tests []Test, fewer bool) {
	for _, st := range statuses {
		if !st.Live {
			continue
		}
		t := st.Template
		mode := renderAll
		if plan != planTests {
			mode = renderBlock
			if t.alike && t.checked.Load() {
				mode = renderNone
			}
		}
		inputs := r.inputs(t)
		rows := st.Rows
		if t.Expand == ExpandOnce {
			rows = []*contracts.Row{nil}
		}
		alikeLeft := false // the tests left are alike with one generated
		for _, row := range rows {
			test, ok := r.renderOne(t, row, inputs, mode)
			if !ok {
				continue
			}
			if mode == renderNone {
				fewer = fewer || alikeLeft
				continue
			}
			tests = append(tests, test)
			if plan == planFewBlocks && t.alikeInAdoption {
				mode, alikeLeft = renderNone, true
			}
		}
	}
	return tests, fewer
}

// inputs returns each declared input's value: the adoption's
// `verification.<template>.<input>` when it has the right shape, otherwise
// the default. A live template lacking a required input is reported on the
// adoption (rule 10).
func (r *renderer) inputs(t *Template) map[string]*jsonsrc.Value {
	out := map[string]*jsonsrc.Value{}
	entry := r.c.verification(t.ID)
	for _, in := range t.Inputs {
		if entry != nil && entry.Value != nil {
			if v := entry.Value.Get(in.Name); v != nil && inputShape(in.Name, v) == "" {
				out[in.Name] = v
				continue
			}
		}
		if in.Default != nil {
			out[in.Name] = in.Default
			continue
		}
		span := r.c.a.ContractKey
		if entry != nil {
			span = entry.Template.Span
		} else if m := r.c.a.Root.Member("verification"); m != nil {
			span = m.KeySpan()
		}
		r.add(source.Finding{
			Code: CodeReference, File: r.c.a.File, Span: span,
			Message: "template " + strconv.Quote(t.ID) + " is live and needs input " + strconv.Quote(in.Name) +
				", which has no default; add it under verification." + t.ID + "." + in.Name,
			Related: []source.Related{{File: r.p.File, Span: in.NameSpan, Message: "the input is declared here"}},
		})
	}
	return out
}

// verification returns the adoption's verification entry for a template.
func (c *ctx) verification(id string) *contracts.Verification {
	for i := len(c.a.Verify) - 1; i >= 0; i-- {
		if c.a.Verify[i].Template.Text == id {
			return c.a.Verify[i]
		}
	}
	return nil
}

// expansion is the state of one test being generated.
type expansion struct {
	r       *renderer
	t       *Template
	row     *contracts.Row
	rowID   string
	inputs  map[string]*jsonsrc.Value
	phrases map[string]*jsonsrc.Value
	waiting map[string]bool // bindings whose selected answer is missing
	// active are the bindings being expanded, innermost last, against
	// cycles: a phrase holds few bindings, so a list does.
	active []string
	// dry is set while a part is rendered for its findings alone: value
	// then builds nothing, and what it returns is only good for its kind.
	dry bool
}

// name is the name of the test being generated.
func (x *expansion) name() string {
	name := x.r.c.a.ID + "/" + x.t.ID
	if x.row != nil {
		name += "/" + x.rowID
	}
	return name
}

// renderOne generates the test of t for row (nil for a once template);
// mode says which parts it builds. ok is false for a row without an id,
// which generates no test.
func (r *renderer) renderOne(t *Template, row *contracts.Row, inputs map[string]*jsonsrc.Value, mode renderMode) (test Test, ok bool) {
	rowID := ""
	if row != nil {
		f := row.Get("id")
		if f == nil || f.Value == nil || f.Value.Kind() != jsonsrc.String {
			return Test{}, false
		}
		rowID = f.Value.Str()
	}
	// One expansion serves every test of the renderer in turn; its
	// phrases' map and its list of active bindings are cleared and kept.
	phrases := r.x.phrases
	clear(phrases)
	x := &r.x
	*x = expansion{r: r, t: t, row: row, rowID: rowID, inputs: inputs, phrases: phrases, active: x.active[:0], dry: mode == renderNone}
	x.selectPhrases()
	block := x.value(t.Test)
	x.dry = mode != renderAll
	title := x.value(t.Title)
	text := x.value(t.Text)
	if block != nil {
		if m := t.Test.Member("direction_claims"); m != nil {
			r.packFinding(CodeDirectionClaims, m.KeySpan(), "template "+strconv.Quote(t.ID)+" puts direction_claims in its generated tests; a generated test cannot claim direction coverage, so remove the field", false)
		}
	}
	if mode == renderNone {
		return Test{}, true
	}
	test = Test{Name: x.name(), Adoption: r.c.a.ID, Template: t.ID, Row: rowID, Type: t.Type, Block: block}
	if mode == renderAll {
		if title != nil && title.Kind() == jsonsrc.String {
			test.Title = title.Str()
		}
		if text != nil && text.Kind() == jsonsrc.String {
			test.Text = text.Str()
		}
	}
	return test, true
}

// selectPhrases picks each binding's phrase (rule 11).
func (x *expansion) selectPhrases() {
	r, c := x.r, x.r.c
	for _, b := range x.t.Bindings {
		var selected string
		var at source.Span
		var file string
		switch {
		case b.Flag != nil:
			ans, ok := c.answer(b.Flag.Text)
			if !ok {
				if x.waiting == nil {
					x.waiting = map[string]bool{}
				}
				x.waiting[b.ID] = true
				span := c.a.ContractKey
				if c.a.AnswersKey != nil {
					span = c.a.AnswersKey.KeySpan()
				}
				r.add(source.Finding{Code: CodeBindingMap, File: c.a.File, Span: span, Dependent: true,
					Message: "template " + strconv.Quote(x.t.ID) + " selects a phrase by the answer to question " + strconv.Quote(b.Flag.Text) + ", which has no answer yet",
					Related: []source.Related{{File: r.p.File, Span: b.Flag.Span, Message: "the binding's selector"}}})
				continue
			}
			selected, at, file = ans.Option, ans.Value.Span(), c.a.File
		case b.RowField != nil:
			f := x.row.Get(b.RowField.Text)
			if f == nil || f.Value == nil {
				continue
			}
			s, ok := textOf(f.Value)
			if !ok {
				continue
			}
			selected, at, file = s, f.Value.Span(), c.a.File
		}
		if ph := b.phrase(selected); ph != nil {
			if x.phrases == nil {
				x.phrases = make(map[string]*jsonsrc.Value, len(x.t.Bindings))
			}
			x.phrases[b.ID] = ph
			continue
		}
		related := []source.Related{{File: r.p.File, Span: b.IDSpan, Message: "binding " + strconv.Quote(b.ID) + " of template " + strconv.Quote(x.t.ID)}}
		if m := b.Node.Member("map"); m != nil {
			related[0].Span = m.KeySpan()
		}
		r.add(source.Finding{Code: CodeBindingMap, File: file, Span: at, Related: related,
			Message: "binding " + strconv.Quote(b.ID) + " of template " + strconv.Quote(x.t.ID) + " has no phrase for " + strconv.Quote(selected) +
				"; the pack's map covers " + phraseKeys(b)})
	}
}

func phraseKeys(b *Binding) string {
	if len(b.Map) == 0 {
		return "nothing"
	}
	keys := make([]string, len(b.Map))
	for i, p := range b.Map {
		keys[i] = strconv.Quote(p.Key)
	}
	return strings.Join(keys, ", ")
}

// value renders a template value: placeholders replaced, annotations
// removed. A value without placeholders renders to the pack's shared copy
// (scanned.static), so the result is never to be modified. When x.dry is
// set, the placeholders are resolved for their findings and nothing is
// built: the result, v itself or the value a whole placeholder stands
// for, has the kind of the rendering and nothing else of it.
func (x *expansion) value(v *jsonsrc.Value) *jsonsrc.Value {
	if v == nil {
		return nil
	}
	return x.render(v, x.r.p.scanOf(v))
}

// part renders the part k of a value whose scan is sc (scanned.parts), v.
func (x *expansion) part(sc *scanned, k int, v *jsonsrc.Value) *jsonsrc.Value {
	if v == nil || k >= len(sc.parts) {
		return x.value(v)
	}
	return x.render(v, sc.parts[k])
}

// render is value, for v with its scan sc.
func (x *expansion) render(v *jsonsrc.Value, sc *scanned) *jsonsrc.Value {
	if sc.static != nil {
		return sc.static
	}
	if v.Kind() == jsonsrc.String {
		return x.str(v, sc.phs)
	}
	if x.dry {
		x.dryResolve(sc.phs)
		return v
	}
	switch v.Kind() {
	case jsonsrc.Array:
		elems := make([]*jsonsrc.Value, 0, len(v.Elems()))
		for i, e := range v.Elems() {
			elems = append(elems, x.part(sc, i, e))
		}
		return jsonsrc.NewArray(elems)
	case jsonsrc.Object:
		members := make([]jsonsrc.Member, 0, len(v.Members()))
		for _, m := range v.Members() {
			if strings.HasPrefix(m.Key, "_") {
				continue
			}
			members = append(members, jsonsrc.Member{Key: m.Key, Value: x.part(sc, len(members), m.Value)})
		}
		return jsonsrc.NewObject(members)
	}
	return copyValue(v)
}

// str renders one string of the pack with its placeholders phs (rule 12):
// a string that is exactly one placeholder becomes the raw JSON value;
// otherwise each placeholder is replaced by text. Substituted values are
// never scanned again.
func (x *expansion) str(v *jsonsrc.Value, phs []*Placeholder) *jsonsrc.Value {
	if len(phs) == 1 && phs[0].Whole {
		res := x.resolve(phs[0])
		switch {
		case x.dry && res != nil:
			return res
		case x.dry:
			return v
		case res != nil:
			return copyValue(res)
		}
		return jsonsrc.NewString(v.Str())
	}
	if x.dry {
		x.dryResolve(phs)
		return v
	}
	var b strings.Builder
	// Room for the text around the placeholders and a short value each,
	// so that the builder seldom grows.
	b.Grow(len(v.Str()) + 32*len(phs))
	last := 0
	for _, ph := range phs {
		b.WriteString(v.Str()[last:ph.Start])
		last = ph.End
		res := x.resolve(ph)
		if res == nil {
			b.WriteString(ph.Raw)
			continue
		}
		text, ok := textOf(res)
		if !ok {
			x.notText(ph, res)
			b.WriteString(ph.Raw)
			continue
		}
		b.WriteString(text)
	}
	b.WriteString(v.Str()[last:])
	return jsonsrc.NewString(b.String())
}

// dryResolve resolves the placeholders phs of a value, in order, as its
// rendering would, for their findings alone.
func (x *expansion) dryResolve(phs []*Placeholder) {
	for _, ph := range phs {
		if res := x.resolve(ph); res != nil && !ph.Whole {
			if _, ok := textOf(res); !ok {
				x.notText(ph, res)
			}
		}
	}
}

// notText reports a placeholder inside a string that stands for an array
// or an object.
func (x *expansion) notText(ph *Placeholder, res *jsonsrc.Value) {
	x.r.packFinding(CodePlaceholder, ph.Span, ph.Raw+" stands inside a string in template "+strconv.Quote(x.t.ID)+" but holds "+res.Describe()+"; an array or object can only replace a whole string", false)
}

// resolve returns the value a placeholder stands for, or nil when it stays
// unresolved (and reports why when that is a fault of its own).
func (x *expansion) resolve(ph *Placeholder) *jsonsrc.Value {
	c := x.r.c
	switch ph.Kind {
	case PlaceInstance:
		// Shared by the adoption's tests: a resolved value is read, or
		// copied when it replaces a whole string.
		if x.r.instance == nil {
			x.r.instance = jsonsrc.NewString(c.a.ID)
		}
		return x.r.instance
	case PlaceValueCite:
		return jsonsrc.NewString("contracts." + c.a.ID + "." + ph.Arg)
	case PlaceInputs:
		if x.t.input(ph.Arg) == nil {
			return nil // reported by ParsePack
		}
		if v := x.inputs[ph.Arg]; v != nil {
			return v
		}
		x.unresolved(ph, "input "+strconv.Quote(ph.Arg)+" has no value", true)
		return nil
	case PlaceBind:
		if !x.t.declaresBinding(ph.Arg) {
			return nil // reported by ParsePack
		}
		phrase := x.phrases[ph.Arg]
		if phrase == nil {
			if x.t.binding(ph.Arg) == nil {
				return nil // malformed binding, reported by ParsePack
			}
			x.unresolved(ph, "binding "+strconv.Quote(ph.Arg)+" selects no phrase", x.waiting[ph.Arg])
			return nil
		}
		if slices.Contains(x.active, ph.Arg) {
			x.r.packFinding(CodePlaceholder, ph.Span, "binding "+strconv.Quote(ph.Arg)+" of template "+strconv.Quote(x.t.ID)+" reads itself through its phrases; a phrase cannot contain its own binding", false)
			return nil
		}
		x.active = append(x.active, ph.Arg)
		out := x.value(phrase) // a phrase is a string
		x.active = x.active[:len(x.active)-1]
		return out
	case PlaceRow:
		if x.row == nil {
			return nil // reported by ParsePack
		}
		if f := x.row.Get(ph.Arg); f != nil && f.Value != nil {
			return f.Value
		}
		if set := c.a.RowSet(x.t.Collection); set != nil && set.Field(ph.Arg) != nil {
			x.unresolved(ph, "the row has no field "+strconv.Quote(ph.Arg), false)
		}
		return nil
	}
	return nil
}

func (x *expansion) unresolved(ph *Placeholder, why string, dependent bool) {
	x.r.packFinding(CodePlaceholder, ph.Span, "test "+x.name()+" leaves "+ph.Raw+" unresolved: "+why, dependent)
}
