// Command permgen turns AI agents' tool calls into the text a person reads
// before allowing them.
//
// Usage:
//
//	permgen preview [flags] [FILE]   print the ask-prompt sentence of each call in a JSONL file
//	permgen rows [flags] [FILE]      render a JSONL transcript of calls and results
//	permgen eval [flags] EXPR        evaluate one expression in the formatter environment
//	permgen generate [-f FILE] [-o DIR] [-package NAME]
//	                                 check a catalog and write its Go registrations
//	permgen diff [-f FILE] [-o DIR] [-package NAME]
//	                                 show what generate would change; exit 1 when stale
//	permgen check [FILE]             load and check a catalog
//	permgen test [FILE]              run a catalog's examples
//	permgen list [FILE]              list a catalog's formatters
//	permgen schema                   print the JSON Schema of the catalog format
//	permgen version                  print the version
//
// Exit codes: 0 ok, 1 invalid input, 2 usage. Errors are printed as
// "permgen COMMAND: message".
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/permgen/permgen/celfmt"
)

// Exit codes.
const (
	exitOK      = 0
	exitInvalid = 1
	exitUsage   = 2
)

func main() {
	setGC(os.Getenv)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// gcPercent is the collector's GOGC for a run whose environment sets none.
//
// A run keeps little alive (the registry and what package initialization
// leaves, under 2 MB) while each call leaves a few kilobytes of garbage,
// so with Go's default of 100 the collector runs whenever the heap reaches
// its 4 MB minimum: every eight hundred calls or so, with the pages the
// scavenger gave back between cycles faulted in again by the next. At
// 150 the heap of such a run settles at 6 MB and a call of the realistic
// corpus takes about a sixth less CPU time (the commit that set the
// value has the figures); above it the time saved grows slowly while the
// memory grows in proportion. For a large input the garbage let pile
// up above what is live is 1.5 times the live heap instead of once. No
// memory limit comes with it: a limit below what a long line, or a
// catalog loaded with --catalog, keeps alive makes the collector run
// without pause.
const gcPercent = 150

// setGC sets the collector for the CLI unless GOGC is set (getenv reads
// the environment; an empty GOGC is unset, as the Go runtime reads it),
// and returns a function that restores the previous setting.
func setGC(getenv func(string) string) (restore func()) {
	if getenv("GOGC") != "" {
		return func() {}
	}
	before := debug.SetGCPercent(gcPercent)
	return func() { debug.SetGCPercent(before) }
}

const usage = `permgen turns AI agents' tool calls into the text a person reads before allowing them.

Usage:

	permgen <command> [flags] [arguments]

Commands:

	preview    print the ask-prompt sentence of each tool call in a JSONL file
	rows       render a JSONL transcript of tool calls and results as a person reads it
	eval       evaluate one CEL expression in the formatter environment
	generate   check a catalog and write its Go registrations
	diff       show what generate would change; exit 1 when the output is stale
	check      load and check a catalog
	test       run a catalog's examples
	list       list a catalog's formatters
	schema     print the JSON Schema of the catalog format
	version    print the version

Run "permgen <command> -h" for a command's flags.
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "preview":
		return runPreview(args[1:], stdin, stdout, stderr)
	case "rows":
		return runRows(args[1:], stdin, stdout, stderr)
	case "eval":
		return runEval(args[1:], stdin, stdout, stderr)
	case "generate":
		return runGenerate(args[1:], stdout, stderr)
	case "diff":
		return runDiff(args[1:], stdout, stderr)
	case "check":
		return runCheck(args[1:], stdout, stderr)
	case "test":
		return runTest(args[1:], stdout, stderr)
	case "list":
		return runList(args[1:], stdout, stderr)
	case "schema":
		if len(args) > 1 && (args[1] == "-h" || args[1] == "--help" || args[1] == "-help") {
			fmt.Fprintln(stdout, "Usage: permgen schema\n\nPrints the JSON Schema (draft-07) of the catalog format.")
			return exitOK
		}
		if len(args) > 1 {
			errorf(stderr, "schema", "takes no arguments")
			return exitUsage
		}
		stdout.Write(celfmt.Schema())
		return exitOK
	case "version":
		if len(args) > 1 && (args[1] == "-h" || args[1] == "--help" || args[1] == "-help") {
			fmt.Fprintln(stdout, "Usage: permgen version\n\nPrints the version and the CEL environment.")
			return exitOK
		}
		if len(args) > 1 {
			errorf(stderr, "version", "takes no arguments")
			return exitUsage
		}
		fmt.Fprintln(stdout, "permgen", version())
		fmt.Fprintln(stdout, "CEL environment:", celfmt.EnvVersion)
		return exitOK
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "permgen: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
}

// version returns the module version the binary was built from.
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// errorf prints an error of a command on w, prefixed "permgen COMMAND: ".
func errorf(w io.Writer, command, format string, args ...any) {
	fmt.Fprintf(w, "permgen %s: %s\n", command, fmt.Sprintf(format, args...))
}
