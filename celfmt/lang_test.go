package celfmt

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadErrors loads a catalog that must fail and returns its diagnostics,
// with snippets.
func loadErrors(t *testing.T, src string) string {
	t.Helper()
	_, err := Load("c.yaml", []byte(src), Options{})
	var list ErrorList
	require.True(t, errors.As(err, &list), "want diagnostics, got %v", err)
	return list.Snippets([]byte(src))
}

// TestUndefinedFieldSuggests puts the caret under the misspelt name, not
// the dot, in every scalar style, and suggests the declared field.
func TestUndefinedFieldSuggests(t *testing.T) {
	for _, tc := range []struct{ name, preview, want string }{
		{"plain", `preview: input.pth`, "c.yaml:6:20: preview: undefined field 'pth' (did you mean 'path'?)"},
		{"double-quoted", `preview: "\"x\" + input.pth"`, "c.yaml:6:29: preview: undefined field 'pth' (did you mean 'path'?)"},
		{"single-quoted", `preview: '"x" + input . pth'`, "c.yaml:6:29: preview: undefined field 'pth' (did you mean 'path'?)"},
		{"block", "preview: |\n      \"x\" +\n        input.pth", "c.yaml:8:15: preview: undefined field 'pth' (did you mean 'path'?)"},
		{"folded", "preview: >\n      \"x\" +\n      input.?pth.orValue(\"\")", "c.yaml:8:14: preview: undefined field 'pth' (did you mean 'path'?)"},
		{"limits", `preview: string(limits.previw)`, "c.yaml:6:28: preview: undefined field 'previw' (did you mean 'preview'?)"},
		{"no suggestion", `preview: input.zzzzzz`, "c.yaml:6:20: preview: undefined field 'zzzzzz'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "version: 1\nformatters:\n  - tool: t\n    input:\n      path: string\n    " + tc.preview + "\n"
			_, err := Load("c.yaml", []byte(src), Options{})
			var list ErrorList
			require.True(t, errors.As(err, &list), "want diagnostics, got %v", err)
			require.Len(t, list, 1)
			assert.Equal(t, tc.want, list.Error())
			// The caret is under the name's first letter.
			line := []rune(strings.Split(src, "\n")[list[0].Pos.Line-1])
			name := regexp.MustCompile(`field '(\w+)'`).FindStringSubmatch(tc.want)[1]
			assert.Equal(t, name, string(line[list[0].Pos.Col-1:list[0].Pos.Col-1+len(name)]))
		})
	}
}

// TestAlwaysDeclining accepts a preview that is optional.none(), the
// documented way to decline, however it is reached, and keeps rejecting
// an optional whose value is dyn.
func TestAlwaysDeclining(t *testing.T) {
	for _, tc := range []struct{ name, entry string }{
		{"bare", "    preview: optional.none()\n"},
		{"choice", "    preview: 'has(input.x) ? optional.none() : optional.none()'\n"},
		{"bind", "    preview: cel.bind(n, optional.none(), n)\n"},
		{"let", "    let:\n      never: optional.none()\n    preview: never\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := formatter(t, "  - tool: t\n"+tc.entry+"    examples:\n      - input: {x: 1}\n        declines: true\n", Options{})
			assert.True(t, f.Optional())
			_, ok, err := f.Run(object(t, `{"x":1}`), "t", defaultLimits)
			require.NoError(t, err)
			assert.False(t, ok)
		})
	}
	_, err := Load("c.yaml", []byte("version: 1\nformatters:\n  - tool: t\n    preview: 'has(input.x) ? optional.of(input.x) : optional.none()'\n"), Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "preview has type optional_type(dyn): give the optional a string")
}

// TestEval evaluates expressions of any type and prints their values in
// CEL's literal syntax.
func TestEval(t *testing.T) {
	input := object(t, `{"z": 1, "a": [true, null, "x"], "n": 1.5}`)
	for _, tc := range []struct{ expr, typ, value string }{
		{`input.n`, "dyn", "1.5"},
		{`input.z + 1.0`, "double", "2.0"},
		{`input.a`, "dyn", `[true, null, "x"]`},
		{`input`, "map(string, dyn)", `{"z": 1.0, "a": [true, null, "x"], "n": 1.5}`},
		{`{"b": 1, "a": 2u}`, "map(string, dyn)", `{"a": 2u, "b": 1}`},
		{`b"hi"`, "bytes", `b"hi"`},
		{`optional.of("x")`, "optional_type(string)", `optional.of("x")`},
		{`limits`, "permgen.Limits", "permgen.Limits{preview: 200, summary: 7, log: 1000, output: 500}"},
		{`type(1)`, "type(int)", "int"},
		{`"a\nb"`, "string", `"a\nb"`},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			r, err := Eval(tc.expr, input, "t", Limits{Summary: 7}, Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.typ, r.Type)
			assert.Equal(t, tc.value, r.Value)
		})
	}

	_, err := Eval("1 +\n  inptu", nil, "t", Limits{}, Options{})
	var list ErrorList
	require.True(t, errors.As(err, &list))
	assert.Equal(t, "expr:2:3: undeclared reference to 'inptu' (did you mean 'input'?)", list.Error())

	_, err = Eval("  ", nil, "t", Limits{}, Options{})
	assert.EqualError(t, err, "expr:1:1: empty expression")

	_, err = Eval(`input.missing`, nil, "t", Limits{}, Options{})
	require.Error(t, err)
	assert.False(t, errors.As(err, &list), "an evaluation failure is not a diagnostic")

	_, err = Eval(`[1,2,3].map(x, [1,2,3].map(y, x * y)).size()`, nil, "t", Limits{}, Options{CostLimit: 5})
	assert.ErrorIs(t, err, ErrCostLimit)
}
