package celrt

import (
	"fmt"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/value"
)

// Index is CEL's c[k]: an element of a list (k a whole number in range)
// or the value of a map's key.
func Index(c, k any) (any, error) {
	switch TypeOf(c) {
	case ListType:
		xs := list(c)
		i, err := listIndex(k, len(xs))
		if err != nil {
			return nil, err
		}
		return xs[i], nil
	case MapType:
		v, found, err := lookup(c, k)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("%w: %v", ErrNoSuchKey, k)
		}
		return v, nil
	}
	return nil, noOverload("_[_]", c, k)
}

// IndexList is c[i] on a typed list.
func IndexList[T any](xs []T, i int64) (T, error) {
	if i < 0 || i >= int64(len(xs)) {
		var zero T
		return zero, listIndexError(i)
	}
	return xs[i], nil
}

// listIndexError is an index out of a list's range, worded as the
// interpreter words it.
func listIndexError(i any) error {
	return &wrappedError{fmt.Sprintf("index out of bounds: %v", i), ErrIndex}
}

// listIndex checks an index of a list of n elements: an int, a uint or a
// whole double, in range.
func listIndex(k any, n int) (int, error) {
	var i int64
	switch k := k.(type) {
	case int64:
		i = k
	case uint64:
		if k > uint64(n) {
			return 0, listIndexError(k)
		}
		i = int64(k)
	default:
		d, ok := double(k)
		if !ok {
			return 0, noOverload("_[_]", []any{}, k)
		}
		if i = int64(d); float64(i) != d {
			return 0, fmt.Errorf("%w: unsupported index value %v in list", ErrIndex, d)
		}
	}
	if i < 0 || i >= int64(n) {
		return 0, listIndexError(i)
	}
	return int(i), nil
}

// lookup finds key k in map m. A key of a type no map key has (a list, a
// map, null) is an error, as in CEL.
func lookup(m, k any) (any, bool, error) {
	switch k.(type) {
	case string, bool, int64, uint64, float64, value.Number:
	default:
		return nil, false, fmt.Errorf("%w: unsupported key type %s", ErrNoSuchOverload, TypeOf(k))
	}
	v, found := mapFind(m, normalKey(k))
	return v, found, nil
}

// Select is CEL's v.f on a dynamic value: the value of a map's key f.
func Select(v any, field string) (any, error) {
	switch m := v.(type) {
	case *value.Object:
		if e, found := m.Get(field); found {
			return e, nil
		}
		return nil, fmt.Errorf("%w: %s", ErrNoSuchKey, field)
	case *Map:
		if e, found := m.Find(field); found {
			return e, nil
		}
		return nil, fmt.Errorf("%w: %s", ErrNoSuchKey, field)
	}
	return nil, noOverload("."+field, v)
}

// Has is CEL's has(v.f) on a dynamic value: whether a map has the key f.
// Like cel-go, it is false on a value that has no fields at all (a
// string, null) and an error on a list.
func Has(v any, field string) (bool, error) {
	switch m := v.(type) {
	case *value.Object:
		_, found := m.Get(field)
		return found, nil
	case *Map:
		_, found := m.Find(field)
		return found, nil
	case Optional[any]:
		if !m.Ok {
			return false, nil
		}
		return Has(m.Value, field)
	}
	if TypeOf(v) == ListType {
		return false, noOverload("has", v)
	}
	return false, nil
}

// OptSelect is CEL's v.?f: the value of a map's key f, or none.
func OptSelect(v any, field string) (Optional[any], error) {
	switch m := v.(type) {
	case *value.Object:
		e, found := m.Get(field)
		return Optional[any]{Value: e, Ok: found}, nil
	case *Map:
		e, found := m.Find(field)
		return Optional[any]{Value: e, Ok: found}, nil
	case Optional[any]:
		if !m.Ok {
			return m, nil
		}
		return OptSelect(m.Value, field)
	}
	if TypeOf(v) == ListType {
		return Optional[any]{}, noOverload("?."+field, v)
	}
	return Optional[any]{}, nil // as has(): no fields, no value
}

