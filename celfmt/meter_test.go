package celfmt

import (
	"strings"

	"github.com/google/cel-go/common/types/ref"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMeteredProgramsAgree evaluates expressions with and without the
// meter: the meter calls the same implementations, so the results agree.
func TestMeteredProgramsAgree(t *testing.T) {
	env := testEnv(t)
	calls, err := newCallTable(env)
	require.NoError(t, err)
	in := value.NewObject("s", " Hello ", "n", 2.0, "l", []any{"b", "a", "b"}, "o", value.NewObject("path", "/p", "x", 1.0), "b", true)
	for _, expr := range []string{
		`input.s + "!"`, `input.n + 1.0`, `input.n * 2.0 - 1.0 / 4.0`, `-input.n`, `!input.b`, `int(input.n) % 3 == 2`,
		`int(input.n) % 2`, `[1, 2] + [3]`, `input.l + ["c"]`, `input.s == " Hello "`, `input.s != "x"`, `input.n < 3`,
		`input.n >= 2.0`, `"b" in input.l`, `"x" in input.o`, `size(input.s)`, `size(input.l)`, `input.l.size()`,
		`input.s.contains("ell")`, `input.s.startsWith(" H")`, `input.s.endsWith(" ")`, `input.s.matches("^ H")`,
		`matches(input.s, "o $")`, `string(input.n)`, `int("12")`, `double("1.5")`, `string(bytes("x"))`, `type(input.s) == string`,
		`dyn(input.n) == 2.0`, `input.?missing.orValue("none")`, `input.?s.hasValue()`, `optional.of(1).value()`,
		`optional.none().or(optional.of(2)).value()`, `input.?o.path.orValue("")`, `has(input.o.path)`,
		`input.l.exists(x, x == "a")`, `input.l.all(x, x != "z")`, `input.l.exists_one(x, x == "a")`, `input.l.filter(x, x == "b").size()`,
		`input.l.map(x, x + x)`, `input.l.transformList(i, x, string(i) + x)`, `input.o.transformMap(k, v, string(v))`,
		`input.l.sort()`, `input.l.sortBy(x, x)`, `input.l.distinct()`, `input.l.reverse()`, `input.l.slice(1, 2)`,
		`[[1], [2, [3]]].flatten()`, `lists.range(3)`, `input.l.first().orValue("")`, `input.l.last().orValue("")`,
		`input.s.trim().lowerAscii().upperAscii()`, `input.s.replace("l", "L")`, `input.s.replace("l", "L", 1)`,
		`input.s.split("l")`, `input.s.split("l", 2)`, `input.l.join("-")`, `input.l.join()`, `input.s.charAt(1)`,
		`input.s.indexOf("l")`, `input.s.indexOf("l", 4)`, `input.s.lastIndexOf("l")`, `input.s.lastIndexOf("l", 3)`,
		`input.s.substring(1)`, `input.s.substring(1, 3)`, `input.s.reverse()`, `strings.quote(input.s)`,
		`"%s and %d".format([input.s, 3])`, `cel.bind(v, input.n, v * v)`, `input.b ? "y" : "n"`, `input.b && input.n > 1.0`,
		`input.b || 1 / 0 == 1`, `truncate(input.s, 3)`, `lines("a\nb")`, `plural(2, "a", "as")`, `inline(input.s, 3)`,
		`collapse(input.s)`, `json(input)`, `nonEmpty(input.s)`, `promptPath(input.o)`, `promptPath({"path": 1, "file_path": "/f"})`,
		`mcpValue(input.l)`, `mcpValue(["x"].map(x, x))`, `mcpValue({"a": 1})`, `numberText(input.n)`, `input.o["path"]`,
		`input.l[0]`, `{"a": input.n}.a`, `[input.s, input.n][1]`, `input.o.all(k, k != "")`, `uint(3) + 1u`, `b"ab" + b"c"`,
		`1 / 0`, `input.missing`, `input.l[9]`, `input.s + "-" + input.s + "|" + strings.quote(input.s) + input.l[0]`,
		`input.l.map(x, x + "(" + x + ")").join(", ")`, `"a" + input.l[9] + "b"`,
	} {
		ast, iss := env.Compile(expr)
		require.NoError(t, iss.Err(), expr)
		plain, err := env.Program(ast)
		require.NoError(t, err, expr)
		metered, err := program(env, ast, calls)
		require.NoError(t, err, expr)
		want, _, wantErr := plain.Eval(map[string]any{"input": objectVal{o: in}})
		got, _, gotErr := metered.Eval(&activation{input: objectVal{o: in}, budget: newBudget(DefaultMemoryBudget, DefaultCostLimit)})
		if wantErr != nil || gotErr != nil {
			assert.Equal(t, wantErr != nil, gotErr != nil, "%s: %v, %v", expr, wantErr, gotErr)
			continue
		}
		assert.Equal(t, want.Equal(got), types.True, "%s: %v, want %v", expr, got, want)
	}
}

// TestComparingWithALargeValueIsCheap: comparing a small value with a
// large one costs what the small one costs, and walks no more of the
// large one.
func TestComparingWithALargeValueIsCheap(t *testing.T) {
	big := make([]any, 100_000)
	for i := range big {
		big[i] = "x"
	}
	large := objectVal{o: value.NewObject("l", big)}
	assert.Equal(t, uint64(1), minUnits(types.String("a"), large, 1<<40))
	assert.Equal(t, uint64(1), minUnits(large, types.String("a"), 1<<40))
	assert.Greater(t, minUnits(large, large, 1<<40), uint64(100_000))
	assert.Equal(t, uint64(1000), min(minUnits(large, large, 1000), 1000))
}

// TestConcatenationChargesEachCall: a chain of concatenations builds its
// result once, but charges the budget what each call of the chain would
// have: the sum of the lengths of the strings each call makes, and the
// same units.
func TestConcatenationChargesEachCall(t *testing.T) {
	env := testEnv(t)
	calls, err := newCallTable(env)
	require.NoError(t, err)
	s := strings.Repeat("x", 1000)
	in := value.NewObject("s", s)
	run := func(expr string, bytes int64) (ref.Val, *budget, error) {
		ast, iss := env.Compile(expr)
		require.NoError(t, iss.Err(), expr)
		prg, err := program(env, ast, calls)
		require.NoError(t, err)
		b := newBudget(bytes, DefaultCostLimit)
		out, _, err := prg.Eval(&activation{input: objectVal{o: in}, budget: b})
		if b.err != nil {
			err = b.err
		}
		return out, b, err
	}
	// Calls make 2000, 3000, then 4000 bytes.
	out, chained, err := run(`input.s + input.s + input.s + input.s`, 9000)
	require.NoError(t, err)
	assert.Equal(t, types.String(s+s+s+s), out)
	_, _, err = run(`input.s + input.s + input.s + input.s`, 8999)
	assert.ErrorIs(t, err, ErrBudget)
	// The same calls, one at a time (a list literal breaks the chain).
	_, apart, err := run(`[[input.s + input.s][0] + input.s][0] + input.s`, 9000)
	require.NoError(t, err)
	assert.Equal(t, chained.left, apart.left)
	// Two literals of one element, two attributes selecting an index.
	listUnits := 2 * uint64(4*nodeUnits+nodeUnits+2*nodeUnits)
	assert.Equal(t, chained.cost, apart.cost-listUnits)
}
