//go:build !unix

package analysis

import "os"

// readWhole reads the file at path (os.ReadFile; the Unix version makes
// fewer system calls).
func readWhole(path string) ([]byte, error) { return os.ReadFile(path) }
