// Package celrt holds the run-time semantics of CEL that formatters
// translated to Go rely on: CEL's errors, equality and ordering across
// numeric types, integer arithmetic that fails on overflow, conversions,
// optional values, type values, and the functions of the extension
// libraries the formatter language pins, and the conversion of the values
// of unwrap and tier expressions to what the runtime takes (InnerCalls,
// Tier), which the interpreter shares. Generated code calls it instead of
// carrying its own copy of these rules.
//
// It does not parse, check or interpret CEL, and imports no CEL
// implementation: a host whose formatters were all translated to Go links
// no interpreter.
//
// # Values
//
// Where the checked type of an expression is known, generated code uses
// Go types: string, int64, uint64, float64, bool, []byte, Type,
// Optional[T] and []T for a list. A value of type dyn (or a map) is an any
// holding one of:
//
//   - nil for null;
//   - bool, int64, uint64, float64, string, []byte;
//   - value.Number, a double from the call's input that keeps its digits;
//   - []any for a list;
//   - *value.Object (the input, or an object in it) or *Map for a map;
//   - Optional[any] and Type;
//   - any other Go value a host passes (runtime.Limits), compared by ==.
//
// Dyn converts a typed value to this form; AsString, AsInt and the other
// As functions convert back, failing as CEL does on a value of another
// type.
package celrt
