package jsonsrc

import (
	"encoding/binary"
	"strings"
	"testing"
	"unsafe"

	"github.com/gddls/gddls/contracts/source"
)

func TestParseSpans(t *testing.T) {
	src := "\ufeff{\r\n  \"answers\": {\"overflow\": \"clamp\"},\r\n  \"n\": [1, -0, 1e400, true, null]\r\n}"
	v, errs := Parse([]byte(src))
	// The byte-order mark is the one syntax error; the tree past it is whole.
	if len(errs) != 1 || errs[0].Span != (source.Span{Start: 0, End: 3}) {
		t.Fatalf("errors = %v, want the byte-order mark alone", errs)
	}
	m := v.Get("answers").Member("overflow")
	if got := src[m.KeySpan().Start:m.KeySpan().End]; got != `"overflow"` {
		t.Errorf("key span = %q", got)
	}
	if got := src[m.Value.Span().Start:m.Value.Span().End]; got != `"clamp"` || m.Value.Str() != "clamp" {
		t.Errorf("value span = %q (%q)", got, m.Value.Str())
	}
	n := v.Get("n")
	if len(n.Elems()) != 5 {
		t.Fatalf("elements = %d", len(n.Elems()))
	}
	if !n.Elems()[0].Finite() || n.Elems()[2].Finite() {
		t.Errorf("finite: 1=%v 1e400=%v", n.Elems()[0].Finite(), n.Elems()[2].Finite())
	}
	if n.Elems()[1].Raw() != "-0" || n.Elems()[3].Kind() != Bool || n.Elems()[4].Kind() != Null {
		t.Errorf("elements parsed wrong: %+v", n.Elems())
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, wantAt string // wantAt: the text the error span starts at
		wantMsg           string
	}{
		{"empty", "", "", "empty"},
		{"truncated object", `{"a": 1`, `{`, "not closed"},
		{"missing comma", `{"a": 1 "b": 2}`, `"b"`, "expected ','"},
		{"trailing comma", `[1, 2,]`, `,]`, "trailing comma"},
		{"unclosed string", "{\"a\": \"abc\n}", `"abc`, "not closed"},
		{"bad word", `{"a": tru}`, `tru`, "unknown word"},
		{"leading zero", `[01]`, `01`, "leading zero"},
		{"bad escape", `["\x"]`, `\x`, "unknown escape"},
		{"trailing text", `{} x`, `x`, "after the JSON value"},
		{"invalid utf8", "[\"\xff\"]", "\xff", "UTF-8"},
		{"missing colon", `{"a" 1}`, `"a"`, "expected ':'"},
		{"byte-order mark", "\ufeff{}", "\ufeff{}", "byte-order mark"},
		{"byte-order mark alone", "\ufeff", "\ufeff", "byte-order mark"},
		{"byte-order mark before an error", "\ufeff{\"a\" 1}", "\ufeff", "Notepad"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := Parse([]byte(tt.src))
			if len(errs) != 1 {
				t.Fatalf("got %d errors, want 1", len(errs))
			}
			e := errs[0]
			if !strings.HasPrefix(tt.src[e.Span.Start:], tt.wantAt) {
				t.Errorf("error at %q, want at %q", tt.src[e.Span.Start:], tt.wantAt)
			}
			if !strings.Contains(e.Msg, tt.wantMsg) {
				t.Errorf("message %q lacks %q", e.Msg, tt.wantMsg)
			}
		})
	}
}

func TestPartialTreeAndDepth(t *testing.T) {
	v, errs := Parse([]byte(`{"rows": {"w": [{"id": "a"}, {"id": `))
	if len(errs) != 1 || v == nil || !v.Incomplete() {
		t.Fatalf("want a partial tree and one error, got %v %v", v, errs)
	}
	if got := v.Get("rows").Get("w").Elems()[0].Get("id").Str(); got != "a" {
		t.Errorf("partial tree lost parsed data: %q", got)
	}
	deep := strings.Repeat("[", 100000)
	if _, errs := Parse([]byte(deep)); len(errs) != 1 || !strings.Contains(errs[0].Msg, "nested too deeply") {
		t.Errorf("deep nesting: %v", errs)
	}
}

