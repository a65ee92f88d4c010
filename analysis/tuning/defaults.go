package tuning

import (
	"strings"

	"github.com/gddls/gddls/analysis/personalization"
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
// PERSONALIZATION_SETS_* finding covers it: a key that SetsTarget does not
// call Settable, or a number outside the key's range. A file that did not
// parse completely gives no defaults.
func (f *File) packageDefaults(p *personalization.File) map[string]assignment {
	if p == nil || !readable(p.Root) {
		return nil
	}
	set := map[string]assignment{}
	for _, d := range p.Defaults() {
		if e, s := f.SetsTarget(d.Key); s != Settable || !e.Admits(d.Value) {
			continue
		}
		a := assignment{value: d.Value, question: d.Question.ID, file: p.Name, span: d.ValueSpan}
		if d.Option != nil {
			a.option = d.Option.ID
		}
		set[d.Key] = a
	}
	for key, a := range set {
		if v, ok := f.Decided(key); ok && v == a.value {
			delete(set, key)
		}
	}
	return set
}

// Settability says whether a personalization answer may set a tuning key
// (SPEC §5 rule 7, "Choice answers" rule 1, "Numeric answers" rule 1).
type Settability uint8

// The answers of SetsTarget.
const (
	// Settable is a ranged values key or an open key.
	Settable Settability = iota
	// ContractValue is a contract value, contracts.<adoption>.<value>: a
	// contract's values are fixed in its adoption.
	ContractValue
	// NotAKey is in neither values nor open.
	NotAKey
	// Unranged is a values key without a range: a decided number.
	Unranged
	// RangeBroken is a values key whose entry in ranges is malformed
	// (TUNING_RANGE), so whether it has a range is not known.
	RangeBroken
	// NoTuning is any other key when tuning.json is absent or unreadable,
	// so whether it exists is not known.
	NoTuning
)

// SetsTarget looks up a key that a personalization answer sets and says
// whether the answer may set it. The entry is nil unless the key is in
// values or open. A nil f is an absent tuning.json.
func (f *File) SetsTarget(key string) (*Entry, Settability) {
	if strings.HasPrefix(key, "contracts.") && strings.Count(key, ".") == 2 {
		return nil, ContractValue
	}
	if f == nil || !f.Readable {
		return nil, NoTuning
	}
	e, ok := f.Lookup(key)
	switch {
	case !ok:
		return nil, NotAKey
	case e.Open || e.Range != nil:
		return e, Settable
	}
	if r, ok := f.Ranges[key]; ok && !r.Valid {
		return e, RangeBroken
	}
	return e, Unranged
}

// Admits reports whether v is inside the entry's inclusive range, or the
// entry has no range.
func (e *Entry) Admits(v float64) bool {
	return e.Range == nil || v >= e.Range[0] && v <= e.Range[1]
}
