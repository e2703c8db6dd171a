package celfmt

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// literal returns a litList of the strings, and the list cel-go builds of
// the same literal.
func literal(elems ...string) (*litList, traits.Lister) {
	l := newLitList(len(elems))
	vals := make([]ref.Val, len(elems))
	for i, e := range elems {
		l.elems[i] = types.String(e)
		vals[i] = types.String(e)
	}
	return l, types.NewRefValList(envAdapter, vals)
}

// folded lists the keys and values a Fold passes.
type folded []string

func (f *folded) FoldEntry(k, v any) bool {
	*f = append(*f, fmt.Sprintf("%T %v %v", k, k, v))
	return true
}

// TestLitListAsCelGo: a litList behaves as the list cel-go builds, for a
// literal and for concatenations of literals.
func TestLitListAsCelGo(t *testing.T) {
	a, ca := literal("a")
	b, cb := literal("b", "c", "d")
	c, cc := literal("e", "f")
	e, ce := literal("b")
	empty := types.NewRefValList(envAdapter, []ref.Val{})
	cases := []struct {
		name string
		got  ref.Val
		want ref.Val
	}{
		{"literal", b, cb},
		{"two", a.Add(b), ca.Add(cb)},
		{"three", a.Add(b).(*litList).Add(c), ca.Add(cb).(traits.Adder).Add(cc)},
		{"chain", concatLists([]*litList{a, b, c}), ca.Add(cb).(traits.Adder).Add(cc)},
		{"nested", concatLists([]*litList{a.Add(b).(*litList), c}), ca.Add(cb).(traits.Adder).Add(cc)},
		{"input", a.Add(inputList{l: []any{"x", "y"}}), ca.Add(inputList{l: []any{"x", "y"}})},
		{"concat and input", a.Add(b).(*litList).Add(inputList{l: []any{"x"}}), ca.Add(cb).(traits.Adder).Add(inputList{l: []any{"x"}})},
		{"empty after", b.Add(empty), cb.Add(empty)},
		{"empty before", empty.Add(b), empty.Add(cb)},
		{"one", e, ce},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, want := tc.got.(traits.Lister), tc.want.(traits.Lister)
			assert.Equal(t, want.Size(), got.Size())
			assert.Equal(t, want.Value(), got.Value())
			assert.Equal(t, fmt.Sprint(want), fmt.Sprint(got))
			for _, i := range []ref.Val{types.Int(-2), types.Int(-1), types.Int(0), types.Int(1), types.Int(3),
				types.Int(5), types.Int(6), types.Int(9), types.Double(1), types.Double(1.5), types.String("0")} {
				assert.Equal(t, fmt.Sprint(want.Get(i)), fmt.Sprint(got.Get(i)), "Get(%v)", i)
			}
			for _, x := range []ref.Val{types.String("a"), types.String("f"), types.String("z"), types.Int(1)} {
				assert.Equal(t, want.Contains(x), got.Contains(x), "Contains(%v)", x)
			}
			for _, o := range []ref.Val{tc.want, ca, cb, empty, types.String("a"), inputList{l: []any{"a", "b", "c", "d"}}} {
				assert.Equal(t, tc.want.Equal(o), tc.got.Equal(o), "Equal(%v)", o)
				assert.Equal(t, o.Equal(tc.want), o.Equal(tc.got), "%v.Equal", o)
			}
			for _, typ := range []reflect.Type{reflect.TypeFor[[]string](), reflect.TypeFor[[]any](), reflect.TypeFor[any](), reflect.TypeFor[int]()} {
				w, werr := want.ConvertToNative(typ)
				g, gerr := got.ConvertToNative(typ)
				assert.Equal(t, w, g, "ConvertToNative(%v)", typ)
				assert.Equal(t, werr, gerr, "ConvertToNative(%v)", typ)
			}
			var wf, gf folded
			want.(traits.Foldable).Fold(&wf)
			got.(traits.Foldable).Fold(&gf)
			assert.Equal(t, wf, gf)
			var wi, gi []ref.Val
			for it := want.Iterator(); it.HasNext() == types.True; {
				wi = append(wi, it.Next())
			}
			for it := got.Iterator(); it.HasNext() == types.True; {
				gi = append(gi, it.Next())
			}
			assert.Equal(t, wi, gi)
			assert.Equal(t, want.ConvertToType(types.TypeType), got.ConvertToType(types.TypeType))
			assert.Equal(t, fmt.Sprint(want.ConvertToType(types.StringType)), fmt.Sprint(got.ConvertToType(types.StringType)))
			wm, wok := toModel(want)
			gm, gok := toModel(got)
			assert.Equal(t, wm, gm)
			assert.Equal(t, wok, gok)
			wm, wok = shallowModel(want)
			gm, gok = shallowModel(got)
			assert.Equal(t, wm, gm)
			assert.Equal(t, wok, gok)
		})
	}
}

