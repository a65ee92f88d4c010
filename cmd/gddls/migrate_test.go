package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
)

// oldPackage writes the v0.5-style package of testdata/migrate into a
// temporary folder and returns the folder.
func oldPackage(t *testing.T) string {
	t.Helper()
	ar := analysistest.ReadArchive(t, filepath.Join("..", "..", "testdata", "migrate", "v05-package.txtar"))
	files := map[string][]byte{}
	for name, data := range analysistest.ArchiveFiles(ar) {
		if !strings.HasPrefix(name, "want/") {
			files[name] = data
		}
	}
	return analysistest.WriteFiles(t, t.TempDir(), files)
}

// snapshotTree returns every file under dir with its content and mode.
func snapshotTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = info.Mode().String() + "\n" + string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMigrateDryRun: a dry run writes nothing and prints what the real run
// then does, line for line; the real run keeps each file's mode; a second
// run changes nothing; the exit status is 1 while items are left.
func TestMigrateDryRun(t *testing.T) {
	dir := oldPackage(t)
	if err := os.Chmod(filepath.Join(dir, "tuning.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := snapshotTree(t, dir)
	var dry, stderr bytes.Buffer
	if code := run([]string{"migrate", "--dry-run", dir}, nil, &dry, &stderr); code != 1 {
		t.Fatalf("dry run: exit %d, want 1; stderr: %s", code, stderr.String())
	}
	after := snapshotTree(t, dir)
	if len(before) != len(after) {
		t.Fatalf("the dry run changed the file set")
	}
	for p, s := range before {
		if after[p] != s {
			t.Errorf("the dry run changed %s", p)
		}
	}
	var real bytes.Buffer
	if code := run([]string{"migrate", dir}, nil, &real, &stderr); code != 1 {
		t.Fatalf("real run: exit %d, want 1; stderr: %s", code, stderr.String())
	}
	strip := func(s string) string {
		return strings.Replace(strings.Replace(s, "would rewrite", "X", 1), "rewrote", "X", 1)
	}
	if strip(dry.String()) != strip(real.String()) {
		t.Errorf("the dry run printed\n%s\nthe real run\n%s", dry.String(), real.String())
	}
	info, err := os.Stat(filepath.Join(dir, "tuning.json"))
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 { // Windows keeps no Unix permissions
		t.Errorf("tuning.json has mode %v after the migration, want 0600", info.Mode().Perm())
	}
	data, _ := os.ReadFile(filepath.Join(dir, "tuning.json"))
	if !strings.Contains(string(data), `"values"`) || strings.Contains(string(data), "tunables") {
		t.Errorf("tuning.json was not migrated:\n%s", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "clocks.json")); err != nil {
		t.Errorf("clocks.json was not created: %v", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*migrate-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
	var again bytes.Buffer
	run([]string{"migrate", "--format", "json", dir}, nil, &again, &stderr)
	var rep migrateReport
	if err := json.Unmarshal(again.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Changes != 0 || rep.Summary.Files != 0 {
		t.Errorf("a second run changes %d things in %d files", rep.Summary.Changes, rep.Summary.Files)
	}
}

// TestMigrateJSON checks the JSON report: changes and items, each with its
// code, and the exit status.
func TestMigrateJSON(t *testing.T) {
	dir := oldPackage(t)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"migrate", "--dry-run", "--format", "json", dir}, nil, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s", code, stderr.String())
	}
	var rep struct {
		Version  int  `json:"version"`
		DryRun   bool `json:"dry_run"`
		Packages []struct {
			Root    string   `json:"root"`
			Written []string `json:"written"`
			Changes []struct {
				Code, File, What string
				Line             int
			} `json:"changes"`
			Items []struct {
				Code, File, Need, Why string
				Line                  int
			} `json:"items"`
		} `json:"packages"`
		Summary struct{ Changes, Files, Items int } `json:"summary"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if rep.Version != 1 || !rep.DryRun || len(rep.Packages) != 1 {
		t.Fatalf("report header: %+v", rep)
	}
	p := rep.Packages[0]
	if len(p.Changes) == 0 || len(p.Items) == 0 || rep.Summary.Changes != len(p.Changes) || rep.Summary.Items != len(p.Items) {
		t.Fatalf("changes %d, items %d, summary %+v", len(p.Changes), len(p.Items), rep.Summary)
	}
	for _, c := range p.Changes {
		if c.Code == "" || c.File == "" || c.Line == 0 || c.What == "" {
			t.Errorf("incomplete change %+v", c)
		}
	}
	for _, it := range p.Items {
		if it.Code == "" || it.File == "" || it.Line == 0 || it.Need == "" || it.Why == "" {
			t.Errorf("incomplete item %+v", it)
		}
	}
}

// TestMigrateLeavesBrokenAndForeignFiles: a file that does not parse is
// left as it is and listed; a symbolic link and a nested package are not
// touched; nothing left means exit 0.
func TestMigrateLeavesBrokenAndForeignFiles(t *testing.T) {
	root := t.TempDir()
	pkg := filepath.Join(root, "pkg")
	outside := filepath.Join(root, "outside.json")
	analysistest.WriteFiles(t, pkg, map[string]string{
		"manifest.json":  `{"opengdd": "0.9", "id": "a", "version": "0.1.0", "title": "A", "designer": {"name": "d"}, "target": {"platform": "web-2d", "genre": "g"}}`,
		"tuning.json":    `{"tunables": {"a.b": 1}`,
		"01-overview.md": "# A\n",
		"02-m.md":        "# M\n",
	})
	if err := os.WriteFile(outside, []byte(`{"tunables": {"a.b": 1}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(pkg, "personalization.json")); err != nil {
		t.Skip("no symbolic links here")
	}
	before := snapshotTree(t, root)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"migrate", pkg}, nil, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1 (the broken tuning.json is listed); stderr %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "TUNING_JSON") {
		t.Errorf("the broken file is not listed:\n%s", stdout.String())
	}
	after := snapshotTree(t, root)
	for p, s := range before {
		if after[p] != s {
			t.Errorf("%s changed", p)
		}
	}
	// A package with nothing retired: exit 0, nothing written.
	clean := filepath.Join("..", "..", "testdata", "demo")
	stdout.Reset()
	if code := run([]string{"migrate", "--dry-run", clean}, nil, &stdout, &stderr); code != 0 {
		t.Errorf("the demo package: exit %d, want 0:\n%s", code, stdout.String())
	}
}

// TestMigrateUsage checks the usage errors and the help.
func TestMigrateUsage(t *testing.T) {
	for _, args := range [][]string{
		{"migrate", "--format", "sarif"},
		{"migrate", "--nope"},
		{"migrate", "--build"},
		{"migrate", "--build", "x.json", "extra"},
		{"migrate", filepath.Join(t.TempDir(), "missing")},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"migrate", "--help"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("--help: exit %d", code)
	}
	for _, want := range []string{"What it does", "What it never does", "--dry-run", "Exit status"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}

// TestMigrateBuild migrates a build record.
func TestMigrateBuild(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "opengdd-build.json")
	if err := os.WriteFile(rec, []byte("{\n  \"opengdd\": \"0.9\",\n  \"renderer\": \"webgl\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	run([]string{"migrate", "--build", rec}, nil, &stdout, &stderr)
	data, _ := os.ReadFile(rec)
	if strings.Contains(string(data), "renderer") {
		t.Errorf("renderer is still in the record:\n%s", data)
	}
	if !strings.Contains(stdout.String(), "renderer removed") {
		t.Errorf("output:\n%s", stdout.String())
	}
}

// TestMigrateLeftovers: a retired form the migration has no rewrite for
// (a pack template of a retired test type: packs are left as their
// catalog published them) is still listed for a person, from the check of
// the package as migrated, and makes the exit status 1.
func TestMigrateLeftovers(t *testing.T) {
	ar := analysistest.ReadArchive(t, filepath.Join("..", "..", "testdata", "migrate", "adoption-format.txtar"))
	files := map[string][]byte{}
	for name, data := range analysistest.ArchiveFiles(ar) {
		if !strings.HasPrefix(name, "want/") {
			files[name] = data
		}
	}
	files["contracts/small-gate-1.pack.json"] = bytes.Replace(files["contracts/small-gate-1.pack.json"], []byte(`"type": "scenario",
      "expand"`), []byte(`"type": "property",
      "expand"`), 1)
	dir := analysistest.WriteFiles(t, t.TempDir(), files)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"migrate", "--dry-run", "--format", "json", dir}, nil, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", code, stderr.String())
	}
	var rep migrateReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, it := range rep.Packages[0].Items {
		found = found || it.Code == "CONTRACT_PACK_SHAPE" && it.File == "contracts/small-gate-1.pack.json"
	}
	if !found {
		t.Errorf("the retired template type is not listed: %+v", rep.Packages[0].Items)
	}
}

// TestMigrateSkipsFoldersTheCheckerSkips: a tree's packages are found as
// the checker finds them, so a package below node_modules or a hidden
// folder is left alone while one beside them is migrated.
func TestMigrateSkipsFoldersTheCheckerSkips(t *testing.T) {
	tree := t.TempDir()
	old := oldPackage(t)
	copyTree := func(to string) {
		t.Helper()
		for rel, s := range snapshotTree(t, old) {
			_, content, _ := strings.Cut(s, "\n")
			analysistest.WriteFiles(t, to, map[string]string{filepath.ToSlash(rel): content})
		}
	}
	copyTree(filepath.Join(tree, "design"))
	copyTree(filepath.Join(tree, "node_modules", "dep"))
	copyTree(filepath.Join(tree, ".cache", "old"))
	skipped := map[string]string{}
	for _, dir := range []string{"node_modules", ".cache"} {
		for rel, s := range snapshotTree(t, filepath.Join(tree, dir)) {
			skipped[filepath.Join(dir, rel)] = s
		}
	}
	var stdout, stderr bytes.Buffer
	run([]string{"migrate", tree}, nil, &stdout, &stderr)
	if !strings.Contains(stdout.String(), "design") {
		t.Fatalf("the package beside the skipped folders was not migrated:\n%s%s", stdout.String(), stderr.String())
	}
	for rel, s := range skipped {
		data, err := os.ReadFile(filepath.Join(tree, rel))
		if err != nil {
			t.Fatal(err)
		}
		if _, want, _ := strings.Cut(s, "\n"); string(data) != want {
			t.Errorf("%s changed, though the checker never reads it", rel)
		}
	}
	if strings.Contains(stdout.String(), "node_modules") || strings.Contains(stdout.String(), ".cache") {
		t.Errorf("the report names a skipped folder:\n%s", stdout.String())
	}
}
