package migrate

import (
	"fmt"
	"path"
	"strings"

	"github.com/gddls/gddls/analysis/personalization"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// A rewrite that only renames a key or replaces a scalar is made as a span
// edit, so the rest of the file stays byte for byte; a rewrite that moves
// or removes members re-serialises the file (see the package comment).

// collections rewrites the record schemas of collections: the field type
// "reference" becomes "link", and "loops": "never" becomes false.
func (r *run) collections() {
	for _, file := range sortedKeys(r.cur) {
		if !strings.HasPrefix(file, "collections/") || path.Base(file) != "_collection.json" || strings.Count(file, "/") != 2 {
			continue
		}
		data := r.cur[file]
		v, errs := jsonsrc.Parse(data)
		if len(errs) > 0 || v == nil {
			r.readJSON(file, "COLLECTION_LABEL_JSON")
			continue
		}
		var edits []edit
		var walk func(v *jsonsrc.Value)
		walk = func(v *jsonsrc.Value) {
			switch v.Kind() {
			case jsonsrc.Object:
				for _, m := range v.Members() {
					if m.Value == nil {
						continue
					}
					switch {
					case m.Key == "type" && m.Value.Kind() == jsonsrc.String && m.Value.Str() == "reference":
						edits = append(edits, edit{m.Value.Span().Start, m.Value.Span().End, `"link"`})
						r.change("COLLECTION_SCHEMA_SHAPE", file, lineOf(data, m.Value.Span().Start), `the field type "reference" became "link"`)
					case m.Key == "loops" && m.Value.Kind() == jsonsrc.String && m.Value.Str() == "never":
						edits = append(edits, edit{m.Value.Span().Start, m.Value.Span().End, "false"})
						r.change("COLLECTION_SCHEMA_SHAPE", file, lineOf(data, m.Value.Span().Start), `"loops": "never" became "loops": false`)
					}
					walk(m.Value)
				}
			case jsonsrc.Array:
				for _, e := range v.Elems() {
					walk(e)
				}
			}
		}
		if rec := v.Get("record"); rec != nil {
			walk(rec)
		}
		if len(edits) > 0 {
			r.setEdits(file, applyEdits(data, edits), edits)
		}
	}
}

// adoptions renames the historical `format` of an adoption file in
// contracts/ to `contract`.
func (r *run) adoptions() {
	for _, file := range sortedKeys(r.cur) {
		if !strings.HasPrefix(file, "contracts/") || strings.Count(file, "/") != 1 || !strings.HasSuffix(file, ".json") || strings.HasSuffix(file, ".pack.json") {
			continue
		}
		data := r.cur[file]
		v, errs := jsonsrc.Parse(data)
		if len(errs) > 0 || v == nil {
			r.readJSON(file, "CONTRACT_INSTANCE_JSON") // lists it
			continue
		}
		if v.Kind() != jsonsrc.Object {
			continue
		}
		if r.boundRows(file, v) {
			data = r.cur[file]
			v, _ = jsonsrc.Parse(data)
		}
		f := v.Member("format")
		if f == nil {
			continue
		}
		if v.Member("contract") != nil {
			r.res.Items = append(r.res.Items, Item{Code: "CONTRACT_ENVELOPE_UNKNOWN", File: file, Line: lineOf(data, f.KeySpan().Start),
				Need: "remove the historical format: the file already names its contract", Why: "the two fields could disagree, and the migration does not choose"})
			continue
		}
		e := []edit{{f.KeySpan().Start, f.KeySpan().End, `"contract"`}}
		r.setEdits(file, applyEdits(data, e), e)
		line := lineOf(data, f.KeySpan().Start)
		if ov, errs := jsonsrc.Parse(r.old[file]); len(errs) == 0 && ov.Member("format") != nil {
			line = lineOf(r.old[file], ov.Member("format").KeySpan().Start)
		}
		r.change("CONTRACT_ENVELOPE_UNKNOWN", file, line, "format became contract")
	}
}

// personalization rewrites the retired fields of personalization.json:
// an option's tuning_overrides becomes its sets; a number question's
// affects becomes its sets when its operation is a plain set (or absent);
// operation "set", out_of_range "reject" and bounds equal to the key's
// range in tuning.json are removed, as v0.9 already means them. Anything
// else (an arithmetic operation and its operand, a clamp, bounds that
// differ from the range, resolution) stays for a person.
func (r *run) personalization() {
	const file = "personalization.json"
	data, ok := r.cur[file]
	if !ok {
		return
	}
	root, ok := r.readJSON(file, "PERSONALIZATION_JSON")
	if !ok || root.kind != jsonsrc.Object {
		return
	}
	qs := root.val("questions")
	if qs == nil || qs.kind != jsonsrc.Array {
		return
	}
	ranges := r.tuningRanges()
	changed := false
	for _, q := range qs.elems {
		if q.kind != jsonsrc.Object {
			continue
		}
		id := ""
		if v := q.val("id"); v != nil {
			id = v.str
		}
		if opts := q.val("options"); opts != nil && opts.kind == jsonsrc.Array {
			for _, o := range opts.elems {
				if o.kind == jsonsrc.Object && o.get("tuning_overrides") != nil && o.get("sets") == nil && o.val("tuning_overrides").kind == jsonsrc.Object {
					m := o.get("tuning_overrides")
					o.rename("tuning_overrides", "sets")
					changed = true
					r.change("PERSONALIZATION_SCHEMA", file, m.line, fmt.Sprintf("question %s: an option's tuning_overrides became sets", id))
				}
			}
		}
		op := q.val("operation")
		plain := op == nil || op.kind == jsonsrc.String && (op.str == "set" || op.str == "replace")
		if a := q.get("affects"); a != nil && plain && q.get("operand") == nil && q.get("sets") == nil {
			key := a.val
			if key.kind == jsonsrc.Array && len(key.elems) == 1 {
				key = key.elems[0]
			}
			if key.kind == jsonsrc.String {
				q.remove("affects")
				q.put("sets", strNode(key.str))
				changed = true
				r.change("PERSONALIZATION_SCHEMA", file, a.line, fmt.Sprintf("question %s: affects became sets %q", id, key.str))
			}
		}
		if op != nil && plain && q.get("operand") == nil {
			m := q.get("operation")
			q.remove("operation")
			changed = true
			r.change("PERSONALIZATION_SCHEMA", file, m.line, fmt.Sprintf("question %s: operation %q removed: an answer always sets its key", id, op.str))
		}
		if m := q.get("out_of_range"); m != nil && m.val.kind == jsonsrc.String && m.val.str == "reject" {
			q.remove("out_of_range")
			changed = true
			r.change("PERSONALIZATION_SCHEMA", file, m.line, fmt.Sprintf("question %s: out_of_range \"reject\" removed: an answer outside the range is always rejected", id))
		}
		if m := q.get("bounds"); m != nil {
			if sets := q.val("sets"); sets != nil && sets.kind == jsonsrc.String && pairOf(m.val) != nil {
				if rg, ok := ranges[sets.str]; ok && rg[0] == m.val.elems[0].num && rg[1] == m.val.elems[1].num {
					q.remove("bounds")
					changed = true
					r.change("PERSONALIZATION_SCHEMA", file, m.line, fmt.Sprintf("question %s: bounds removed: they equal the range of %s in tuning.json", id, sets.str))
				}
			}
		}
	}
	if !changed {
		return
	}
	out := encode(root, data)
	r.set(file, out)
	v, _ := jsonsrc.Parse(out)
	for _, f := range personalization.Parse(file, v).Findings {
		if f.Severity == source.Error {
			r.res.Items = append(r.res.Items, Item{Code: f.Code, File: file, Line: lineOf(out, f.Span.Start), Need: f.Message,
				Why: "the check of personalization.json still reports this after the migration: a retired field with no v0.9 form of the same meaning is left for a person"})
		}
	}
}

// tuningRanges returns the ranges of the migrated tuning.json.
func (r *run) tuningRanges() map[string][2]float64 {
	out := map[string][2]float64{}
	v, errs := jsonsrc.Parse(r.cur["tuning.json"])
	if len(errs) > 0 || v == nil {
		return out
	}
	for _, m := range v.Get("ranges").LastMembers() {
		if m.Value != nil && m.Value.Kind() == jsonsrc.Array && len(m.Value.Elems()) == 2 {
			out[m.Key] = [2]float64{m.Value.Elems()[0].Num(), m.Value.Elems()[1].Num()}
		}
	}
	return out
}

// boundRows writes each row set of an adoption that is bound to a
// collection (its rows given as the collection's address,
// "collections.<id>", as earlier versions allowed) as an inline array: one
// row per record file of collections/<id>/, in file name order, each the
// record's object with "id" set to the file's name when the record has no
// id. It reports whether it rewrote the file. What the contract's record
// shape then rejects in those rows is listed by the check of the rows.
func (r *run) boundRows(file string, v *jsonsrc.Value) bool {
	rows := v.Get("rows")
	if rows == nil || rows.Kind() != jsonsrc.Object {
		return false
	}
	bound := false
	for _, m := range rows.Members() {
		if m.Value != nil && m.Value.Kind() == jsonsrc.String && strings.HasPrefix(m.Value.Str(), "collections.") {
			bound = true
		}
	}
	if !bound {
		return false
	}
	data := r.cur[file]
	root := tree(data, v)
	rs := root.val("rows")
	for _, m := range rs.members {
		if m.val.kind != jsonsrc.String || !strings.HasPrefix(m.val.str, "collections.") {
			continue
		}
		id := strings.TrimPrefix(m.val.str, "collections.")
		prefix := "collections/" + id + "/"
		arr := &node{kind: jsonsrc.Array, dirty: true}
		ok := !strings.Contains(id, "/") && id != ""
		for _, p := range sortedKeys(r.cur) {
			if !ok || !strings.HasPrefix(p, prefix) || strings.Contains(strings.TrimPrefix(p, prefix), "/") || path.Base(p) == "_collection.json" || !strings.HasSuffix(p, ".json") {
				continue
			}
			rec, parsed := parseTree(r.cur[p])
			if !parsed || rec.kind != jsonsrc.Object {
				ok = false
				break
			}
			rec = copyNode(rec)
			if rec.get("id") == nil {
				rec.insertAt(0, newMember("id", strNode(strings.TrimSuffix(path.Base(p), ".json"))))
			}
			arr.elems = append(arr.elems, rec)
		}
		if !ok || len(arr.elems) == 0 {
			r.res.Items = append(r.res.Items, Item{Code: "CONTRACT_ROWS_SHAPE", File: file, Line: m.line,
				Need: fmt.Sprintf("write the rows of %q as an inline array", m.key),
				Why:  fmt.Sprintf("the collection %s has no readable records to copy", m.val.str)})
			continue
		}
		m.val = arr
		rs.dirty = true
		r.change("CONTRACT_ROWS_SHAPE", file, m.line, fmt.Sprintf("the rows of %q, bound to %s, written inline (%d rows)", m.key, id, len(arr.elems)))
	}
	if !rs.isDirty() {
		return false
	}
	r.set(file, encode(root, data))
	return true
}
