package value_test

import (
	"math"
	"testing"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The expected strings are what String(x) prints in JavaScript.
func TestFormatNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{1, "1"},
		{-1, "-1"},
		{42, "42"},
		{1.5, "1.5"},
		{0.1, "0.1"},
		{-2.5, "-2.5"},
		{123456.789, "123456.789"},
		{1e20, "100000000000000000000"},
		{1e21, "1e+21"},
		{1.2345e25, "1.2345e+25"},
		{123456789012345680000, "123456789012345680000"},
		{0.000001, "0.000001"},
		{0.0000012, "0.0000012"},
		{1e-7, "1e-7"},
		{1.5e-7, "1.5e-7"},
		{-1.5e-10, "-1.5e-10"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{9007199254740993, "9007199254740992"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
	}
	tenth, fifth := 0.1, 0.2
	tests = append(tests, struct {
		in   float64
		want string
	}{tenth + fifth, "0.30000000000000004"})
	for _, tc := range tests {
		assert.Equal(t, tc.want, value.FormatNumber(tc.in), "value.FormatNumber(%v)", tc.in)
	}
}

// Numbers decoded from JSON print as the call wrote them, in compact JSON
// and in MCP argument summaries alike.
func TestNumbersAsWritten(t *testing.T) {
	tests := []struct{ in, want string }{
		{`9007199254740993`, `9007199254740993`},
		{`1.50`, `1.50`},
		{`1e21`, `1e21`},
		{`-0`, `-0`},
		{`1E+2`, `1E+2`},
		{`1e400`, `1e400`},
		{`-2.5e-400`, `-2.5e-400`},
		{`123456789012345678901234567890`, `123456789012345678901234567890`},
		{`42`, `42`},
		{`5`, `5`},
	}
	for _, tc := range tests {
		v, err := value.DecodeJSON([]byte(tc.in))
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, textfmt.CompactJSON(v), "textfmt.CompactJSON(%s)", tc.in)
		assert.Equal(t, tc.want, textfmt.MCPValue(v), "textfmt.MCPValue(%s)", tc.in)
		assert.Equal(t, `{"n":`+tc.want+`}`, textfmt.TruncateJSON(object(t, `{"n":`+tc.in+`}`), 100))
		assert.Equal(t, `with n: `+tc.want, "with n: "+textfmt.MCPValue(mustGet(t, `{"n":`+tc.in+`}`, "n")))
	}
}

func mustGet(t *testing.T, js, key string) any {
	t.Helper()
	v, ok := object(t, js).Get(key)
	require.True(t, ok)
	return v
}

// Numbers computed in Go or CEL have no literal and print as JavaScript
// prints them; Go integers keep all their digits.
func TestComputedNumbers(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{int64(9007199254740993), "9007199254740993"},
		{uint64(18446744073709551615), "18446744073709551615"},
		{-7, "-7"},
		{9007199254740993.0, "9007199254740992"},
		{1.5, "1.5"},
		{1e21, "1e+21"},
		{math.Copysign(0, -1), "0"},
		{math.NaN(), "NaN"},
		{math.Inf(-1), "-Infinity"},
	}
	for _, tc := range tests {
		v, err := value.FromGo(tc.in)
		require.NoError(t, err)
		assert.Equal(t, tc.want, textfmt.MCPValue(v), "%v", tc.in)
	}
	assert.Equal(t, `[1.5,null,null,9007199254740993]`, textfmt.CompactJSON([]any{value.NumberOf(1.5), value.NumberOf(math.NaN()), 1 / math.Inf(1) * math.Inf(1), mustFromGo(t, int64(9007199254740993))}))
	assert.Equal(t, "1e+21", textfmt.MCPValue(1e21), "a bare float64 is a computed number")
}

func TestNumberInt64(t *testing.T) {
	tests := []struct {
		lit  string
		want int64
		ok   bool
	}{
		{"9007199254740993", 9007199254740993, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"9223372036854775808", 0, false},
		{"-9223372036854775809", 0, false},
		{"1e3", 1000, true},
		{"2.0", 2, true},
		{"-0", 0, true},
		{"0e999999999999", 0, true},
		{"1E+2", 100, true},
		{"12.5e1", 125, true},
		{"1250e-1", 125, true},
		{"9007199254740993.0", 9007199254740993, true},
		{"1.5", 0, false},
		{"1e-1", 0, false},
		{"1e19", 0, false},
		{"1e999999999999", 0, false},
		{"1e-999999999999", 0, false},
	}
	for _, tc := range tests {
		v, err := value.DecodeJSON([]byte(tc.lit))
		require.NoError(t, err)
		got, ok := v.(value.Number).Int64()
		assert.Equal(t, tc.ok, ok, tc.lit)
		assert.Equal(t, tc.want, got, tc.lit)
	}
	n, ok := value.NumberOf(3).Int64()
	assert.True(t, ok)
	assert.Equal(t, int64(3), n)
	_, ok = value.NumberOf(0.5).Int64()
	assert.False(t, ok)
}

// object decodes a JSON object.
func object(t testing.TB, js string) *value.Object {
	t.Helper()
	v, err := value.DecodeJSON([]byte(js))
	require.NoError(t, err)
	o, ok := v.(*value.Object)
	require.True(t, ok, "%s is not an object", js)
	return o
}

func mustFromGo(t testing.TB, v any) any {
	t.Helper()
	m, err := value.FromGo(v)
	require.NoError(t, err)
	return m
}
