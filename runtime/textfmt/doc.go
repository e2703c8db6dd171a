// Package textfmt owns the text functions previews are written with:
// truncation (the one truncation engine, which keeps grapheme clusters
// whole), line counts, count phrases, inline text, compact JSON of input
// values, the fair rendering of a value's leaves that generic previews
// show (Fields), MCP argument values, SQL statement kinds, and the wording of
// file sizes, durations, keyboard shortcuts, file and menu paths,
// dimensions and wrapped tool results. The dispatcher,
// generated code and the CEL bindings of package celfmt all call these
// functions, so every path shares one implementation with the reference
// semantics.
//
// It does not sanitize text for display (runtime.SafeText does) and holds
// no state. It imports only the standard library, runtime/value and
// well-kept text libraries (uniseg): no cel-go, no yaml, nothing above it.
package textfmt
