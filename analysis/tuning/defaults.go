package tuning

import (
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// assignment is the number a default answer of personalization.json gives
// a tuning key.
type assignment struct {
	value    float64
	question string      // the id of the question whose default sets it
	option   string      // the id of the default option of a choice question
	file     string      // personalization.json, for related information
	span     source.Span // the number in the file
}

// packageDefaults applies the default of every question of
// personalization.json in question order (SPEC §4 "Package defaults", §5
// "The resolved tuning snapshot") and returns the keys whose number then
// differs from the authored environment: an open key a default sets, or a
// ranged values key a default sets to another number. An empty result
// means the two environments are the same.
//
// An assignment that §5 forbids is left out, because its own
// PERSONALIZATION_* finding covers it: a key that is neither a ranged values
// key nor an open key, or a number outside the key's range. A file that
// did not parse completely gives no defaults.
func (f *File) packageDefaults(p *jsonsrc.Value, file string) map[string]assignment {
	if !readable(p) {
		return nil
	}
	qs := p.Get("questions")
	if qs == nil || qs.Kind != jsonsrc.Array {
		return nil
	}
	set := map[string]assignment{}
	assign := func(key string, v *jsonsrc.Value, question, option string) {
		if v == nil || !v.Finite() || !f.settable(key, v.Num) {
			return
		}
		set[key] = assignment{value: v.Num, question: question, option: option, file: file, span: v.Span}
	}
	for _, q := range qs.Elems {
		if q == nil || q.Kind != jsonsrc.Object {
			continue
		}
		id := ""
		if v := q.Get("id"); v != nil && v.Kind == jsonsrc.String {
			id = v.Str
		}
		typ, def := q.Get("type"), q.Get("default")
		if typ == nil || typ.Kind != jsonsrc.String || def == nil {
			continue
		}
		switch typ.Str {
		case "choice":
			if def.Kind != jsonsrc.String {
				continue
			}
			opt := option(q.Get("options"), def.Str)
			sets := opt.Get("sets")
			if sets == nil || sets.Kind != jsonsrc.Object {
				continue
			}
			for _, m := range effective(sets) {
				assign(m.Key, m.Value, id, def.Str)
			}
		case "number":
			if key := q.Get("sets"); key != nil && key.Kind == jsonsrc.String {
				assign(key.Str, def, id, "")
			}
		}
	}
	for key, a := range set {
		if v, ok := f.Decided(key); ok && v == a.value {
			delete(set, key)
		}
	}
	return set
}

// option returns the first option of a choice question with the given id,
// or nil.
func option(options *jsonsrc.Value, id string) *jsonsrc.Value {
	if options == nil || options.Kind != jsonsrc.Array {
		return nil
	}
	for _, o := range options.Elems {
		if v := o.Get("id"); v != nil && v.Kind == jsonsrc.String && v.Str == id {
			return o
		}
	}
	return nil
}

// settable reports whether a personalization answer may set key to v: the
// key is a values key with a range, or an open key, and v is inside the
// key's range when it has one (SPEC §5, "Choice answers" and "Numeric
// answers").
func (f *File) settable(key string, v float64) bool {
	e, ok := f.values[key]
	if ok {
		if e.Range == nil {
			return false
		}
	} else if e, ok = f.open[key]; !ok {
		return false
	}
	return e.Range == nil || v >= e.Range[0] && v <= e.Range[1]
}
