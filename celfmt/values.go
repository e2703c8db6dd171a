package celfmt

import (
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

// adapter turns model values into CEL values: *value.Object becomes a map that
// iterates in input order, numbers become doubles, lists are adapted lazily.
// A number's literal does not reach CEL: CEL computes with doubles, and a
// double has no room for it. Declared int fields are read from the literal
// (see declaredField).
// A nil base is types.DefaultTypeAdapter.
type adapter struct{ base types.Adapter }

func (a adapter) NativeToValue(v any) ref.Val {
	switch v := v.(type) {
	case nil:
		return types.NullValue
	case *value.Object:
		return objectVal{o: v}
	case []any:
		if a.base == nil || a.base == types.DefaultTypeAdapter {
			return inputList{l: v}
		}
		return types.NewDynamicList(a, v)
	case value.Number:
		return types.Double(v.Float64())
	case float64:
		return types.Double(v)
	case string:
		return types.String(v)
	case bool:
		return types.Bool(v)
	case Limits:
		return limitsVal(v)
	}
	if a.base == nil {
		return types.DefaultTypeAdapter.NativeToValue(v)
	}
	return a.base.NativeToValue(v)
}

// objectVal is an *value.Object as a CEL map. Keys are strings; iteration follows
// the input's key order, so comprehensions and json() are deterministic. It
// holds the pointer only, so that it makes a ref.Val without allocating:
// its values are adapted by the default adapter (see adapter).
type objectVal struct {
	o *value.Object
}

var (
	_          traits.Mapper = objectVal{}
	objectType               = reflect.TypeFor[*value.Object]()
)

func (v objectVal) ConvertToNative(t reflect.Type) (any, error) {
	if t == objectType || t.Kind() == reflect.Interface && objectType.Implements(t) {
		return v.o, nil
	}
	return nil, fmt.Errorf("cannot convert an input object to %v", t)
}

func (v objectVal) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.MapType:
		return v
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from map to '%s'", t.TypeName())
}

func (v objectVal) Equal(other ref.Val) ref.Val {
	m, ok := other.(traits.Mapper)
	if !ok || m.Size() != types.Int(v.o.Len()) {
		return types.False
	}
	for k, e := range v.o.All() {
		ov, found := m.Find(types.String(k))
		if !found || ov.Equal(adapter{}.NativeToValue(e)) != types.True {
			return types.False
		}
	}
	return types.True
}

func (v objectVal) Type() ref.Type { return types.MapType }
func (v objectVal) Value() any     { return v.o }

func (v objectVal) Contains(key ref.Val) ref.Val {
	_, found := v.Find(key)
	return types.Bool(found)
}

func (v objectVal) Find(key ref.Val) (ref.Val, bool) {
	k, ok := key.(types.String)
	if !ok {
		return nil, false
	}
	e, found := v.o.Get(string(k))
	if !found {
		return nil, false
	}
	return adapter{}.NativeToValue(e), true
}

func (v objectVal) Get(key ref.Val) ref.Val {
	if e, found := v.Find(key); found {
		return e
	}
	return types.NewErr("no such key: %v", key)
}

func (v objectVal) Size() ref.Val { return types.Int(v.o.Len()) }

func (v objectVal) Iterator() traits.Iterator {
	return &objectIterator{o: v.o}
}

type objectIterator struct {
	o *value.Object
	i int
}

func (it *objectIterator) ConvertToNative(reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion on iterators not supported")
}
func (it *objectIterator) ConvertToType(ref.Type) ref.Val { return types.NewErr("no such overload") }
func (it *objectIterator) Equal(ref.Val) ref.Val          { return types.NewErr("no such overload") }
func (it *objectIterator) Type() ref.Type                 { return types.IteratorType }
func (it *objectIterator) Value() any                     { return nil }
func (it *objectIterator) HasNext() ref.Val               { return types.Bool(it.i < it.o.Len()) }
func (it *objectIterator) Next() ref.Val {
	if it.i >= it.o.Len() {
		return types.NewErr("no more elements")
	}
	k, _ := it.o.At(it.i)
	it.i++
	return types.String(k)
}

// inputList is a list of the input as a CEL list: the list cel-go's
// NewDynamicList makes of it, but for reading an element, which it adapts
// without reflection. What reads the whole list (equality, conversions,
// concatenation, iteration) is left to the list cel-go makes.
type inputList struct {
	l []any
}

var _ traits.Lister = inputList{}

// dynamic is the list cel-go makes of the same elements.
func (v inputList) dynamic() traits.Lister { return types.NewDynamicList(adapter{}, v.l) }

