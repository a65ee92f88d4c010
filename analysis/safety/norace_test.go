//go:build !race

package safety

// raceEnabled: the tests run without the race detector.
const raceEnabled = false
