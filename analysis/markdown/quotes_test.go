package markdown

import (
	"bytes"
	"reflect"
	"sort"
	"testing"
)

// findQuotesByByte is findQuotes as it was first written, looking at every
// byte; findQuotes must find exactly what it finds.
func findQuotesByByte(b []byte, excl [][2]int) []quoteAt {
	sort.Slice(excl, func(i, j int) bool { return excl[i][0] < excl[j][0] })
	ptr := 0
	inExcl := func(i int) int {
		for ptr < len(excl) && excl[ptr][1] <= i {
			ptr++
		}
		if ptr < len(excl) && excl[ptr][0] <= i {
			return excl[ptr][1]
		}
		return -1
	}
	type mark struct {
		open, close string
		curly       bool
	}
	var out []quoteAt
	for _, m := range []mark{{"\u201c", "\u201d", true}, {`"`, `"`, false}} {
		ptr = 0
		for i := 0; i < len(b); {
			if e := inExcl(i); e >= 0 {
				i = e
				continue
			}
			if !bytes.HasPrefix(b[i:], []byte(m.open)) || (!m.curly && !straightOpens(b, i)) {
				i++
				continue
			}
			a := i + len(m.open)
			z := -1
			for j := a; j < len(b); {
				if e := inExcl(j); e >= 0 {
					j = e
					continue
				}
				if bytes.HasPrefix(b[j:], []byte(m.close)) && (m.curly || straightCloses(b, a, j)) {
					z = j
					break
				}
				j++
			}
			if z < 0 {
				break
			}
			out = append(out, quoteAt{open: i, a: a, z: z, end: z + len(m.close), curly: m.curly})
			i = z + len(m.close)
		}
	}
	return out
}

// exclusions reads ranges from the bytes of spec, two at a time, inside
// [0, n].
func exclusions(spec []byte, n int) [][2]int {
	var out [][2]int
	for i := 0; i+1 < len(spec) && n > 0; i += 2 {
		a, z := int(spec[i])%(n+1), int(spec[i+1])%(n+1)
		if a > z {
			a, z = z, a
		}
		if a < z {
			out = append(out, [2]int{a, z})
		}
	}
	return out
}

func TestFindQuotesJumps(t *testing.T) {
	tests := []struct {
		text string
		excl [][2]int
	}{
		{`He said "go" and “stop” then "wait`, nil},
		{`a "b" c "d" 5" e "f"g" "h"`, nil},
		{"“one” “two” “three", [][2]int{{0, 3}}},
		{`x "in ` + "`code\"`" + ` out" y`, [][2]int{{6, 13}}},
		{`"a" "b" "c"`, [][2]int{{0, 5}, {2, 9}}},
		{`"a" "b" "c"`, [][2]int{{1, 2}, {0, 4}, {8, 11}}},
		{"no quotes here", nil},
		{`"`, nil},
		{`5""a" b`, nil},
		{"5\u201c\u201ca\u201d", [][2]int{{1, 4}}},
	}
	for _, tc := range tests {
		want := findQuotesByByte([]byte(tc.text), append([][2]int(nil), tc.excl...))
		got := findQuotes([]byte(tc.text), append([][2]int(nil), tc.excl...))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q %v: got %+v, want %+v", tc.text, tc.excl, got, want)
		}
	}
}

func FuzzFindQuotes(f *testing.F) {
	f.Add([]byte(`He said "go" and “stop” then "wait`), []byte{3, 9, 1, 20})
	f.Add([]byte(`"a" "b" "c"`), []byte{0, 5, 2, 9})
	f.Fuzz(func(t *testing.T, text, spec []byte) {
		excl := exclusions(spec, len(text))
		want := findQuotesByByte(text, append([][2]int(nil), excl...))
		got := findQuotes(text, append([][2]int(nil), excl...))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q %v: got %+v, want %+v", text, excl, got, want)
		}
	})
}
