//go:build !permgen_lean

package main

import (
	"encoding/json"
	"io"

	"github.com/permgen/permgen/celfmt"
)

// The -format json output of check, test and list: one object on standard
// output, its diagnostics included, so that an editor or a CI step reads
// positions without parsing text. Every text that comes from a catalog is
// safe text, as the listing prints it (see shown).

// catalogReport is what each of them prints: the catalog, whether the
// command passed, and its diagnostics (errors, and check's warnings).
// A catalog that does not load prints only this.
type catalogReport struct {
	File        string           `json:"file"`
	OK          bool             `json:"ok"`
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
}

// jsonDiagnostic is one diagnostic: "error" or "warning".
type jsonDiagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// checkReport is check's: how many formatters, how many generated code
// translates to Go, and why the others run in the CEL interpreter.
type checkReport struct {
	catalogReport
	Formatters  int               `json:"formatters"`
	Translated  int               `json:"translated"`
	Interpreted []jsonInterpreted `json:"interpreted"`
}

// jsonInterpreted is a formatter generated code runs in the interpreter.
type jsonInterpreted struct {
	jsonPos
	Tool   string `json:"tool"`
	Reason string `json:"reason"`
}

// jsonPos is where a formatter or an example is.
type jsonPos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

func posOf(p celfmt.Pos) jsonPos { return jsonPos{File: shown(p.File), Line: p.Line, Col: p.Col} }

// testReport is test's: the examples that passed and failed, and each
// failure.
type testReport struct {
	catalogReport
	Passed   int               `json:"passed"`
	Failed   int               `json:"failed"`
	Failures []jsonTestFailure `json:"failures"`
}

// jsonTestFailure is an example that failed: Problem says how; Want and Got
// are what it expects and what the formatter returned, when it returned
// something else.
type jsonTestFailure struct {
	jsonPos
	Tool    string `json:"tool"`
	Example int    `json:"example"`
	Problem string `json:"problem"`
	Want    string `json:"want,omitempty"`
	Got     string `json:"got,omitempty"`
}

// listReport is list's: one entry per formatter. Builtin is set for the
// catalog compiled into the binary, whose entries have no position, slots
// or omitted fields.
type listReport struct {
	catalogReport
	Builtin bool        `json:"builtin,omitempty"`
	Entries []jsonEntry `json:"entries"`
}

// jsonEntry is one formatter of a listing.
type jsonEntry struct {
	Key     string   `json:"key"`
	Owner   string   `json:"owner"`
	Pos     *jsonPos `json:"pos,omitempty"`
	Title   string   `json:"title"`
	Aliases []string `json:"aliases"`
	Slots   []string `json:"slots,omitempty"`
	Omits   []string `json:"omits,omitempty"`
}

// diagnostics returns errs as JSON diagnostics of one severity.
func diagnostics(errs celfmt.ErrorList, severity string) []jsonDiagnostic {
	out := make([]jsonDiagnostic, 0, len(errs))
	for _, e := range errs {
		out = append(out, jsonDiagnostic{File: shown(e.Pos.File), Line: e.Pos.Line, Col: e.Pos.Col, Severity: severity, Message: shown(e.Msg)})
	}
	return out
}

// shownAll is shown of each name.
func shownAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = shown(n)
	}
	return out
}

// writeJSON writes v as indented JSON with its newline. Encoding the
// reports cannot fail; a write error is reported.
func writeJSON(stdout, stderr io.Writer, command string, v any) {
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		errorf(stderr, command, "%v", err)
	}
}
