package value

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Input is a tool call's arguments as previews see them.
//
// Value holds the decoded JSON value (nil, bool, Number, string, []any or
// *Object). When the arguments arrived as text that is not valid JSON, Value
// is nil, Raw holds the text and Err says what is wrong with it: the text is
// still what the tool would receive, so previews show it rather than hide it.
// A host that decoded the arguments itself may set Raw, with Err nil, to a
// JSON text that holds them (the arguments' own text, or the line of a
// JSONL file they came in): the dispatcher then reads that text, in one
// pass, to tell that the call carries no credential.
type Input struct {
	Value any
	Raw   string
	Err   error
}

// Object returns the input as an object. Non-object input, including invalid
// JSON, gives an empty object, never nil. When the input is text (a JSON
// string, or text that is not JSON at all, as a freeform tool such as
// Codex's raw-text apply_patch sends), the empty object carries that text
// for Object.Text and the language's rawText function.
func (in Input) Object() *Object {
	switch v := in.Value.(type) {
	case *Object:
		if v != nil {
			return v
		}
	case string:
		return &Object{text: &v}
	}
	if in.Err != nil {
		// A copy whose address is kept, not in's own field: inlined, the
		// method would otherwise move every caller's Input to the heap.
		raw := in.Raw
		return &Object{text: &raw}
	}
	return &emptyObject
}

// emptyObject is shared; Object has no exported mutators.
var emptyObject Object

// DecodeInput normalizes tool arguments into an Input. Raw JSON arrives as
// []byte, json.RawMessage or string and keeps the key order it was written
// in; Go values (maps, slices, numbers, structs, …) are converted with
// FromGo, which sorts map keys because a Go map has no order.
func DecodeInput(v any) Input {
	switch v := v.(type) {
	case nil:
		return Input{}
	case string:
		// The decoder only reads its input and copies what it keeps, so
		// the string's bytes can be read in place: a 10 MB argument is
		// not copied before it is decoded.
		return decodeText(unsafe.Slice(unsafe.StringData(v), len(v)))
	case []byte:
		return decodeText(v)
	case json.RawMessage:
		return decodeText(v)
	case Input:
		return v
	}
	value, err := FromGo(v)
	if err != nil {
		return Input{Err: err}
	}
	return Input{Value: value}
}

func decodeText(data []byte) Input {
	value, err := DecodeJSON(data)
	if err != nil {
		return Input{Raw: string(data), Err: err} // a copy: data may alias a string
	}
	return Input{Value: value}
}

// ErrUnsupported is returned by FromGo for values JSON cannot represent.
var ErrUnsupported = errors.New("value has no JSON form")

// FromGo converts a Go value into the value model: maps become *Object with
// sorted keys, slices become []any, numbers become Number, and json.Number
// and json.RawMessage are decoded. Integers keep all their digits
// (int64(9007199254740993) prints as 9007199254740993); floating-point
// numbers print as JavaScript prints them. Other types (structs, pointers, named
// types) go through encoding/json, so their field order is kept.
func FromGo(v any) (any, error) {
	return fromGo(v, 0)
}

func fromGo(v any, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, fmt.Errorf("%w: nesting deeper than %d", ErrUnsupported, MaxDepth)
	}
	switch v := v.(type) {
	case nil, bool, *Object:
		return v, nil
	case string:
		return strings.ToValidUTF8(v, string(utf8.RuneError)), nil
	case Number:
		return v, nil
	case float64:
		return NumberOf(v), nil
	case float32:
		return NumberOf(float64(v)), nil
	case int:
		return intNumber(int64(v)), nil
	case int8:
		return intNumber(int64(v)), nil
	case int16:
		return intNumber(int64(v)), nil
	case int32:
		return intNumber(int64(v)), nil
	case int64:
		return intNumber(v), nil
	case uint:
		return uintNumber(uint64(v)), nil
	case uint8:
		return uintNumber(uint64(v)), nil
	case uint16:
		return uintNumber(uint64(v)), nil
	case uint32:
		return uintNumber(uint64(v)), nil
	case uint64:
		return uintNumber(v), nil
	case json.Number:
		return DecodeJSON([]byte(v))
	case json.RawMessage:
		return DecodeJSON(v)
	case []any:
		list := make([]any, len(v))
		for i, e := range v {
			c, err := fromGo(e, depth+1)
			if err != nil {
				return nil, err
			}
			list[i] = c
		}
		return list, nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		o := &Object{keys: make([]string, 0, len(keys)), values: make([]any, 0, len(keys))}
		for _, k := range keys {
			c, err := fromGo(v[k], depth+1)
			if err != nil {
				return nil, err
			}
			o.set(strings.ToValidUTF8(k, string(utf8.RuneError)), c)
		}
		return o, nil
	}
	// Everything else takes the encoding/json route: it knows struct tags,
	// json.Marshaler and every map and slice type. encoding/json sorts map
	// keys, which is the order this model gives Go maps too.
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Float32 || rv.Kind() == reflect.Float64 {
		if f := rv.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return NumberOf(f), nil
		}
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnsupported, err)
	}
	return DecodeJSON(data)
}

// intNumber is an integer from Go, which keeps all its digits.
func intNumber(i int64) Number {
	return Number{lit: strconv.FormatInt(i, 10), f: float64(i)}
}

func uintNumber(u uint64) Number {
	return Number{lit: strconv.FormatUint(u, 10), f: float64(u)}
}

// Kind names the JSON kind of a value of the model, as encoding/json's
// messages do: null, bool, number, string, array or object. A value outside
// the model is named by its Go type.
func Kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case Number, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case *Object:
		return "object"
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", v), "*")
}
