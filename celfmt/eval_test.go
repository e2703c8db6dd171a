package celfmt

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// formatter checks a one-entry catalog and returns its formatter.
func formatter(t testing.TB, yaml string, opts Options) *Formatter {
	t.Helper()
	checked, err := Load("test.yaml", []byte("version: 1\nformatters:\n"+yaml), opts)
	require.NoError(t, err)
	require.Len(t, checked.Formatters, 1)
	return checked.Formatters[0]
}

func object(t testing.TB, js string) *value.Object {
	t.Helper()
	v, err := value.DecodeJSON([]byte(js))
	require.NoError(t, err)
	return v.(*value.Object)
}

var defaultLimits = Limits{Preview: 200, Summary: 80, Log: 1000}

// TestFunctionExamples evaluates the examples every function documents.
func TestFunctionExamples(t *testing.T) {
	env := testEnv(t)
	for _, f := range functions {
		require.NotEmpty(t, f.doc, f.name)
		require.NotEmpty(t, f.examples, f.name)
		for _, ex := range f.examples {
			expr, want, ok := strings.Cut(ex, " // ")
			require.True(t, ok, "example %q has no // result", ex)
			t.Run(expr, func(t *testing.T) {
				assertEval(t, env, map[string]any{"input": objectVal{o: &value.Object{}}}, expr, want)
			})
		}
	}
}

// testEnv returns the environment of a formatter whose input is undeclared.
func testEnv(t testing.TB) *cel.Env {
	t.Helper()
	p, err := newProvider()
	require.NoError(t, err)
	env, err := baseEnv(p)
	require.NoError(t, err)
	env, err = env.Extend(cel.Variable("input", cel.MapType(cel.StringType, cel.DynType)))
	require.NoError(t, err)
	return env
}

// assertEval evaluates "(expr) == (want)" in env with vars and requires it
// true, showing the actual value when it is not.
func assertEval(t *testing.T, env *cel.Env, vars map[string]any, expr, want string) {
	t.Helper()
	ast, iss := env.Compile("(" + expr + ") == (" + want + ")")
	require.NoError(t, iss.Err())
	prg, err := env.Program(ast)
	require.NoError(t, err)
	out, _, err := prg.Eval(vars)
	require.NoError(t, err)
	if out.Value() != true {
		got, _ := env.Compile(expr)
		gp, _ := env.Program(got)
		v, _, _ := gp.Eval(vars)
		t.Errorf("%s = %v, want %s", expr, v.Value(), want)
	}
}

func TestMapIterationFollowsInputOrder(t *testing.T) {
	f := formatter(t, `  - tool: t
    preview: 'input.map(k, k).join(",") + " " + input.transformList(k, v, string(v)).join(",")'
`, Options{})
	for _, js := range []string{`{"z":1,"a":2,"m":3}`, `{"b":"x","a":"y"}`} {
		got, ok, err := f.Run(object(t, js), "t", defaultLimits)
		require.NoError(t, err)
		require.True(t, ok)
		o := object(t, js)
		var keys, values []string
		for k, v := range o.All() {
			keys = append(keys, k)
			values = append(values, strings.Trim(textfmt.CompactJSON(v), `"`))
		}
		assert.Equal(t, strings.Join(keys, ",")+" "+strings.Join(values, ","), got)
	}
}

func TestOptionalNoneDeclines(t *testing.T) {
	f := formatter(t, `  - tool: t
    preview: 'has(input.x) ? optional.of("x") : optional.none()'
`, Options{})
	assert.True(t, f.Optional())
	_, ok, err := f.Run(object(t, `{}`), "t", defaultLimits)
	require.NoError(t, err)
	assert.False(t, ok)
	text, ok, err := f.Run(object(t, `{"x":1}`), "t", defaultLimits)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "x", text)
}

func TestVariables(t *testing.T) {
	f := formatter(t, `  - tool: "srv:*"
    preview: 'tool + " " + string(limits.preview) + "/" + string(limits.summary) + "/" + string(limits.log)'
`, Options{})
	text, _, err := f.Run(nil, "srv:do", Limits{Preview: 1, Summary: 2, Log: 3})
	require.NoError(t, err)
	assert.Equal(t, "srv:do 1/2/3", text)
}

