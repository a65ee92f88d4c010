//go:build unix

package safety

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used, user and system,
// or false where it cannot be read.
func processCPU() (time.Duration, bool) {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0, false
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), true
}
