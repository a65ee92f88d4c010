//go:build unix

package lsp

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with this id exists: signal 0
// checks without sending anything, and EPERM means it exists but belongs
// to another user.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
