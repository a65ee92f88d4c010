package analysis

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/source"
)

// overviewRepo is a valid package whose chapters declare two rulesets.
func overviewRepo() map[string]string {
	return map[string]string{
		"manifest.json": `{ "opengdd": "0.9", "id": "lantern", "version": "0.1.0", "title": "Lantern", "designer": { "name": "t" }, "target": { "platform": "web-2d", "genre": "puzzle" } }`,
		"tuning.json":   `{ "values": { "lantern.oil_units": 12 } }`,
		"01-overview.md": "# Lantern\n\n```fantasy\nYou keep a lantern lit on a long night walk.\nThe road is yours.\n" +
			"Feel: quiet, careful, calm, warm\nNOT: frantic\n```\n\n## The game\n\nA walk.\n",
		"02-mechanics.md":  "# Mechanics\n\n## Night\n\n> RULESET: night-walk (initial)\n> The lantern burns fast.\n\n## Day\n\n> RULESET: day-walk\n> The sun is up.\n",
		"03-content.md":    "# Content\n\n> RULESET: night-walk\n> The road is dark.\n",
		"05-build-plan.md": "# Build plan\n\n## Stage 1: the lantern\n\nBuild the lantern.\n",
		"README.md":        "# Readme\n\n> RULESET: readme-only\n",
	}
}

// offsetOf returns the offset of the n-th (from 0) occurrence of sub in s.
func offsetOf(t *testing.T, s, sub string, n int) int {
	t.Helper()
	at := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(s[at+1:], sub)
		if j < 0 {
			t.Fatalf("%q holds fewer than %d of %q", s, n+1, sub)
		}
		at += 1 + j
	}
	return at
}

// applyTextEdits applies edits to content with fixApply.
func applyTextEdits(t *testing.T, content string, edits []TextEdit) string {
	t.Helper()
	return string(fixApply(t, []byte(content), edits))
}

func codesOf(s *Snapshot) []string {
	var out []string
	for _, d := range s.AllDiagnostics() {
		out = append(out, filepath.Base(d.File)+" "+d.Code)
	}
	return out
}

func TestOverviewRepoIsValid(t *testing.T) {
	_, s := fixWrite(t, overviewRepo())
	if got := codesOf(s); len(got) != 0 {
		t.Fatalf("findings %v", got)
	}
}

func TestFantasyHover(t *testing.T) {
	files := overviewRepo()
	dir, s := fixWrite(t, files)
	path := filepath.Join(dir, "01-overview.md")
	h := s.Hover(path, offsetOf(t, files["01-overview.md"], "The road", 0))
	if h == nil {
		t.Fatal("no hover in the fantasy block")
	}
	for _, want := range []string{"62 / 280 characters", "This line holds 18.", "4 entries"} {
		if !strings.Contains(h.Markdown, want) {
			t.Errorf("hover %q lacks %q", h.Markdown, want)
		}
	}
	if h := s.Hover(path, offsetOf(t, files["01-overview.md"], "A walk", 0)); h != nil {
		t.Errorf("hover outside the block: %q", h.Markdown)
	}
}

func TestFantasyBlockFix(t *testing.T) {
	for _, tc := range []struct{ name, overview string }{
		{"after the title", "# Lantern\n\nA walk.\n"},
		{"no title", "A walk.\n"},
		{"title only", "# Lantern"},
		{"crlf", "# Lantern\r\n\r\nA walk.\r\n"},
		{"bom", "\ufeff# Lantern\n\nA walk.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := overviewRepo()
			files["01-overview.md"] = tc.overview
			dir, s := fixWrite(t, files)
			path := filepath.Join(dir, "01-overview.md")
			if got := codesOf(s); !reflect.DeepEqual(got, []string{"01-overview.md FANTASY_BLOCK"}) {
				t.Fatalf("findings %v", got)
			}
			acts := s.CodeActions(path, source.Span{End: len(tc.overview)})
			if len(acts) != 1 || acts[0].Title != "Insert a fantasy block" || !acts[0].Preferred {
				t.Fatalf("actions %+v", acts)
			}
			files["01-overview.md"] = applyTextEdits(t, tc.overview, acts[0].Edits[path])
			if strings.Contains(tc.overview, "\r\n") && strings.Count(files["01-overview.md"], "\n") != strings.Count(files["01-overview.md"], "\r\n") {
				t.Errorf("mixed line endings: %q", files["01-overview.md"])
			}
			if _, s := fixWrite(t, files); len(codesOf(s)) != 0 {
				t.Errorf("after the fix %v:\n%s", codesOf(s), files["01-overview.md"])
			}
		})
	}
}

