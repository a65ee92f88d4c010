package tuning

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

// OpenField is an open record field that a record holds (SPEC §5, "The
// resolved tuning snapshot"): a key of every build's snapshot.
type OpenField struct {
	// Address is collections.<collection>.<record>.<field>.
	Address string
	// Integer is true for a field of type integer, whose number stays
	// whole.
	Integer bool
}

// OpenFields lists the present open record fields of collection id c, by
// record and field name. known is false when the collection's schema file
// or one of its records cannot be read: then which fields are present is
// not known, and the list is what could be read.
func OpenFields(id string, c *Collection) (fields []OpenField, known bool) {
	if c == nil || !c.HasSchema {
		return nil, true // without a schema no field is open
	}
	if !readable(c.Schema) {
		return nil, false
	}
	record := c.Schema.Get("record")
	if record == nil {
		return nil, true
	}
	if !readable(record) {
		return nil, false
	}
	known = true
	ids := make([]string, 0, len(c.Records))
	for rid := range c.Records {
		ids = append(ids, rid)
	}
	sort.Strings(ids)
	// The open fields of the schema, each counting with its last shape,
	// then their presence in each record: linear in the schema and records.
	type openField struct {
		name    string
		integer bool
	}
	var open []openField
	for _, m := range record.LastMembers() {
		if strings.HasPrefix(m.Key, "_") || m.Value == nil || m.Value.Kind() != jsonsrc.Object {
			continue
		}
		if o := m.Value.Get("open"); o == nil || o.Kind() != jsonsrc.Bool || !o.Bool() {
			continue
		}
		t := m.Value.Get("type")
		open = append(open, openField{m.Key, t != nil && t.Kind() == jsonsrc.String && t.Str() == "integer"})
	}
	for _, rid := range ids {
		rec := c.Records[rid]
		if !readable(rec) {
			known = false
			continue
		}
		if len(open) == 0 {
			continue
		}
		present := map[string]bool{}
		for _, m := range rec.LastMembers() {
			present[m.Key] = m.Value != nil
		}
		for _, f := range open {
			if present[f.name] {
				fields = append(fields, OpenField{Address: "collections." + id + "." + rid + "." + f.name, Integer: f.integer})
			}
		}
	}
	return fields, known
}

// BuildRule is one rule of tuning.json evaluated over the numbers of a
// build (SPEC §4 BUILD_TUNING_RULE, §7 "Further rules").
type BuildRule struct {
	Rule *RuleEntry
	// Missing lists the names of the rule that belong in the snapshot but
	// that the build did not record: the rule is not evaluated.
	Missing []string
	// Problem says why the rule is false or cannot be computed; "" when it
	// holds, or when it was not evaluated.
	Problem string
	// Names are the distinct names of the rule, left side first.
	Names []string
}

// CheckBuild evaluates every readable rule over a build's numbers: the
// number recorded for a name (recorded), else the decided number of a
// record field that is not open. A name that belongs in the snapshot
// (inSet) but was not recorded makes the rule Missing. A name that is
// neither recorded, nor a decided record number, nor in the snapshot, makes
// the rule fail. A rule that reads a record or schema file that cannot be
// read is left out, as that file's own finding covers it.
func (f *File) CheckBuild(records RecordLookup, recorded func(name string) (float64, bool), inSet func(name string) bool) []BuildRule {
	if f == nil || !f.Readable {
		return nil
	}
	fields := newFieldTable(records)
	var out []BuildRule
rules:
	for _, r := range f.Rules {
		if r.Parsed == nil {
			continue
		}
		br := BuildRule{Rule: r, Names: names(r.Parsed)}
		nums := map[string]number{}
		var unknown []string
		for _, n := range br.Names {
			if v, ok := recorded(n); ok {
				nums[n] = number{v: v, st: decided}
				continue
			}
			if inSet(n) {
				br.Missing = append(br.Missing, n)
				continue
			}
			if fd := fields.get(n); fd != nil {
				switch {
				case fd.unknown:
					continue rules
				case fd.problem == "" && !fd.open && fd.has:
					nums[n] = number{v: fd.num, st: decided, note: "record"}
					continue
				}
			}
			unknown = append(unknown, n)
		}
		switch {
		case len(br.Missing) > 0:
		case len(unknown) > 0:
			br.Problem = fmt.Sprintf("rule %q names %s, which the build records no number for and which is not a decided record number; the snapshot has no such key", r.Name, strings.Join(unknown, ", "))
		default:
			res := r.Parsed.Eval(func(name string) (float64, bool) { x, ok := nums[name]; return x.v, ok })
			switch {
			case res.Err != nil:
				br.Problem = fmt.Sprintf("rule %q cannot be computed over the build's numbers: %s", r.Name, res.Err.Msg)
			case !res.Holds:
				br.Problem = strings.Replace(failure(r, res, br.Names, nums, false), "does not hold", "does not hold over the build's numbers", 1)
			}
		}
		out = append(out, br)
	}
	return out
}
