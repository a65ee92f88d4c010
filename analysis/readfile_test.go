package analysis

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestReadWhole holds readWhole to os.ReadFile: the same bytes for files
// of every size around the buffer's edges, and a *fs.PathError for a
// missing file and a folder.
func TestReadWhole(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 511, 512, 513, 4096, 100_000} {
		path := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("ab\n"), n)[:n]
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readWhole(path, 1<<40)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%d bytes: got %d bytes, %v", n, len(got), err)
		}
	}
	for _, path := range []string{filepath.Join(dir, "missing"), dir} {
		_, err := readWhole(path, 1<<40)
		_, osErr := os.ReadFile(path)
		var pe *fs.PathError
		if !errors.As(err, &pe) || osErr == nil || err.Error() != osErr.Error() {
			t.Errorf("%s: error %v, os.ReadFile says %v", path, err, osErr)
		}
	}
}
