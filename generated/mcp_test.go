package generated_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/permgen/permgen/runtime"
)

// MCP calls arrive with their arguments or with the envelope
// {"tool", "arguments"}; the stock catalog reads both.
func TestStockMCPInputShapes(t *testing.T) {
	tests := []struct {
		name string
		call runtime.Call
		want string
	}{
		{"envelope with source mcp", runtime.Call{Tool: "srv:tool", Source: "mcp", Target: "srv:tool", Agent: "a1", Input: `{"arguments":{"n":2}}`},
			"Agent 'a1' requested MCP target 'srv:tool' with n: 2. Allow this call?"},
		{"envelope naming the tool", runtime.Call{Tool: "github:create_issue", Source: "mcp", Target: "github:create_issue",
			Input: `{"tool":"github:create_issue","arguments":{"owner":"acme","repo":"api","title":"Crash on start"}}`},
			"Current agent requested MCP target 'github:create_issue' open an issue in acme/api: title \"Crash on start\". Allow this call?"},
		{"arguments alone", runtime.Call{Tool: "github:create_issue", Source: "mcp", Target: "github:create_issue",
			Input: `{"owner":"acme","repo":"api","title":"Crash on start"}`},
			"Current agent requested MCP target 'github:create_issue' open an issue in acme/api: title \"Crash on start\". Allow this call?"},
		{"umbrella tool", runtime.Call{Tool: "mcp", Target: "srv:tool", Input: `{"tool":"srv:tool","arguments":{"n":2}}`},
			"Current agent requested MCP target 'srv:tool' with n: 2. Allow this call?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, failures := stockDispatcher(t)
			assert.Equal(t, tc.want, d.Prompt(tc.call))
			assert.Empty(t, failures())
		})
	}
}
