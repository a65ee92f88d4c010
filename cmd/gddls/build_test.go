package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// buildArchive writes testdata/build/<name>.txtar without its markers and
// returns the folder.
func buildArchive(t *testing.T, name string) string {
	t.Helper()
	return archiveDir(t, "build", name+".txtar")
}

// TestBuildGolden runs build mode in each format on an invalid record (with
// related places in the package) and on an incomplete one, against
// testdata/golden/build*.<format>.
func TestBuildGolden(t *testing.T) {
	t.Run("invalid", func(t *testing.T) {
		dir := buildArchive(t, "tuning-values")
		checkGolden(t, "build", 1, "--build", filepath.Join(dir, "opengdd-build.json"), dir)
	})
	t.Run("incomplete", func(t *testing.T) {
		dir := buildArchive(t, "incomplete")
		checkGolden(t, "build-incomplete", 3, "--build", filepath.Join(dir, "opengdd-build.json"), dir)
	})
	t.Run("not-checked", func(t *testing.T) {
		dir := buildArchive(t, "record-alone")
		checkGolden(t, "build-alone", 3, "--build", filepath.Join(dir, "opengdd-build.json"))
	})
}

// TestBuildExitStatus checks the exit codes of §7: 0 only for conforming,
// 1 invalid, 2 usage, 3 incomplete, not verified and not checked; and the
// outcome in the JSON report.
func TestBuildExitStatus(t *testing.T) {
	record := func(dir string) string { return filepath.Join(dir, "opengdd-build.json") }
	conforming := buildArchive(t, "conforming")
	outside := buildArchive(t, "conforming-outside")
	tests := []struct {
		name    string
		args    []string
		want    int
		outcome string
	}{
		{"conforming", []string{record(conforming), conforming}, 0, "conforming"},
		{"record outside its package", []string{filepath.Join(outside, "builds", "opengdd-build.json"), filepath.Join(outside, "game")}, 0, "conforming"},
		{"invalid", []string{record(buildArchive(t, "tests")), buildArchive(t, "tests")}, 1, "invalid"},
		{"incomplete", []string{record(buildArchive(t, "incomplete")), buildArchive(t, "incomplete")}, 3, "incomplete"},
		{"not verified", []string{record(buildArchive(t, "not-verified")), buildArchive(t, "not-verified")}, 3, "not-verified"},
		{"not checked", []string{record(conforming)}, 3, "not-checked"},
		{"invalid alone", []string{record(buildArchive(t, "record-alone-invalid"))}, 1, "invalid"},
		{"record missing", []string{filepath.Join(conforming, "nope.json"), conforming}, 1, "invalid"},
		{"record is a folder", []string{filepath.Join(conforming, "contracts"), conforming}, 1, "invalid"},
		{"flags after the package", []string{record(conforming), conforming, "--format", "json"}, 0, "conforming"},
		{"no record", []string{""}, 2, ""},
		{"two packages", []string{record(conforming), conforming, conforming}, 2, ""},
		{"package missing", []string{record(conforming), filepath.Join(conforming, "nope")}, 2, ""},
		{"package is a file", []string{record(conforming), record(conforming)}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"check", "--format", "json", "--build"}, tt.args...)
			if got := run(args, nil, &stdout, &stderr); got != tt.want {
				t.Fatalf("exit %d, want %d; stdout %s stderr %s", got, tt.want, stdout.String(), stderr.String())
			}
			if tt.want == 2 {
				if stderr.Len() == 0 {
					t.Error("usage error printed nothing on stderr")
				}
				return
			}
			var rep struct {
				Outcome string            `json:"outcome"`
				Hints   []json.RawMessage `json:"hints"`
				Safety  []json.RawMessage `json:"safety"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
				t.Fatalf("%v\n%s", err, stdout.String())
			}
			if rep.Outcome != tt.outcome || rep.Hints == nil || rep.Safety == nil {
				t.Errorf("outcome %q (hints %v, safety %v), want %q with both lists", rep.Outcome, rep.Hints, rep.Safety, tt.outcome)
			}
		})
	}
	t.Run("with render-tests", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if got := run([]string{"check", "--render-tests", "--build", record(conforming), conforming}, nil, &stdout, &stderr); got != 2 {
			t.Errorf("exit %d, want 2", got)
		}
	})
}

// TestBuildFileMissing: a record that does not exist is the format's
// BUILD_FILE_MISSING, named in the report.
func TestBuildFileMissing(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if got := run([]string{"check", "--build", filepath.Join(dir, "opengdd-build.json")}, nil, &stdout, &stderr); got != 1 {
		t.Fatalf("exit %d, want 1", got)
	}
	if out := stdout.String(); !strings.Contains(out, "BUILD_FILE_MISSING") || !strings.Contains(out, "FAIL") {
		t.Errorf("report lacks BUILD_FILE_MISSING or the verdict:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "opengdd-build.json")); err == nil {
		t.Error("the check created the record")
	}
}

// TestBuildHostileRecords: a record of any bytes gets the format's finding
// and the invalid outcome, never a crash or a hang.
func TestBuildHostileRecords(t *testing.T) {
	pkg := buildArchive(t, "conforming")
	for name, content := range map[string]string{
		"empty":        "",
		"nul bytes":    "{\x00\x00}",
		"binary":       "\x89PNG\r\n\x1a\n\x00\x00",
		"deep nesting": strings.Repeat("[", 100000),
		"invalid utf8": "{\"opengdd\": \"\xff\xfe\"}",
		"a number":     "1e999",
		"deep object":  strings.Repeat(`{"evidence":`, 600) + "1" + strings.Repeat("}", 600),
	} {
		t.Run(name, func(t *testing.T) {
			record := filepath.Join(t.TempDir(), "opengdd-build.json")
			if err := os.WriteFile(record, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if got := run([]string{"check", "--format", "json", "--build", record, pkg}, nil, &stdout, &stderr); got != 1 {
				t.Fatalf("exit %d, want 1; %s %s", got, stdout.String(), stderr.String())
			}
			var rep struct {
				Outcome  string `json:"outcome"`
				Findings []struct {
					Code string `json:"code"`
				} `json:"findings"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || rep.Outcome != "invalid" || len(rep.Findings) == 0 {
				t.Fatalf("outcome %q, findings %v (%v)", rep.Outcome, rep.Findings, err)
			}
			for _, f := range rep.Findings {
				if !strings.HasPrefix(f.Code, "BUILD_") {
					t.Errorf("code %s", f.Code)
				}
			}
		})
	}
}
