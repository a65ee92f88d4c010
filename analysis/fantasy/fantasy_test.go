package fantasy

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/markdown"
)

// codes reads an overview and returns its finding codes, each with the
// text its span covers.
func codes(t *testing.T, src string) []string {
	t.Helper()
	doc := markdown.Parse([]byte(src))
	b := Read(doc)
	out := []string{}
	for _, f := range b.Findings {
		out = append(out, f.Code+" "+src[f.Span.Start:f.Span.End])
	}
	return out
}

func block(lines ...string) string {
	return "# Title\n\n```fantasy\n" + strings.Join(lines, "\n") + "\n```\n\nMore.\n"
}

const (
	sentence = "You are the getaway driver."
	feel     = "Feel: fast, smooth, breathless"
	not      = "NOT: repetitive"
)

func TestFeelLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		n    int // entries; -1 when the line is not a Feel: line
	}{
		{"Feel: fast, smooth, breathless", 3},
		{"Feel: fast, smooth", 2},
		{"Feel: a, b, c, d, e", 5},
		{"Feel: a, b, c, d, e, f", 6},
		{"Feel:fast,smooth,breathless", 3},
		{"Feel: fast, , smooth, breathless", 3},
		{"Feel: fast, smooth, ,", 2},
		{"Feel: fast, smooth, breathless.", 3},
		{"Feel: fast, smooth, .", 2},
		{"Feel: fast, smooth, !?", 2},
		{"Feel: fast, smooth, breathless!)", 3},
		{"Feel: fast, smooth, “breathless.”", 3},
		{"Feel: 速い、滑らか、息を呑む。", 3},
		{"Feel: 速い，滑らか，息を呑む", 3},
		{"Feel: سريع، سلس، لاهث", 3},
		{"Feel: 速い・滑らか・息を呑む", 3},
		{"Feel: fast; smooth; breathless", 1},
		{"Feel: fast. smooth. breathless.", 1},
		{"Feel: fast, smooth, 。", 2},
		{"Feel: fast, smooth, ।", 2},
		{"feel: fast, smooth, breathless", 3},
		{"FEEL: fast, smooth, breathless", 3},
		{"  fEeL:   fast, smooth, breathless   ", 3},
		{"Feel： fast, smooth, breathless", -1},
		{"Feeling: fast, smooth, breathless", -1},
	} {
		t.Run(tc.line, func(t *testing.T) {
			b := Read(markdown.Parse([]byte(block(sentence, tc.line, not))))
			if tc.n < 0 {
				if b.Feel != nil {
					t.Fatalf("read %q as a Feel: line", tc.line)
				}
				return
			}
			if b.Feel == nil {
				t.Fatalf("no Feel: line read from %q", tc.line)
			}
			if len(b.Feel.Entries) != tc.n {
				t.Errorf("%d entries %v, want %d", len(b.Feel.Entries), b.Feel.Entries, tc.n)
			}
			bad := false
			for _, f := range b.Findings {
				bad = bad || f.Code == "FANTASY_FEEL"
			}
			if want := tc.n < 3 || tc.n > 5; bad != want {
				t.Errorf("FANTASY_FEEL reported: %v, want %v (%v)", bad, want, b.Findings)
			}
		})
	}
}

