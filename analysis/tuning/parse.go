package tuning

import (
	"fmt"
	"sort"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/ruleline"
	"github.com/gddls/gddls/contracts/source"
)

// builder holds the state of one Parse.
type builder struct {
	f     *File
	data  []byte
	quiet bool // the file is not readable: fill the model, report nothing more
}

func (b *builder) report(code string, sev source.Severity, span source.Span, msg string, related ...source.Related) {
	if b.quiet {
		return
	}
	b.f.Findings = append(b.f.Findings, source.Finding{
		Code: code, Severity: sev, File: b.f.Name, Span: span, Message: msg, Related: related,
	})
}

// Parse reads tuning.json and checks it by itself. file names the file in
// findings. Parse never fails: every problem is a finding.
func Parse(file string, data []byte) *File {
	f := &File{
		Name:   file,
		Ranges: map[string]*RangeEntry{},
		values: map[string]*Entry{},
		open:   map[string]*Entry{},
	}
	b := &builder{f: f, data: data}
	root, errs := jsonsrc.Parse(data)
	if len(errs) > 0 {
		for _, e := range errs {
			b.report(CodeJSON, source.Error, e.Span, "tuning.json is not valid JSON: "+e.Msg)
		}
		b.quiet = true
	}
	if !b.quiet {
		f.Findings = append(f.Findings, schemaFindings(file, root)...)
	}
	if root == nil || root.Kind() != jsonsrc.Object {
		if root != nil {
			b.report(CodeShape, source.Error, root.Span(), fmt.Sprintf("the top level of tuning.json is %s; it must be one object with a values field", root.Describe()))
		}
		return f
	}
	f.Readable = !b.quiet
	b.shape(root)
	values := object(root.Get("values"))
	f.HasValues = values != nil
	open := object(root.Get("open"))
	ranges := object(root.Get("ranges"))
	rules := object(root.Get("rules"))
	b.values(values)
	b.openTable(open)
	b.ranges(ranges)
	sort.SliceStable(f.Entries, func(i, j int) bool { return f.Entries[i].KeySpan.Start < f.Entries[j].KeySpan.Start })
	b.rules(rules)
	sort.SliceStable(f.Findings, func(i, j int) bool { return f.Findings[i].Span.Start < f.Findings[j].Span.Start })
	return f
}

// object returns v when it is an object, else nil.
func object(v *jsonsrc.Value) *jsonsrc.Value {
	if v != nil && v.Kind() == jsonsrc.Object {
		return v
	}
	return nil
}

// effective returns the members of obj that are not overridden by a later
// member with the same key, in source order. Members without a value (in a
// truncated file) are left out.
func effective(obj *jsonsrc.Value) []jsonsrc.Member {
	var out []jsonsrc.Member
	for _, m := range obj.LastMembers() {
		if m.Value != nil {
			out = append(out, m)
		}
	}
	return out
}

// topLevelHints says where the fields of older drafts went.
func topLevelHint(key string) string {
	switch key {
	case "tunables", "constants":
		return "; this older field is gone: move its keys into values (`gddls migrate` does this)"
	case "invariants":
		return "; this older field is gone: write each expression as an entry of rules (`gddls migrate` does this)"
	case "meta":
		return "; this older field is gone: move each range into ranges (`gddls migrate` does this)"
	case "clocks":
		return "; clocks belong in clocks.json at the package root (`gddls migrate` moves them)"
	}
	return ""
}

// shape checks the top-level fields (TUNING_SHAPE).
func (b *builder) shape(root *jsonsrc.Value) {
	for _, m := range root.Members() {
		switch m.Key {
		case "values", "open", "ranges", "rules":
		default:
			b.report(CodeShape, source.Error, m.KeySpan(), fmt.Sprintf("tuning.json has no field %q; its fields are values, open, ranges and rules%s", m.Key, topLevelHint(m.Key)))
		}
	}
	values := root.Member("values")
	switch {
	case values == nil:
		b.report(CodeShape, source.Error, source.Span{Start: root.Span().Start, End: root.Span().Start + 1}, `tuning.json has no values field; add "values": {} with the package's decided numbers`)
	case values.Value != nil && values.Value.Kind() != jsonsrc.Object:
		b.report(CodeShape, source.Error, values.Value.Span(), fmt.Sprintf("values is %s; it must be an object from tuning keys to numbers", values.Value.Describe()))
	}
	for _, name := range []string{"open", "ranges", "rules"} {
		m := root.Member(name)
		if m == nil || m.Value == nil || m.Value.Kind() == jsonsrc.Object {
			continue
		}
		b.report(CodeShape, source.Error, m.Value.Span(), fmt.Sprintf("%s is %s; when present it must be an object", name, m.Value.Describe()))
	}
}

// key checks one key of values, open or ranges (TUNING_KEY,
// TUNING_KEY_RESERVED).
func (b *builder) key(role string, m jsonsrc.Member) {
	if problem := keyShapeProblem(m.Key); problem != "" {
		b.report(CodeKey, source.Error, m.KeySpan(), fmt.Sprintf("%s key %s", role, problem))
		return
	}
	for _, msg := range reservedMessages(role, m.Key) {
		b.report(CodeKeyReserved, source.Error, m.KeySpan(), msg)
	}
}

