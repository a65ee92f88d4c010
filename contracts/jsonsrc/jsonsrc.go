// Package jsonsrc parses JSON into a tree that remembers where every key and
// value stands in the source, so that findings can point at the exact token
// at fault.
//
// The parser follows RFC 8259 and never panics. On a syntax error it stops,
// reports the error with its span, and returns the part of the tree it had
// built; containers that were still open are kept with Incomplete set.
package jsonsrc

import (
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/gddls/gddls/contracts/source"
)

// MaxDepth is the deepest nesting of arrays and objects that Parse accepts.
// Deeper input is reported as an error instead of being parsed.
const MaxDepth = 512

// Kind is the JSON type of a value.
type Kind uint8

// The JSON kinds. Invalid marks a value that could not be read.
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

// String returns the JSON name of the kind as a designer would say it.
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	}
	return "invalid"
}

// Phrase names the kind with its article, for messages: "an object", "an
// array", "a string", "a number", "a boolean", "null" or "an unreadable
// value".
func (k Kind) Phrase() string {
	switch k {
	case Array, Object:
		return "an " + k.String()
	case Null:
		return "null"
	case Invalid:
		return "an unreadable value"
	}
	return "a " + k.String()
}

// Describe names what v is for a message that expected something else; a
// number too large for a float64 is described as such.
func (v *Value) Describe() string {
	switch {
	case v == nil:
		return "nothing"
	case v.kind == Number && !v.Finite():
		return v.text + ", a number too large to be finite"
	}
	return v.kind.Phrase()
}

// Opening returns the span of v's first byte: a container's opening
// bracket, where a finding about a missing member is shown. It returns
// the empty span at 0 for nil.
func (v *Value) Opening() source.Span {
	if v == nil {
		return source.Span{}
	}
	return source.Span{Start: int(v.start), End: int(v.start) + 1}
}

// Value is one JSON value with its source span. Its fields are read
// through its methods; a node is kept small (40 bytes) because a loaded
// package holds about one per 70 bytes of its JSON files.
type Value struct {
	// text is the decoded text of a string (also of an unreadable one,
	// as far as it was read) or the literal of a number.
	text string
	// kids points at the first of n members (an object: *Member) or
	// elements (an array: **Value); nil when n is 0.
	kids unsafe.Pointer
	// start and end are the span's offsets: Parse refuses texts of
	// MaxSize bytes and more.
	start, end int32
	n          int32
	kind       Kind
	flags      uint8 // flagTrue, flagIncomplete
}

// The bits of Value.flags.
const (
	flagTrue       = 1 << iota // a boolean that is true
	flagIncomplete             // a container left open by a syntax error
)

// MaxSize is the size from which Parse refuses a JSON text: a tree keeps
// its offsets in 32 bits.
const MaxSize = math.MaxInt32

// Kind returns the JSON type of v.
func (v *Value) Kind() Kind { return v.kind }

// Span returns the span of the whole value: for a string its quotes, for
// a container its brackets.
func (v *Value) Span() source.Span { return source.Span{Start: int(v.start), End: int(v.end)} }

// Str returns the decoded text of a string; of a string that could not be
// read (Kind Invalid), the text read before the error. It is "" for the
// other kinds.
func (v *Value) Str() string {
	if v.kind == Number {
		return ""
	}
	return v.text
}

// Raw returns the literal text of a number, "" for the other kinds.
func (v *Value) Raw() string {
	if v.kind != Number {
		return ""
	}
	return v.text
}

// Num returns the value of a number: ±Inf for a literal too large for a
// float64, 0 for the other kinds. It is read from the literal on each
// call (a node does not keep it, to stay small).
func (v *Value) Num() float64 {
	if v.kind != Number {
		return 0
	}
	// The parser accepted the literal; out of range, ParseFloat returns
	// ±Inf or ±0 with its error, which is the value the checks need to
	// report it as not finite.
	f, _ := strconv.ParseFloat(v.text, 64)
	return f
}

// Bool returns the value of a boolean, false for the other kinds.
func (v *Value) Bool() bool { return v.flags&flagTrue != 0 }

// Incomplete reports that v is a container whose closing bracket was never
// reached because of a syntax error.
func (v *Value) Incomplete() bool { return v.flags&flagIncomplete != 0 }

