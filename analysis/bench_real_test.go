package analysis_test

import (
	"io/fs"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/analysis/gen"
)

// The benchmarks below measure the analysis layer on real content: a
// package built from the format's published example adoptions
// (gen.RealPackage), whose questions, meanings and rows are full
// sentences, 200 adoptions at scale 1 (GDDLS_BENCH_SCALE). The published
// contracts are not part of the repository: they are read from
// shared/reference/contracts beside it (CI copies shared/ beside its
// clone), or from GDDLS_REFERENCE_CONTRACTS; without them these
// benchmarks and tests skip.

// TestRealPackageValid keeps the real-content package valid as the
// checker evolves: every published example once and a few copies, with
// copied rows and rewritten citations, and no finding at all.
func TestRealPackageValid(t *testing.T) {
	cfg := gen.DefaultRealConfig(analysistest.RealSource(t))
	cfg.Adoptions, cfg.Chapters = 100, 20
	dir, rep := analysistest.RealGenerated(t, cfg)
	if len(rep.Adoptions) != 100 || rep.CleanAdoption == "" || rep.Citations == 0 {
		t.Fatalf("report: %d adoptions, clean adoption %q, %d citations", len(rep.Adoptions), rep.CleanAdoption, rep.Citations)
	}
	s := analysis.Load([]string{dir}, analysis.Options{})
	for _, d := range s.AllDiagnostics() {
		rel, _ := filepath.Rel(dir, d.File)
		t.Errorf("%s:%d: %s %s", rel, d.Range.Start.Line+1, d.Code, d.Message)
	}
}

// BenchmarkRealCheckPackageCold is BenchmarkCheckPackageCold on the
// real-content package.
func BenchmarkRealCheckPackageCold(b *testing.B) { benchRealCold(b, false) }

// BenchmarkRealCheckPackageColdSafety is what `gddls check` does on the
// real-content package: the cold check and the safety scan.
func BenchmarkRealCheckPackageColdSafety(b *testing.B) { benchRealCold(b, true) }

// benchRealCold loads the real-content package cold in each round, expects
// no finding, and with scan runs the safety scan too.
func benchRealCold(b *testing.B, scan bool) {
	dir, _ := analysistest.RealBench(b)
	b.ReportAllocs()
	for b.Loop() {
		s := analysis.Load([]string{dir}, analysis.Options{})
		if n := len(s.AllDiagnostics()); n != 0 {
			b.Fatalf("the real-content package has %d findings", n)
		}
		if scan {
			s.Safety()
		}
	}
}

// realAdoptionEdit returns the keystroke of the real-content edit
// benchmarks: in the first adoption with a chapter citation, an answer to
// a question the definition does not ask appears and disappears (the
// edit the load harness makes).
func realAdoptionEdit(b *testing.B) (dir, path string, orig, edited []byte) {
	dir, rep := analysistest.RealBench(b)
	path = filepath.Join(dir, filepath.FromSlash(rep.CleanAdoption))
	orig = analysistest.ReadGenerated(b, dir, rep.CleanAdoption)
	return dir, path, orig, analysistest.ReplaceOnce(b, orig, `"answers": {`, `"answers": {"zz-probe": "x", `)
}

// BenchmarkRealEditAdoption is BenchmarkEditAdoption on the real-content
// package.
func BenchmarkRealEditAdoption(b *testing.B) {
	dir, path, orig, edited := realAdoptionEdit(b)
	benchEdit(b, dir, path, orig, edited, []string{path})
}

// BenchmarkRealEditAdoptionServed adds the safety notices the server
// publishes after a keystroke.
func BenchmarkRealEditAdoptionServed(b *testing.B) {
	dir, path, orig, edited := realAdoptionEdit(b)
	benchEditReading(b, dir, path, orig, edited, func(s *analysis.Snapshot) {
		_ = s.Diagnostics(path)
		_ = s.Safety()
		_ = s.SafetyOf(path)
	})
}

// BenchmarkRealLiveHeap reports the heap a cold load of the real-content
// package keeps (live-MB, after a collection, as the runtime's
// /gc/heap/live:bytes counts it) and how many times the input it is
// (live/input): what the collector marks on every cycle of `gddls check`
// and of the server, and what sets their peak RSS.
func BenchmarkRealLiveHeap(b *testing.B) {
	dir, _ := analysistest.RealBench(b)
	input := treeSize(b, dir)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var live uint64
	for b.Loop() {
		s := analysis.Load([]string{dir}, analysis.Options{})
		runtime.GC()
		metrics.Read(sample)
		live = sample[0].Value.Uint64()
		runtime.KeepAlive(s)
	}
	b.ReportMetric(float64(live)/(1<<20), "live-MB")
	b.ReportMetric(float64(live)/float64(input), "live/input")
}

// treeSize returns the bytes of the files under dir.
func treeSize(tb testing.TB, dir string) int64 {
	tb.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n += info.Size()
		return nil
	})
	if err != nil {
		tb.Fatalf("measuring %s: %v", dir, err)
	}
	return n
}