// TestListShapesAgreeWithMetered: list literals, their concatenations,
// their joins and nonEmpty(x).hasValue() give in a free program what they
// give in a metered one, errors included.
func TestListShapesAgreeWithMetered(t *testing.T) {
	exprs := []string{
		`((input.a != "" ? [input.a] : []) + [input.b] + ([] + [input.c, input.a]) + []).join(", ")`,
		`json((nonEmpty(input.a).hasValue() ? [input.a] : []) + [input.b] + ([] + [input.c]))`,
		`json([] + [] + [])`,
		`json([input.a] + input.l + [input.b])`,
		`json(input.l + [input.b] + [input.c])`,
		`string(([input.a] + [input.b, input.c])[-1])`,
		`string(([input.a] + [input.b, input.c])[7])`,
		`string(([input.a] + [input.b, input.c] + [input.a])[input.i])`,
		`string(([input.a] + [input.b, input.c]) == [input.a, input.b, input.c])`,
		`string(([input.a] + [input.b]) == input.l)`,
		`string(input.a in ([input.b] + [input.c, input.a]))`,
		`string(size([input.a] + [] + [input.b]))`,
		`[input.a, input.n].join("-")`,
		`([input.a] + [input.n]).join()`,
		`mcpValue([input.a] + [input.b])`,
		`mcpValue([input.a])`,
		`string(nonEmpty(input.a).hasValue()) + string(nonEmpty(input.n).hasValue()) + string(nonEmpty(input.s).hasValue())`,
		`string(nonEmpty(input.missing).hasValue())`,
		`string(nonEmpty(input.l[9]).hasValue())`,
		`string(limits.summary) + string(limits.preview) + string(limits.log)`,
		`([input.a] + [input.b]).exists(x, x == "b") ? "y" : "n"`,
	}
	inputs := []string{
		`{"a":"a","b":"b","c":"c","n":1,"s":"  ","i":3,"l":["x","y"]}`,
		`{"a":"","b":" b ","c":"c\n","n":"1","s":"s","i":1,"l":[]}`,
		`{"a":"a","b":"a","c":"b","n":null,"i":0.5,"l":["a","b"]}`,
	}
	for _, expr := range exprs {
		f := formatter(t, "  - tool: t\n    preview: '"+expr+"'\n", Options{})
		require.True(t, f.unmetered, expr)
		for _, js := range inputs {
			in := object(t, js)
			g := meteredTwin(f)
			want, wantOK, wantErr := g.Run(in, "t", Limits{Preview: 200, Summary: 80, Log: 1000})
			text, ok, metered, err := f.run(in, "t", Limits{Preview: 200, Summary: 80, Log: 1000}, nil)
			require.False(t, metered, expr)
			assert.Equal(t, want, text, "%s on %s", expr, js)
			assert.Equal(t, wantOK, ok, "%s on %s", expr, js)
			assert.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(err), "%s on %s", expr, js)
		}
	}
}

// TestListChainsChargeAsCelGo: metered, list literals, their
// concatenations and joins charge what cel-go's nodes, metered, charge,
// and fail, or do not, at the same bounds.
func TestListChainsChargeAsCelGo(t *testing.T) {
	env := testEnv(t)
	calls, err := newCallTable(env)
	require.NoError(t, err)
	in := object(t, `{"a":"a","b":"bb","c":"","l":["x","y"]}`)
	for _, expr := range []string{
		`((input.a != "" ? [input.a] : []) + [input.b] + ([] + [input.c, input.a]) + []).join(", ")`,
		`[input.a] + input.l + [input.b] + [input.c]`,
		`input.l + [input.a] + [input.b]`,
		`input.l.map(x, x + "!") + [input.a] + input.l.filter(x, x == "zz") + [input.b]`,
		`[] + [] + []`,
		`[input.a] + [] + [input.b, input.c] + [input.a]`,
		`[input.a, input.b].join("-") + ([input.c] + [input.a]).join()`,
	} {
		ast, iss := env.Compile(expr)
		require.NoError(t, iss.Err(), expr)
		ours, err := planLists(env, ast, calls, false, false)
		require.NoError(t, err, expr)
		theirs, err := planLists(env, ast, calls, false, true)
		require.NoError(t, err, expr)
		run := func(p planned, bytes int64, units uint64) (string, *budget) {
			b := newBudget(bytes, units)
			out, _, err := p.prg.Eval(&activation{input: objectVal{o: in}, budget: b})
			return fmt.Sprint(out, err), b
		}
		for bytes := int64(0); bytes < 300; bytes += 8 {
			for units := uint64(0); units < 120; units += 3 {
				want, wb := run(theirs, bytes, units)
				got, gb := run(ours, bytes, units)
				require.Equal(t, want, got, "%s within %d bytes, %d units", expr, bytes, units)
				require.Equal(t, wb.left, gb.left, "%s within %d bytes, %d units", expr, bytes, units)
				require.Equal(t, wb.cost, gb.cost, "%s within %d bytes, %d units", expr, bytes, units)
				require.Equal(t, fmt.Sprint(wb.err), fmt.Sprint(gb.err), "%s within %d bytes, %d units", expr, bytes, units)
			}
		}
		want, _ := run(theirs, DefaultMemoryBudget, DefaultCostLimit)
		assert.NotContains(t, want, "budget", expr)
	}
}
