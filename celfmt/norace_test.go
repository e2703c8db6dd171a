//go:build !race

package celfmt

// raceEnabled is true when the race detector slows everything down.
const raceEnabled = false
