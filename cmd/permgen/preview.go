package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/generated"
	"github.com/permgen/permgen/runtime"
)

const previewUsage = `Usage: permgen preview [flags] [FILE]

Reads tool calls as JSON Lines from FILE (or standard input when FILE is
absent or "-") and prints, for each call, its ask-prompt sentence (text) or
its preview, prompt and log context (json). One call per line:

	{"tool": "read", "input": {"path": "/src"}, "agent": "a1", "source": "tool",
	 "target": "srv:tool", "command": "git status", "matchedPattern": "git *",
	 "origin": "builtin", "state": "ask"}

Only "tool" is required. The stock catalog (formatters.yaml) is compiled in;
--catalog loads more formatters written in CEL; calls whose tool has no
formatter get the default preview. A bad line is reported on standard error with its
line number and skipped; the exit code is then 1.

Flags:
`

// maxLineBytes bounds one JSONL line, so a runaway file cannot exhaust memory.
const maxLineBytes = 64 << 20

type previewFlags struct {
	catalogs   stringList
	format     string
	noBuiltin  bool
	previewMax int
	summaryMax int
	logMax     int
	outputMax  int
}

func runPreview(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var opts previewFlags
	fs := flag.NewFlagSet("preview", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&opts.format, "format", "text", "output `format`: text (one sentence per call) or json (one object per call)")
	fs.Var(&opts.catalogs, "catalog", "load a YAML catalog `FILE` at run time, in addition to the compiled-in catalog (repeatable)")
	fs.BoolVar(&opts.noBuiltin, "no-builtin", false, "leave the compiled-in stock catalog (formatters.yaml) out: every tool gets the default JSON preview")
	fs.IntVar(&opts.previewMax, "preview-max", runtime.DefaultPreviewLimit, "characters of JSON in the default preview")
	fs.IntVar(&opts.summaryMax, "summary-max", runtime.DefaultSummaryLimit, "characters of a pattern or glob")
	fs.IntVar(&opts.logMax, "log-max", runtime.DefaultLogLimit, "characters of a log preview")
	fs.IntVar(&opts.outputMax, "output-max", runtime.DefaultOutputLimit, "characters of any returned text, after sanitizing")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), previewUsage)
		fs.PrintDefaults()
	}
	files, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fs.Usage()
		return exitOK
	}
	if err != nil {
		return exitUsage // the flag package has printed the problem
	}
	if err := opts.validate(files); err != nil {
		fmt.Fprintf(stderr, "permgen preview: %v\n", err)
		return exitUsage
	}

	reg := runtime.NewRegistry()
	if !opts.noBuiltin {
		if _, err := generated.Register(reg); err != nil {
			fmt.Fprintf(stderr, "permgen preview: the compiled-in catalog: %v\n", err)
			return exitInvalid
		}
	}
	for _, path := range opts.catalogs {
		if err := loadCatalog(reg, path, stderr); err != nil {
			fmt.Fprintf(stderr, "permgen preview: %v\n", err)
			return exitInvalid
		}
	}
	d, err := runtime.NewDispatcher(reg, runtime.Options{Limits: runtime.Limits{
		Preview: opts.previewMax, Summary: opts.summaryMax, Log: opts.logMax, Output: opts.outputMax,
	}})
	if err != nil {
		fmt.Fprintf(stderr, "permgen preview: %v\n", err)
		return exitUsage
	}

	name, in := "<stdin>", stdin
	if len(files) == 1 && files[0] != "-" {
		f, err := os.Open(files[0])
		if err != nil {
			fmt.Fprintf(stderr, "permgen preview: %v\n", err)
			return exitInvalid
		}
		defer f.Close()
		name, in = files[0], f
	}
	out := bufio.NewWriter(stdout)
	bad := previewCalls(d, opts.format, name, in, out, stderr)
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "permgen preview: %v\n", err)
		return exitInvalid
	}
	if bad {
		return exitInvalid
	}
	return exitOK
}

// loadCatalog registers a catalog file, printing its diagnostics with
// snippets when it has problems.
func loadCatalog(reg *runtime.Registry, path string, stderr io.Writer) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	_, err = reg.LoadCatalog(path, src, celfmt.Options{})
	var list celfmt.ErrorList
	if errors.As(err, &list) {
		fmt.Fprint(stderr, list.Snippets(src))
		return fmt.Errorf("%s: %d problem(s)", path, len(list))
	}
	return err
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ", ") }

func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

