package runtime

import "strings"

// Agent names a coding agent whose tool names a call or a transcript
// carries. Agents spell an MCP server's tool each in their own way; the
// registry knows the tool as "server:tool" (see MCPKey).
type Agent string

// The agents whose spellings of MCP tool names MCPKey reads.
const (
	// AgentAny reads every spelling that cannot be a built-in tool's
	// name: "mcp__server__tool" and "mcp:server:tool".
	AgentAny Agent = ""
	// AgentClaudeCode spells "mcp__server__tool".
	AgentClaudeCode Agent = "claude-code"
	// AgentGeminiCLI spells "mcp__server__tool" (its hooks also carry
	// mcp_context, which names the server and tool outright).
	AgentGeminiCLI Agent = "gemini-cli"
	// AgentCodex spells "mcp__server__tool"; rollouts written before
	// that prefix was added spell "server__tool".
	AgentCodex Agent = "codex"
	// AgentGoose spells "server__tool".
	AgentGoose Agent = "goose"
	// AgentZed spells "mcp:server:tool".
	AgentZed Agent = "zed"
	// AgentPi is pi and oh-my-pi, whose MCP tools reach them through
	// extensions that spell "mcp__server__tool".
	AgentPi Agent = "pi"
)

// Agents returns the agents MCPKey knows, AgentAny first.
func Agents() []Agent {
	return []Agent{AgentAny, AgentClaudeCode, AgentGeminiCLI, AgentCodex, AgentGoose, AgentZed, AgentPi}
}

// MCPKey reports whether name is agent's spelling of an MCP server's
// tool and returns the registry's key for it, "server:tool".
//
// "mcp__github__delete_repository" is "github:delete_repository": the
// server is what lies between the prefix and the next "__", so a tool
// name may hold "__" and a server name may hold a single "_" (Claude
// Code turns every other character of a server's name into "_"). A name
// without a server or a tool ("mcp__github", "mcp____x") is no MCP tool.
// The bare "server__tool" is read only for the agents that spell it so
// (Goose, early Codex): any other agent's tool may have "__" in its name.
func MCPKey(agent Agent, name string) (key string, ok bool) {
	switch agent {
	case AgentAny:
		if k, ok := splitMCP(name, "mcp__", "__"); ok {
			return k, true
		}
		return splitMCP(name, "mcp:", ":")
	case AgentClaudeCode, AgentGeminiCLI, AgentPi:
		return splitMCP(name, "mcp__", "__")
	case AgentCodex:
		if k, ok := splitMCP(name, "mcp__", "__"); ok {
			return k, true
		}
		return splitMCP(name, "", "__")
	case AgentGoose:
		return splitMCP(name, "", "__")
	case AgentZed:
		return splitMCP(name, "mcp:", ":")
	}
	return "", false
}

// splitMCP reads prefix + server + sep + tool as "server:tool".
func splitMCP(name, prefix, sep string) (string, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return "", false
	}
	server, tool, ok := strings.Cut(rest, sep)
	if !ok || server == "" || tool == "" {
		return "", false
	}
	return server + ":" + tool, true
}

// AgentCall returns the call an agent's tool call is: for a name MCPKey
// reads as an MCP tool, a direct MCP call (source "mcp", tool and target
// "server:tool") with input as the arguments; for any other name, a call
// of that tool, whose catalog entries the agent's own tool names are
// (Claude Code's "Bash", Gemini CLI's "run_shell_command" and Codex's
// "exec_command" are aliases in the stock catalog).
func AgentCall(agent Agent, name string, input any) Call {
	if key, ok := MCPKey(agent, name); ok {
		return MCPCall(key, input)
	}
	return Call{Tool: name, Input: input}
}

// MCPCall returns the direct call of an MCP tool whose key, "server:tool",
// is known already (Gemini CLI's mcp_context names server and tool), with
// input as the arguments.
func MCPCall(key string, input any) Call {
	return Call{Tool: key, Source: "mcp", Target: key, Input: input}
}