func (v inputList) ConvertToNative(t reflect.Type) (any, error) {
	return v.dynamic().ConvertToNative(t)
}
func (v inputList) Equal(other ref.Val) ref.Val { return v.dynamic().Equal(other) }
func (v inputList) Type() ref.Type              { return types.ListType }
func (v inputList) Value() any                  { return v.l }
func (v inputList) Contains(e ref.Val) ref.Val  { return v.dynamic().Contains(e) }
func (v inputList) Iterator() traits.Iterator   { return v.dynamic().Iterator() }
func (v inputList) Size() ref.Val               { return types.Int(len(v.l)) }
func (v inputList) IsZeroValue() bool           { return len(v.l) == 0 }
func (v inputList) Fold(f traits.Folder)        { v.dynamic().(traits.Foldable).Fold(f) }
func (v inputList) String() string              { return fmt.Sprint(v.dynamic()) }

// ConvertToType converts the list as cel-go's list does.
func (v inputList) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.ListType:
		return v
	case types.TypeType:
		return types.ListType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", types.ListType, t)
}

// Add concatenates lists as cel-go's list does: an empty list added to
// another is the other.
func (v inputList) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if len(v.l) == 0 {
		return other
	}
	if o.Size() == types.IntZero {
		return v
	}
	return v.dynamic().Add(other)
}

// Get returns an element as cel-go's list does.
func (v inputList) Get(index ref.Val) ref.Val {
	i, err := types.IndexOrError(index)
	if err != nil {
		return types.ValOrErr(index, "%v", err)
	}
	if i < 0 || i >= len(v.l) {
		return types.NewErr("index '%d' out of range in list size '%d'", i, v.Size())
	}
	return adapter{}.NativeToValue(v.l[i])
}

// Limits are the host's text limits; formatters see Preview, Summary, Log
// and Output as the variable limits. It is runtime.Limits, the one type of
// them.
type Limits = runtime.Limits

// DefaultLimits are the limits a host has not configured otherwise, as the
// dispatcher's defaults: what examples and Eval run with.
var DefaultLimits, _ = Limits{}.WithDefaults()

// withDefaults fills the zero fields of l from DefaultLimits; a negative
// field, which the check reports, gives the defaults.
func withDefaults(l Limits) Limits {
	d, err := l.WithDefaults()
	if err != nil {
		return DefaultLimits
	}
	return d
}

const limitsTypeName = "permgen.Limits"

// limitField is the field of l that the variable limits names name, or 0.
func limitField(l Limits, name string) int {
	switch name {
	case "preview":
		return l.Preview
	case "summary":
		return l.Summary
	case "log":
		return l.Log
	case "output":
		return l.Output
	}
	return 0
}

var limitsType = types.NewObjectType(limitsTypeName)

// limitsVal is Limits as a CEL object.
type limitsVal Limits

func (v limitsVal) ConvertToNative(t reflect.Type) (any, error) {
	if t == reflect.TypeFor[Limits]() {
		return Limits(v), nil
	}
	return nil, fmt.Errorf("cannot convert limits to %v", t)
}
func (v limitsVal) ConvertToType(t ref.Type) ref.Val {
	if t == types.TypeType {
		return limitsType
	}
	return types.NewErr("type conversion error from limits to '%s'", t.TypeName())
}
func (v limitsVal) Equal(other ref.Val) ref.Val {
	o, ok := other.(limitsVal)
	return types.Bool(ok && o == v)
}
func (v limitsVal) Type() ref.Type { return limitsType }
func (v limitsVal) Value() any     { return Limits(v) }

// toModel converts a CEL value back into the value model, for functions such
// as json(). Maps built in CEL have no defined order, so their keys are
// sorted; maps from the input keep its order.
func toModel(v ref.Val) (any, bool) {
	switch v := v.(type) {
	case objectVal:
		return v.o, true
	case types.String:
		return string(v), true
	case types.Double:
		return value.NumberOf(float64(v)), true
	case types.Int:
		return value.NumberOf(float64(v)), true
	case types.Uint:
		return value.NumberOf(float64(v)), true
	case types.Bool:
		return bool(v), true
	case types.Null:
		return nil, true
	case *types.Optional:
		if !v.HasValue() {
			return nil, true
		}
		return toModel(v.GetValue())
	case traits.Lister:
		n, _ := v.Size().(types.Int)
		list := make([]any, 0, int(n))
		for it := v.Iterator(); it.HasNext() == types.True; {
			e, ok := toModel(it.Next())
			if !ok {
				return nil, false
			}
			list = append(list, e)
		}
		return list, true
	case traits.Mapper:
		var keys []string
		for it := v.Iterator(); it.HasNext() == types.True; {
			k, ok := it.Next().(types.String)
			if !ok {
				return nil, false // JSON keys are strings
			}
			keys = append(keys, string(k))
		}
		slices.Sort(keys)
		values := make([]any, len(keys))
		for i, k := range keys {
			e, _ := v.Find(types.String(k))
			m, ok := toModel(e)
			if !ok {
				return nil, false
			}
			values[i] = m
		}
		return value.ObjectOf(keys, values), true
	}
	return nil, false
}

