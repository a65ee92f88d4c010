//go:build !unix

package safety

import "time"

// processCPU returns false: the CPU time of the process is read on Unix
// alone.
func processCPU() (time.Duration, bool) { return 0, false }
