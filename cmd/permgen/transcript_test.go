package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/permgen/permgen/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The transcripts in testdata/agents/transcripts are written in each
// agent's own format; testdata/agents/README.md says where each format is
// described. Each is read with its format detected, and rows (minimal:
// "=" under a result, "!" under an error) and preview give golden output.
var transcripts = []struct {
	file   string
	from   string
	calls  int // tool calls in the file
	paired int // of them, with a result
	errors int // of them, with a result that is an error
}{
	{"claude-code-session.jsonl", fromClaudeCode, 8, 7, 2},
	{"codex-rollout.jsonl", fromCodex, 7, 5, 1},
	{"codex-rollout-legacy.jsonl", fromCodex, 4, 3, 2},
	{"pi-session.jsonl", fromPi, 4, 3, 1},
	{"oh-my-pi-session.jsonl", fromPi, 3, 3, 1},
}

// hidden is text of the transcripts that no output may show: reasoning,
// its encrypted content, and what the person and the model wrote.
var hidden = []string{
	"SECRET-THOUGHT", "EqQBCkYIBxgCKkBsig", "HIDDEN-SUMMARY", "gAAAA", "PRIVATE-PLAN",
	"PI-HIDDEN-THINKING", "sig==", "Find out why and fix it", "I'll look at the billing",
	"Fix the cent drift", "environment_context", "The totals now use decimal",
	"VAT is a float constant", "Reading go.mod first", "Bump the decimal", "Conversation compacted",
	"Summary of the conversation", "git diff --stat", "status-line", "Request interrupted",
}

func TestTranscriptRows(t *testing.T) {
	for _, tc := range transcripts {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("..", "..", "testdata", "agents", "transcripts", tc.file)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, tc.from, detectFormatOf(string(data)))
			stdout, stderr, code := runCLI(t, "", "rows", "--mode", "minimal", path)
			require.Equal(t, exitOK, code, stderr)
			assert.Empty(t, stderr)
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			rows, results, errs := 0, 0, 0
			for _, l := range lines {
				switch {
				case strings.HasPrefix(l, "  = "):
					results++
				case strings.HasPrefix(l, "  ! "):
					results++
					errs++
				default:
					rows++
				}
			}
			assert.Equal(t, tc.calls, rows, "one row per tool call")
			assert.Equal(t, tc.paired, results, "each result on the line below its call")
			assert.Equal(t, tc.errors, errs, "errors marked")
			for i, l := range lines {
				if strings.HasPrefix(l, "  ") {
					require.Positive(t, i)
					assert.False(t, strings.HasPrefix(lines[i-1], "  "), "a result follows its call's row: %q", l)
				}
			}
			for _, h := range hidden {
				assert.NotContains(t, stdout, h)
			}
			golden(t, filepath.Join("agents", "rows."+tc.file), []byte(stdout))

			// Forcing the format reads the same.
			forced, _, code := runCLI(t, "", "rows", "--mode", "minimal", "--from", tc.from, path)
			require.Equal(t, exitOK, code)
			assert.Equal(t, stdout, forced)
		})
	}
}

func TestTranscriptPreview(t *testing.T) {
	for _, tc := range transcripts {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("..", "..", "testdata", "agents", "transcripts", tc.file)
			stdout, stderr, code := runCLI(t, "", "preview", "--show-tier", path)
			require.Equal(t, exitOK, code, stderr)
			assert.Equal(t, tc.calls, strings.Count(stdout, "\n"), "one preview per tool call")
			for _, h := range hidden {
				assert.NotContains(t, stdout, h)
			}
			golden(t, filepath.Join("agents", "preview."+tc.file), []byte(stdout))
		})
	}
}

// detectFormatOf returns the format detected for data.
func detectFormatOf(data any) string {
	var format string
	in, ok := data.(io.Reader)
	if !ok {
		in = strings.NewReader(data.(string))
	}
	readTranscriptFormat(in, &format)
	return format
}

func TestTranscriptDetect(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"permgen", `{"tool":"read","input":{}}` + "\n", fromPermgen},
		{"empty", "", fromPermgen},
		{"bad first line", "{\n" + `{"type":"summary","summary":"x","leafUuid":"u"}` + "\n", fromClaudeCode},
		{"claude code", `{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u","sessionId":"s"}`, fromClaudeCode},
		{"codex", `{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}`, fromCodex},
		{"codex legacy header", `{"id":"x","timestamp":"t","instructions":null}`, fromCodex},
		{"codex legacy item", `{"type":"function_call","name":"shell","arguments":"{}","call_id":"c"}`, fromCodex},
		{"pi", `{"type":"session","version":3,"id":"x","cwd":"/"}`, fromPi},
		{"pi message", `{"type":"message","message":{"role":"user","content":"hi"}}`, fromPi},
		{"bom", "\uFEFF" + `{"type":"session","version":3,"cwd":"/"}`, fromPi},
		{"claude code snapshot", `{"type":"file-history-snapshot","messageId":"m","snapshot":{},"isSnapshotUpdate":false}`, fromClaudeCode},
		{"long first line", `{"parentUuid":null,"type":"user","uuid":"u","message":{"role":"user","content":"` + strings.Repeat("x", 200<<10) + `"}}`, fromClaudeCode},
		{"long codex line", `{"timestamp":"t","type":"response_item","payload":{"type":"message","content":"` + strings.Repeat("x", 200<<10) + `"}}`, fromCodex},
		{"unknown types", `{"type":"what"}` + "\n" + `{"x":1}`, fromPermgen},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, detectFormatOf(tc.data))
		})
	}
}

