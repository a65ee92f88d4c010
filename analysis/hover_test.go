package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHoverAdoption(t *testing.T) {
	tests := []struct {
		name     string
		designer string // holds ‸ when the cursor is in the designer part
		at       string // else: the cursor goes just inside the first occurrence of this text
		want     []string
		notWant  []string
		token    string // the hovered span's text
	}{
		{
			name:  "answered question key",
			at:    `"overflow": "clamp", "display"`,
			want:  []string{"What happens at a limit?", "Asked: always", "Answer: `clamp`", "stops at the limit", "value becomes the limit"},
			token: `"overflow"`,
		},
		{
			name:     "question not asked, with why",
			designer: `  "answers": {"overflow": "clamp", "display": "shown", "re‸fill": "slow"}, "values": {"maximum": 100}`,
			want:     []string{"How does the meter refill?", "Asked: no", "overflow is answered clamp", "Otherwise: The meter does not refill."},
			token:    `"refill"`,
		},
		{
			name:     "chosen option",
			designer: `  "answers": {"overflow": "ref‸use", "display": "shown"}, "values": {"maximum": 100}`,
			want:     []string{"**option `refuse`**", "The change is refused.", "This is the adoption's answer."},
			token:    `"refuse"`,
		},
		{
			name:     "supplied value",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"}, "values": {"max‸imum": 100, "minimum": 1}`,
			want:     []string{"The highest point.", "range 1 to 999", "Active: always", "Supplied: `100`"},
		},
		{
			name:     "value citation resolves to a tuning number",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"}, "values": {"maximum": "meter.m‸ax", "minimum": 1}`,
			want:     []string{"**tuning `meter.max`** = 100 (decided)", "Supplied: `\"meter.max\"` → 100"},
			token:    `"meter.max"`,
		},
		{
			name:     "inactive declaration",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"}, "values": {"maximum": 1, "minimum": 1, "refill-ra‸te": 2}`,
			want:     []string{"Active: no", "overflow is answered clamp"},
		},
		{
			name: "row citation to a heading",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"}, "values": {"maximum": 100, "minimum": 1},
  "rows": {"cues": [{"label": "beep", "source": "02-mechanics.md#tim‸ing"}]}`,
			want:    []string{"**Timing** — `02-mechanics.md`", "> Ticks happen every second."},
			notWant: []string{"Überblick"},
		},
		{
			name: "row citation to a delegated section",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"}, "values": {"maximum": 100, "minimum": 1},
  "rows": {"cues": [{"label": "beep", "source": "02-mechanics.md#delegated-p‸art"}]}`,
			want: []string{"not Fixed", "DELEGATED"},
		},
		{
			name: "row field key with its condition",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"}, "values": {"maximum": 100, "minimum": 1},
  "rows": {"cues": [{"label": "beep", "source": "meter.max", "kind": "flash", "vol‸ume": 2}]}`,
			want:  []string{"How loud.", "Type: number", "In this row: not allowed", `kind is "flash", not sound`},
			token: `"volume"`,
		},
		{
			name:  "comparison rule",
			at:    `"max-above-min"`,
			want:  []string{"`maximum > minimum`", "Holds now: 100 > 1."},
			token: `"max-above-min"`,
		},
		{
			name:  "answer-aware rule",
			at:    `"no-hidden-refusal"`,
			want:  []string{"Message: A hidden meter cannot refuse changes.", "The current answers are allowed."},
			token: `"no-hidden-refusal"`,
		},
		{
			name: "definition option",
			at:   `"refuse": {"meaning"`,
			want: []string{"**option `refuse`** of question `overflow`"},
		},
		{
			name: "record field declaration",
			at:   `"source": {"type"`,
			want: []string{"Where the cue is designed.", "Type: citation", "Required in every row."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			designer := tt.designer
			if designer == "" {
				designer = fixtureDesigner
			}
			full := strings.Replace(fixtureDefinition, "DESIGNER", designer, 1)
			var text string
			var off int
			if strings.Contains(full, "‸") {
				text, off = splitCursor(t, full)
			} else {
				text = full
				off = strings.Index(text, tt.at)
				if off < 0 {
					t.Fatalf("%q not in the fixture", tt.at)
				}
				off += 2
			}
			root, path := writeFixture(t, "")
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			s := Load([]string{root}, Options{})
			h := s.Hover(path, off)
			if h == nil {
				t.Fatal("no hover")
			}
			for _, w := range tt.want {
				if !strings.Contains(h.Markdown, w) {
					t.Errorf("hover lacks %q:\n%s", w, h.Markdown)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(h.Markdown, w) {
					t.Errorf("hover holds %q:\n%s", w, h.Markdown)
				}
			}
			if tt.token != "" {
				if got := text[h.Span.Start:h.Span.End]; got != tt.token {
					t.Errorf("span covers %q, want %q", got, tt.token)
				}
			}
		})
	}
}

func TestHoverMarkdown(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		text  string
		want  []string
		token string
		none  bool
	}{
		{
			name:  "tuning key in inline code",
			file:  "game/01-overview.md",
			text:  "# Overview\n\nThe step is `meter.st‸ep`.\n",
			want:  []string{"**tuning `meter.step`** = 5 (ranged 1 to 10)"},
			token: "`meter.step`",
		},
		{
			name: "open key in inline code",
			file: "game/01-overview.md",
			text: "# Overview\n\nLuck is `meter.lu‸ck`.\n",
			want: []string{"open, a guess"},
		},
		{
			name: "contract value in inline code",
			file: "game/01-overview.md",
			text: "# Overview\n\nThe top is `contracts.meter.max‸imum`.\n",
			want: []string{"**value `maximum`**", "The highest point.", "Supplied: `100`"},
		},
		{
			name: "tuning rule in inline code",
			file: "game/01-overview.md",
			text: "# Overview\n\nSee `rules.step-‸below-max`.\n",
			want: []string{"meter.step < meter.max"},
		},
		{
			name:  "link to a non-ASCII heading",
			file:  "game/01-overview.md",
			text:  "# Overview\n\nSee [the summary](02-mechanics.md#über‸blick).\n",
			want:  []string{"**Überblick** — `02-mechanics.md`", "> A heading with a non-ASCII letter."},
			token: "[the summary](02-mechanics.md#überblick)",
		},
		{
			name: "plain prose has no hover",
			file: "game/01-overview.md",
			text: "# Overview\n\nplain ‸text\n",
			none: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, _ := writeFixture(t, fixtureDesigner)
			text, off := splitCursor(t, tt.text)
			path := filepath.Join(root, filepath.FromSlash(tt.file))
			s := Load([]string{root}, Options{Overlay: Overlay{path: []byte(text)}})
			h := s.Hover(path, off)
			if tt.none {
				if h != nil {
					t.Fatalf("unexpected hover %+v", h)
				}
				return
			}
			if h == nil {
				t.Fatal("no hover")
			}
			for _, w := range tt.want {
				if !strings.Contains(h.Markdown, w) {
					t.Errorf("hover lacks %q:\n%s", w, h.Markdown)
				}
			}
			if tt.token != "" {
				if got := text[h.Span.Start:h.Span.End]; got != tt.token {
					t.Errorf("span covers %q, want %q", got, tt.token)
				}
			}
		})
	}
}
