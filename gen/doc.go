// Package gen owns code generation: it turns a checked catalog (package
// celfmt) into Go source that registers the catalog's formatters in a
// runtime.Registry. It only emits: loading and checking are celfmt's, running
// is runtime's. It is the top of the library packages: only the CLI
// imports it, and celfmt and runtime must not.
//
// The first backend embeds each expression's checked AST and restores it on
// first use, so a generated package does no CEL parsing or checking when it
// initializes. Output is gofmt'd and byte-identical for the same catalog.
package gen
