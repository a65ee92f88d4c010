package safety

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// realFile is one file of real content, with the name the scan sees.
type realFile struct {
	name    string
	content []byte
}

// referenceContracts returns the folder of the format's published contracts
// (each with its definition, its pack and the catalogue's example
// adoptions): shared/reference/contracts next to the repository or next to
// one of the folders above it, as ../shared/reference/contracts is for a
// checkout beside the shared folder. The test is skipped when there is
// none.
func referenceContracts(tb testing.TB) string {
	tb.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		tb.Fatal(err)
	}
	for dir := root; ; {
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
		candidate := filepath.Join(dir, "shared", "reference", "contracts")
		if st, err := os.Stat(candidate); err == nil && st.IsDir() {
			return candidate
		}
	}
	tb.Skip("no shared/reference/contracts beside the repository or a folder above it: the published contracts and their example adoptions are not here, so there is no real content to scan")
	return ""
}

// publishedFiles returns every JSON file of the published contracts:
// definitions, packs and example adoptions, as they are published.
func publishedFiles(tb testing.TB) []realFile {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join(referenceContracts(tb), "*", "*.json"))
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(paths)
	var out []realFile
	for _, p := range paths {
		content, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, realFile{filepath.Base(p), content})
	}
	if len(out) < 20 {
		tb.Fatalf("only %d published files", len(out))
	}
	return out
}

// proseOf returns the strings of a JSON document of at least 40 bytes: its
// questions, meanings, descriptions and rows.
func proseOf(tb testing.TB, content []byte) []string {
	tb.Helper()
	var v any
	if err := json.Unmarshal(content, &v); err != nil {
		tb.Fatal(err)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if len(v) >= 40 {
				out = append(out, v)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(v[k])
			}
		}
	}
	walk(v)
	return out
}

// realContent returns the real content the scan is measured and compared
// on, by kind:
//   - published: every published file as it is;
//   - compact: each of them on one line, as a tool that writes JSON
//     without indentation leaves it;
//   - prose: Markdown chapters of their prose, each paragraph four of
//     their strings on four lines, with headings, lists and a fence, the
//     whole replicated three times as designers replicate rows.
func realContent(tb testing.TB) map[string][]realFile {
	tb.Helper()
	published := publishedFiles(tb)
	out := map[string][]realFile{"published": published}
	for _, f := range published {
		var b bytes.Buffer
		if err := json.Compact(&b, f.content); err != nil {
			tb.Fatalf("%s: %v", f.name, err)
		}
		out["compact"] = append(out["compact"], realFile{f.name, b.Bytes()})
	}
	for i, f := range published {
		prose := proseOf(tb, f.content)
		var b strings.Builder
		for rep := 0; rep < 3; rep++ {
			b.WriteString("# " + strings.TrimSuffix(f.name, ".json") + "\n\n")
			for k := 0; k < len(prose); k += 4 {
				switch k % 24 {
				case 8:
					b.WriteString("## A section\n\n")
				case 12:
					b.WriteString("```text\n" + prose[k] + "\n```\n\n")
					continue
				case 16:
					b.WriteString("- ")
				}
				b.WriteString(strings.Join(prose[k:min(k+4, len(prose))], "\n") + "\n\n")
			}
		}
		out["prose"] = append(out["prose"], realFile{filepath.Join("design", strings.Repeat("x", i%3)+"chapter.md"), []byte(b.String())})
	}
	return out
}

// BenchmarkScanRealAdoptions scans real content: the published contracts'
// definitions, packs and example adoptions as they are, on one line each,
// and their prose as Markdown chapters (realContent). One operation scans
// every file of the kind once, with one Scanner, as a worker of the check
// does. Besides the wall time it reports the CPU time of the process per
// operation (cpu-ns/op), which other processes on a loaded machine change
// less.
func BenchmarkScanRealAdoptions(b *testing.B) {
	content := realContent(b)
	for _, kind := range []string{"published", "compact", "prose"} {
		files := content[kind]
		size := 0
		for _, f := range files {
			size += len(f.content)
		}
		b.Run(kind, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			before, ok := processCPU()
			n := 0
			var sc Scanner // one for all files, as a worker of the check has
			for b.Loop() {
				for _, f := range files {
					sc.ScanText(f.name, f.content)
				}
				n++
			}
			if after, _ := processCPU(); ok && n > 0 {
				b.ReportMetric(float64(after-before)/float64(n), "cpu-ns/op")
			}
		})
	}
}
