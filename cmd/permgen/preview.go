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
	"strconv"
	"strings"
	"time"

	"github.com/permgen/permgen/generated"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

const previewUsage = `Usage: permgen preview [flags] [FILE]

Reads tool calls as JSON Lines from FILE (or standard input when FILE is
absent or "-") and prints, for each call, its ask-prompt sentence (text) or
its preview, prompt and log context (json). One call per line:

	{"tool": "read", "input": {"path": "/src"}, "agent": "a1", "source": "tool",
	 "target": "srv:tool", "command": "git status", "matchedPattern": "git *",
	 "origin": "builtin", "state": "ask",
	 "annotations": {"readOnlyHint": true, "openWorldHint": false}}

FILE may also be an agent's transcript as the agent wrote it (a Claude Code
session, a Codex rollout, a pi / oh-my-pi session; see --from): each of its
tool calls is previewed.

Only "tool" is required. "annotations" are an MCP server's hints about the
tool (readOnlyHint, destructiveHint, idempotentHint, openWorldHint, title);
they raise the call's approval tier.

A call that carries other calls (a write to an oh-my-pi xd:// device, a
multi_tool_use.parallel call) is shown as the calls it carries, each
previewed as a call of its own. With --format json each object also has
"tier" (read, write, network, execute, or "" when unknown) and, for a
wrapper, "calls" ({"label", "preview", "tier", "calls", "hidden"}) and
"hidden" (calls carried and not shown). The stock catalog (formatters.yaml) is compiled in;
--catalog loads more formatters written in CEL beside it, and --override
loads formatters consulted before it (a decline falls through to the stock
formatter); calls whose tool has no formatter get the default preview. A bad line is reported on standard error with its
line number and skipped; the exit code is then 1. After 20 such reports the
remaining bad lines are only counted, in one line at the end.

A formatter that fails on a call (an evaluation error, a panic, a cost limit,
an input field of the wrong declared type) counts as a decline: the call gets
the default preview. Each failure is reported on standard error as
"FILE:LINE: formatter OWNER failed: MESSAGE" and, with --format json, in the
call's "failures" list ({"owner", "key", "error"}; absent when none); after
20 such reports the rest are only counted. A failure does not change the
exit code.

Flags:
`

// maxLineBytes bounds the content of one JSONL line (its line ending not
// counted), so a runaway file cannot exhaust memory.
const maxLineBytes = 64 << 20

type previewFlags struct {
	registryFlags
	format   string
	showTier bool
	from     string
	limits   limitFlags
}

func runPreview(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var opts previewFlags
	fs := newFlagSet("preview", previewUsage)
	fs.StringVar(&opts.format, "format", "text", "output format, `text|json`: text prints one sentence per call, json one object per call")
	opts.registryFlags.register(fs, "leave the compiled-in stock catalog (formatters.yaml) out: every tool gets the default JSON preview")
	fs.StringVar(&opts.from, "from", fromAuto, fromUsage)
	fs.BoolVar(&opts.showTier, "show-tier", false, "end each prompt with the call's approval tier (\"[network]\", \"[tier unknown]\")")
	opts.limits.register(fs, true)
	files, code, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if err := opts.validate(files); err != nil {
		return usageError(stderr, "preview", "%v", err)
	}

	reg, ok := opts.registry("preview", stderr)
	if !ok {
		return exitInvalid
	}
	var failures failureLog
	d, err := runtime.NewDispatcher(reg, runtime.Options{
		Limits: opts.limits.limits(), OnFailure: failures.add, ShowTier: opts.showTier,
	})
	if err != nil {
		return usageError(stderr, "preview", "%v", err)
	}

	return readCalls("preview", files, stdin, stdout, stderr, func(name string, in io.Reader, out io.Writer) bool {
		return previewCallsFrom(d, &failures, opts.format, opts.from, name, in, out, stderr)
	})
}

