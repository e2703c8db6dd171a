package celrt_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

func newMap(t *testing.T, kv ...any) *celrt.Map {
	t.Helper()
	var keys, values []any
	for i := 0; i < len(kv); i += 2 {
		keys, values = append(keys, kv[i]), append(values, kv[i+1])
	}
	m, err := celrt.NewMap(keys, values)
	require.NoError(t, err)
	return m
}

// TestInnerCalls converts the values an unwrap expression may give: maps
// of the input keep their order and are not copied, maps built in CEL have
// their keys sorted, strings stay JSON text, numbers become value.Number.
func TestInnerCalls(t *testing.T) {
	in := value.NewObject("z", 1, "a", "x")
	calls, err := celrt.InnerCalls([]any{
		newMap(t, "tool", "write", "input", in, "kind", "device"),
		newMap(t, "tool", "read", "input", newMap(t, "path", "/a", "n", int64(2), "deep", []any{newMap(t, "b", true, "a", nil)})),
		newMap(t, "input", `{"x":1}`, "tool", "raw"),
		value.NewObject("tool", "bare"),
		newMap(t, "tool", "list", "input", []any{1.5, uint64(3)}),
	})
	require.NoError(t, err)
	require.Len(t, calls, 5)
	assert.Equal(t, runtime.InnerCall{Tool: "write", Input: in, Kind: "device"}, calls[0])
	assert.Same(t, in, calls[0].Input, "an input object is used as it is")
	assert.Equal(t, "read", calls[1].Tool)
	assert.Equal(t, `{"deep":[{"a":null,"b":true}],"n":2,"path":"/a"}`, textfmt.CompactJSON(calls[1].Input))
	assert.Equal(t, runtime.InnerCall{Tool: "raw", Input: `{"x":1}`}, calls[2])
	assert.Equal(t, runtime.InnerCall{Tool: "bare"}, calls[3])
	assert.Equal(t, `[1.5,3]`, textfmt.CompactJSON(calls[4].Input))

	for _, none := range []any{[]any{}, celrt.None[any](), celrt.Of[any]([]any{})} {
		calls, err := celrt.InnerCalls(none)
		require.NoError(t, err)
		assert.Nil(t, calls)
	}
	calls, err = celrt.InnerCalls(celrt.Of[any]([]any{newMap(t, "tool", "t")}))
	require.NoError(t, err)
	assert.Equal(t, []runtime.InnerCall{{Tool: "t"}}, calls)
}

// TestInnerCallsErrors names the element and what is wrong with it.
func TestInnerCallsErrors(t *testing.T) {
	ok := newMap(t, "tool", "t")
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"not a list", "x", "invalid argument: unwrap returned string, not a list of calls"},
		{"not a map", []any{ok, "read"}, "unwrap: call 2: string, not a map with tool, input and kind"},
		{"tool not a string", []any{ok, ok, newMap(t, "tool", int64(1))}, "unwrap: call 3: tool is int, not a string"},
		{"no tool", []any{newMap(t, "input", "{}")}, "unwrap: call 1: no tool"},
		{"empty tool", []any{newMap(t, "tool", "")}, "unwrap: call 1: tool is empty"},
		{"unknown key", []any{newMap(t, "tool", "t", "args", "{}")}, `unwrap: call 1: unknown key "args": a call has tool, input and kind`},
		{"kind not a string", []any{newMap(t, "tool", "t", "kind", true)}, "unwrap: call 1: kind is bool, not a string"},
		{"key not a string", []any{newMap(t, int64(1), "t")}, "unwrap: call 1: a key of type int, not a string"},
		{"input of bytes", []any{newMap(t, "tool", "t", "input", []byte("x"))}, "unwrap: call 1: input holds a value of type bytes, which has no JSON form"},
		{"input map key", []any{newMap(t, "tool", "t", "input", newMap(t, int64(1), "x"))},
			"unwrap: call 1: input holds a map with a key of type int, which JSON cannot hold"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := celrt.InnerCalls(tc.v)
			require.EqualError(t, err, tc.want)
			assert.ErrorIs(t, err, celrt.ErrInvalid)
			var ce *celrt.CallError
			assert.Equal(t, tc.name != "not a list", errors.As(err, &ce))
		})
	}
}

func TestTier(t *testing.T) {
	tier, err := celrt.Tier("network")
	require.NoError(t, err)
	assert.Equal(t, runtime.TierNetwork, tier)
	_, err = celrt.Tier("Read")
	assert.ErrorIs(t, err, runtime.ErrInvalidTier)
}
