package celrt

import (
	"fmt"
	"math"

	"github.com/permgen/permgen/runtime/value"
)

// The declared input of a formatter: a catalog entry may declare the
// types of its input's fields. A declared field that is absent or null
// reads as its type's zero value; a value of another type is an error, so
// that the formatter fails rather than misformats. These are the rules of
// the interpreter (package celfmt) for the same declarations.

// Field returns a declared dyn field: its value, or null when absent.
func Field(input *value.Object, name string) any {
	v, _ := input.Get(name)
	return v
}

// FieldSet is has(input.f) for a declared field: present and not null.
func FieldSet(input *value.Object, name string) bool {
	v, ok := input.Get(name)
	return ok && v != nil
}

// FieldOf reads a declared field of a type other than dyn with conv,
// which checks and converts a non-null value; zero is what an absent or
// null field reads as.
func FieldOf[T any](input *value.Object, name string, zero T, conv func(any) (T, error)) (T, error) {
	v, _ := input.Get(name)
	if v == nil {
		return zero, nil
	}
	t, err := conv(v)
	if err != nil {
		return zero, fmt.Errorf("input field %s: %w", name, err)
	}
	return t, nil
}

// mismatch is a declared field's value of another type, worded as the
// interpreter words it: "want int, got string".
func mismatch(want string, v any) error {
	return &wrappedError{fmt.Sprintf("want %s, got %s", want, value.Kind(v)), ErrNoSuchOverload}
}

// InputString checks a declared string.
func InputString(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	return "", mismatch("string", v)
}

// InputBool checks a declared bool.
func InputBool(v any) (bool, error) {
	if b, ok := v.(bool); ok {
		return b, nil
	}
	return false, mismatch("bool", v)
}

// InputDouble checks a declared double: any number.
func InputDouble(v any) (float64, error) {
	if d, ok := double(v); ok {
		return d, nil
	}
	return 0, mismatch("double", v)
}

// InputInt checks a declared int: a whole number in the int range, read
// from the digits the call wrote.
func InputInt(v any) (int64, error) {
	switch n := v.(type) {
	case int64:
		return n, nil
	case value.Number:
		if i, ok := n.Int64(); ok {
			return i, nil
		}
		got := "a number that is not an integer"
		if f := math.Abs(n.Float64()); f >= math.MaxInt64 && !math.IsNaN(f) {
			got = "a number outside the int range"
		}
		return 0, &wrappedError{"want int, got " + got, ErrNoSuchOverload}
	case float64:
		return InputInt(value.NumberOf(n))
	}
	return 0, mismatch("int", v)
}

// InputDyn accepts any value.
func InputDyn(v any) (any, error) { return v, nil }

// InputList checks a declared list whose elements conv checks. A null
// element is a mismatch unless the element type is dyn.
func InputList[T any](conv func(any) (T, error)) func(any) ([]T, error) {
	return func(v any) ([]T, error) {
		xs, ok := v.([]any)
		if !ok {
			return nil, mismatch("list", v)
		}
		out := make([]T, len(xs))
		for i, x := range xs {
			e, err := conv(x)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			out[i] = e
		}
		return out, nil
	}
}

// InputMap checks a declared map(string, T) whose values conv checks; the
// map keeps the input's order.
func InputMap[T any](conv func(any) (T, error)) func(any) (any, error) {
	return func(v any) (any, error) {
		o, ok := v.(*value.Object)
		if !ok {
			return nil, mismatch("map", v)
		}
		keys := make([]string, o.Len())
		values := make([]any, o.Len())
		for i := range o.Len() {
			k, x := o.At(i)
			e, err := conv(x)
			if err != nil {
				return nil, fmt.Errorf("key %q: %w", k, err)
			}
			keys[i], values[i] = k, Dyn(e)
		}
		m := newStringMap(keys, values)
		m.input = true
		return m, nil
	}
}
