//go:build race

package gen

// raceEnabled reports whether the race detector is on, so that a test
// whose input is slow only under it can take a smaller one there.
const raceEnabled = true
