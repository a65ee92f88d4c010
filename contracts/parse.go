package contracts

import (
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// ParseAdoption parses the adoption file data. file is the path the caller
// uses in findings; the adoption id is its base name without ".json".
// Parsing never fails: whatever could be read is kept, and the faults of
// the JSON syntax and of the envelope's shape (SPEC §10.1, §10.2, and the
// shape parts of §10.3–§10.5) are recorded as findings.
func ParseAdoption(file string, data []byte) *Adoption {
	a := &Adoption{File: file, Data: data}
	base := path.Base(strings.ReplaceAll(file, "\\", "/"))
	a.ID = strings.TrimSuffix(base, ".json")
	p := &parser{a: a}
	if !source.IsKebab(a.ID) {
		p.add("CONTRACT_INSTANCE_FILENAME", source.Span{}, "the adoption id "+strconv.Quote(a.ID)+
			" (the file name without .json) must be kebab-case: lowercase letters and digits joined by single hyphens, with no dot")
	}
	root, errs := jsonsrc.Parse(data)
	a.Root = root
	if len(errs) > 0 {
		e := errs[0]
		a.ParseError = &e
		p.add("CONTRACT_INSTANCE_JSON", e.Span, "the adoption file is not valid JSON: "+e.Msg)
		// Keep the partial model for the editor, but report no shape
		// findings on a file that does not parse.
		p.quiet = true
	}
	if root == nil {
		return a
	}
	if root.Kind() != jsonsrc.Object {
		p.add("CONTRACT_ENVELOPE_TYPE", root.Span(), "an adoption file holds one JSON object, not "+root.Describe())
		return a
	}
	p.top(root)
	return a
}

type parser struct {
	a     *Adoption
	quiet bool
}

func (p *parser) add(code string, span source.Span, msg string) {
	p.addSev(code, source.Error, span, msg)
}

func (p *parser) addSev(code string, sev source.Severity, span source.Span, msg string) {
	if p.quiet && code != "CONTRACT_INSTANCE_JSON" && code != "CONTRACT_INSTANCE_FILENAME" {
		return
	}
	p.a.findings = append(p.a.findings, source.Finding{Code: code, Severity: sev, File: p.a.File, Span: span, Message: msg})
}

// closed reports every member of obj that is neither allowed nor an
// annotation, and every required member that is missing (at, the span
// that stands for the object).
func (p *parser) closed(obj *jsonsrc.Value, at source.Span, what string, required []string, allowed ...string) {
	p.closedOf(obj, at, func() string { return what }, required, allowed...)
}

// closedOf is closed with the description what worded only for a
// finding: the checks of an adoption's questions, options and fields find
// nothing in nearly every call, and wording each description for every
// one of them was much of the parse's garbage.
func (p *parser) closedOf(obj *jsonsrc.Value, at source.Span, what func() string, required []string, allowed ...string) {
	for _, m := range obj.Members() {
		if isAnnotation(m.Key) || slices.Contains(required, m.Key) || slices.Contains(allowed, m.Key) {
			continue
		}
		names := append(append([]string{}, required...), allowed...)
		p.add("CONTRACT_ENVELOPE_UNKNOWN", m.KeySpan(), strconv.Quote(m.Key)+" is not a field of "+what()+
			"; allowed: "+quoteList(names)+suggest(m.Key, names)+" (prefix it with _ to keep it as an annotation)")
	}
	for _, k := range required {
		if obj.Member(k) == nil {
			p.add("CONTRACT_ENVELOPE_REQUIRED", at, what()+" lacks the required field "+strconv.Quote(k))
		}
	}
}

// nonEmptyString reports v unless it is a non-empty string.
func (p *parser) nonEmptyString(v *jsonsrc.Value, what string) {
	p.nonEmptyStringOf(v, func() string { return what })
}

// nonEmptyStringOf is nonEmptyString with the description worded only
// for a finding (closedOf).
func (p *parser) nonEmptyStringOf(v *jsonsrc.Value, what func() string) {
	if v == nil {
		return
	}
	if v.Kind() != jsonsrc.String {
		p.add("CONTRACT_ENVELOPE_TYPE", v.Span(), what()+" must be a non-empty string, not "+v.Describe())
	} else if strings.TrimSpace(v.Str()) == "" {
		p.add("CONTRACT_ENVELOPE_TYPE", v.Span(), what()+" must not be empty")
	}
}

func (p *parser) isString(v *jsonsrc.Value, what string) {
	p.isStringOf(v, func() string { return what })
}

// isStringOf is isString with the description worded only for a finding
// (closedOf).
func (p *parser) isStringOf(v *jsonsrc.Value, what func() string) {
	if v != nil && v.Kind() != jsonsrc.String {
		p.add("CONTRACT_ENVELOPE_TYPE", v.Span(), what()+" must be a string, not "+v.Describe())
	}
}

// isBoolOf reports v unless it is true or false, with the description
// worded only for a finding (closedOf).
func (p *parser) isBoolOf(v *jsonsrc.Value, what func() string) {
	if v != nil && v.Kind() != jsonsrc.Bool {
		p.add("CONTRACT_ENVELOPE_TYPE", v.Span(), what()+" must be true or false, not "+v.Describe())
	}
}

// isMap reports v unless it is an object and returns whether it is one.
func (p *parser) isMap(v *jsonsrc.Value, code, what string) bool {
	return p.isMapOf(v, code, func() string { return what })
}

// isMapOf is isMap with the description worded only for a finding
// (closedOf).
func (p *parser) isMapOf(v *jsonsrc.Value, code string, what func() string) bool {
	if v == nil {
		return false
	}
	if v.Kind() != jsonsrc.Object {
		p.add(code, v.Span(), what()+" must be an object (a map), not "+v.Describe())
		return false
	}
	return true
}

// name checks a kebab-case name of SPEC §10.2 rule 4.
func (p *parser) name(n Name, what string) {
	if !source.IsKebab(n.Text) {
		p.add("CONTRACT_NAME_GRAMMAR", n.Span, what+" "+strconv.Quote(n.Text)+
			" must be kebab-case: lowercase letters and digits joined by single hyphens, with no dot")
	}
}

func (p *parser) top(root *jsonsrc.Value) {
	a := p.a
	p.closed(root, root.Opening(), "the adoption file",
		[]string{"contract", "version", "summary", "mechanism", "questions", "declares", "answers", "values"},
		"origin", "rules", "pack", "rows", "verification")

	if m := root.Member("contract"); m != nil {
		a.ContractKey = m.KeySpan()
		if v := m.Value; v != nil && v.Kind() == jsonsrc.String {
			a.Contract = &Name{Text: v.Str(), Span: v.Span()}
			p.name(*a.Contract, "the contract id")
		} else if v != nil {
			p.add("CONTRACT_NAME_GRAMMAR", v.Span(), "\"contract\" must be a kebab-case string, not "+v.Describe())
		}
	}
	if v := root.Get("version"); v != nil {
		a.Version = v
		if v.Kind() != jsonsrc.Number || !v.Finite() || v.Num() != math.Trunc(v.Num()) {
			p.add("CONTRACT_ENVELOPE_TYPE", v.Span(), "\"version\" must be a whole number")
		}
	}
	a.Origin = root.Get("origin")
	if a.Origin == nil {
		at := root.Opening()
		if m := root.Member("contract"); m != nil {
			at = m.KeySpan()
		}
		p.addSev("CONTRACT_ORIGIN_ABSENT", source.Warning, at, "the definition has no \"origin\"; add where it came from, such as its catalog address")
	} else {
		p.isString(a.Origin, "\"origin\"")
	}
	a.Summary = root.Get("summary")
	p.nonEmptyString(a.Summary, "\"summary\"")
	a.Mechanism = root.Get("mechanism")
	if v := a.Mechanism; v != nil {
		if v.Kind() != jsonsrc.Array {
			p.add("CONTRACT_ENVELOPE_TYPE", v.Span(), "\"mechanism\" must be an array of non-empty strings, not "+v.Describe())
		} else if len(v.Elems()) == 0 {
			p.add("CONTRACT_ENVELOPE_TYPE", v.Span(), "\"mechanism\" must hold at least one entry")
		} else {
			for _, e := range v.Elems() {
				p.nonEmptyString(e, "a \"mechanism\" entry")
			}
		}
	}
	if v := root.Get("questions"); p.isMap(v, "CONTRACT_ENVELOPE_TYPE", "\"questions\"") {
		p.questions(v)
	}
	if m := root.Member("declares"); m != nil {
		a.DeclaresKey = m
		if p.isMap(m.Value, "CONTRACT_ENVELOPE_TYPE", "\"declares\"") {
			p.declares(m.Value)
		}
	}
	if v := root.Get("rules"); p.isMap(v, "CONTRACT_ENVELOPE_TYPE", "\"rules\"") {
		p.rules(v)
	}
	if v := root.Get("pack"); v != nil {
		a.Pack = v
		if v.Kind() != jsonsrc.String || !validDigest(v.Str()) {
			p.add("CONTRACT_ENVELOPE_TYPE", v.Span(), "\"pack\" must be \"sha256:\" followed by 64 lowercase hexadecimal digits")
		}
	}
	if m := root.Member("answers"); m != nil {
		a.AnswersKey = m
		if p.isMap(m.Value, "CONTRACT_ENVELOPE_TYPE", "\"answers\"") {
			for _, am := range m.Value.Members() {
				if isAnnotation(am.Key) || am.Value == nil {
					continue
				}
				ans := &Answer{Question: Name{Text: am.Key, Span: am.KeySpan()}, Value: am.Value}
				if am.Value.Kind() == jsonsrc.String {
					ans.Option, ans.IsString = am.Value.Str(), true
				}
				a.Answers = append(a.Answers, ans)
			}
		}
	}
	if m := root.Member("values"); m != nil {
		a.ValuesKey = m
		if p.isMap(m.Value, "CONTRACT_ENVELOPE_TYPE", "\"values\"") {
			for _, vm := range m.Value.Members() {
				if isAnnotation(vm.Key) || vm.Value == nil {
					continue
				}
				a.Supplied = append(a.Supplied, &Supplied{Name: Name{Text: vm.Key, Span: vm.KeySpan()}, Value: vm.Value})
			}
		}
	}
	if m := root.Member("rows"); m != nil {
		a.RowsKey = m
		if p.isMap(m.Value, "CONTRACT_ROWS_SHAPE", "\"rows\"") {
			p.rows(m.Value)
		}
	}
	if v := root.Get("verification"); p.isMap(v, "CONTRACT_ENVELOPE_TYPE", "\"verification\"") {
		p.verification(v)
	}
}

func validDigest(s string) bool {
	hex, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func (p *parser) questions(v *jsonsrc.Value) {
	for _, m := range v.Members() {
		if isAnnotation(m.Key) || m.Value == nil {
			continue
		}
		q := &Question{Name: Name{Text: m.Key, Span: m.KeySpan()}, Value: m.Value}
		p.a.Questions = append(p.a.Questions, q)
		p.name(q.Name, "the question id")
		what := func() string { return "question " + strconv.Quote(q.Name.Text) }
		if !p.isMapOf(m.Value, "CONTRACT_ENVELOPE_TYPE", what) {
			continue
		}
		p.closedOf(m.Value, m.KeySpan(), what, []string{"asks", "options"}, "rationale", "guidance", "when", "otherwise")
		q.Asks = m.Value.Get("asks")
		p.nonEmptyStringOf(q.Asks, func() string { return "\"asks\" of " + what() })
		p.isStringOf(m.Value.Get("rationale"), func() string { return "\"rationale\" of " + what() })
		p.isStringOf(m.Value.Get("guidance"), func() string { return "\"guidance\" of " + what() })
		q.Otherwise = m.Value.Get("otherwise")
		if w := m.Value.Get("when"); w != nil {
			q.When = ParseCondition(w)
		}
		if om := m.Value.Member("options"); om != nil && p.isMapOf(om.Value, "CONTRACT_ENVELOPE_TYPE", func() string { return "\"options\" of " + what() }) {
			n := 0
			for _, o := range om.Value.Members() {
				if isAnnotation(o.Key) || o.Value == nil {
					continue
				}
				n++
				opt := &Option{Name: Name{Text: o.Key, Span: o.KeySpan()}, Value: o.Value}
				q.Options = append(q.Options, opt)
				p.name(opt.Name, "the option id")
				if len(o.Key) > 64 {
					p.add("CONTRACT_NAME_GRAMMAR", o.KeySpan(), "the option id "+strconv.Quote(o.Key)+" is longer than 64 characters")
				}
				ow := func() string { return "option " + strconv.Quote(o.Key) + " of " + what() }
				if !p.isMapOf(o.Value, "CONTRACT_ENVELOPE_TYPE", ow) {
					continue
				}
				p.closedOf(o.Value, o.KeySpan(), ow, []string{"meaning"}, "semantics", "rationale")
				opt.Meaning = o.Value.Get("meaning")
				p.nonEmptyStringOf(opt.Meaning, func() string { return "\"meaning\" of " + ow() })
				p.isStringOf(o.Value.Get("semantics"), func() string { return "\"semantics\" of " + ow() })
				p.isStringOf(o.Value.Get("rationale"), func() string { return "\"rationale\" of " + ow() })
			}
			if n == 0 {
				p.add("CONTRACT_ENVELOPE_TYPE", om.Value.Span(), "\"options\" of "+what()+" must hold at least one option")
			}
		}
	}
}

func (p *parser) declares(v *jsonsrc.Value) {
	p.closed(v, p.a.DeclaresKey.KeySpan(), "\"declares\"", nil, "values", "rows")
	if vals := v.Get("values"); p.isMap(vals, "CONTRACT_ENVELOPE_TYPE", "\"declares.values\"") {
		for _, m := range vals.Members() {
			if isAnnotation(m.Key) || m.Value == nil {
				continue
			}
			p.declaration(m)
		}
	}
	if rows := v.Get("rows"); p.isMap(rows, "CONTRACT_ENVELOPE_TYPE", "\"declares.rows\"") {
		for _, m := range rows.Members() {
			if isAnnotation(m.Key) || m.Value == nil {
				continue
			}
			p.rowSet(m)
		}
	}
}

func (p *parser) declaration(m jsonsrc.Member) {
	d := &Declaration{Name: Name{Text: m.Key, Span: m.KeySpan()}, Value: m.Value, AcceptsNumber: true}
	p.a.Values = append(p.a.Values, d)
	switch {
	case !source.IsKebab(m.Key):
		p.name(d.Name, "the value name")
	case m.Key[0] < 'a' || m.Key[0] > 'z':
		p.add("CONTRACT_NAME_GRAMMAR", m.KeySpan(), "the value name "+strconv.Quote(m.Key)+" must begin with a lowercase letter")
	case m.Key == "and" || m.Key == "or" || m.Key == "not":
		p.add("CONTRACT_NAME_GRAMMAR", m.KeySpan(), "the value name "+strconv.Quote(m.Key)+" is a reserved word of the rule grammar; choose another name")
	}
	what := func() string { return "value declaration " + strconv.Quote(m.Key) }
	if !p.isMapOf(m.Value, "CONTRACT_ENVELOPE_TYPE", what) {
		return
	}
	p.closedOf(m.Value, m.KeySpan(), what, []string{"description"}, "range", "forms", "when")
	d.Description = m.Value.Get("description")
	p.nonEmptyStringOf(d.Description, func() string { return "\"description\" of " + what() })
	if r := m.Value.Get("range"); r != nil {
		d.Range = r
		switch {
		case r.Kind() != jsonsrc.Array || len(r.Elems()) != 2 || !r.Elems()[0].Finite() || !r.Elems()[1].Finite():
			p.add("CONTRACT_VALUE_RANGE", r.Span(), "\"range\" of "+what()+" must be [minimum, maximum]: two finite numbers")
		case r.Elems()[0].Num() > r.Elems()[1].Num():
			p.add("CONTRACT_VALUE_RANGE", r.Span(), "\"range\" of "+what()+" has its minimum "+r.Elems()[0].Raw()+" above its maximum "+r.Elems()[1].Raw())
		default:
			d.HasRange, d.Min, d.Max = true, r.Elems()[0].Num(), r.Elems()[1].Num()
		}
	}
	if f := m.Value.Get("forms"); f != nil {
		d.Forms = f
		ok := f.Kind() == jsonsrc.Array && len(f.Elems()) > 0
		num, cit := false, false
		if ok {
			for _, e := range f.Elems() {
				switch {
				case e.Kind() == jsonsrc.String && e.Str() == "number":
					num = true
				case e.Kind() == jsonsrc.String && e.Str() == "citation":
					cit = true
				default:
					ok = false
				}
			}
		}
		if !ok {
			p.add("CONTRACT_VALUE_FORM", f.Span(), "\"forms\" of "+what()+" must be a non-empty array of \"number\", \"citation\" or both")
		} else {
			d.AcceptsNumber, d.AcceptsCitation = num, cit
		}
	}
	if w := m.Value.Get("when"); w != nil {
		d.When = ParseCondition(w)
	}
}

func (p *parser) rowSet(m jsonsrc.Member) {
	s := &RowSet{Name: Name{Text: m.Key, Span: m.KeySpan()}, Value: m.Value}
	p.a.RowSets = append(p.a.RowSets, s)
	p.name(s.Name, "the row-set name")
	what := func() string { return "row set " + strconv.Quote(m.Key) }
	if !p.isMapOf(m.Value, "CONTRACT_ENVELOPE_TYPE", what) {
		return
	}
	p.closedOf(m.Value, m.KeySpan(), what, []string{"record"}, "description", "when-empty")
	s.Description = m.Value.Get("description")
	p.isStringOf(s.Description, func() string { return "\"description\" of " + what() })
	s.WhenEmpty = m.Value.Get("when-empty")
	rec := m.Value.Get("record")
	s.Record = rec
	if !p.isMapOf(rec, "CONTRACT_ENVELOPE_TYPE", func() string { return "\"record\" of " + what() }) {
		return
	}
	for _, fm := range rec.Members() {
		if isAnnotation(fm.Key) || fm.Value == nil {
			continue
		}
		s.Fields = append(s.Fields, p.field(s, fm))
	}
}

var fieldTypes = map[string]bool{TypeNumber: true, TypeInteger: true, TypeString: true, TypeCitation: true}

func (p *parser) field(s *RowSet, m jsonsrc.Member) *Field {
	f := &Field{Name: Name{Text: m.Key, Span: m.KeySpan()}, Value: m.Value}
	p.name(f.Name, "the record field name")
	what := func() string { return "field " + strconv.Quote(m.Key) + " of row set " + strconv.Quote(s.Name.Text) }
	if !p.isMapOf(m.Value, "CONTRACT_ENVELOPE_TYPE", what) {
		return f
	}
	v := m.Value
	p.closedOf(v, m.KeySpan(), what, []string{"type"}, "required", "when", "options", "pattern", "unique", "description", "within")
	if t := v.Get("type"); t != nil {
		f.TypeValue = t
		if t.Kind() == jsonsrc.String && fieldTypes[t.Str()] {
			f.Type = t.Str()
		} else if t.Kind() == jsonsrc.String {
			p.add("CONTRACT_ENVELOPE_TYPE", t.Span(), "unknown field type "+strconv.Quote(t.Str())+"; a contract field is number, integer, string or citation"+
				suggest(t.Str(), []string{TypeNumber, TypeInteger, TypeString, TypeCitation}))
		} else {
			p.add("CONTRACT_ENVELOPE_TYPE", t.Span(), "\"type\" of "+what()+" must be a string, not "+t.Describe())
		}
	}
	if r := v.Get("required"); r != nil {
		f.RequiredValue = r
		p.isBoolOf(r, func() string { return "\"required\" of " + what() })
		f.Required = r.Kind() == jsonsrc.Bool && r.Bool()
	}
	if u := v.Get("unique"); u != nil {
		f.UniqueValue = u
		p.isBoolOf(u, func() string { return "\"unique\" of " + what() })
		f.Unique = u.Kind() == jsonsrc.Bool && u.Bool()
	}
	f.Description = v.Get("description")
	p.isStringOf(f.Description, func() string { return "\"description\" of " + what() })
	if w := v.Member("when"); w != nil {
		f.When = ParseCondition(w.Value)
		if r := v.Member("required"); r != nil {
			p.add("CONTRACT_ROW_FIELD_SHAPE", r.KeySpan(), what()+" carries both \"required\" and \"when\"; keep one of them")
		}
	}
	if o := v.Member("options"); o != nil {
		f.OptionsValue = o.Value
		if f.Type != "" && f.Type != TypeString {
			p.add("CONTRACT_ROW_FIELD_SHAPE", o.KeySpan(), "\"options\" is allowed only on a string field; "+what()+" is "+f.Type)
		}
		if o.Value == nil || o.Value.Kind() != jsonsrc.Array || len(o.Value.Elems()) == 0 {
			p.add("CONTRACT_ROW_FIELD_SHAPE", valueSpan(o), "\"options\" of "+what()+" must be a non-empty array of kebab-case strings")
		} else {
			for _, e := range o.Value.Elems() {
				if e.Kind() != jsonsrc.String {
					p.add("CONTRACT_NAME_GRAMMAR", e.Span(), "an entry of \"options\" must be a kebab-case string, not "+e.Describe())
					continue
				}
				n := Name{Text: e.Str(), Span: e.Span()}
				f.Options = append(f.Options, n)
				p.name(n, "the option")
				if len(e.Str()) > 64 {
					p.add("CONTRACT_NAME_GRAMMAR", e.Span(), "the option "+strconv.Quote(e.Str())+" is longer than 64 characters")
				}
			}
		}
	}
	if pt := v.Member("pattern"); pt != nil {
		f.Pattern = pt.Value
		if f.Type != "" && f.Type != TypeString {
			p.add("CONTRACT_ROW_FIELD_SHAPE", pt.KeySpan(), "\"pattern\" is allowed only on a string field; "+what()+" is "+f.Type)
		}
		if pt.Value == nil || pt.Value.Kind() != jsonsrc.String || pt.Value.Str() != "kebab-case" {
			p.add("CONTRACT_ROW_FIELD_SHAPE", valueSpan(pt), "the only \"pattern\" is \"kebab-case\"")
		}
	}
	if wm := v.Member("within"); wm != nil {
		f.Within = p.within(f, wm, what)
	}
	return f
}

func valueSpan(m *jsonsrc.Member) source.Span {
	if m.Value != nil {
		return m.Value.Span()
	}
	return m.KeySpan()
}

func (p *parser) within(f *Field, m *jsonsrc.Member, what func() string) *Within {
	w := &Within{Value: m.Value}
	if f.Type != "" && f.Type != TypeNumber && f.Type != TypeInteger {
		p.add("CONTRACT_ROW_FIELD_SHAPE", m.KeySpan(), "\"within\" is allowed only on a number or integer field; "+what()+" is "+f.Type)
	}
	v := m.Value
	if v == nil || v.Kind() != jsonsrc.Array || len(v.Elems()) != 2 {
		p.add("CONTRACT_ROW_FIELD_SHAPE", valueSpan(m), "\"within\" of "+what()+" must be a pair [lower, upper] of value names or finite numbers")
		return w
	}
	ok := true
	for i, e := range v.Elems() {
		b := Bound{Span: e.Span()}
		switch {
		case e.Finite():
			b.IsNum, b.Num = true, e.Num()
			if f.Type == TypeInteger && e.Num() != math.Trunc(e.Num()) {
				p.add("CONTRACT_ROW_FIELD_SHAPE", e.Span(), "a number bound of an integer field must be a whole number, not "+e.Raw())
				ok = false
			}
		case e.Kind() == jsonsrc.String && e.Str() != "":
			b.Name = e.Str()
		default:
			p.add("CONTRACT_ROW_FIELD_SHAPE", e.Span(), "a \"within\" bound must be a value name or a finite number")
			ok = false
		}
		w.Bounds[i] = b
	}
	if ok && w.Bounds[0].IsNum && w.Bounds[1].IsNum && w.Bounds[0].Num > w.Bounds[1].Num {
		p.add("CONTRACT_ROW_FIELD_SHAPE", v.Span(), "\"within\" of "+what()+" has its lower bound above its upper bound")
		ok = false
	}
	w.Valid = ok
	return w
}

func (p *parser) rules(v *jsonsrc.Value) {
	for _, m := range v.Members() {
		if isAnnotation(m.Key) || m.Value == nil {
			continue
		}
		r := &Rule{Name: Name{Text: m.Key, Span: m.KeySpan()}, Value: m.Value}
		switch m.Value.Kind() {
		case jsonsrc.String:
			r.Kind, r.Line = RuleComparison, m.Value.Str()
		case jsonsrc.Object:
			r.Kind = RuleAnswerAware
			if f := m.Value.Get("forbid"); f != nil {
				r.Forbid = ParseCondition(f)
			}
			r.Message = m.Value.Get("message")
			if s := m.Value.Get("severity"); s != nil && s.Kind() == jsonsrc.String && s.Str() == "warning" {
				r.Severity = source.Warning
			}
		}
		p.a.Rules = append(p.a.Rules, r)
	}
}

func (p *parser) rows(v *jsonsrc.Value) {
	for _, m := range v.Members() {
		if isAnnotation(m.Key) || m.Value == nil {
			continue
		}
		ra := &RowArray{Name: Name{Text: m.Key, Span: m.KeySpan()}, Value: m.Value}
		p.a.Rows = append(p.a.Rows, ra)
		// The shape of rows whose declaration is broken, or unknown
		// because declares is, is held back with that declaration's
		// finding: what the rows should be is not known.
		set := p.a.RowSet(m.Key)
		held := set == nil && p.a.RowSetsUnknown() || set != nil && set.Broken()
		if m.Value.Kind() != jsonsrc.Array {
			if !held {
				p.add("CONTRACT_ROWS_SHAPE", m.Value.Span(), "the rows of "+strconv.Quote(m.Key)+" must be an array of row objects, not "+m.Value.Describe())
			}
			continue
		}
		// The rows of a set and their fields are stored in one array
		// each, sized first: an adoption can hold thousands of rows, and
		// a server keeps every adoption's model.
		nrows, nfields := 0, 0
		for _, e := range m.Value.Elems() {
			if e.Kind() == jsonsrc.Object {
				nrows++
				nfields += len(e.Members())
			}
		}
		rows := make([]Row, 0, nrows)
		fields := make([]RowField, 0, nfields)
		ra.Rows = make([]*Row, 0, nrows)
		for i, e := range m.Value.Elems() {
			if e.Kind() != jsonsrc.Object {
				if !held {
					p.add("CONTRACT_ROWS_SHAPE", e.Span(), "each row of "+strconv.Quote(m.Key)+" must be an object, not "+e.Describe())
				}
				continue
			}
			first := len(fields)
			for _, fm := range e.Members() {
				if isAnnotation(fm.Key) || fm.Value == nil {
					continue
				}
				fields = append(fields, RowField{Name: Name{Text: fm.Key, Span: fm.KeySpan()}, Value: fm.Value})
			}
			rows = append(rows, Row{Set: m.Key, Index: i, Value: e})
			row := &rows[len(rows)-1]
			if len(fields) > first {
				// Capped, so that appending to one row's fields cannot
				// overwrite the next row's.
				row.Fields = fields[first:len(fields):len(fields)]
			}
			ra.Rows = append(ra.Rows, row)
		}
	}
}

func (p *parser) verification(v *jsonsrc.Value) {
	for _, m := range v.Members() {
		if isAnnotation(m.Key) || m.Value == nil {
			continue
		}
		p.a.Verify = append(p.a.Verify, &Verification{Template: Name{Text: m.Key, Span: m.KeySpan()}, Value: m.Value})
		what := "the verification inputs of " + strconv.Quote(m.Key)
		if !p.isMap(m.Value, "CONTRACT_ENVELOPE_TYPE", what) {
			continue
		}
		p.closed(m.Value, m.KeySpan(), what, nil, "scope", "seeds")
		p.nonEmptyString(m.Value.Get("scope"), "\"scope\"")
		if s := m.Value.Get("seeds"); s != nil {
			if s.Kind() != jsonsrc.Array || len(s.Elems()) == 0 {
				p.add("CONTRACT_ENVELOPE_TYPE", s.Span(), "\"seeds\" must be a non-empty array of non-empty strings")
			} else {
				for _, e := range s.Elems() {
					p.nonEmptyString(e, "a seed")
				}
			}
		}
	}
}
