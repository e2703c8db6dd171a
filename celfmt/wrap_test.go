package celfmt

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

func request(in *value.Object) runtime.Request {
	return runtime.Request{Tool: "t", Input: in, Limits: defaultLimits}
}

// TestUnwrap converts what an unwrap expression returns, in the metered
// and the free evaluation alike: input objects keep their order, maps
// built in CEL have sorted keys, strings stay JSON text.
func TestUnwrap(t *testing.T) {
	f := formatter(t, `  - tool: t
    unwrap: |
      input.calls.map(c, {"tool": c.name, "input": c.?args.orValue(null), "kind": "tool"})
        + [{"tool": "built", "input": {"z": 1, "a": [2, "x"]}}, {"tool": "text", "input": "{\"k\": 1}"}]
`, Options{})
	in := object(t, `{"calls": [{"name": "read", "args": {"path": "/a", "limit": 3}}, {"name": "ls"}]}`)
	for _, f := range []*Formatter{f, meteredTwin(f)} {
		calls, err := f.Unwrap(request(in))
		require.NoError(t, err)
		require.Len(t, calls, 4)
		assert.Equal(t, "read", calls[0].Tool)
		assert.Equal(t, "tool", calls[0].Kind)
		assert.Equal(t, `{"path":"/a","limit":3}`, textfmt.CompactJSON(calls[0].Input))
		args, _ := in.Get("calls")
		first, _ := args.([]any)[0].(*value.Object).Get("args")
		assert.Same(t, first, calls[0].Input, "an object of the input is used as it is")
		assert.Equal(t, runtime.InnerCall{Tool: "ls", Kind: "tool"}, calls[1])
		assert.Equal(t, `{"a":[2,"x"],"z":1}`, textfmt.CompactJSON(calls[2].Input))
		assert.Equal(t, runtime.InnerCall{Tool: "text", Input: `{"k": 1}`}, calls[3])
	}
}

// TestUnwrapNone: an entry without unwrap, an empty list and
// optional.none() all say that the call carries no calls; an entry
// without a preview declines; an entry without a tier says nothing of it.
func TestUnwrapNone(t *testing.T) {
	plain := formatter(t, "  - tool: t\n    preview: '\"x\"'\n", Options{})
	calls, err := plain.Unwrap(request(nil))
	assert.NoError(t, err)
	assert.Nil(t, calls)
	tier, err := plain.Tier(request(nil))
	assert.NoError(t, err)
	assert.Equal(t, runtime.TierUnknown, tier)

	for _, expr := range []string{"[]", "optional.none()", "has(input.x) ? optional.of([{'tool': 'a'}]) : optional.none()"} {
		f := formatter(t, "  - tool: t\n    unwrap: \""+expr+"\"\n", Options{})
		calls, err := f.Unwrap(request(object(t, `{}`)))
		assert.NoError(t, err, expr)
		assert.Nil(t, calls, expr)
		text, ok, err := f.Format(request(object(t, `{}`)))
		assert.NoError(t, err)
		assert.False(t, ok, "no preview: a decline")
		assert.Empty(t, text)
	}
}

// TestUnwrapFailures names the element that is not a call.
func TestUnwrapFailures(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{`[{"tool": "a"}, "read"]`, "unwrap: call 2: string, not a map with tool, input and kind"},
		{`[{"tool": "a"}, {"tool": "b"}, {"tool": 1}]`, "unwrap: call 3: tool is int, not a string"},
		{`[{"tool": "a", "args": {}}]`, `unwrap: call 1: unknown key "args": a call has tool, input, kind and annotations`},
		{`[{"input": {}}]`, "unwrap: call 1: no tool"},
		{`[{"tool": "a", "input": b"x"}]`, "unwrap: call 1: input holds a value of type bytes, which has no JSON form"},
		{`input.calls`, "unwrap: call 1: double, not a map with tool, input and kind"},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			f := formatter(t, "  - tool: t\n    input:\n      calls: list(dyn)\n    unwrap: '"+strings.ReplaceAll(tc.expr, "'", "''")+"'\n", Options{})
			for _, f := range []*Formatter{f, meteredTwin(f)} {
				_, err := f.Unwrap(request(object(t, `{"calls": [1]}`)))
				require.EqualError(t, err, tc.want)
				var ce *celrt.CallError
				assert.True(t, errors.As(err, &ce))
			}
		})
	}
}

