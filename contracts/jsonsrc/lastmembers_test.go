package jsonsrc

import (
	"fmt"
	"strings"
	"testing"
)

func TestLastMembers(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		want       string // key=value of each member that counts, in order
	}{
		{"no repeat", `{"a": 1, "b": 2}`, "a=1 b=2"},
		{"last wins in place of the last", `{"a": 1, "b": 2, "a": 3}`, "b=2 a=3"},
		{"three times", `{"a": 1, "a": 2, "b": 0, "a": 3}`, "b=0 a=3"},
		{"empty object", `{}`, ""},
		{"not an object", `[1, 2]`, ""},
		{"null", `null`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, errs := Parse([]byte(tc.json))
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			var got []string
			for _, m := range v.LastMembers() {
				got = append(got, fmt.Sprintf("%s=%s", m.Key, tc.json[m.Value.Span().Start:m.Value.Span().End]))
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("LastMembers = %q, want %q", s, tc.want)
			}
		})
	}
	var nilValue *Value
	if got := nilValue.LastMembers(); got != nil {
		t.Errorf("nil value: %v", got)
	}
}

// BenchmarkLastMembers reads a minified object of 100,000 members, every
// key written twice, at two sizes: the time per member stays the same
// (linear), where looking up each member's last writing was quadratic.
func BenchmarkLastMembers(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		var sb strings.Builder
		sb.WriteByte('{')
		for i := 0; i < n; i++ {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `"k%d":%d`, i%(n/2), i)
		}
		sb.WriteByte('}')
		v, errs := Parse([]byte(sb.String()))
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if got := len(v.LastMembers()); got != n/2 {
					b.Fatalf("%d members count, want %d", got, n/2)
				}
			}
		})
	}
}
