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
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		t.Fatalf("%s: %v", expr, iss.Err())
	}
	prg, err := env.Program(ast)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	out, _, err := prg.Eval(cel.NoVars())
	return out, err
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
	vals := make([]any, len(coreValues))
	for i, src := range coreValues {
		v, err := coreEval(t, env, src)
		if err != nil {
			t.Fatal(err)
		}
		vals[i] = toCelrt(t, v)
	}
	check := func(expr string, got any, gotErr error) {
		t.Helper()
		out, wantErr := coreEval(t, env, expr)
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
			for _, op := range binary {
				expr := fmt.Sprintf("dyn(%s) %s dyn(%s)", coreValues[i], op.op, coreValues[j])
				got, err := op.f(a, b)
				check(expr, got, err)
				got, err = op.f(asNumber(a), asNumber(b))
				check(expr, got, err)
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
			got, err := celrt.Index(a, b)
			check(fmt.Sprintf("dyn(%s)[dyn(%s)]", coreValues[i], coreValues[j]), got, err)
		}
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
		for _, op := range unary {
			got, err := op.f(a)
			check(fmt.Sprintf(op.format, coreValues[i]), got, err)
			got, err = op.f(asNumber(a))
			check(fmt.Sprintf(op.format, coreValues[i]), got, err)
		}
	}
}

func assertSameEqual(t *testing.T, a, b any, typed bool) {
	t.Helper()
	if want := celrt.Equal(a, b); typed != want {
		t.Errorf("%#v == %#v: typed form %v, Equal %v", a, b, typed, want)
	}
}
