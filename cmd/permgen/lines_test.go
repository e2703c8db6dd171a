package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// callOfSize is a call line of exactly size bytes, without its line ending.
func callOfSize(size int) string {
	head, tail := `{"tool":"t","input":"`, `"}`
	return head + strings.Repeat("x", size-len(head)-len(tail)) + tail
}

// The line limit counts a line's content, not its line ending, whether
// that is LF or CRLF.
func TestPreviewLineLimitAt64MiB(t *testing.T) {
	if testing.Short() {
		t.Skip("reads lines of 64 MiB")
	}
	if raceEnabled {
		// 256 MiB of lines took half a minute under the race detector,
		// for nothing it can find: one goroutine reads them. Under it,
		// TestLineLimitSpanningBlocks reads the same boundaries at a
		// limit of a few blocks.
		t.Skip("reads lines of 64 MiB: the normal run does")
	}
	const limit = 64 << 20
	next := `{"tool":"next"}` + "\n"
	for _, ending := range []string{"\n", "\r\n"} {
		stdout, stderr, code := runCLI(t, callOfSize(limit)+ending+next, "preview")
		assert.Equal(t, 0, code, "%q: %s", ending, stderr)
		assert.Equal(t, 2, strings.Count(stdout, "\n"), "%q", ending)

		stdout, stderr, code = runCLI(t, callOfSize(limit+1)+ending+next, "preview")
		assert.Equal(t, 1, code, "%q", ending)
		assert.Equal(t, "<stdin>:1: line longer than 64 MiB, skipped\n", stderr, "%q", ending)
		assert.Equal(t, "Current agent requested tool 'next'. Allow this call?\n", stdout, "%q", ending)
	}
}

// TestLineLimitSpanningBlocks reads lines at and just over a limit of a
// few blocks, ended by LF and by CRLF: a line of the limit's length is read
// whole, a longer one is skipped, and the next line is read after either.
func TestLineLimitSpanningBlocks(t *testing.T) {
	const limit = 2*blockSize + 10
	for _, ending := range []string{"\n", "\r\n"} {
		for _, size := range []int{limit, limit + 1} {
			line := strings.Repeat("x", size)
			lr := newLineReader(strings.NewReader(line + ending + "next" + ending))
			lr.max = limit
			got, err := lr.next()
			if size <= limit {
				require.NoError(t, err, "%q", ending)
				assert.Equal(t, size, len(got), "%q", ending)
				assert.Equal(t, line, string(got), "%q", ending)
			} else {
				assert.ErrorIs(t, err, errLineTooLong, "%q", ending)
			}
			got, err = lr.next()
			require.NoError(t, err, "%q", ending)
			assert.Equal(t, "next", string(got), "%q after a line of %d bytes", ending, size)
			assert.Equal(t, 2, lr.line)
		}
	}
}

// A UTF-8 byte order mark at the start of the input is not part of the
// first call.
func TestPreviewSkipsByteOrderMark(t *testing.T) {
	in := "\uFEFF" + `{"tool":"read","input":{"path":"/a"}}` + "\r\n" + `{"tool":"b"}` + "\n"
	stdout, stderr, code := runCLI(t, in, "preview")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "Current agent requested tool 'read' for path '/a'. Allow this call?\nCurrent agent requested tool 'b'. Allow this call?\n", stdout)

	// Only at the start: a mark on a later line is still an error.
	_, stderr, code = runCLI(t, `{"tool":"a"}`+"\n\uFEFF"+`{"tool":"b"}`, "preview")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "<stdin>:2: invalid JSON")
}

// Field names match without regard to case, as they did when lines were
// decoded into a struct; null leaves a field unset.
func TestPreviewCallFields(t *testing.T) {
	in := `{"TOOL":"read","Input":{"path":"/a"},"agent":null}
{"tool":"x","input":{"n":9007199254740993}}
{"tool":"x","agent":true}
{"tool":"x","state":{}}
`
	stdout, stderr, code := runCLI(t, in, "preview")
	assert.Equal(t, 1, code)
	assert.Equal(t, `Current agent requested tool 'read' for path '/a'. Allow this call?
Current agent requested tool 'x' with input {"n":9007199254740993}. Allow this call?
`, stdout)
	assert.Equal(t, `<stdin>:3: field "agent" must be a string, got bool
<stdin>:4: field "state" must be a string, got object
`, stderr)
}
