package main

import (
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/rivo/uniseg"

	"github.com/permgen/permgen/runtime"
)

const rowsUsage = `Usage: permgen rows [flags] [FILE]

Renders a transcript as a person reads it: for each tool call, its row (icon,
display name, one line), and when the call carries its result, the result
line below it. FILE (or standard input when FILE is absent or "-") holds
JSON Lines, one call per line, as for permgen preview, with two more fields:

	{"tool": "read", "id": "call_1", "input": {"path": "/src/app.go"},
	 "result": {"content": [{"type": "text", "text": "…"}], "details": {}, "isError": false}}

FILE may also be an agent's transcript as the agent wrote it: a Claude Code
session file, a Codex rollout file or a pi / oh-my-pi session file, told
apart by its first lines (--from names the format). Each tool call is a row
with its result, paired by the call's id, on the line below; a call without
a result is still shown; messages, reasoning and records of other types are
not shown.

With --cwd, rows show the paths inside that directory relative to it.
A line may also carry "durationMs", how long the call ran, which its
result line shows after its text, "(1.2s)".

Modes: minimal (no icons and no colour, for CI logs and pipes), default
(icons, and a result line marked ✅ or ❌), verbose (also the arguments as
indented JSON below each row and the result as indented JSON below its
line). A communication tool's rows (a catalog entry with communication:
true) are shown in verbose mode only. Colour is used on a terminal, and not with
NO_COLOR set or when the output is piped (--color overrides). Lines below a
row are wrapped at the width COLUMNS gives (100 without it), each piece after
the gutter, so that a narrow terminal cannot wrap them to its first column. A bad line is
reported on standard error with its line number and skipped; the exit code
is then 1. A formatter that fails on a call is reported on standard error
("FILE:LINE: formatter OWNER failed: MESSAGE") and the call gets the default
rendering; that does not change the exit code.

Flags:
`

type rowsFlags struct {
	registryFlags
	mode   string
	icons  string
	color  string
	from   string
	cwd    string
	limits limitFlags
}

func runRows(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var opts rowsFlags
	fs := newFlagSet("rows", rowsUsage)
	fs.StringVar(&opts.mode, "mode", "default", "what rows show, `minimal|default|verbose`: no icons and no colour, icons, or also the arguments and the expanded result")
	fs.StringVar(&opts.icons, "icons", "nerd", "icon set, `nerd|plain`: Nerd Font glyphs or plain Unicode symbols")
	fs.StringVar(&opts.color, "color", "auto", "colour, `auto|always|never`: auto colours on a terminal when NO_COLOR is unset")
	fs.StringVar(&opts.from, "from", fromAuto, fromUsage)
	opts.registryFlags.register(fs, "leave the compiled-in stock catalog out")
	fs.StringVar(&opts.cwd, "cwd", "", "the agent's working `DIR`, an absolute path: rows show the paths inside it relative to it")
	opts.limits.register(fs, true)
	files, code, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if err := validFrom(opts.from); err != nil {
		return usageError(stderr, "rows", "%v", err)
	}
	mode, err := runtime.ParseMode(opts.mode)
	if err != nil {
		return usageError(stderr, "rows", "--mode: %v", err)
	}
	icons := runtime.IconsNerd
	switch opts.icons {
	case "nerd":
	case "plain":
		icons = runtime.IconsPlain
	default:
		return usageError(stderr, "rows", "--icons must be nerd or plain, got %q", opts.icons)
	}
	colour, err := useColour(opts.color, mode, stdout)
	if err != nil {
		return usageError(stderr, "rows", "%v", err)
	}
	if err := opts.limits.validate(); err != nil {
		return usageError(stderr, "rows", "%v", err)
	}
	if len(files) > 1 {
		return usageError(stderr, "rows", "takes at most one FILE, got %d", len(files))
	}
	if opts.cwd != "" && (!strings.HasPrefix(opts.cwd, "/") || path.Clean(opts.cwd) != opts.cwd) {
		return usageError(stderr, "rows", "--cwd must be a clean absolute path, got %q", opts.cwd)
	}
	reg, ok := opts.registry("rows", stderr)
	if !ok {
		return exitInvalid
	}
	var failures failureLog
	d, err := runtime.NewDispatcher(reg, runtime.Options{Limits: opts.limits.limits(), Icons: icons, OnFailure: failures.add})
	if err != nil {
		return usageError(stderr, "rows", "%v", err)
	}
	return readCalls("rows", files, stdin, stdout, stderr, func(name string, in io.Reader, out io.Writer) bool {
		return renderRowsFrom(d, &failures, mode, colour, wrapWidth(), opts.from, opts.cwd, name, in, out, stderr)
	})
}

// useColour decides whether rows are coloured: always, never, or (auto) on
// a terminal when NO_COLOR is unset, as no-color.org asks. Minimal mode is
// never coloured.
func useColour(flag string, mode runtime.Mode, stdout io.Writer) (bool, error) {
	switch flag {
	case "always":
		return mode != runtime.ModeMinimal, nil
	case "never":
		return false, nil
	case "auto":
		if mode == runtime.ModeMinimal || os.Getenv("NO_COLOR") != "" {
			return false, nil
		}
		f, ok := stdout.(*os.File)
		if !ok {
			return false, nil
		}
		info, err := f.Stat()
		return err == nil && info.Mode()&os.ModeCharDevice != 0, nil
	}
	return false, fmt.Errorf("--color must be auto, always or never, got %q", flag)
}

