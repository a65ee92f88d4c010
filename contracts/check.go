package contracts

import (
	"math"
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// Check returns every finding of SPEC §10.1 (file name and JSON), §10.2–
// §10.6 and §10.10 for adoption a, and the CONTRACT_REFERENCE cases of
// §10.7 rule 16 that need no pack. r may be nil: citations are then not
// resolved. The parse findings of a come first.
func Check(a *Adoption, r Resolver) []source.Finding {
	if a == nil {
		return nil
	}
	return CheckState(Evaluate(a, r))
}

// CheckState is Check over an evaluation already made with Evaluate, for a
// caller that needs the State too: the adoption is not evaluated twice.
func CheckState(s *State) []source.Finding {
	if s == nil || s.a == nil {
		return nil
	}
	a, r := s.a, s.r
	out := append([]source.Finding{}, a.findings...)
	if a.ParseError != nil || a.Root == nil || a.Root.Kind() != jsonsrc.Object {
		return out
	}
	c := &checker{a: a, r: r, s: s, other: map[string]*State{}}
	c.questions()
	c.answers()
	c.values()
	c.rowSets()
	c.rows()
	c.rules()
	return append(out, c.out...)
}

type checker struct {
	a     *Adoption
	r     Resolver
	s     *State
	other map[string]*State
	out   []source.Finding
}

func (c *checker) add(code string, span source.Span, msg string) *source.Finding {
	c.out = append(c.out, source.Finding{Code: code, Severity: source.Error, File: c.a.File, Span: span, Message: msg})
	return &c.out[len(c.out)-1]
}

func (c *checker) top() source.Span { return c.a.Root.Opening() }

// widened reports whether the definition uses one of the five forms of
// SPEC §10.3 rule 7.
func (c *checker) widened() bool {
	for _, q := range c.a.Questions {
		if q.Otherwise != nil {
			return true
		}
		if q.When != nil {
			for _, f := range q.When.Forms {
				switch f.Kind {
				case FormValueForm, FormRowCount, FormAny, FormAll:
					return true
				}
			}
		}
	}
	for _, d := range c.a.Values {
		if d.Forms != nil || d.When != nil {
			return true
		}
	}
	for _, s := range c.a.RowSets {
		if s.WhenEmpty != nil {
			return true
		}
	}
	for _, r := range c.a.Rules {
		if r.Kind == RuleAnswerAware {
			return true
		}
	}
	return false
}

func (c *checker) questions() {
	a := c.a
	widened := c.widened()
	for _, q := range a.Questions {
		if q.When != nil {
			for _, p := range CheckCondition(q.When, InQuestion, a, nil) {
				code := "CONTRACT_QUESTION_CONDITION"
				if p.Kind == ProblemReference {
					code = "CONTRACT_REFERENCE"
				}
				c.add(code, p.Span, "question "+strconv.Quote(q.Name.Text)+": "+p.Msg)
			}
		}
		if o := q.Otherwise; o != nil {
			if o.Kind() != jsonsrc.String || strings.TrimSpace(o.Str()) == "" {
				c.add("CONTRACT_QUESTION_OTHERWISE", o.Span(), "\"otherwise\" of question "+strconv.Quote(q.Name.Text)+" must be one non-empty string")
			}
		} else if widened && q.When != nil {
			c.add("CONTRACT_QUESTION_OTHERWISE", q.Name.Span, "question "+strconv.Quote(q.Name.Text)+
				" has a when but no \"otherwise\"; this definition uses the widened forms, so say what the builder does while it is not asked")
		}
	}
	for _, cyc := range c.s.cycles {
		var names []string
		for _, q := range cyc {
			names = append(names, q.Name.Text)
		}
		for i, q := range cyc {
			next := cyc[(i+1)%len(cyc)]
			span := q.Name.Span
			for _, e := range flagDeps(q.When) {
				if e.Name.Text == next.Name.Text {
					span = e.Name.Span
					break
				}
			}
			c.add("CONTRACT_QUESTION_CYCLE", span, "questions depend on each other in a cycle through flag: "+
				strings.Join(append(append(append([]string{}, names[i:]...), names[:i]...), q.Name.Text), " -> "))
		}
	}
}

func (c *checker) answers() {
	a, s := c.a, c.s
	for _, q := range a.Questions {
		if !s.Asked(q.Name.Text) || a.Answer(q.Name.Text) != nil {
			continue
		}
		span := c.top()
		if a.AnswersKey != nil {
			span = a.AnswersKey.KeySpan()
		}
		c.add("CONTRACT_ANSWER_MISSING", span, "question "+strconv.Quote(q.Name.Text)+" is asked but has no answer; add \""+
			q.Name.Text+"\" to \"answers\" with one of: "+quoteList(q.OptionIDs()))
	}
	for _, ans := range a.Answers {
		q := a.Question(ans.Question.Text)
		if q == nil {
			c.add("CONTRACT_ANSWER_UNKNOWN", ans.Question.Span, strconv.Quote(ans.Question.Text)+" is not a declared question"+
				suggest(ans.Question.Text, a.QuestionIDs()))
			continue
		}
		if !ans.IsString || q.Option(ans.Option) == nil {
			what := string(a.text(ans.Value.Span()))
			if ans.IsString {
				what = strconv.Quote(ans.Option)
			}
			c.add("CONTRACT_ANSWER_UNKNOWN", ans.Value.Span(), "answer "+what+" is not an option of question "+strconv.Quote(q.Name.Text)+
				"; use one of: "+quoteList(q.OptionIDs())+suggest(ans.Option, q.OptionIDs()))
		}
		if !s.Asked(q.Name.Text) {
			f := c.add("CONTRACT_ANSWER_NOT_ASKED", ans.Question.Span, "question "+strconv.Quote(q.Name.Text)+" is not asked: "+
				s.Explain(q.When)+"; this answer has no effect")
			f.Severity = source.Warning
			f.Unnecessary = true
		}
	}
}

func (c *checker) values() {
	a, s := c.a, c.s
	for _, d := range a.Values {
		if q := a.Question(d.Name.Text); q != nil {
			f := c.add("CONTRACT_NAME_UNIQUE", d.Name.Span, "value name "+strconv.Quote(d.Name.Text)+" is also a question id; rename the value")
			f.Related = []source.Related{{File: a.File, Span: q.Name.Span, Message: "the question"}}
		}
		if d.When != nil {
			for _, p := range CheckCondition(d.When, InDeclaration, a, nil) {
				c.add("CONTRACT_VALUE_CONDITION", p.Span, "value "+strconv.Quote(d.Name.Text)+": "+p.Msg)
			}
		}
		// A declaration that is not an object (CONTRACT_ENVELOPE_TYPE)
		// declares nothing to supply: its missing value is held back.
		if s.Active(d.Name.Text) && a.SuppliedValue(d.Name.Text) == nil && d.Value != nil && d.Value.Kind() == jsonsrc.Object {
			span := c.top()
			if a.ValuesKey != nil {
				span = a.ValuesKey.KeySpan()
			}
			forms := "a number"
			if d.AcceptsCitation && d.AcceptsNumber {
				forms = "a number or a citation"
			} else if d.AcceptsCitation {
				forms = "a citation"
			}
			c.add("CONTRACT_VALUE_MISSING", span, "value "+strconv.Quote(d.Name.Text)+" is active but not supplied; add it to \"values\" as "+forms)
		}
	}
	for _, sup := range a.Supplied {
		d := a.Declaration(sup.Name.Text)
		if d == nil {
			c.add("CONTRACT_VALUE_UNKNOWN", sup.Name.Span, strconv.Quote(sup.Name.Text)+" is not a declared value"+suggest(sup.Name.Text, a.ValueNames()))
			continue
		}
		if !s.Active(d.Name.Text) {
			f := c.add("CONTRACT_VALUE_INACTIVE", sup.Name.Span, "value "+strconv.Quote(d.Name.Text)+" is supplied, but its declaration is not active ("+
				s.Explain(d.When)+"); remove it")
			f.Dependent = s.activeMis[d.Name.Text]
			f.Unnecessary = true
			continue
		}
		v := sup.Value
		switch {
		case v.Finite():
			if !d.AcceptsNumber {
				c.add("CONTRACT_VALUE_TYPE", v.Span(), "value "+strconv.Quote(d.Name.Text)+" accepts only a citation, not a number")
				continue
			}
		case v.Kind() == jsonsrc.String:
			if !d.AcceptsCitation {
				c.add("CONTRACT_VALUE_TYPE", v.Span(), "value "+strconv.Quote(d.Name.Text)+" must be a finite number; its declaration does not accept citations")
				continue
			}
		default:
			c.add("CONTRACT_VALUE_TYPE", v.Span(), "value "+strconv.Quote(d.Name.Text)+" must be a finite number or a citation string, not "+v.Describe())
			continue
		}
		res := s.values[d.Name.Text]
		if res == nil {
			continue
		}
		if res.fault != nil {
			c.out = append(c.out, *res.fault)
			continue
		}
		if res.ok && d.HasRange && (res.num < d.Min || res.num > d.Max) {
			how := ""
			if v.Kind() == jsonsrc.String {
				how = " (its citation resolves to " + fmtNum(res.num) + ")"
			}
			c.add("CONTRACT_VALUE_RANGE", v.Span(), "value "+strconv.Quote(d.Name.Text)+" is "+fmtNum(res.num)+how+", outside its range ["+
				fmtNum(d.Min)+", "+fmtNum(d.Max)+"]")
		}
	}
}

func (c *checker) rowSets() {
	a := c.a
	widened := c.widened()
	for _, set := range a.RowSets {
		if w := set.WhenEmpty; w != nil {
			if w.Kind() != jsonsrc.String || strings.TrimSpace(w.Str()) == "" {
				c.add("CONTRACT_ROW_WHEN_EMPTY", w.Span(), "\"when-empty\" of row set "+strconv.Quote(set.Name.Text)+" must be one non-empty string")
			}
		} else if widened && set.Value != nil && set.Value.Kind() == jsonsrc.Object {
			c.add("CONTRACT_ROW_WHEN_EMPTY", set.Name.Span, "row set "+strconv.Quote(set.Name.Text)+
				" has no \"when-empty\"; this definition uses the widened forms, so say what the builder does while it has no rows")
		}
		for _, f := range set.Fields {
			if f.When != nil {
				for _, p := range CheckCondition(f.When, InField, a, set) {
					code := "CONTRACT_ENVELOPE_TYPE"
					switch p.Kind {
					case ProblemReference:
						code = "CONTRACT_REFERENCE"
					case ProblemUnknownKey:
						code = "CONTRACT_ENVELOPE_UNKNOWN"
					}
					c.add(code, p.Span, "field "+strconv.Quote(f.Name.Text)+": "+p.Msg)
				}
			}
			if w := f.Within; w != nil && w.Valid {
				c.withinNames(set, f, w)
			}
		}
	}
	// Binding of `rows` to the declared row sets.
	if a.RowsKey != nil && (a.RowsKey.Value == nil || a.RowsKey.Value.Kind() != jsonsrc.Object) {
		return
	}
	for _, set := range a.RowSets {
		if a.RowArray(set.Name.Text) == nil {
			span := c.top()
			if a.RowsKey != nil {
				span = a.RowsKey.KeySpan()
			}
			c.add("CONTRACT_ROWS_BINDING", span, "\"rows\" lacks row set "+strconv.Quote(set.Name.Text)+"; add \""+set.Name.Text+"\": [] when it has no rows")
		}
	}
	for _, ra := range a.Rows {
		if a.RowSet(ra.Name.Text) == nil && !a.RowSetsUnknown() {
			c.add("CONTRACT_ROWS_BINDING", ra.Name.Span, strconv.Quote(ra.Name.Text)+" is not a declared row set"+suggest(ra.Name.Text, a.RowSetNames()))
		}
	}
}

// bounds resolves a within pair; ok is false when a named bound is not
// usable (inactive, not supplied, unresolved or undeclared).
func (c *checker) bounds(w *Within) (lo, hi float64, ok bool) {
	var nums [2]float64
	for i, b := range w.Bounds {
		if b.IsNum {
			nums[i] = b.Num
			continue
		}
		n, ok := c.s.Resolved(b.Name)
		if !ok {
			return 0, 0, false
		}
		nums[i] = n
	}
	return nums[0], nums[1], true
}

func (c *checker) withinNames(set *RowSet, f *Field, w *Within) {
	for _, b := range w.Bounds {
		if !b.IsNum && c.a.Declaration(b.Name) == nil {
			c.add("CONTRACT_REFERENCE", b.Span, "the \"within\" bound "+strconv.Quote(b.Name)+" of field "+strconv.Quote(f.Name.Text)+
				" names no declared value"+suggest(b.Name, c.a.ValueNames()))
		}
	}
	if w.Bounds[0].IsNum && w.Bounds[1].IsNum {
		return
	}
	if lo, hi, ok := c.bounds(w); ok && lo > hi {
		c.add("CONTRACT_ROW_FIELD_SHAPE", w.Value.Span(), "\"within\" of field "+strconv.Quote(f.Name.Text)+" resolves to ["+
			fmtNum(lo)+", "+fmtNum(hi)+"]: the lower bound is above the upper bound")
	}
}

func (c *checker) rows() {
	a, s := c.a, c.s
	for _, ra := range a.Rows {
		set := a.RowSet(ra.Name.Text)
		if set == nil || set.Broken() {
			continue // undeclared (CONTRACT_ROWS_BINDING), or its declaration is reported
		}
		seen := map[string]map[string]bool{}
		for _, row := range ra.Rows {
			for _, rf := range row.Fields {
				f := set.Field(rf.Name.Text)
				if f == nil {
					// The names are listed for this finding alone.
					c.add("CONTRACT_ROW_FIELD", rf.Name.Span, strconv.Quote(rf.Name.Text)+" is not a field of row set "+strconv.Quote(set.Name.Text)+
						suggest(rf.Name.Text, set.FieldNames()))
					continue
				}
				if f.When != nil {
					if ok, mis := s.eval(f.When, row, true, false); !ok {
						fd := c.add("CONTRACT_ROW_FIELD", rf.Name.Span, "field "+strconv.Quote(f.Name.Text)+" is not allowed in this row: its when does not hold; remove it")
						fd.Dependent = mis
						fd.Unnecessary = true
						continue
					}
				}
				if !c.rowValue(set, f, rf.Value) {
					continue
				}
				if f.Unique {
					key := canonicalScalar(rf.Value)
					if seen[f.Name.Text] == nil {
						seen[f.Name.Text] = map[string]bool{}
					}
					if seen[f.Name.Text][key] {
						c.add("CONTRACT_ROW_FIELD", rf.Value.Span(), "field "+strconv.Quote(f.Name.Text)+" is unique, but "+
							string(a.text(rf.Value.Span()))+" appears in an earlier row")
					}
					seen[f.Name.Text][key] = true
				}
			}
			for _, f := range set.Fields {
				if row.Get(f.Name.Text) != nil {
					continue
				}
				req, mis := f.Required, false
				if f.When != nil {
					req, mis = s.eval(f.When, row, true, false)
					_ = mis
				}
				if req {
					c.add("CONTRACT_ROW_FIELD", row.Value.Opening(), "this row of "+strconv.Quote(set.Name.Text)+" lacks the required field "+
						strconv.Quote(f.Name.Text))
				}
			}
		}
	}
}

// rowValue checks a present row value against its field; it reports
// whether the value had the right type.
func (c *checker) rowValue(set *RowSet, f *Field, v *jsonsrc.Value) bool {
	// The name is quoted for a finding alone: most values have none.
	who := func() string { return "field " + strconv.Quote(f.Name.Text) }
	switch f.Type {
	case TypeNumber, TypeInteger:
		if !v.Finite() {
			c.add("CONTRACT_ROW_FIELD", v.Span(), who()+" holds "+v.Describe()+"; it must be a "+f.Type)
			return false
		}
		if f.Type == TypeInteger && v.Num() != math.Trunc(v.Num()) {
			c.add("CONTRACT_ROW_FIELD", v.Span(), who()+" must be a whole number, not "+v.Raw())
			return false
		}
		if w := f.Within; w != nil && w.Valid {
			if lo, hi, ok := c.bounds(w); ok && lo <= hi && (v.Num() < lo || v.Num() > hi) {
				c.add("CONTRACT_ROW_RANGE", v.Span(), who()+" is "+v.Raw()+", outside its bounds ["+fmtNum(lo)+", "+fmtNum(hi)+"]")
			}
		}
	case TypeString, TypeCitation:
		if v.Kind() != jsonsrc.String {
			c.add("CONTRACT_ROW_FIELD", v.Span(), who()+" holds "+v.Describe()+"; it must be a string")
			return false
		}
		if f.Type == TypeCitation {
			c.rowCitation(v, f.Name.Text)
			return true
		}
		if f.OptionsValue != nil && len(f.Options) > 0 {
			found := false
			for _, o := range f.Options {
				found = found || o.Text == v.Str()
			}
			if !found {
				opts := f.OptionTexts()
				c.add("CONTRACT_ROW_CHOICE", v.Span(), strconv.Quote(v.Str())+" is not an option of "+who()+"; use one of: "+quoteList(opts)+suggest(v.Str(), opts))
			}
		}
		if f.Pattern != nil && f.Pattern.Kind() == jsonsrc.String && f.Pattern.Str() == "kebab-case" && !source.IsKebab(v.Str()) {
			c.add("CONTRACT_NAME_GRAMMAR", v.Span(), who()+" must be kebab-case: lowercase letters and digits joined by single hyphens")
		}
	}
	return true
}

// canonicalScalar renders a value as JSON text for the unique comparison.
func canonicalScalar(v *jsonsrc.Value) string {
	var b strings.Builder
	jsonsrc.Write(&b, v, jsonsrc.WriteOptions{SkipAnnotations: true, JSONParseKeys: true})
	return b.String()
}
