package celrt

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// The functions of the formatter language, for translated formatters.
// Each calls the same textfmt function as its CEL binding in package
// celfmt, with the same conversion of its arguments.

// Truncate is truncate(text, n).
func Truncate(text string, n int64) string { return textfmt.Truncate(text, clamp(n)) }

// Lines is lines(text).
func Lines(text string) int64 { return int64(textfmt.LineCount(text)) }

// Plural is plural(n, singular, plural).
func Plural(n int64, singular, plural string) string {
	return textfmt.CountPhrase(int(n), singular, plural)
}

// Inline is inline(text, n).
func Inline(text string, n int64) string { return textfmt.InlineText(text, clamp(n)) }

// OneLine is oneLine(text, n).
func OneLine(text string, n int64) Optional[string] {
	line, ok := textfmt.OneLine(text, clamp(n))
	return Optional[string]{Value: line, Ok: ok}
}

// MinorUnits is minorUnits(amount, currency).
func MinorUnits(amount any, currency string) Optional[string] {
	var n int64
	switch v := amount.(type) {
	case int64:
		n = v
	case float64, value.Number:
		d, _ := double(v)
		if d != math.Trunc(d) || math.Abs(d) >= 1<<53 {
			return Optional[string]{}
		}
		n = int64(d)
	default:
		return Optional[string]{}
	}
	text, ok := textfmt.MinorUnits(n, currency)
	return Optional[string]{Value: text, Ok: ok}
}

// Alternatives is alternatives(input, names).
func Alternatives(input any, names []string) [][]string {
	return textfmt.Alternatives(names, fieldsOf(input))
}

// CommandError is commandError(details, text, n).
func CommandError(details any, text string, n int64) Optional[string] {
	line, ok := textfmt.CommandError(fieldsOf(details), text, clamp(n))
	return Optional[string]{Value: line, Ok: ok}
}

// OutputLines is outputLines(text).
func OutputLines(text string) Optional[[]string] {
	lines, ok := textfmt.OutputLines(text)
	return Optional[[]string]{Value: lines, Ok: ok}
}

// fieldsOf looks the fields of an object or a map up by name.
func fieldsOf(v any) func(string) (any, bool) {
	switch m := v.(type) {
	case *value.Object:
		return m.Get
	case *Map:
		return func(name string) (any, bool) { return m.Find(name) }
	}
	return func(string) (any, bool) { return nil, false }
}

// ToolPart is toolPart(name).
func ToolPart(name string) string { return textfmt.ToolPart(name) }

// Collapse is collapse(text).
func Collapse(text string) string { return textfmt.Collapse(text) }

// SQLKinds is sqlKinds(sql).
func SQLKinds(sql string) []string {
	kinds := textfmt.SQLKinds(sql)
	if kinds == nil {
		return []string{}
	}
	return kinds
}

// SQLResult is sqlResult(text).
func SQLResult(text string) Optional[string] {
	summary, ok := textfmt.SQLResult(text)
	return Optional[string]{Value: summary, Ok: ok}
}

// SQLTier is sqlTier(kinds).
func SQLTier(kinds []string) string { return textfmt.SQLTier(kinds) }

// clamp converts an int to int, saturating at 0 and the int range.
func clamp(n int64) int {
	switch {
	case n < 0:
		return 0
	case n > math.MaxInt:
		return math.MaxInt
	}
	return int(n)
}

// NonEmpty is nonEmpty(v): v trimmed when it is a string that is not
// blank, none otherwise.
func NonEmpty(v any) Optional[string] {
	s, ok := textfmt.NonEmptyString(v)
	return Optional[string]{Value: s, Ok: ok}
}

// NonEmptyString is nonEmpty(s) for a string.
func NonEmptyString(s string) Optional[string] { return NonEmpty(s) }

// PromptPath is promptPath(v).
func PromptPath(v any) Optional[string] {
	var fields *value.Object
	switch m := v.(type) {
	case *value.Object:
		fields = m
	case *Map:
		var keys []string
		var values []any
		for _, k := range []string{"path", "file_path"} {
			if e, found := m.Find(k); found {
				keys = append(keys, k)
				s, _ := e.(string)
				if _, isString := e.(string); isString {
					values = append(values, s)
				} else {
					values = append(values, nil)
				}
			}
		}
		fields = value.ObjectOf(keys, values)
	default:
		return Optional[string]{}
	}
	p, ok := textfmt.PromptPath(fields)
	return Optional[string]{Value: p, Ok: ok}
}

// RawText is rawText(v): the text an input carried instead of an object.
func RawText(v any) Optional[string] {
	if o, ok := v.(*value.Object); ok {
		text, ok := o.Text()
		return Optional[string]{Value: text, Ok: ok}
	}
	return Optional[string]{}
}

