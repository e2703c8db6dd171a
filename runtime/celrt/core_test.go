package celrt_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/value"
)

// The core of CEL's run-time semantics, against cel-go: every operator
// and conversion on every pair of a set of values that covers each type's
// edges (overflow bounds, NaN, -0.0, empty and mixed lists, maps with
// string and int keys, types), with both operands dyn so that cel-go
// dispatches at run time as translated code does.

var coreValues = []string{
	"null", "true", "false", "0", "1", "-1", "9223372036854775807", "-9223372036854775808",
	"0u", "1u", "18446744073709551615u", "0.0", "-0.0", "1.0", "1.5", "-2.5", "1e19", "9.3e18",
	"0.0/0.0", "1.0/0.0", "-1.0/0.0", "''", "'a'", "'b'", "'é'", "'12'", "'-3.5'", "'true'",
	"b''", "b'a'", "[]", "[1]", "[1.0]", "['a']", "[1, 'a']", "{}", "{'a': 1}", "{1: 'a'}",
	"{'a': [1]}", "int", "string", "double",
}

// coreEval evaluates an expression with no variables through cel-go.
func coreEval(t *testing.T, env *cel.Env, expr string) (ref.Val, error) {
	t.Helper()
	prg := coreProgram(t, env, expr)
	out, _, err := prg.Eval(cel.NoVars())
	return out, err
}

// coreProgram compiles an expression through cel-go.
func coreProgram(t *testing.T, env *cel.Env, expr string) cel.Program {
	t.Helper()
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		t.Fatalf("%s: %v", expr, iss.Err())
	}
	prg, err := env.Program(ast)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return prg
}

// toCelrt converts a cel-go value into celrt's dynamic form, maps and
// types included.
func toCelrt(t *testing.T, v ref.Val) any {
	switch v := v.(type) {
	case traits.Mapper:
		var keys, values []any
		for it := v.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			keys = append(keys, toCelrt(t, k))
			values = append(values, toCelrt(t, v.Get(k)))
		}
		m, err := celrt.NewMap(keys, values)
		if err != nil {
			t.Fatal(err)
		}
		return m
	case traits.Lister:
		n := int(v.Size().(types.Int))
		out := make([]any, n)
		for i := range n {
			out[i] = toCelrt(t, v.Get(types.Int(i)))
		}
		return out
	case ref.Type:
		return celrt.Type{Name: v.TypeName()}
	}
	return fromCEL(v)
}

// sameValue is same, with maps equal when CEL says so and of one type.
func sameValue(a, b any) bool {
	if celrt.TypeOf(a) == celrt.MapType || celrt.TypeOf(b) == celrt.MapType {
		return celrt.TypeOf(a) == celrt.TypeOf(b) && celrt.Equal(a, b)
	}
	if ta, ok := a.(celrt.Type); ok {
		tb, ok := b.(celrt.Type)
		return ok && ta == tb
	}
	return same(a, b)
}

