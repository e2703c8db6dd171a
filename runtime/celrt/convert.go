package celrt

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/value"
)

// Dyn returns a value in its dynamic form (see the package documentation):
// a typed list becomes []any and a typed optional Optional[any].
func Dyn(v any) any {
	switch v := v.(type) {
	case []string:
		return ListOf(v)
	case []int64:
		return ListOf(v)
	case []uint64:
		return ListOf(v)
	case []float64:
		return ListOf(v)
	case []bool:
		return ListOf(v)
	case Optional[string]:
		return Optional[any]{Value: v.Value, Ok: v.Ok}
	case Optional[int64]:
		return Optional[any]{Value: v.Value, Ok: v.Ok}
	case Optional[float64]:
		return Optional[any]{Value: v.Value, Ok: v.Ok}
	case Optional[bool]:
		return Optional[any]{Value: v.Value, Ok: v.Ok}
	}
	return v
}

// ListOf returns a typed list as a list of dyn.
func ListOf[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = Dyn(x)
	}
	return out
}

// OptionalOf returns a typed optional as an optional of dyn.
func OptionalOf[T any](o Optional[T]) Optional[any] {
	if !o.Ok {
		return Optional[any]{}
	}
	return Optional[any]{Value: Dyn(o.Value), Ok: true}
}

// AsString returns a dynamic value that must be a string.
func AsString(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	return "", noOverload("string", v)
}

// AsBool returns a dynamic value that must be a bool.
func AsBool(v any) (bool, error) {
	if b, ok := v.(bool); ok {
		return b, nil
	}
	return false, noOverload("bool", v)
}

// AsInt returns a dynamic value that must be an int.
func AsInt(v any) (int64, error) {
	if i, ok := v.(int64); ok {
		return i, nil
	}
	return 0, noOverload("int", v)
}

// AsUint returns a dynamic value that must be a uint.
func AsUint(v any) (uint64, error) {
	if u, ok := v.(uint64); ok {
		return u, nil
	}
	return 0, noOverload("uint", v)
}

// AsDouble returns a dynamic value that must be a double.
func AsDouble(v any) (float64, error) {
	if d, ok := double(v); ok {
		return d, nil
	}
	return 0, noOverload("double", v)
}

// AsBytes returns a dynamic value that must be bytes.
func AsBytes(v any) ([]byte, error) {
	if b, ok := v.([]byte); ok {
		return b, nil
	}
	return nil, noOverload("bytes", v)
}

// AsType returns a dynamic value that must be a type.
func AsType(v any) (Type, error) {
	if t, ok := v.(Type); ok {
		return t, nil
	}
	return Type{}, noOverload("type", v)
}

// AsList returns a dynamic value that must be a list, its elements
// converted by elem.
func AsList[T any](v any, elem func(any) (T, error)) ([]T, error) {
	if xs, ok := v.([]T); ok {
		return xs, nil
	}
	if TypeOf(v) != ListType {
		return nil, noOverload("list", v)
	}
	xs := list(v)
	out := make([]T, len(xs))
	for i, x := range xs {
		e, err := elem(x)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// AsDynList returns a dynamic value that must be a list.
func AsDynList(v any) ([]any, error) {
	if TypeOf(v) != ListType {
		return nil, noOverload("list", v)
	}
	return list(v), nil
}

// AsMap returns a dynamic value that must be a map.
func AsMap(v any) (any, error) {
	if TypeOf(v) != MapType {
		return nil, noOverload("map", v)
	}
	return v, nil
}

// AsOptional returns a dynamic value that must be an optional, its value
// converted by elem.
func AsOptional[T any](v any, elem func(any) (T, error)) (Optional[T], error) {
	o, ok := v.(Optional[any])
	if !ok {
		return Optional[T]{}, noOverload("optional", v)
	}
	if !o.Ok {
		return Optional[T]{}, nil
	}
	e, err := elem(o.Value)
	if err != nil {
		return Optional[T]{}, err
	}
	return Of(e), nil
}

// AsDyn returns v: the conversion of a dynamic value to dyn, for use with
// AsList and AsOptional.
func AsDyn(v any) (any, error) { return v, nil }

// ToString is CEL's string(v).
func ToString(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case uint64:
		return strconv.FormatUint(v, 10), nil
	case float64:
		return DoubleToString(v), nil
	case value.Number:
		return DoubleToString(v.Float64()), nil
	case bool:
		return strconv.FormatBool(v), nil
	case []byte:
		return BytesToString(v)
	}
	// CEL has no conversion of the other types: string(null) is
	// applied to operands of another type, not a conversion that failed.
	return "", noOverload("string", v)
}

// DoubleToString is string(d) for a double: Go's %g.
func DoubleToString(d float64) string { return fmt.Sprintf("%g", d) }

// BytesToString is string(b) for bytes, which must be valid UTF-8.
func BytesToString(b []byte) (string, error) {
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%w: invalid UTF-8 in bytes, cannot convert to string", ErrConversion)
	}
	return string(b), nil
}

