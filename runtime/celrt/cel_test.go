package celrt_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/ext"

	"github.com/permgen/permgen/runtime/celrt"
)

// The differential tests evaluate a call through cel-go, with the
// libraries the formatter language pins, and check that the celrt
// function gives the same value, or that both fail.

// celEnv declares the variables the test expressions use.
var celEnv = sync.OnceValues(func() (*cel.Env, error) {
	return cel.NewEnv(
		cel.OptionalTypes(cel.OptionalTypesVersion(2)),
		ext.Strings(ext.StringsVersion(4)),
		ext.Lists(ext.ListsVersion(3)),
		cel.CrossTypeNumericComparisons(true),
		cel.Variable("s", cel.StringType),
		cel.Variable("a", cel.StringType),
		cel.Variable("b", cel.StringType),
		cel.Variable("i", cel.IntType),
		cel.Variable("j", cel.IntType),
		cel.Variable("n", cel.IntType),
		cel.Variable("xs", cel.ListType(cel.StringType)),
		cel.Variable("is", cel.ListType(cel.IntType)),
		cel.Variable("us", cel.ListType(cel.UintType)),
		cel.Variable("ds", cel.ListType(cel.DoubleType)),
		cel.Variable("l", cel.ListType(cel.DynType)),
	)
})

var celPrograms sync.Map // expression -> cel.Program

func celProgram(t testing.TB, expr string) cel.Program {
	if p, ok := celPrograms.Load(expr); ok {
		return p.(cel.Program)
	}
	env, err := celEnv()
	if err != nil {
		t.Fatal(err)
	}
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		t.Fatalf("%s: %v", expr, iss.Err())
	}
	p, err := env.Program(ast)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	celPrograms.Store(expr, p)
	return p
}

// evalCEL evaluates expr with vars, returning the result in celrt's
// dynamic form.
func evalCEL(t testing.TB, expr string, vars map[string]any) (any, error) {
	out, _, err := celProgram(t, expr).Eval(vars)
	if err != nil {
		return nil, err
	}
	return fromCEL(out), nil
}

// fromCEL converts a cel-go value into celrt's dynamic form.
func fromCEL(v ref.Val) any {
	switch v := v.(type) {
	case types.String:
		return string(v)
	case types.Int:
		return int64(v)
	case types.Uint:
		return uint64(v)
	case types.Double:
		return float64(v)
	case types.Bool:
		return bool(v)
	case types.Bytes:
		return []byte(v)
	case types.Null:
		return nil
	case traits.Lister:
		n := int(v.Size().(types.Int))
		out := make([]any, n)
		for i := range n {
			out[i] = fromCEL(v.Get(types.Int(i)))
		}
		return out
	}
	panic(fmt.Sprintf("unexpected CEL value %T", v))
}

// same reports whether two dynamic values are identical: of one type, with
// NaN the same as NaN and 0.0 not the same as -0.0. A typed list is the
// same as the []any of its elements.
func same(a, b any) bool {
	if celrt.TypeOf(a) == celrt.ListType {
		xs, ys := celrt.Dyn(a).([]any), celrt.Dyn(b)
		if celrt.TypeOf(ys) != celrt.ListType || len(xs) != len(ys.([]any)) {
			return false
		}
		for i := range xs {
			if !same(xs[i], ys.([]any)[i]) {
				return false
			}
		}
		return true
	}
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && (x == y && math.Signbit(x) == math.Signbit(y) || math.IsNaN(x) && math.IsNaN(y))
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	}
	return a == b
}

var sentinels = []error{
	celrt.ErrNoSuchKey, celrt.ErrNoSuchOverload, celrt.ErrOverflow, celrt.ErrDivideByZero,
	celrt.ErrIndex, celrt.ErrConversion, celrt.ErrInvalid,
}

// agree checks that a celrt result matches cel-go's evaluation of expr.
func agree(t testing.TB, expr string, vars map[string]any, got any, gotErr error) {
	t.Helper()
	want, wantErr := evalCEL(t, expr, vars)
	switch {
	case wantErr != nil && gotErr == nil:
		t.Errorf("%s with %#v: got %#v, cel-go fails: %v", expr, vars, got, wantErr)
	case wantErr == nil && gotErr != nil:
		t.Errorf("%s with %#v: got error %v, cel-go gives %#v", expr, vars, gotErr, want)
	case gotErr != nil:
		if !slices.ContainsFunc(sentinels, func(e error) bool { return errors.Is(gotErr, e) }) {
			t.Errorf("%s with %#v: error %v wraps no sentinel error", expr, vars, gotErr)
		}
	case !same(got, want):
		t.Errorf("%s with %#v: got %#v, cel-go gives %#v", expr, vars, got, want)
	}
}
