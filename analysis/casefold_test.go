package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFoldName(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"02-Mechanics.md", "02-mechanics.md", true},
		{"README.MD", "readme.md", true},
		{"Kelvin", "\u212Aelvin", true}, // the Kelvin sign folds to k
		{"ÉTÉ.md", "été.md", true},
		{"straße", "STRASSE", false}, // simple folding only, as strings.EqualFold
		{"a.md", "b.md", false},
		{"", "", true},
	}
	for _, tc := range tests {
		if got := foldName(tc.a) == foldName(tc.b); got != tc.same {
			t.Errorf("foldName(%q) == foldName(%q) is %v, want %v", tc.a, tc.b, got, tc.same)
		}
		if got := strings.EqualFold(tc.a, tc.b); got != tc.same {
			t.Errorf("the table disagrees with strings.EqualFold on %q, %q", tc.a, tc.b)
		}
	}
}

// caseTree is a walk of /r as a case-insensitive file system shows it: the
// listings give each name as it was created.
func caseTree() *tree {
	return &tree{dirs: map[string][]DirEntry{
		"/r":             {{Name: "02-mechanics.md"}, {Name: "Assets", IsDir: true}, {Name: "docs", IsDir: true}},
		"/r/Assets":      {{Name: "Mood", IsDir: true}},
		"/r/Assets/Mood": {{Name: "ink.png"}},
		"/r/docs":        {{Name: "Guide.md"}, {Name: "other file.md"}},
	}}
}

func TestTreeCaseFix(t *testing.T) {
	if filepath.Separator != '/' {
		t.Skip("the fake walk uses slash paths")
	}
	tr := caseTree()
	tests := []struct {
		base, written string
		fixed, real   string // "" when no fix
	}{
		{"/r", "02-Mechanics.md", "02-mechanics.md", "/r/02-mechanics.md"},
		{"/r", "02-mechanics.md", "", ""}, // exact: nothing to fix
		{"/r", "assets/mood/ink.png", "Assets/Mood/ink.png", "/r/Assets/Mood/ink.png"},
		{"/r", "./ASSETS/Mood/INK.PNG", "./Assets/Mood/ink.png", "/r/Assets/Mood/ink.png"},
		{"/r/docs", "guide.md", "Guide.md", "/r/docs/Guide.md"},
		{"/r/docs", "../02-MECHANICS.md", "../02-mechanics.md", "/r/02-mechanics.md"},
		{"/r/docs", "/Docs/guide.md", "/docs/Guide.md", "/r/docs/Guide.md"},
		{"/r", "nope/guide.md", "", ""},              // a folder that exists in no case
		{"/r", "02-Mechanics.md/x.md", "", ""},       // a file is no folder
		{"/r/docs", "../../02-Mechanics.md", "", ""}, // leaves the root
		{"/r", "DOCS/", "docs/", "/r/docs"},
	}
	for _, tc := range tests {
		fixed, real, ok := tr.caseFixOf("/r", tc.base, tc.written)
		if ok != (tc.fixed != "") || fixed != tc.fixed || real != tc.real {
			t.Errorf("caseFixOf(%q, %q) = %q, %q, %v; want %q, %q", tc.base, tc.written, fixed, real, ok, tc.fixed, tc.real)
		}
	}
	// Percent-encoding in a link: the name is read decoded and written
	// encoded when it must be.
	fixed, _, ok := tr.caseFix("/r", "/r/docs", "Other%20File.md", DecodeLinkName, EncodeLinkName)
	if !ok || fixed != "other%20file.md" {
		t.Errorf("the encoded link is fixed as %q, %v; want other%%20file.md", fixed, ok)
	}
}

