package generated_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/generated"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// TestTranscriptPrefixes streams every call of the transcript: each prefix
// of its arguments' JSON text parses without error, and the stock row of
// its tool gives a row or declines, never fails; the dispatcher renders a
// row for every frame, except the frames of an oh-my-pi write whose path
// may still be a device's, which draw nothing (TestStockStreamingDeviceWrite).
func TestTranscriptPrefixes(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "transcript.jsonl"))
	if os.IsNotExist(err) {
		t.Skip("no transcript")
	}
	require.NoError(t, err)
	renderers := map[string]runtime.Renderer{}
	for _, e := range generated.Entries() {
		if r, ok := e.Formatter.(runtime.Renderer); ok {
			renderers[e.Key] = r
		}
	}
	d, _ := stockDispatcher(t)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	prefixes := 0
	for line := 1; sc.Scan(); line++ {
		var c struct {
			Tool  string          `json:"tool"`
			Input json.RawMessage `json:"input"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), "line %d", line)
		text := c.Input
		for n := 0; n <= len(text); n++ {
			prefix := text[:n]
			_, err := value.DecodePartial(prefix)
			require.NoError(t, err, "line %d, prefix %q", line, prefix)
			if r, ok := renderers[c.Tool]; ok {
				in := value.DecodePartialInput(prefix)
				_, _, err := r.Row(runtime.Request{Tool: c.Tool, Input: in.Object(), Limits: d.Limits(), Partial: true})
				require.NoError(t, err, "line %d: the row of %s fails on the prefix %q", line, c.Tool, prefix)
			}
			row := d.Row(runtime.Call{Tool: c.Tool, Input: prefix, Partial: true}, runtime.ModeDefault)
			if row.Title == "" {
				in := value.DecodePartialInput(prefix).Object()
				path, _ := in.Get("path")
				p, _ := path.(string)
				last := ""
				if in.Len() > 0 {
					last, _ = in.At(in.Len() - 1)
				}
				require.True(t, c.Tool == "write" && (path == nil || last == "path" && textfmt.CouldBeXDDevice(p) || isDevicePath(p)),
					"line %d: an empty row for %q", line, prefix)
			}
			prefixes++
		}
	}
	require.NoError(t, sc.Err())
	t.Logf("%d prefixes", prefixes)
}

// isDevicePath reports whether a write to path runs an oh-my-pi device.
func isDevicePath(path string) bool {
	_, ok := textfmt.XDDevice(path)
	return ok
}
