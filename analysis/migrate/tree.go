package migrate

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

// node is a JSON value the migration can rewrite and print again.
type node struct {
	kind jsonsrc.Kind
	// raw is a scalar's source text (a new scalar's JSON text).
	raw string
	// src is the source text of a subtree written on one line; it is
	// printed as it is while the subtree is not dirty.
	src   string
	dirty bool
	// inline reports a container that was written on one line; it is
	// printed on one line again when it changes.
	inline  bool
	members []*member
	elems   []*node
	// line is the one-based source line of the value, 0 for a new one.
	line int
	// str and num are a scalar's decoded string and number.
	str string
	num float64
}

// member is one key and value of an object node.
type member struct {
	key string
	// keyRaw is the key as written, quotes included.
	keyRaw string
	line   int
	val    *node
}

// tree converts a parsed value into a node.
func tree(data []byte, v *jsonsrc.Value) *node {
	if v == nil {
		return nil
	}
	n := &node{kind: v.Kind(), line: lineOf(data, v.Span().Start), str: v.Str(), num: v.Num()}
	text := string(data[v.Span().Start:v.Span().End])
	switch v.Kind() {
	case jsonsrc.Object:
		for _, m := range v.Members() {
			if m.Value == nil {
				continue
			}
			n.members = append(n.members, &member{key: m.Key, keyRaw: string(data[m.KeySpan().Start:m.KeySpan().End]),
				line: lineOf(data, m.KeySpan().Start), val: tree(data, m.Value)})
		}
	case jsonsrc.Array:
		for _, e := range v.Elems() {
			n.elems = append(n.elems, tree(data, e))
		}
	default:
		n.raw = text
	}
	if !strings.Contains(text, "\n") {
		n.src = text
		n.inline = v.Kind() == jsonsrc.Object || v.Kind() == jsonsrc.Array
	}
	return n
}

// str returns a new string node.
func strNode(s string) *node {
	return &node{kind: jsonsrc.String, raw: strconv.Quote(s), str: s, dirty: true}
}

// objNode returns a new object node holding members.
func objNode(members ...*member) *node {
	return &node{kind: jsonsrc.Object, members: members, dirty: true}
}

// newMember returns a member with a key that is quoted the standard way.
func newMember(key string, val *node) *member {
	return &member{key: key, keyRaw: quoteKey(key), val: val}
}

// quoteKey quotes a key as JSON (HTML characters left as they are).
func quoteKey(s string) string {
	var b strings.Builder
	jsonsrc.WriteString(&b, s)
	return b.String()
}

// get returns the last member named key of an object node, or nil.
func (n *node) get(key string) *member {
	if n == nil || n.kind != jsonsrc.Object {
		return nil
	}
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return n.members[i]
		}
	}
	return nil
}

// val returns the value of the last member named key, or nil.
func (n *node) val(key string) *node {
	if m := n.get(key); m != nil {
		return m.val
	}
	return nil
}

// remove deletes every member named key and reports whether there was one.
func (n *node) remove(key string) bool {
	if n == nil {
		return false
	}
	kept := n.members[:0]
	found := false
	for _, m := range n.members {
		if m.key == key {
			found = true
			continue
		}
		kept = append(kept, m)
	}
	n.members = kept
	if found {
		n.dirty = true
	}
	return found
}

// rename gives every member named from the key to, in place.
func (n *node) rename(from, to string) bool {
	found := false
	for _, m := range n.members {
		if m.key == from {
			m.key, m.keyRaw = to, quoteKey(to)
			found = true
		}
	}
	if found {
		n.dirty = true
	}
	return found
}

// add appends a member; put replaces the last member named key in place or
// appends one.
func (n *node) add(m *member) {
	n.members = append(n.members, m)
	n.dirty = true
}

func (n *node) put(key string, val *node) {
	n.dirty = true
	if m := n.get(key); m != nil {
		m.val = val
		return
	}
	n.members = append(n.members, newMember(key, val))
}

// insertAt puts m at index i of the members.
func (n *node) insertAt(i int, m *member) {
	if i > len(n.members) {
		i = len(n.members)
	}
	n.members = append(n.members, nil)
	copy(n.members[i+1:], n.members[i:])
	n.members[i] = m
	n.dirty = true
}

// index returns the position of the last member named key, or -1.
func (n *node) index(key string) int {
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return i
		}
	}
	return -1
}

// isDirty reports whether the node or anything below it changed.
func (n *node) isDirty() bool {
	if n.dirty {
		return true
	}
	for _, m := range n.members {
		if m.val.isDirty() {
			return true
		}
	}
	for _, e := range n.elems {
		if e.isDirty() {
			return true
		}
	}
	return false
}

// printer prints nodes with one indentation unit.
type printer struct {
	indent string
	b      bytes.Buffer
}

