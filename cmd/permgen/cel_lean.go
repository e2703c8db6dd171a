//go:build permgen_lean

package main

import (
	"io"

	"github.com/permgen/permgen/runtime"
)

// This build (go build -tags permgen_lean) links no CEL: it describes
// calls with the compiled-in catalog alone, and starts in the time a Go
// program takes to start. The commands that need CEL say so.

// leanNote is what this build answers where CEL is needed.
const leanNote = "this permgen is built with -tags permgen_lean, which leaves CEL out; build it without the tag"

// celCommands are the commands that need CEL: each answers that this
// build has none.
var celCommands = []command{
	leanCommand("eval", "evaluate one CEL expression in the formatter environment"),
	leanCommand("generate", "check a catalog and write its Go registrations"),
	leanCommand("diff", "show what generate would change; exit 1 when the output is stale"),
	leanCommand("check", "load and check a catalog"),
	leanCommand("test", "run a catalog's examples"),
	leanCommand("list", "list a catalog's formatters"),
	leanCommand("schema", "print the JSON Schema of the catalog format"),
}

// leanCommand is a command that needs CEL, in a build without it.
func leanCommand(name, summary string) command {
	return command{name, summary + " (not in this build)", func(_ []string, _ io.Reader, _, stderr io.Writer) int {
		return usageError(stderr, name, "needs CEL: %s", leanNote)
	}}
}

// celEnvironment names the CEL environment catalogs are checked in: none.
const celEnvironment = "none (built with -tags permgen_lean)"

// registerCatalogFile refuses the catalog file at path: loading one needs
// CEL.
func registerCatalogFile(command string, _ *runtime.Registry, path string, _, _ bool, stderr io.Writer) bool {
	errorf(stderr, command, "%s: a catalog file needs CEL: %s", path, leanNote)
	return false
}