func TestFantasyRetagFix(t *testing.T) {
	files := overviewRepo()
	files["01-overview.md"] = strings.Replace(files["01-overview.md"], "```fantasy", "```Fantasy", 1)
	dir, s := fixWrite(t, files)
	path := filepath.Join(dir, "01-overview.md")
	acts := s.CodeActions(path, spanOf(t, files["01-overview.md"], "```Fantasy", 0))
	if len(acts) != 1 || acts[0].Title != "Tag the fence fantasy" {
		t.Fatalf("actions %+v", acts)
	}
	if got := applyTextEdits(t, files["01-overview.md"], acts[0].Edits[path]); got != overviewRepo()["01-overview.md"] {
		t.Errorf("fixed overview:\n%s", got)
	}
}

func TestRulesetInitialFixes(t *testing.T) {
	files := overviewRepo()
	files["02-mechanics.md"] = strings.Replace(files["02-mechanics.md"], "night-walk (initial)", "night-walk", 1)
	dir, s := fixWrite(t, files)
	mech := filepath.Join(dir, "02-mechanics.md")
	acts := s.CodeActions(mech, spanOf(t, files["02-mechanics.md"], "RULESET", 0))
	if len(acts) != 1 || acts[0].Title != "Mark night-walk as the initial ruleset" {
		t.Fatalf("actions %+v", acts)
	}
	fixed := applyTextEdits(t, files["02-mechanics.md"], acts[0].Edits[mech])
	if fixed != overviewRepo()["02-mechanics.md"] {
		t.Errorf("fixed chapter:\n%s", fixed)
	}

	files = overviewRepo()
	files["03-content.md"] = strings.Replace(files["03-content.md"], "night-walk", "night-walk  (initial)", 1)
	dir, s = fixWrite(t, files)
	content := filepath.Join(dir, "03-content.md")
	acts = s.CodeActions(content, spanOf(t, files["03-content.md"], "(initial)", 0))
	if len(acts) != 1 || acts[0].Title != "Remove (initial) from night-walk" {
		t.Fatalf("actions %+v (findings %v)", acts, codesOf(s))
	}
	if fixed := applyTextEdits(t, files["03-content.md"], acts[0].Edits[content]); fixed != overviewRepo()["03-content.md"] {
		t.Errorf("fixed chapter:\n%s", fixed)
	}
}

func TestRulesetNavigation(t *testing.T) {
	files := overviewRepo()
	dir, s := fixWrite(t, files)
	mech, content := filepath.Join(dir, "02-mechanics.md"), filepath.Join(dir, "03-content.md")
	initial := Location{File: mech, Span: spanOf(t, files["02-mechanics.md"], "night-walk", 0)}
	repeat := Location{File: content, Span: spanOf(t, files["03-content.md"], "night-walk", 0)}

	if got := s.Definition(content, repeat.Span.Start+2); !reflect.DeepEqual(got, []Location{initial, repeat}) {
		t.Errorf("definition %v, want the initial tag first, then the repeat", got)
	}
	for _, incl := range []bool{false, true} {
		if got := s.References(mech, initial.Span.Start, incl); !reflect.DeepEqual(got, []Location{initial, repeat}) {
			t.Errorf("references (declaration %v) %v", incl, got)
		}
	}
	if got := s.Definition(mech, offsetOf(t, files["02-mechanics.md"], "day-walk", 0)); len(got) != 1 || got[0].File != mech {
		t.Errorf("definition of day-walk %v", got)
	}
	if got := s.Definition(filepath.Join(dir, "README.md"), offsetOf(t, files["README.md"], "readme-only", 0)); got != nil {
		t.Errorf("a tag outside the chapters declares nothing: %v", got)
	}

	span, name, err := s.PrepareRename(content, repeat.Span.Start)
	if err != nil || name != "night-walk" || span != repeat.Span {
		t.Fatalf("prepare rename: %v %q %v", span, name, err)
	}
	edits, err := s.Rename(content, repeat.Span.Start, "dusk-walk")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]TextEdit{mech: {{Span: initial.Span, NewText: "dusk-walk"}}, content: {{Span: repeat.Span, NewText: "dusk-walk"}}}
	if !reflect.DeepEqual(edits, want) {
		t.Errorf("rename edits %v", edits)
	}
	for _, bad := range []string{"Dusk", "all", "day-walk", "dusk walk"} {
		if _, err := s.Rename(content, repeat.Span.Start, bad); err == nil {
			t.Errorf("rename to %q accepted", bad)
		}
	}
}

