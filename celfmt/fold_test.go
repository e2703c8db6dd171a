package celfmt

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFoldAgreesWithCelGo evaluates comprehensions with cel-go's own
// nodes and with fold, free and metered: the values, and the errors'
// messages, are the same.
func TestFoldAgreesWithCelGo(t *testing.T) {
	p, err := newProvider()
	require.NoError(t, err)
	base, err := baseEnv(p)
	require.NoError(t, err)
	env, err := base.Extend(cel.Variable(varInput, cel.MapType(cel.StringType, cel.DynType)))
	require.NoError(t, err)
	for _, tc := range []struct {
		expr  string
		build bool
	}{{`input.n.map(x, x)`, true}, {`input.n.filter(x, x > 1)`, true}, {`input.n.map(x, x > 1, x)`, true}, {`input.n.exists(x, x > 1)`, false}} {
		ast, iss := env.Compile(tc.expr)
		require.NoError(t, iss.Err())
		for _, free := range []bool{true, false} {
			prg, err := planWith(env, ast, nil, free)
			require.NoError(t, err)
			root := prg.root
			if n, ok := root.(*meteredNode); ok {
				root = n.InterpretableV2
			}
			f, ok := root.(*fold)
			require.True(t, ok, "%s: %T", tc.expr, root)
			assert.Equal(t, tc.build, f.add != nil, tc.expr)
		}
	}
	in := object(t, `{"l":[1,"a",2,null,3],"n":[1,2,3],"s":["x","yy",""],"o":{"b":1,"a":"x","c":[2]},"e":[]}`)
	for _, expr := range []string{
		`input.n.map(x, x * 2)`,
		`input.n.map(x, x > 1, x + 1)`,
		`input.n.filter(x, x != 2)`,
		`input.e.map(x, x)`,
		`input.e.filter(x, x)`,
		`input.l.map(x, x + 1)`,
		`input.l.map(x, x > 1, x)`,
		`input.l.filter(x, x > 1)`,
		`input.l.filter(x, x == 1 || x > 1)`,
		`input.s.map(x, size(x) == 0 ? x + 1 : x)`,
		`input.l.exists(x, x > 2)`,
		`input.l.exists(x, x > 5)`,
		`input.l.all(x, x > 0)`,
		`input.l.all(x, x < 2)`,
		`input.n.all(x, x > 0)`,
		`input.l.exists_one(x, x == 1)`,
		`input.n.exists_one(x, x > 1)`,
		`input.o.map(k, k + "!")`,
		`input.o.filter(k, k != "a")`,
		`input.o.exists(k, input.o[k] == "x")`,
		`input.o.all(k, type(input.o[k]) == double)`,
		`input.n.map(x, input.n.map(y, x * y))`,
		`input.n.map(x, input.s.filter(y, size(y) > x - 1))`,
		`input.n.map(x, input.n.exists(y, y == x + 2))`,
		`cel.bind(v, input.n, v.map(x, x + v.size()))`,
		`cel.bind(v, input.nope, 1)`,
		`cel.bind(v, input.nope, v)`,
		`input.n.transformList(i, x, x * i)`,
		`input.nope.map(x, x)`,
		`input.o.b.map(x, x)`,
		`[[1], [2, 3]].map(l, l.map(x, [x])).map(l, l.size())`,
		`input.n.map(x, [x]).filter(l, l[0] > 1)`,
	} {
		ast, iss := env.Compile(expr)
		require.NoError(t, iss.Err(), expr)
		plain, err := env.Program(ast)
		require.NoError(t, err, expr)
		vars := &activation{input: objectVal{o: in}, tool: types.String("t"), limits: limitsVal(DefaultLimits)}
		vars.frame.Activation = vars
		vars.newBudget(math.MaxInt64, math.MaxUint64)
		want, _, _ := plain.Eval(vars)
		for _, free := range []bool{true, false} {
			prg, err := planWith(env, ast, nil, free)
			require.NoError(t, err, expr)
			vars.newBudget(math.MaxInt64, math.MaxUint64)
			got, _ := eval(prg, vars)
			assert.Equal(t, show(want), show(got), "%s (free %v)", expr, free)
		}
	}
}

// show prints a value, or an error's message. A call on operands of
// other types is "no such overload" either way: permgen's message goes on
// to name the call and the types (TestNoSuchOverloadNamesTheCall), and
// names a comprehension over a value that is not iterable so too, where
// cel-go names a Go type.
func show(v ref.Val) string {
	if e, ok := v.(*types.Err); ok {
		msg := e.Error()
		if strings.HasPrefix(msg, "no such overload") || strings.HasSuffix(msg, "expected iterable type") {
			msg = "no such overload"
		}
		return "error: " + msg
	}
	if m, ok := toModel(v); ok {
		return fmt.Sprintf("%T %#v", v.Type(), m)
	}
	return fmt.Sprintf("%v", v)
}

// TestFoldCharges: a metered comprehension is charged each step, so a
// nested one stops at the cost limit, and one that builds a long list
// stops at the memory budget.
func TestFoldCharges(t *testing.T) {
	f := formatter(t, `  - tool: t
    preview: 'string(lists.range(2000).map(i, lists.range(2000).filter(j, j > i).size()).size())'
`, Options{CostBudget: 1 << 40})
	_, _, err := f.Run(object(t, `{}`), "t", defaultLimits)
	assert.ErrorIs(t, err, ErrCostLimit)

	f = formatter(t, `  - tool: t
    preview: 'string(lists.range(100000).map(i, i).size())'
`, Options{CostBudget: 1 << 40, CostLimit: 1 << 40, MemoryBudget: 1 << 16})
	_, _, err = f.Run(object(t, `{}`), "t", defaultLimits)
	assert.True(t, errors.Is(err, ErrBudget), "%v", err)
}

// TestInputListAsDynamicList: an input list reads as the list cel-go's
// NewDynamicList makes of it.
func TestInputListAsDynamicList(t *testing.T) {
	in := object(t, `{"l":[1,"a",null,[2],{"k":true}],"e":[]}`)
	for _, name := range []string{"l", "e"} {
		raw, _ := in.Get(name)
		mine := adapter{}.NativeToValue(raw)
		require.IsType(t, inputList{}, mine)
		theirs := types.NewDynamicList(adapter{}, raw.([]any))
		other := types.NewRefValList(adapter{}, []ref.Val{types.String("z")})
		empty := types.NewRefValList(adapter{}, nil)
		for _, i := range []ref.Val{types.Int(0), types.Int(3), types.Int(4), types.Int(5), types.Int(-1), types.Double(1), types.Double(1.5), types.String("x")} {
			assert.Equal(t, show(theirs.Get(i)), show(mine.(traits.Lister).Get(i)), "%s[%v]", name, i)
		}
		for _, ty := range []ref.Type{types.ListType, types.TypeType, types.StringType} {
			assert.Equal(t, show(theirs.ConvertToType(ty)), show(mine.ConvertToType(ty)))
		}
		for _, o := range []ref.Val{other, empty, types.String("x"), theirs} {
			assert.Equal(t, show(theirs.Add(o)), show(mine.(traits.Lister).Add(o)))
			assert.Equal(t, show(theirs.Equal(o)), show(mine.Equal(o)))
			assert.Equal(t, show(o.Equal(theirs)), show(o.Equal(mine)))
		}
		assert.Equal(t, theirs.Size(), mine.(traits.Lister).Size())
		assert.Equal(t, show(theirs.Contains(types.String("a"))), show(mine.(traits.Lister).Contains(types.String("a"))))
		assert.Equal(t, theirs.Value(), mine.Value())
	}
}
