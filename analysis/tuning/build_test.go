package tuning

import (
	"fmt"
	"strings"
	"testing"
)

// TestOpenFields lists the present open record fields of a collection.
func TestOpenFields(t *testing.T) {
	lookup := lookupOf(both)
	c, _ := lookup("levels")
	fields, known := OpenFields("levels", c)
	var got []string
	for _, f := range fields {
		got = append(got, fmt.Sprintf("%s:%v", f.Address, f.Integer))
	}
	// first has speed, waves and gap; second only speed (waves and gap are
	// missing there); broken does not parse, so the list is not complete.
	want := "collections.levels.first.speed:false collections.levels.first.waves:true collections.levels.first.gap:false collections.levels.second.speed:false"
	if strings.Join(got, " ") != want || known {
		t.Errorf("OpenFields = %v (known %v), want %s (not known)", got, known, want)
	}
	e, _ := lookup("enemies")
	if fields, known := OpenFields("enemies", e); len(fields) != 0 || !known {
		t.Errorf("a collection without a schema has no open field: %v %v", fields, known)
	}
}

// TestCheckBuild evaluates rules over a build's numbers.
func TestCheckBuild(t *testing.T) {
	f := Parse("tuning.json", []byte(`{"values": {"a.b": 2}, "open": {"o.x": null}, "rules": {
		"holds": "a.b + o.x < 10",
		"false": "a.b > o.x",
		"divides": "a.b / (o.x - 5) > 0",
		"record": "collections.enemies.moth.hull > a.b",
		"open-field": "collections.levels.first.speed < 10",
		"missing-field": "collections.levels.second.gap > 0",
		"unreadable": "collections.levels.broken.size > 0"}}`))
	if len(f.Findings) != 0 {
		t.Fatalf("bad fixture: %v", f.Findings)
	}
	recorded := map[string]float64{"a.b": 2, "o.x": 5, "collections.levels.first.speed": 3}
	inSet := map[string]bool{"a.b": true, "o.x": true, "collections.levels.first.speed": true, "collections.levels.first.waves": true}
	run := func() map[string]BuildRule {
		out := map[string]BuildRule{}
		for _, r := range f.CheckBuild(lookupOf(both), func(n string) (float64, bool) { v, ok := recorded[n]; return v, ok }, func(n string) bool { return inSet[n] }) {
			out[r.Rule.Name] = r
		}
		return out
	}
	got := run()
	for name, want := range map[string]string{
		"holds":         "",
		"false":         "does not hold over the build's numbers",
		"divides":       "cannot be computed",
		"record":        "",
		"open-field":    "",
		"missing-field": "no number",
	} {
		if r, ok := got[name]; !ok || (want == "") != (r.Problem == "") || !strings.Contains(r.Problem, want) {
			t.Errorf("rule %s: %+v, want a problem containing %q", name, r, want)
		}
	}
	if _, ok := got["unreadable"]; ok {
		t.Errorf("a rule over a record that does not parse is evaluated: %+v", got["unreadable"])
	}
	delete(recorded, "o.x")
	if r := run()["false"]; len(r.Missing) != 1 || r.Missing[0] != "o.x" || r.Problem != "" {
		t.Errorf("a rule naming a key the record lacks: %+v, want it missing and not evaluated", r)
	}
}
