package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkHookStart measures the start-to-answer time of one process per
// call, as an agent runs a hook: each op starts a built binary, writes
// the payload on its standard input and waits for it to exit. Beside
// `permgen hook claude-code` (a call it asks about, and a read it leaves
// to the agent) it runs `permgen preview` of the same one call and a Go
// hello world (testdata/hello), the least a Go process takes, so that
// the figures of one run compare under the same load.
func BenchmarkHookStart(b *testing.B) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("needs the go command to build the binaries")
	}
	dir := b.TempDir()
	build := func(out, pkg string) string {
		bin := filepath.Join(dir, out)
		cmd := exec.Command(goTool, "build", "-o", bin, pkg)
		cmd.Stderr = os.Stderr
		require.NoError(b, cmd.Run(), "go build %s", pkg)
		return bin
	}
	permgen := build("permgen", ".")
	hello := build("hello", "./testdata/hello")
	const (
		ask  = `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf build/ && make release"},"tool_use_id":"toolu_1"}`
		read = `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/w/go.mod"},"tool_use_id":"toolu_2"}`
		call = `{"tool":"Bash","input":{"command":"rm -rf build/ && make release"}}`
	)
	runs := []struct {
		name  string
		bin   string
		args  []string
		stdin string
	}{
		{"hello", hello, nil, ""},
		{"hook-ask", permgen, []string{"hook", "claude-code"}, ask},
		{"hook-read", permgen, []string{"hook", "claude-code"}, read},
		{"preview-one", permgen, []string{"preview"}, call},
	}
	for _, r := range runs {
		b.Run(r.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(r.bin, r.args...)
				cmd.Stdin = bytes.NewReader([]byte(r.stdin))
				var out bytes.Buffer
				cmd.Stdout = &out
				require.NoError(b, cmd.Run())
				require.NotZero(b, out.Len())
			}
		})
	}
}
