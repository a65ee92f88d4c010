package contracts

import (
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// resolve resolves the supplied value name (SPEC §10.4 rule 6, §10.10) and
// memoises the result. A value citation fault is kept in the resolution
// for Check to report.
func (s *State) resolve(name string) *resolution {
	if r := s.values[name]; r != nil {
		return r
	}
	r := &resolution{visiting: true}
	s.values[name] = r
	defer func() { r.visiting, r.done = false, true }()
	d := s.a.Declaration(name)
	sup := s.a.SuppliedValue(name)
	if d == nil || sup == nil || sup.Value == nil {
		return r
	}
	v := sup.Value
	if v.Finite() {
		if d.AcceptsNumber {
			r.num, r.ok = v.Num(), true
		}
		return r
	}
	if v.Kind() != jsonsrc.String || !d.AcceptsCitation {
		return r
	}
	s.path = append(s.path, name)
	num, ok, fault := s.valueCitation(sup)
	s.path = s.path[:len(s.path)-1]
	if s.inCycle[name] {
		num, ok = 0, false
		fault = s.finding("CONTRACT_CITATION_CYCLE", v.Span(), "the citation of value "+strconv.Quote(name)+
			" leads back to itself through "+strings.Join(s.cycleOf[name], " -> ")+"; cite a number or a tuning key somewhere in the chain")
	}
	r.num, r.ok, r.fault = num, ok, fault
	return r
}

func (s *State) finding(code string, span source.Span, msg string) *source.Finding {
	return &source.Finding{Code: code, Severity: source.Error, File: s.a.File, Span: span, Message: msg}
}

// valueCitation resolves one value citation.
func (s *State) valueCitation(sup *Supplied) (float64, bool, *source.Finding) {
	text, span := sup.Value.Str(), sup.Value.Span()
	who := "value " + strconv.Quote(sup.Name.Text)
	switch {
	case strings.TrimSpace(text) == "":
		return 0, false, s.finding("CONTRACT_CITATION_GRAMMAR", span, who+" is an empty citation; cite a tuning key or contracts."+s.a.ID+".<value>")
	case strings.Contains(text, ":"):
		return 0, false, s.finding("CONTRACT_CITATION_GRAMMAR", span, who+" cites "+strconv.Quote(text)+", which holds a colon; a citation is a bare dotted address")
	case strings.Contains(text, "#"):
		return 0, false, s.finding("CONTRACT_CITATION_GRAMMAR", span, who+" cites a chapter anchor; a value citation names a tuning key or contracts."+s.a.ID+".<value>")
	}
	if text == "contracts" || strings.HasPrefix(text, "contracts.") {
		segs := strings.Split(text, ".")
		if len(segs) != 3 || segs[1] == "" || segs[2] == "" {
			return 0, false, s.finding("CONTRACT_CITATION_GRAMMAR", span, who+" cites "+strconv.Quote(text)+
				"; a contract value citation has exactly three segments: contracts.<adoption>.<value>")
		}
		if segs[1] != s.a.ID {
			return 0, false, s.finding("CONTRACT_CITATION_CROSS_ADOPTION", span, who+" cites adoption "+strconv.Quote(segs[1])+
				"; a value citation may only cite a value of this adoption ("+s.a.ID+") or a tuning key")
		}
		target := segs[2]
		d := s.a.Declaration(target)
		if d == nil {
			return 0, false, s.finding("CONTRACT_CITATION_DANGLING", span, who+" cites "+strconv.Quote(target)+
				", which this adoption does not declare"+suggest(target, s.a.ValueNames()))
		}
		if !s.active[target] {
			return 0, false, s.finding("CONTRACT_CITATION_DANGLING", span, who+" cites "+strconv.Quote(target)+
				", whose declaration is not active in this adoption")
		}
		tsup := s.a.SuppliedValue(target)
		if tsup == nil {
			f := s.finding("CONTRACT_CITATION_DANGLING", span, who+" cites "+strconv.Quote(target)+", which has no value yet; supply it under \"values\"")
			f.Dependent = true
			return 0, false, f
		}
		if tr := s.values[target]; tr != nil && tr.visiting {
			s.markCycle(target)
			return 0, false, nil
		}
		tr := s.resolve(target)
		if tr.ok {
			return tr.num, true, nil
		}
		tv := tsup.Value
		if tv.Kind() != jsonsrc.String && !tv.Finite() {
			return 0, false, s.finding("CONTRACT_CITATION_NON_NUMERIC", span, who+" cites "+strconv.Quote(target)+", which holds "+tv.Describe()+", not a number")
		}
		return 0, false, nil
	}
	if p := tuningKeyProblem(text); p != "" {
		return 0, false, s.finding("CONTRACT_CITATION_GRAMMAR", span, who+" cites "+strconv.Quote(text)+": "+p+
			"; a value citation names a tuning key or contracts."+s.a.ID+".<value>")
	}
	if s.r == nil || !s.r.TuningReadable() {
		return 0, false, nil
	}
	t, ok := s.r.TuningKey(text)
	if !ok {
		return 0, false, s.finding("CONTRACT_CITATION_DANGLING", span, who+" cites "+strconv.Quote(text)+", which is not a key of tuning.json")
	}
	if t.Open {
		f := s.finding("CONTRACT_CITATION_OPEN", span, who+" cites "+strconv.Quote(text)+", an open number; contracts may cite decided tuning values only")
		f.Related = []source.Related{t.Related}
		return 0, false, f
	}
	if !t.HasNumber {
		f := s.finding("CONTRACT_CITATION_NON_NUMERIC", span, who+" cites "+strconv.Quote(text)+", which does not hold a number")
		f.Related = []source.Related{t.Related}
		return 0, false, f
	}
	return t.Number, true, nil
}

// markCycle records that the values on the resolution path from target to
// its end form a cycle.
func (s *State) markCycle(target string) {
	idx := -1
	for i, n := range s.path {
		if n == target {
			idx = i
			break
		}
	}
	if idx < 0 {
		return
	}
	members := append([]string{}, s.path[idx:]...)
	for i, m := range members {
		s.inCycle[m] = true
		chain := append(append([]string{}, members[i:]...), members[:i]...)
		s.cycleOf[m] = append(chain, m)
	}
}

// rowCitation checks one row citation (SPEC §10.10) held by field and
// reports what is wrong with it.
func (c *checker) rowCitation(v *jsonsrc.Value, field string) {
	text, span := v.Str(), v.Span()
	// The name is quoted for a finding alone: most citations have none.
	who := func() string { return "field " + strconv.Quote(field) }
	switch {
	case strings.TrimSpace(text) == "":
		c.add("CONTRACT_CITATION_GRAMMAR", span, who()+" is an empty citation; cite a tuning key, a contract address or <file>.md#<anchor>")
		return
	case strings.Contains(text, ":"):
		c.add("CONTRACT_CITATION_GRAMMAR", span, who()+" cites "+strconv.Quote(text)+", which holds a colon; a citation is a bare address")
		return
	}
	if file, anchor, ok := strings.Cut(text, "#"); ok {
		if !strings.HasSuffix(file, ".md") || len(file) <= len(".md") || anchor == "" || strings.ContainsAny(anchor, "# \t") || strings.ContainsAny(file, " \t") {
			c.add("CONTRACT_CITATION_GRAMMAR", span, who()+" cites "+strconv.Quote(text)+"; a chapter citation is <file>.md#<anchor>")
			return
		}
		if c.r == nil {
			return
		}
		t := c.r.Anchor(file, anchor)
		switch {
		case t.Unreadable:
			// The chapter's own finding says it could not be read.
		case t.Outside:
			c.add("CONTRACT_CITATION_DANGLING", span, who()+" cites "+strconv.Quote(file)+", which is outside the package")
		case !t.FileExists && t.CaseName != "":
			c.add("CONTRACT_CITATION_DANGLING", span, who()+" cites "+source.CaseMismatch(file, t.CaseName))
		case !t.FileExists:
			c.add("CONTRACT_CITATION_DANGLING", span, who()+" cites "+strconv.Quote(file)+", which is not a file of the package")
		case len(t.Matches) == 0:
			c.add("CONTRACT_CITATION_DANGLING", span, who()+" cites #"+anchor+", which matches no heading of "+file)
		case len(t.Matches) > 1:
			f := c.add("CONTRACT_CITATION_AMBIGUOUS", span, who()+" cites #"+anchor+", which matches "+strconv.Itoa(len(t.Matches))+
				" headings of "+file+"; make the heading texts differ")
			f.Related = append(f.Related, t.Matches...)
		case !t.Fixed:
			f := c.add("CONTRACT_CITATION_AUTHORITY", span, who()+" cites #"+anchor+" in "+file+
				", a section that is not Fixed; a contract may cite Fixed material only")
			if t.NotFixedBecause != nil {
				f.Related = append(f.Related, *t.NotFixedBecause)
			}
		}
		return
	}
	if text == "contracts" || strings.HasPrefix(text, "contracts.") {
		segs := strings.Split(text, ".")
		if len(segs) < 2 || len(segs) > 3 || segs[1] == "" || (len(segs) == 3 && segs[2] == "") {
			c.add("CONTRACT_CITATION_GRAMMAR", span, who()+" cites "+strconv.Quote(text)+"; a contract address is contracts.<adoption> or contracts.<adoption>.<value>")
			return
		}
		var st *State
		if segs[1] == c.a.ID {
			st = c.s
		} else {
			if c.r == nil {
				return
			}
			other := c.r.Adoption(segs[1])
			if other == nil {
				c.add("CONTRACT_CITATION_DANGLING", span, who()+" cites adoption "+strconv.Quote(segs[1])+", which the package does not hold")
				return
			}
			if other.ParseError != nil {
				return // its syntax error is reported; nothing is read from it
			}
			st = c.other[segs[1]]
			if st == nil {
				st = Evaluate(other, nil)
				c.other[segs[1]] = st
			}
		}
		if len(segs) == 3 {
			oa := st.a
			switch {
			case oa.Declaration(segs[2]) == nil:
				c.add("CONTRACT_CITATION_DANGLING", span, who()+" cites "+strconv.Quote(segs[2])+", which adoption "+strconv.Quote(segs[1])+
					" does not declare"+suggest(segs[2], oa.ValueNames()))
			case !st.Active(segs[2]):
				c.add("CONTRACT_CITATION_DANGLING", span, who()+" cites "+strconv.Quote(segs[2])+", whose declaration is not active in adoption "+strconv.Quote(segs[1]))
			case oa.SuppliedValue(segs[2]) == nil:
				f := c.add("CONTRACT_CITATION_DANGLING", span, who()+" cites "+strconv.Quote(segs[2])+", which adoption "+strconv.Quote(segs[1])+" does not supply")
				f.Dependent = oa == c.a
			}
		}
		return
	}
	if p := tuningKeyProblem(text); p != "" {
		c.add("CONTRACT_CITATION_GRAMMAR", span, who()+" cites "+strconv.Quote(text)+": "+p)
		return
	}
	if c.r == nil || !c.r.TuningReadable() {
		return
	}
	t, ok := c.r.TuningKey(text)
	if !ok {
		c.add("CONTRACT_CITATION_DANGLING", span, who()+" cites "+strconv.Quote(text)+", which is not a key of tuning.json")
		return
	}
	if t.Open {
		f := c.add("CONTRACT_CITATION_OPEN", span, who()+" cites "+strconv.Quote(text)+", an open number; contracts may cite decided tuning values only")
		f.Related = []source.Related{t.Related}
	}
}