// ANSI styles of coloured rows.
const (
	styleTitle = "\x1b[1m"
	styleDim   = "\x1b[2m"
	styleError = "\x1b[31m"
	styleReset = "\x1b[0m"
)

// emphStyles map the named styles a catalog's spans ask for
// (runtime.Span) to this command's colours; a style not here is shown
// plain.
var emphStyles = map[string]string{
	"dim":     styleDim,
	"accent":  "\x1b[36m",
	"strong":  "\x1b[1m",
	"success": "\x1b[32m",
	"warning": "\x1b[33m",
	"danger":  "\x1b[31m",
}

// spanned colours text in base, and each of its spans in the span's style
// instead. Spans come from the dispatcher: in order, within text, never
// overlapping; one that is not is shown plain.
func spanned(style func(s, text string) string, base, text string, spans []runtime.Span) string {
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		if sp.Start < at || sp.End > len(text) || sp.Start >= sp.End {
			continue
		}
		b.WriteString(style(base, text[at:sp.Start]))
		b.WriteString(style(emphStyles[sp.Style], text[sp.Start:sp.End]))
		at = sp.End
	}
	b.WriteString(style(base, text[at:]))
	return b.String()
}

// gutter starts the lines below a row (its arguments, its expanded
// result): text a tool returned cannot pass for a row or a result line of
// its own, which never start with it. gutterCells is its width.
const (
	gutter      = "    │ "
	gutterCells = 6
)

// Widths the lines below a row are wrapped at, in display cells: the
// terminal's, as COLUMNS says, else defaultWidth; the text after the
// gutter keeps at least minWrapCells.
const (
	defaultWidth = 100
	minWrapCells = 20
)

// wrapWidth is the width of the terminal, as the COLUMNS environment
// variable gives it, else defaultWidth.
func wrapWidth() int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return defaultWidth
}

// wrapCells cuts s into pieces of at most width display cells each,
// between grapheme clusters; a cluster wider than width is a piece of its
// own. A terminal that wrapped a long line itself would start the rest at
// its first column, where text a tool returned could pass for a row.
func wrapCells(s string, width int) []string {
	var pieces []string
	start, at, cells, state := 0, 0, 0, -1
	for rest := s; rest != ""; {
		var cluster string
		var w int
		cluster, rest, w, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if cells+w > width && at > start {
			pieces = append(pieces, s[start:at])
			start, cells = at, 0
		}
		at += len(cluster)
		cells += w
	}
	return append(pieces, s[start:])
}

// renderRows renders every call read from in and reports whether any line
// was bad. Lines below a row are wrapped at width display cells; rows show
// the paths inside cwd relative to it.
func renderRows(d *runtime.Dispatcher, failures *failureLog, mode runtime.Mode, colour bool, width int, cwd, name string, in io.Reader,
	out io.Writer, stderr io.Writer) (bad bool) {
	return renderRowsFrom(d, failures, mode, colour, width, fromAuto, cwd, name, in, out, stderr)
}

// renderRowsFrom is renderRows of input in the format from (--from).
func renderRowsFrom(d *runtime.Dispatcher, failures *failureLog, mode runtime.Mode, colour bool, width int, from, cwd, name string, in io.Reader,
	out io.Writer, stderr io.Writer) (bad bool) {
	style := func(s, text string) string {
		if !colour || s == "" || text == "" {
			return text
		}
		return s + text + styleReset
	}
	// A line below the row is wrapped within the width, each piece
	// indented as the line is, as far as the text keeps minWrapCells.
	below := func(l runtime.Line) {
		room := max(width-gutterCells, minWrapCells)
		indent := min(l.Indent, room-minWrapCells)
		for _, piece := range wrapCells(l.Text, room-indent) {
			fmt.Fprintln(out, gutter+style(styleDim, strings.Repeat(" ", indent)+piece))
		}
	}
	defer failures.endFile(stderr, "rows", name)
	return readTranscript("rows", name, from, in, stderr, true, func(line int, call runtime.Call, result *runtime.Result) {
		defer failures.report(stderr, name, line, d.Limits().Output)
		call.Cwd = cwd
		row := d.Row(call, mode)
		if row.Suppressed {
			return // a communication tool: shown in verbose mode only
		}
		row.Title = style(styleTitle, row.Title)
		row.Text = spanned(style, "", row.Text, row.Spans)
		fmt.Fprintln(out, row.Line())
		for _, l := range row.Lines {
			below(l)
		}
		if result == nil {
			return
		}
		res := d.ResultRow(call, *result, mode)
		lead, st := "  └ ", styleDim
		if mode == runtime.ModeMinimal {
			lead = "  = "
		}
		if result.IsError {
			st = styleError
			if mode == runtime.ModeMinimal {
				lead = "  ! "
			}
		}
		text := lead
		if res.Mark != "" {
			text += res.Mark + " "
		}
		text += spanned(style, st, res.Text, res.Spans)
		if res.Duration != "" {
			text += " " + style(styleDim, "("+res.Duration+")")
		}
		fmt.Fprintln(out, text)
		// Verbose mode shows the result as JSON, as Peekaboo's does.
		for _, l := range res.Lines {
			below(l)
		}
	})
}
