package celrt

import (
	"bytes"
	"math"
	"strings"

	"github.com/permgen/permgen/runtime/value"
)

func isNumber(v any) bool {
	switch v.(type) {
	case int64, uint64, float64, value.Number:
		return true
	}
	return false
}

// double returns a double or value.Number as a float64.
func double(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case value.Number:
		return v.Float64(), true
	}
	return 0, false
}

// errNaN is an ordering of NaN, which CEL reports as an error. It is
// made without fmt, which a process that answers one call then need not
// start up.
var errNaN error = &wrappedError{"no such overload: NaN values cannot be ordered", ErrNoSuchOverload}

// wrappedError is an error with its own message that wraps err.
type wrappedError struct {
	msg string
	err error
}

func (e *wrappedError) Error() string { return e.msg }
func (e *wrappedError) Unwrap() error { return e.err }

// compareNumbers orders two numbers of any numeric types as CEL does:
// exactly, without rounding an int to a double first where that would
// change the result. NaN cannot be ordered.
func compareNumbers(a, b any) (int, error) {
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return cmpOrdered(x, y), nil
		case uint64:
			return compareIntUint(x, y), nil
		}
		if d, ok := double(b); ok {
			if math.IsNaN(d) {
				return 0, errNaN
			}
			return -compareDoubleInt(d, x), nil
		}
	case uint64:
		switch y := b.(type) {
		case int64:
			return -compareIntUint(y, x), nil
		case uint64:
			return cmpOrdered(x, y), nil
		}
		if d, ok := double(b); ok {
			if math.IsNaN(d) {
				return 0, errNaN
			}
			return -compareDoubleUint(d, x), nil
		}
	default:
		d, ok := double(a)
		if !ok {
			break
		}
		if math.IsNaN(d) {
			return 0, errNaN
		}
		switch y := b.(type) {
		case int64:
			return compareDoubleInt(d, y), nil
		case uint64:
			return compareDoubleUint(d, y), nil
		}
		if e, ok := double(b); ok {
			if math.IsNaN(e) {
				return 0, errNaN
			}
			return cmpOrdered(d, e), nil
		}
	}
	return 0, noOverload("_<_", a, b)
}

func cmpOrdered[T int64 | uint64 | float64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func compareDoubleInt(d float64, i int64) int {
	if d < math.MinInt64 {
		return -1
	}
	if d > math.MaxInt64 {
		return 1
	}
	return cmpOrdered(d, float64(i))
}

func compareDoubleUint(d float64, u uint64) int {
	if d < 0 {
		return -1
	}
	if d > math.MaxUint64 {
		return 1
	}
	return cmpOrdered(d, float64(u))
}

func compareIntUint(i int64, u uint64) int {
	if i < 0 || u > math.MaxInt64 {
		return -1
	}
	return cmpOrdered(i, int64(u))
}

// numberEqual compares two numbers of any numeric types; NaN equals
// nothing.
func numberEqual(a, b any) bool {
	c, err := compareNumbers(a, b)
	return err == nil && c == 0
}

// Equal is CEL's ==: numbers compare by value across int, uint and
// double, lists and maps element by element, and values of different
// types are not equal.
func Equal(a, b any) bool {
	if isNumber(a) {
		return isNumber(b) && numberEqual(a, b)
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case Type:
		y, ok := b.(Type)
		return ok && x == y
	case Optional[any]:
		y, ok := b.(Optional[any])
		return ok && x.Ok == y.Ok && (!x.Ok || Equal(x.Value, y.Value))
	case []any, []string, []int64, []uint64, []float64, []bool:
		xs, ys := Dyn(a).([]any), list(b)
		if ys == nil && TypeOf(b) != ListType || len(xs) != len(ys) {
			return false
		}
		for i := range xs {
			if !Equal(xs[i], ys[i]) {
				return false
			}
		}
		return true
	case *value.Object, *Map:
		if TypeOf(b) != MapType || mapLen(a) != mapLen(b) {
			return false
		}
		equal := true
		eachEntry(a, func(k, v any) bool {
			w, found := mapFind(b, k)
			equal = found && Equal(v, w)
			return equal
		})
		return equal
	}
	return a == b
}

// list returns a list value as []any, or nil when v is not a list.
func list(v any) []any {
	l, _ := Dyn(v).([]any)
	return l
}

func mapLen(m any) int {
	switch m := m.(type) {
	case *value.Object:
		return m.Len()
	case *Map:
		return m.Len()
	}
	return 0
}

// mapFind looks key up in a map value.
func mapFind(m any, key any) (any, bool) {
	switch m := m.(type) {
	case *value.Object:
		k, ok := key.(string)
		if !ok {
			return nil, false
		}
		return m.Get(k)
	case *Map:
		return m.Find(key)
	}
	return nil, false
}

// eachEntry calls f with each key and value of a map in order, until f
// returns false.
func eachEntry(m any, f func(k, v any) bool) {
	switch m := m.(type) {
	case *value.Object:
		for i := range m.Len() {
			k, v := m.At(i)
			if !f(k, v) {
				return
			}
		}
	case *Map:
		for i := range m.Len() {
			if !f(m.At(i)) {
				return
			}
		}
	}
}

// Compare orders two values as CEL's <, <=, > and >= do: numbers across
// types, strings and bytes lexically by byte, false before true. Values
// that cannot be ordered are an error.
func Compare(a, b any) (int, error) {
	if isNumber(a) {
		return compareNumbers(a, b)
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), nil
		}
	case []byte:
		if y, ok := b.([]byte); ok {
			return bytes.Compare(x, y), nil
		}
	case bool:
		if y, ok := b.(bool); ok {
			switch {
			case x == y:
				return 0, nil
			case !x:
				return -1, nil
			}
			return 1, nil
		}
	}
	return 0, noOverload("_<_", a, b)
}

