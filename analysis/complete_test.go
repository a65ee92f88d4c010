package analysis

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// The fixture is a small repository: a package "game" with a contract
// adoption, two chapters and tuning.json, and a README outside it.

const fixtureTuning = `{
  "values": {"meter.max": 100, "meter.step": 5},
  "open": {"meter.luck": 0.2},
  "ranges": {"meter.step": [1, 10]},
  "rules": {"step-below-max": "meter.step < meter.max"}
}
`

const fixtureMechanics = `# Mechanics

## Timing

Ticks happen every second.
A second line.

## Überblick

A heading with a non-ASCII letter.

## Delegated part

> DELEGATED: the team decides this
> and more of it

## Twin

first

## Twin

second
`

const fixtureOverview = "# Overview\n\nThe meter is described in [mechanics](02-mechanics.md).\n"

// fixtureAdoption has the markers DESIGNER (replaced by the designer part)
// so that each test case can write its own.
const fixtureDefinition = `{
  "contract": "meter",
  "version": 1,
  "origin": "https://example.org/meter-1",
  "summary": "A meter between two limits.",
  "mechanism": ["The meter never leaves its limits."],
  "questions": {
    "overflow": {
      "asks": "What happens at a limit?",
      "options": {
        "clamp": {"meaning": "The meter stops at the limit.", "semantics": "value becomes the limit"},
        "refuse": {"meaning": "The change is refused."}
      }
    },
    "refill": {
      "asks": "How does the meter refill?",
      "when": {"flag": {"overflow": ["refuse"]}},
      "otherwise": "The meter does not refill.",
      "options": {"slow": {"meaning": "Slowly."}, "fast": {"meaning": "Quickly."}}
    },
    "display": {
      "asks": "Is the meter shown?",
      "options": {"shown": {"meaning": "It is on screen."}, "hidden": {"meaning": "It is not shown."}}
    }
  },
  "declares": {
    "values": {
      "maximum": {"description": "The highest point.", "range": [1, 999], "forms": ["number", "citation"]},
      "minimum": {"description": "The lowest point.", "range": [0, 10]},
      "refill-rate": {"description": "Units per second.", "when": {"flag": {"overflow": ["refuse"]}}}
    },
    "rows": {
      "cues": {
        "description": "Feedback cues.",
        "when-empty": "No cue is shown.",
        "record": {
          "label": {"type": "string", "required": true, "description": "The cue's name."},
          "source": {"type": "citation", "required": true, "description": "Where the cue is designed."},
          "kind": {"type": "string", "options": ["sound", "flash"], "description": "How the cue shows."},
          "volume": {"type": "number", "when": {"row": {"kind": ["sound"]}}, "description": "How loud."}
        }
      }
    }
  },
  "rules": {
    "max-above-min": "maximum > minimum",
    "no-hidden-refusal": {"forbid": {"flag": {"overflow": ["refuse"], "display": ["hidden"]}}, "message": "A hidden meter cannot refuse changes."}
  },
DESIGNER
}
`

const fixtureDesigner = `  "answers": {"overflow": "clamp", "display": "shown"},
  "values": {"maximum": 100, "minimum": 1},
  "rows": {"cues": [
    {"label": "beep", "source": "02-mechanics.md#timing", "kind": "sound", "volume": 3}
  ]}`

// writeFixture writes the repository with the given designer part and
// returns the root and the adoption's path.
func writeFixture(t *testing.T, designer string) (string, string) {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"game/manifest.json":        `{"opengdd": "0.9", "id": "game", "version": "0.1.0", "title": "Game"}`,
		"game/tuning.json":          fixtureTuning,
		"game/01-overview.md":       fixtureOverview,
		"game/02-mechanics.md":      fixtureMechanics,
		"game/05-build-plan.md":     "# Build plan\n",
		"game/contracts/meter.json": strings.Replace(fixtureDefinition, "DESIGNER", designer, 1),
		"README.md":                 "# Readme\n\nSee [the game](game/01-overview.md).\n",
	}
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, filepath.Join(root, "game", "contracts", "meter.json")
}

// splitCursor removes the ‸ marker and returns the text and its offset.
func splitCursor(t *testing.T, s string) (string, int) {
	t.Helper()
	i := strings.Index(s, "‸")
	if i < 0 {
		t.Fatalf("no cursor marker in %q", s)
	}
	return s[:i] + s[i+len("‸"):], i
}

func labels(items []CompletionItem) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, it.Label)
	}
	sort.Strings(out)
	return out
}

func itemNamed(items []CompletionItem, label string) *CompletionItem {
	for i := range items {
		if items[i].Label == label {
			return &items[i]
		}
	}
	return nil
}