// values reads the values table (TUNING_KEY*, TUNING_NUMBER).
func (b *builder) values(values *jsonsrc.Value) {
	for _, m := range effective(values) {
		b.key("values", m)
		e := &Entry{Key: m.Key, KeySpan: m.KeySpan(), ValueSpan: m.Value.Span()}
		if m.Value.Finite() {
			e.HasNumber, e.Number = true, m.Value.Num()
		} else {
			hint := "write a finite JSON number"
			if m.Value.Kind() == jsonsrc.Null {
				hint = "write a number, or move the key to open if the package has not decided it"
			} else if m.Value.Kind() == jsonsrc.String {
				hint = "write the number without quotes"
			}
			e.bad = true
			b.report(CodeNumber, source.Error, m.Value.Span(), fmt.Sprintf("values entry %q is %s; %s", m.Key, m.Value.Describe(), hint))
		}
		b.f.Entries = append(b.f.Entries, e)
		b.f.values[m.Key] = e
	}
}

// openTable reads the open table (TUNING_KEY*, TUNING_OPEN_OVERLAP,
// TUNING_NUMBER), after the values table.
func (b *builder) openTable(open *jsonsrc.Value) {
	for _, m := range effective(open) {
		b.key("open", m)
		if vm := b.f.values[m.Key]; vm != nil {
			b.report(CodeOpenOverlap, source.Error, m.KeySpan(),
				fmt.Sprintf("%q is in both values and open; a number is either decided or open, so remove one of the two", m.Key),
				source.Related{File: b.f.Name, Span: vm.KeySpan, Message: "the same key in values"})
		}
		e := &Entry{Key: m.Key, KeySpan: m.KeySpan(), ValueSpan: m.Value.Span(), Open: true}
		switch {
		case m.Value.Finite():
			e.HasNumber, e.Number = true, m.Value.Num()
		case m.Value.Kind() == jsonsrc.Null:
		default:
			e.bad = true
			b.report(CodeNumber, source.Error, m.Value.Span(), fmt.Sprintf("open entry %q is %s; write a finite JSON number as the guess, or null for no guess", m.Key, m.Value.Describe()))
		}
		b.f.Entries = append(b.f.Entries, e)
		b.f.open[m.Key] = e
	}
}

// ranges reads the ranges table (TUNING_KEY*, TUNING_RANGE_KEY,
// TUNING_RANGE, TUNING_RANGE_VALUE), after the values and open tables.
func (b *builder) ranges(ranges *jsonsrc.Value) {
	for _, m := range effective(ranges) {
		b.key("ranges", m)
		r := &RangeEntry{Key: m.Key, KeySpan: m.KeySpan(), ValueSpan: m.Value.Span()}
		b.f.Ranges[m.Key] = r
		if b.f.values[m.Key] == nil && b.f.open[m.Key] == nil {
			b.report(CodeRangeKey, source.Error, m.KeySpan(), fmt.Sprintf("ranges key %q is in neither values nor open; add the number there or remove the range", m.Key))
		}
		v := m.Value
		if v.Kind() != jsonsrc.Array || len(v.Elems()) != 2 {
			what := v.Describe()
			if v.Kind() == jsonsrc.Array {
				what = fmt.Sprintf("an array of %d elements", len(v.Elems()))
				if len(v.Elems()) == 1 {
					what = "an array of one element"
				}
			}
			b.report(CodeRange, source.Error, v.Span(), fmt.Sprintf("range of %q is %s; write [minimum, maximum] with two finite numbers", m.Key, what))
			continue
		}
		bad := false
		for i, el := range v.Elems() {
			if el == nil || !el.Finite() {
				bad = true
				if el != nil {
					b.report(CodeRange, source.Error, el.Span(), fmt.Sprintf("the %s of the range of %q is %s; it must be a finite number", [2]string{"minimum", "maximum"}[i], m.Key, el.Describe()))
				}
			}
		}
		if bad {
			continue
		}
		lo, hi := v.Elems()[0].Num(), v.Elems()[1].Num()
		if lo > hi {
			b.report(CodeRange, source.Error, v.Span(), fmt.Sprintf("range of %q has minimum %s above maximum %s; swap them", m.Key, ruleline.FormatNumber(lo), ruleline.FormatNumber(hi)))
			continue
		}
		r.Valid, r.Min, r.Max = true, lo, hi
		e, ok := b.f.values[m.Key]
		if !ok {
			e, ok = b.f.open[m.Key]
		}
		if !ok {
			continue
		}
		e.Range = &[2]float64{lo, hi}
		if e.HasNumber && (e.Number < lo || e.Number > hi) {
			what := "values number"
			if e.Open {
				what = "open guess"
			}
			b.report(CodeRangeValue, source.Error, e.ValueSpan,
				fmt.Sprintf("%s %q is %s, outside its range [%s, %s]; change the number or widen the range", what, e.Key, ruleline.FormatNumber(e.Number), ruleline.FormatNumber(lo), ruleline.FormatNumber(hi)),
				source.Related{File: b.f.Name, Span: v.Span(), Message: "the range of " + e.Key})
		}
	}
}
