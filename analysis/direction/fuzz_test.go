package direction

import (
	"testing"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

// FuzzParse reads arbitrary bytes as direction.json and as a chapter:
// neither panics, every finding's span lies inside the input, every
// retired fence starts with three backticks, and every image is a
// non-empty string.
func FuzzParse(f *testing.F) {
	f.Add([]byte(resolveDoc))
	f.Add([]byte(`{"palette": {"b": [{"i": "#000000"}, {"p": "#FFFFFF"}]}, "contrast": {"c": {"colors": ["palette.b.i"], "against": "palette.b.p", "at_least": 30, "where": "w"}}, "mood": {"m": {"intent": "i", "anti": ["a"], "palette": "palette.b.i"}}}`))
	f.Add([]byte("```direction\n{}\n```\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, s := range RetiredFences(data) {
			if s.Start < 0 || s.End > len(data) || string(data[s.Start:s.Start+3]) != "```" {
				t.Fatalf("fence span %v", s)
			}
		}
		v, _ := jsonsrc.Parse(data)
		if v == nil {
			return
		}
		df := Parse("direction.json", v)
		for _, x := range df.Findings {
			if x.Span.Start < 0 || x.Span.End > len(data) || x.Span.Start > x.Span.End {
				t.Fatalf("%s span %v outside %d bytes", x.Code, x.Span, len(data))
			}
		}
		for _, r := range df.ColorRefs() {
			df.Resolve(r.Text)
		}
		Images(v, func(image *jsonsrc.Value) {
			if image.Kind() != jsonsrc.String || image.Str() == "" {
				t.Fatalf("image %v is not a non-empty string", image)
			}
		})
	})
}
