// Package analysistest holds the helpers that the tests of analysis,
// analysis/ide, lsp and cmd/gddls share: writing a fixture repository to a
// temporary folder (the hostile fixture and the runtime-address package
// among them), copying a testdata folder, finding the module root, reading
// txtar archives and removing the ⟦…⟧ markers that archives carry, parsing
// the JSON a test is written with, and the generated repositories the
// benchmarks of analysis and analysis/ide run on.
//
// It does not import analysis, so that the tests inside package analysis
// can use it too; a snapshot of fixture files is
//
//	analysis.Load([]string{analysistest.WriteFiles(t, "", files)}, analysis.Options{})
package analysistest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/gen"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"golang.org/x/tools/txtar"
)

// ParseJSON parses text, which a test wrote as valid JSON, and fails the
// test when it does not parse.
func ParseJSON(tb testing.TB, text string) *jsonsrc.Value {
	tb.Helper()
	v, errs := jsonsrc.Parse([]byte(text))
	if len(errs) > 0 {
		tb.Fatalf("the test's JSON does not parse: %v\n%s", errs, text)
	}
	return v
}

// WriteFiles writes files, keyed by slash paths, under dir and returns dir.
// An empty dir means a new temporary folder. A name ending in "/" makes an
// empty folder.
func WriteFiles[T ~string | ~[]byte](t testing.TB, dir string, files map[string]T) string {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	for name, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// CopyTree copies the folder from into a new temporary folder and returns
// the copy.
func CopyTree(t testing.TB, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// ModuleRoot walks up from the working directory to the folder holding
// go.mod.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the test's working directory")
		}
		dir = parent
	}
}

// Testdata returns the path of elem under the module's testdata folder.
func Testdata(t testing.TB, elem ...string) string {
	t.Helper()
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(append([]string{root, "testdata"}, elem...)...)
}

// ReadArchive parses the txtar archive at path.
func ReadArchive(t testing.TB, path string) *txtar.Archive {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return ar
}

// ArchiveFiles returns the files of an archive by name; a later file of
// the same name wins.
func ArchiveFiles(ar *txtar.Archive) map[string][]byte {
	files := make(map[string][]byte, len(ar.Files))
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	return files
}

// A Marker is one ⟦…⟧ run removed from a file by StripMarkers.
type Marker struct {
	// Offset is the byte offset in the content without markers.
	Offset int
	// Line is the zero-based line of the marker in the content with
	// markers, for messages that point into the archive.
	Line int
	// Text is what stands between ⟦ and ⟧.
	Text string
}

// StripMarkers removes every ⟦…⟧ run from content and returns the clean
// content and the markers in order. Offsets are those of the clean content,
// so a marker stands immediately before the byte it marks.
func StripMarkers(content []byte) ([]byte, []Marker, error) {
	const open, close = "⟦", "⟧"
	var out []byte
	var ms []Marker
	s := string(content)
	line := 0
	for {
		i := strings.Index(s, open)
		if i < 0 {
			out = append(out, s...)
			return out, ms, nil
		}
		j := strings.Index(s[i:], close)
		if j < 0 {
			return nil, nil, fmt.Errorf("line %d: unclosed marker", line+strings.Count(s[:i], "\n")+1)
		}
		line += strings.Count(s[:i], "\n")
		out = append(out, s[:i]...)
		text := s[i+len(open) : i+j]
		ms = append(ms, Marker{Offset: len(out), Line: line, Text: text})
		line += strings.Count(text, "\n")
		s = s[i+j+len(close):]
	}
}

// ReadFile returns the content of a file as a string or fails the test.
func ReadFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// RunArchives runs f as a subtest, named after the file, for each txtar
// archive in dir, and fails when dir holds none.
func RunArchives(t *testing.T, dir string, f func(t *testing.T, path string)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no archives in %s", dir)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) { f(t, file) })
	}
}