// Members returns an object's members in source order, duplicates kept;
// nil for an empty object and the other kinds. The slice is the tree's
// own: its capacity ends with it, and it must not be modified but through
// Shift.
func (v *Value) Members() []Member {
	if v.kind != Object || v.kids == nil {
		return nil
	}
	return unsafe.Slice((*Member)(v.kids), v.n)
}

// Elems returns an array's elements; nil for an empty array and the
// other kinds. The slice is the tree's own: its capacity ends with it,
// and it must not be modified.
func (v *Value) Elems() []*Value {
	if v.kind != Array || v.kids == nil {
		return nil
	}
	return unsafe.Slice((**Value)(v.kids), v.n)
}

// setMembers makes members v's members.
func (v *Value) setMembers(members []Member) {
	v.kids, v.n = nil, int32(len(members))
	if len(members) > 0 {
		v.kids = unsafe.Pointer(unsafe.SliceData(members))
	}
}

// setElems makes elems v's elements.
func (v *Value) setElems(elems []*Value) {
	v.kids, v.n = nil, int32(len(elems))
	if len(elems) > 0 {
		v.kids = unsafe.Pointer(unsafe.SliceData(elems))
	}
}

// NewString returns a string value of text s, without a span.
func NewString(s string) *Value { return &Value{kind: String, text: s} }

// NewObject returns an object of members, without a span; it keeps
// members, which must not be modified afterwards.
func NewObject(members []Member) *Value {
	v := &Value{kind: Object}
	v.setMembers(members)
	return v
}

// NewArray returns an array of elems, without a span; it keeps elems,
// which must not be modified afterwards.
func NewArray(elems []*Value) *Value {
	v := &Value{kind: Array}
	v.setElems(elems)
	return v
}

// CopyScalar returns a copy of v's kind and scalar value (the text of a
// string, the value and literal of a number, the value of a boolean)
// without its span, members or elements.
func (v *Value) CopyScalar() *Value {
	return &Value{kind: v.kind, text: v.text, flags: v.flags & flagTrue}
}

// Shift moves every span of v and of its members and elements by off
// bytes: a value parsed from a slice of a file gets the offsets of the
// file. It modifies the tree in place.
func (v *Value) Shift(off int) {
	if v == nil {
		return
	}
	v.start, v.end = v.start+int32(off), v.end+int32(off)
	members := v.Members()
	for i := range members {
		m := &members[i]
		m.keyStart, m.keyEnd = m.keyStart+int32(off), m.keyEnd+int32(off)
		m.Value.Shift(off)
	}
	for _, e := range v.Elems() {
		e.Shift(off)
	}
}

// Member is one key and value of an object.
type Member struct {
	Key   string
	Value *Value
	// keyStart and keyEnd are the offsets of the key's span.
	keyStart, keyEnd int32
}

// KeySpan returns the span of the member's key with its quotes; it is
// empty for a member built without a source.
func (m Member) KeySpan() source.Span { return source.Span{Start: int(m.keyStart), End: int(m.keyEnd)} }

// Error is a syntax error with the span of the offending input.
type Error struct {
	Span source.Span
	Msg  string
}

// Error implements the error interface.
func (e Error) Error() string { return e.Msg }

// LastMembers returns the members of an object that count, in document
// order: of a key written twice only its last member, as JSON readers keep
// it. It is linear in the number of members; the result may share storage
// with v.Members() and must not be modified. It is nil when v is nil or not
// an object.
func (v *Value) LastMembers() []Member {
	if v == nil || v.kind != Object {
		return nil
	}
	members := v.Members()
	last := make(map[string]int, len(members))
	for i, m := range members {
		last[m.Key] = i
	}
	if len(last) == len(members) {
		return members
	}
	out := make([]Member, 0, len(last))
	for i, m := range members {
		if last[m.Key] == i {
			out = append(out, m)
		}
	}
	return out
}

// Member returns the last member named key, or nil when v is nil, not an
// object, or has no such member.
func (v *Value) Member(key string) *Member {
	if v == nil || v.kind != Object {
		return nil
	}
	members := v.Members()
	for i := len(members) - 1; i >= 0; i-- {
		if members[i].Key == key {
			return &members[i]
		}
	}
	return nil
}

