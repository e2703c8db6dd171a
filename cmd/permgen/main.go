// Command permgen turns AI agents' tool calls into the text a person reads
// before allowing them.
//
// Usage:
//
//	permgen preview [flags] [FILE]   print the ask-prompt sentence of each call in a JSONL file
//	permgen rows [flags] [FILE]      render a JSONL transcript of calls and results
//	permgen hook [flags] AGENT       answer an agent's hook before a tool call (claude-code, gemini-cli, codex)
//	permgen eval [flags] EXPR        evaluate one expression in the formatter environment
//	permgen generate [-o DIR] [-package NAME] [FILE]
//	                                 check a catalog and write its Go registrations
//	permgen diff [-o DIR] [-package NAME] [FILE]
//	                                 show what generate would change; exit 1 when stale
//	permgen check [FILE]             load and check a catalog
//	permgen test [FILE]              run a catalog's examples
//	permgen list [FILE]              list a catalog's formatters
//	permgen schema                   print the JSON Schema of the catalog format
//	permgen version                  print the version (also --version)
//	permgen help [COMMAND]           print this list, or a command's help (as COMMAND -h)
//
// The commands that read a catalog take it as FILE or as -f FILE, not both;
// it is formatters.yaml when neither is given.
//
// Exit codes: 0 ok, 1 invalid input, 2 usage. Errors are printed as
// "permgen COMMAND: message". A usage error is that line and one more that
// says which help to read, not the whole help.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
)

// Exit codes.
const (
	exitOK      = 0
	exitInvalid = 1
	exitUsage   = 2
)

func main() {
	growStack()
	args := os.Args[1:]
	if len(args) == 0 || args[0] != "hook" {
		// A hook answers one call and collects no garbage; reading the
		// environment would be most of what setting the collector costs.
		setGC(os.Getenv)
	}
	os.Exit(run(args, os.Stdin, os.Stdout, os.Stderr))
}

// growStack grows the main goroutine's stack to stackBytes in one step,
// while it holds a frame or two: a process that answers one call would
// otherwise grow it by doubling, each time copying a deep stack of the
// dispatcher's and the formatters' frames (a tenth of a hook's time
// before it).
//
//go:noinline
func growStack() byte {
	var frame [stackBytes]byte
	return keep(frame[:])
}

// stackBytes is about what describing a call takes.
const stackBytes = 64 << 10

// keep makes growStack's frame live.
//
//go:noinline
func keep(b []byte) byte { return b[len(b)-1] }

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

// command is one of permgen's commands.
type command struct {
	name    string
	summary string // its line in the usage
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands are permgen's commands in the order the usage lists them. help
// is not one of them because it looks them up: the table would refer to
// itself.
var commands = slices.Concat(
	[]command{
		{"preview", "print the ask-prompt sentence of each tool call in a JSONL file", runPreview},
		{"rows", "render a JSONL transcript of tool calls and results as a person reads it", runRows},
		{"hook", "answer an agent's hook (claude-code, gemini-cli, codex) with permgen's text for the call", runHook},
	},
	celCommands,
	[]command{{"version", "print the version", runVersion}},
)

// lookup returns the command called name.
func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// usage returns permgen's usage: what it is and its commands.
func usage() string {
	var b strings.Builder
	b.WriteString(`permgen turns AI agents' tool calls into the text a person reads before allowing them.

Usage:

	permgen <command> [flags] [arguments]

Commands:

`)
	for _, c := range commands {
		fmt.Fprintf(&b, "\t%-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(&b, "\t%-10s %s\n", "help", "print a command's help")
	b.WriteString(`
Run "permgen help <command>" for a command's flags.
`)
	return b.String()
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return runHelp(args[1:], stdout, stderr)
	case "--version", "-version":
		// Many tools, buf and golangci-lint among them, take --version
		// besides a version command: answer both.
		return runVersion(args[1:], stdin, stdout, stderr)
	}
	c, ok := lookup(args[0])
	if !ok {
		return usageError(stderr, "", "unknown command %q", args[0])
	}
	return c.run(args[1:], stdin, stdout, stderr)
}

// runHelp prints permgen's usage or, given a command, that command's help:
// the text its -h prints, so the two cannot drift apart.
func runHelp(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) > 1:
		return usageError(stderr, "help", "takes at most one COMMAND, got %d", len(args))
	case len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help":
		fmt.Fprint(stdout, usage())
		return exitOK
	}
	c, ok := lookup(args[0])
	if !ok {
		return usageError(stderr, "help", "unknown command %q", args[0])
	}
	return c.run([]string{"-h"}, nil, stdout, stderr) // -h reads no input
}

func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "Usage: permgen version\n\nPrints the version and the CEL environment.\n")
	rest, code, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		return usageError(stderr, "version", "takes no arguments")
	}
	fmt.Fprintln(stdout, "permgen", version())
	fmt.Fprintln(stdout, "CEL environment:", celEnvironment)
	return exitOK
}

// version returns the module version the binary was built from.
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// usageError reports a usage error of command ("" for permgen itself) in
// one line and, on the next, where its usage is, as go, buf and
// golangci-lint do; it returns exitUsage. The usage itself is not printed:
// at 40 lines it would bury the line that says what is wrong. The usage of
// help is permgen's.
func usageError(w io.Writer, command, format string, args ...any) int {
	prefix, help := "permgen", "permgen help"
	if command != "" {
		prefix += " " + command
	}
	if command != "" && command != "help" {
		help += " " + command
	}
	fmt.Fprintf(w, "%s: %s\nrun '%s' for usage\n", prefix, fmt.Sprintf(format, args...), help)
	return exitUsage
}

// errorf prints an error of a command on w, prefixed "permgen COMMAND: ".
func errorf(w io.Writer, command, format string, args ...any) {
	fmt.Fprintf(w, "permgen %s: %s\n", command, fmt.Sprintf(format, args...))
}