func TestStringEscapes(t *testing.T) {
	v, errs := Parse([]byte(`"a\u00e9\ud83d\ude00\ud800z\n"`))
	if errs != nil {
		t.Fatal(errs)
	}
	if v.Str() != "aé😀\ufffdz\n" {
		t.Errorf("decoded %q", v.Str())
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `[`, `"\u12`, "\ufeff{}", `{"a":1e400}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, errs := Parse(data)
		if len(errs) == 0 && v == nil {
			t.Fatal("no value and no error")
		}
		for _, e := range errs {
			if e.Span.Start < 0 || e.Span.End > len(data) || e.Span.Start > e.Span.End {
				t.Fatalf("bad error span %v for %d bytes", e.Span, len(data))
			}
		}
		checkTree(t, v, source.Span{Start: 0, End: len(data)})
	})
}

// checkTree fails t unless v and every value and key under it have a span
// inside within and inside their complete container's, and the members and
// elements of each container end with their slices' capacity (they share
// blocks with other containers').
func checkTree(t *testing.T, v *Value, within source.Span) {
	t.Helper()
	if v == nil {
		return
	}
	s := v.Span()
	if s.Start < within.Start || s.End > within.End || s.Start > s.End {
		t.Fatalf("%s spans %v outside %v", v.Kind(), s, within)
	}
	if v.Incomplete() {
		// A container cut short ends where the parse stopped, which may be
		// before the end of its last child: the opening bracket of one
		// nested too deeply.
		s = within
	}
	members, elems := v.Members(), v.Elems()
	if cap(members) != len(members) || cap(elems) != len(elems) {
		t.Fatalf("%s: %d members in %d, %d elements in %d", v.Kind(), len(members), cap(members), len(elems), cap(elems))
	}
	for _, m := range members {
		if k := m.KeySpan(); k.Start < s.Start || k.End > s.End || k.Start > k.End {
			t.Fatalf("key %q spans %v outside %v", m.Key, k, s)
		}
		checkTree(t, m.Value, s)
	}
	for _, e := range elems {
		checkTree(t, e, s)
	}
}

// TestAccessorsByKind requires each accessor to answer for its own kind
// only, since a node keeps a string's text and a number's literal in one
// field and an object's members and an array's elements in another.
func TestAccessorsByKind(t *testing.T) {
	v, errs := Parse([]byte(`{"s": "x", "n": 2.5, "t": true, "f": false, "z": null, "a": [1, "y"], "o": {"k": 1}, "e": {}, "ea": []}`))
	if errs != nil {
		t.Fatal(errs)
	}
	tests := []struct {
		key       string
		kind      Kind
		str, raw  string
		num       float64
		bool      bool
		nMembers  int
		nElements int
	}{
		{"s", String, "x", "", 0, false, 0, 0},
		{"n", Number, "", "2.5", 2.5, false, 0, 0},
		{"t", Bool, "", "", 0, true, 0, 0},
		{"f", Bool, "", "", 0, false, 0, 0},
		{"z", Null, "", "", 0, false, 0, 0},
		{"a", Array, "", "", 0, false, 0, 2},
		{"o", Object, "", "", 0, false, 1, 0},
		{"e", Object, "", "", 0, false, 0, 0},
		{"ea", Array, "", "", 0, false, 0, 0},
	}
	for _, tt := range tests {
		x := v.Get(tt.key)
		if x.Kind() != tt.kind || x.Str() != tt.str || x.Raw() != tt.raw || x.Num() != tt.num || x.Bool() != tt.bool ||
			len(x.Members()) != tt.nMembers || len(x.Elems()) != tt.nElements || x.Incomplete() {
			t.Errorf("%s: %s %q %q %v %v %d members %d elements incomplete %v", tt.key, x.Kind(), x.Str(), x.Raw(), x.Num(), x.Bool(),
				len(x.Members()), len(x.Elems()), x.Incomplete())
		}
	}
	// Appending to one container's members must not write over the
	// members that follow them in the same block: the root's, taken when
	// it closed after "o".
	_ = append(v.Get("o").Members(), Member{Key: "w"})
	if v.Members()[0].Key != "s" {
		t.Errorf("an append to the members of \"o\" wrote over the root's first member: %q", v.Members()[0].Key)
	}
}

// TestBuiltValues covers the values built without a source and Shift.
func TestBuiltValues(t *testing.T) {
	v, _ := Parse([]byte(`[1e2, true, "s"]`))
	for i, e := range v.Elems() {
		c := e.CopyScalar()
		if !SameScalar(c, e) || c.Raw() != e.Raw() || c.Span() != (source.Span{}) {
			t.Errorf("element %d: copy %s %q %q at %v", i, c.Kind(), c.Raw(), c.Str(), c.Span())
		}
	}
	o := NewObject([]Member{{Key: "k", Value: NewArray([]*Value{NewString("x")})}})
	if o.Kind() != Object || o.Get("k").Kind() != Array || o.Get("k").Elems()[0].Str() != "x" {
		t.Errorf("built object: %v", o)
	}
	if NewObject(nil).Members() != nil || NewArray(nil).Elems() != nil {
		t.Errorf("an empty built container has children")
	}
	w, _ := Parse([]byte(`{"a": [1]}`))
	w.Shift(10)
	m := w.Member("a")
	if w.Span() != (source.Span{Start: 10, End: 20}) || m.KeySpan() != (source.Span{Start: 11, End: 14}) ||
		m.Value.Elems()[0].Span() != (source.Span{Start: 17, End: 18}) {
		t.Errorf("shifted spans: %v %v %v", w.Span(), m.KeySpan(), m.Value.Elems()[0].Span())
	}
}

// TestNodeSize keeps the nodes as small as the live heap of a loaded
// package needs them (docs/PERFORMANCE.md, "Compact JSON trees").
func TestNodeSize(t *testing.T) {
	if v, m := unsafe.Sizeof(Value{}), unsafe.Sizeof(Member{}); v > 40 || m > 32 {
		t.Errorf("a Value is %d bytes (at most 40), a Member %d (at most 32)", v, m)
	}
}

// TestPlainString8 compares plainString8, which tests eight bytes at once,
// with a test of each byte: every byte value at every place of a block,
// alone and beside every other byte value at the next place.
func TestPlainString8(t *testing.T) {
	plain := func(b byte) bool { return b >= 0x20 && b < 0x80 && b != '"' && b != '\\' }
	for at := 0; at < 8; at++ {
		for b := 0; b < 256; b++ {
			for c := 0; c < 256; c++ {
				block := []byte("abcdefgh")
				block[at] = byte(b)
				if at < 7 {
					block[at+1] = byte(c)
				} else if c > 0 {
					break
				}
				want := true
				for _, x := range block {
					want = want && plain(x)
				}
				if got := plainString8(binary.LittleEndian.Uint64(block)); got != want {
					t.Fatalf("plainString8(%q) = %v, want %v", block, got, want)
				}
			}
		}
	}
}