// Get returns the value of the last member named key, or nil.
func (v *Value) Get(key string) *Value {
	if m := v.Member(key); m != nil {
		return m.Value
	}
	return nil
}

// SameScalar reports whether a and b are the same string, number, boolean
// or null. Arrays and objects are never the same scalar.
func SameScalar(a, b *Value) bool {
	if a == nil || b == nil || a.kind != b.kind {
		return false
	}
	switch a.kind {
	case String:
		return a.text == b.text
	case Number:
		return a.text == b.text || a.Num() == b.Num()
	case Bool:
		return a.Bool() == b.Bool()
	case Null:
		return true
	}
	return false
}

// Finite reports whether v is a number with a finite value.
func (v *Value) Finite() bool {
	if v == nil || v.kind != Number {
		return false
	}
	f := v.Num()
	return f-f == 0
}

// BOM is the UTF-8 encoding of U+FEFF, the byte-order mark.
const BOM = "\xEF\xBB\xBF"

// HasBOM reports whether data starts with a UTF-8 byte-order mark.
func HasBOM(data []byte) bool {
	return len(data) >= len(BOM) && string(data[:len(BOM)]) == BOM
}

// BOMMessage says what is wrong with a JSON text that starts with a
// byte-order mark, and how to repair it.
const BOMMessage = "the file starts with a UTF-8 byte-order mark (U+FEFF), which JSON does not allow; " +
	"editors such as Notepad write one when they save as UTF-8: remove it, or save the file as UTF-8 without BOM"

// Parse parses data as one JSON text. The returned errors hold at most one
// syntax error; the tree holds what was parsed before it.
//
// A leading UTF-8 byte-order mark is that one syntax error (RFC 8259 §8.1:
// a JSON text carries none, and the format's validator rejects it), spanning
// the mark; the parse goes on after it, so the tree is the text's as if the
// mark were absent, for the editor, and any later syntax error is not
// reported until the mark is removed. Every JSON file of the format is read
// through Parse, so this is the one place that decides it.
//
// The tree's strings without escapes and its numbers' literals share
// data's memory instead of copying it: a file's tree then costs its nodes
// and not its text a second time. data must not be modified while the
// tree is in use (file contents never are: an edit makes a new buffer).
// The nodes of one tree are allocated together, in a few blocks.
//
// A text of MaxSize bytes or more is refused with an error and no tree.
func Parse(data []byte) (*Value, []Error) {
	if len(data) >= MaxSize {
		return nil, []Error{{Span: source.Span{}, Msg: "the file is too large to read as JSON (2 GiB or more)"}}
	}
	p := &parser{data: data}
	if len(data) > 0 {
		p.text = unsafe.String(unsafe.SliceData(data), len(data))
	}
	bom := HasBOM(data)
	if bom {
		p.pos = len(BOM)
	}
	p.space()
	if p.pos >= len(data) {
		if bom {
			return nil, []Error{bomError()}
		}
		return nil, []Error{{Span: source.Span{Start: p.pos, End: p.pos}, Msg: "the file is empty; expected a JSON value"}}
	}
	v := p.value(0)
	if p.err == nil {
		p.space()
		if p.pos < len(data) {
			p.fail(p.pos, p.pos+1, "unexpected text after the JSON value")
		}
	}
	if bom {
		return v, []Error{bomError()}
	}
	if p.err != nil {
		return v, []Error{*p.err}
	}
	return v, nil
}

// bomError is the syntax error of a leading byte-order mark.
func bomError() Error {
	return Error{Span: source.Span{Start: 0, End: len(BOM)}, Msg: BOMMessage}
}

type parser struct {
	data []byte
	text string // data, shared (see Parse)
	pos  int
	err  *Error
	// members and elems are stacks the open containers collect their
	// members and elements on; each container takes an exact-size copy
	// from memberBlock or elemBlock when it ends, so a tree keeps no spare
	// capacity and growing a container leaves no garbage.
	members []Member
	elems   []*Value
	// nodeBlock, memberBlock and elemBlock are the blocks the tree's
	// nodes, members and elements are taken from: the free room is
	// between their length and capacity.
	nodeBlock   []Value
	memberBlock []Member
	elemBlock   []*Value
	// nodes, memberCount and elemCount count what the blocks gave so far,
	// to size the next block.
	nodes, memberCount, elemCount int
}

