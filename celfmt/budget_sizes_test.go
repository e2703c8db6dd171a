package celfmt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/stretchr/testify/assert"

	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/value"
)

// TestBudgetSizesAreCelrts: the interpreter charges a call the size that
// translated code charges it (celrt.CallSize), for every function the
// budget sizes, on strings, bytes, ints, lists and input objects, with
// limits that stop the count early: a call the interpreter stops for its
// size stops in generated code at the same place.
func TestBudgetSizesAreCelrts(t *testing.T) {
	obj := value.NewObject("k", strings.Repeat("v", 40), "n", []any{"a", 1.5})
	pool := []any{
		"", "x", "xyx", strings.Repeat("ab", 300), "%d and %s %.3f", []byte("bytes"),
		int64(0), int64(2), int64(-1), int64(1 << 20),
		[]any{}, []any{"a", "bb", int64(3)}, []any{[]any{"a", []any{"b"}}, "c"}, []string{"p", "qq"},
		[]any{obj, "x"}, obj,
	}
	toVal := func(v any) ref.Val {
		switch v := v.(type) {
		case *value.Object:
			return objectVal{o: v}
		case []any:
			elems := make([]ref.Val, len(v))
			for i, e := range v {
				if o, ok := e.(*value.Object); ok {
					elems[i] = objectVal{o: o}
				} else {
					elems[i] = types.DefaultTypeAdapter.NativeToValue(e)
				}
			}
			return types.NewRefValList(types.DefaultTypeAdapter, elems)
		}
		return types.DefaultTypeAdapter.NativeToValue(v)
	}
	var tuples [][]any
	for _, a := range pool {
		tuples = append(tuples, []any{a})
		for _, b := range pool {
			tuples = append(tuples, []any{a, b})
			for _, c := range pool[:10] {
				tuples = append(tuples, []any{a, b, c})
			}
		}
	}
	compared := 0
	for fn, size := range budgeted {
		if !assert.True(t, celrt.Sized(fn), "%s is sized by the interpreter, not by celrt", fn) {
			continue
		}
		for _, args := range tuples {
			if fn == "mcpValue" {
				// A list built in CEL is copied, an input list is not:
				// generated code holds both as []any (see celrt).
				if _, ok := args[0].([]any); ok {
					continue
				}
			}
			vals := make([]ref.Val, len(args))
			for i, a := range args {
				vals[i] = toVal(a)
			}
			for _, limit := range []int64{1 << 40, 100, 0} {
				want, ok := sizeOrPanic(size, vals, limit)
				if !ok {
					continue // an arity the checker rejects: the interpreter's sizer assumes it
				}
				got := celrt.CallSize(fn, limit, args...)
				assert.Equal(t, want, got, "%s%s with limit %d", fn, fmt.Sprint(args), limit)
				compared++
			}
		}
	}
	t.Logf("%d calls compared", compared)
}

func sizeOrPanic(size sizer, args []ref.Val, limit int64) (n int64, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return size(args, limit), true
}
