//go:build race

package safety

// raceEnabled: the tests run with the race detector, which makes the
// regular expressions many times slower; the scan runs on one goroutine,
// so the long comparisons on real content take a sample there.
const raceEnabled = true
