package migrate

import (
	"fmt"
	"sort"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

const codeClocksShape = "CLOCKS_SHAPE"

// readJSON parses a JSON file of the package; a file that does not parse
// is left as it is and listed with its syntax code.
func (r *run) readJSON(file, code string) (*node, bool) {
	data, ok := r.cur[file]
	if !ok {
		return nil, false
	}
	v, errs := jsonsrc.Parse(data)
	if len(errs) > 0 || v == nil {
		line := 1
		if len(errs) > 0 {
			line = lineOf(data, errs[0].Span.Start)
		}
		r.item(Item{Code: code, File: file, Line: line, Need: "correct the JSON syntax, then run gddls migrate again",
			Why: "the file does not parse, so the migration leaves it as it is"}, nil)
		return nil, false
	}
	return tree(data, v), true
}

// clocks rewrites a clocks.json whose root holds the retired keys modes
// and clocks: each clock goes to the root with its own modes map.
//
// The retired root clocks is a map of clock names to clock objects. The
// retired root modes is either a map of mode ids to maps of clock names to
// words (each clock's word in that mode), or a list of mode ids, which
// says which modes exist but not what each clock does in them: then a
// clock without its own modes map is left for a person.
func (r *run) clocks() {
	const file = "clocks.json"
	root, ok := r.readJSON(file, "CLOCKS_JSON")
	if !ok || root.kind != jsonsrc.Object {
		return
	}
	cm, mm := root.get("clocks"), root.get("modes")
	if cm == nil && mm == nil {
		return
	}
	var clocks []*member
	if cm != nil {
		if cm.val.kind != jsonsrc.Object {
			r.item(Item{Code: codeClocksShape, File: file, Need: "write each clock at the root of clocks.json with its own modes map",
				Why: "the root clocks is not a map of clocks"}, locateKey("clocks"))
			return
		}
		clocks = cm.val.members
	}
	// Clocks already at the root (next to the retired keys) count too.
	for _, m := range root.members {
		if m.key != "clocks" && m.key != "modes" {
			clocks = append(clocks, m)
		}
	}
	byMode := map[string]map[string]*node{} // mode -> clock -> word
	var modeOrder []string
	var modeIDs []string
	if mm != nil {
		switch mm.val.kind {
		case jsonsrc.Object:
			for _, mode := range mm.val.members {
				if mode.val.kind != jsonsrc.Object {
					r.item(Item{Code: codeClocksShape, File: file, Need: fmt.Sprintf("give each clock its word for the mode %q in its modes map", mode.key),
						Why: fmt.Sprintf("modes.%s is not a map of clock names to words", mode.key)}, locateKey("modes"))
					return
				}
				modeOrder = append(modeOrder, mode.key)
				byMode[mode.key] = map[string]*node{}
				for _, w := range mode.val.members {
					byMode[mode.key][w.key] = w.val
				}
			}
		case jsonsrc.Array:
			for _, e := range mm.val.elems {
				if e.kind == jsonsrc.String {
					modeIDs = append(modeIDs, e.str)
				}
			}
		default:
			r.item(Item{Code: codeClocksShape, File: file, Need: "give each clock a modes map", Why: "the root modes is neither a map nor a list of mode ids"}, locateKey("modes"))
			return
		}
	}
	var out []*member
	for _, c := range clocks {
		if c.val.kind != jsonsrc.Object {
			r.item(Item{Code: codeClocksShape, File: file, Need: fmt.Sprintf("write the clock %q as an object with unit and modes", c.key),
				Why: "it is not an object"}, nil)
			return
		}
		own := c.val.val("modes")
		if own == nil && len(byMode) > 0 {
			modes := objNode()
			for _, mode := range modeOrder {
				if w, ok := byMode[mode][c.key]; ok {
					modes.add(newMember(mode, w))
				}
			}
			c.val.add(newMember("modes", modes))
			r.change(codeClocksShape, file, c.line, fmt.Sprintf("clock %q got its own modes map from the root modes", c.key))
		} else if own == nil {
			r.item(Item{Code: "CLOCKS_SHAPE", File: file,
				Need: fmt.Sprintf("give the clock %q a modes map: one of running, paused, steps or none for each mode (%s)", c.key, joinOr(modeIDs)),
				Why:  "the old file names the modes but not what this clock does in each, and the migration does not guess"}, locateKey(c.key))
		}
		out = append(out, c)
	}
	for mode, words := range byMode {
		for clock := range words {
			if !hasMember(out, clock) {
				r.item(Item{Code: codeClocksShape, File: file, Need: fmt.Sprintf("declare the clock %q, or remove it from the mode %q", clock, mode),
					Why: "the root modes names a clock that the file does not declare"}, nil)
				return
			}
		}
	}
	if cm != nil {
		r.change(codeClocksShape, file, cm.line, "each clock of the root clocks moved to the root")
	}
	if mm != nil {
		r.change(codeClocksShape, file, mm.line, "the root modes removed; each clock holds its own modes map")
	}
	root.members = out
	root.dirty = true
	r.set(file, encode(root, r.cur[file]))
}

// hasMember reports a member named key.
func hasMember(ms []*member, key string) bool {
	for _, m := range ms {
		if m.key == key {
			return true
		}
	}
	return false
}

// joinOr lists names for a message.
func joinOr(names []string) string {
	if len(names) == 0 {
		return "every mode of the package"
	}
	s := append([]string(nil), names...)
	sort.Strings(s)
	out := ""
	for i, n := range s {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}
