package celrt_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/value"
)

var nan = math.NaN()

// hostileLists are dynamic lists for the differential tests: mixed
// numeric types that CEL's == equates, NaN, signed zeros, nested and
// typed lists, and elements that cannot be ordered.
var hostileLists = [][]any{
	{},
	{int64(1)},
	{int64(3), int64(1), int64(2)},
	{int64(1), uint64(1), 1.0, int64(2)},
	{1.0, int64(1)},
	{nan, nan, 1.0, nan},
	{0.0, math.Copysign(0, -1), 0.0, -1.0},
	{math.Inf(1), math.Inf(-1), 2.5, nan, 0.5},
	{"b", "a", "c", "a"},
	{"é", "e\u0301", "", "\xff"},
	{true, false, true},
	{[]byte("b"), []byte("a"), []byte("b")},
	{uint64(2), uint64(math.MaxUint64), uint64(0)},
	{nil, nil},
	{int64(1), "b", int64(2), "b"},
	{"b", int64(1)},
	{[]any{int64(1)}},
	{[]any{int64(1)}, []any{int64(1)}, []any{1.0}},
	{int64(1), []any{int64(2), []any{int64(3), []any{int64(4)}}}, []any{}, []any{}},
	{[]string{"a", "b"}, "c", []any{[]string{"d"}}},
	{[]any{}, []any{[]any{}}},
}

func TestListFunctionsTable(t *testing.T) {
	ints := func(xs ...int64) []any { return celrt.ListOf(xs) }
	val := func(v any, err error) any {
		if err != nil {
			return err
		}
		return v
	}
	for _, tc := range []struct {
		name string
		got  any
		want any // a value, or the sentinel error
	}{
		{"slice", val(celrt.Slice([]int64{1, 2, 3, 4}, 1, 3)), []int64{2, 3}},
		{"slice to the end", val(celrt.Slice([]int64{1, 2, 3, 4}, 2, 4)), []int64{3, 4}},
		{"slice empty", val(celrt.Slice([]int64{1, 2}, 2, 2)), []int64{}},
		{"slice negative", val(celrt.Slice([]int64{1, 2}, -1, 1)), celrt.ErrIndex},
		{"slice reversed", val(celrt.Slice([]int64{1, 2}, 2, 1)), celrt.ErrInvalid},
		{"slice past the end", val(celrt.Slice([]int64{1, 2}, 0, 3)), celrt.ErrIndex},
		{"flatten", val(celrt.Flatten([]any{int64(1), ints(2, 3), ints(4)})), ints(1, 2, 3, 4)},
		{"flatten one level", val(celrt.Flatten([]any{int64(1), []any{int64(2), ints(3, 4)}})), []any{int64(1), int64(2), ints(3, 4)}},
		{"flatten empty lists", val(celrt.Flatten([]any{int64(1), int64(2), []any{}, []any{}, ints(3, 4)})), ints(1, 2, 3, 4)},
		{"flatten depth", val(celrt.FlattenDepth([]any{int64(1), []any{int64(2), []any{int64(3), ints(4)}}}, 2)), []any{int64(1), int64(2), int64(3), ints(4)}},
		{"flatten depth 0", val(celrt.FlattenDepth([]any{ints(1)}, 0)), []any{ints(1)}},
		{"flatten typed", val(celrt.Flatten([]any{[]string{"a"}, "b"})), []any{"a", "b"}},
		{"flatten negative", val(celrt.FlattenDepth([]any{ints(1)}, -1)), celrt.ErrInvalid},
		{"range", val(celrt.ListsRange(5)), []int64{0, 1, 2, 3, 4}},
		{"range 0", val(celrt.ListsRange(0)), []int64{}},
		{"range negative", val(celrt.ListsRange(-1)), celrt.ErrInvalid},
		{"range too large", val(celrt.ListsRange(celrt.MaxRange + 1)), celrt.ErrInvalid},
		{"reverse", celrt.ReverseList([]int64{5, 3, 1, 2}), []int64{2, 1, 3, 5}},
		{"reverse empty", celrt.ReverseList([]string(nil)), []string{}},
		{"distinct", celrt.Distinct(ints(1, 2, 2, 3, 3, 3)), ints(1, 2, 3)},
		{"distinct strings", celrt.Distinct([]any{"b", "b", "c", "a", "c"}), []any{"b", "c", "a"}},
		{"distinct mixed", celrt.Distinct([]any{int64(1), "b", int64(2), "b"}), []any{int64(1), "b", int64(2)}},
		{"distinct numbers", celrt.Distinct([]any{int64(1), uint64(1), 1.0, value.NumberOf(1)}), ints(1)},
		{"distinct NaN", celrt.Distinct([]any{nan, nan}), []any{nan, nan}},
		{"distinct typed", celrt.DistinctOf([]float64{0, math.Copysign(0, -1), nan, nan}), []float64{0, nan, nan}},
		{"sort", val(celrt.Sort(ints(3, 2, 1))), ints(1, 2, 3)},
		{"sort strings", val(celrt.Sort([]any{"b", "c", "a"})), []any{"a", "b", "c"}},
		{"sort numbers", val(celrt.Sort([]any{value.NumberOf(2), 1.5})), []any{1.5, value.NumberOf(2)}},
		{"sort mixed", val(celrt.Sort([]any{int64(1), "b"})), celrt.ErrNoSuchOverload},
		{"sort int and double", val(celrt.Sort([]any{int64(1), 2.0})), celrt.ErrNoSuchOverload},
		{"sort lists", val(celrt.Sort([]any{ints(1, 2, 3)})), celrt.ErrNoSuchOverload},
		{"sort nulls", val(celrt.Sort([]any{nil})), celrt.ErrNoSuchOverload},
		{"sort typed strings", celrt.SortStrings([]string{"b", "a"}), []string{"a", "b"}},
		{"sort typed ints", celrt.SortInts([]int64{2, -1}), []int64{-1, 2}},
		{"sort typed uints", celrt.SortUints([]uint64{2, 1}), []uint64{1, 2}},
		{"sort typed doubles", celrt.SortDoubles([]float64{2, -1}), []float64{-1, 2}},
		{"sort typed empty", celrt.SortDoubles(nil), []float64{}},
	} {
		if want, isErr := tc.want.(error); isErr {
			if err, ok := tc.got.(error); !ok || !errors.Is(err, want) {
				t.Errorf("%s: got %#v, want an error wrapping %v", tc.name, tc.got, want)
			}
			continue
		}
		if !sameDeep(tc.got, tc.want) {
			t.Errorf("%s: got %#v, want %#v", tc.name, tc.got, tc.want)
		}
	}
}