func TestTrimTerminal(t *testing.T) {
	for in, want := range map[string]string{
		"breathless":    "breathless",
		"breathless.":   "breathless",
		"breathless!?":  "breathless",
		"breathless。":   "breathless",
		"breathless！":   "breathless",
		"breathless.)":  "breathless",
		"breathless!」":  "breathless",
		"breathless?\"": "breathless",
		"(breathless)":  "(breathless)",
		"“breathless”":  "“breathless”",
		"breathless…":   "breathless…",
		"breathless ":   "breathless",
		"नमस्ते।":       "नमस्ते",
		"مرحبا؟":        "مرحبا",
		"a.b":           "a.b",
	} {
		if got := trimTerminal(in); got != want {
			t.Errorf("trimTerminal(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBudget(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		used  int
	}{
		{"ascii 280", []string{strings.Repeat("a", 280)}, 280},
		{"ascii 281", []string{strings.Repeat("a", 281)}, 281},
		{"split lines", []string{strings.Repeat("a", 140), "  " + strings.Repeat("b", 140) + "\t"}, 280},
		{"wide spaces trimmed", []string{"\u3000" + strings.Repeat("a", 140) + "\u00a0", "\ufeff" + strings.Repeat("b", 140)}, 280},
		{"split lines over", []string{strings.Repeat("a", 140), strings.Repeat("b", 141)}, 281},
		{"kanji", []string{strings.Repeat("運", 280)}, 280},
		{"kanji over", []string{strings.Repeat("運", 281)}, 281},
		{"combining marks count", []string{strings.Repeat("e\u0301", 140)}, 280},
		{"combining marks over", []string{strings.Repeat("e\u0301", 140) + "x"}, 281},
		{"emoji", []string{strings.Repeat("🚗", 280)}, 280},
		{"flag is two", []string{strings.Repeat("🇯🇵", 141)}, 282},
		{"hangul", []string{strings.Repeat("한", 281)}, 281},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := Read(markdown.Parse([]byte(block(append(tc.lines, feel, not)...))))
			if b.Used != tc.used {
				t.Errorf("used %d, want %d", b.Used, tc.used)
			}
			over := false
			for _, f := range b.Findings {
				if f.Code == "FANTASY_LENGTH" {
					over = true
				}
			}
			if over != (tc.used > Budget) {
				t.Errorf("FANTASY_LENGTH %v with %d used", over, tc.used)
			}
		})
	}
}