// readCalls runs a command over the JSONL calls of FILE, or of standard
// input when there is none or it is "-", with buffered output, and returns
// its exit code: 1 when the input cannot be read or a line was bad (as
// each reports).
func readCalls(command string, files []string, stdin io.Reader, stdout, stderr io.Writer,
	each func(name string, in io.Reader, out io.Writer) (bad bool)) int {
	name, in := "<stdin>", stdin
	if len(files) == 1 && files[0] != "-" {
		f, err := os.Open(files[0])
		if err != nil {
			errorf(stderr, command, "%v", err)
			return exitInvalid
		}
		defer f.Close()
		name, in = files[0], f
	}
	// Lines are short and many: a larger buffer writes them in fewer
	// system calls.
	out := bufio.NewWriterSize(stdout, 64<<10)
	bad := each(name, in, out)
	if err := out.Flush(); err != nil {
		errorf(stderr, command, "%v", err)
		return exitInvalid
	}
	if bad {
		return exitInvalid
	}
	return exitOK
}

// overrideFlag lets the catalog files of --catalog answer for an MCP tool
// beside another owner's "server:*".
const (
	overrideFlag  = "allow-override"
	overrideUsage = "let a --catalog entry \"server:tool\" answer for that tool in place of another catalog's \"server:*\" (the call's tier stays the highest either declares)"
)

// layerFlag loads catalog files into the layer above the stock catalog and
// the --catalog files.
const (
	layerFlag  = "override"
	layerName  = "override"
	layerUsage = "load a YAML catalog `FILE` whose formatters are consulted before the compiled-in catalog and --catalog files, each falling through to them when it declines (repeatable; the files share one layer, where a tool has one formatter); a call's tier stays the highest any declares"
)

// registryFlags are the flags that choose the catalogs a command describes
// calls with: --catalog, --override, --no-builtin and --allow-override.
type registryFlags struct {
	catalogs  stringList
	overrides stringList
	noBuiltin bool
	override  bool
}

// register defines the flags on fs; noBuiltin is the usage of
// --no-builtin, which says what the command does without the catalog.
func (r *registryFlags) register(fs *flag.FlagSet, noBuiltin string) {
	fs.Var(&r.catalogs, "catalog", "load a YAML catalog `FILE` at run time, in addition to the compiled-in catalog (repeatable)")
	fs.Var(&r.overrides, layerFlag, layerUsage)
	fs.BoolVar(&r.noBuiltin, "no-builtin", false, noBuiltin)
	fs.BoolVar(&r.override, overrideFlag, false, overrideUsage)
}

// registry returns the registry the flags choose (see newRegistry).
func (r *registryFlags) registry(command string, stderr io.Writer) (*runtime.Registry, bool) {
	return newRegistry(command, r.noBuiltin, r.override, r.catalogs, r.overrides, stderr)
}

// newRegistry returns a registry with the compiled-in catalog, unless
// noBuiltin is set, and the catalog files, loaded with the loader every
// command uses, which prints their diagnostics; override is
// celfmt.Options.Override for the files. The files of overrides go in the
// layer above, in which they may take keys the others hold.
func newRegistry(command string, noBuiltin, override bool, catalogs, overrides []string, stderr io.Writer) (*runtime.Registry, bool) {
	reg := runtime.NewRegistry()
	if !noBuiltin {
		if _, err := generated.Register(reg); err != nil {
			errorf(stderr, command, "the compiled-in catalog: %v", err)
			return nil, false
		}
	}
	for _, path := range catalogs {
		if !registerCatalogFile(command, reg, path, override, false, stderr) {
			return nil, false
		}
	}
	if len(overrides) == 0 {
		return reg, true
	}
	layer := reg.Layer(layerName)
	for _, path := range overrides {
		if !registerCatalogFile(command, layer, path, override, true, stderr) {
			return nil, false
		}
	}
	return reg, true
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
	if err := o.limits.validate(); err != nil {
		return err
	}
	if err := validFrom(o.from); err != nil {
		return err
	}
	if len(files) > 1 {
		return fmt.Errorf("takes at most one FILE, got %d", len(files))
	}
	return nil
}