func TestDeclaredFieldTypes(t *testing.T) {
	f := formatter(t, `  - tool: t
    input:
      path: string
      count: int
      ratio: double
      on: bool
      tags: list(string)
      meta: map(string, int)
    preview: |
      input.path + "|" + string(input.count) + "|" + string(input.ratio) + "|" + string(input.on)
        + "|" + input.tags.join(",") + "|" + string(input.meta.size()) + "|" + string(has(input.path))
`, Options{})
	tests := []formatCase{
		{`{"path":"/a","count":2,"ratio":0.5,"on":true,"tags":["x","y"],"meta":{"a":1}}`, "/a|2|0.5|true|x,y|1|true", ""},
		{`{}`, "|0|0|false||0|false", ""},
		{`{"path":null}`, "|0|0|false||0|false", ""},
		{`{"path":3}`, "", "input field path: want string, got number"},
		{`{"count":2.5}`, "", "input field count: want int, got a number that is not an integer"},
		{`{"tags":["x",1]}`, "", "input field tags: element 1: want string, got number"},
		{`{"meta":{"a":"b"}}`, "", `input field meta: key "a": want int, got string`},
	}
	assertFormats(t, f, tests)
}

// formatCase is an input, and the preview it must give or the error it must
// fail with.
type formatCase struct{ input, want, err string }

func assertFormats(t *testing.T, f *Formatter, tests []formatCase) {
	t.Helper()
	for _, tc := range tests {
		text, _, err := f.Run(object(t, tc.input), "t", defaultLimits)
		if tc.err != "" {
			assert.ErrorContains(t, err, tc.err, tc.input)
			continue
		}
		require.NoError(t, err, tc.input)
		assert.Equal(t, tc.want, text, tc.input)
	}
}

func TestEvaluationErrorsAreFailures(t *testing.T) {
	f := formatter(t, `  - tool: t
    preview: 'string(input.missing)'
`, Options{})
	_, _, err := f.Run(object(t, `{}`), "t", defaultLimits)
	assert.ErrorContains(t, err, "no such key: missing")
}

// TestAdversarialFormatterIsStopped runs nested comprehensions over a large
// input. The static budget is lifted so that only the run-time cost limit
// stands in the way; it must stop the evaluation early. Early is counted in
// cost units, not seconds: the evaluation spends no more than the limit,
// where the whole of it would take a billion steps of at least nodeUnits
// each. Without the limit it would not fail with ErrCostLimit, and would
// spend more than the limit.
func TestAdversarialFormatterIsStopped(t *testing.T) {
	f := formatter(t, `  - tool: t
    preview: |
      string(input.a.map(x, input.a.map(y, input.a.map(z, x + y + z))).size())
`, Options{CostBudget: 1 << 62})
	items := strings.Repeat("1,", 999) + "1"
	input := object(t, `{"a":[`+items+`]}`)
	_, _, err := f.Run(input, "t", defaultLimits)
	require.ErrorIs(t, err, ErrCostLimit)
	assert.Contains(t, err.Error(), "cost limit exceeded")

	// The same evaluation with a budget the test holds, to read what it
	// spent (its estimate is over the cost limit: Run meters it too).
	require.False(t, f.unmetered)
	b := newBudget(f.opts.MemoryBudget, f.opts.CostLimit)
	err = f.format(&f.preview, input, nil, "t", defaultLimits, b, func(ref.Val) error { return nil })
	require.ErrorIs(t, err, ErrCostLimit)
	assert.LessOrEqual(t, b.cost, uint64(DefaultCostLimit))
	assert.Less(t, b.cost, uint64(1000*1000*1000*nodeUnits), "stopped before the end")
	t.Logf("stopped after %d units", b.cost)
}

func TestCostBudgetRejectsNesting(t *testing.T) {
	_, err := Load("t.yaml", []byte(`version: 1
formatters:
  - tool: t
    preview: |
      string(input.a.map(x, input.a.map(y, x + y)).size())
`), Options{})
	var list ErrorList
	require.True(t, errors.As(err, &list))
	require.Len(t, list, 1)
	assert.Contains(t, list[0].Msg, "exceeds the budget of 10000000 by")
	assert.Equal(t, Pos{File: "t.yaml", Line: 4, Col: 14}, list[0].Pos)
}

func TestPositionsInScalarStyles(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want Pos
	}{
		{"plain", "    preview: inptu\n", Pos{"t.yaml", 4, 14}},
		{"double quoted with escapes", "    preview: \"'\\u00e9\\\"' + inptu\"\n", Pos{"t.yaml", 4, 28}},
		{"single quoted", "    preview: '\"it''s\" + inptu'\n", Pos{"t.yaml", 4, 25}},
		{"literal block", "    preview: |\n      \"a\" +\n        inptu\n", Pos{"t.yaml", 6, 9}},
		{"folded block", "    preview: >-\n      \"a\" +\n      inptu\n", Pos{"t.yaml", 6, 7}},
		{"plain on two lines", "    preview: input.a +\n      inptu\n", Pos{"t.yaml", 5, 7}},
		{"literal with blank line", "    preview: |\n      \"a\" +\n\n        inptu\n", Pos{"t.yaml", 7, 9}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("t.yaml", []byte("version: 1\nformatters:\n  - tool: t\n"+tc.yaml), Options{})
			var list ErrorList
			require.True(t, errors.As(err, &list), "%v", err)
			require.Len(t, list, 1, "%v", list)
			assert.Equal(t, tc.want, list[0].Pos, list[0].Msg)
			assert.Contains(t, list[0].Msg, "undeclared reference to 'inptu'")
		})
	}
}

