package runtime

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// counts records how many times each formatter method ran, by the name of
// the registration and the call it ran for.
type counts map[string]int

// counted is a formatter whose preview, tier and unwrap count their runs
// in c, keyed "name.Method" and, for a carried call, its input's "n".
func counted(c counts, name string, preview Formatter, tier Tier, unwrap func(Request) ([]InnerCall, error)) Formatter {
	key := func(req Request, method string) string {
		k := name + "." + method
		if n, ok := field(req.Input, "n").(string); ok {
			k += "#" + n
		}
		return k
	}
	return wrapperFormatter{
		preview: FormatterFunc(func(req Request) (string, bool, error) {
			c[key(req, "Format")]++
			if preview == nil {
				return "", false, nil
			}
			return preview.Format(req)
		}),
		tier: func(req Request) (Tier, error) {
			c[key(req, "Tier")]++
			return tier, nil
		},
		unwrap: func(req Request) ([]InnerCall, error) {
			c[key(req, "Unwrap")]++
			if unwrap == nil {
				return nil, nil
			}
			return unwrap(req)
		},
	}
}

// carrying returns an unwrap that carries n calls of tool, each with its
// number as input.
func carrying(tool string, n int) func(Request) ([]InnerCall, error) {
	return func(Request) ([]InnerCall, error) {
		calls := make([]InnerCall, n)
		for i := range calls {
			calls[i] = InnerCall{Tool: tool, Input: fmt.Sprintf(`{"n":"%d"}`, i)}
		}
		return calls, nil
	}
}

// TestDescribeRunsEachStepOnce: one Describe runs each formatter that its
// call (and each call it carries) is looked up under at most once per
// method, whatever asks for its answer: the preview, the tier, the prompt,
// the log context, the wrapped calls, the fitting of a wrapper's calls and
// the choice of the riskiest calls to show.
func TestDescribeRunsEachStepOnce(t *testing.T) {
	tests := []struct {
		name  string
		call  Call
		want  func(c counts) // checks the counts beyond "at most once"
		extra func(c counts) map[string]Formatter
	}{
		{
			name: "MCP call answered by the umbrella",
			call: Call{Tool: "exa:search", Source: "mcp", Target: "exa:search", Input: `{"query":"x"}`},
			extra: func(c counts) map[string]Formatter {
				return map[string]Formatter{
					"mcp":   counted(c, "mcp", text("with query"), TierNetwork, nil),
					"exa:*": counted(c, "exa", nil, TierUnknown, nil),
				}
			},
			want: func(c counts) {
				assert.Equal(t, counts{"exa.Format": 1, "exa.Tier": 1, "mcp.Format": 1, "mcp.Tier": 1}, c)
			},
		},
		{
			name: "MCP call answered by the server",
			call: Call{Tool: "srv:get", Source: "mcp", Target: "srv:get", Input: `{"id":"7"}`},
			extra: func(c counts) map[string]Formatter {
				return map[string]Formatter{
					"mcp":   counted(c, "mcp", text("umbrella"), TierUnknown, nil),
					"srv:*": counted(c, "srv", text("get 7"), TierRead, nil),
				}
			},
			want: func(c counts) {
				// Every key the call matches is asked for its tier: the
				// highest of them is the call's.
				assert.Equal(t, counts{"srv.Format": 1, "srv.Tier": 1, "mcp.Tier": 1}, c)
			},
		},
		{
			name: "wrapper with calls that all show",
			call: Call{Tool: "wrap", Input: `{}`},
			extra: func(c counts) map[string]Formatter {
				return map[string]Formatter{
					"wrap": counted(c, "wrap", nil, TierUnknown, carrying("leaf", 3)),
					"leaf": counted(c, "leaf", text("leaf"), TierRead, nil),
				}
			},
			want: func(c counts) {
				assert.Equal(t, 1, c["wrap.Unwrap"])
				for i := range 3 {
					assert.Equal(t, 1, c["leaf.Format#"+strconv.Itoa(i)], i)
					assert.Equal(t, 1, c["leaf.Tier#"+strconv.Itoa(i)], i)
				}
			},
		},
		{
			name: "wrapper with more calls than it shows",
			call: Call{Tool: "wrap", Input: `{}`},
			extra: func(c counts) map[string]Formatter {
				return map[string]Formatter{
					"wrap": counted(c, "wrap", nil, TierUnknown, carrying("leaf", MaxInnerCalls+4)),
					"leaf": counted(c, "leaf", text("leaf"), TierRead, nil),
				}
			},
			want: func(c counts) {
				assert.Equal(t, 1, c["wrap.Unwrap"])
				formats := 0
				for i := range MaxInnerCalls + 4 {
					assert.Equal(t, 1, c["leaf.Tier#"+strconv.Itoa(i)], "the tier of call %d is read once", i)
					formats += c["leaf.Format#"+strconv.Itoa(i)]
				}
				assert.Equal(t, MaxInnerCalls, formats, "each call shown is formatted once")
			},
		},
		{
			name: "wrapper in a wrapper",
			call: Call{Tool: "outer", Input: `{}`},
			extra: func(c counts) map[string]Formatter {
				return map[string]Formatter{
					"outer": counted(c, "outer", nil, TierUnknown, carrying("wrap", 2)),
					"wrap":  counted(c, "wrap", nil, TierUnknown, carrying("leaf", 2)),
					"leaf":  counted(c, "leaf", text("leaf"), TierRead, nil),
				}
			},
			want: func(c counts) {
				assert.Equal(t, 1, c["outer.Unwrap"])
				assert.Equal(t, 1, c["wrap.Unwrap#0"])
				assert.Equal(t, 1, c["wrap.Unwrap#1"])
				// Each inner wrapper carries leaves numbered 0 and 1: two
				// calls of each number in all.
				assert.Equal(t, 2, c["leaf.Format#0"])
				assert.Equal(t, 2, c["leaf.Tier#1"])
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := counts{}
			d := newDispatcher(t, Limits{}, tc.extra(c))
			desc := d.Describe(tc.call)
			require.NotEmpty(t, desc.Prompt)
			if !strings.HasPrefix(tc.name, "wrapper in a wrapper") {
				for k, n := range c {
					assert.Equal(t, 1, n, "%s ran %d times", k, n)
				}
			}
			tc.want(c)
		})
	}
}
