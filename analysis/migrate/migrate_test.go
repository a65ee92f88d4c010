package migrate_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/analysis/buildrecord"
	"github.com/gddls/gddls/analysis/migrate"
	"github.com/gddls/gddls/contracts/source"
	"golang.org/x/tools/txtar"
)

// TestScenarios runs each archive of testdata/migrate: the files outside
// want/ are the old package; want/<path> is the expected content of every
// file the migration writes (no other file may change) and want/REPORT the
// expected report. The migrated package is then checked: its errors must
// be exactly the items left for a person (at their file, line and code),
// and a second migration must change nothing.
func TestScenarios(t *testing.T) {
	analysistest.RunArchives(t, analysistest.Testdata(t, "migrate"), func(t *testing.T, path string) {
		ar := analysistest.ReadArchive(t, path)
		old := map[string][]byte{}
		want := map[string][]byte{}
		var wantReport []byte
		record := ""
		for name, data := range analysistest.ArchiveFiles(ar) {
			switch {
			case name == "want/REPORT":
				wantReport = data
			case strings.HasPrefix(name, "want/"):
				want[strings.TrimPrefix(name, "want/")] = data
			default:
				old[name] = data
			}
			if strings.HasPrefix(string(ar.Comment), "build:") {
				record = strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(ar.Comment), "\n", 2)[0], "build:"))
			}
		}
		var res *migrate.Result
		if record != "" {
			res = migrate.BuildRecord(record, old[record])
		} else {
			res = migrate.Package(old)
		}
		if *update {
			updateArchive(t, path, ar, res)
			want = map[string][]byte{}
			for p, b := range res.Files {
				want[p] = b
			}
			var b bytes.Buffer
			migrate.WriteText(&b, "", res)
			wantReport = b.Bytes()
		}
		for _, p := range res.Paths() {
			w, ok := want[p]
			if !ok {
				t.Errorf("the migration writes %s, which the archive does not expect:\n%s", p, res.Files[p])
				continue
			}
			if !bytes.Equal(res.Files[p], w) {
				t.Errorf("%s after the migration:\n%s\nwant:\n%s", p, res.Files[p], w)
			}
		}
		for p := range want {
			if _, ok := res.Files[p]; !ok {
				t.Errorf("the archive expects %s to be written; the migration leaves it", p)
			}
		}
		// The span edits of a file give its new content.
		for p, edits := range res.Edits {
			var b bytes.Buffer
			at := 0
			for _, e := range edits {
				b.Write(old[p][at:e.Start])
				b.WriteString(e.Text)
				at = e.End
			}
			b.Write(old[p][at:])
			if !bytes.Equal(b.Bytes(), res.Files[p]) {
				t.Errorf("the edits of %s give\n%s\nbut the migration writes\n%s", p, b.Bytes(), res.Files[p])
			}
		}
		var got bytes.Buffer
		if err := migrate.WriteText(&got, "", res); err != nil {
			t.Fatal(err)
		}
		if got.String() != string(wantReport) {
			t.Errorf("report:\n%s\nwant:\n%s", got.String(), wantReport)
		}
		if record != "" {
			out := merged(old, res)[record]
			var left, items []string
			for _, f := range buildrecord.Parse(record, out).Findings {
				if f.Severity == source.Error {
					left = append(left, fmt.Sprintf("%d: %s", bytes.Count(out[:f.Span.Start], []byte("\n"))+1, f.Code))
				}
			}
			for _, it := range res.Items {
				items = append(items, fmt.Sprintf("%d: %s", it.Line, it.Code))
			}
			sort.Strings(left)
			sort.Strings(items)
			if strings.Join(left, "\n") != strings.Join(items, "\n") {
				t.Errorf("errors after the migration:\n%s\nitems for a person:\n%s", strings.Join(left, "\n"), strings.Join(items, "\n"))
			}
			again := migrate.BuildRecord(record, out)
			if len(again.Files) > 0 || len(again.Changes) > 0 {
				t.Errorf("a second migration of the record changes %v", again.Changes)
			}
			return
		}
		// The migrated package: the errors left are the items.
		newPkg := merged(old, res)
		dir := analysistest.WriteFiles(t, t.TempDir(), newPkg)
		snap := analysis.Load([]string{dir}, analysis.Options{})
		// Every error is at a place an item names, every item's place
		// holds an error, and the item's code is among that place's codes.
		var left []string
		codes := map[string]bool{}
		for _, d := range snap.AllDiagnostics() {
			if d.Severity != source.Error {
				continue
			}
			rel, _ := filepath.Rel(dir, d.File)
			place := fmt.Sprintf("%s:%d", filepath.ToSlash(rel), d.Range.Start.Line+1)
			left = append(left, place)
			codes[place+": "+d.Code] = true
		}
		var items []string
		ok := true
		for _, it := range res.Items {
			if !it.Review {
				place := fmt.Sprintf("%s:%d", it.File, it.Line)
				items = append(items, place)
				ok = ok && codes[place+": "+it.Code]
			}
		}
		sort.Strings(left)
		left = uniq(left)
		sort.Strings(items)
		items = uniq(items)
		if !ok || strings.Join(left, "\n") != strings.Join(items, "\n") {
			var msgs []string
			for _, d := range snap.AllDiagnostics() {
				if d.Severity == source.Error {
					msgs = append(msgs, d.Code+": "+d.Message)
				}
			}
			t.Errorf("errors after the migration:\n%s\nitems for a person:\n%s\nmessages:\n%s", strings.Join(left, "\n"), strings.Join(items, "\n"), strings.Join(msgs, "\n"))
		}
		// Idempotence.
		again := migrate.Package(newPkg)
		if len(again.Files) > 0 || len(again.Changes) > 0 {
			var b bytes.Buffer
			migrate.WriteText(&b, "", again)
			t.Errorf("a second migration changes the package again:\n%s", b.String())
			for _, p := range again.Paths() {
				t.Logf("%s:\n%s", p, again.Files[p])
			}
		}
	})
}

var update = flag.Bool("update", false, "rewrite the want/ files of the archives from the results")

// updateArchive rewrites the want/ files of an archive from a result.
func updateArchive(t *testing.T, path string, ar *txtar.Archive, res *migrate.Result) {
	var files []txtar.File
	for _, f := range ar.Files {
		if !strings.HasPrefix(f.Name, "want/") {
			files = append(files, f)
		}
	}
	for _, p := range res.Paths() {
		files = append(files, txtar.File{Name: "want/" + p, Data: res.Files[p]})
	}
	var b bytes.Buffer
	migrate.WriteText(&b, "", res)
	files = append(files, txtar.File{Name: "want/REPORT", Data: b.Bytes()})
	ar.Files = files
	if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// merged returns the old files with the migration's files over them.
func merged(old map[string][]byte, res *migrate.Result) map[string][]byte {
	out := map[string][]byte{}
	for p, b := range old {
		out[p] = b
	}
	for p, b := range res.Files {
		out[p] = b
	}
	return out
}

func uniq(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
