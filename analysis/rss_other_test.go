//go:build !linux

package analysis_test

// peakRSSMiB is not measured off Linux.
func peakRSSMiB() float64 { return 0 }

// cpuTime is not measured off Linux.
func cpuTime() int64 { return 0 }