// Bad lines of a transcript are reported with their line numbers and
// skipped; the other lines are still read, and the exit code is 1.
func TestTranscriptBadLines(t *testing.T) {
	data := strings.Join([]string{
		`{"type":"summary","summary":"s","leafUuid":"u"}`,
		`{"type":"assistant","uuid":"a","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make"}}]}}`,
		`{"type":"assistant",`,
		`[1,2]`,
		`{"type":"assistant","uuid":"b","message":{"role":"assistant","content":[{"type":"tool_use","id":"t2","input":{}}]}}`,
		`{"type":"user","uuid":"c","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}`,
		`{"type":"user","uuid":"d","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t9","content":"orphan"}]}}`,
		"",
	}, "\n")
	stdout, stderr, code := runCLI(t, data, "rows", "--mode", "minimal")
	assert.Equal(t, exitInvalid, code)
	assert.Equal(t, "Shell make\n  = 1 line of output\n", stdout, "an orphan result has no row to go under")
	assert.Equal(t, "<stdin>:3: invalid JSON: unexpected end of line\n"+
		"<stdin>:4: a record must be a JSON object, got array\n"+
		`<stdin>:5: tool call 1 (content item 1) has no "name"`+"\n", stderr)
}

// A result is paired by its call's id, not by its place: parallel calls'
// results may come in any order, and a call written twice is one call.
func TestTranscriptPairing(t *testing.T) {
	data := strings.Join([]string{
		`{"type":"response_item","payload":{"type":"function_call","name":"shell_command","arguments":"{\"command\":\"a\"}","call_id":"c1"}}`,
		`{"type":"response_item","payload":{"type":"function_call","name":"shell_command","arguments":"{\"command\":\"b\"}","call_id":"c2"}}`,
		`{"type":"response_item","payload":{"type":"function_call","name":"shell_command","arguments":"{\"command\":\"b\"}","call_id":"c2"}}`,
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"Exit code: 2\nOutput:\nB"}}`,
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":{"content":"A","success":true}}}`,
		"",
	}, "\n")
	stdout, stderr, code := runCLI(t, data, "rows", "--mode", "minimal", "--from", "codex")
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "Shell a\n  = 1 line of output\nShell b\n  ! B\n", stdout)
}

func TestTranscriptFromUsage(t *testing.T) {
	for _, cmd := range []string{"rows", "preview"} {
		_, stderr, code := runCLI(t, "", cmd, "--from", "cursor")
		assert.Equal(t, exitUsage, code)
		assert.Equal(t, "permgen "+cmd+`: --from must be one of auto, permgen, claude-code, codex, pi, got "cursor"`+"\nrun 'permgen help "+cmd+"' for usage\n", stderr)
	}
}

// FuzzTranscript reads any input in every format: it never panics,
// writes one preview per call it reads, and shows no control character
// (rows are not coloured off a terminal).
func FuzzTranscript(f *testing.F) {
	for _, tc := range transcripts {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "agents", "transcripts", tc.file))
		if err == nil {
			f.Add(uint8(0), data)
		}
	}
	f.Add(uint8(2), []byte(`{"type":"assistant","uuid":"u","message":{"content":[{"type":"tool_use","id":"a","name":"x\u001b[2J","input":null}]}}`))
	f.Add(uint8(3), []byte(`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":{"content":[1],"success":"no"}}}`))
	// One dispatcher for every input, as a run has: building the stock
	// registry for each would make most of an exec's time.
	reg, ok := newRegistry("rows", false, false, nil, nil, io.Discard)
	require.True(f, ok)
	var failures failureLog
	d, err := runtime.NewDispatcher(reg, runtime.Options{OnFailure: failures.add})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		from := fromNames[int(which)%len(fromNames)]
		var rows, previews bytes.Buffer
		renderRowsFrom(d, &failures, runtime.ModeMinimal, false, defaultWidth, from, "", "<fuzz>", bytes.NewReader(data), &rows, io.Discard)
		previewCallsFrom(d, &failures, "text", from, "<fuzz>", bytes.NewReader(data), &previews, io.Discard)
		for _, out := range []string{rows.String(), previews.String()} {
			for _, r := range out {
				require.False(t, r < 0x20 && r != '\n' || r == 0x7f, "control character %U in %q", r, out)
			}
		}
		var calls int
		readTranscript("fuzz", "<fuzz>", from, bytes.NewReader(data), io.Discard, false, func(int, runtime.Call, *runtime.Result) { calls++ })
		require.Equal(t, calls, strings.Count(previews.String(), "\n"), "one preview per call")
	})
}
