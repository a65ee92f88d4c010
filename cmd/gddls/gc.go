package main

import (
	"os"
	"runtime/debug"
)

// checkMemoryLimit is the soft memory limit of `gddls check`.
const checkMemoryLimit = 352 << 20

// tuneCheckGC sets the garbage collector for a one-shot check, which keeps
// everything it loads until it prints the report: the heap may grow to five
// times what is live (GOGC=400) instead of twice, which saves most of the
// collections on a repository of ordinary size, while a soft limit of
// 352 MiB makes it collect as often as needed on a large one. GOGC and
// GOMEMLIMIT in the environment take precedence.
func tuneCheckGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(checkMemoryLimit)
	}
}