// TestExistsIgnoresTheHostsCase holds that a wrong-case path does not
// exist, whatever the host's file system answers: the walk's listings
// decide, exactly. The walk of a case-insensitive disk is played by a
// fake walk of a temporary folder whose files on disk have the
// wrong-case names, so that os.Stat of each wrong-case path succeeds on
// every host, as it does on Windows and macOS.
func TestExistsIgnoresTheHostsCase(t *testing.T) {
	r := t.TempDir()
	for _, rel := range []string{"02-Mechanics.md", "assets/Mood/ink.png"} {
		p := filepath.Join(r, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j := func(rel string) string { return filepath.Join(r, filepath.FromSlash(rel)) }
	s := &Snapshot{Roots: []string{r}, tree: &tree{dirs: map[string][]DirEntry{
		r:                {{Name: "02-mechanics.md"}, {Name: "Assets", IsDir: true}},
		j("Assets"):      {{Name: "Mood", IsDir: true}},
		j("Assets/Mood"): {{Name: "ink.png"}},
	}}}
	for _, tc := range []struct {
		path         string
		found, isDir bool
		caseOf       string
	}{
		{j("02-mechanics.md"), true, false, ""},
		{j("02-Mechanics.md"), false, false, j("02-mechanics.md")},
		{j("assets/Mood/ink.png"), false, false, j("Assets/Mood/ink.png")},
		{j("Assets/Mood"), true, true, ""},
		{j("assets"), false, false, j("Assets")},
		{j("missing.md"), false, false, ""},
	} {
		found, isDir := s.Exists(tc.path)
		if found != tc.found || found && isDir != tc.isDir {
			t.Errorf("exists(%q) = %v, %v; want %v, %v", tc.path, found, isDir, tc.found, tc.isDir)
		}
		if got := s.CaseOf(tc.path); got != tc.caseOf {
			t.Errorf("caseOf(%q) = %q, want %q", tc.path, got, tc.caseOf)
		}
	}
}

// TestListedOutside holds that a folder the walk passed over (a hidden
// one) is listed once, on the first citation that leads into it, and that
// events in it then concern the snapshot.
func TestListedOutside(t *testing.T) {
	dir := t.TempDir()
	hidden := filepath.Join(dir, ".github", "workflows")
	if err := os.MkdirAll(hidden, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hidden, "ci.yml"), []byte("name: ci\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# R\n\nCI runs `.github/workflows/CI.yml`.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	snap := Load([]string{dir}, Options{})
	if found, _ := snap.Exists(filepath.Join(hidden, "CI.yml")); found {
		t.Errorf("the wrong-case name in a hidden folder exists")
	}
	if got := snap.CaseOf(filepath.Join(hidden, "CI.yml")); got != filepath.Join(hidden, "ci.yml") {
		t.Errorf("caseOf = %q, want the real ci.yml", got)
	}
	if !snap.DependsOn(filepath.Join(hidden, "other.yml"), true) {
		t.Errorf("a new file in the hidden folder a citation read does not concern the snapshot")
	}
	ds := snap.AllDiagnostics()
	if len(ds) != 1 || ds[0].Code != "DOC_PATH_MISSING" || !strings.Contains(ds[0].Message, "`.github/workflows/ci.yml`") {
		t.Errorf("diagnostics = %v, want one DOC_PATH_MISSING naming .github/workflows/ci.yml", ds)
	}
}

// TestCaseMessages holds that every finding of the case scenario says
// that the case differs and names the real file: the codes and places are
// those of a missing file, which TestScenarios compares.
func TestCaseMessages(t *testing.T) {
	dir, want := loadScenario(t, filepath.Join("..", "testdata", "check", "case-citations.txtar"))
	ds := Load([]string{dir}, Options{}).AllDiagnostics()
	if len(ds) != len(want) {
		t.Fatalf("%d findings, want %d", len(ds), len(want))
	}
	for _, d := range ds {
		t.Logf("%s %d:%d %s: %s", filepath.Base(d.File), d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code, d.Message)
		if !strings.Contains(d.Message, "exists only as `") || !strings.Contains(d.Message, "differ in letter case") {
			t.Errorf("%s %s: %q does not say that the case differs", filepath.Base(d.File), d.Code, d.Message)
		}
	}
}

// TestBuildCaseMessages holds that build mode names the package's files
// that exist only in another letter case (testdata/build/spec-case.txtar).
func TestBuildCaseMessages(t *testing.T) {
	file := filepath.Join("..", "testdata", "build", "spec-case.txtar")
	dir, _ := loadScenario(t, file)
	res := checkBuildAt(t, filepath.Join(dir, "opengdd-build.json"), dir, ".")
	want := map[string]string{"BUILD_SPEC_PLAN_MISSING": "`05-Build-Plan.md`", "BUILD_SPEC_TUNING_MISSING": "`Tuning.json`"}
	for _, d := range res.Diagnostics {
		if real, ok := want[d.Code]; ok {
			if !strings.Contains(d.Message, "exists only as "+real) {
				t.Errorf("%s: %q does not name %s", d.Code, d.Message, real)
			}
			delete(want, d.Code)
		}
	}
	for code := range want {
		t.Errorf("no %s", code)
	}
}
