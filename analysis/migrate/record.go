package migrate

import (
	"fmt"

	"github.com/gddls/gddls/analysis/buildrecord"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

const codeBuildSchema = "BUILD_SCHEMA"

// droppedRecord are the members of a build record of an earlier version
// that v0.9 removed, by path, with why.
var droppedRecord = []struct{ parent, key, why string }{
	{"", "renderer", "a build record no longer names its renderer"},
	{"", "resources", "a build record no longer lists resources"},
	{"", "capture_profile", "the audit keeps the capture profile in its own record"},
	{"", "direction_result", "a build record carries no direction result"},
	{"evidence", "direction_observations", "a build record carries no direction observations"},
	{"evidence", "algorithm", "the certification protocol names the hash"},
}

// BuildRecord migrates a build record (opengdd-build.json) named name:
// resolved_tuning.tunables and .constants merge into resolved_tuning.values
// (a key in two of them with different numbers stays for a person), and
// the members v0.9 removed are dropped. The result's paths are name.
func BuildRecord(name string, data []byte) *Result {
	r := &run{old: map[string][]byte{name: data}, cur: map[string][]byte{name: data}, res: &Result{Files: map[string][]byte{}, Edits: map[string][]Edit{}}}
	r.record(name)
	r.finish()
	return r.res
}

func (r *run) record(file string) {
	root, ok := r.readJSON(file, buildrecord.CodeJSON)
	if !ok || root.kind != jsonsrc.Object {
		return
	}
	data := r.cur[file]
	changed := false
	numbers := map[string]float64{}
	if rt := root.val("resolved_tuning"); rt != nil && rt.kind == jsonsrc.Object && (rt.get("tunables") != nil || rt.get("constants") != nil) {
		values := rt.val("values")
		if values == nil {
			values = objNode()
		}
		if values.kind == jsonsrc.Object {
			for _, m := range values.members {
				numbers[m.key] = m.val.num
			}
			idx := -1
			for i, m := range rt.members {
				if m.key == "tunables" || m.key == "constants" {
					idx = i
					break
				}
			}
			for _, k := range []string{"tunables", "constants"} {
				m := rt.get(k)
				if m == nil || m.val.kind != jsonsrc.Object {
					continue
				}
				var kept []*member
				moved := 0
				for _, e := range m.val.members {
					if prev := values.get(e.key); prev != nil {
						if prev.val.kind == jsonsrc.Number && e.val.kind == jsonsrc.Number && prev.val.num == e.val.num {
							continue
						}
						kept = append(kept, e)
						r.item(Item{Code: codeBuildSchema, File: file, Need: fmt.Sprintf("decide which number the build used for %q and write it once in resolved_tuning.values", e.key),
							Why: "the record holds it twice with different numbers"}, locateKey("resolved_tuning", k))
						continue
					}
					values.add(e)
					numbers[e.key] = e.val.num
					moved++
				}
				if moved == 0 {
					continue
				}
				changed = true
				r.change(codeBuildSchema, file, m.line, fmt.Sprintf("resolved_tuning.%s merged into resolved_tuning.values", k))
				m.val.members, m.val.dirty = kept, true
				if len(kept) == 0 {
					rt.remove(k)
				}
			}
			if rt.get("values") == nil && len(values.members) > 0 {
				rt.insertAt(min(idx, len(rt.members)), newMember("values", values))
			}
		}
	}
	for _, d := range droppedRecord {
		parent := root
		if d.parent != "" {
			parent = root.val(d.parent)
		}
		if parent == nil || parent.kind != jsonsrc.Object {
			continue
		}
		if m := parent.get(d.key); m != nil {
			parent.remove(d.key)
			changed = true
			path := d.key
			if d.parent != "" {
				path = d.parent + "." + d.key
			}
			r.change(codeBuildSchema, file, m.line, fmt.Sprintf("%s removed: %s", path, d.why))
		}
	}
	if !changed {
		return
	}
	out := encode(root, data)
	// Verify: every number keeps its value; then list what the record's
	// own check still reports.
	v, errs := jsonsrc.Parse(out)
	if len(errs) > 0 {
		return
	}
	for k, n := range numbers {
		got := v.Get("resolved_tuning").Get("values").Get(k)
		if got == nil || got.Kind() != jsonsrc.Number || got.Num() != n {
			r.res.Items = append(r.res.Items, Item{Code: codeBuildSchema, File: file, Line: 1, Need: "migrate the record by hand",
				Why: fmt.Sprintf("the rewritten record did not keep the number of %q", k)})
			return
		}
	}
	r.set(file, out)
	// A retired table kept for a key in conflict has its own item.
	kept := map[int]bool{}
	for _, k := range []string{"tunables", "constants"} {
		if m := v.Get("resolved_tuning").Member(k); m != nil {
			kept[lineOf(out, m.KeySpan().Start)] = true
		}
	}
	for _, f := range buildrecord.Parse(file, out).Findings {
		if f.Severity == source.Error && !kept[lineOf(out, f.Span.Start)] {
			r.res.Items = append(r.res.Items, Item{Code: f.Code, File: file, Line: lineOf(out, f.Span.Start), Need: f.Message,
				Why: "the record's check still reports this after the migration, which rewrites only the members of earlier record versions"})
		}
	}
}