// parseFlags parses a command's flags and returns its positional
// arguments. ok is false when the command is over, with code as its exit
// code: -h printed the usage once, on stdout; a bad flag printed the
// problem, as a usage error, on stderr.
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (rest []string, code int, ok bool) {
	// The flag package prints the problem and the whole usage itself, on
	// its output, both for -h and for an error: silence it and print what
	// belongs where.
	fs.SetOutput(io.Discard)
	rest, err := parseInterspersed(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdout)
		fs.Usage()
		return nil, exitOK, false
	case err != nil:
		return nil, usageError(stderr, fs.Name(), "%v", err), false
	}
	return rest, exitOK, true
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

// jsonResult is one line of --format json output.
type jsonResult struct {
	Tool      string             `json:"tool"`
	Preview   string             `json:"preview"`
	Prompt    string             `json:"prompt"`
	Log       runtime.LogContext `json:"log"`
	Formatter string             `json:"formatter"`
	Tier      runtime.Tier       `json:"tier"`
	Calls     []jsonCall         `json:"calls,omitempty"`
	Hidden    int                `json:"hidden,omitempty"`
	Failures  []jsonFailure      `json:"failures,omitempty"`
}

// jsonCall is a call a wrapper carries, in --format json output.
type jsonCall struct {
	Label     string       `json:"label"`
	Preview   string       `json:"preview"`
	Formatter string       `json:"formatter"`
	Tier      runtime.Tier `json:"tier"`
	Calls     []jsonCall   `json:"calls,omitempty"`
	Hidden    int          `json:"hidden,omitempty"`
}

func jsonCalls(calls []runtime.WrappedCall) []jsonCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]jsonCall, len(calls))
	for i, c := range calls {
		out[i] = jsonCall{
			Label: c.Label, Preview: c.Preview.Text, Formatter: c.Preview.Formatter,
			Tier: c.Tier, Calls: jsonCalls(c.Calls), Hidden: c.Hidden,
		}
	}
	return out
}

// jsonFailure is a formatter failure in --format json output.
type jsonFailure struct {
	Owner string `json:"owner"`
	Key   string `json:"key"`
	Error string `json:"error"`
}

// failureLog collects the formatter failures of one call, and counts those
// reported for the file being read.
type failureLog struct {
	list     []runtime.Failure
	reported int
}

func (l *failureLog) add(f runtime.Failure) { l.list = append(l.list, f) }

// take returns the failures collected so far, as the dispatcher's outputs
// show text (redacted and sanitized), and forgets them.
func (l *failureLog) take(limit int) []jsonFailure {
	if len(l.list) == 0 {
		return nil
	}
	out := make([]jsonFailure, len(l.list))
	for i, f := range l.list {
		out[i] = jsonFailure{
			Owner: runtime.OutputText(f.Owner, runtime.Reveal, limit),
			Key:   runtime.OutputText(f.Key, runtime.Reveal, limit),
			Error: runtime.OutputText(f.Err.Error(), runtime.Reveal, limit),
		}
	}
	l.list = l.list[:0]
	return out
}

// report takes the failures collected for the call of a line, reports
// them on stderr (the first maxBadLines of a file) and returns them.
func (l *failureLog) report(stderr io.Writer, name string, line, limit int) []jsonFailure {
	failed := l.take(limit)
	for _, f := range failed {
		if l.reported++; l.reported <= maxBadLines {
			fmt.Fprintf(stderr, "%s:%d: formatter %s failed: %s\n", name, line, f.Owner, f.Error)
		}
	}
	return failed
}

