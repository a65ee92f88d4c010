package review

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/markdown"
)

func literalTexts(src string) []string {
	doc := markdown.Parse([]byte(src))
	var out []string
	for _, l := range Literals(doc) {
		if got := src[l.Span.Start:l.Span.End]; got != l.Text {
			out = append(out, "span "+got+" != text "+l.Text)
		}
		out = append(out, l.Text)
	}
	return out
}

func TestLiterals(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"plain numbers", "The lamp holds 12 units and burns 0.5 a second.\n", []string{"12", "0.5"}},
		{"sentence end and brackets", "It holds 12. Then (30) or [4], 7; 8!\n", []string{"12", "30", "4", "7", "8"}},
		{"negative and percent", "A penalty of -3 and −2 applies to 50% of moths.\n", []string{"-3", "−2", "50"}},
		{"thousands", "It costs 1,000 coins, or 12,500,000 in all, not 1,00.\n", []string{"1,000", "12,500,000"}},
		{"glued to words", "A 3D view, the 2nd lamp, 10px, x2, v0.9 and web-2d.\n", nil},
		{"versions, times, ratios, ranges, dates", "Since 1.2.3 at 10:30, 1/2 of 3-4 moths on 2026-12-01.\n", nil},
		{"identifiers", "See AT-3, AT 4, rule-3, #7, moth_2 and @5.\n", nil},
		{"sections", "As §4 and § 2 and section 3 and Chapter 5 say, 6 moths.\n", []string{"6"}},
		{"list numbers", "1. first 10 moths\n2) second\n   3. nested 4\n", []string{"10", "4"}},
		{"heading, code and tags", "# Level 3\n\n```\n12\n```\n\n    40 indented\n\n> DELEGATED: up to 9 lamps\n> and 11 more\n\nInline `12` is code.\n", []string{"11"}},
		{"links", "See [7 moths](02-mechanics.md#rule-3) and <https://x.org/5>.\n\n[ref]: https://x.org/8\n", []string{"7"}},
		{"html comment", "<!-- 12\n13 -->\n14 moths\n", []string{"14"}},
		{"comment opener in code", "```\n<!--\n```\n\n15 moths\n", []string{"15"}},
		{"crlf", "It holds 12\r\nand 30.\r\n", []string{"12", "30"}},
		{"line start minus", "-5 moths\n", []string{"-5"}},
		{"dash after a word is no minus", "a-5 moths\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := literalTexts(tc.src); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Literals(%q)\n got %q\nwant %q", tc.src, got, tc.want)
			}
		})
	}
}

func TestLiteralValues(t *testing.T) {
	doc := markdown.Parse([]byte("It holds 12,000 or -0.25 or 7.\n"))
	var got []float64
	for _, l := range Literals(doc) {
		got = append(got, l.Value)
	}
	if want := []float64{12000, -0.25, 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("values %v, want %v", got, want)
	}
}

func TestParagraphs(t *testing.T) {
	src := "# T\n\nOne line\nand two.\n\n> DELEGATED: the pot.\n> Still delegated.\nLazy line.\n\n- a\n- b\n\n```\ncode\n```\nAfter.\n"
	doc := markdown.Parse([]byte(src))
	var got []string
	for _, p := range Paragraphs(doc) {
		s := src[p.Span.Start:p.Span.End]
		if p.Delegated {
			s = "D:" + s
		}
		got = append(got, s)
	}
	want := []string{"One line\nand two.", "D:> Still delegated.\nLazy line.", "- a\n- b", "After."}
	if doc.AuthorityAt(7) == markdown.Fixed {
		// The lazy line is outside the blockquote for the tag scan.
		want = []string{"One line\nand two.", "D:> Still delegated.", "Lazy line.", "- a\n- b", "After."}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Paragraphs\n got %q\nwant %q", got, want)
	}
}

func hintsOf(src string) []string {
	var out []string
	for _, h := range TieBreaks(markdown.Parse([]byte(src))) {
		out = append(out, h.Code[len("TIE_BREAK_"):]+"@"+src[h.Span.Start:h.Span.End])
	}
	return out
}

