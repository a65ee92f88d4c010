package clocks

import (
	"testing"

	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/jsonsrc"
)

// FuzzParse reads arbitrary bytes as clocks.json and as a test's
// unchanged: neither panics, and every finding's span lies inside the
// input.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"w": {"unit": "s", "advances": ["runtime.x"], "modes": {"p": "running"}}}`))
	f.Add([]byte(`{"modes": ["p"], "values": ["runtime.x"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, _ := jsonsrc.Parse(data)
		if v == nil {
			return
		}
		cf := Parse("clocks.json", v)
		for _, x := range cf.Findings {
			if x.Span.Start < 0 || x.Span.End > len(data) || x.Span.Start > x.Span.End {
				t.Fatalf("%s span %v outside %d bytes", x.Code, x.Span, len(data))
			}
		}
		for _, x := range CheckUnchanged(cf, v, nil, "plan.md") {
			if x.Span.Start < 0 || x.Span.End > len(data) || x.Span.Start > x.Span.End {
				t.Fatalf("%s span %v outside %d bytes", x.Code, x.Span, len(data))
			}
		}
	})
}

// FuzzModeTags reads arbitrary bytes as a chapter: reading its mode tags
// never panics and every tag is a bracketed word of a heading.
func FuzzModeTags(f *testing.F) {
	f.Add([]byte("# Scan [IN-MISSION] [2] [x](#y)\n"))
	f.Add([]byte("Title [PAUSED]\n===\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc := markdown.Parse(data)
		for _, tag := range ModeTags(doc) {
			h := doc.Headings[tag.Heading]
			if tag.Span.Start < h.TextSpan().Start || tag.Span.End > h.TextSpan().End {
				t.Fatalf("tag %q at %v outside its heading %v", tag.Word, tag.Span, h.TextSpan())
			}
			if string(data[tag.Span.Start:tag.Span.End]) != "["+tag.Word+"]" {
				t.Fatalf("tag %q spans %q", tag.Word, data[tag.Span.Start:tag.Span.End])
			}
		}
	})
}
