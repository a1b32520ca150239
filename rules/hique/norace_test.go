//go:build !race

package hique

// raceEnabled is true under the race detector, which makes the heaviest
// tests run smaller.
const raceEnabled = false