// ParseJSON is parseJSON(text).
func ParseJSON(text string) Optional[any] {
	v, err := value.DecodeJSON([]byte(text))
	if err != nil {
		return Optional[any]{}
	}
	return Of(v)
}

// NumberText is numberText(d) for a double: as JavaScript prints it.
func NumberText(d float64) string { return value.FormatNumber(d) }

// IntText is numberText(i) for an int.
func IntText(i int64) string { return strconv.FormatInt(i, 10) }

// NumberTextDyn is numberText(v) for a value whose type is known at run
// time only: a double or an int.
func NumberTextDyn(v any) (string, error) {
	switch n := v.(type) {
	case int64:
		return IntText(n), nil
	case float64:
		return NumberText(n), nil
	case value.Number:
		return NumberText(n.Float64()), nil
	}
	return "", noOverload("numberText", v)
}

// NumberTextOf is numberText(m, key): the number m[key] with the digits
// the call wrote.
func NumberTextOf(m any, key string) (string, error) {
	v, err := fieldModel(m, key)
	if err != nil {
		return "", err
	}
	switch n := v.(type) {
	case value.Number:
		return n.String(), nil
	case float64:
		return value.FormatNumber(n), nil
	}
	return "", fmt.Errorf("%w: numberText: %q holds %s, not a number", ErrNoSuchOverload, key, value.Kind(v))
}

// MCPValue is mcpValue(v).
func MCPValue(v any) string {
	m, ok := shallowModel(v)
	if !ok {
		return ""
	}
	return textfmt.MCPValue(m)
}

// MCPValueOf is mcpValue(m, key).
func MCPValueOf(m any, key string) (string, error) {
	v, err := fieldModel(m, key)
	if err != nil {
		return "", err
	}
	return textfmt.MCPValue(v), nil
}

// Fields is fields(v, n): v's leaves fitted to n characters, or "" for a
// value JSON cannot hold.
func Fields(v any, n int64) string {
	m, ok := toModel(v)
	if !ok {
		return ""
	}
	return textfmt.Fields(m, clamp(n))
}

// JSON is json(v): v as compact JSON, or "" for a value JSON cannot hold.
func JSON(v any) string {
	m, ok := toModel(v)
	if !ok {
		return ""
	}
	return textfmt.CompactJSON(m)
}

// fieldModel returns m[key] for mcpValue and numberText: as the call wrote
// it for an input object, shallowly converted for a map built in CEL.
func fieldModel(m any, key string) (any, error) {
	switch m := m.(type) {
	case *value.Object:
		v, found := m.Get(key)
		if !found {
			return nil, fmt.Errorf("%w: %s", ErrNoSuchKey, key)
		}
		return v, nil
	case *Map:
		e, found := m.Find(key)
		if !found {
			return nil, fmt.Errorf("%w: %s", ErrNoSuchKey, key)
		}
		v, ok := shallowModel(e)
		if !ok {
			return nil, fmt.Errorf("%w: a value of type %s", ErrNoSuchOverload, TypeOf(e))
		}
		return v, nil
	}
	return nil, fmt.Errorf("%w: %s is not a map", ErrNoSuchOverload, TypeOf(m))
}

// shallowModel converts a value for textfmt.MCPValue, which shows a list
// by its length and a map as {…}, without converting what they hold.
func shallowModel(v any) (any, bool) {
	switch x := v.(type) {
	case *value.Object, []any:
		return x, true
	case *Map:
		return &value.Object{}, true
	}
	if TypeOf(v) == ListType {
		return make([]any, len(list(v))), true
	}
	return toModel(v)
}

// toModel converts a value into the value model of package value, as
// json() needs it. A number becomes a computed number (CEL computes with
// doubles), except inside an input object, which is kept as the call
// wrote it; a map built in CEL has its keys sorted.
func toModel(v any) (any, bool) {
	switch x := v.(type) {
	case nil, string, bool, *value.Object:
		return x, true
	case value.Number:
		return value.NumberOf(x.Float64()), true
	case float64:
		return value.NumberOf(x), true
	case int64:
		return value.NumberOf(float64(x)), true
	case uint64:
		return value.NumberOf(float64(x)), true
	case Optional[any]:
		if !x.Ok {
			return nil, true
		}
		return toModel(x.Value)
	case *Map:
		keys := make([]string, 0, x.Len())
		for i := range x.Len() {
			k, _ := x.At(i)
			s, ok := k.(string)
			if !ok {
				return nil, false // JSON keys are strings
			}
			keys = append(keys, s)
		}
		if !x.input {
			slices.Sort(keys) // a map built in CEL has no order
		}
		values := make([]any, len(keys))
		for i, k := range keys {
			e, _ := x.Find(k)
			m, ok := toModel(e)
			if !ok {
				return nil, false
			}
			values[i] = m
		}
		return value.ObjectOf(keys, values), true
	}
	if TypeOf(v) == ListType {
		xs := list(v)
		out := make([]any, len(xs))
		for i, e := range xs {
			m, ok := toModel(e)
			if !ok {
				return nil, false
			}
			out[i] = m
		}
		return out, true
	}
	return nil, false
}