// RuntimePackage is a package whose chapters and clocks declare runtime
// addresses.
func RuntimePackage(clocksJSON, mechanics string) map[string][]byte {
	files := map[string][]byte{
		"manifest.json":   []byte(`{}`),
		"tuning.json":     []byte(`{"values": {}}`),
		"01-overview.md":  []byte("# Overview\n\nThe `runtime.mood` of the day.\n"),
		"02-mechanics.md": []byte(mechanics),
		"05-build-plan.md": []byte("# Build plan\n\n" +
			"Not declared here: fenced code is not prose.\n\n```\n`runtime.fenced`\n```\n"),
		"notes/06-notes.md": []byte("# Notes\n\n`runtime.nested` is in no root chapter.\n"),
		"README.md":         []byte("`runtime.readme` is in no chapter.\n"),
	}
	if clocksJSON != "" {
		files["clocks.json"] = []byte(clocksJSON)
	}
	return files
}

// WriteHostile writes testdata/hostile/lamp.txtar with changes applied (nil
// deletes a file) into a new temporary folder and returns it.
func WriteHostile(t *testing.T, changes map[string][]byte) string {
	t.Helper()
	return WriteHostileIn(t, t.TempDir(), changes)
}

// WriteHostileIn is WriteHostile into a given folder.
func WriteHostileIn(t testing.TB, tmp string, changes map[string][]byte) string {
	t.Helper()
	files := ArchiveFiles(ReadArchive(t, Testdata(t, "hostile", "lamp.txtar")))
	for name, data := range changes {
		if data == nil {
			delete(files, name)
		} else {
			files[name] = data
		}
	}
	return WriteFiles(t, filepath.Join(tmp, "pkg"), files)
}

// Generated writes the default package into a fresh temporary folder.
func Generated(tb testing.TB, cfg gen.Config) (string, *gen.Report) {
	tb.Helper()
	dir := tb.TempDir()
	rep, err := gen.Package(dir, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return dir, rep
}

// BenchScale is the size factor of the benchmarks' repositories, from
// GDDLS_BENCH_SCALE (default 1; CI runs them at 1): at 10 the package has
// 2,000 adoptions and the docs tree 10,000 files.
func BenchScale(tb testing.TB) int {
	v := os.Getenv("GDDLS_BENCH_SCALE")
	if v == "" {
		return 1
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		tb.Fatalf("GDDLS_BENCH_SCALE=%q: want a whole number from 1", v)
	}
	return n
}

// BenchConfig is the benchmarks' package: the default one, scaled by
// GDDLS_BENCH_SCALE.
func BenchConfig(tb testing.TB) gen.Config {
	return gen.DefaultConfig().Scaled(BenchScale(tb))
}

// RealSource returns the folder of the published contracts, or skips.
func RealSource(tb testing.TB) string {
	tb.Helper()
	if dir := os.Getenv("GDDLS_REFERENCE_CONTRACTS"); dir != "" {
		return dir
	}
	dir := gen.FindReference("..")
	if dir == "" {
		tb.Skip("no published contracts: neither ../shared/reference/contracts beside the repository nor GDDLS_REFERENCE_CONTRACTS")
	}
	return dir
}

// RealGenerated writes the real-content package of cfg into a fresh
// temporary folder.
func RealGenerated(tb testing.TB, cfg gen.RealConfig) (string, *gen.Report) {
	tb.Helper()
	dir := tb.TempDir()
	rep, err := gen.RealPackage(dir, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return dir, rep
}

// RealBench writes the benchmarks' real-content package, scaled by
// GDDLS_BENCH_SCALE.
func RealBench(tb testing.TB) (string, *gen.Report) {
	return RealGenerated(tb, gen.DefaultRealConfig(RealSource(tb)).Scaled(BenchScale(tb)))
}

// ReadGenerated returns the content of the file rel of a generated repository.
func ReadGenerated(tb testing.TB, dir, rel string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// ReplaceOnce replaces the first old in content, failing the benchmark when
// it is absent.
func ReplaceOnce(tb testing.TB, content []byte, old, new string) []byte {
	tb.Helper()
	if !bytes.Contains(content, []byte(old)) {
		tb.Fatalf("generated file lacks %q", old)
	}
	return bytes.Replace(content, []byte(old), []byte(new), 1)
}
