//go:build !permgen_lean

package main

import (
	"errors"
	"io"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/runtime"
)

// The commands and flags that read catalogs at run time need CEL: cel-go
// and protobuf, whose package initialization is most of a permgen
// process's start. The permgen_lean build tag leaves them out (see
// cel_lean.go), for a binary that an agent starts once per call.

// celCommands are the commands that need CEL, in the order the usage lists
// them.
var celCommands = []command{
	{"eval", "evaluate one CEL expression in the formatter environment", runEval},
	{"generate", "check a catalog and write its Go registrations", runGenerate},
	{"diff", "show what generate would change; exit 1 when the output is stale", runDiff},
	{"check", "load and check a catalog", runCheck},
	{"test", "run a catalog's examples", runTest},
	{"list", "list a catalog's formatters", runList},
	{"schema", "print the JSON Schema of the catalog format", runSchema},
}

// celEnvironment names the CEL environment catalogs are checked in.
const celEnvironment = celfmt.EnvVersion

// registerCatalogFile loads the catalog file at path, printing its
// diagnostics, and registers it in reg, the layer of --override files
// when layered; override is celfmt.Options.Override. It reports whether
// it succeeded.
func registerCatalogFile(command string, reg *runtime.Registry, path string, override, layered bool, stderr io.Writer) bool {
	checked, ok := loadCatalogFile(command, path, path, celfmt.Options{Override: override}, stderr)
	if !ok {
		return false
	}
	if _, err := celfmt.RegisterChecked(reg, checked); err != nil {
		if layered {
			errorf(stderr, command, "--%s %s: %v", layerFlag, path, err)
		} else {
			errorf(stderr, command, "%v", err)
		}
		switch {
		case errors.Is(err, runtime.ErrOverride):
			errorf(stderr, command, "to let %s answer for those tools, pass --%s", path, overrideFlag)
		case !layered && errors.Is(err, runtime.ErrDuplicate):
			errorf(stderr, command, "to consult %s before the formatters it clashes with, load it with --%s %s", path, layerFlag, path)
		}
		return false
	}
	return true
}

func runSchema(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("schema", "Usage: permgen schema\n\nPrints the JSON Schema (draft-07) of the catalog format.\n")
	rest, code, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		return usageError(stderr, "schema", "takes no arguments")
	}
	stdout.Write(celfmt.Schema())
	return exitOK
}