// TestNoSuchOverloadNamesTheCall: a call on operands of types it does not
// take fails with the call, as source code writes it, and the types the
// operands had, where cel-go says only "no such overload"; an overflow, a
// division by zero and an index out of a string say their operands.
func TestNoSuchOverloadNamesTheCall(t *testing.T) {
	input := `{"n": 3, "s": "abc", "l": [1], "big": 9223372036854775807, "o": {}}`
	for _, tc := range []struct{ preview, want string }{
		{`"n: " + input.n`, "no such overload: string + double"},
		{`string(input.n - input.s)`, "no such overload: double - string"},
		{`string(!input.s)`, "no such overload: !string"},
		{`string(-input.s)`, "no such overload: -string"},
		{`truncate(input.n, 2)`, "no such overload: truncate(double, int)"},
		{`string(input.n.startsWith("x"))`, "no such overload: double.startsWith(string)"},
		{`string(size(input.n))`, "no such overload: size(double)"},
		{`string(input.o)`, "no such overload: string(map)"},
		{`input.n.map(x, "x").join()`, "no such overload: comprehension(double)"},
		{`string(int(input.n) * 4611686018427387904)`, "integer overflow: 3 * 4611686018427387904"},
		{`string(int(input.big))`, "integer overflow: double 9.223372036854776e+18 to int"},
		{`string(int(input.n) / 0)`, "division by zero: 3 / 0"},
		{`string(int(input.n) % 0)`, "division by zero: modulus 3 % 0"},
		{`string(input.s).charAt(7)`, "index out of range: index 7 in a string of 3 characters"},
		{`string(input.l[4])`, "index out of bounds: 4"},
	} {
		t.Run(tc.preview, func(t *testing.T) {
			f := formatter(t, "  - tool: t\n    preview: '"+strings.ReplaceAll(tc.preview, "'", "''")+"'\n", Options{})
			_, _, err := f.Run(object(t, input), "t", defaultLimits)
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

// TestEvalEntry: in an entry's environment, input has the declared types,
// the lets are variables, result is declared when given, and a failure is
// at its place in the expression.
func TestEvalEntry(t *testing.T) {
	checked, err := Load("test.yaml", []byte(`version: 1
let:
  noun: 'input.count == 1 ? "file" : "files"'
formatters:
  - tool: rm
    input:
      count: int
    let:
      what: plural(input.count, noun, noun)
    preview: '"delete " + what'
    result: result.text
`), Options{})
	require.NoError(t, err)
	e := checked.Formatters[0].Entry
	in := object(t, `{"count": 2}`)

	r, err := EvalEntry(e, `what + " (" + string(input.count + 1) + ")"`, in, nil, "rm", Limits{}, Options{})
	require.NoError(t, err)
	assert.Equal(t, `"2 files (3)"`, r.Value)

	r, err = EvalEntry(e, `result.text + ": " + noun`, in, object(t, `{"text": "gone"}`), "rm", Limits{}, Options{})
	require.NoError(t, err)
	assert.Equal(t, "gone: files", r.Text)

	// Without a result, result is not declared.
	_, err = EvalEntry(e, `result.text`, in, nil, "rm", Limits{}, Options{})
	var list ErrorList
	require.ErrorAs(t, err, &list)
	assert.Contains(t, list.Error(), "expr:1:1: undeclared reference to 'result'")

	// Undeclared input would make the count a double, which plural does
	// not take: the entry's environment is what makes this work.
	_, err = Eval(`plural(input.count, "file", "files")`, in, "rm", Limits{}, Options{})
	var at *EvalError
	require.ErrorAs(t, err, &at)
	assert.Equal(t, "expr:1:1", at.Pos.String())
	assert.Equal(t, "no such overload: plural(double, string, string)", err.Error())

	// A declared field of another type fails where the expression reads it.
	_, err = EvalEntry(e, `"x" + string(input.count)`, object(t, `{"count": "two"}`), nil, "rm", Limits{}, Options{})
	require.ErrorAs(t, err, &at)
	assert.Equal(t, "expr:1:19", at.Pos.String()) // the field's selection
	assert.Equal(t, "input field count: want int, got string", err.Error())

	// A let that fails names the let, not a place in the expression.
	_, err = EvalEntry(e, `what`, object(t, `{"count": 9223372036854775808}`), nil, "rm", Limits{}, Options{})
	require.Error(t, err)
	assert.False(t, errors.As(err, &at))
	assert.Equal(t, "let noun: input field count: want int, got a number outside the int range", err.Error())
}
