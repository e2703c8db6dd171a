// Package celfmt owns the formatter language of permgen: the catalog file
// format (YAML with exact positions, read strictly), the CEL environment
// (pinned libraries, EnvVersion), the bindings of runtime/textfmt's
// functions, checking with diagnostics and cost estimates, evaluation with
// run-time bounds (a cost limit and a memory budget), and the run-time seam
// that registers checked formatters in a runtime.Registry (LoadCatalog,
// RegisterCEL, RegisterChecked, RegisterGenerated). Its Formatter is a
// runtime.Formatter, runtime.Unwrapper, runtime.Tierer, runtime.Renderer
// (rows, result and error summaries, expanded lines) and runtime.Presenter.
//
// It builds on runtime, runtime/value, runtime/textfmt and runtime/celrt
// (which holds the conversion of unwrap and tier values that generated
// code shares) and must not
// import gen or jennifer: generating code is the generator's job.
package celfmt