// blockSize returns the size of the next block of a kind of which n were
// taken so far and need more: half of what the text after p.pos holds at
// the density seen before it, and at least need. A first block assumes one
// per perByte bytes. Halving the estimate keeps the room a tree leaves
// unused small (under a few percent on the real-content package) for a few
// more blocks.
func (p *parser) blockSize(n, need, perByte int) int {
	rest := len(p.data) - p.pos
	size := rest/perByte + 4
	if n > 0 && p.pos > 0 {
		size = int(int64(n)*int64(rest)/int64(p.pos))/2 + 4
	}
	return max(size, need)
}

// The densities first blocks assume: a little below what JSON files of the
// format hold (a node per 70 bytes, a member per 85, an element per 430).
const (
	bytesPerNode   = 128
	bytesPerMember = 128
	bytesPerElem   = 512
)

// node returns a new node of the tree, of kind k, starting at start.
func (p *parser) node(k Kind, start int) *Value {
	if len(p.nodeBlock) == cap(p.nodeBlock) {
		p.nodeBlock = make([]Value, 0, p.blockSize(p.nodes, 1, bytesPerNode))
	}
	p.nodes++
	p.nodeBlock = p.nodeBlock[:len(p.nodeBlock)+1]
	v := &p.nodeBlock[len(p.nodeBlock)-1]
	v.kind, v.start = k, int32(start)
	return v
}

// takeMembers gives v the members collected since mark.
func (p *parser) takeMembers(v *Value, mark int) {
	if n := len(p.members) - mark; n > 0 {
		if cap(p.memberBlock)-len(p.memberBlock) < n {
			p.memberBlock = make([]Member, 0, p.blockSize(p.memberCount, n, bytesPerMember))
		}
		p.memberCount += n
		at := len(p.memberBlock)
		p.memberBlock = append(p.memberBlock, p.members[mark:]...)
		v.setMembers(p.memberBlock[at:len(p.memberBlock):len(p.memberBlock)])
	}
	clear(p.members[mark:])
	p.members = p.members[:mark]
}

// takeElems gives v the elements collected since mark.
func (p *parser) takeElems(v *Value, mark int) {
	if n := len(p.elems) - mark; n > 0 {
		if cap(p.elemBlock)-len(p.elemBlock) < n {
			p.elemBlock = make([]*Value, 0, p.blockSize(p.elemCount, n, bytesPerElem))
		}
		p.elemCount += n
		at := len(p.elemBlock)
		p.elemBlock = append(p.elemBlock, p.elems[mark:]...)
		v.setElems(p.elemBlock[at:len(p.elemBlock):len(p.elemBlock)])
	}
	clear(p.elems[mark:])
	p.elems = p.elems[:mark]
}

func (p *parser) fail(start, end int, msg string) {
	if p.err != nil {
		return
	}
	if end > len(p.data) {
		end = len(p.data)
	}
	if start > end {
		start = end
	}
	p.err = &Error{Span: source.Span{Start: start, End: end}, Msg: msg}
}

