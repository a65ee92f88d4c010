package analysis_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sort"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/analysis/gen"
)

// The benchmarks below measure the analysis layer on the repository of the
// design budgets (DESIGN §7): 200 adoptions, 100 chapters, about 10,000
// citations. docs/PERFORMANCE.md records their numbers.

func BenchmarkCheckPackageCold(b *testing.B) {
	dir, _ := analysistest.Generated(b, analysistest.BenchConfig(b))
	benchCold(b, dir)
}

// benchCold measures a cold load of dir and its findings, which must
// include the generator's planted ones.
func benchCold(b *testing.B, dir string) {
	b.ReportAllocs()
	for b.Loop() {
		s := analysis.Load([]string{dir}, analysis.Options{})
		if len(s.AllDiagnostics()) == 0 {
			b.Fatal("the planted findings are missing")
		}
	}
}

// BenchmarkCheckCollectionsCold checks the default package with a
// collection of 5,000 records (and 50 workshops that mirror their links);
// compare it with BenchmarkCheckPackageCold, the same package without.
func BenchmarkCheckCollectionsCold(b *testing.B) {
	cfg := gen.DefaultConfig()
	cfg.Records = 5000
	dir, _ := analysistest.Generated(b, cfg)
	benchCold(b, dir)
}

// BenchmarkEditRecord measures one keystroke in a record of the 5,000:
// the record is checked again, the others' checks are reused.
func BenchmarkEditRecord(b *testing.B) {
	cfg := gen.DefaultConfig()
	cfg.Records = 5000
	dir, _ := analysistest.Generated(b, cfg)
	rel := "collections/parts/part-mi.json"
	path := filepath.Join(dir, filepath.FromSlash(rel))
	a := analysistest.ReadGenerated(b, dir, rel)
	c := bytes.Replace(a, []byte(`"weight": `), []byte(`"weight": 1`), 1)
	benchEdit(b, dir, path, a, c, []string{path})
}

// BenchmarkEditChapterWithRecords is BenchmarkEditChapterText in the
// package with the 5,000 records: the checks across records are reused.
func BenchmarkEditChapterWithRecords(b *testing.B) {
	cfg := gen.DefaultConfig()
	cfg.Records = 5000
	dir, _ := analysistest.Generated(b, cfg)
	path := filepath.Join(dir, "02-mechanics.md")
	orig := analysistest.ReadGenerated(b, dir, "02-mechanics.md")
	at := bytes.IndexByte(orig, '\n') + 1
	edited := append(append(bytes.Clone(orig[:at]), "Designers' note.\n"...), orig[at:]...)
	benchEdit(b, dir, path, orig, edited, []string{path})
}

// BenchmarkCheckPackageColdSafety is what `gddls check` does: the cold
// check and the safety scan of every text file of the package.
func BenchmarkCheckPackageColdSafety(b *testing.B) {
	dir, _ := analysistest.Generated(b, analysistest.BenchConfig(b))
	b.ReportAllocs()
	for b.Loop() {
		s := analysis.Load([]string{dir}, analysis.Options{})
		if len(s.AllDiagnostics()) == 0 {
			b.Fatal("the planted findings are missing")
		}
		s.Safety()
	}
}

func BenchmarkCheckDocsCold(b *testing.B) {
	dir := b.TempDir()
	if _, err := gen.DocsTree(dir, gen.DefaultDocsConfig().Scaled(analysistest.BenchScale(b))); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s := analysis.Load([]string{dir}, analysis.Options{})
		if len(s.AllDiagnostics()) == 0 {
			b.Fatal("the planted broken links are missing")
		}
	}
}

// benchEdit measures one keystroke: SetOverlay of path with the next of
// two contents that alternate, then Snapshot and the diagnostics of the
// files an editor shows. Alternating keeps the parse cache from answering.
func benchEdit(b *testing.B, dir, path string, a, c []byte, show []string) {
	benchEditReading(b, dir, path, a, c, func(s *analysis.Snapshot) {
		for _, f := range show {
			_ = s.Diagnostics(f)
		}
	})
}

// maxWarmEdits bounds the edits benchEditReading makes before it measures.
const maxWarmEdits = 20000

