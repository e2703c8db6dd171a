package celrt_test

import (
	"errors"
	"fmt"
	"math"
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
		{"unknown key", []any{newMap(t, "tool", "t", "args", "{}")}, `unwrap: call 1: unknown key "args": a call has tool, input, kind and annotations`},
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

// TestInnerCallsBounded: the inputs of all the calls together are
// converted at most MaxCallValues values deep, however often one map
// recurs among them.
func TestInnerCallsBounded(t *testing.T) {
	var kv []any
	for i := range 2000 {
		kv = append(kv, fmt.Sprint(i), int64(i))
	}
	big := newMap(t, kv...)
	calls := make([]any, 1000)
	for i := range calls {
		calls[i] = newMap(t, "tool", "a", "input", big)
	}
	_, err := celrt.InnerCalls(calls)
	require.Error(t, err)
	assert.ErrorIs(t, err, celrt.ErrInvalid)
	assert.Contains(t, err.Error(), fmt.Sprintf("more than %d values in all", celrt.MaxCallValues))

	got, err := celrt.InnerCalls(calls[:10])
	require.NoError(t, err)
	assert.Len(t, got, 10)
}

// TestLargeMapFindsKeys: a map of many keys finds them through its index
// as a small one does by scanning: numbers by value across int, uint and
// double, and a key given twice is an error.
func TestLargeMapFindsKeys(t *testing.T) {
	var keys, values []any
	for i := range 100 {
		keys, values = append(keys, int64(i-50)), append(values, i)
	}
	keys, values = append(keys, "s", true), append(values, "str", "bool")
	m, err := celrt.NewMap(keys, values)
	require.NoError(t, err)
	for _, tc := range []struct {
		key  any
		want any
	}{
		{int64(-50), 0}, {int64(7), 57}, {uint64(7), 57}, {7.0, 57}, {-3.0, 47},
		{value.NumberOf(7), 57}, {"s", "str"}, {true, "bool"},
	} {
		got, found := m.Find(tc.key)
		assert.True(t, found, "%v", tc.key)
		assert.Equal(t, tc.want, got, "%v", tc.key)
	}
	for _, missing := range []any{7.5, int64(50), uint64(1 << 63), math.NaN(), math.Inf(1), "t", false} {
		_, found := m.Find(missing)
		assert.False(t, found, "%v", missing)
	}
	_, err = celrt.NewMap(append(keys, uint64(3)), append(values, "again"))
	assert.ErrorContains(t, err, "duplicate map key 3")
}

func TestTier(t *testing.T) {
	tier, err := celrt.Tier("network")
	require.NoError(t, err)
	assert.Equal(t, runtime.TierNetwork, tier)
	_, err = celrt.Tier("Read")
	assert.ErrorIs(t, err, runtime.ErrInvalidTier)
}

// BenchmarkNewMap builds maps of 1,000 and 10,000 keys: the time per key
// stays the same, where finding each key by scanning made it grow with
// the number of keys.
func BenchmarkNewMap(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		keys, values := make([]any, n), make([]any, n)
		for i := range keys {
			keys[i], values[i] = fmt.Sprint("key", i), int64(i)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := celrt.NewMap(keys, values); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
		})
	}
}

// TestInnerCallAnnotations: an unwrapped call may carry the MCP hints of
// the tool that runs (a device that mounts an MCP tool), which raise its
// tier; hints of the wrong type or unknown keys are an error, as any
// other malformed call is, and null is none.
func TestInnerCallAnnotations(t *testing.T) {
	no := false
	calls, err := celrt.InnerCalls([]any{
		newMap(t, "tool", "gh", "kind", "device", "annotations", newMap(t, "readOnlyHint", false, "openWorldHint", false, "title", "Delete")),
		newMap(t, "tool", "gh", "annotations", nil),
		newMap(t, "tool", "gh", "annotations", value.NewObject("destructiveHint", nil)),
	})
	require.NoError(t, err)
	assert.Equal(t, &runtime.Annotations{Title: "Delete", ReadOnlyHint: &no, OpenWorldHint: &no}, calls[0].Annotations)
	assert.Equal(t, runtime.TierWrite, calls[0].Annotations.Tier())
	assert.Nil(t, calls[1].Annotations)
	assert.Equal(t, &runtime.Annotations{}, calls[2].Annotations)

	for _, tc := range []struct {
		annotations any
		msg         string
	}{
		{"read-only", "unwrap: call 1: annotations are string, not a map of MCP tool hints"},
		{newMap(t, "readOnly", true), `unwrap: call 1: annotations have an unknown key "readOnly"`},
		{newMap(t, "readOnlyHint", "yes", "aaa", true), `unwrap: call 1: annotations have an unknown key "aaa"`},
		{newMap(t, "readOnlyHint", "yes"), "unwrap: call 1: annotations readOnlyHint is string, not a bool"},
		{newMap(t, "title", int64(1)), "unwrap: call 1: annotations title is int, not a string"},
	} {
		_, err := celrt.InnerCalls([]any{newMap(t, "tool", "gh", "annotations", tc.annotations)})
		assert.EqualError(t, err, tc.msg)
	}
}
