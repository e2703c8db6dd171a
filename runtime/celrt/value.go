package celrt

import (
	"errors"
	"fmt"
	"math"
	"reflect"

	"github.com/permgen/permgen/runtime/value"
)

// The errors of an evaluation. CEL code cannot catch them: && and ||
// absorb an error when the other side decides the result, and anything
// else fails the evaluation. Errors the functions return wrap one of these.
var (
	// ErrNoSuchKey is a field or key that a map does not have.
	ErrNoSuchKey = errors.New("no such key")
	// ErrNoSuchOverload is a function applied to values of types it does
	// not take.
	ErrNoSuchOverload = errors.New("no such overload")
	// ErrOverflow is integer arithmetic or a conversion out of range.
	ErrOverflow = errors.New("integer overflow")
	// ErrDivideByZero is an integer division or modulus by zero.
	ErrDivideByZero = errors.New("division by zero")
	// ErrIndex is an index out of range, or not a whole number.
	ErrIndex = errors.New("index out of range")
	// ErrConversion is a conversion of a value that cannot be converted
	// ("x" to an int).
	ErrConversion = errors.New("type conversion error")
	// ErrInvalid is any other invalid argument (a duplicate map key, a
	// negative count, an optional with no value).
	ErrInvalid = errors.New("invalid argument")
)

// noOverload reports a function applied to values of other types.
func noOverload(fn string, args ...any) error {
	kinds := make([]string, len(args))
	for i, a := range args {
		kinds[i] = TypeOf(a).Name
	}
	return fmt.Errorf("%w: %s", ErrNoSuchOverload, Signature(fn, kinds))
}

// Type is a CEL type as a value: what type(x) returns.
type Type struct{ Name string }

// The types type(x) returns.
var (
	NullType     = Type{"null_type"}
	BoolType     = Type{"bool"}
	IntType      = Type{"int"}
	UintType     = Type{"uint"}
	DoubleType   = Type{"double"}
	StringType   = Type{"string"}
	BytesType    = Type{"bytes"}
	ListType     = Type{"list"}
	MapType      = Type{"map"}
	TypeType     = Type{"type"}
	OptionalType = Type{"optional_type"}
)

// String returns the type's name.
func (t Type) String() string { return t.Name }

// TypeOf returns the CEL type of a dynamic value. A Go value celrt does
// not know is the type named by its Go type.
func TypeOf(v any) Type {
	switch v.(type) {
	case nil:
		return NullType
	case bool:
		return BoolType
	case int64:
		return IntType
	case uint64:
		return UintType
	case float64, value.Number:
		return DoubleType
	case string:
		return StringType
	case []byte:
		return BytesType
	case []any, []string, []int64, []uint64, []float64, []bool:
		return ListType
	case *value.Object, *Map:
		return MapType
	case Type:
		return TypeType
	case Optional[any]:
		return OptionalType
	}
	return Type{reflect.TypeOf(v).String()}
}

// Optional is CEL's optional value: a value, or none.
type Optional[T any] struct {
	Value T
	Ok    bool
}

// Of returns an optional holding v.
func Of[T any](v T) Optional[T] { return Optional[T]{Value: v, Ok: true} }

// None returns the empty optional.
func None[T any]() Optional[T] { return Optional[T]{} }

// OfNonZero is optional.ofNonZeroValue(v): none for null and for the
// zero value of v's type (false, 0, "", an empty list or map).
func OfNonZero(v any) Optional[any] {
	switch x := v.(type) {
	case nil:
		return Optional[any]{}
	case bool:
		if !x {
			return Optional[any]{}
		}
	case int64, uint64, float64, value.Number:
		if d, _ := ToDouble(x); d == 0 {
			return Optional[any]{}
		}
	case string:
		if x == "" {
			return Optional[any]{}
		}
	case []byte:
		if len(x) == 0 {
			return Optional[any]{}
		}
	case Optional[any]:
		if !x.Ok {
			return Optional[any]{}
		}
	}
	if n, err := Size(v); err == nil && n == 0 && TypeOf(v) != StringType {
		return Optional[any]{}
	}
	return Of(v)
}

// Get returns the value, failing when there is none (CEL's value()).
func (o Optional[T]) Get() (T, error) {
	if !o.Ok {
		var zero T
		return zero, fmt.Errorf("%w: optional.none() dereference", ErrInvalid)
	}
	return o.Value, nil
}

