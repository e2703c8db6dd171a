package value

import "iter"

// indexThreshold is the size from which an Object keeps a key index. Below
// it, a linear scan over the keys is faster than hashing.
const indexThreshold = 8

// Object is a decoded JSON object that remembers the order in which its keys
// were first written. Values are nil, bool, Number, string, []any or
// *Object; a number is a Number, never a float64, so Go code reading
// input checks for Number and reads its value with Float64 or Int64.
//
// A key written twice keeps its first position and its last value, as
// JavaScript's JSON.parse does. The zero value is an empty object. An Object
// is not modified after decoding, so it is safe for concurrent readers.
type Object struct {
	keys   []string
	values []any
	index  map[string]int
	// text is the input's text when the input was not an object but text
	// (see Input.Object); the object itself is then empty.
	// A pointer, not a string and a flag: decoded objects, of which a
	// line may hold millions, stay a word smaller.
	text *string
}

// Text returns the text an input carried instead of an object (a JSON
// string, or text that is not JSON), and whether it carried text. The
// object is then empty: formatters see non-object input as an empty object,
// and read the text only when they ask for it.
func (o *Object) Text() (string, bool) {
	if o == nil || o.text == nil {
		return "", false
	}
	return *o.text, true
}

// Len reports the number of keys.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.keys)
}

// Keys returns the keys in input order. The slice is the object's own:
// callers must not modify it.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return o.keys
}

// At returns the i-th key and its value, in input order.
func (o *Object) At(i int) (key string, value any) {
	return o.keys[i], o.values[i]
}

// Get returns the value of key and whether the key is present.
func (o *Object) Get(key string) (any, bool) {
	i := o.find(key)
	if i < 0 {
		return nil, false
	}
	return o.values[i], true
}

// All yields the keys and values in input order.
func (o *Object) All() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for i := range o.Len() {
			if !yield(o.keys[i], o.values[i]) {
				return
			}
		}
	}
}

func (o *Object) find(key string) int {
	if o == nil {
		return -1
	}
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	for i, k := range o.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// set assigns key, keeping the position of an earlier occurrence.
func (o *Object) set(key string, value any) {
	if i := o.find(key); i >= 0 {
		o.values[i] = value
		return
	}
	o.keys = append(o.keys, key)
	o.values = append(o.values, value)
	switch {
	case o.index != nil:
		o.index[key] = len(o.keys) - 1
	case len(o.keys) > indexThreshold:
		o.index = make(map[string]int, len(o.keys)*2)
		for i, k := range o.keys {
			o.index[k] = i
		}
	}
}

// NewObject returns an object holding the given key-value pairs in order.
// It panics when pairs has an odd length or a key is not a string, because
// that is a mistake in the calling code, not in the data.
func NewObject(pairs ...any) *Object {
	if len(pairs)%2 != 0 {
		panic("value.NewObject: odd number of arguments")
	}
	o := &Object{}
	for i := 0; i < len(pairs); i += 2 {
		k, ok := pairs[i].(string)
		if !ok {
			panic("value.NewObject: key is not a string")
		}
		v, err := FromGo(pairs[i+1])
		if err != nil {
			panic("value.NewObject: " + err.Error())
		}
		o.set(k, v)
	}
	return o
}

// grow makes room for n keys in all.
func (o *Object) grow(n int) {
	if n <= cap(o.keys) {
		return
	}
	o.keys = append(make([]string, 0, n), o.keys...)
	o.values = append(make([]any, 0, n), o.values...)
	if n > indexThreshold && o.index == nil {
		o.index = make(map[string]int, n)
		for i, k := range o.keys {
			o.index[k] = i
		}
	}
}

// ObjectOf returns an object holding keys and values in order. The values
// must be in the value model already (nil, bool, Number, string, []any or
// *Object); they are not converted or copied. A key given twice keeps its
// first position and its last value, as in decoded JSON.
func ObjectOf(keys []string, values []any) *Object {
	o := &Object{}
	o.grow(len(keys))
	for i, k := range keys {
		o.set(k, values[i])
	}
	return o
}
