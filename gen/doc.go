// Package gen owns code generation: it turns a checked catalog (package
// celfmt) into Go source that registers the catalog's formatters in a
// runtime.Registry. It only emits: loading and checking are celfmt's, running
// is runtime's. It is the top of the library packages: only the CLI
// imports it, and celfmt and runtime must not.
//
// Each formatter is translated into plain Go functions (native*.go), one
// per expression (PreviewX, UnwrapX, TierX, RowX, ResultX, ErrorX, ExpandX):
// Go's types where the checked type is known, package celrt for CEL's
// run-time rules and for the values of unwrap and tier, the same text
// functions as the CEL bindings. An entry with unwrap or tier registers a
// value that is also a runtime.Unwrapper and a runtime.Tierer; a tier the
// entry names is a constant. An entry with a row, result, error or expand,
// a category or an icon registers one that is also a runtime.Renderer and
// a runtime.Presenter, its presentation a literal. A formatter with
// an expression the translation does not cover embeds its checked ASTs,
// which the interpreter restores on first use, and Translate says why. Output is
// gofmt'd, byte-identical for the same catalog, and changes only where the
// catalog did.
package gen
