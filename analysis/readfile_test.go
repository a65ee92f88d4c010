package analysis

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestReadWhole holds readWhole to os.ReadFile, reading or mapping: the
// same bytes for files of every size around the buffer's and the pages'
// edges, a *fs.PathError for a missing file and a folder, and a *tooLarge
// over the limit.
func TestReadWhole(t *testing.T) {
	dir := t.TempDir()
	for _, mapped := range []bool{false, true} {
		for i, n := range []int{0, 1, 511, 512, 513, mapAtLeast - 1, mapAtLeast, mapAtLeast + 1, 100_000} {
			path := filepath.Join(dir, fmt.Sprintf("f%d-%v", i, mapped))
			want := bytes.Repeat([]byte("ab\n"), n)[:n]
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := readWhole(path, 1<<40, mapped)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%d bytes, mapped %v: got %d bytes, %v", n, mapped, len(got), err)
			}
			var tl *tooLarge
			if _, err := readWhole(path, int64(n)-1, mapped); n > 0 && !errors.As(err, &tl) {
				t.Errorf("%d bytes, mapped %v, limit one less: %v, want a *tooLarge", n, mapped, err)
			}
		}
		for _, path := range []string{filepath.Join(dir, "missing"), dir} {
			_, err := readWhole(path, 1<<40, mapped)
			_, osErr := os.ReadFile(path)
			var pe *fs.PathError
			if !errors.As(err, &pe) || osErr == nil || err.Error() != osErr.Error() {
				t.Errorf("%s, mapped %v: error %v, os.ReadFile says %v", path, mapped, err, osErr)
			}
		}
	}
}

// TestLoadMapFiles: a snapshot loaded with mapped files finds what one
// loaded with read files finds, on the demo package.
func TestLoadMapFiles(t *testing.T) {
	root := filepath.Join("..", "testdata", "demo")
	read := Load([]string{root}, Options{}).AllDiagnostics()
	mapped := Load([]string{root}, Options{MapFiles: true}).AllDiagnostics()
	if len(read) == 0 || !reflect.DeepEqual(read, mapped) {
		t.Errorf("mapped files: %d findings, read files: %d; they differ or are none", len(mapped), len(read))
	}
}