// endFile reports, once a file is read, how many of its failures were not
// reported one by one.
func (l *failureLog) endFile(stderr io.Writer, command, name string) {
	countRest(stderr, command, name, l.reported-maxBadLines, "more formatter failure not shown", "more formatter failures not shown")
	l.reported = 0
}

// maxBadLines is how many bad lines, and how many formatter failures,
// preview reports one by one; the rest are counted in one line at the end.
const maxBadLines = 20

// countRest reports, at the end, how many more of what were left unreported.
func countRest(stderr io.Writer, command, name string, more int, singular, plural string) {
	if more > 0 {
		errorf(stderr, command, "%s: %s", name, textfmt.CountPhrase(more, singular, plural))
	}
}

// previewCalls previews every call read from in and reports whether any
// line was bad. Formatter failures, collected in failures, are reported on
// stderr, and in the json format in the call's object too; they do not
// make a line bad.
func previewCalls(d *runtime.Dispatcher, failures *failureLog, format, name string, in io.Reader, out io.Writer, stderr io.Writer) (bad bool) {
	return previewCallsFrom(d, failures, format, fromAuto, name, in, out, stderr)
}

// previewCallsFrom is previewCalls of input in the format from (--from).
func previewCallsFrom(d *runtime.Dispatcher, failures *failureLog, format, from, name string, in io.Reader, out io.Writer, stderr io.Writer) (bad bool) {
	defer failures.endFile(stderr, "preview", name)
	var buf []byte // one line of output, reused
	return readTranscript("preview", name, from, in, stderr, false, func(line int, call runtime.Call, _ *runtime.Result) {
		if format == "text" {
			prompt := d.Prompt(call)
			failures.report(stderr, name, line, d.Limits().Output)
			buf = append(append(buf[:0], prompt...), '\n')
			out.Write(buf)
			return
		}
		desc := d.Describe(call)
		failed := failures.report(stderr, name, line, d.Limits().Output)
		r := newResult(d, call, desc, failed)
		buf = appendResult(buf[:0], &r)
		out.Write(buf)
	})
}

// newResult returns the --format json object of a described call. The
// tool name is shown as the dispatcher's outputs show text: a model names
// the tool, and may put a credential in its name.
func newResult(d *runtime.Dispatcher, call runtime.Call, desc runtime.Description, failed []jsonFailure) jsonResult {
	return jsonResult{
		Tool:      runtime.OutputText(call.Tool, runtime.Reveal, d.Limits().Output),
		Preview:   desc.Preview.Text,
		Prompt:    desc.Prompt,
		Log:       desc.Log,
		Formatter: desc.Preview.Formatter,
		Tier:      desc.Tier,
		Calls:     jsonCalls(desc.Calls),
		Hidden:    desc.Hidden,
		Failures:  failed,
	}
}

// eachCall reads JSONL calls from in and hands each to handle with its
// line number; with withResult a line may carry the call's result. Blank
// lines are skipped. A bad line is reported on stderr with its line number
// (the first maxBadLines of them; the rest are counted at the end) and
// skipped; a read error ends the input. It reports whether any line was
// bad.
func eachCall(command, name string, in io.Reader, stderr io.Writer, withResult bool,
	handle func(line int, call runtime.Call, result *runtime.Result)) (bad bool) {
	lines := newLineReader(in)
	var dec value.Decoder // reused from line to line
	badLines := 0
	defer func() {
		countRest(stderr, command, name, badLines-maxBadLines, "more bad line skipped", "more bad lines skipped")
	}()
	for {
		line, err := lines.next()
		if err == io.EOF {
			return bad
		}
		if err == nil && len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var call runtime.Call
		var result *runtime.Result
		if err == nil {
			call, result, err = parseCallLine(&dec, line, withResult)
		}
		if err != nil {
			bad = true
			if lines.failed {
				// A read error ends the input: always say so.
				fmt.Fprintf(stderr, "%s:%d: %v\n", name, lines.line, err)
				return bad
			}
			if badLines++; badLines <= maxBadLines {
				fmt.Fprintf(stderr, "%s:%d: %v\n", name, lines.line, err)
			}
			continue
		}
		handle(lines.line, call, result)
	}
}

