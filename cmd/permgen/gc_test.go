package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The CLI sets the collector only when GOGC is unset: an explicit GOGC,
// "off" included, is the user's and stays as the runtime read it.
func TestSetGCRespectsGOGC(t *testing.T) {
	const explicit = 80
	before := debug.SetGCPercent(explicit)
	defer debug.SetGCPercent(before)
	for _, gogc := range []string{"80", "off", "400"} {
		restore := setGC(func(key string) string {
			if key == "GOGC" {
				return gogc
			}
			return ""
		})
		assert.Equal(t, explicit, debug.SetGCPercent(explicit), "GOGC=%s", gogc)
		restore()
		assert.Equal(t, explicit, debug.SetGCPercent(explicit), "GOGC=%s", gogc)
	}

	restore := setGC(func(string) string { return "" })
	assert.Equal(t, gcPercent, debug.SetGCPercent(gcPercent), "GOGC unset")
	restore()
	assert.Equal(t, explicit, debug.SetGCPercent(explicit), "restored")
}