func (p *parser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value parses one value at p.pos. It returns nil only when no value
// starts there.
func (p *parser) value(depth int) *Value {
	if p.pos >= len(p.data) {
		p.fail(p.pos, p.pos, "unexpected end of file; expected a value")
		return nil
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		start := p.pos
		s, ok := p.str()
		v := p.node(String, start)
		v.text, v.end = s, int32(p.pos)
		if !ok {
			v.kind = Invalid
		}
		return v
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return p.word("true", Bool, flagTrue)
	case c == 'f':
		return p.word("false", Bool, 0)
	case c == 'n':
		return p.word("null", Null, 0)
	default:
		end := p.pos + 1
		if _, size := utf8.DecodeRune(p.data[p.pos:]); size > 1 {
			end = p.pos + size
		}
		p.fail(p.pos, end, "expected a JSON value (object, array, string, number, true, false or null)")
		return nil
	}
}

// word parses the literal w, a value of kind k with flags.
func (p *parser) word(w string, k Kind, flags uint8) *Value {
	start := p.pos
	end := start
	for end < len(p.data) && isLetter(p.data[end]) {
		end++
	}
	if string(p.data[start:end]) != w {
		p.fail(start, end, "unknown word "+strconv.Quote(string(p.data[start:end]))+"; expected true, false or null")
		p.pos = end
		return nil
	}
	p.pos = end
	v := p.node(k, start)
	v.end, v.flags = int32(end), flags
	return v
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func (p *parser) number() *Value {
	start := p.pos
	i := p.pos
	if i < len(p.data) && p.data[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(p.data) && p.data[i] >= '0' && p.data[i] <= '9' {
			i++
			n++
		}
		return n
	}
	intStart := i
	if digits() == 0 {
		p.fail(start, i+1, "a number needs digits after its sign")
		p.pos = i
		return nil
	}
	if p.data[intStart] == '0' && i-intStart > 1 {
		p.fail(start, i, "a number must not start with a leading zero")
		p.pos = i
		return nil
	}
	if i < len(p.data) && p.data[i] == '.' {
		i++
		if digits() == 0 {
			p.fail(start, i, "a number needs digits after its decimal point")
			p.pos = i
			return nil
		}
	}
	if i < len(p.data) && (p.data[i] == 'e' || p.data[i] == 'E') {
		i++
		if i < len(p.data) && (p.data[i] == '+' || p.data[i] == '-') {
			i++
		}
		if digits() == 0 {
			p.fail(start, i, "a number needs digits in its exponent")
			p.pos = i
			return nil
		}
	}
	p.pos = i
	v := p.node(Number, start)
	v.text, v.end = p.text[start:i], int32(i)
	return v
}

// str parses a string at p.pos and returns its decoded text. ok is false
// after a syntax error.
func (p *parser) str() (string, bool) {
	start := p.pos
	p.pos++ // opening quote
	var buf []byte
	chunk := p.pos
	for p.pos < len(p.data) {
		// Most of a string is printable ASCII without a quote or a
		// backslash: eight such bytes are skipped at a time.
		for p.pos+8 <= len(p.data) && plainString8(binary.LittleEndian.Uint64(p.data[p.pos:])) {
			p.pos += 8
		}
		if p.pos == len(p.data) {
			break
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			var s string
			if buf == nil {
				s = p.text[chunk:p.pos] // no escape: no copy
			} else {
				s = string(append(buf, p.data[chunk:p.pos]...))
			}
			p.pos++
			return s, true
		case c == '\\':
			buf = append(buf, p.data[chunk:p.pos]...)
			if !p.escape(&buf) {
				return string(buf), false
			}
			chunk = p.pos
		case c < 0x20:
			if c == '\n' || c == '\r' {
				p.fail(start, p.pos, "this string is not closed before the end of the line")
			} else {
				p.fail(p.pos, p.pos+1, "a control character must be escaped inside a string")
			}
			return string(append(buf, p.data[chunk:p.pos]...)), false
		case c < utf8.RuneSelf:
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && size == 1 {
				p.fail(p.pos, p.pos+1, "the string holds a byte that is not valid UTF-8")
				return string(append(buf, p.data[chunk:p.pos]...)), false
			}
			p.pos += size
		}
	}
	p.fail(start, p.pos, "this string is not closed before the end of the file")
	return string(append(buf, p.data[chunk:p.pos]...)), false
}

// plainString8 reports whether the eight bytes of x are all printable
// ASCII (0x20 to 0x7F) and none of them is a quote or a backslash: bytes
// that str passes over without a look.
func plainString8(x uint64) bool {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	// A byte under n makes (b - n) borrow into its high bit; the tests
	// below are exact for whether any byte is one (not for which).
	zero := func(v uint64) uint64 { return (v - ones) &^ v & high }
	return x&high == 0 && (x-0x20*ones)&^x&high == 0 && zero(x^'"'*ones) == 0 && zero(x^'\\'*ones) == 0
}

func (p *parser) escape(buf *[]byte) bool {
	esc := p.pos
	if p.pos+1 >= len(p.data) {
		p.fail(esc, len(p.data), "the file ends inside an escape sequence")
		p.pos = len(p.data)
		return false
	}
	c := p.data[p.pos+1]
	p.pos += 2
	switch c {
	case '"', '\\', '/':
		*buf = append(*buf, c)
	case 'b':
		*buf = append(*buf, '\b')
	case 'f':
		*buf = append(*buf, '\f')
	case 'n':
		*buf = append(*buf, '\n')
	case 'r':
		*buf = append(*buf, '\r')
	case 't':
		*buf = append(*buf, '\t')
	case 'u':
		r, ok := p.hex4()
		if !ok {
			p.fail(esc, p.pos, `"\u" must be followed by four hexadecimal digits`)
			return false
		}
		if utf16.IsSurrogate(r) {
			// A high surrogate followed by an escaped low surrogate is one
			// character; a lone surrogate becomes U+FFFD.
			if p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
				save := p.pos
				p.pos += 2
				if r2, ok := p.hex4(); ok {
					if c := utf16.DecodeRune(r, r2); c != utf8.RuneError {
						r = c
					} else {
						p.pos = save
						r = utf8.RuneError
					}
				} else {
					p.pos = save
					r = utf8.RuneError
				}
			} else {
				r = utf8.RuneError
			}
		}
		*buf = utf8.AppendRune(*buf, r)
	default:
		p.fail(esc, p.pos, "unknown escape sequence \\"+string(rune(c)))
		return false
	}
	return true
}

func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.pos : p.pos+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.pos += 4
	return r, true
}

