//go:build !linux

package analysis_test

// peakRSSMiB is not measured off Linux.
func peakRSSMiB() float64 { return 0 }
