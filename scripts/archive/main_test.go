package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestCreateIsDeterministicAndListable(t *testing.T) {
	src := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(src, name)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	files := []string{write("gddls", "binary", 0o755), write("README.md", "readme", 0o644), write("LICENSE", "license", 0o600)}
	for _, ext := range []string{".tar.gz", ".zip"} {
		t.Run(ext, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a"+ext), filepath.Join(dir, "b"+ext)
			if err := run([]string{"create", "-mtime", "1780000000", a, files[0], files[1], files[2]}, nil); err != nil {
				t.Fatal(err)
			}
			// Different on-disk times and argument order must not matter.
			later := time.Now().Add(time.Hour)
			for _, f := range files {
				os.Chtimes(f, later, later)
			}
			if err := run([]string{"create", "-mtime", "1780000000", b, files[2], files[1], files[0]}, nil); err != nil {
				t.Fatal(err)
			}
			da, _ := os.ReadFile(a)
			db, _ := os.ReadFile(b)
			if !bytes.Equal(da, db) {
				t.Errorf("two archives of the same files differ")
			}
			var out bytes.Buffer
			if err := run([]string{"list", a}, &out); err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Fields(out.String()), []string{"LICENSE", "README.md", "gddls"}; !slices.Equal(got, want) {
				t.Errorf("list = %q, want %q", got, want)
			}
		})
	}
}

func TestCreateErrors(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "x")
	os.WriteFile(f, nil, 0o644)
	tests := []struct {
		name string
		args []string
	}{
		{"no mtime", []string{"create", filepath.Join(dir, "o.zip"), f}},
		{"unknown extension", []string{"create", "-mtime", "0", filepath.Join(dir, "o.rar"), f}},
		{"missing file", []string{"create", "-mtime", "0", filepath.Join(dir, "o.zip"), filepath.Join(dir, "nope")}},
		{"two files of one name", []string{"create", "-mtime", "0", filepath.Join(dir, "o.zip"), f, f}},
		{"unknown command", []string{"extract", f}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := run(tt.args, nil); err == nil {
				t.Errorf("run(%q) succeeded, want an error", tt.args)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "o.rar")); err == nil {
		t.Errorf("a failed create left its output behind")
	}
}
