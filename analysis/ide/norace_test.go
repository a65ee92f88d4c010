//go:build !race

package ide

// raceEnabled is true under the race detector, where tests that run a
// budget of work take a smaller one.
const raceEnabled = false