func conversionError(v any, to Type) error {
	return fmt.Errorf("%w from '%s' to '%s'", ErrConversion, TypeOf(v), to)
}

// ToInt is CEL's int(v).
func ToInt(v any) (int64, error) {
	switch v := v.(type) {
	case int64:
		return v, nil
	case uint64:
		return UintToInt(v)
	case float64:
		return DoubleToInt(v)
	case value.Number:
		return DoubleToInt(v.Float64())
	case string:
		return StringToInt(v)
	}
	// CEL has no conversion of the other types: string(null) is
	// applied to operands of another type, not a conversion that failed.
	return 0, noOverload("int", v)
}

// UintToInt is int(u) for a uint.
func UintToInt(u uint64) (int64, error) {
	if u > math.MaxInt64 {
		return 0, fmt.Errorf("%w: uint %d to int", ErrOverflow, u)
	}
	return int64(u), nil
}

// DoubleToInt is int(d) for a double: truncated toward zero, and an error
// out of the int range.
func DoubleToInt(d float64) (int64, error) {
	if math.IsNaN(d) || d <= math.MinInt64 || d >= math.MaxInt64 {
		return 0, fmt.Errorf("%w: double %g to int", ErrOverflow, d)
	}
	return int64(d), nil
}

// StringToInt is int(s) for a string of decimal digits.
func StringToInt(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, conversionError(s, IntType)
	}
	return n, nil
}

// ToUint is CEL's uint(v).
func ToUint(v any) (uint64, error) {
	switch v := v.(type) {
	case uint64:
		return v, nil
	case int64:
		return IntToUint(v)
	case float64:
		return DoubleToUint(v)
	case value.Number:
		return DoubleToUint(v.Float64())
	case string:
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return 0, conversionError(v, UintType)
		}
		return n, nil
	}
	// CEL has no conversion of the other types: string(null) is
	// applied to operands of another type, not a conversion that failed.
	return 0, noOverload("uint", v)
}

// IntToUint is uint(i) for an int.
func IntToUint(i int64) (uint64, error) {
	if i < 0 {
		return 0, fmt.Errorf("%w: int %d to uint", ErrOverflow, i)
	}
	return uint64(i), nil
}

// DoubleToUint is uint(d) for a double.
func DoubleToUint(d float64) (uint64, error) {
	if math.IsNaN(d) || d < 0 || d >= 18446744073709551616.0 {
		return 0, fmt.Errorf("%w: double %g to uint", ErrOverflow, d)
	}
	return uint64(d), nil
}

// ToDouble is CEL's double(v).
func ToDouble(v any) (float64, error) {
	switch v := v.(type) {
	case float64:
		return v, nil
	case value.Number:
		return v.Float64(), nil
	case int64:
		return float64(v), nil
	case uint64:
		return float64(v), nil
	case string:
		return StringToDouble(v)
	}
	// CEL has no conversion of the other types: string(null) is
	// applied to operands of another type, not a conversion that failed.
	return 0, noOverload("double", v)
}

// StringToDouble is double(s) for a string.
func StringToDouble(s string) (float64, error) {
	d, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, conversionError(s, DoubleType)
	}
	return d, nil
}

// ToBool is CEL's bool(v).
func ToBool(v any) (bool, error) {
	switch v := v.(type) {
	case bool:
		return v, nil
	case string:
		return StringToBool(v)
	}
	// CEL has no conversion of the other types: string(null) is
	// applied to operands of another type, not a conversion that failed.
	return false, noOverload("bool", v)
}

// StringToBool is bool(s) for a string, as strconv.ParseBool reads it.
func StringToBool(s string) (bool, error) {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, conversionError(s, BoolType)
	}
	return b, nil
}

// ToBytes is CEL's bytes(v).
func ToBytes(v any) ([]byte, error) {
	switch v := v.(type) {
	case []byte:
		return v, nil
	case string:
		return []byte(v), nil
	}
	// CEL has no conversion of the other types: string(null) is
	// applied to operands of another type, not a conversion that failed.
	return nil, noOverload("bytes", v)
}

// Lazy is a cel.bind variable that cel-go computes the first time the
// expression reads it, and not at all when it does not.
type Lazy[T any] struct {
	v    T
	err  error
	done bool
}

// Get returns the variable's value, computing it with f the first time.
func (l *Lazy[T]) Get(f func() (T, error)) (T, error) {
	if !l.done {
		l.v, l.err = f()
		l.done = true
	}
	return l.v, l.err
}