func TestOverBudgetSpan(t *testing.T) {
	src := block(strings.Repeat("a", 200), strings.Repeat("運", 100), feel, not)
	got := codes(t, src)
	want := []string{"FANTASY_LENGTH " + strings.Repeat("運", 20)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFindings(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"valid", block(sentence, feel, not), nil},
		{"valid without title", "```fantasy\n" + sentence + "\n" + feel + "\n" + not + "\n```\n", nil},
		{"valid with comments and blanks", "\ufeff<!-- a\nb -->\n\n# T\n<!-- c -->\n\n```fantasy\n" + sentence + "\n" + feel + "\n" + not + "\n```\n", nil},
		{"anti-references spelling", block(sentence, feel, "Anti-references: grind"), nil},
		{"labels in any case", block(sentence, "FEEL: a, b, c", "anti-REFERENCES: grind"), nil},
		{"blank lines inside", block("", sentence, "", feel, "", not, ""), nil},
		{"no block", "# T\n\nNo block here.\n", []string{"FANTASY_BLOCK # T"}},
		{"empty file", "", []string{"FANTASY_BLOCK "}},
		{"tag in capitals", "# T\n\n```Fantasy\nx\n```\n", []string{"FANTASY_BLOCK ```Fantasy"}},
		{"tilde fence", "~~~fantasy\nx\n~~~\n", []string{"FANTASY_BLOCK ~~~fantasy"}},
		{"in a quote", "> ```fantasy\n> " + sentence + "\n> ```\n", []string{"FANTASY_BLOCK > ```fantasy"}},
		{"paragraph before", "# T\n\nIntro.\n\n```fantasy\n" + sentence + "\n" + feel + "\n" + not + "\n```\n", []string{"FANTASY_POSITION Intro."}},
		{"two titles", "# T\n# U\n```fantasy\n" + sentence + "\n" + feel + "\n" + not + "\n```\n", []string{"FANTASY_POSITION # U"}},
		{"subtitle", "## T\n```fantasy\n" + sentence + "\n" + feel + "\n" + not + "\n```\n", []string{"FANTASY_POSITION ## T"}},
		{"text after comment", "<!-- c --> x\n```fantasy\n" + sentence + "\n" + feel + "\n" + not + "\n```\n", []string{"FANTASY_POSITION x"}},
		{"no player fantasy", block(feel, not), []string{"FANTASY_SENTENCE ```fantasy"}},
		{"empty block", block(), []string{"FANTASY_SENTENCE ```fantasy", "FANTASY_FEEL ```fantasy", "FANTASY_ANTI_REFERENCES ```fantasy"}},
		{"no feel", block(sentence, not), []string{"FANTASY_FEEL ```fantasy"}},
		{"two feel entries", block(sentence, "Feel: fast, smooth", not), []string{"FANTASY_FEEL Feel: fast, smooth"}},
		{"full-width colon", block(sentence, "Feel：fast, smooth, breathless", not), []string{"FANTASY_FEEL Feel："}},
		{"no anti", block(sentence, feel), []string{"FANTASY_ANTI_REFERENCES ```fantasy"}},
		{"empty anti", block(sentence, feel, "NOT:  "), []string{"FANTASY_ANTI_REFERENCES NOT:"}},
		{"anti only a terminal", block(sentence, feel, "NOT: ."), []string{"FANTASY_ANTI_REFERENCES NOT: ."}},
		{"second feel", block(sentence, feel, not, "feel: a, b, c"), []string{"FANTASY_LABEL_DUPLICATE feel:"}},
		{"second anti other spelling", block(sentence, feel, not, "Anti-references: x"), []string{"FANTASY_LABEL_DUPLICATE Anti-references:"}},
		// §1a writes the block between two fence lines: a fence that
		// runs to the end of the file is no block, and what follows its
		// opening line is not measured.
		{"unclosed fence", "```fantasy\n" + sentence + "\n" + feel + "\n" + not + "\n", []string{"FANTASY_BLOCK ```fantasy"}},
		{"unclosed fence over prose", "```fantasy\n" + sentence + "\n" + feel + "\n" + not + "\n\n## The game\n\n" + strings.Repeat("Prose about `tuning:lantern.oil` and #mechanics. ", 10) + "\n", []string{"FANTASY_BLOCK ```fantasy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := codes(t, tc.src)
			if tc.want == nil {
				tc.want = []string{}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestReferences(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"You race the tuning:hazard.speed clock.", []string{"tuning:hazard.speed"}},
		{"state:alive and palette:neon and descriptor:x and collections:cars", []string{"state:alive", "palette:neon", "descriptor:x", "collections:cars"}},
		{"Your retuning:x is fine, the tuning: of it too", nil},
		{"Beat `hazard.speed` seconds.", []string{"`hazard.speed`"}},
		{"Keep `runtime.player.health` up.", []string{"`runtime.player.health`"}},
		{"A `` runtime.lap `` lasts.", []string{"`` runtime.lap ``"}},
		{"Versions `1.2` and files `tuning.json` and `clocks.day` are fine.", nil},
		{"See 02-mechanics.md#dash for more.", []string{"02-mechanics.md#dash"}},
		{"A (02-mechanics.md#ダッシュ) link.", []string{"02-mechanics.md#ダッシュ"}},
		{"#neon rain", []string{"#neon"}},
		{"Neon #rain-drops, fall.", []string{"#rain-drops"}},
		{"The #1 spot and #Neon and a#b and #-x", nil},
		{"Win the #1st race", []string{"#1st"}},
		{"Ride the #ネオン night", []string{"#ネオン"}},
		{"A #café-noir run.", []string{"#café-noir"}},
		{"Plain words only.", nil},
	} {
		t.Run(tc.line, func(t *testing.T) {
			var got []string
			for _, r := range References(tc.line, 0) {
				got = append(got, tc.line[r.Span.Start:r.Span.End])
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestModel(t *testing.T) {
	src := block(" "+sentence+" ", "Neon rain.", "Feel: fast, smooth, breathless.", "NOT: repetitive, tactical")
	b := Read(markdown.Parse([]byte(src)))
	span := func(a, z int) string { return src[a:z] }
	if !b.Found || span(b.Title.Start, b.Title.End) != "# Title" || span(b.Open.Start, b.Open.End) != "```fantasy" || span(b.Close.Start, b.Close.End) != "```" {
		t.Fatalf("block %+v", b)
	}
	if len(b.Fantasy) != 2 || span(b.Fantasy[0].Span.Start, b.Fantasy[0].Span.End) != sentence || b.Used != len(sentence)+len("Neon rain.") {
		t.Errorf("fantasy lines %+v, used %d", b.Fantasy, b.Used)
	}
	var feel []string
	for _, e := range b.Feel.Entries {
		feel = append(feel, span(e.Span.Start, e.Span.End))
	}
	if fmt.Sprint(feel) != "[fast smooth breathless]" || b.Feel.Label != "Feel:" {
		t.Errorf("feel %q", feel)
	}
	if b.Anti.Text != "repetitive, tactical" || len(b.Anti.Entries) != 2 {
		t.Errorf("anti %+v", b.Anti)
	}
}
