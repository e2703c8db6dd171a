package celrt

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

// The value of a formatter's unwrap and tier expressions, made into what
// the runtime takes. Generated code and the interpreter (which turns its
// CEL values into the dynamic form first) both convert here, so that a
// catalog means the same wherever it runs.

// CallError is an element of an unwrap expression's list that is not a
// call. It matches ErrInvalid.
type CallError struct {
	N   int    // the element's place in the list, from 1
	Msg string // what is wrong: "tool is int, not a string"
}

func (e *CallError) Error() string { return fmt.Sprintf("unwrap: call %d: %s", e.N, e.Msg) }

// Unwrap returns ErrInvalid.
func (e *CallError) Unwrap() error { return ErrInvalid }

// InnerCalls converts the value of an unwrap expression, in dynamic form,
// to the calls a wrapper call carries. The value is a list of maps, or an
// optional of one; optional.none() and an empty list give nil (the call
// carries none).
//
// Each map has the key tool, a non-empty string, and may have input,
// kind, a string, and annotations: the MCP hints of the tool that runs, a
// map of readOnlyHint, destructiveHint, idempotentHint and openWorldHint,
// each a bool, and title, a string (null is none). An input that is a map becomes a *value.Object: an
// object of the call's input keeps its order and is used as it is, a map
// built in CEL has its keys sorted (it has no order of its own). A string
// input is JSON text, which the dispatcher decodes; null is no input; a
// list, number or bool becomes its value in the value model. Any other
// key, an element that is not a map, or a value JSON cannot hold (bytes,
// a type, an optional) is a *CallError.
func InnerCalls(v any) ([]runtime.InnerCall, error) {
	calls, _, err := CountInnerCalls(v)
	return calls, err
}

// CountInnerCalls is InnerCalls, which also returns how many values it
// converted (at most MaxCallValues and one): what the conversion cost, for
// a caller that charges it to a budget.
func CountInnerCalls(v any) (calls []runtime.InnerCall, values int, err error) {
	if o, ok := Dyn(v).(Optional[any]); ok {
		if !o.Ok {
			return nil, 0, nil
		}
		v = o.Value
	}
	list, ok := Dyn(v).([]any)
	if !ok {
		return nil, 0, fmt.Errorf("%w: unwrap returned %s, not a list of calls", ErrInvalid, TypeOf(v))
	}
	if len(list) == 0 {
		return nil, 0, nil
	}
	calls = make([]runtime.InnerCall, len(list))
	budget := MaxCallValues
	for i, e := range list {
		c, msg := innerCall(e, &budget)
		if msg != "" {
			return nil, MaxCallValues - budget, &CallError{N: i + 1, Msg: msg}
		}
		calls[i] = c
	}
	return calls, MaxCallValues - budget, nil
}

// innerCall converts one element of an unwrap list, or says what is wrong
// with it.
func innerCall(e any, budget *int) (c runtime.InnerCall, problem string) {
	keys, values, bad, badKey, isMap := mapEntries(e)
	switch {
	case !isMap:
		return c, fmt.Sprintf("%s, not a map with tool, input and kind", TypeOf(e))
	case badKey:
		return c, fmt.Sprintf("a key of type %s, not a string", TypeOf(bad))
	}
	var annotations any
	hasAnnotations := false
	// Problems are looked for in a fixed order, not in the order of the
	// keys: the interpreter's maps have none, and the same call must get
	// the same error from both backends.
	var tool, input, kind any
	var hasTool, hasInput, hasKind bool
	unknown, hasUnknown := "", false
	for i, k := range keys {
		switch k {
		case "tool":
			tool, hasTool = values[i], true
		case "input":
			input, hasInput = values[i], true
		case "kind":
			kind, hasKind = values[i], true
		case "annotations":
			annotations, hasAnnotations = values[i], true
		default:
			if !hasUnknown || k < unknown {
				unknown, hasUnknown = k, true
			}
		}
	}
	if hasUnknown {
		return c, fmt.Sprintf("unknown key %q: a call has tool, input, kind and annotations", unknown)
	}
	if !hasTool {
		return c, "no tool"
	}
	s, ok := tool.(string)
	switch {
	case !ok:
		return c, fmt.Sprintf("tool is %s, not a string", TypeOf(tool))
	case s == "":
		return c, "tool is empty"
	}
	c.Tool = s
	if hasInput {
		in, err := modelValue(input, 0, budget)
		if err != nil {
			return c, "input " + err.Error()
		}
		c.Input = in
	}
	if hasKind {
		s, ok := kind.(string)
		if !ok {
			return c, fmt.Sprintf("kind is %s, not a string", TypeOf(kind))
		}
		c.Kind = s
	}
	if hasAnnotations && annotations != nil {
		a, msg := callAnnotations(annotations)
		if msg != "" {
			return c, "annotations " + msg
		}
		c.Annotations = a
	}
	return c, ""
}

