//go:build unix

package analysis

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadWholePipe: a named pipe is refused at once, not waited on.
func TestReadWholePipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe.md")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	if _, err := readWhole(path, 1<<20); !errors.Is(err, errNotRegular) {
		t.Errorf("readWhole of a named pipe: %v, want %v", err, errNotRegular)
	}
}