// TestUnwrapErrorsAreDeterministic: the interpreter's maps have no order,
// so a call with several problems must still get one error, every time,
// and the one translated code gives.
func TestUnwrapErrorsAreDeterministic(t *testing.T) {
	f := formatter(t, "  - tool: t\n    unwrap: '[{\"tool\": 1, \"kind\": 2, \"zz\": 3, \"yy\": 4}]'\n", Options{})
	for range 100 {
		_, err := f.Unwrap(request(object(t, `{}`)))
		require.EqualError(t, err, `unwrap: call 1: unknown key "yy": a call has tool, input, kind and annotations`)
	}
}

// TestUnwrapCannotMultiplyAMap: a list of calls that each hold one large
// map, built once, is stopped before converting it once per call.
func TestUnwrapCannotMultiplyAMap(t *testing.T) {
	f := formatter(t, `  - tool: t
    input:
      items: list(string)
    unwrap: |
      cel.bind(m, input.items.transformMapEntry(i, v, {string(i): v}),
        lists.range(1000).map(j, {"tool": "a", "input": m}))
`, Options{CostBudget: 1 << 62})
	items := make([]any, 2000)
	for i := range items {
		items[i] = "a"
	}
	for _, f := range []*Formatter{f, meteredTwin(f)} {
		_, err := f.Unwrap(request(value.NewObject("items", items)))
		require.Error(t, err)
		assert.Contains(t, err.Error(), fmt.Sprintf("more than %d values", celrt.MaxCallValues))
	}
}

// TestUnwrapBounds: an unwrap over a huge input list is stopped by the
// cost limit, as a preview is.
func TestUnwrapBounds(t *testing.T) {
	f := formatter(t, `  - tool: t
    input:
      items: list(string)
    unwrap: 'input.items.map(i, {"tool": "read", "input": {"path": i}})'
`, Options{})
	items := make([]any, 300_000)
	for i := range items {
		items[i] = "a"
	}
	_, err := f.Unwrap(request(value.NewObject("items", items)))
	assert.ErrorIs(t, err, ErrCostLimit)

	calls, err := f.Unwrap(request(value.NewObject("items", []any{"a", "b"})))
	require.NoError(t, err)
	assert.Len(t, calls, 2)
}

// TestTier returns the tier an entry names or its expression gives; an
// expression whose value names no tier fails with runtime.ErrInvalidTier.
func TestTier(t *testing.T) {
	static := formatter(t, "  - tool: t\n    tier: ' network '\n", Options{})
	tier, err := static.Tier(request(nil))
	require.NoError(t, err)
	assert.Equal(t, runtime.TierNetwork, tier)
	assert.Equal(t, runtime.TierNetwork, static.StaticTier())
	_, ok := static.TierExpr()
	assert.False(t, ok)

	f := formatter(t, "  - tool: t\n    let:\n      mode: string(input.?mode.orValue('read'))\n    tier: mode\n", Options{})
	for _, f := range []*Formatter{f, meteredTwin(f)} {
		tier, err := f.Tier(request(object(t, `{"mode": "execute"}`)))
		require.NoError(t, err)
		assert.Equal(t, runtime.TierExecute, tier)
		tier, err = f.Tier(request(object(t, `{}`)))
		require.NoError(t, err)
		assert.Equal(t, runtime.TierRead, tier)
		_, err = f.Tier(request(object(t, `{"mode": "admin"}`)))
		assert.ErrorIs(t, err, runtime.ErrInvalidTier)
		_, err = f.Tier(request(object(t, `{"mode": 1}`)))
		assert.Error(t, err)
	}
}

