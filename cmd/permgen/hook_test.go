package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The payloads in testdata/agents/hooks are written in each agent's own
// format, as testdata/agents/README.md says where each is described.
// Each gives a golden answer: the exit code, standard output and standard
// error of `permgen hook AGENT`.
func TestHookPayloads(t *testing.T) {
	for _, agent := range hookAgentNames {
		files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "agents", "hooks", agent, "*.json"))
		require.NoError(t, err)
		require.NotEmpty(t, files)
		for _, file := range files {
			name := strings.TrimSuffix(filepath.Base(file), ".json")
			t.Run(agent+"/"+name, func(t *testing.T) {
				payload, err := os.ReadFile(file)
				require.NoError(t, err)
				stdout, stderr, code := runCLI(t, string(payload), "hook", agent)
				checkHookAnswer(t, agent, stdout, code)
				if strings.HasPrefix(name, "bad-") {
					assert.Equal(t, exitInvalid, code, "a payload that cannot be read is a hook error")
					assert.Equal(t, noDecision, stdout)
					assert.NotEmpty(t, stderr)
				} else {
					assert.Equal(t, exitOK, code, stderr)
				}
				golden(t, filepath.Join("agents", "hook."+agent+"."+name),
					[]byte("exit "+string(rune('0'+code))+"\n--- stdout\n"+stdout+"--- stderr\n"+stderr))
			})
		}
	}
}

// checkHookAnswer holds every answer to what the agents' protocols allow
// permgen: one JSON object on standard output, never "allow" or "deny",
// and a decision only of the shape the agent shows the person.
func checkHookAnswer(t *testing.T, agent, stdout string, code int) {
	t.Helper()
	require.Contains(t, []int{exitOK, exitInvalid}, code, "exit 2 blocks the call")
	var answer map[string]any
	require.NoError(t, json.Unmarshal([]byte(stdout), &answer), "standard output is one JSON object: %q", stdout)
	require.True(t, strings.HasSuffix(stdout, "\n") && strings.Count(stdout, "\n") == 1, "one line: %q", stdout)
	if len(answer) == 0 {
		return
	}
	switch agent {
	case "claude-code":
		require.Len(t, answer, 1)
		out, ok := answer["hookSpecificOutput"].(map[string]any)
		require.True(t, ok, "%v", answer)
		assert.Equal(t, "PreToolUse", out["hookEventName"])
		assert.Equal(t, "ask", out["permissionDecision"])
		assert.NotEmpty(t, out["permissionDecisionReason"])
	case "gemini-cli":
		require.Len(t, answer, 2)
		assert.Equal(t, "ask", answer["decision"])
		assert.NotEmpty(t, answer["systemMessage"], "%v", answer)
	default:
		require.Len(t, answer, 1, "Codex fails a PreToolUse hook that answers a decision other than deny")
		assert.NotEmpty(t, answer["systemMessage"], "%v", answer)
	}
}

func TestHookAsks(t *testing.T) {
	const (
		claudeBash = `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
		claudeEdit = `{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/a.go","old_string":"a","new_string":"b"}}`
		claudeRead = `{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/a.go"}}`
		claudeMCP  = `{"hook_event_name":"PreToolUse","tool_name":"mcp__nowhere__thing","tool_input":{"x":1}}`
		geminiMCP  = `{"hook_event_name":"BeforeTool","tool_name":"thing","tool_input":{"owner":"acme","repo":"prod"},"mcp_context":{"server_name":"github","tool_name":"delete_repository"}}`
	)
	tests := []struct {
		name    string
		args    []string
		payload string
		ask     string // the prompt asked with, or "" for no decision
	}{
		{"execute asks", []string{"claude-code"}, claudeBash,
			"Current agent requested tool 'Bash' to run 'rm -rf /' [execute]. Allow this call?"},
		{"write asks", []string{"claude-code"}, claudeEdit, "Current agent requested tool 'Edit' for '/a.go' (1 replacement: edit #1 replaces 1 line with 1 line) [write]. Allow this call?"},
		{"read gets no decision", []string{"claude-code"}, claudeRead, ""},
		{"write below ask-from", []string{"--ask-from", "execute", "claude-code"}, claudeEdit, ""},
		{"execute at ask-from", []string{"--ask-from", "execute", "claude-code"}, claudeBash,
			"Current agent requested tool 'Bash' to run 'rm -rf /' [execute]. Allow this call?"},
		{"unknown always asks", []string{"--ask-from", "execute", "claude-code"}, claudeMCP,
			`Current agent requested MCP target 'nowhere:thing' with x: 1 [tier unknown]. Allow this call?`},
		{"no builtin: unknown asks", []string{"--no-builtin", "claude-code"}, claudeRead,
			`Current agent requested tool 'Read' with input {"file_path":"/a.go"} [tier unknown]. Allow this call?`},
		{"gemini mcp_context names the tool", []string{"gemini-cli"}, geminiMCP,
			"Current agent requested MCP target 'github:delete_repository' DELETE repository acme/prod [network]. Allow this call?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tc.payload, append([]string{"hook"}, tc.args...)...)
			require.Equal(t, exitOK, code, stderr)
			agent := tc.args[len(tc.args)-1]
			checkHookAnswer(t, agent, stdout, code)
			if tc.ask == "" {
				assert.Equal(t, noDecision, stdout)
				return
			}
			var answer struct {
				SystemMessage string `json:"systemMessage"`
				Out           struct {
					Reason string `json:"permissionDecisionReason"`
				} `json:"hookSpecificOutput"`
			}
			require.NoError(t, json.Unmarshal([]byte(stdout), &answer))
			assert.Equal(t, tc.ask, answer.SystemMessage+answer.Out.Reason)
		})
	}
}

func TestHookUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no agent", []string{"hook"}, "permgen hook: takes one agent (claude-code, gemini-cli, codex), got 0 arguments\n"},
		{"unknown agent", []string{"hook", "claude"}, `permgen hook: unknown agent "claude" (known: claude-code, gemini-cli, codex)` + "\n"},
		{"ask-from read", []string{"hook", "--ask-from", "read", "codex"}, `permgen hook: --ask-from must be write, network or execute, got "read"` + "\n"},
		{"ask-from unknown", []string{"hook", "--ask-from", "unknown", "codex"}, `permgen hook: --ask-from must be write, network or execute, got "unknown"` + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, "", tc.args...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, stdout)
			assert.Equal(t, tc.want+"run 'permgen help hook' for usage\n", stderr)
		})
	}
}

// A catalog that cannot be loaded leaves the call to the agent.
func TestHookBadCatalog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(path, []byte("version: 1\nformatters:\n  - tool: x\n    preview: 'input.'\n"), 0o600))
	stdout, stderr, code := runCLI(t, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "hook", "--catalog", path, "claude-code")
	assert.Equal(t, exitInvalid, code)
	assert.Equal(t, noDecision, stdout)
	assert.Contains(t, stderr, "bad.yaml:4:")
}

// A payload longer than the bound is refused without being read whole.
func TestHookPayloadBound(t *testing.T) {
	stdout, stderr, code := runCLI(t, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"`+strings.Repeat("a", maxLineBytes)+`"}}`, "hook", "claude-code")
	assert.Equal(t, exitInvalid, code)
	assert.Equal(t, noDecision, stdout)
	assert.Equal(t, "permgen hook claude-code: payload longer than 64 MiB\n", stderr)
}

// FuzzHook holds every answer to the protocols whatever the payload: one
// JSON object, a decision only "ask", never a crash or a block.
func FuzzHook(f *testing.F) {
	for _, agent := range hookAgentNames {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "agents", "hooks", agent, "*.json"))
		for _, file := range files {
			payload, err := os.ReadFile(file)
			if err == nil {
				f.Add(uint8(len(file)), payload)
			}
		}
	}
	f.Add(uint8(0), []byte(`{"hook_event_name":"PreToolUse","tool_name":"mcp____","tool_input":null}`))
	f.Fuzz(func(t *testing.T, which uint8, payload []byte) {
		agent := hookAgentNames[int(which)%len(hookAgentNames)]
		stdout, _, code := runCLI(t, string(payload), "hook", agent)
		checkHookAnswer(t, agent, stdout, code)
	})
}

// A team's --override layer answers the hook before the stock entry, and
// cannot lower the tier the stock entry gives: a read-tier write
// formatter still asks, with the team's text.
func TestHookOverrideLayer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "team.yaml")
	require.NoError(t, os.WriteFile(path, []byte(`version: 1
formatters:
  - tool: Write
    preview: '"the team writes " + input.file_path'
    tier: read
    input:
      file_path: string
    examples:
      - input: {file_path: /w/a}
        preview: the team writes /w/a
`), 0o600))
	stdout, stderr, code := runCLI(t, `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/w/a","content":"x"}}`, "hook", "--override", path, "claude-code")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, `"permissionDecision":"ask"`)
	assert.Contains(t, stdout, "the team writes")
	assert.Contains(t, stdout, "[write]")
}

// Each agent's answer is written without encoding/json; it is the bytes
// encoding/json writes for the documented answer, HTML escaping off, on
// prompts that need every kind of escape.
func TestHookAnswerIsEncodingJSONs(t *testing.T) {
	type claudeDecision struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	}
	documented := map[string]func(prompt string) any{
		"claude-code": func(p string) any {
			return struct {
				HookSpecificOutput claudeDecision `json:"hookSpecificOutput"`
			}{claudeDecision{"PreToolUse", "ask", p}}
		},
		"gemini-cli": func(p string) any {
			return struct {
				Decision      string `json:"decision"`
				SystemMessage string `json:"systemMessage"`
			}{"ask", p}
		},
		"codex": func(p string) any {
			return struct {
				SystemMessage string `json:"systemMessage"`
			}{p}
		},
	}
	require.Len(t, documented, len(hookAgents))
	prompts := []string{
		"Run `rm -rf build/` in /w? Allow this call?",
		`quote " backslash \ <b>&amp;</b>`,
		"lines\nand\ttabs\r\x00\x1f\x7f",
		"separators \u2028 \u2029 and \u00e9",
		"invalid \xff\xfe UTF-8 \xe2\x80",
		"",
	}
	for name, answer := range documented {
		for _, p := range prompts {
			var want strings.Builder
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			require.NoError(t, enc.Encode(answer(p)))
			assert.Equal(t, want.String(), string(hookAgents[name].appendAnswer(nil, p)), "%s, %q", name, p)
		}
	}
}