// encode prints root with the indentation detected in the original bytes
// (two spaces when there is none) and a final newline when the original
// had one (or there was no original).
func encode(root *node, orig []byte) []byte {
	p := &printer{indent: detectIndent(orig)}
	p.print(root, 0)
	if len(orig) == 0 || bytes.HasSuffix(orig, []byte("\n")) {
		if bytes.HasSuffix(orig, []byte("\r\n")) {
			p.b.WriteString("\r\n")
		} else {
			p.b.WriteByte('\n')
		}
	}
	out := p.b.Bytes()
	if bytes.Contains(orig, []byte("\r\n")) {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
		out = bytes.ReplaceAll(out, []byte("\r\r\n"), []byte("\r\n"))
	}
	return out
}

// detectIndent returns the leading white space of the first indented line.
func detectIndent(data []byte) string {
	for _, line := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimLeft(line, " \t")
		if len(t) == 0 || len(t) == len(line) {
			continue
		}
		return string(line[:len(line)-len(t)])
	}
	return "  "
}

func (p *printer) newline(depth int) {
	p.b.WriteByte('\n')
	for i := 0; i < depth; i++ {
		p.b.WriteString(p.indent)
	}
}

// scalarArray reports an array of scalars that fits on one line.
func scalarArray(n *node) bool {
	width := 0
	for _, e := range n.elems {
		if e.kind == jsonsrc.Object || e.kind == jsonsrc.Array {
			return false
		}
		width += len(e.raw) + 2
	}
	return width <= 72
}

func (p *printer) print(n *node, depth int) {
	if n == nil {
		p.b.WriteString("null")
		return
	}
	if p.unchanged(n) {
		return
	}
	if n.inline {
		// One line again, unless the change made it longer than a line
		// should be.
		q := &printer{indent: p.indent}
		q.printInline(n)
		if q.b.Len() <= 100 {
			p.b.Write(q.b.Bytes())
			return
		}
	}
	switch n.kind {
	case jsonsrc.Object:
		if len(n.members) == 0 {
			p.b.WriteString("{}")
			return
		}

		p.b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				p.b.WriteByte(',')
			}
			p.newline(depth + 1)
			p.b.WriteString(m.keyRaw)
			p.b.WriteString(": ")
			p.print(m.val, depth+1)
		}
		p.newline(depth)
		p.b.WriteByte('}')
	case jsonsrc.Array:
		if len(n.elems) == 0 {
			p.b.WriteString("[]")
			return
		}
		if scalarArray(n) {
			p.b.WriteByte('[')
			for i, e := range n.elems {
				if i > 0 {
					p.b.WriteString(", ")
				}
				p.print(e, depth+1)
			}
			p.b.WriteByte(']')
			return
		}
		p.b.WriteByte('[')
		for i, e := range n.elems {
			if i > 0 {
				p.b.WriteByte(',')
			}
			p.newline(depth + 1)
			if e.kind == jsonsrc.Object && len(e.members) == 1 && e.members[0].val.kind != jsonsrc.Object && e.members[0].val.kind != jsonsrc.Array {
				// An element of one scalar member, as a palette color:
				// one line.
				p.printInline(e)
				continue
			}
			p.print(e, depth+1)
		}
		p.newline(depth)
		p.b.WriteByte(']')
	default:
		p.b.WriteString(n.raw)
	}
}

// unchanged prints the source text of a node the migration did not
// change, as it was written, and reports whether it did.
func (p *printer) unchanged(n *node) bool {
	if n.src == "" || n.isDirty() {
		return false
	}
	p.b.WriteString(n.src)
	return true
}

// printInline prints a node on one line, as `{ "k": v }` and `[a, b]`.
func (p *printer) printInline(n *node) {
	if p.unchanged(n) {
		return
	}
	switch n.kind {
	case jsonsrc.Object:
		if len(n.members) == 0 {
			p.b.WriteString("{}")
			return
		}
		p.b.WriteString("{ ")
		for i, m := range n.members {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.b.WriteString(m.keyRaw + ": ")
			p.printInline(m.val)
		}
		p.b.WriteString(" }")
	case jsonsrc.Array:
		p.b.WriteByte('[')
		for i, e := range n.elems {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.printInline(e)
		}
		p.b.WriteByte(']')
	default:
		p.b.WriteString(n.raw)
	}
}

// parseTree parses data into a node; ok is false when it does not parse.
func parseTree(data []byte) (*node, bool) {
	v, errs := jsonsrc.Parse(data)
	if len(errs) > 0 || v == nil {
		return nil, false
	}
	return tree(data, v), true
}

// locateKey returns a locator of the member at path (keys from the root)
// in a JSON file's final content: the line of its key, or of the deepest
// member of the path that exists.
func locateKey(path ...string) func([]byte) int {
	return func(data []byte) int {
		v, _ := jsonsrc.Parse(data)
		line := 0
		for _, k := range path {
			m := v.Member(k)
			if m == nil {
				break
			}
			line = lineOf(data, m.KeySpan().Start)
			v = m.Value
		}
		return line
	}
}