func (o previewFlags) validate(files []string) error {
	if o.format != "text" && o.format != "json" {
		return fmt.Errorf("--format must be text or json, got %q", o.format)
	}
	for _, l := range []struct {
		name string
		v    int
	}{{"preview-max", o.previewMax}, {"summary-max", o.summaryMax}, {"log-max", o.logMax}, {"output-max", o.outputMax}} {
		if l.v < 1 {
			return fmt.Errorf("--%s must be a positive integer, got %d", l.name, l.v)
		}
	}
	if len(files) > 1 {
		return fmt.Errorf("takes at most one FILE, got %d", len(files))
	}
	return nil
}

// parseInterspersed parses flags that may come before or after the
// positional arguments, which it returns.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// callLine is one line of the JSONL input.
type callLine struct {
	Tool           *string         `json:"tool"`
	Input          json.RawMessage `json:"input"`
	Agent          string          `json:"agent"`
	State          string          `json:"state"`
	Source         string          `json:"source"`
	Target         string          `json:"target"`
	Command        string          `json:"command"`
	MatchedPattern string          `json:"matchedPattern"`
	Origin         string          `json:"origin"`
}

// jsonResult is one line of --format json output.
type jsonResult struct {
	Tool      string             `json:"tool"`
	Preview   string             `json:"preview"`
	Prompt    string             `json:"prompt"`
	Log       runtime.LogContext `json:"log"`
	Formatter string             `json:"formatter"`
}

// previewCalls previews every call read from in and reports whether any
// line was bad.
func previewCalls(d *runtime.Dispatcher, format, name string, in io.Reader, out io.Writer, stderr io.Writer) (bad bool) {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	lines := newLineReader(in)
	for {
		line, err := lines.next()
		if err == io.EOF {
			return bad
		}
		if err == nil && len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var call runtime.Call
		if err == nil {
			call, err = parseCall(line)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s:%d: %v\n", name, lines.line, err)
			bad = true
			if lines.failed {
				return bad
			}
			continue
		}
		desc := d.Describe(call)
		if format == "text" {
			fmt.Fprintln(out, desc.Prompt)
			continue
		}
		// Encoding these types cannot fail.
		_ = enc.Encode(jsonResult{
			Tool:      runtime.SafeText(call.Tool, runtime.Reveal, d.Limits().Output),
			Preview:   desc.Preview.Text,
			Prompt:    desc.Prompt,
			Log:       desc.Log,
			Formatter: desc.Preview.Formatter,
		})
	}
}

// parseCall decodes one JSONL line into a call.
func parseCall(line []byte) (runtime.Call, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var c callLine
	if err := dec.Decode(&c); err != nil {
		return runtime.Call{}, describeJSONError(err)
	}
	if dec.InputOffset() != int64(len(bytes.TrimRight(line, " \t\r"))) {
		return runtime.Call{}, fmt.Errorf("text after the call's JSON object at column %d", dec.InputOffset()+1)
	}
	switch {
	case c.Tool == nil:
		return runtime.Call{}, errors.New(`missing "tool"`)
	case *c.Tool == "":
		return runtime.Call{}, errors.New(`"tool" is empty`)
	}
	call := runtime.Call{
		Tool: *c.Tool, Agent: c.Agent, State: c.State, Source: c.Source, Target: c.Target,
		Command: c.Command, MatchedPattern: c.MatchedPattern, Origin: c.Origin,
	}
	if c.Input != nil {
		call.Input = c.Input
	}
	return call, nil
}

// describeJSONError words encoding/json's errors for a JSONL user.
func describeJSONError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("invalid JSON at column %d: %s", syntax.Offset, strings.TrimPrefix(syntax.Error(), "json: "))
	case errors.As(err, &typ) && typ.Field == "":
		return fmt.Errorf("a call must be a JSON object, got %s", typ.Value)
	case errors.As(err, &typ):
		return fmt.Errorf("field %q must be a string, got %s", typ.Field, typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("invalid JSON: unexpected end of line")
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}

// lineReader reads lines of any length up to maxLineBytes and counts them.
type lineReader struct {
	r      *bufio.Reader
	buf    []byte
	line   int  // number of the line last returned
	failed bool // reading failed for good
}

var errLineTooLong = fmt.Errorf("line longer than %d MiB, skipped", maxLineBytes>>20)

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its line ending.
func (lr *lineReader) next() ([]byte, error) {
	lr.buf = lr.buf[:0]
	tooLong := false
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if !tooLong {
			if len(lr.buf)+len(chunk) > maxLineBytes {
				tooLong = true
				lr.buf = lr.buf[:0]
			} else {
				lr.buf = append(lr.buf, chunk...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(lr.buf) == 0 && !tooLong:
			return nil, io.EOF
		case err != nil && err != io.EOF:
			lr.line++
			lr.failed = true
			return nil, err
		}
		lr.line++
		if tooLong {
			return nil, errLineTooLong
		}
		return bytes.TrimRight(lr.buf, "\r\n"), nil
	}
}
