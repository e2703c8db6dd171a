// Package gen owns code generation: it turns a checked catalog (package
// celfmt) into Go source that registers the catalog's formatters in a
// runtime.Registry. It only emits: loading and checking are celfmt's, running
// is runtime's. It is the top of the library packages: only the CLI
// imports it, and celfmt and runtime must not.
//
// Each formatter is translated into a plain Go function (native*.go): Go's
// types where the checked type is known, package celrt for CEL's run-time
// rules, the same text functions as the CEL bindings. A formatter with an
// expression the translation does not cover embeds its checked AST, which
// the interpreter restores on first use, and Translate says why. Output is
// gofmt'd, byte-identical for the same catalog, and changes only where the
// catalog did.
package gen
