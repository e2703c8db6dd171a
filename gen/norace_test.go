//go:build !race

package gen

// raceEnabled reports whether the race detector is on.
const raceEnabled = false