// Less is CEL's < on any two values. As in cel-go, an ordering of a
// value of an ordered type with NaN on either side is false, whatever the
// other side is.
func Less(a, b any) (bool, error) {
	if orderable(a) && (isNaN(a) || isNaN(b)) {
		return false, nil
	}
	c, err := Compare(a, b)
	return c < 0, err
}

// LessEqual is CEL's <= on any two values.
func LessEqual(a, b any) (bool, error) {
	if orderable(a) && (isNaN(a) || isNaN(b)) {
		return false, nil
	}
	c, err := Compare(a, b)
	return err == nil && c <= 0, err
}

// Greater is CEL's > on any two values.
func Greater(a, b any) (bool, error) {
	if orderable(a) && (isNaN(a) || isNaN(b)) {
		return false, nil
	}
	c, err := Compare(a, b)
	return c > 0, err
}

// GreaterEqual is CEL's >= on any two values.
func GreaterEqual(a, b any) (bool, error) {
	if orderable(a) && (isNaN(a) || isNaN(b)) {
		return false, nil
	}
	c, err := Compare(a, b)
	return err == nil && c >= 0, err
}

// orderable reports whether v is of a type CEL orders, whatever the
// other side is.
func orderable(v any) bool {
	switch v.(type) {
	case bool, int64, uint64, float64, value.Number, string, []byte:
		return true
	}
	return false
}

func isNaN(v any) bool {
	d, ok := double(v)
	return ok && math.IsNaN(d)
}

// In is CEL's "in": whether a list holds an element equal to v, or a map
// has the key v.
func In(v, container any) (bool, error) {
	switch TypeOf(container) {
	case ListType:
		for _, e := range list(container) {
			if Equal(v, e) {
				return true, nil
			}
		}
		return false, nil
	case MapType:
		if _, isBytes := v.([]byte); isBytes && mapLen(container) > 0 {
			// cel-go fails hashing bytes to look them up
			return false, noOverload("@in", v, container)
		}
		_, found := mapFind(container, normalKey(v))
		return found, nil
	}
	return false, noOverload("@in", v, container)
}

// normalKey turns a whole double into the int it stands for, so that a
// double finds a numeric key.
func normalKey(k any) any {
	if d, ok := double(k); ok {
		if i := int64(d); float64(i) == d && d >= math.MinInt64 && d < math.MaxInt64 {
			return i
		}
		if u := uint64(d); float64(u) == d && d >= 0 && d < math.MaxUint64 {
			return u
		}
	}
	return k
}

// EqualString is a == s for a dynamic value and a string: Equal without
// boxing s.
func EqualString(a any, s string) bool {
	t, ok := a.(string)
	return ok && t == s
}

// EqualBool is a == b for a dynamic value and a bool.
func EqualBool(a any, b bool) bool {
	t, ok := a.(bool)
	return ok && t == b
}

// EqualInt is a == i for a dynamic value and an int: numbers compare by
// value across types.
func EqualInt(a any, i int64) bool {
	switch x := a.(type) {
	case int64:
		return x == i
	case uint64:
		return compareIntUint(i, x) == 0
	}
	if d, ok := double(a); ok {
		return !math.IsNaN(d) && compareDoubleInt(d, i) == 0
	}
	return false
}

// EqualDouble is a == d for a dynamic value and a double.
func EqualDouble(a any, d float64) bool {
	if math.IsNaN(d) {
		return false
	}
	switch x := a.(type) {
	case int64:
		return compareDoubleInt(d, x) == 0
	case uint64:
		return compareDoubleUint(d, x) == 0
	}
	e, ok := double(a)
	return ok && e == d
}
