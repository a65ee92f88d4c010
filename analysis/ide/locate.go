package ide

import "github.com/gddls/gddls/contracts/jsonsrc"

// PathStep is one step from the root of a JSON document to a value: a member
// key of an object or an index of an array.
type PathStep struct {
	Key   string
	Index int
	// IsKey is set for object steps.
	IsKey bool
}

// JSONHit is what lies at an offset of a parsed JSON document.
type JSONHit struct {
	// Path leads from the root to Value.
	Path []PathStep
	// Value is the innermost value that contains the offset.
	Value *jsonsrc.Value
	// Member is set when the offset is on a member key (OnKey) or inside the
	// member's value; it is the member whose value is Value.
	Member *jsonsrc.Member
	// OnKey reports that the offset is on Member's key rather than its
	// value.
	OnKey bool
}

// LocateJSON finds the innermost key or value of a parsed document that
// contains offset. It returns a hit with an empty path for an offset outside
// every value.
func LocateJSON(root *jsonsrc.Value, offset int) JSONHit {
	hit := JSONHit{Value: root}
	v := root
	for v != nil {
		next := (*jsonsrc.Value)(nil)
		switch v.Kind() {
		case jsonsrc.Object:
			for i := range v.Members() {
				m := &v.Members()[i]
				if m.KeySpan().Contains(offset) {
					hit.Path = append(hit.Path, PathStep{Key: m.Key, IsKey: true})
					hit.Member, hit.OnKey, hit.Value = m, true, m.Value
					return hit
				}
				if m.Value != nil && m.Value.Span().Contains(offset) {
					hit.Path = append(hit.Path, PathStep{Key: m.Key, IsKey: true})
					hit.Member, hit.OnKey = m, false
					next = m.Value
					break
				}
			}
		case jsonsrc.Array:
			for i, e := range v.Elems() {
				if e.Span().Contains(offset) {
					hit.Path = append(hit.Path, PathStep{Index: i})
					hit.Member = nil
					next = e
					break
				}
			}
		}
		if next == nil {
			break
		}
		hit.Value = next
		v = next
	}
	return hit
}

// PathKeys returns the keys of a path with array steps written as "[]",
// for matching paths such as rows/<set>/[]/<field>.
func PathKeys(path []PathStep) []string {
	out := make([]string, len(path))
	for i, s := range path {
		if s.IsKey {
			out[i] = s.Key
		} else {
			out[i] = "[]"
		}
	}
	return out
}