// callAnnotations converts the annotations of an unwrapped call, or says
// what is wrong with them.
func callAnnotations(v any) (*runtime.Annotations, string) {
	keys, values, bad, badKey, isMap := mapEntries(v)
	switch {
	case !isMap:
		return nil, fmt.Sprintf("are %s, not a map of MCP tool hints", TypeOf(v))
	case badKey:
		return nil, fmt.Sprintf("have a key of type %s, not a string", TypeOf(bad))
	}
	a := &runtime.Annotations{}
	hints := map[string]**bool{"readOnlyHint": &a.ReadOnlyHint, "destructiveHint": &a.DestructiveHint,
		"idempotentHint": &a.IdempotentHint, "openWorldHint": &a.OpenWorldHint}
	// Keys are read in sorted order, so that both backends report the
	// same problem first.
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return strings.Compare(keys[x], keys[y]) })
	for _, i := range order {
		k, v := keys[i], values[i]
		if k == "title" {
			s, ok := v.(string)
			if !ok && v != nil {
				return nil, fmt.Sprintf("title is %s, not a string", TypeOf(v))
			}
			a.Title = s
			continue
		}
		p, ok := hints[k]
		if !ok {
			return nil, fmt.Sprintf("have an unknown key %q", k)
		}
		if v == nil {
			continue
		}
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Sprintf("%s is %s, not a bool", k, TypeOf(v))
		}
		*p = &b
	}
	return a, ""
}

// MaxCallValues bounds the values InnerCalls converts for one unwrap, the
// inputs of all its calls together. Without it, a thousand calls that
// each hold the same large map, built once, would cost a thousand times
// what building it cost.
const MaxCallValues = 1 << 20

var errTooManyValues = errors.New("makes the calls hold more than " + strconv.Itoa(MaxCallValues) + " values in all")

// errNoJSON is a value the value model cannot hold.
var errNoJSON = errors.New("has no JSON form")

// modelValue converts a dynamic value to the value model: numbers become
// value.Number, maps built in CEL objects with sorted keys, and a value
// already in the model (an object or list of the input) is returned as it
// is, not copied.
func modelValue(v any, depth int, budget *int) (any, error) {
	if depth > value.MaxDepth {
		return nil, fmt.Errorf("nests deeper than %d", value.MaxDepth)
	}
	if *budget--; *budget < 0 {
		return nil, errTooManyValues
	}
	switch x := Dyn(v).(type) {
	case nil, bool, string, value.Number:
		return x, nil
	case int64, uint64, float64:
		return value.FromGo(x)
	case []any:
		var out []any // a copy, made at the first element that changes
		for i, e := range x {
			c, err := modelValue(e, depth+1, budget)
			if err != nil {
				return nil, err
			}
			if out == nil && !same(c, e) {
				out = slices.Clone(x)
			}
			if out != nil {
				out[i] = c
			}
		}
		if out == nil {
			return x, nil
		}
		return out, nil
	case *value.Object:
		keys := x.Keys()
		var values []any // made at the first value that changes
		for i := range keys {
			_, e := x.At(i)
			c, err := modelValue(e, depth+1, budget)
			if err != nil {
				return nil, err
			}
			if values == nil && !same(c, e) {
				values = make([]any, len(keys))
				for j := range i {
					_, values[j] = x.At(j)
				}
			}
			if values != nil {
				values[i] = c
			}
		}
		if values == nil {
			return x, nil
		}
		return value.ObjectOf(keys, values), nil
	case *Map:
		keys, bad, ok := x.stringKeys()
		if !ok {
			return nil, fmt.Errorf("holds a map with a key of type %s, which JSON cannot hold", TypeOf(bad))
		}
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
		sorted, values := make([]string, len(order)), make([]any, len(order))
		for i, j := range order {
			_, e := x.At(j)
			c, err := modelValue(e, depth+1, budget)
			if err != nil {
				return nil, err
			}
			sorted[i], values[i] = keys[j], c
		}
		return value.ObjectOf(sorted, values), nil
	}
	return nil, fmt.Errorf("holds a value of type %s, which %w", TypeOf(v), errNoJSON)
}

// same reports whether a converted value is the value it was converted
// from: the same object, list or scalar.
func same(a, b any) bool {
	switch x := a.(type) {
	case *value.Object:
		y, ok := b.(*value.Object)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		return ok && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	case nil, bool, string, value.Number:
		return a == b
	}
	return false
}

// Tier returns the tier named s, which a tier expression returned: an
// error matching runtime.ErrInvalidTier when s names none.
func Tier(s string) (runtime.Tier, error) {
	return runtime.ParseTier(s)
}

// mapEntries returns the keys and values of v when it is a map (an input
// object or a CEL map), isMap false otherwise; badKey is set, with bad, for
// a CEL map that has a key that is not a string.
func mapEntries(v any) (keys []string, values []any, bad any, badKey, isMap bool) {
	switch m := v.(type) {
	case *value.Object:
		keys = m.Keys()
		values = make([]any, len(keys))
		for i := range keys {
			_, values[i] = m.At(i)
		}
		return keys, values, nil, false, true
	case *Map:
		var ok bool
		if keys, bad, ok = m.stringKeys(); !ok {
			return nil, nil, bad, true, true
		}
		values = make([]any, m.Len())
		for i := range values {
			_, values[i] = m.At(i)
		}
		return keys, values, nil, false, true
	}
	return nil, nil, nil, false, false
}
