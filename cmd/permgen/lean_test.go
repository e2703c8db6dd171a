//go:build permgen_lean

package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLeanHook holds the lean build to the hook's answers: it describes
// calls with the compiled-in catalog as the full build does.
func TestLeanHook(t *testing.T) {
	payload := `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf build/"},"tool_use_id":"toolu_1"}`
	var out, errOut bytes.Buffer
	require.Equal(t, exitOK, run([]string{"hook", "claude-code"}, strings.NewReader(payload), &out, &errOut), errOut.String())
	var answer struct {
		HookSpecificOutput struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &answer), out.String())
	assert.Equal(t, "ask", answer.HookSpecificOutput.PermissionDecision)
	assert.Contains(t, answer.HookSpecificOutput.PermissionDecisionReason, "rm -rf build/")

	out.Reset()
	require.Equal(t, exitOK, run([]string{"preview"}, strings.NewReader(`{"tool":"read","input":{"path":"/w/go.mod"}}`), &out, &errOut), errOut.String())
	assert.Contains(t, out.String(), "/w/go.mod")
}

// TestLeanRefusesCEL holds the lean build to saying what it leaves out,
// where a catalog or a CEL command is asked for.
func TestLeanRefusesCEL(t *testing.T) {
	for _, args := range [][]string{
		{"check", "formatters.yaml"},
		{"eval", "1 + 1"},
		{"preview", "--catalog", "team.yaml"},
	} {
		var out, errOut bytes.Buffer
		code := run(args, strings.NewReader(""), &out, &errOut)
		assert.NotEqual(t, exitOK, code, "%v", args)
		assert.Contains(t, errOut.String(), "-tags permgen_lean", "%v", args)
		assert.Empty(t, out.String(), "%v", args)
	}
	var out bytes.Buffer
	require.Equal(t, exitOK, run([]string{"version"}, nil, &out, &out))
	assert.Contains(t, out.String(), "CEL environment: none")
}
