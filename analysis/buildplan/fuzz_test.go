package buildplan

import (
	"testing"

	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// FuzzParse reads any bytes as a build plan and checks it: nothing panics,
// every span stays inside the file, every test block lies inside its
// fence, and a test whose block does not parse reports only its syntax
// error.
func FuzzParse(f *testing.F) {
	f.Add([]byte(plan))
	f.Add([]byte(block(`{"type": "general", "scope": "s", "holds": "h", "extensions": {"x": {}}}`)))
	f.Add([]byte("### AT-1\n```test\n{\"type\":\"scenario\"\n"))
	f.Add([]byte("> ### AT-1: quoted\n> ```test\n> {}\n> ```\n"))
	f.Add([]byte("### AT-1\r\n\r\n~~~~test\r\n[1,\r\n~~~~\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := Parse(markdown.Parse(data))
		in := func(s source.Span) bool { return 0 <= s.Start && s.Start <= s.End && s.End <= len(data) }
		for _, tc := range p.Tests {
			if !in(tc.IDSpan) || !in(tc.HeadingSpan) || !in(tc.Next) {
				t.Fatalf("%s: span outside the file", tc.ID)
			}
			if tc.Block != nil {
				if !in(tc.Content) || tc.Block.Span().Start < tc.Content.Start || tc.Block.Span().End > tc.Content.End {
					t.Fatalf("%s: block %v outside its content %v", tc.ID, tc.Block.Span(), tc.Content)
				}
				walk(tc.Block, func(v *jsonsrc.Value) {
					if v.Span().Start < tc.Content.Start || v.Span().End > tc.Content.End {
						t.Fatalf("%s: value %v outside its content %v", tc.ID, v.Span(), tc.Content)
					}
				})
			}
		}
		perTest := map[int]int{}
		for _, fd := range Check(p, "plan") {
			if !in(fd.Span) {
				t.Fatalf("%s at %v outside the file", fd.Code, fd.Span)
			}
			for i, tc := range p.Tests {
				if tc.SyntaxError != nil && tc.Content.Start <= fd.Span.Start && fd.Span.End <= tc.Content.End {
					perTest[i]++
					if fd.Code != CodeJSON || perTest[i] > 1 {
						t.Fatalf("%s: a block that does not parse reports %s", tc.ID, fd.Code)
					}
				}
			}
		}
	})
}

func walk(v *jsonsrc.Value, visit func(*jsonsrc.Value)) {
	if v == nil {
		return
	}
	visit(v)
	for _, m := range v.Members() {
		walk(m.Value, visit)
	}
	for _, e := range v.Elems() {
		walk(e, visit)
	}
}
