package tuning

import (
	"fmt"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

// Collection is what the rule check reads of one collection of the package
// (SPEC §1b): its schema file and its records.
type Collection struct {
	// HasSchema is true when the collection folder holds _collection.json.
	HasSchema bool
	// Schema is the parsed _collection.json; nil when it is absent or
	// cannot be read.
	Schema *jsonsrc.Value
	// Records maps each record id to its parsed record file; the value is
	// nil when the file cannot be read.
	Records map[string]*jsonsrc.Value
}

// RecordLookup returns the collection with the given id, and false when
// the package has no such collection. A nil RecordLookup knows no
// collection.
type RecordLookup func(id string) (*Collection, bool)

// field is a record field named by a rule, resolved against the package's
// collections.
type field struct {
	// problem describes a break of rule 3 (the field is absent or not
	// numeric); "" when the field can be read.
	problem string
	// unknown is true when the record or its schema file cannot be read:
	// the file's own finding covers it and the rule is not evaluated.
	unknown bool
	// open is true for a field with open: true in the record schema.
	open bool
	// integer is true for a field of type integer.
	integer bool
	// has is true when the field holds a number: the decided number of a
	// field that is not open, or the guess of an open field.
	has bool
	num float64
}

// fieldTable resolves record-field addresses once each.
type fieldTable struct {
	records RecordLookup
	cache   map[string]*field
}

func newFieldTable(records RecordLookup) *fieldTable {
	return &fieldTable{records: records, cache: map[string]*field{}}
}

// get resolves a record-field address; it returns nil for a name that is
// not one.
func (t *fieldTable) get(addr string) *field {
	if t == nil || !IsRecordField(addr) {
		return nil
	}
	if fd, ok := t.cache[addr]; ok {
		return fd
	}
	fd := t.resolve(addr)
	t.cache[addr] = fd
	return fd
}

// readable reports whether a parsed JSON file can be trusted: an object
// whose closing brace was reached.
func readable(v *jsonsrc.Value) bool {
	return v != nil && v.Kind() == jsonsrc.Object && !v.Incomplete()
}

func (t *fieldTable) resolve(addr string) *field {
	parts := strings.Split(addr, ".")
	cid, rid, name := parts[1], parts[2], parts[3]
	var c *Collection
	ok := false
	if t.records != nil {
		c, ok = t.records(cid)
	}
	if !ok || c == nil {
		return &field{problem: fmt.Sprintf("the package has no collection %q (no folder collections/%s)", cid, cid)}
	}
	rec, ok := c.Records[rid]
	if !ok {
		return &field{problem: fmt.Sprintf("collection %q has no record %q (no file collections/%s/%s.json)", cid, rid, cid, rid)}
	}
	if !readable(rec) {
		return &field{unknown: true}
	}
	if strings.HasPrefix(name, "_") {
		return &field{problem: fmt.Sprintf("%q is an annotation, not a field; a rule reads only a numeric field of the record", name)}
	}
	val := rec.Get(name)
	where := fmt.Sprintf("collections/%s/%s.json", cid, rid)

	// The record schema, when the collection has one.
	var shape *jsonsrc.Value
	schema := false
	if c.HasSchema {
		if !readable(c.Schema) {
			return &field{unknown: true}
		}
		if m := c.Schema.Member("record"); m != nil {
			if !readable(m.Value) {
				return &field{unknown: true}
			}
			schema = true
			shape = m.Value.Get(name)
		}
	}
	fd := &field{}
	if schema {
		switch {
		case shape == nil && val == nil:
			return &field{problem: fmt.Sprintf("%s has no field %q and the record schema of %q declares none; name a numeric field of the record", where, name, cid)}
		case shape == nil:
			return &field{problem: fmt.Sprintf("the record schema of %q does not declare the field %q; declare it with type number or integer in collections/%s/_collection.json", cid, name, cid)}
		case shape.Kind() != jsonsrc.Object || shape.Get("type") == nil || shape.Get("type").Kind() != jsonsrc.String:
			return &field{unknown: true} // a malformed field shape: the schema's own finding
		}
		switch typ := shape.Get("type").Str(); typ {
		case "number":
		case "integer":
			fd.integer = true
		default:
			return &field{problem: fmt.Sprintf("the record schema of %q declares %q with type %s; a rule reads only number and integer fields", cid, name, typ)}
		}
		if o := shape.Get("open"); o != nil && o.Kind() == jsonsrc.Bool && o.Bool() {
			fd.open = true
		}
	}
	switch {
	case val == nil && fd.open:
		return &field{problem: fmt.Sprintf("%s has no field %q, so the open field does not apply to that record; add the field (null for no guess) or name another record", where, name)}
	case val == nil:
		return &field{problem: fmt.Sprintf("%s has no field %q; name a field the record holds", where, name)}
	case val.Finite():
		fd.has, fd.num = true, val.Num()
	case fd.open && val.Kind() == jsonsrc.Null:
		// an open field without a guess
	default:
		return &field{problem: fmt.Sprintf("the field %q of %s is %s, not a number; a rule reads only numeric fields", name, where, val.Describe())}
	}
	return fd
}