// maxPlainLine bounds the lines whose text a call keeps for the
// dispatcher (see value.Input): a copy of a longer one would cost more
// memory than reading its value saves time.
const maxPlainLine = 64 << 10

// parseCallLine decodes one JSONL line into a call and, when withResult is
// set, the call's result, which the line may carry in its "result" field.
//
// The line is decoded once, by the value model's decoder, and the call's
// input is handed on as the decoded value: encoding/json would copy the
// input's text and the dispatcher would then decode it again, which for a
// long line costs several times its size. encoding/json only explains
// lines that are not valid JSON. dec is the decoder of the file's lines.
func parseCallLine(dec *value.Decoder, line []byte, withResult bool) (runtime.Call, *runtime.Result, error) {
	v, err := dec.Decode(line)
	if err != nil {
		return runtime.Call{}, nil, explainBadJSON(line, err, "the call's JSON object")
	}
	o, ok := v.(*value.Object)
	if !ok {
		return runtime.Call{}, nil, fmt.Errorf("a call must be a JSON object, got %s", value.Kind(v))
	}
	var call runtime.Call
	var result *runtime.Result
	var duration time.Duration
	hasTool := false
	for key, v := range o.All() {
		// encoding/json matched field names without regard to case;
		// so does this.
		name := ""
		for _, f := range callFields {
			if strings.EqualFold(key, f) {
				name = f
				break
			}
		}
		if withResult && strings.EqualFold(key, "result") {
			name = "result"
		}
		if withResult && strings.EqualFold(key, "durationMs") {
			d, err := parseDuration(v)
			if err != nil {
				return runtime.Call{}, nil, err
			}
			duration = d
			continue
		}
		if name == "" {
			return runtime.Call{}, nil, fmt.Errorf("unknown field %q", key)
		}
		switch name {
		case "input":
			call.Input = value.Input{Value: v}
			if len(line) <= maxPlainLine {
				// The line holds the input's text: the dispatcher reads
				// it to tell that the call carries no credential.
				call.Input = value.Input{Value: v, Raw: string(line)}
			}
			continue
		case "annotations":
			a, err := parseAnnotations(v)
			if err != nil {
				return runtime.Call{}, nil, err
			}
			call.Annotations = a
			continue
		case "result":
			if result, err = parseResult(v); err != nil {
				return runtime.Call{}, nil, err
			}
			continue
		}
		if v == nil {
			continue // null leaves a field unset
		}
		text, ok := v.(string)
		if !ok {
			return runtime.Call{}, nil, fmt.Errorf("field %q must be a string, got %s", name, value.Kind(v))
		}
		switch name {
		case "tool":
			call.Tool, hasTool = text, true
		case "agent":
			call.Agent = text
		case "state":
			call.State = text
		case "source":
			call.Source = text
		case "target":
			call.Target = text
		case "command":
			call.Command = text
		case "matchedPattern":
			call.MatchedPattern = text
		case "origin":
			call.Origin = text
		case "id":
			call.ID = text
		}
	}
	switch {
	case !hasTool:
		return runtime.Call{}, nil, errors.New(`missing "tool"`)
	case call.Tool == "":
		return runtime.Call{}, nil, errors.New(`"tool" is empty`)
	}
	if result != nil && duration > 0 {
		result.Duration = duration
	}
	return call, result, nil
}

// maxDurationMs bounds a call's durationMs: a year, far beyond any call,
// and far within time.Duration.
const maxDurationMs = 365 * 24 * 3600 * 1000

