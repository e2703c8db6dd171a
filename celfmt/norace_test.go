//go:build !race

package celfmt

// raceEnabled reports whether the race detector is on.
const raceEnabled = false
