package main

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"cel.dev/expr"
	"cel.dev/expr/conformance/test"
	"github.com/dave/jennifer/jen"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInScopeAgreesWithCELGo evaluates every test the generator finds in
// scope with cel-go, in the environment and with the bindings the
// generator builds, and checks cel-go gets the expected result. A failure
// is a fault of the harness (environment, bindings, expectations), not of
// the translation.
func TestInScopeAgreesWithCELGo(t *testing.T) {
	data, err := testdataDir()
	require.NoError(t, err)
	skips, err := readSkipList("../skip.txt")
	require.NoError(t, err)
	g, err := newGenerator(skips)
	require.NoError(t, err)
	inScope := 0
	for _, name := range testFiles {
		f, err := loadFile(filepath.Join(data, name+".textproto"))
		require.NoError(t, err)
		for _, s := range f.GetSection() {
			for _, tc := range s.GetTest() {
				full := name + "/" + s.GetName() + "/" + tc.GetName()
				if _, skip := skips[full]; skip {
					continue
				}
				var o outcome
				if err := expectation(&o, tc); err != nil {
					continue
				}
				p, err := g.prepare(tc)
				if err != nil {
					continue
				}
				inScope++
				t.Run(full, func(t *testing.T) {
					prg, err := g.base.Program(p.ast)
					require.NoError(t, err)
					act := map[string]any{}
					for name, b := range tc.GetBindings() {
						v, err := cel.ProtoAsValue(types.DefaultTypeAdapter, b.GetValue())
						require.NoError(t, err)
						act[name] = v
					}
					out, _, err := prg.Eval(act)
					if o.wantErr {
						assert.Error(t, err, "got %v", out)
						return
					}
					require.NoError(t, err)
					want := expectedValue(t, tc)
					assert.True(t, sameVal(out, want), "%s\ngot  %v\nwant %v", tc.GetExpr(), out, want)
				})
			}
		}
	}
	t.Logf("%d tests in scope", inScope)
}

func expectedValue(t *testing.T, tc *test.SimpleTest) ref.Val {
	v := tc.GetValue()
	if tr := tc.GetTypedResult(); tr != nil {
		v = tr.GetResult()
	}
	if v == nil {
		return types.True
	}
	val, err := cel.ProtoAsValue(types.DefaultTypeAdapter, v)
	require.NoError(t, err)
	return val
}

func sameVal(got, want ref.Val) bool {
	if got.Type() != want.Type() {
		return false
	}
	if g, ok := got.(types.Double); ok {
		w := want.(types.Double)
		return g == w || math.IsNaN(float64(g)) && math.IsNaN(float64(w))
	}
	return got.Equal(want) == types.True
}

func TestLiterals(t *testing.T) {
	render := func(c jen.Code) string { return fmt.Sprintf("%#v", c) }
	for _, tc := range []struct {
		v    *expr.Value
		want string
	}{
		{&expr.Value{Kind: &expr.Value_NullValue{}}, "nil"},
		{&expr.Value{Kind: &expr.Value_Int64Value{Int64Value: math.MinInt64}}, "int64(-9223372036854775808)"},
		{&expr.Value{Kind: &expr.Value_Uint64Value{Uint64Value: math.MaxUint64}}, "uint64(18446744073709551615)"},
		{&expr.Value{Kind: &expr.Value_DoubleValue{DoubleValue: 1}}, "1.0"},
		{&expr.Value{Kind: &expr.Value_DoubleValue{DoubleValue: math.NaN()}}, "math.NaN()"},
		{&expr.Value{Kind: &expr.Value_DoubleValue{DoubleValue: math.Inf(-1)}}, "math.Inf(-1)"},
		{&expr.Value{Kind: &expr.Value_DoubleValue{DoubleValue: math.Copysign(0, -1)}}, "math.Copysign(0.0, -1.0)"},
		{&expr.Value{Kind: &expr.Value_BytesValue{BytesValue: []byte{0xff, 'a'}}}, `[]byte("\xffa")`},
		{&expr.Value{Kind: &expr.Value_TypeValue{TypeValue: "int"}}, `celrt.Type{Name: "int"}`},
		{&expr.Value{Kind: &expr.Value_ListValue{ListValue: &expr.ListValue{Values: []*expr.Value{
			{Kind: &expr.Value_Int64Value{Int64Value: 1}}, {Kind: &expr.Value_StringValue{StringValue: "a"}}}}}},
			`[]any{int64(1), "a"}`},
		{&expr.Value{Kind: &expr.Value_MapValue{MapValue: &expr.MapValue{Entries: []*expr.MapValue_Entry{
			{Key: &expr.Value{Kind: &expr.Value_StringValue{StringValue: "k"}}, Value: &expr.Value{Kind: &expr.Value_BoolValue{BoolValue: true}}}}}}},
			`mustMap([]any{"k"}, []any{true})`},
	} {
		c, err := dynLit(tc.v)
		require.NoError(t, err)
		assert.Equal(t, tc.want, render(c))
	}

	list := &expr.Value{Kind: &expr.Value_ListValue{ListValue: &expr.ListValue{Values: []*expr.Value{
		{Kind: &expr.Value_Int64Value{Int64Value: 2}}}}}}
	c, err := typedLit(cel.ListType(cel.IntType), list)
	require.NoError(t, err)
	assert.Equal(t, "[]int64{int64(2)}", render(c))
	_, err = typedLit(cel.ListType(cel.StringType), list)
	assert.EqualError(t, err, "a string variable bound to Int64 value")
	c, err = typedLit(cel.DynType, list)
	require.NoError(t, err)
	assert.Equal(t, "[]any{int64(2)}", render(c))

	obj := &expr.Value{Kind: &expr.Value_ObjectValue{}}
	_, err = dynLit(obj)
	assert.EqualError(t, err, "protobuf messages: a  message")
}

func TestTableName(t *testing.T) {
	assert.Equal(t, "basicCases", tableName("basic"))
	assert.Equal(t, "stringExtCases", tableName("string_ext"))
}
