package celfmt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeclaredElementTypes: the elements of a declared list or map have
// their declared types at run time, so arithmetic the check accepts works.
func TestDeclaredElementTypes(t *testing.T) {
	f := formatter(t, `  - tool: t
    input:
      n: list(int)
      m: map(string, int)
      d: list(double)
      s: list(string)
      nn: list(list(int))
    preview: >-
      string(input.n[0] + 1) + " " + string(input.m.a * 2) + " "
      + input.n.map(x, string(x + 1)).join(",") + " " + string(input.d[0] + 0.5) + " "
      + input.s.join(",") + " " + string(input.nn[1][0] - 1)
`, Options{})
	tests := []struct {
		name, input, want, err string
	}{
		{"numbers", `{"n":[1,2],"m":{"a":3},"d":[1.5],"s":["x","y"],"nn":[[1],[7]]}`, "2 6 2,3 2 x,y 6", ""},
		{"integral doubles are ints", `{"n":[1.0,2e0],"m":{"a":3.0},"d":[2],"s":[],"nn":[[],[1]]}`, "2 6 2,3 2.5  0", ""},
		{"not an integer", `{"n":[1.5],"m":{"a":3},"d":[1],"s":[],"nn":[[],[1]]}`, "", "input field n: element 0: want int, got a number that is not an integer"},
		{"map value of another type", `{"n":[1],"m":{"a":"3"},"d":[1],"s":[],"nn":[[],[1]]}`, "", `input field m: key "a": want int, got string`},
		{"null element", `{"n":[null],"m":{"a":3},"d":[1],"s":[],"nn":[[],[1]]}`, "", "input field n: element 0: want int, got null"},
		{"null map value", `{"n":[1],"m":{"a":null},"d":[1],"s":[],"nn":[[],[1]]}`, "", `input field m: key "a": want int, got null`},
		{"nested", `{"n":[1],"m":{"a":3},"d":[1],"s":[],"nn":[[],["1"]]}`, "", "input field nn: element 1: element 0: want int, got string"},
		{"string element", `{"n":[1],"m":{"a":3},"d":[1],"s":[1],"nn":[[],[1]]}`, "", "input field s: element 0: want string, got number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, ok, err := f.Run(object(t, tc.input), "t", defaultLimits)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.True(t, ok)
			assert.Equal(t, tc.want, text)
		})
	}
}

// TestDeclaredDynElementsMayBeNull: a list of dyn keeps its null elements.
func TestDeclaredDynElementsMayBeNull(t *testing.T) {
	f := formatter(t, `  - tool: t
    input:
      l: list(dyn)
    preview: string(input.l.size()) + " " + string(input.l[0] == null)
`, Options{})
	text, _, err := f.Run(object(t, `{"l":[null,1]}`), "t", defaultLimits)
	require.NoError(t, err)
	assert.Equal(t, "2 true", text)
}