// declaredField reads a declared input field from an object, checking the
// value the model actually sent against the declared type. An absent field
// (or null) reads as the type's zero value; a value of another type is an
// error, which makes the formatter fail rather than misformat. The value is
// converted to what CEL computes with for the declared type: an int, also
// as an element of a list or map at any depth, is an int64 (the adapter
// would make a decoded number a double, and input.n[0] + 1 would fail).
func declaredField(o *value.Object, name string, t *types.Type) (any, error) {
	v, _ := o.Get(name)
	if v == nil {
		return zeroValue(t), nil
	}
	c, err := conform(v, t)
	if err != nil {
		return nil, fmt.Errorf("input field %s: %w", name, err)
	}
	return c, nil
}

func zeroValue(t *types.Type) any {
	switch t.Kind() {
	case types.StringKind:
		return ""
	case types.IntKind:
		return int64(0)
	case types.DoubleKind:
		return 0.0
	case types.BoolKind:
		return false
	case types.ListKind:
		return []any{}
	case types.MapKind:
		return &value.Object{}
	}
	return nil
}

// conform checks that the model value v has the CEL type t and returns it
// as CEL must see it: ints as int64, lists and maps with their elements
// converted. A null element of a typed list or map is a type mismatch,
// unless the element type is dyn: CEL would see null where the checker
// promised an int or a string, and fail at run time or misformat.
func conform(v any, t *types.Type) (any, error) {
	// A list or a map of another kind is "want list": its elements' type
	// is for the message of an element of another type, as generated code
	// words both.
	want := t.String()
	switch t.Kind() {
	case types.ListKind:
		want = "list"
	case types.MapKind:
		want = "map"
	}
	got := value.Kind(v)
	switch t.Kind() {
	case types.DynKind, types.AnyKind:
		return v, nil
	case types.StringKind:
		if _, ok := v.(string); ok {
			return v, nil
		}
	case types.BoolKind:
		if _, ok := v.(bool); ok {
			return v, nil
		}
	case types.DoubleKind:
		if _, ok := asNumber(v); ok {
			return v, nil // the adapter makes a number a double
		}
	case types.IntKind:
		if n, ok := asNumber(v); ok {
			if i, ok := n.Int64(); ok {
				return i, nil
			}
			got = "a number that is not an integer"
			if f := math.Abs(n.Float64()); f >= math.MaxInt64 && !math.IsNaN(f) {
				got = "a number outside the int range"
			}
		}
	case types.ListKind:
		if list, ok := v.([]any); ok {
			elem := t.Parameters()[0]
			if elem.Kind() == types.DynKind {
				return list, nil
			}
			out := list
			if needsConversion(elem) {
				out = make([]any, len(list))
			}
			for i, e := range list {
				c, err := conform(e, elem)
				if err != nil {
					return nil, fmt.Errorf("element %d: %w", i, err)
				}
				if needsConversion(elem) {
					out[i] = c
				}
			}
			return out, nil
		}
	case types.MapKind:
		if o, ok := v.(*value.Object); ok {
			elem := t.Parameters()[1]
			if elem.Kind() == types.DynKind {
				return o, nil
			}
			convert := needsConversion(elem)
			var keys []string
			var values []any
			if convert {
				keys = make([]string, 0, o.Len())
				values = make([]any, 0, o.Len())
			}
			for k, e := range o.All() {
				c, err := conform(e, elem)
				if err != nil {
					return nil, fmt.Errorf("key %q: %w", k, err)
				}
				if convert {
					keys = append(keys, k)
					values = append(values, c)
				}
			}
			if convert {
				return value.ObjectOf(keys, values), nil
			}
			return o, nil
		}
	}
	return nil, fmt.Errorf("want %s, got %s", want, got)
}

// needsConversion reports whether a value of type t is not what CEL sees
// as it is decoded: an int, or a list or map that holds ints.
func needsConversion(t *types.Type) bool {
	switch t.Kind() {
	case types.IntKind:
		return true
	case types.ListKind:
		return needsConversion(t.Parameters()[0])
	case types.MapKind:
		return needsConversion(t.Parameters()[1])
	}
	return false
}

// asNumber returns a model number as a Number. A bare float64, which Go
// code may put in values it builds itself, is a computed number.
func asNumber(v any) (value.Number, bool) {
	switch v := v.(type) {
	case value.Number:
		return v, true
	case float64:
		return value.NumberOf(v), true
	}
	return value.Number{}, false
}