// sameDeep is same, with value.Number the same as itself.
func sameDeep(a, b any) bool {
	if x, ok := a.([]any); ok {
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameDeep(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	if x, ok := a.(value.Number); ok {
		y, ok := b.(value.Number)
		return ok && x.String() == y.String()
	}
	return same(a, b)
}

func TestListFunctionsAgainstCEL(t *testing.T) {
	for _, l := range hostileLists {
		for _, i := range hostileInts {
			for _, j := range []int64{-1, 0, 1, 2, 3, 4, 5, math.MaxInt64} {
				v := map[string]any{"l": l, "i": i, "j": j}
				got, err := celrt.Slice(l, i, j)
				agree(t, "l.slice(i, j)", v, got, err)
			}
			v := map[string]any{"l": l, "i": i}
			got, err := celrt.FlattenDepth(l, i)
			agree(t, "l.flatten(i)", v, got, err)
		}
		v := map[string]any{"l": l}
		got, err := celrt.Flatten(l)
		agree(t, "l.flatten()", v, got, err)
		agree(t, "l.reverse()", v, celrt.ReverseList(l), nil)
		agree(t, "l.distinct()", v, celrt.Distinct(l), nil)
		got, err = celrt.Sort(l)
		agree(t, "l.sort()", v, got, err)
	}
	for _, n := range []int64{math.MinInt64, -1, 0, 1, 7, celrt.MaxRange, celrt.MaxRange + 1, math.MaxInt64} {
		got, err := celrt.ListsRange(n)
		agree(t, "lists.range(n)", map[string]any{"n": n}, got, err)
	}
}

// TestSortAgainstCEL sorts random lists, long enough for the sort to
// leave insertion sort, with NaN and signed zeros among the doubles,
// where the result depends on the order of comparisons.
func TestSortAgainstCEL(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	doubles := []float64{nan, 0, math.Copysign(0, -1), 1, -1, 2.5, math.Inf(1), math.Inf(-1)}
	for range 300 {
		n := r.IntN(60)
		ds := make([]float64, n)
		is := make([]int64, n)
		us := make([]uint64, n)
		xs := make([]string, n)
		l := make([]any, n)
		for k := range n {
			ds[k] = doubles[r.IntN(len(doubles))]
			is[k] = r.Int64N(20) - 10
			us[k] = r.Uint64N(20)
			xs[k] = hostileStrings[r.IntN(len(hostileStrings))]
			l[k] = ds[k]
		}
		if n > 0 && r.IntN(4) == 0 {
			l[r.IntN(n)] = int64(1) // an int among doubles: an error
		}
		v := map[string]any{"ds": ds, "is": is, "us": us, "xs": xs, "l": l}
		agree(t, "ds.sort()", v, celrt.SortDoubles(ds), nil)
		agree(t, "is.sort()", v, celrt.SortInts(is), nil)
		agree(t, "us.sort()", v, celrt.SortUints(us), nil)
		agree(t, "xs.sort()", v, celrt.SortStrings(xs), nil)
		got, err := celrt.Sort(l)
		agree(t, "l.sort()", v, got, err)
		agree(t, "ds.distinct()", v, celrt.DistinctOf(ds), nil)
		agree(t, "is.reverse()", v, celrt.ReverseList(is), nil)
		got, err = celrt.Sort(celrt.ListOf(xs))
		agree(t, "xs.sort()", v, got, err)
	}
}