// FileSize is fileSize(d) for a double.
func FileSize(d float64) string { return textfmt.FileSize(d) }

// FileSizeInt is fileSize(i) for an int.
func FileSizeInt(i int64) string { return textfmt.FileSizeInt(i) }

// FileSizeDyn is fileSize(v) for a value whose type is known at run time
// only: an int or a double.
func FileSizeDyn(v any) (string, error) {
	switch n := v.(type) {
	case int64:
		return textfmt.FileSizeInt(n), nil
	case float64:
		return textfmt.FileSize(n), nil
	case value.Number:
		return textfmt.FileSize(n.Float64()), nil
	}
	return "", noOverload("fileSize", v)
}

// DurationText is durationText(d) for a double.
func DurationText(d float64) string { return textfmt.DurationText(d) }

// DurationTextInt is durationText(i) for an int.
func DurationTextInt(i int64) string { return textfmt.DurationTextInt(i) }

// DurationTextDyn is durationText(v) for a value whose type is known at
// run time only: an int or a double.
func DurationTextDyn(v any) (string, error) {
	switch n := v.(type) {
	case int64:
		return textfmt.DurationTextInt(n), nil
	case float64:
		return textfmt.DurationText(n), nil
	case value.Number:
		return textfmt.DurationText(n.Float64()), nil
	}
	return "", noOverload("durationText", v)
}

// Shortcut is shortcut(keys).
func Shortcut(keys string) string { return textfmt.Shortcut(keys) }

// Emph is emph(style, text): text marked as a span of the named style.
func Emph(style, text string) (string, error) { return textfmt.Emph(style, text) }

// BaseName is baseName(path).
func BaseName(path string) string { return textfmt.BaseName(path) }

// XDDevice is xdDevice(v): the device oh-my-pi's write runs for a write to
// the path v, none for a file write or a value that is not a string.
func XDDevice(v any) Optional[string] {
	s, ok := v.(string)
	if !ok {
		return Optional[string]{}
	}
	name, ok := textfmt.XDDevice(s)
	return Optional[string]{Value: name, Ok: ok}
}

// MenuPath is menuPath(text).
func MenuPath(text string) string { return textfmt.MenuPath(text) }

// Redact is redact(text): text with every credential in it replaced by its
// size.
func Redact(text string) string { return textfmt.SecretText(text) }

// RedactField is redact(name, text): text as a field called name shows it.
func RedactField(name, text string) string { return textfmt.RedactField(name, text) }

// Dimensions is dimensions(w, h) for doubles.
func Dimensions(w, h float64) string { return textfmt.Dimensions(w, h) }

// DimensionsInt is dimensions(w, h) for ints.
func DimensionsInt(w, h int64) string { return textfmt.DimensionsInt(w, h) }

// DimensionsDyn is dimensions(w, h) for values whose types are known at
// run time only: two ints or two doubles.
func DimensionsDyn(w, h any) (string, error) {
	if wi, ok := w.(int64); ok {
		if hi, ok := h.(int64); ok {
			return textfmt.DimensionsInt(wi, hi), nil
		}
	}
	wd, wok := asDouble(w)
	hd, hok := asDouble(h)
	if !wok || !hok {
		return "", noOverload("dimensions", w, h)
	}
	return textfmt.Dimensions(wd, hd), nil
}

// asDouble returns a double, of CEL code or of the input.
func asDouble(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case value.Number:
		return n.Float64(), true
	}
	return 0, false
}

// ResultValue is resultValue(v): the value a tool result wraps.
func ResultValue(v any) any { return textfmt.UnwrapResult(v, rtFields{}) }

// ResultObject is resultObject(v).
func ResultObject(v any) any {
	u := ResultValue(v)
	if _, ok := (rtFields{}).Object(u); ok {
		return u
	}
	return emptyObject
}

// emptyObject is the object ResultObject gives for a value that is none.
var emptyObject = value.NewObject()

// rtFields reads the maps of translated code for textfmt.UnwrapResult: an
// input object or a map built in CEL.
type rtFields struct{}

func (rtFields) Object(v any) (int, bool) {
	switch m := v.(type) {
	case *value.Object:
		return m.Len(), m != nil
	case *Map:
		if m != nil {
			return m.Len(), true
		}
	}
	return 0, false
}

func (rtFields) Field(v any, key string) (any, bool) {
	switch m := v.(type) {
	case *value.Object:
		return m.Get(key)
	case *Map:
		return m.Find(key)
	}
	return nil, false
}
