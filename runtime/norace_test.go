//go:build !race

package runtime

// raceEnabled reports whether the race detector is on.
const raceEnabled = false