// OptIndex is CEL's c[?k]: the element or value at k, or none.
func OptIndex(c, k any) (Optional[any], error) {
	switch TypeOf(c) {
	case ListType:
		xs := list(c)
		i, err := listIndex(k, len(xs))
		if err != nil {
			if _, isNumber := k.(int64); isNumber {
				return Optional[any]{}, nil
			}
			return Optional[any]{}, err
		}
		return Of(xs[i]), nil
	case MapType:
		v, found, err := lookup(c, k)
		return Optional[any]{Value: v, Ok: found}, err
	case OptionalType:
		o := c.(Optional[any])
		if !o.Ok {
			return o, nil
		}
		return OptIndex(o.Value, k)
	}
	// as cel-go: a value that holds no elements holds none at k
	return Optional[any]{}, nil
}

// Size is CEL's size(v): the characters of a string, the bytes of bytes,
// the elements of a list or the entries of a map.
func Size(v any) (int64, error) {
	switch x := v.(type) {
	case string:
		return int64(utf8.RuneCountInString(x)), nil
	case []byte:
		return int64(len(x)), nil
	case *value.Object:
		return int64(x.Len()), nil
	case *Map:
		return int64(x.Len()), nil
	}
	if TypeOf(v) == ListType {
		return int64(len(list(v))), nil
	}
	return 0, noOverload("size", v)
}

// StringSize is size(s) on a string: its characters (code points).
func StringSize(s string) int64 { return int64(utf8.RuneCountInString(s)) }

// Entries returns the keys and the values of a map, in order, for a
// comprehension with two variables over it.
func Entries(m any) (keys, values []any, err error) {
	n := mapLen(m)
	if TypeOf(m) != MapType {
		return nil, nil, noOverload("comprehension", m)
	}
	keys, values = make([]any, 0, n), make([]any, 0, n)
	eachEntry(m, func(k, v any) bool {
		keys, values = append(keys, k), append(values, v)
		return true
	})
	return keys, values, nil
}

// stringKeys returns the map's keys, in order, when all are strings, and
// otherwise the first that is not.
func (m *Map) stringKeys() (keys []string, bad any, ok bool) {
	keys = make([]string, m.Len())
	for i := range keys {
		k, _ := m.At(i)
		s, ok := k.(string)
		if !ok {
			return nil, k, false
		}
		keys[i] = s
	}
	return keys, nil, true
}

// StringKeys returns the keys of a map whose keys are strings, in order,
// for a comprehension over it.
func StringKeys(m any) ([]string, error) {
	switch x := m.(type) {
	case *value.Object:
		return x.Keys(), nil
	case *Map:
		keys, bad, ok := x.stringKeys()
		if !ok {
			return nil, noOverload("comprehension", bad)
		}
		return keys, nil
	}
	return nil, noOverload("comprehension", m)
}

// Items is what a comprehension over a value whose type is known at run
// time only iterates: the elements of a list, or the keys of a map in
// order. It does not copy an input object's keys.
type Items struct {
	strs []string
	anys []any
}

// Len returns the number of items.
func (it Items) Len() int { return len(it.strs) + len(it.anys) }

// At returns the i-th item.
func (it Items) At(i int) any {
	if it.strs != nil {
		return it.strs[i]
	}
	return it.anys[i]
}

// Iterate returns what a comprehension over v iterates: the elements of a
// list, or the keys of a map in order.
func Iterate(v any) (Items, error) {
	switch x := v.(type) {
	case *value.Object:
		return Items{strs: x.Keys()}, nil
	case []string:
		return Items{strs: x}, nil
	case *Map:
		return Items{anys: x.keys}, nil
	}
	switch TypeOf(v) {
	case ListType:
		return Items{anys: list(v)}, nil
	}
	return Items{}, noOverload("comprehension", v)
}