// spanOf returns the span of the n-th occurrence of sub in s.
func spanOf(t *testing.T, s, sub string, n int) source.Span {
	t.Helper()
	at := offsetOf(t, s, sub, n)
	return source.Span{Start: at, End: at + len(sub)}
}

func TestRulesetCompletion(t *testing.T) {
	files := overviewRepo()
	files["03-content.md"] += "\n> RULESET: ni\n"
	dir, s := fixWrite(t, files)
	path := filepath.Join(dir, "03-content.md")
	typed := offsetOf(t, files["03-content.md"], "> RULESET: ni\n", 0) + len("> RULESET: ni")
	items := s.Complete(path, typed)
	var got []string
	for _, it := range items {
		got = append(got, it.Label+" "+it.Detail)
		if it.Edit == nil || it.Edit.Span != (source.Span{Start: typed - 2, End: typed}) {
			t.Errorf("item %s edits %v", it.Label, it.Edit)
		}
	}
	if want := []string{"night-walk ruleset (initial)", "day-walk ruleset"}; !reflect.DeepEqual(got, want) {
		t.Errorf("completion %q, want %q", got, want)
	}
	if items := s.Complete(path, typed+1); len(items) != 0 {
		t.Errorf("completion at the end of the line after the id: %v", items)
	}
	readme := filepath.Join(dir, "README.md")
	if items := s.Complete(readme, offsetOf(t, files["README.md"], "readme-only", 0)); len(items) != 0 {
		t.Errorf("completion outside the chapters: %v", items)
	}
}

func TestRulesetSymbols(t *testing.T) {
	files := overviewRepo()
	dir, s := fixWrite(t, files)
	syms := s.DocumentSymbols(filepath.Join(dir, "02-mechanics.md"))
	var walk func(prefix string, list []Symbol) []string
	walk = func(prefix string, list []Symbol) []string {
		var out []string
		for _, sym := range list {
			out = append(out, prefix+sym.Name+" ("+sym.Detail+")")
			out = append(out, walk(prefix+"  ", sym.Children)...)
		}
		return out
	}
	want := []string{"Mechanics (#mechanics)", "  Night (#night)", "    night-walk (ruleset (initial))", "  Day (#day)", "    day-walk (ruleset)"}
	if got := walk("", syms); !reflect.DeepEqual(got, want) {
		t.Errorf("symbols\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := walk("", s.DocumentSymbols(filepath.Join(dir, "README.md"))); len(got) != 1 {
		t.Errorf("README symbols %v", got)
	}
}

func TestRulesetHover(t *testing.T) {
	files := overviewRepo()
	dir, s := fixWrite(t, files)
	h := s.Hover(filepath.Join(dir, "03-content.md"), offsetOf(t, files["03-content.md"], "night-walk", 0))
	if h == nil || !strings.Contains(h.Markdown, "`night-walk`: 2 tags") || !strings.Contains(h.Markdown, "(initial)") {
		t.Errorf("hover %+v", h)
	}
}
