package analysis

import (
	"slices"
	"testing"
)

// TestDepIndex checks the reverse-dependency index: who reads each
// dependency, which dependencies each source holds, and that a dependency
// without readers leaves the index and its source.
func TestDepIndex(t *testing.T) {
	anchor := func(key string) dep { return dep{kind: depAnchor, key: key} }
	tuningKey := func(key string) dep { return dep{kind: depTuningKey, key: key} }
	results := []*adoptionResult{
		{deps: []dep{anchor("02-mechanics.md#core-loop"), tuningKey("a.b"), {kind: depPack}}},
		{deps: []dep{anchor("./02-mechanics.md#core-loop"), anchor("../outside.md#x"), {kind: depAdoption, key: "first"}}},
		{deps: []dep{anchor("02-mechanics.md#core-loop"), {kind: depRuntime, key: "runtime.energy"}, {kind: depGeneration}}},
	}
	idx := newDepIndex(chunkedOf(results))
	readers := func(d dep) []int32 {
		u := idx.users[depKey{d.kind, d.key}]
		out := slices.Clone(u.at)
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		d    dep
		want []int32
	}{
		{anchor("02-mechanics.md#core-loop"), []int32{0, 2}},
		{anchor("./02-mechanics.md#core-loop"), []int32{1}},
		{tuningKey("a.b"), []int32{0}},
		{dep{kind: depAdoption, key: "first"}, []int32{1}},
		{dep{kind: depPack}, nil},       // follows the adoption itself
		{dep{kind: depGeneration}, nil}, // shared by a carried build
	} {
		if got := readers(tc.d); !slices.Equal(got, tc.want) {
			t.Errorf("readers of %v = %v, want %v", tc.d, got, tc.want)
		}
	}
	for _, tc := range []struct {
		source string
		want   int
	}{
		{"02-mechanics.md", 2}, // both spellings of the file
		{"tuning.json", 1},
		{runtimeSource, 1},
		{"../outside.md", 0},
	} {
		if got := len(idx.bySource[tc.source]); got != tc.want {
			t.Errorf("%d dependencies on %q, want %d", got, tc.source, tc.want)
		}
	}

	idx.remove(0, results[0])
	if got := readers(anchor("02-mechanics.md#core-loop")); !slices.Equal(got, []int32{2}) {
		t.Errorf("after removing 0, readers of the anchor = %v, want [2]", got)
	}
	if _, ok := idx.users[depKey{depTuningKey, "a.b"}]; ok || len(idx.bySource["tuning.json"]) != 0 {
		t.Errorf("a tuning key without readers stays in the index: %v, %v", idx.users[depKey{depTuningKey, "a.b"}], idx.bySource["tuning.json"])
	}
	idx.add(0, results[0])
	if got := readers(tuningKey("a.b")); !slices.Equal(got, []int32{0}) || len(idx.bySource["tuning.json"]) != 1 {
		t.Errorf("after adding 0 again, readers of the key = %v and tuning.json holds %d", got, len(idx.bySource["tuning.json"]))
	}
}

// TestSameDepKeys checks the comparison that spares the index an update.
func TestSameDepKeys(t *testing.T) {
	a := []dep{{kind: depAnchor, key: "x.md#a"}, {kind: depTuningKey, key: "k"}}
	for _, tc := range []struct {
		b    []dep
		want bool
	}{
		{[]dep{{kind: depAnchor, key: "x.md#a", seen: depValue{gen: 3}}, {kind: depTuningKey, key: "k"}}, true},
		{[]dep{{kind: depTuningKey, key: "k"}, {kind: depAnchor, key: "x.md#a"}}, false},
		{[]dep{{kind: depAnchor, key: "x.md#a"}}, false},
		{[]dep{{kind: depAnchor, key: "x.md#a"}, {kind: depTuning, key: "k"}}, false},
	} {
		if got := sameDepKeys(a, tc.b); got != tc.want {
			t.Errorf("sameDepKeys(%v, %v) = %v, want %v", a, tc.b, got, tc.want)
		}
	}
}
