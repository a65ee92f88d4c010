//go:build !unix

package analysis

import (
	"io"
	"os"
)

// readWhole reads the file at path as os.ReadFile does, or returns a
// *tooLarge when it holds more than limit bytes (the Unix version makes
// fewer system calls).
func readWhole(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > limit {
		return nil, &tooLarge{st.Size(), limit}
	}
	return io.ReadAll(f)
}
