package main

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// emptyObjectsLine is a call whose input is an array of size bytes of
// empty objects, the shape that costs the value model the most per byte.
func emptyObjectsLine(size int) string {
	n := (size - len(`{"tool":"t","input":[]}`)) / 3
	return `{"tool":"t","input":[` + strings.Repeat("{},", n-1) + `{}]}`
}

// previewMemory previews one line and returns the bytes allocated in
// total and the peak heap seen while it ran, both per byte of the line.
func previewMemory(t testing.TB, line string) (allocated, peak float64) {
	in := strings.NewReader(line + "\n")
	var out, errOut bytes.Buffer
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	stop := make(chan struct{})
	done := make(chan uint64)
	go func() { // sample the heap while the preview runs
		var high uint64
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			high = max(high, m.HeapAlloc)
			select {
			case <-stop:
				done <- high
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	code := run([]string{"preview", "--no-builtin"}, in, &out, &errOut)
	close(stop)
	high := <-done
	runtime.ReadMemStats(&after)
	require.Equal(t, 0, code, errOut.String())
	size := float64(len(line))
	return float64(after.TotalAlloc-before.TotalAlloc) / size, float64(high-before.HeapAlloc) / size
}

// TestPreviewMemoryPerLine checks that previewing one line allocates at most
// eight times its size, for the input shape that costs the most per byte,
// and logs what other shapes cost. Set PERMGEN_MEMORY_MIB to measure at
// another size than 8 MiB.
func TestPreviewMemoryPerLine(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates hundreds of megabytes")
	}
	size := 8 << 20
	if mib, err := strconv.Atoi(os.Getenv("PERMGEN_MEMORY_MIB")); err == nil && mib > 0 {
		size = mib << 20
	}
	allocated, peak := previewMemory(t, emptyObjectsLine(size))
	t.Logf("%d MiB of empty objects: %.2f bytes allocated and %.2f bytes peak heap per byte of the line", size>>20, allocated, peak)
	assert.LessOrEqual(t, allocated, 8.0)
	if raceEnabled {
		// The other shapes are only logged: under the race detector they
		// took a quarter of a minute, and what they allocate is the same.
		return
	}

	for _, shape := range []struct{ name, element string }{
		{"empty arrays", "[]"}, {"small integers", "1"}, {"large numbers", "123456.5"}, {"short strings", `"ab"`},
		{"small objects", `{"k":1}`},
	} {
		n := (size - 64) / (len(shape.element) + 1)
		line := `{"tool":"t","input":[` + strings.Repeat(shape.element+",", n-1) + shape.element + `]}`
		allocated, peak := previewMemory(t, line)
		t.Logf("%d MiB of %s: %.2f bytes allocated and %.2f bytes peak heap per byte", size>>20, shape.name, allocated, peak)
	}
	allocated, peak = previewMemory(t, callOfSize(size))
	t.Logf("%d MiB string: %.2f bytes allocated and %.2f bytes peak heap per byte", size>>20, allocated, peak)
}
