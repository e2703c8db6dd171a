// Package race tells whether the program was built with the race detector,
// so that a test whose input is slow only under it can take a smaller one
// there. It holds no state and does nothing else.
package race
