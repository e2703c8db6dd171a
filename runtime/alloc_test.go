package runtime

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/permgen/permgen/runtime/value"
)

// The default preview serializes its input once, however it is padded,
// and the log context asks about the same text; an input whose JSON does
// not fit is rendered by its fields into one buffer, with one scratch:
// going back to several passes, or to building a copy of the input, shows
// as allocations. The inputs are decoded first, so decoding is not
// counted.
func TestDefaultPreviewAllocations(t *testing.T) {
	padded := value.DecodeInput(`{"content":"` + strings.Repeat("x", 4<<10) + `","path":"/home/dev/.ssh/authorized_keys","mode":420}`)
	small := value.DecodeInput(`{"query":"typescript generics","numResults":5}`)
	nested := value.DecodeInput(`{"options":{"recursive":true},"path":"/srv"}`)
	d := newDispatcher(t, Limits{}, map[string]Formatter{"decline": FormatterFunc(func(Request) (string, bool, error) {
		return "", false, nil
	})})
	tests := []struct {
		name              string
		call              Call
		preview, describe float64
	}{
		// the JSON's buffer, the fields' buffer and their scratch; the
		// log's fields and their scratch
		{"padded", Call{Tool: "write_file", Input: padded}, 3, 10},
		{"padded, declined", Call{Tool: "decline", Input: padded}, 3, 10},
		{"small", Call{Tool: "search", Input: small}, 2, 8},
		{"nested, fits", Call{Tool: "list", Input: nested}, 2, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.LessOrEqual(t, testing.AllocsPerRun(100, func() { d.Preview(tc.call) }), tc.preview, "Preview")
			assert.LessOrEqual(t, testing.AllocsPerRun(100, func() { d.Describe(tc.call) }), tc.describe, "Describe")
		})
	}
}

// An MCP call is looked up, and given the umbrella object, once for its
// preview and its tier: a second lookup or a second umbrella shows as
// allocations.
func TestMCPDescribeAllocations(t *testing.T) {
	umbrella := wrapperFormatter{preview: FormatterFunc(func(req Request) (string, bool, error) {
		return "with " + str(req.Input, "tool"), true, nil
	})}
	server := wrapperFormatter{preview: FormatterFunc(func(Request) (string, bool, error) {
		return "", false, nil
	}), tier: static(TierRead)}
	d := newDispatcher(t, Limits{}, map[string]Formatter{"mcp": umbrella, "srv:*": server})
	args := value.DecodeInput(`{"query":"typescript generics","numResults":5}`)
	tests := []struct {
		name     string
		call     Call
		describe float64
	}{
		{"umbrella answers", Call{Tool: "exa:search", Source: "mcp", Target: "exa:search", Input: args}, 7},
		{"server declines, tiers", Call{Tool: "srv:get", Source: "mcp", Target: "srv:get", Input: args}, 7},
		{"umbrella tool", Call{Tool: "mcp", Input: value.DecodeInput(`{"tool":"exa:search","arguments":{"q":"x"}}`)}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.LessOrEqual(t, testing.AllocsPerRun(100, func() { d.Describe(tc.call) }), tc.describe)
		})
	}
}