// benchEditReading is benchEdit with read, what the keystroke's snapshot
// is asked for after each edit.
func benchEditReading(b *testing.B, dir, path string, a, c []byte, read func(*analysis.Snapshot)) {
	w := analysis.NewWorkspace([]string{dir}, analysis.Options{})
	// The initial load is not part of an edit, nor what is first asked of
	// it: a server publishes the first snapshot's diagnostics and notices
	// before the first keystroke.
	read(w.Snapshot())
	// Nor is collecting its garbage, which at ten times the package is
	// hundreds of megabytes: without this, a collection of it falls into
	// the first few hundred edits' CPU time or not, by chance. The edits'
	// own garbage is collected inside the loop, over the live heap.
	runtime.GC()
	i := 0
	edit := func() {
		content := a
		if i%2 == 0 {
			content = c
		}
		i++
		w.SetOverlay(path, content)
		read(w.Snapshot())
	}
	// Nor are the edits before the heap is in its steady state: until the
	// first collection after the load, every edit's garbage lands on pages
	// the process touches for the first time, which costs as much as the
	// edit (a few page faults an edit at one time the package, a dozen at
	// ten times, where the heap has hundreds of megabytes to grow before
	// its first collection). A server pays that once after it starts; a
	// keystroke after it, as measured here, allocates on pages a
	// collection has freed.
	gcs := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(gcs)
	for start := gcs[0].Value.Uint64(); gcs[0].Value.Uint64() == start && i < maxWarmEdits; metrics.Read(gcs) {
		edit()
	}
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		edit()
	}
	if cpu > 0 {
		// The process's CPU time per edit (garbage collection included),
		// which the machine's load changes less than the wall time.
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkEditAdoption(b *testing.B) {
	dir, path, orig, edited := adoptionEdit(b)
	benchEdit(b, dir, path, orig, edited, []string{path})
}

// adoptionEdit generates the benchmarks' package and returns the keystroke
// of the adoption benchmarks: the clean adoption's path, its content, and
// the content with one line changed (a row's choice leaves its options,
// adding an error).
func adoptionEdit(b *testing.B) (dir, path string, orig, edited []byte) {
	dir, rep := analysistest.Generated(b, analysistest.BenchConfig(b))
	path = filepath.Join(dir, rep.CleanAdoption)
	orig = analysistest.ReadGenerated(b, dir, rep.CleanAdoption)
	return dir, path, orig, analysistest.ReplaceOnce(b, orig, `"kind": "plain"`, `"kind": "plainx"`)
}

// BenchmarkEditAdoptionServed is BenchmarkEditAdoption with what the
// server publishes after a keystroke besides the findings: the safety
// notices of the snapshot, by file.
func BenchmarkEditAdoptionServed(b *testing.B) {
	dir, path, orig, edited := adoptionEdit(b)
	benchEditReading(b, dir, path, orig, edited, func(s *analysis.Snapshot) {
		_ = s.Diagnostics(path)
		_ = s.Safety()
		_ = s.SafetyOf(path)
	})
}

func BenchmarkEditHeading(b *testing.B) {
	dir, rep := analysistest.Generated(b, analysistest.BenchConfig(b))
	path := filepath.Join(dir, rep.HotHeading.File)
	orig := analysistest.ReadGenerated(b, dir, rep.HotHeading.File)
	// Every adoption's first row cites this heading.
	edited := analysistest.ReplaceOnce(b, orig, rep.HotHeadingText+"\n", rep.HotHeadingText+"s\n")
	benchEdit(b, dir, path, orig, edited, []string{path, filepath.Join(dir, rep.CleanAdoption)})
}

// BenchmarkEditChapterText types a word near the top of the chapter that
// every adoption cites, moving all of its headings.
func BenchmarkEditChapterText(b *testing.B) {
	dir, _ := analysistest.Generated(b, analysistest.BenchConfig(b))
	path := filepath.Join(dir, "02-mechanics.md")
	orig := analysistest.ReadGenerated(b, dir, "02-mechanics.md")
	at := bytes.IndexByte(orig, '\n') + 1
	edited := append(append(bytes.Clone(orig[:at]), "Designers' note.\n"...), orig[at:]...)
	benchEdit(b, dir, path, orig, edited, []string{path})
}

func BenchmarkEditTuning(b *testing.B) {
	dir, rep := analysistest.Generated(b, analysistest.BenchConfig(b))
	path := filepath.Join(dir, "tuning.json")
	orig := analysistest.ReadGenerated(b, dir, "tuning.json")
	at := rep.TuningValue.Offset
	edited := bytes.Clone(orig)
	// Change the leading digit to another non-zero digit: a leading zero
	// would make the number, and tuning.json, invalid.
	edited[at] = '1' + (edited[at]-'0')%9
	benchEdit(b, dir, path, orig, edited, []string{path})
}

// countFindings counts diagnostics by code and root-relative slash path.
func countFindings(root string, diags []analysis.Diagnostic) map[string]int {
	got := map[string]int{}
	for _, d := range diags {
		rel, err := filepath.Rel(root, d.File)
		if err != nil {
			rel = d.File
		}
		got[d.Code+" "+filepath.ToSlash(rel)]++
	}
	return got
}

func expectedCounts(list []gen.Expected) map[string]int {
	want := map[string]int{}
	for _, e := range list {
		want[e.Code+" "+e.File] += e.Count
	}
	return want
}

func diffCounts(got, want map[string]int) string {
	var lines []string
	for k, n := range want {
		if got[k] != n {
			lines = append(lines, fmt.Sprintf("%s: got %d, want %d", k, got[k], n))
		}
	}
	for k, n := range got {
		if _, ok := want[k]; !ok {
			lines = append(lines, fmt.Sprintf("%s: got %d, want 0", k, n))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestGeneratedPackageFindings keeps the generator valid as the checker
// evolves: the checker must report exactly the planted findings, and none
// for a clean package or tree.
func TestGeneratedPackageFindings(t *testing.T) {
	small := gen.Config{Adoptions: 24, Chapters: 12, Sections: 6, TuningKeys: 200, Rows: 6, Seed: 3}
	tests := []struct {
		name string
		cfg  gen.Config
	}{
		{"default", gen.DefaultConfig()},
		{"small", small},
		{"clean", func() gen.Config { c := small; c.Clean = true; return c }()},
		{"collections", func() gen.Config { c := small; c.Records = 300; return c }()},
		{"collections clean", func() gen.Config { c := small; c.Records = 300; c.Clean = true; return c }()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, rep := analysistest.Generated(t, tc.cfg)
			if tc.cfg.Clean && len(rep.Expected) != 0 {
				t.Fatalf("a clean package plants %v", rep.Expected)
			}
			if !tc.cfg.Clean && len(rep.Expected) == 0 {
				t.Fatal("the generator planted nothing")
			}
			s := analysis.Load([]string{dir}, analysis.Options{})
			if d := diffCounts(countFindings(dir, s.AllDiagnostics()), expectedCounts(rep.Expected)); d != "" {
				t.Errorf("findings differ from the planted ones:\n%s", d)
				for _, dg := range s.AllDiagnostics() {
					t.Logf("%s:%d %s %s", dg.File, dg.Range.Start.Line+1, dg.Code, dg.Message)
				}
			}
		})
	}
}

// TestGeneratedDocsFindings checks the planted broken links of the
// documentation tree the same way.
func TestGeneratedDocsFindings(t *testing.T) {
	for _, clean := range []bool{false, true} {
		t.Run(fmt.Sprintf("clean=%v", clean), func(t *testing.T) {
			dir := t.TempDir()
			cfg := gen.DocsConfig{Areas: 4, Topics: 3, Files: 5, Links: 8, Seed: 2, Clean: clean}
			rep, err := gen.DocsTree(dir, cfg)
			if err != nil {
				t.Fatal(err)
			}
			s := analysis.Load([]string{dir}, analysis.Options{})
			if d := diffCounts(countFindings(dir, s.AllDiagnostics()), expectedCounts(rep.Expected)); d != "" {
				t.Errorf("findings differ from the planted ones:\n%s", d)
			}
		})
	}
}

// BenchmarkLargeFiles checks a package whose adoption and chapter are each
// about 20 MB (far above any real design file; issue 10): a row set of
// 350,000 cited rows with one planted dangling citation, and a chapter of
// 25,000 sections with links and citations and one planted broken link.
// It reports the time of a cold check, its allocation, and the process's
// peak resident memory (run it alone for that number to mean the check:
// go test -run '^$' -bench LargeFiles ./analysis/).
func BenchmarkLargeFiles(b *testing.B) {
	dir := b.TempDir()
	var adoption strings.Builder
	adoption.WriteString(`{
  "contract": "lamp-oil", "version": 1, "origin": "https://catalog.example/lamp-oil-1",
  "summary": "Oil in the lamp.", "mechanism": ["The lamp burns its oil."],
  "declares": { "rows": { "sources": { "description": "Where each number is set.", "record": {
    "id": { "type": "string", "required": true }, "where": { "type": "citation", "required": true } } } } },
  "questions": {}, "answers": {}, "values": {},
  "rows": { "sources": [`)
	for i := 0; adoption.Len() < 20<<20; i++ {
		where := "02-mechanics.md#burning-" + fmt.Sprint(i%25000)
		if i == 1000 {
			where = "02-mechanics.md#no-such-section"
		}
		if i > 0 {
			adoption.WriteString(",")
		}
		fmt.Fprintf(&adoption, "\n    { \"id\": \"source-%d\", \"where\": %q }", i, where)
	}
	adoption.WriteString("\n  ] }\n}\n")
	var chapter strings.Builder
	chapter.WriteString("# Mechanics\n\n")
	for i := 0; chapter.Len() < 20<<20; i++ {
		fmt.Fprintf(&chapter, "## Burning %d\n\nThe lantern holds `lantern.oil_units` units and burns one every `lantern.burn_seconds` seconds; see [the previous section](#burning-%d) and [the overview](01-overview.md). The wick glows, the oil sinks, the night goes on, and the lantern keeps its small promise of light for one more section.\n\n", i, max(i-1, 0))
		if i == 500 {
			chapter.WriteString("A link to [nowhere](missing.md).\n\n")
		}
	}
	files := map[string]string{
		"manifest.json":           `{"opengdd": "0.9", "id": "lantern", "version": "1.0.0", "title": "Lantern", "designer": {"name": "bench"}, "target": {"platform": "web-2d", "genre": "puzzle"}}`,
		"tuning.json":             `{"values": {"lantern.oil_units": 12, "lantern.burn_seconds": 30}}`,
		"01-overview.md":          "# Lantern\n\n```fantasy\nYou keep a lantern lit.\nFeel: quiet, careful, calm\nNOT: frantic\n```\n",
		"02-mechanics.md":         chapter.String(),
		"05-build-plan.md":        "# Build plan\n\n## Stage 1\n\nBuild the lantern.\n",
		"contracts/lamp-oil.json": adoption.String(),
	}
	analysistest.WriteFiles(b, dir, files)
	if d := os.Getenv("GDDLS_LARGE_FILES_DIR"); d != "" {
		if err := os.CopyFS(d, os.DirFS(dir)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		codes := map[string]int{}
		for _, d := range analysis.Load([]string{dir}, analysis.Options{}).AllDiagnostics() {
			codes[d.Code]++
		}
		if codes["CONTRACT_CITATION_DANGLING"] != 1 || codes["DOC_LINK_FILE"] != 1 || len(codes) != 2 {
			b.Fatalf("want one dangling citation and one broken link, got %v", codes)
		}
	}
	b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
}

// BenchmarkHintsAfterEdit measures the review-mode hints of a snapshot
// after one chapter changed: the readings of the other chapters are
// reused, so the cost is the edited chapter's reading and the comparison
// of every chapter's numbers with tuning.json.
func BenchmarkHintsAfterEdit(b *testing.B) {
	dir, _ := analysistest.Generated(b, gen.DefaultConfig())
	path := filepath.Join(dir, "02-mechanics.md")
	orig := analysistest.ReadGenerated(b, dir, "02-mechanics.md")
	ws := analysis.NewWorkspace([]string{dir}, analysis.Options{})
	ws.Snapshot().Hints()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		content := orig
		if i%2 == 0 {
			content = append(bytes.Clone(orig), "\nThe moth picks 12 lamps.\n"...)
		}
		ws.SetOverlay(path, content)
		ws.Snapshot().Hints()
	}
}
