package celrt

import (
	"fmt"
	"slices"
	"sort"
)

// The functions of CEL's lists extension library, at the version the
// formatter language pins (cel-go's ext.Lists, version 3). Each returns a
// new list and leaves its argument as it was.

// MaxRange is the largest n lists.range(n) accepts, cel-go's default.
const MaxRange = 1_000_000

// Slice is xs.slice(start, end): the elements from start up to, not
// including, end. Both must be between 0 and size(xs), and start must not
// be after end.
func Slice[T any](xs []T, start, end int64) ([]T, error) {
	switch {
	case start < 0 || end < 0:
		return nil, fmt.Errorf("%w: slice(%d, %d): a negative index", ErrIndex, start, end)
	case start > end:
		return nil, fmt.Errorf("%w: slice(%d, %d): start after end", ErrInvalid, start, end)
	case end > int64(len(xs)):
		return nil, fmt.Errorf("%w: slice(%d, %d) of a list of %d elements", ErrIndex, start, end, len(xs))
	}
	out := make([]T, end-start)
	copy(out, xs[start:end])
	return out, nil
}

// Flatten is xs.flatten(): xs with each element that is a list replaced by
// its elements, one level deep.
func Flatten(xs []any) ([]any, error) { return FlattenDepth(xs, 1) }

// FlattenDepth is xs.flatten(depth): xs with lists inside it replaced by
// their elements, down to depth levels. A negative depth is an error.
func FlattenDepth(xs []any, depth int64) ([]any, error) {
	if depth < 0 {
		return nil, fmt.Errorf("%w: flatten(%d): a negative depth", ErrInvalid, depth)
	}
	return appendFlat([]any{}, xs, depth), nil
}

func appendFlat(out, xs []any, depth int64) []any {
	for _, x := range xs {
		if depth > 0 && TypeOf(x) == ListType {
			out = appendFlat(out, list(x), depth-1)
		} else {
			out = append(out, x)
		}
	}
	return out
}

// ListsRange is lists.range(n): the ints 0 to n-1. A negative n, or one
// above MaxRange, is an error.
func ListsRange(n int64) ([]int64, error) {
	if n < 0 || n > MaxRange {
		return nil, fmt.Errorf("%w: lists.range(%d): the size must be between 0 and %d", ErrInvalid, n, MaxRange)
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i)
	}
	return out, nil
}

// ReverseList is xs.reverse(): the elements of xs in reverse order.
func ReverseList[T any](xs []T) []T {
	out := slices.Clone(xs)
	if out == nil {
		out = []T{}
	}
	slices.Reverse(out)
	return out
}

// Distinct is xs.distinct(): the elements of xs without those equal (by
// CEL's ==) to an earlier one, in order. 1, 1u and 1.0 are equal; NaN is
// kept each time, as it equals nothing.
func Distinct(xs []any) []any {
	out := []any{}
	for _, x := range xs {
		if !slices.ContainsFunc(out, func(y any) bool { return Equal(x, y) }) {
			out = append(out, x)
		}
	}
	return out
}

// DistinctOf is xs.distinct() on a typed list, where CEL's == is Go's.
func DistinctOf[T bool | int64 | uint64 | float64 | string](xs []T) []T {
	out := []T{}
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// Sort is xs.sort(): the elements of xs in ascending order. They must all
// have one type that can be ordered (bool, int, uint, double, string or
// bytes); an int and a double do not sort together. NaN is ordered
// neither before nor after anything, and lands where cel-go's sort puts
// it.
func Sort(xs []any) ([]any, error) {
	out := slices.Clone(xs)
	if len(out) == 0 {
		return []any{}, nil
	}
	t := TypeOf(out[0])
	switch t {
	case BoolType, IntType, UintType, DoubleType, StringType, BytesType:
	default:
		return nil, fmt.Errorf("%w: sort: elements of type %s cannot be ordered", ErrNoSuchOverload, t)
	}
	var err error
	// sort.Slice, not a stable or other sort: with NaN, or 0.0 and -0.0,
	// the result depends on the algorithm, and this is the one cel-go
	// uses, given the same comparisons.
	sort.Slice(out, func(i, j int) bool {
		if TypeOf(out[i]) != t || TypeOf(out[j]) != t {
			err = fmt.Errorf("%w: sort: elements of types %s and %s", ErrNoSuchOverload, TypeOf(out[i]), TypeOf(out[j]))
			return false
		}
		c, cerr := Compare(out[i], out[j])
		return cerr == nil && c < 0
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SortStrings is xs.sort() on a list of strings.
func SortStrings(xs []string) []string { return sortedOf(xs) }

// SortInts is xs.sort() on a list of ints.
func SortInts(xs []int64) []int64 { return sortedOf(xs) }

// SortUints is xs.sort() on a list of uints.
func SortUints(xs []uint64) []uint64 { return sortedOf(xs) }

// SortDoubles is xs.sort() on a list of doubles. NaN lands where cel-go's
// sort puts it (see Sort).
func SortDoubles(xs []float64) []float64 { return sortedOf(xs) }

// sortedOf sorts a copy of xs with the algorithm Sort uses.
func sortedOf[T int64 | uint64 | float64 | string](xs []T) []T {
	out := slices.Clone(xs)
	if out == nil {
		out = []T{}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
