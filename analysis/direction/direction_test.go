package direction

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

func TestContrast(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"#000000", "#FFFFFF", 21},
		{"#FFFFFF", "#000000", 21},
		{"#ffffff", "#FFFFFF", 1},
		{"#777777", "#FFFFFF", 4.4781},
		{"#767676", "#FFFFFF", 4.5422},
		{"#FF0000", "#FFFFFF", 3.9985},
		{"#0000FF", "#FFFFFF", 8.5925},
		{"#00FF00", "#000000", 15.304},
		{"#2B2A26", "#F7F4EC", 13.0696},
		{"#0A0A0A", "#000000", 1.0607}, // below the 0.03928 knee
	} {
		a, okA := ParseHex(tc.a)
		b, okB := ParseHex(tc.b)
		if !okA || !okB {
			t.Fatalf("ParseHex(%q, %q) failed", tc.a, tc.b)
		}
		if got := Contrast(a, b); math.Abs(got-tc.want) > 5e-4 {
			t.Errorf("Contrast(%s, %s) = %.6f, want %.4f", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestMeets(t *testing.T) {
	for _, tc := range []struct {
		ratio, min float64
		want       bool
	}{
		{4.5, 4.5, true},
		{4.5 - 5e-10, 4.5, true},
		{4.5 - 2e-9, 4.5, false},
		{21, 4.5, true},
		{3, 4.5, false},
	} {
		if got := Meets(tc.ratio, tc.min); got != tc.want {
			t.Errorf("Meets(%v, %v) = %v, want %v", tc.ratio, tc.min, got, tc.want)
		}
	}
}

func TestParseHex(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want RGB
		ok   bool
	}{
		{"#F7f4EC", RGB{0xF7, 0xF4, 0xEC}, true},
		{"#000000", RGB{}, true},
		{"F7F4EC", RGB{}, false},
		{"#F7F4E", RGB{}, false},
		{"#F7F4EG", RGB{}, false},
		{"#F7F4EC0", RGB{}, false},
	} {
		got, ok := ParseHex(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseHex(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

const resolveDoc = `{"palette": {
  "board": [{"ink": "#000000"}, "#FFFFFF"],
  "enemies.fire": [{"flame": "#FF0000"}],
  "enemies": [{"fire": "#AA0000"}]
}}`

func TestResolve(t *testing.T) {
	v, errs := jsonsrc.Parse([]byte(resolveDoc))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	f := Parse("direction.json", v)
	for _, tc := range []struct {
		addr         string
		palette, col string
	}{
		{"palette.board", "board", ""},
		{"palette.board.ink", "", "board.ink"},
		{"palette.board.paper", "", ""},
		{"palette.enemies.fire", "enemies.fire", ""}, // whole key first
		{"palette.enemies.fire.flame", "", "enemies.fire.flame"},
		{"palette.enemies", "enemies", ""},
		{"palette.", "", ""},
		{"palette", "", ""},
		{"colors.board", "", ""},
	} {
		p, c := f.Resolve(tc.addr)
		var gotP, gotC string
		if p != nil {
			gotP = p.Key
		}
		if c != nil {
			gotC = c.Palette.Key + "." + c.Name
		}
		if gotP != tc.palette || gotC != tc.col {
			t.Errorf("Resolve(%q) = %q, %q; want %q, %q", tc.addr, gotP, gotC, tc.palette, tc.col)
		}
	}
	// enemies + fire collides with the palette enemies.fire.
	var codes []string
	for _, x := range f.Findings {
		codes = append(codes, x.Code)
	}
	if got := strings.Join(codes, " "); got != CodeKeyCollision {
		t.Errorf("findings %q, want %s", got, CodeKeyCollision)
	}
}

func TestRetiredFences(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"```direction\n{}\n```\n", []string{"```direction"}},
		{"text\n```DIRECTION\n```", []string{"```DIRECTION"}},
		{"```Direction-notes\nx\n```", []string{"```Direction"}},
		{"```direction\n{}\n", nil},        // no closing backticks after the line
		{"```direction ```\nplain\n", nil}, // backticks only on the same line
		{"``direction\n```\n", nil},        // two backticks
		{"``` direction\n```\n", nil},      // not directly followed
		{"```directio\n```\n", nil},        // another word
		{"````direction\n````\n", []string{"```direction"}},
		{"```json\n```direction\n```\n", []string{"```direction"}},
	} {
		var got []string
		for _, s := range RetiredFences([]byte(tc.in)) {
			got = append(got, tc.in[s.Start:s.End])
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("RetiredFences(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// BenchmarkParseHugePalette reads one palette of 20,000 named colors that
// a contrast promise measures one by one: the lookups by name are not
// quadratic in the palette's size.
func BenchmarkParseHugePalette(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"palette": {"big": [`)
	const n = 20000
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"c%d": "#%06X"}`, i, i*7919%0xFFFFFF)
	}
	sb.WriteString(`]}, "contrast": {"all": {"colors": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `"palette.big.c%d"`, i)
	}
	sb.WriteString(`], "against": "palette.big.c1", "at_least": 1, "where": "w"}}}`)
	v, err := jsonsrc.Parse([]byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if f := Parse("direction.json", v); len(f.Palettes) != 1 || len(f.Palettes[0].Colors) != n {
			b.Fatalf("read %d palettes", len(f.Palettes))
		}
	}
}

func TestImages(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"borrow and both anti objects", `{"mood": {"m": {"borrows": [{"image": "a.png"}], "anti": ["s", {"not": "n", "image": "b.png"}]}}, "anti": {"x": {"not": "n", "image": "c.png"}, "y": "plain"}}`, []string{"a.png", "b.png", "c.png"}},
		{"a color named image is no image", `{"palette": {"p": [{"image": "#FFFFFF"}]}}`, nil},
		{"a promise's stray image is no image", `{"colors": {"c": {"image": "d.png"}}, "viewing": {"image": "e.png"}}`, nil},
		{"an empty image is the shape's fault", `{"anti": {"x": {"not": "n", "image": ""}}}`, nil},
		{"a mood written twice counts with its last value", `{"mood": {"m": {"borrows": [{"image": "old.png"}]}, "m": {"borrows": [{"image": "new.png"}]}}}`, []string{"new.png"}},
		{"not an object", `[{"anti": {"x": {"image": "f.png"}}}]`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := jsonsrc.Parse([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			Images(v, func(image *jsonsrc.Value) { got = append(got, image.Str()) })
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("Images = %q, want %q", got, tc.want)
			}
		})
	}
}

// BenchmarkParseManyKeys reads maps of 20,000 anti-references and 20,000
// palettes: reading each member with its last value is not quadratic in
// the size of a map.
func BenchmarkParseManyKeys(b *testing.B) {
	var sb strings.Builder
	const n = 20000
	sb.WriteString(`{"anti": {`)
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `"a%d": {"not": "x", "image": "i%d.png", "license": "l"}`, i, i)
	}
	sb.WriteString(`}, "palette": {`)
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `"p%d": [{"c": "#000000"}]`, i)
	}
	sb.WriteString(`}}`)
	v, err := jsonsrc.Parse([]byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f := Parse("direction.json", v)
		images := 0
		Images(v, func(*jsonsrc.Value) { images++ })
		if len(f.Palettes) != n || len(f.Entries) != n || images != n {
			b.Fatalf("read %d palettes, %d entries, %d images", len(f.Palettes), len(f.Entries), images)
		}
	}
}
