package celrt

import (
	"fmt"
	"math"
)

func overflow(op string, a, b any) error {
	return fmt.Errorf("%w: %v %s %v", ErrOverflow, a, op, b)
}

// AddInt is CEL's + on ints: an error on overflow.
func AddInt(a, b int64) (int64, error) {
	if (b > 0 && a > math.MaxInt64-b) || (b < 0 && a < math.MinInt64-b) {
		return 0, overflow("+", a, b)
	}
	return a + b, nil
}

// SubInt is CEL's - on ints.
func SubInt(a, b int64) (int64, error) {
	if (b < 0 && a > math.MaxInt64+b) || (b > 0 && a < math.MinInt64+b) {
		return 0, overflow("-", a, b)
	}
	return a - b, nil
}

// MulInt is CEL's * on ints.
func MulInt(a, b int64) (int64, error) {
	if a != 0 && b != 0 {
		p := a * b
		if (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) || p/b != a {
			return 0, overflow("*", a, b)
		}
		return p, nil
	}
	return 0, nil
}

// DivInt is CEL's / on ints.
func DivInt(a, b int64) (int64, error) {
	if b == 0 {
		return 0, fmt.Errorf("%w: %d / 0", ErrDivideByZero, a)
	}
	if a == math.MinInt64 && b == -1 {
		return 0, overflow("/", a, b)
	}
	return a / b, nil
}

// ModInt is CEL's % on ints.
func ModInt(a, b int64) (int64, error) {
	if b == 0 {
		return 0, fmt.Errorf("%w: modulus %d %% 0", ErrDivideByZero, a)
	}
	if a == math.MinInt64 && b == -1 {
		return 0, overflow("%", a, b)
	}
	return a % b, nil
}

// NegInt is CEL's unary - on an int.
func NegInt(a int64) (int64, error) {
	if a == math.MinInt64 {
		return 0, overflow("-", 0, a)
	}
	return -a, nil
}

// AddUint is CEL's + on uints.
func AddUint(a, b uint64) (uint64, error) {
	if a > math.MaxUint64-b {
		return 0, overflow("+", a, b)
	}
	return a + b, nil
}

// SubUint is CEL's - on uints.
func SubUint(a, b uint64) (uint64, error) {
	if b > a {
		return 0, overflow("-", a, b)
	}
	return a - b, nil
}

// MulUint is CEL's * on uints.
func MulUint(a, b uint64) (uint64, error) {
	if b != 0 && a > math.MaxUint64/b {
		return 0, overflow("*", a, b)
	}
	return a * b, nil
}

// DivUint is CEL's / on uints.
func DivUint(a, b uint64) (uint64, error) {
	if b == 0 {
		return 0, fmt.Errorf("%w: %d / 0", ErrDivideByZero, a)
	}
	return a / b, nil
}

// ModUint is CEL's % on uints.
func ModUint(a, b uint64) (uint64, error) {
	if b == 0 {
		return 0, fmt.Errorf("%w: modulus %d %% 0", ErrDivideByZero, a)
	}
	return a % b, nil
}

// Concat is CEL's + on lists: a new list of the elements of each.
func Concat[T any](lists ...[]T) []T {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	out := make([]T, 0, n)
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// Add is CEL's + on dynamic values: ints, uints and doubles of one type,
// strings, bytes and lists.
func Add(a, b any) (any, error) {
	switch x := a.(type) {
	case int64:
		if y, ok := b.(int64); ok {
			return AddInt(x, y)
		}
	case uint64:
		if y, ok := b.(uint64); ok {
			return AddUint(x, y)
		}
	case string:
		if y, ok := b.(string); ok {
			return x + y, nil
		}
	case []byte:
		if y, ok := b.([]byte); ok {
			return Concat(x, y), nil
		}
	default:
		if d, ok := double(a); ok {
			if e, ok := double(b); ok {
				return d + e, nil
			}
		} else if TypeOf(a) == ListType && TypeOf(b) == ListType {
			return Concat(list(a), list(b)), nil
		}
	}
	return nil, noOverload("_+_", a, b)
}

// arith applies an arithmetic operator of ints, uints and doubles to two
// dynamic values of one numeric type.
func arith(op string, a, b any, ints func(int64, int64) (int64, error), uints func(uint64, uint64) (uint64, error), doubles func(float64, float64) float64) (any, error) {
	switch x := a.(type) {
	case int64:
		if y, ok := b.(int64); ok {
			return ints(x, y)
		}
	case uint64:
		if y, ok := b.(uint64); ok {
			return uints(x, y)
		}
	default:
		if d, ok := double(a); ok && doubles != nil {
			if e, ok := double(b); ok {
				return doubles(d, e), nil
			}
		}
	}
	return nil, noOverload(op, a, b)
}

// Sub is CEL's - on dynamic values.
func Sub(a, b any) (any, error) {
	return arith("_-_", a, b, SubInt, SubUint, func(x, y float64) float64 { return x - y })
}

// Mul is CEL's * on dynamic values.
func Mul(a, b any) (any, error) {
	return arith("_*_", a, b, MulInt, MulUint, func(x, y float64) float64 { return x * y })
}

// Div is CEL's / on dynamic values.
func Div(a, b any) (any, error) {
	return arith("_/_", a, b, DivInt, DivUint, func(x, y float64) float64 { return x / y })
}

// Mod is CEL's % on dynamic values: ints and uints only.
func Mod(a, b any) (any, error) {
	return arith("_%_", a, b, ModInt, ModUint, nil)
}

// Neg is CEL's unary - on a dynamic value.
func Neg(a any) (any, error) {
	switch x := a.(type) {
	case int64:
		return NegInt(x)
	default:
		if d, ok := double(a); ok {
			return -d, nil
		}
	}
	return nil, noOverload("-_", a)
}

// Not is CEL's ! on a dynamic value.
func Not(a any) (bool, error) {
	b, ok := a.(bool)
	if !ok {
		return false, noOverload("!_", a)
	}
	return !b, nil
}
