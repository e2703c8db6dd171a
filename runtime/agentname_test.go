package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The spellings are documented by each agent:
//   - Claude Code: "MCP tools follow the pattern mcp__<server>__<tool>"
//     (https://code.claude.com/docs/en/hooks, "Matching MCP tools");
//   - Gemini CLI: "mcp__<server_name>__<tool_name>"
//     (google-gemini/gemini-cli docs/hooks/reference.md at 06c0d810);
//   - Codex: "mcp__<server>__<tool>" in its hooks and rollouts
//     (openai/codex codex-rs/hooks/src/events/pre_tool_use.rs at 0082977c);
//     earlier releases joined "server__tool" (MCP_TOOL_NAME_DELIMITER in
//     codex-rs/core/src/mcp_connection_manager.rs);
//   - Goose: "extension__tool" (block/goose crates/goose/src/prompts/system.md
//     names its own "platform__read_resource");
//   - Zed: "mcp:server:tool".
func TestMCPKey(t *testing.T) {
	tests := []struct {
		name  string
		agent Agent
		tool  string
		key   string
		ok    bool
	}{
		{"claude code", AgentClaudeCode, "mcp__github__delete_repository", "github:delete_repository", true},
		{"server with underscore", AgentClaudeCode, "mcp__my_server__run", "my_server:run", true},
		{"tool with double underscore", AgentClaudeCode, "mcp__srv__a__b", "srv:a__b", true},
		{"claude code built-in", AgentClaudeCode, "Bash", "", false},
		{"no tool", AgentClaudeCode, "mcp__github", "", false},
		{"empty tool", AgentClaudeCode, "mcp__github__", "", false},
		{"empty server", AgentClaudeCode, "mcp____x", "", false},
		{"claude code reads no goose name", AgentClaudeCode, "github__delete_repository", "", false},
		{"gemini cli", AgentGeminiCLI, "mcp__filesystem__read_file", "filesystem:read_file", true},
		{"gemini cli built-in", AgentGeminiCLI, "run_shell_command", "", false},
		{"codex", AgentCodex, "mcp__github__get_me", "github:get_me", true},
		{"codex early rollout", AgentCodex, "github__get_me", "github:get_me", true},
		{"codex built-in", AgentCodex, "exec_command", "", false},
		{"goose", AgentGoose, "developer__shell", "developer:shell", true},
		{"goose prefixed", AgentGoose, "mcp__a__b", "mcp:a__b", true},
		{"zed", AgentZed, "mcp:github:create_issue", "github:create_issue", true},
		{"zed no tool", AgentZed, "mcp:github", "", false},
		{"zed reads no claude name", AgentZed, "mcp__a__b", "", false},
		{"pi", AgentPi, "mcp__linear__create_issue", "linear:create_issue", true},
		{"any claude", AgentAny, "mcp__a__b", "a:b", true},
		{"any zed", AgentAny, "mcp:a:b", "a:b", true},
		{"any reads no bare double underscore", AgentAny, "a__b", "", false},
		{"unknown agent", Agent("cursor"), "mcp__a__b", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			key, ok := MCPKey(tc.agent, tc.tool)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.key, key)
		})
	}
}

func TestAgentCall(t *testing.T) {
	in := map[string]any{"owner": "acme", "repo": "prod"}
	c := AgentCall(AgentClaudeCode, "mcp__github__delete_repository", in)
	assert.Equal(t, Call{Tool: "github:delete_repository", Source: "mcp", Target: "github:delete_repository", Input: in}, c)
	assert.Equal(t, Call{Tool: "Bash", Input: in}, AgentCall(AgentClaudeCode, "Bash", in))
	require.Len(t, Agents(), 7)
	assert.Equal(t, AgentAny, Agents()[0])
}

// An agent's MCP name reaches the server's formatter, as a
// host's "server:tool" call does.
func TestAgentCallDescribed(t *testing.T) {
	reg := NewRegistry()
	_, err := reg.Register("github:delete_repository", "test",
		FormatterFunc(func(Request) (string, bool, error) { return "DELETE", true, nil }))
	require.NoError(t, err)
	d, err := NewDispatcher(reg, Options{})
	require.NoError(t, err)
	desc := d.Describe(AgentCall(AgentClaudeCode, "mcp__github__delete_repository", `{"owner":"acme"}`))
	assert.Equal(t, "Current agent requested MCP target 'github:delete_repository' DELETE. Allow this call?", desc.Prompt)
	assert.Equal(t, "test", desc.Preview.Formatter)
}