func TestTieBreaks(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"choice without tie-break", "Each moth flies to the nearest lamp.\n", []string{"CHOICE@nearest"}},
		{"capitals", "The Moth Picks a lamp.\n", []string{"CHOICE@Picks"}},
		{"choice with tie-break", "Each moth flies to the nearest lamp; when two are equally near, the oldest lamp wins.\n", nil},
		{"tie word", "Each moth picks a lamp. Ties go to the lamp lit first.\n", nil},
		{"choice over a line break", "Two lamps that light at the same\ntime both draw the moth.\n", []string{"CHOICE@at the same\ntime"}},
		{"tie-break in another paragraph does not count", "Each moth picks a lamp.\n\nTies go to the oldest lamp.\n", []string{"CHOICE@picks"}},
		{"delegated passage is exempt", "> DELEGATED: the builder picks the pot.\n", nil},
		{"personalization passage is exempt", "> PERSONALIZATION: pace\n> The player picks a pace.\n", nil},
		{"ruleset passage is Fixed", "> RULESET: night\n> Each moth picks a lamp.\n", []string{"CHOICE@picks"}},
		{"words in code are not read", "Each moth reads `rules.nearest`.\n", nil},
		{"heading is no paragraph", "# Picking a lamp\n\nText.\n", nil},
		{"part of a word", "A picket fence and a selection of lamps.\n", nil},
		{"shared ceiling", "At most 3 moths in total may rest on the lamps.\n", []string{"SHARED_CEILING@At most"}},
		{"shared ceiling divided", "At most 3 moths in total may rest on the lamps, divided evenly.\n", nil},
		{"shared ceiling with what happens to the rest", "At most 3 moths in total rest on the lamps; a fourth cannot land.\n", nil},
		{"shared ceiling with an order", "Up to 6 moths share the lamp, in order of arrival.\n", nil},
		{"a limit of one thing", "The lamp holds at most 3 units of oil.\n", nil},
		{"both", "Moths pick a lamp; up to 3 moths in total rest there.\n", []string{"CHOICE@pick", "SHARED_CEILING@up to"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := hintsOf(tc.src); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("TieBreaks(%q)\n got %q\nwant %q", tc.src, got, tc.want)
			}
		})
	}
}

func TestTieBreakMessages(t *testing.T) {
	hs := TieBreaks(markdown.Parse([]byte("Moths pick a lamp; up to 3 moths in total rest there.\n")))
	if len(hs) != 2 {
		t.Fatalf("%d hints, want 2", len(hs))
	}
	if !strings.Contains(hs[0].Message, `"pick"`) || !strings.Contains(hs[0].Message, "tie-break") {
		t.Errorf("choice message: %s", hs[0].Message)
	}
	if !strings.Contains(hs[1].Message, `"up to"`) || !strings.Contains(hs[1].Message, "divided") {
		t.Errorf("ceiling message: %s", hs[1].Message)
	}
}

// FuzzReview reads arbitrary bytes as a chapter: the readings never panic,
// and every span lies inside the input and, for a literal, holds its text.
func FuzzReview(f *testing.F) {
	f.Add([]byte("Each moth picks the nearest of 12 lamps; at most 3 in total.\n"))
	f.Add([]byte("1. -5 and 1,000\r\n> DELEGATED: 7\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc := markdown.Parse(data)
		for _, l := range Literals(doc) {
			if l.Span.Start < 0 || l.Span.End > len(data) || l.Span.Start >= l.Span.End || string(data[l.Span.Start:l.Span.End]) != l.Text {
				t.Fatalf("literal %q at %v in %d bytes", l.Text, l.Span, len(data))
			}
		}
		for _, h := range TieBreaks(doc) {
			if h.Span.Start < 0 || h.Span.End > len(data) || h.Span.Start >= h.Span.End {
				t.Fatalf("%s at %v in %d bytes", h.Code, h.Span, len(data))
			}
		}
	})
}

// BenchmarkManyParagraphs reads the literals and tie-break hints of a
// chapter of 20,000 paragraphs, each with inline code and a link: masking
// a paragraph looks only at the code and links near it, so the reading is
// not quadratic in the chapter's size.
func BenchmarkManyParagraphs(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("# Mechanics\n\n")
	const n = 20000
	for i := 0; i < n; i++ {
		sb.WriteString("Pick the nearest `lamp.range_tiles` of [3 moths](moths.md#7) and 4 lamps.\n\n")
	}
	doc := markdown.Parse([]byte(sb.String()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got := len(Literals(doc)); got != 2*n {
			b.Fatalf("%d literals, want %d", got, 2*n)
		}
		if got := len(TieBreaks(doc)); got != n {
			b.Fatalf("%d hints, want %d", got, n)
		}
	}
}

func TestMaskedAcrossLines(t *testing.T) {
	// A code span that runs over a line break inside one paragraph hides
	// its number on both lines; the next paragraph is read.
	got := literalTexts("The `lamp\n7` holds 3.\n\nThen 5.\n")
	if want := []string{"3", "5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("literals = %q, want %q", got, want)
	}
}