// Or returns o when it has a value and other otherwise (CEL's or()).
func (o Optional[T]) Or(other Optional[T]) Optional[T] {
	if o.Ok {
		return o
	}
	return other
}

// OrValue returns the value, or v when there is none (CEL's orValue()).
func (o Optional[T]) OrValue(v T) T {
	if o.Ok {
		return o.Value
	}
	return v
}

// Map is a map built by CEL code. Its keys are bool, int64, uint64 or
// string (a whole double key is looked up as the number it is), and it
// iterates in the order the keys were written.
type Map struct {
	keys   []any
	values []any
	// input marks a map read from a declared input field: the
	// interpreter hands such a map to json and fields as the call wrote
	// it, in its order, copying nothing.
	input bool
	// index finds a key's place in a map of more than smallMap keys, so
	// that building a map and looking keys up cost no more than their
	// number.
	index map[any]int
}

// smallMap is the most keys a Map finds by scanning them.
const smallMap = 8

// NewMap returns a map of the given keys and values, in order. A key
// given twice, or a key of another type, is an error, as in CEL.
func NewMap(keys, values []any) (*Map, error) {
	m := &Map{keys: make([]any, 0, len(keys)), values: make([]any, 0, len(values))}
	for i, k := range keys {
		switch k.(type) {
		case bool, int64, uint64, string:
		default:
			return nil, fmt.Errorf("%w: a map key of type %s", ErrInvalid, TypeOf(k))
		}
		if _, found := m.Find(k); found {
			return nil, fmt.Errorf("%w: duplicate map key %v", ErrInvalid, k)
		}
		m.add(k, values[i])
	}
	return m, nil
}

// newStringMap returns a map of distinct string keys and their values.
func newStringMap(keys []string, values []any) *Map {
	m := &Map{keys: make([]any, 0, len(keys)), values: make([]any, 0, len(values))}
	for i, k := range keys {
		m.add(k, values[i])
	}
	return m
}

// add adds a key that the map does not hold.
func (m *Map) add(k, v any) {
	m.keys = append(m.keys, k)
	m.values = append(m.values, v)
	switch {
	case m.index != nil:
		m.index[indexKey(k)] = len(m.keys) - 1
	case len(m.keys) > smallMap:
		m.index = make(map[any]int, cap(m.keys))
		for i, k := range m.keys {
			m.index[indexKey(k)] = i
		}
	}
}

// indexKey is the key under which a map key is indexed: a number by its
// value, so that 1 and 1u, which CEL finds as one key, are indexed alike.
func indexKey(k any) any {
	if i, ok := k.(int64); ok && i >= 0 {
		return uint64(i)
	}
	return k
}

// EmptyMap returns the map {}. It is shared: a Map cannot be changed.
func EmptyMap() *Map { return emptyMap }

var emptyMap = &Map{}

// Len returns the number of entries.
func (m *Map) Len() int { return len(m.keys) }

// At returns the i-th key and value.
func (m *Map) At(i int) (key, value any) { return m.keys[i], m.values[i] }

// Find returns the value of key. Numeric keys are found across int, uint
// and double, as CEL's map lookup does.
func (m *Map) Find(key any) (any, bool) {
	if m.index != nil {
		k, ok := lookupKey(key)
		if !ok {
			return nil, false
		}
		i, found := m.index[indexKey(k)]
		if !found {
			return nil, false
		}
		return m.values[i], true
	}
	for i, k := range m.keys {
		if keyEqual(k, key) {
			return m.values[i], true
		}
	}
	return nil, false
}

// lookupKey returns the map key that key finds: itself, or for a double
// the int or uint of its value, when it is whole and in their range.
func lookupKey(key any) (any, bool) {
	var f float64
	switch k := key.(type) {
	case float64:
		f = k
	case value.Number:
		if i, ok := k.Int64(); ok {
			return i, true
		}
		f = k.Float64()
	default:
		return key, true
	}
	switch {
	case f != math.Trunc(f):
		return nil, false
	case f >= 0 && f < 1<<64:
		return uint64(f), true
	case f < 0 && f >= -(1<<63):
		return int64(f), true
	}
	return nil, false
}

// keyEqual compares map keys: numbers by value, anything else by type and
// value.
func keyEqual(a, b any) bool {
	if isNumber(a) && isNumber(b) {
		return numberEqual(a, b)
	}
	return a == b
}
