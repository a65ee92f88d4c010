package migrate

import (
	"fmt"
	"strings"

	"github.com/gddls/gddls/analysis/direction"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

const codeDirectionSchema = "DIRECTION_SCHEMA"

// moodMembers are the members a v0.9 mood object may hold.
var moodMembers = map[string]bool{"intent": true, "anti": true, "borrows": true, "palette": true}

// manifestDirection moves the manifest's palette and mood descriptors into
// direction.json (created when absent). The old manifest held `palette`,
// either a map of palettes (moved as it is) or a flat map of color names
// to hex values (moved as one palette, `main`), and `descriptors`, either
// a map from kinds to maps of named descriptors or a list of descriptors
// with `kind` and `id` (or `name`). Only mood descriptors have a v0.9 place;
// the others stay for a person.
func (r *run) manifestDirection(root *node) bool {
	const file = "manifest.json"
	pm, dm := root.get("palette"), root.get("descriptors")
	if pm == nil && dm == nil {
		return false
	}
	var dir *node
	if data, ok := r.cur["direction.json"]; ok {
		d, ok := r.readJSON("direction.json", "DIRECTION_JSON")
		if !ok || d.kind != jsonsrc.Object {
			r.item(Item{Code: codeManifestSchema, File: file, Need: "move the palette and mood descriptors into direction.json by hand",
				Why: "direction.json does not parse as an object, so the migration does not write into it"}, locateKey("palette"))
			return false
		}
		_ = data
		dir = d
	} else {
		dir = objNode()
	}
	changed := false
	if pm != nil {
		pal := pm.val
		if pal.kind == jsonsrc.Object && len(pal.members) > 0 && pal.members[0].val.kind == jsonsrc.String {
			entries := &node{kind: jsonsrc.Array, dirty: true}
			for _, m := range pal.members {
				entries.elems = append(entries.elems, objNode(&member{key: m.key, keyRaw: m.keyRaw, val: m.val}))
			}
			pal = objNode(newMember("main", entries))
			r.change(codeManifestSchema, file, pm.line, "the palette's colors moved to direction.json as the palette \"main\"")
		} else {
			r.change(codeManifestSchema, file, pm.line, "the palettes moved to direction.json")
		}
		if dir.get("palette") != nil {
			r.item(Item{Code: codeManifestSchema, File: file, Need: "merge the manifest's palette into the palettes of direction.json, then remove it from the manifest",
				Why: "direction.json already declares palettes, and the migration does not merge them"}, locateKey("palette"))
		} else {
			dir.insertAt(0, newMember("palette", pal))
			root.remove("palette")
			changed = true
		}
	}
	if dm != nil {
		type desc struct {
			kind, name string
			line       int
			val        *node
		}
		var all []desc
		switch dm.val.kind {
		case jsonsrc.Object:
			for _, k := range dm.val.members {
				if k.val.kind != jsonsrc.Object {
					continue
				}
				for _, d := range k.val.members {
					all = append(all, desc{k.key, d.key, d.line, d.val})
				}
			}
		case jsonsrc.Array:
			for _, e := range dm.val.elems {
				if e.kind != jsonsrc.Object || e.val("kind") == nil {
					continue
				}
				name := e.val("id")
				if name == nil {
					name = e.val("name")
				}
				if name == nil || name.kind != jsonsrc.String {
					continue
				}
				rest := objNode()
				for _, m := range e.members {
					if m.key != "kind" && m.key != "id" && m.key != "name" {
						rest.members = append(rest.members, m)
					}
				}
				all = append(all, desc{e.val("kind").str, name.str, e.line, rest})
			}
		}
		moods := dir.val("mood")
		if moods == nil {
			moods = objNode()
		}
		moved, left := 0, 0
		movedNames := map[string]bool{}
		for _, d := range all {
			if d.kind != "mood" || d.val.kind != jsonsrc.Object || moods.get(d.name) != nil {
				left++
				continue
			}
			for _, m := range d.val.members {
				if m.key == "behaviors" {
					r.change(codeManifestSchema, file, m.line, fmt.Sprintf("the descriptor %s's behaviors dropped: moods have no behaviors", d.name))
				}
			}
			d.val = copyNode(d.val)
			d.val.remove("behaviors")
			respellAddresses(d.val)
			moods.add(newMember(d.name, d.val))
			moved++
			movedNames[d.name] = true
			r.change(codeManifestSchema, file, d.line, fmt.Sprintf("the mood descriptor %q moved to direction.json as mood.%s", d.name, d.name))
		}
		if moved > 0 {
			if dir.get("mood") == nil {
				dir.insertAt(min(1, len(dir.members)), newMember("mood", moods))
			}
			changed = true
		}
		if left > 0 {
			r.item(Item{Code: codeManifestSchema, File: file,
				Need: "say what the remaining descriptors meant in direction.json's entries or in prose, then remove descriptors",
				Why:  "descriptors of kinds other than mood (or a mood direction.json already declares) have no v0.9 place the migration can choose"}, locateKey("descriptors"))
			// keep only the descriptors not moved
		} else {
			root.remove("descriptors")
		}
		if left > 0 && moved > 0 {
			keepUnmoved(dm.val, movedNames)
		}
	}
	if m := root.get("direction"); m != nil && m.val.kind == jsonsrc.String && m.val.str == "direction.json" {
		root.remove("direction")
		changed = true
		r.change(codeManifestSchema, file, m.line, "direction removed: direction.json is in use whenever it exists")
	}
	if changed {
		// direction() rewrites the same tree, so its changes keep the
		// lines of the file as it was.
		r.dirTree = dir
		r.set("direction.json", encode(dir, r.cur["direction.json"]))
		if _, existed := r.old["direction.json"]; !existed {
			r.change(codeManifestSchema, "direction.json", 1, "created from the manifest's palette and mood descriptors")
		}
		root.dirty = true
	}
	return changed
}

// keepUnmoved removes from the descriptors the moods that moved.
func keepUnmoved(descs *node, moved map[string]bool) {
	switch descs.kind {
	case jsonsrc.Object:
		if k := descs.get("mood"); k != nil && k.val.kind == jsonsrc.Object {
			var kept []*member
			for _, d := range k.val.members {
				if !moved[d.key] {
					kept = append(kept, d)
				}
			}
			k.val.members, k.val.dirty = kept, true
			if len(kept) == 0 {
				descs.remove("mood")
			}
		}
	case jsonsrc.Array:
		var kept []*node
		for _, e := range descs.elems {
			name := e.val("id")
			if name == nil {
				name = e.val("name")
			}
			if k := e.val("kind"); k != nil && k.str == "mood" && name != nil && moved[name.str] {
				continue
			}
			kept = append(kept, e)
		}
		descs.elems, descs.dirty = kept, true
	}
}

// respellAddresses rewrites the old colon spelling of palette addresses
// (`palette:<key>`) in the strings of a subtree to the dotted one.
func respellAddresses(n *node) {
	switch n.kind {
	case jsonsrc.String:
		if rest, ok := strings.CutPrefix(n.str, "palette:"); ok && rest != "" {
			*n = *strNode("palette." + rest)
		}
	case jsonsrc.Object:
		for _, m := range n.members {
			respellAddresses(m.val)
		}
	case jsonsrc.Array:
		for _, e := range n.elems {
			respellAddresses(e)
		}
	}
}

// droppedDirection are the members of direction entries that the format
// no longer has.
var droppedDirection = []string{"viewing", "observable", "may_vary", "sampling", "metric", "tie_break_order"}

// direction rewrites the old shapes of direction.json (Appendix A).
func (r *run) direction() {
	const file = "direction.json"
	data, ok := r.cur[file]
	if !ok {
		return
	}
	root := r.dirTree
	if root == nil {
		var ok bool
		root, ok = r.readJSON(file, "DIRECTION_JSON")
		if !ok || root.kind != jsonsrc.Object {
			return
		}
	}
	if _, existed := r.old[file]; existed {
		data = r.old[file]
	}
	before := len(r.res.Changes)
	change := func(line int, what string) { r.change(codeDirectionSchema, file, line, what) }
	if m := root.get("semantics"); m != nil {
		root.remove("semantics")
		change(m.line, "the root semantics removed: the format no longer has it")
	}
	// statement objects become strings.
	for _, section := range []string{"pillars", "must_keep"} {
		sec := root.val(section)
		if sec == nil || sec.kind != jsonsrc.Object {
			continue
		}
		for _, e := range sec.members {
			if e.val.kind == jsonsrc.Object && e.val.val("statement") != nil && e.val.val("statement").kind == jsonsrc.String && onlyMembers(e.val, append([]string{"statement"}, droppedDirection...)...) {
				e.val = e.val.val("statement")
				sec.dirty = true
				change(e.line, fmt.Sprintf("%s.%s.statement became the string %s.%s", section, e.key, section, e.key))
			}
		}
	}
	if sec := root.val("anti"); sec != nil && sec.kind == jsonsrc.Object {
		for _, e := range sec.members {
			d := e.val.val("description")
			if e.val.kind != jsonsrc.Object || d == nil || d.kind != jsonsrc.String || !onlyMembers(e.val, append([]string{"description", "image", "license"}, droppedDirection...)...) {
				continue
			}
			if img := e.val.val("image"); img != nil {
				obj := objNode(newMember("not", d), newMember("image", img))
				if lic := e.val.val("license"); lic != nil {
					obj.add(newMember("license", lic))
				}
				e.val = obj
				change(e.line, fmt.Sprintf("anti.%s became { not, image, license }, not holding the description", e.key))
			} else {
				e.val = d
				change(e.line, fmt.Sprintf("anti.%s became the description string", e.key))
			}
			sec.dirty = true
		}
	}
	// constraints.* become colors, contrast and timing.
	if cm := root.get("constraints"); cm != nil && cm.val.kind == jsonsrc.Object {
		idx := root.index("constraints")
		var kept []*member
		var made []*member
		for _, group := range cm.val.members {
			now, renames := "", map[string]string{}
			switch group.key {
			case "colors":
				now, renames = "colors", map[string]string{"color": "is", "tolerance": "within"}
			case "thresholds":
				now, renames = "contrast", map[string]string{"min_contrast": "at_least"}
			case "timing":
				now = "timing"
			}
			if now == "" || group.val.kind != jsonsrc.Object || root.get(now) != nil {
				kept = append(kept, group)
				continue
			}
			out := objNode()
			for _, e := range group.val.members {
				if e.val.kind != jsonsrc.Object {
					out.add(e)
					continue
				}
				entry := objNode()
				for _, f := range e.val.members {
					switch {
					case f.key == "scope" && f.val.kind == jsonsrc.Object:
						if w := f.val.val("applies_to"); w != nil {
							entry.add(newMember("where", w))
						}
						if s := f.val.val("states"); s != nil {
							entry.add(newMember("while", s))
						}
						for _, g := range f.val.members {
							if g.key != "applies_to" && g.key != "states" {
								entry.add(newMember("scope."+g.key, g.val))
							}
						}
					case renames[f.key] != "":
						entry.add(newMember(renames[f.key], f.val))
					case contains(droppedDirection, f.key):
						change(f.line, fmt.Sprintf("constraints.%s.%s.%s removed: the format no longer has it", group.key, e.key, f.key))
					default:
						entry.add(f)
					}
				}
				respellAddresses(entry)
				out.add(&member{key: e.key, keyRaw: e.keyRaw, line: e.line, val: entry})
				change(e.line, fmt.Sprintf("constraints.%s.%s became %s.%s", group.key, e.key, now, e.key))
			}
			made = append(made, newMember(now, out))
		}
		cm.val.members, cm.val.dirty = kept, true
		if len(kept) == 0 {
			root.remove("constraints")
		}
		for i, m := range made {
			root.insertAt(min(idx+i, len(root.members)), m)
		}
	}
	// Entry members the format no longer has, and mood descriptors'
	// behaviors.
	for _, section := range []string{"pillars", "mood", "anti", "must_keep", "colors", "contrast", "timing"} {
		sec := root.val(section)
		if sec == nil || sec.kind != jsonsrc.Object {
			continue
		}
		for _, e := range sec.members {
			if e.val.kind != jsonsrc.Object {
				continue
			}
			for _, f := range append([]string{"behaviors"}, droppedDirection...) {
				if m := e.val.get(f); m != nil {
					e.val.remove(f)
					change(m.line, fmt.Sprintf("%s.%s.%s removed: the format no longer has it", section, e.key, f))
				}
			}
			if section == "mood" || section == "colors" || section == "contrast" {
				respell := e.val.isDirty()
				respellAddresses(e.val)
				if !respell && e.val.isDirty() {
					change(e.line, fmt.Sprintf("the palette addresses of %s.%s respelled with dots", section, e.key))
				}
			}
		}
	}
	// A map of viewing entries becomes one object.
	if vm := root.get("viewing"); vm != nil && vm.val.kind == jsonsrc.Object && len(vm.val.members) > 0 && vm.val.get("speed_and_size") == nil && vm.val.get("calibration") == nil {
		var first *node
		same := true
		for _, e := range vm.val.members {
			if e.val.kind != jsonsrc.Object {
				same = false
				break
			}
			if first == nil {
				first = e.val
			} else if !sameText(first, e.val) {
				same = false
			}
		}
		if same && first != nil {
			vm.val = first
			first.dirty = true
			root.dirty = true
			change(vm.line, "the map of viewing entries became one viewing object")
		} else {
			r.item(Item{Code: codeDirectionSchema, File: file, Need: "write one viewing object (speed_and_size, calibration, optional sequence) that covers every viewing context",
				Why: "the old viewing entries differ, and the migration does not choose one or merge them"}, locateKey("viewing"))
		}
	}
	if len(r.res.Changes) > before || root.isDirty() {
		root.dirty = true
		r.set(file, encode(root, data))
	}
	if _, written := r.res.Files[file]; !written {
		return
	}
	out := r.cur[file]
	// What the direction check still reports is for a person.
	v, _ := jsonsrc.Parse(out)
	f := direction.Parse(file, v)
	for _, fd := range f.Findings {
		if fd.Severity != source.Error {
			continue
		}
		it := Item{Code: fd.Code, File: file, Line: lineOf(out, fd.Span.Start), Need: fd.Message,
			Why: "the check of direction.json still reports this after the migration: what the v0.9 shape requires here was in no old field, or has no certain rewrite, and the migration does not invent it"}
		if strings.Contains(fd.Message, `lacks the required field "intent"`) {
			it.Need = "write the mood's intent: the feeling it stands for, in a sentence (" + fd.Message + ")"
			it.Why = "v0.9 requires an intent for every mood, and the old descriptor held none; the migration does not invent one"
		}
		r.res.Items = append(r.res.Items, it)
	}
}

// sameText reports two subtrees that print the same.
func sameText(a, b *node) bool {
	pa, pb := &printer{indent: "  "}, &printer{indent: "  "}
	pa.print(a, 0)
	pb.print(b, 0)
	return pa.b.String() == pb.b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// copyNode returns a deep copy of a subtree, so that a moved value can
// change without changing the place it came from.
func copyNode(n *node) *node {
	c := *n
	c.members = nil
	for _, m := range n.members {
		mc := *m
		mc.val = copyNode(m.val)
		c.members = append(c.members, &mc)
	}
	c.elems = nil
	for _, e := range n.elems {
		c.elems = append(c.elems, copyNode(e))
	}
	return &c
}