func (p *parser) object(depth int) *Value {
	v := p.node(Object, p.pos)
	if depth >= MaxDepth {
		p.fail(p.pos, p.pos+1, "the JSON is nested too deeply to analyse (more than "+strconv.Itoa(MaxDepth)+" levels)")
		v.flags |= flagIncomplete
		v.end = int32(p.pos + 1)
		return v
	}
	p.pos++
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		v.end = int32(p.pos)
		return v
	}
	defer p.takeMembers(v, len(p.members))
	for {
		p.space()
		if p.pos >= len(p.data) {
			p.fail(int(v.start), int(v.start)+1, "this object is not closed before the end of the file")
			break
		}
		if p.data[p.pos] != '"' {
			p.fail(p.pos, p.pos+1, "expected a member name in double quotes")
			break
		}
		keyStart := p.pos
		key, ok := p.str()
		m := Member{Key: key, keyStart: int32(keyStart), keyEnd: int32(p.pos)}
		if !ok {
			p.members = append(p.members, m)
			break
		}
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			p.fail(keyStart, int(m.keyEnd), "expected ':' after the member name")
			p.members = append(p.members, m)
			break
		}
		p.pos++
		p.space()
		m.Value = p.value(depth + 1)
		p.members = append(p.members, m)
		if p.err != nil {
			break
		}
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			comma := p.pos
			p.pos++
			p.space()
			if p.pos < len(p.data) && p.data[p.pos] == '}' {
				p.fail(comma, comma+1, "a trailing comma is not allowed before '}'; remove it")
				break
			}
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			v.end = int32(p.pos)
			return v
		}
		if p.pos >= len(p.data) {
			p.fail(int(v.start), int(v.start)+1, "this object is not closed before the end of the file")
		} else {
			p.fail(p.pos, p.pos+1, "expected ',' or '}' after the member value")
		}
		break
	}
	v.flags |= flagIncomplete
	v.end = int32(p.pos)
	return v
}

func (p *parser) array(depth int) *Value {
	v := p.node(Array, p.pos)
	if depth >= MaxDepth {
		p.fail(p.pos, p.pos+1, "the JSON is nested too deeply to analyse (more than "+strconv.Itoa(MaxDepth)+" levels)")
		v.flags |= flagIncomplete
		v.end = int32(p.pos + 1)
		return v
	}
	p.pos++
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		v.end = int32(p.pos)
		return v
	}
	defer p.takeElems(v, len(p.elems))
	for {
		p.space()
		e := p.value(depth + 1)
		if e != nil {
			p.elems = append(p.elems, e)
		}
		if p.err != nil {
			break
		}
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			comma := p.pos
			p.pos++
			p.space()
			if p.pos < len(p.data) && p.data[p.pos] == ']' {
				p.fail(comma, comma+1, "a trailing comma is not allowed before ']'; remove it")
				break
			}
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			v.end = int32(p.pos)
			return v
		}
		if p.pos >= len(p.data) {
			p.fail(int(v.start), int(v.start)+1, "this array is not closed before the end of the file")
		} else {
			p.fail(p.pos, p.pos+1, "expected ',' or ']' after the array element")
		}
		break
	}
	v.flags |= flagIncomplete
	v.end = int32(p.pos)
	return v
}