// parseDuration reads a call's durationMs: how long it ran, in
// milliseconds, a number from 0 to maxDurationMs, or null.
func parseDuration(v any) (time.Duration, error) {
	if v == nil {
		return 0, nil
	}
	n, ok := v.(value.Number)
	if !ok {
		return 0, fmt.Errorf(`field "durationMs" must be a number of milliseconds, got %s`, value.Kind(v))
	}
	ms := n.Float64()
	if !(ms >= 0 && ms <= maxDurationMs) {
		return 0, fmt.Errorf(`field "durationMs" must be from 0 to %d milliseconds, got %s`, maxDurationMs, n)
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// parseResult reads a call's result: {"content": [{"type", "text"}, …],
// "details": …, "isError": bool}.
func parseResult(v any) (*runtime.Result, error) {
	if v == nil {
		return nil, nil
	}
	o, ok := v.(*value.Object)
	if !ok {
		return nil, fmt.Errorf(`field "result" must be an object, got %s`, value.Kind(v))
	}
	var r runtime.Result
	for key, v := range o.All() {
		switch key {
		case "content":
			items, ok := v.([]any)
			if !ok && v != nil {
				return nil, fmt.Errorf(`result "content" must be a list, got %s`, value.Kind(v))
			}
			for i, item := range items {
				c, ok := item.(*value.Object)
				if !ok {
					return nil, fmt.Errorf(`result "content" item %d must be an object, got %s`, i+1, value.Kind(item))
				}
				typ, _ := field(c, "type").(string)
				text, _ := field(c, "text").(string)
				r.Content = append(r.Content, runtime.Content{Type: typ, Text: text})
			}
		case "details":
			r.Details = v
		case "isError":
			b, ok := v.(bool)
			if !ok && v != nil {
				return nil, fmt.Errorf(`result "isError" must be a boolean, got %s`, value.Kind(v))
			}
			r.IsError = b
		default:
			return nil, fmt.Errorf("unknown result field %q (known: content, details, isError)", key)
		}
	}
	return &r, nil
}

// field returns the value of key in o, or nil.
func field(o *value.Object, key string) any {
	v, _ := o.Get(key)
	return v
}

// callFields are the fields of a call line.
var callFields = []string{"tool", "input", "agent", "state", "source", "target", "command", "matchedPattern", "origin", "annotations", "id"}

// parseAnnotations reads a call's MCP tool annotations: an object of the
// protocol's hints, each a boolean or null, and its title, which says
// nothing about the tier.
func parseAnnotations(v any) (*runtime.Annotations, error) {
	if v == nil {
		return nil, nil
	}
	o, ok := v.(*value.Object)
	if !ok {
		return nil, fmt.Errorf(`field "annotations" must be an object, got %s`, value.Kind(v))
	}
	var a runtime.Annotations
	for key, v := range o.All() {
		var hint **bool
		switch key {
		case "readOnlyHint":
			hint = &a.ReadOnlyHint
		case "destructiveHint":
			hint = &a.DestructiveHint
		case "idempotentHint":
			hint = &a.IdempotentHint
		case "openWorldHint":
			hint = &a.OpenWorldHint
		case "title":
			title, ok := v.(string)
			if !ok && v != nil {
				return nil, fmt.Errorf("annotation %q must be a string, got %s", key, value.Kind(v))
			}
			a.Title = title
			continue
		default:
			return nil, fmt.Errorf("unknown annotation %q (known: readOnlyHint, destructiveHint, idempotentHint, openWorldHint, title)", key)
		}
		switch b := v.(type) {
		case bool:
			*hint = &b
		case nil:
		default:
			return nil, fmt.Errorf("annotation %q must be a boolean, got %s", key, value.Kind(v))
		}
	}
	return &a, nil
}

// explainBadJSON says why text is not valid JSON, in encoding/json's
// words and with its column numbers; err is the decoder's reason and what
// names the value the text should hold.
func explainBadJSON(line []byte, err error, what string) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	// Raw, the value is checked but not built: a long line costs its size.
	if err := dec.Decode(new(json.RawMessage)); err != nil {
		return describeJSONError(err)
	}
	if dec.InputOffset() < int64(len(bytes.TrimRight(line, " \t\r\n"))) {
		return fmt.Errorf("text after %s at column %d", what, dec.InputOffset()+1)
	}
	return err
}

// describeJSONError words encoding/json's errors for a JSONL user.
func describeJSONError(err error) error {
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("invalid JSON at column %d: %s", syntax.Offset, strings.TrimPrefix(syntax.Error(), "json: "))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("invalid JSON: unexpected end of line")
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}

// lineReader reads lines whose content (without the line ending) is at
// most max bytes, and counts them. A long line is gathered in blocks and
// joined once, so reading it allocates about twice its size rather than
// the series of ever larger copies that appending to one buffer leaves.
type lineReader struct {
	r      *bufio.Reader
	max    int
	blocks [][]byte // the pieces of the current line, reused
	joined []byte   // the current line when it spans blocks, reused
	line   int      // number of the line last returned
	failed bool     // reading failed for good
}

// blockSize is the size of the blocks a line is gathered in.
const blockSize = 1 << 20

var errLineTooLong = errors.New("line longer than " + strconv.Itoa(maxLineBytes>>20) + " MiB, skipped")

// newLineReader reads lines from r, skipping a UTF-8 byte order mark at
// its start, which some editors write and which is no part of the first
// call.
func newLineReader(r io.Reader) *lineReader {
	br := bufio.NewReaderSize(r, 64<<10)
	if bom, _ := br.Peek(3); string(bom) == "\uFEFF" {
		br.Discard(3)
	}
	return &lineReader{r: br, max: maxLineBytes}
}

// next returns the next line without its line ending. The line is valid
// until the next call.
func (lr *lineReader) next() ([]byte, error) {
	chunk, err := lr.r.ReadSlice('\n')
	if err == nil || err == io.EOF && len(chunk) > 0 {
		// The whole line is in the reader's buffer, as nearly every line
		// is: it is used in place, without a copy or a block.
		lr.line++
		line := bytes.TrimSuffix(bytes.TrimSuffix(chunk, []byte("\n")), []byte("\r"))
		if len(line) > lr.max {
			return nil, errLineTooLong
		}
		return line, nil
	}
	for i := range lr.blocks {
		lr.blocks[i] = lr.blocks[i][:0]
	}
	n, size, tooLong := 0, 0, false // blocks in use, bytes read
	for first := true; ; first = false {
		if !first {
			chunk, err = lr.r.ReadSlice('\n')
		}
		// A line ending is at most two bytes (CRLF): until the end is
		// seen, only more than max+2 bytes prove the content too long.
		if size += len(chunk); size > lr.max+2 {
			tooLong = true
		}
		for !tooLong && len(chunk) > 0 {
			if n == 0 || len(lr.blocks[n-1]) == cap(lr.blocks[n-1]) {
				if n == len(lr.blocks) {
					lr.blocks = append(lr.blocks, make([]byte, 0, blockSize))
				}
				n++
			}
			b := lr.blocks[n-1]
			k := min(len(chunk), cap(b)-len(b))
			lr.blocks[n-1] = append(b, chunk[:k]...)
			chunk = chunk[k:]
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && size == 0:
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
		line := lr.join(n)
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > lr.max {
			return nil, errLineTooLong
		}
		return line, nil
	}
}

// join returns the first n blocks as one slice.
func (lr *lineReader) join(n int) []byte {
	switch n {
	case 0:
		return nil
	case 1:
		return lr.blocks[0]
	}
	size := 0
	for _, b := range lr.blocks[:n] {
		size += len(b)
	}
	if cap(lr.joined) < size {
		lr.joined = make([]byte, 0, size)
	}
	lr.joined = lr.joined[:0]
	for _, b := range lr.blocks[:n] {
		lr.joined = append(lr.joined, b...)
	}
	return lr.joined
}
