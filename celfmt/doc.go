// Package celfmt owns the formatter language of permgen: the value model of a
// tool call's input (JSON objects that keep the key order the model wrote) and
// the text functions formatters are written with (truncate, line count, count
// phrase, inline text, compact JSON, …).
//
// The functions are plain Go so that the dispatcher, generated code in other
// modules and the CEL bindings all share one implementation with the
// reference semantics. The package does not sanitize text for display (the
// runtime package does that for everything it returns) and holds no state.
package celfmt