func TestCoreAgainstCEL(t *testing.T) {
	env, err := cel.NewEnv(cel.CrossTypeNumericComparisons(true))
	if err != nil {
		t.Fatal(err)
	}
	// Each operation is compiled once, over operands a and b that are dyn
	// variables: cel-go dispatches on their values at run time, as it does
	// for dyn(literal), and the values are the literals' own. (Compiling
	// "dyn(literal) op dyn(literal)" for each of the 45,000 combinations
	// took minutes under the race detector.)
	opEnv, err := env.Extend(cel.Variable("a", cel.DynType), cel.Variable("b", cel.DynType))
	if err != nil {
		t.Fatal(err)
	}
	celVals := make([]ref.Val, len(coreValues))
	vals := make([]any, len(coreValues))
	for i, src := range coreValues {
		v, err := coreEval(t, env, src)
		if err != nil {
			t.Fatal(err)
		}
		celVals[i], vals[i] = v, toCelrt(t, v)
	}
	// celGo evaluates an operation of opEnv on operands i and j (j is
	// ignored by unary operations).
	celGo := func(prg cel.Program, i, j int) (ref.Val, error) {
		out, _, err := prg.Eval(map[string]any{"a": celVals[i], "b": celVals[j]})
		return out, err
	}
	check := func(expr string, out ref.Val, wantErr error, got any, gotErr error) {
		t.Helper()
		switch {
		case wantErr != nil && gotErr == nil:
			t.Errorf("%s: got %#v, cel-go fails: %v", expr, got, wantErr)
		case wantErr == nil && gotErr != nil:
			t.Errorf("%s: got error %v, cel-go gives %v", expr, gotErr, out)
		case gotErr != nil:
			if !slices.ContainsFunc(sentinels, func(e error) bool { return errors.Is(gotErr, e) }) {
				t.Errorf("%s: error %v wraps no sentinel error", expr, gotErr)
			}
		default:
			if want := toCelrt(t, out); !sameValue(got, want) {
				t.Errorf("%s: got %#v, cel-go gives %#v", expr, got, want)
			}
		}
	}
	binary := []struct {
		op string
		f  func(a, b any) (any, error)
	}{
		{"==", func(a, b any) (any, error) { return celrt.Equal(a, b), nil }},
		{"!=", func(a, b any) (any, error) { return !celrt.Equal(a, b), nil }},
		{"<", func(a, b any) (any, error) { return celrt.Less(a, b) }},
		{"<=", func(a, b any) (any, error) { return celrt.LessEqual(a, b) }},
		{">", func(a, b any) (any, error) { return celrt.Greater(a, b) }},
		{">=", func(a, b any) (any, error) { return celrt.GreaterEqual(a, b) }},
		{"+", celrt.Add}, {"-", celrt.Sub}, {"*", celrt.Mul}, {"/", celrt.Div}, {"%", celrt.Mod},
		{"in", func(a, b any) (any, error) { return celrt.In(a, b) }},
	}
	binaryPrg := make([]cel.Program, len(binary))
	for k, op := range binary {
		binaryPrg[k] = coreProgram(t, opEnv, "dyn(a) "+op.op+" dyn(b)")
	}
	indexPrg := coreProgram(t, opEnv, "dyn(a)[dyn(b)]")
	unary := []struct {
		format string
		f      func(any) (any, error)
	}{
		{"size(dyn(%s))", func(v any) (any, error) { return celrt.Size(v) }},
		{"string(dyn(%s))", func(v any) (any, error) { return celrt.ToString(v) }},
		{"int(dyn(%s))", func(v any) (any, error) { return celrt.ToInt(v) }},
		{"uint(dyn(%s))", func(v any) (any, error) { return celrt.ToUint(v) }},
		{"double(dyn(%s))", func(v any) (any, error) { return celrt.ToDouble(v) }},
		{"bool(dyn(%s))", func(v any) (any, error) { return celrt.ToBool(v) }},
		{"bytes(dyn(%s))", func(v any) (any, error) { return celrt.ToBytes(v) }},
		{"type(dyn(%s))", func(v any) (any, error) { return celrt.TypeOf(v), nil }},
		{"-dyn(%s)", celrt.Neg},
		{"!dyn(%s)", func(v any) (any, error) { return celrt.Not(v) }},
	}
	unaryPrg := make([]cel.Program, len(unary))
	for k, op := range unary {
		unaryPrg[k] = coreProgram(t, opEnv, fmt.Sprintf(op.format, "a"))
	}
	// A number of the input is a value.Number: a double that keeps its
	// digits. It must behave as the double it is.
	asNumber := func(v any) any {
		if d, ok := v.(float64); ok {
			return value.NumberOf(d)
		}
		return v
	}
	for i, a := range vals {
		for j, b := range vals {
			for k, op := range binary {
				expr := fmt.Sprintf("dyn(%s) %s dyn(%s)", coreValues[i], op.op, coreValues[j])
				out, wantErr := celGo(binaryPrg[k], i, j)
				got, err := op.f(a, b)
				check(expr, out, wantErr, got, err)
				got, err = op.f(asNumber(a), asNumber(b))
				check(expr, out, wantErr, got, err)
			}
			// the typed forms of == agree with Equal
			switch y := b.(type) {
			case string:
				assertSameEqual(t, a, b, celrt.EqualString(a, y))
			case bool:
				assertSameEqual(t, a, b, celrt.EqualBool(a, y))
			case int64:
				assertSameEqual(t, a, b, celrt.EqualInt(a, y))
			case float64:
				assertSameEqual(t, a, b, celrt.EqualDouble(a, y))
				assertSameEqual(t, asNumber(a), b, celrt.EqualDouble(asNumber(a), y))
			}
			out, wantErr := celGo(indexPrg, i, j)
			got, err := celrt.Index(a, b)
			check(fmt.Sprintf("dyn(%s)[dyn(%s)]", coreValues[i], coreValues[j]), out, wantErr, got, err)
		}
		for k, op := range unary {
			expr := fmt.Sprintf(op.format, coreValues[i])
			out, wantErr := celGo(unaryPrg[k], i, i)
			got, err := op.f(a)
			check(expr, out, wantErr, got, err)
			got, err = op.f(asNumber(a))
			check(expr, out, wantErr, got, err)
		}
	}
}

func assertSameEqual(t *testing.T, a, b any, typed bool) {
	t.Helper()
	if want := celrt.Equal(a, b); typed != want {
		t.Errorf("%#v == %#v: typed form %v, Equal %v", a, b, typed, want)
	}
}