// TestSlotChecks: what unwrap and tier must be, checked with the catalog.
func TestSlotChecks(t *testing.T) {
	for _, tc := range []struct{ name, entry, want string }{
		{"unwrap string", "unwrap: '\"x\"'", "unwrap must have type list(map(string, dyn))"},
		{"unwrap list of lists", "unwrap: '[[1]]'", "got list(list(int))"},
		{"unwrap optional of dyn", "unwrap: 'optional.of(input.x)'", "got optional_type(dyn)"},
		{"unwrap empty", "unwrap: ' '", "unwrap is empty"},
		{"tier double", "tier: '1.5'", "tier must have type string"},
		{"tier optional", "tier: 'optional.of(\"read\")'", "got optional_type(string)"},
		{"tier constant", "tier: 'has(input.x) ? \"read\" : cel.bind(t, \"admin\", t)'", `unknown tier "admin"`},
		{"tier word", "tier: Read", `unknown tier "Read" (did you mean "read"?)`},
		{"tier empty", "tier: ''", "tier is empty"},
		{"none", "title: x", "missing preview, unwrap, tier, row, result, error or expand"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("c.yaml", []byte("version: 1\nformatters:\n  - tool: t\n    "+tc.entry+"\n"), Options{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	for _, ok := range []string{
		"unwrap: '[{\"tool\": \"a\"}]'", "unwrap: '[]'", "unwrap: optional.none()", "unwrap: 'input.?calls.orValue([]).map(c, c)'",
		"unwrap: 'optional.of([{\"tool\": \"a\", \"input\": input}])'", "tier: read", "tier: tool", "tier: 'string(input.tier)'",
	} {
		_, err := Load("c.yaml", []byte("version: 1\nformatters:\n  - tool: t\n    "+ok+"\n"), Options{})
		assert.NoError(t, err, ok)
	}
}

// TestExampleCallsMismatchIsBrief: an example's diagnostic shows the start
// of a long list of calls and counts the rest, rather than repeating
// thousands of them.
func TestExampleCallsMismatchIsBrief(t *testing.T) {
	src := `version: 1
formatters:
  - tool: t
    unwrap: 'lists.range(3000).map(j, {"tool": "a", "input": {"n": j}})'
    examples:
      - input: {}
        calls: [{tool: b}]
`
	_, err := Load("calls.yaml", []byte(src), Options{})
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 3*maxDescribed)
	assert.Contains(t, err.Error(), `{"tool": "a", "input": {"n":0}}, {"tool": "a", "input": {"n":1}}`)
	assert.Regexp(t, `… \d+ more\]`, err.Error())
}

// TestUnwrapAnnotations: an unwrap expression may give a carried call the
// MCP hints of the tool that runs, in the metered and the free evaluation
// alike, and the hints the input carries are read as they are.
func TestUnwrapAnnotations(t *testing.T) {
	f := formatter(t, `  - tool: t
    unwrap: |
      [{"tool": "gh", "kind": "device", "annotations": {"readOnlyHint": false, "openWorldHint": false}},
       {"tool": "srv", "annotations": input.hints}]
`, Options{})
	in := object(t, `{"hints": {"readOnlyHint": true, "openWorldHint": false, "title": "Look"}}`)
	for _, f := range []*Formatter{f, meteredTwin(f)} {
		calls, err := f.Unwrap(request(in))
		require.NoError(t, err)
		require.Len(t, calls, 2)
		require.NotNil(t, calls[0].Annotations)
		assert.Equal(t, runtime.TierWrite, calls[0].Annotations.Tier())
		require.NotNil(t, calls[1].Annotations)
		assert.Equal(t, runtime.TierRead, calls[1].Annotations.Tier())
		assert.Equal(t, "Look", calls[1].Annotations.Title)
	}
}
