//go:build !race

package hiya

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = false