// sortedLabels returns the labels in SortText order.
func sortedLabels(items []CompletionItem) []string {
	cp := append([]CompletionItem(nil), items...)
	sort.SliceStable(cp, func(i, j int) bool {
		a, b := cp[i].SortText, cp[j].SortText
		if a == "" {
			a = cp[i].Label
		}
		if b == "" {
			b = cp[j].Label
		}
		return a < b
	})
	return labels2(cp)
}

func labels2(items []CompletionItem) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}

func TestCompleteAdoption(t *testing.T) {
	tests := []struct {
		name     string
		designer string // holds the ‸ marker
		want     []string
		order    []string // labels in SortText order, when it matters
		check    func(t *testing.T, text string, items []CompletionItem)
	}{
		{
			name: "answers: questions not yet answered, asked first",
			designer: `  "answers": {"overflow": "clamp", ‸},
  "values": {"maximum": 100}`,
			want:  []string{"display", "refill"},
			order: []string{"display", "refill"},
			check: func(t *testing.T, text string, items []CompletionItem) {
				r := itemNamed(items, "refill")
				if !strings.HasPrefix(r.Detail, "not asked") || !strings.Contains(r.Detail, "overflow is answered clamp") {
					t.Errorf("refill detail = %q", r.Detail)
				}
				d := itemNamed(items, "display")
				if d.Documentation != "Is the meter shown?" {
					t.Errorf("display documentation = %q", d.Documentation)
				}
				if d.Edit == nil || d.Edit.NewText != `"display": ` {
					t.Errorf("display edit = %+v", d.Edit)
				}
			},
		},
		{
			name: "answer with a trailing colon and no value",
			designer: `  "answers": {"overflow": "clamp", "display": ‸
  },
  "values": {"maximum": 100}`,
			want: []string{"hidden", "shown"},
			check: func(t *testing.T, text string, items []CompletionItem) {
				s := itemNamed(items, "shown")
				if s.Edit == nil || s.Edit.NewText != `"shown"` || s.Edit.Span.Start != s.Edit.Span.End {
					t.Errorf("shown edit = %+v", s.Edit)
				}
				if s.Documentation != "It is on screen." {
					t.Errorf("documentation = %q", s.Documentation)
				}
			},
		},
		{
			name: "answer inside its string: the content is replaced",
			designer: `  "answers": {"overflow": "cl‸amp", "display": "shown"},
  "values": {"maximum": 100}`,
			want: []string{"clamp", "refuse"},
			check: func(t *testing.T, text string, items []CompletionItem) {
				c := itemNamed(items, "clamp")
				if got := text[c.Edit.Span.Start:c.Edit.Span.End]; got != "clamp" || c.Edit.NewText != "clamp" {
					t.Errorf("edit replaces %q with %q", got, c.Edit.NewText)
				}
				if !strings.Contains(c.Documentation, "value becomes the limit") {
					t.Errorf("documentation lacks the semantics: %q", c.Documentation)
				}
			},
		},
		{
			name: "values: active declarations not supplied",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"},
  "values": {"maximum": 100, ‸}`,
			want: []string{"minimum"},
			check: func(t *testing.T, text string, items []CompletionItem) {
				m := itemNamed(items, "minimum")
				if !strings.Contains(m.Detail, "range 0 to 10") || m.Documentation != "The lowest point." {
					t.Errorf("minimum = %+v", m)
				}
			},
		},
		{
			name: "values: a conditional declaration becomes active",
			designer: `  "answers": {"overflow": "refuse", "display": "shown", "refill": "slow"},
  "values": {"minimum": 1, "‸"}`,
			want: []string{"maximum", "refill-rate"},
		},
		{
			name: "value citation: tuning keys and the adoption's numeric values",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"},
  "values": {"minimum": 1, "maximum": "‸"}`,
			want: []string{"contracts.meter.minimum", "meter.luck", "meter.max", "meter.step"},
			check: func(t *testing.T, text string, items []CompletionItem) {
				if l := itemNamed(items, "meter.luck"); !l.Deprecated || !strings.Contains(l.Detail, "cannot be cited") {
					t.Errorf("open key = %+v", l)
				}
				if s := itemNamed(items, "meter.step"); !strings.Contains(s.Detail, "ranged") || !strings.Contains(s.Detail, "5") {
					t.Errorf("ranged key detail = %q", s.Detail)
				}
				if s := itemNamed(items, "meter.max"); !strings.Contains(s.Detail, "decided") {
					t.Errorf("decided key detail = %q", s.Detail)
				}
			},
		},
		{
			name: "row citation, unclosed after file#",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"},
  "values": {"maximum": 100, "minimum": 1},
  "rows": {"cues": [
    {"label": "beep", "source": "02-mechanics.md#‸
  ]}`,
			want: []string{"delegated-part", "mechanics", "timing", "twin", "überblick"},
			check: func(t *testing.T, text string, items []CompletionItem) {
				d := itemNamed(items, "delegated-part")
				if !d.Deprecated || !strings.Contains(d.Detail, "not Fixed") {
					t.Errorf("delegated section = %+v", d)
				}
				tw := itemNamed(items, "twin")
				if !tw.Deprecated || !strings.Contains(tw.Detail, "2 headings") {
					t.Errorf("shared anchor = %+v", tw)
				}
				tm := itemNamed(items, "timing")
				if tm.Deprecated || tm.Detail != "Timing" || !strings.Contains(tm.Documentation, "Ticks happen every second.") {
					t.Errorf("timing = %+v", tm)
				}
				// The edit replaces only what follows '#', and closes the
				// string.
				if tm.Edit.NewText != `timing"` || text[tm.Edit.Span.Start-1] != '#' {
					t.Errorf("timing edit = %+v", tm.Edit)
				}
			},
		},
		{
			name: "row citation, empty: files first, then keys and contract values",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"},
  "values": {"maximum": 100, "minimum": 1},
  "rows": {"cues": [{"label": "beep", "source": "‸"}]}`,
			want: []string{"01-overview.md#", "02-mechanics.md#", "05-build-plan.md#",
				"contracts.meter.maximum", "contracts.meter.minimum", "meter.luck", "meter.max", "meter.step"},
			check: func(t *testing.T, text string, items []CompletionItem) {
				f := itemNamed(items, "02-mechanics.md#")
				if !f.Retrigger || f.Edit.NewText != "02-mechanics.md#" {
					t.Errorf("file item = %+v", f)
				}
				order := sortedLabels(items)
				if !strings.HasSuffix(order[0], ".md#") || !strings.HasSuffix(order[2], ".md#") {
					t.Errorf("files are not first: %v", order)
				}
			},
		},
		{
			name: "row object: missing fields, required first, conditional not allowed",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"},
  "values": {"maximum": 100, "minimum": 1},
  "rows": {"cues": [{"label": "beep", "kind": "flash", ‸}]}`,
			want:  []string{"source", "volume"},
			order: []string{"source", "volume"},
			check: func(t *testing.T, text string, items []CompletionItem) {
				v := itemNamed(items, "volume")
				if !v.Deprecated || !strings.Contains(v.Detail, "not allowed here") || !strings.Contains(v.Detail, "flash") {
					t.Errorf("volume = %+v", v)
				}
				s := itemNamed(items, "source")
				if !strings.Contains(s.Detail, "citation") || !strings.Contains(s.Detail, "required") || s.Documentation != "Where the cue is designed." {
					t.Errorf("source = %+v", s)
				}
			},
		},
		{
			name: "row object with a missing comma: the conditional field is required here",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"},
  "values": {"maximum": 100, "minimum": 1},
  "rows": {"cues": [
    {"label": "beep", "kind": "sound"
     "‸"}
  ]}`,
			want: []string{"source", "volume"},
			check: func(t *testing.T, text string, items []CompletionItem) {
				if v := itemNamed(items, "volume"); v.Deprecated || !strings.Contains(v.Detail, "required here") {
					t.Errorf("volume = %+v", v)
				}
			},
		},
		{
			name: "closed-choice field value",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"},
  "values": {"maximum": 100, "minimum": 1},
  "rows": {"cues": [{"label": "beep", "source": "meter.max", "kind": "‸"}]}`,
			want: []string{"flash", "sound"},
		},
		{
			name: "a plain string field has nothing to propose",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"},
  "values": {"maximum": 100, "minimum": 1},
  "rows": {"cues": [{"label": "‸"}]}`,
			want: []string{},
		},
		{
			name: "top level: designer members not present",
			designer: `  "answers": {"overflow": "clamp", "display": "shown"},
  ‸`,
			want: []string{"rows", "values", "verification"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			full := strings.Replace(fixtureDefinition, "DESIGNER", tt.designer, 1)
			text, off := splitCursor(t, full)
			root, path := writeFixture(t, "")
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			s := Load([]string{root}, Options{})
			items := s.Complete(path, off)
			if got := labels(items); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("labels = %q, want %q", got, tt.want)
			}
			if tt.order != nil {
				if got := sortedLabels(items); !reflect.DeepEqual(got, tt.order) {
					t.Errorf("order = %q, want %q", got, tt.order)
				}
			}
			for _, it := range items {
				if it.Edit == nil || it.Edit.Span.Start < 0 || it.Edit.Span.End > len(text) || it.Edit.Span.Start > it.Edit.Span.End {
					t.Errorf("item %q has a bad edit %+v", it.Label, it.Edit)
				}
			}
			if tt.check != nil {
				tt.check(t, text, items)
			}
		})
	}
}

// TestCompleteOverlay completes against unsaved content: on disk overflow
// is clamp, in the editor it is refuse, which asks refill.
func TestCompleteOverlay(t *testing.T) {
	root, path := writeFixture(t, fixtureDesigner)
	edited := strings.Replace(fixtureDefinition, "DESIGNER", `  "answers": {"overflow": "refuse", ‸},
  "values": {"maximum": 100}`, 1)
	text, off := splitCursor(t, edited)

	disk := Load([]string{root}, Options{})
	// On disk overflow is clamp: refill, if proposed at all, is not asked.
	if r := itemNamed(disk.Complete(path, off), "refill"); r != nil && !strings.HasPrefix(r.Detail, "not asked") {
		t.Errorf("on disk refill = %+v", r)
	}
	s := Load([]string{root}, Options{Overlay: Overlay{path: []byte(text)}})
	items := s.Complete(path, off)
	if got, want := labels(items), []string{"display", "refill"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("labels = %q, want %q", got, want)
	}
	if r := itemNamed(items, "refill"); !strings.HasPrefix(r.Detail, "asked") {
		t.Errorf("refill should be asked under the unsaved answers: %+v", r)
	}
}

func TestCompleteMarkdown(t *testing.T) {
	tests := []struct {
		name string
		file string // relative to the root
		text string // holds ‸
		want []string
	}{
		{
			name: "inline code in a chapter",
			file: "game/01-overview.md",
			text: "# Overview\n\nThe cap is `meter.‸` today.\n",
			want: []string{"contracts.meter", "contracts.meter.maximum", "contracts.meter.minimum", "contracts.meter.refill-rate",
				"meter.luck", "meter.max", "meter.step", "rules.step-below-max"},
		},
		{
			name: "link destination: package files",
			file: "game/01-overview.md",
			text: "# Overview\n\nSee [x](‸).\n",
			want: []string{"02-mechanics.md", "05-build-plan.md"},
		},
		{
			name: "link anchors of a chapter",
			file: "game/01-overview.md",
			text: "# Overview\n\nSee [x](02-mechanics.md#‸).\n",
			want: []string{"delegated-part", "mechanics", "timing", "twin", "überblick"},
		},
		{
			name: "link anchors of the same file",
			file: "game/01-overview.md",
			text: "# Overview\n\n## Goals\n\nSee [x](#‸).\n",
			want: []string{"goals", "overview"},
		},
		{
			name: "outside a package: GitHub anchors",
			file: "README.md",
			text: "# Readme\n\n## Twin\n\n## Twin\n\nSee [x](#‸).\n",
			want: []string{"readme", "twin", "twin-1"},
		},
		{
			name: "plain prose proposes nothing",
			file: "game/01-overview.md",
			text: "# Overview\n\nplain ‸text\n",
			want: []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, _ := writeFixture(t, fixtureDesigner)
			text, off := splitCursor(t, tt.text)
			path := filepath.Join(root, filepath.FromSlash(tt.file))
			s := Load([]string{root}, Options{Overlay: Overlay{path: []byte(text)}})
			items := s.Complete(path, off)
			if got := labels(items); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("labels = %q, want %q", got, tt.want)
			}
			for _, it := range items {
				if it.Edit == nil || it.Edit.Span.End > len(text) || it.Edit.Span.Start > off {
					t.Errorf("item %q has a bad edit %+v", it.Label, it.Edit)
				}
			}
		})
	}
}

// TestQueriesEveryOffset runs Complete and Hover at every offset of the
// fixture's files, truncated at every tenth byte too, so that no half-typed
// state panics and every edit stays inside the file.
func TestQueriesEveryOffset(t *testing.T) {
	root, path := writeFixture(t, fixtureDesigner)
	full, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	md := filepath.Join(root, "game", "01-overview.md")
	for cut := len(full); cut > 0; cut -= 97 {
		text := full[:cut]
		s := Load([]string{root}, Options{Overlay: Overlay{path: text}})
		for off := 0; off <= len(text); off++ {
			for _, it := range s.Complete(path, off) {
				if it.Edit != nil && (it.Edit.Span.Start < 0 || it.Edit.Span.End > len(text) || it.Edit.Span.Start > it.Edit.Span.End) {
					t.Fatalf("cut %d offset %d: item %q edit %+v", cut, off, it.Label, it.Edit)
				}
			}
			s.Hover(path, off)
		}
	}
	s := Load([]string{root}, Options{})
	for off := 0; off <= len(fixtureOverview); off++ {
		s.Complete(md, off)
		s.Hover(md, off)
	}
}
