package ide

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
)

// lensAt returns the lens of path whose span starts at the first
// occurrence of needle.
func lensAt(t *testing.T, s *analysis.Snapshot, path, needle string) CodeLens {
	t.Helper()
	i := strings.Index(string(s.File(path).Content), needle)
	if i < 0 {
		t.Fatalf("%s does not contain %q", path, needle)
	}
	for _, l := range CodeLenses(s, path) {
		if l.Span.Start == i {
			return l
		}
	}
	t.Fatalf("no lens at %q in %s", needle, filepath.Base(path))
	return CodeLens{}
}

func TestReferenceLenses(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "demo"))
	s := analysis.Load([]string{root}, analysis.Options{})
	mech := filepath.Join(root, "02-mechanics.md")
	tuning := filepath.Join(root, "tuning.json")
	l := lensAt(t, s, mech, "### Brewing")
	if l.Title != "3 references" || l.Command != ShowReferencesCommand || len(l.Locations) != 3 {
		t.Errorf("lens on Brewing = %+v, want 3 references", l)
	}
	for _, loc := range l.Locations {
		if filepath.Base(loc.File) != "cauldron.json" {
			t.Errorf("a reference of Brewing is in %s", loc.File)
		}
	}
	// A key cited once in prose, once in an adoption and once by the
	// timing promise of direction.json.
	l = lensAt(t, s, tuning, `"cauldron.brew_minutes"`)
	if l.Title != "3 references" || len(l.Locations) != 3 {
		t.Errorf("lens on cauldron.brew_minutes = %+v, want 3 references", l)
	}
	inDirection := false
	for _, loc := range l.Locations {
		inDirection = inDirection || filepath.Base(loc.File) == "direction.json"
	}
	if !inDirection {
		t.Errorf("no reference of cauldron.brew_minutes in direction.json: %+v", l.Locations)
	}
	l = lensAt(t, s, tuning, `"garden.growth_minutes_per_stage"`)
	content := string(s.File(tuning).Content)
	ranges := strings.Index(content, `"ranges"`)
	rangeKey := ranges + strings.Index(content[ranges:], `"garden.growth_minutes_per_stage"`)
	for _, loc := range l.Locations {
		if loc.File == tuning && loc.Span.Start <= rangeKey+1 && rangeKey < loc.Span.End {
			t.Errorf("the range of the key counts as a reference: %+v", l)
		}
	}
	if len(l.Locations) != 2 {
		t.Errorf("garden.growth_minutes_per_stage has %d references, want 2 (a rule and a chapter)", len(l.Locations))
	}
	l = lensAt(t, s, mech, "# Mechanics")
	if l.Title != "0 references" || l.Command != "" {
		t.Errorf("lens on the title = %+v, want 0 references and no command", l)
	}
}
