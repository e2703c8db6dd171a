//go:build !permgen_lean

package main

// The benchmark tables of the docs are made here, the way golden files are:
// a block in a markdown file names the go test command that measures it, and
//
//	go test ./cmd/permgen -run '^TestBenchmarkDocs$' -update-benchmarks -timeout 0 -v
//
// runs every block's command and rewrites the block's table. Without the flag
// the test only checks that the blocks parse and that no figure is typed by
// hand outside them, so a stale or invented number cannot slip into the docs.
//
// The stages keep plain data between them: parseBenchDoc reads the blocks,
// parseBenchOutput reads what go test printed, summarizeBench takes medians
// and names the rows, renderBenchTable writes markdown.

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateBenchmarks = flag.Bool("update-benchmarks", false, "run the command of each benchmarks block in the docs and rewrite its table")

var benchmarksOnly = flag.String("benchmarks-only", "", "with -update-benchmarks, rewrite only the blocks whose command matches this `regexp`")

// benchmarkDocs are the docs, relative to the repository root, whose figures
// live only in generated blocks. A doc that is not written yet is skipped
// rather than failed, so the check applies from the day the doc lands.
var benchmarkDocs = []string{"docs/benchmarks.md"}

// benchRepoRoot is where the blocks' commands run, so that their package
// patterns read the same in the doc as in a terminal at the top of the module.
const benchRepoRoot = "../.."

const (
	benchOpenMarker = "<!-- benchmarks: go test … -bench … -->"
	benchEndMarker  = "<!-- end benchmarks -->"
	benchRegenerate = "go test ./cmd/permgen -run '^TestBenchmarkDocs$' -update-benchmarks"
)

func TestBenchmarkDocs(t *testing.T) {
	for _, rel := range benchmarkDocs {
		t.Run(rel, func(t *testing.T) {
			path := filepath.Join(benchRepoRoot, filepath.FromSlash(rel))
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				t.Skipf("%s is not written yet", rel)
			}
			if !*updateBenchmarks {
				if err := checkBenchmarkFile(path, rel); err != nil {
					t.Fatal(err)
				}
				return
			}
			ctx := t.Context()
			if deadline, ok := t.Deadline(); ok {
				// Stop the benchmarks before the test binary's own timeout
				// panics, which would leave them running with no report.
				var cancel context.CancelFunc
				ctx, cancel = context.WithDeadline(ctx, deadline.Add(-5*time.Second))
				defer cancel()
			}
			goTest := goBenchRunner(ctx, benchRepoRoot)
			run := func(args []string) ([]byte, error) {
				t.Logf("%s: running %q", rel, args)
				return goTest(args)
			}
			only, err := regexp.Compile(*benchmarksOnly)
			require.NoError(t, err, "-benchmarks-only")
			if err := updateBenchmarkFile(path, rel, run, only); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// checkBenchmarkFile reads a doc and reports every problem in it.
func checkBenchmarkFile(path, name string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc, errs := parseBenchDoc(name, string(data))
	errs = append(errs, scanFigures(doc)...)
	errs = append(errs, checkBenchBodies(doc)...)
	return errs.Err()
}

// updateBenchmarkFile regenerates every block of a doc and writes it only
// when all blocks succeeded, so a failed run never leaves half a doc.
func updateBenchmarkFile(path, name string, run benchRunner, only *regexp.Regexp) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc, errs := parseBenchDoc(name, string(data))
	// The figure scan does not depend on the tables: fail before minutes of
	// benchmarks rather than after.
	errs = append(errs, scanFigures(doc)...)
	if err := errs.Err(); err != nil {
		return err
	}
	content, err := regenerateBenchDoc(doc, run, only)
	if err != nil {
		return err
	}
	return writeAtomic(path, []byte(content))
}

// benchRunner runs a block's command, args[0] being "go", and returns what
// it printed.
type benchRunner func(args []string) ([]byte, error)

func goBenchRunner(ctx context.Context, dir string) benchRunner {
	return func(args []string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "go", args[1:]...)
		cmd.Dir = dir
		// The test binary go test starts may outlive a killed go command and
		// hold the output pipe open; do not wait for it forever.
		cmd.WaitDelay = 5 * time.Second
		return cmd.CombinedOutput()
	}
}

// regenerateBenchDoc returns the doc with the body of each block whose
// command only matches (each block, when only is nil) replaced by the table
// its command produces now. Lines outside those blocks are kept byte for
// byte.
func regenerateBenchDoc(doc benchDoc, run benchRunner, only *regexp.Regexp) (string, error) {
	var b strings.Builder
	next := 0
	for _, blk := range doc.Blocks {
		if only != nil && !only.MatchString(blk.Command) {
			continue // its lines are copied with the text after it
		}
		for _, line := range doc.Lines[next:blk.Line] {
			b.WriteString(line)
		}
		out, err := run(blk.Args)
		if err != nil {
			return "", docError{doc.File, blk.Line, fmt.Sprintf("%s: %v\n%s", blk.Command, err, out)}
		}
		body, err := renderBenchOutput(string(out), blk.Base)
		if err != nil {
			return "", docError{doc.File, blk.Line, fmt.Sprintf("%s: %v\n%s", blk.Command, err, out)}
		}
		b.WriteString(body)
		next = blk.EndLine - 1
	}
	for _, line := range doc.Lines[next:] {
		b.WriteString(line)
	}
	return b.String(), nil
}

// renderBenchOutput is the body of a block from its command's output.
func renderBenchOutput(out, base string) (string, error) {
	parsed, err := parseBenchOutput(out)
	if err != nil {
		return "", err
	}
	table, err := summarizeBench(parsed)
	if err != nil {
		return "", err
	}
	return renderBenchTable(table, base)
}

// docError is a problem at a line of a doc.
type docError struct {
	File string
	Line int
	Msg  string
}

func (e docError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// docErrors holds every problem of a doc, so that one run shows them all.
type docErrors []docError

func (l docErrors) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Err is nil for no problems, else the list sorted by position.
func (l docErrors) Err() error {
	if len(l) == 0 {
		return nil
	}
	slices.SortStableFunc(l, func(a, b docError) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return l
}

// benchBlock is one generated block of a doc.
type benchBlock struct {
	Line    int      // of the opening marker, from 1
	EndLine int      // of the end marker; one past the last line when it is missing
	Command string   // as the marker writes it
	Args    []string // Command split as a shell would; Args[0] is "go"
	Base    string   // the row the ratio column divides by; none when empty
	Body    string   // the lines between the markers
}

// benchDoc is a markdown file cut into lines, each with its line ending, so
// that rewriting the blocks leaves everything else as it was.
type benchDoc struct {
	File   string
	Lines  []string
	Blocks []benchBlock
}

// parseBenchDoc finds the blocks of a doc. The doc it returns holds every
// block it could delimit, even with errors, so that the figure scan still
// knows which lines are generated.
func parseBenchDoc(file, content string) (benchDoc, docErrors) {
	doc := benchDoc{File: file, Lines: strings.SplitAfter(content, "\n")}
	if doc.Lines[len(doc.Lines)-1] == "" {
		doc.Lines = doc.Lines[:len(doc.Lines)-1]
	}
	var errs docErrors
	fail := func(line int, format string, args ...any) {
		errs = append(errs, docError{file, line, fmt.Sprintf(format, args...)})
	}
	var fence codeFence
	var open *benchBlock
	for i, raw := range doc.Lines {
		n := i + 1
		if open == nil && fence.step(raw) != proseLine {
			// A marker in fenced code is an example of one, not a block.
			continue
		}
		line := strings.TrimSpace(raw)
		kind, spec := benchMarker(line)
		switch kind {
		case markerOpen, markerBadOpen:
			if open != nil {
				fail(n, "a benchmarks block opens inside the block of line %d", open.Line)
				continue
			}
			open = &benchBlock{Line: n}
			if kind == markerBadOpen {
				fail(n, "malformed marker %q: want %s", line, benchOpenMarker)
				continue
			}
			for _, msg := range parseBenchMarker(spec, open) {
				fail(n, "%s", msg)
			}
		case markerEnd, markerBadEnd:
			if kind == markerBadEnd {
				fail(n, "malformed marker %q: want %s", line, benchEndMarker)
			}
			if open == nil {
				fail(n, "%s without an opening %s", benchEndMarker, benchOpenMarker)
				continue
			}
			open.EndLine = n
			doc.Blocks = append(doc.Blocks, *open)
			open = nil
		default:
			if open != nil {
				open.Body += raw
			}
		}
	}
	if open != nil {
		fail(open.Line, "the benchmarks block has no %s", benchEndMarker)
		open.EndLine = len(doc.Lines) + 1
		doc.Blocks = append(doc.Blocks, *open)
	}
	return doc, errs
}

type markerKind int

const (
	notMarker markerKind = iota
	markerOpen
	markerBadOpen
	markerEnd
	markerBadEnd
)

// benchMarker tells a marker line from others, and returns what an opening
// marker says between "benchmarks:" and "-->". A line that starts like a
// marker but is not one is an error, not prose, lest a typo silently turn a
// block into hand-typed figures.
func benchMarker(line string) (markerKind, string) {
	rest, ok := strings.CutPrefix(line, "<!--")
	if !ok {
		return notMarker, ""
	}
	rest = strings.TrimSpace(rest)
	switch {
	case strings.HasPrefix(rest, "benchmarks"):
		spec, ok := strings.CutPrefix(rest, "benchmarks:")
		if spec, closed := strings.CutSuffix(spec, "-->"); ok && closed {
			return markerOpen, strings.TrimSpace(spec)
		}
		return markerBadOpen, ""
	case strings.HasPrefix(strings.Join(strings.Fields(rest), " "), "end benchmarks"):
		if strings.Join(strings.Fields(rest), " ") == "end benchmarks -->" {
			return markerEnd, ""
		}
		return markerBadEnd, ""
	}
	return notMarker, ""
}

// parseBenchMarker fills blk from an opening marker's text: a command, then
// options after " ; ". It returns what is wrong with it.
func parseBenchMarker(spec string, blk *benchBlock) []string {
	parts := splitOutsideQuotes(spec, ';')
	blk.Command = strings.TrimSpace(parts[0])
	var msgs []string
	args, err := splitBenchCommand(blk.Command)
	if err == nil {
		err = checkBenchCommand(args)
	}
	if err != nil {
		msgs = append(msgs, err.Error())
	}
	blk.Args = args
	seen := map[string]bool{}
	for _, opt := range parts[1:] {
		key, value, _ := strings.Cut(strings.TrimSpace(opt), "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case key != "base":
			msgs = append(msgs, fmt.Sprintf("unknown option %q: the one option is base=<row>", strings.TrimSpace(opt)))
		case seen[key]:
			msgs = append(msgs, fmt.Sprintf("option %s is given twice", key))
		case value == "":
			msgs = append(msgs, "option base needs a row name: base=<row>")
		default:
			blk.Base = value
		}
		seen[key] = true
	}
	return msgs
}

// splitOutsideQuotes cuts s at each sep that is not inside single quotes, so
// that a quoted -bench pattern keeps its characters.
func splitOutsideQuotes(s string, sep byte) []string {
	var parts []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			quoted = !quoted
		case sep:
			if !quoted {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// splitBenchCommand splits a command into arguments as a shell would, with
// single quotes only. The command runs without a shell, so anything a shell
// would treat specially outside quotes is refused rather than passed on
// literally: the doc would show a command that does not do what it says.
func splitBenchCommand(cmd string) ([]string, error) {
	if strings.Contains(cmd, ";") {
		return nil, errors.New("a command may not contain ;")
	}
	var args []string
	var arg strings.Builder
	inArg, quoted := false, false
	for _, r := range cmd {
		switch {
		case quoted:
			if r == '\'' {
				quoted = false
			} else {
				arg.WriteRune(r)
			}
		case r == '\'':
			quoted, inArg = true, true
		case r == ' ' || r == '\t':
			if inArg {
				args = append(args, arg.String())
				arg.Reset()
				inArg = false
			}
		case strings.ContainsRune("|&<>()$`\"\\", r):
			return nil, fmt.Errorf("the command runs without a shell: %q must be inside single quotes", r)
		default:
			arg.WriteRune(r)
			inArg = true
		}
	}
	if quoted {
		return nil, errors.New("the command has an unterminated single quote")
	}
	if inArg {
		args = append(args, arg.String())
	}
	return args, nil
}

func checkBenchCommand(args []string) error {
	if len(args) < 2 || args[0] != "go" || args[1] != "test" {
		return fmt.Errorf("not a go test … -bench … command: %q", strings.Join(args, " "))
	}
	bench := false
	for i := 2; i < len(args); i++ {
		if !strings.HasPrefix(args[i], "-") {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		switch name {
		case "bench", "test.bench":
			if !hasValue && i+1 < len(args) {
				value = args[i+1]
			}
			bench = bench || value != ""
		case "json", "test.json":
			return errors.New("the command may not use -json: its table is read from the text output")
		}
	}
	if !bench {
		return fmt.Errorf("not a go test … -bench … command: %q has no -bench pattern", strings.Join(args, " "))
	}
	return nil
}

// checkBenchBodies reports blocks whose body is not a generated table: a new
// marker not run yet, or a table edited by hand.
func checkBenchBodies(doc benchDoc) docErrors {
	var errs docErrors
	for _, blk := range doc.Blocks {
		lines := strings.Split(strings.TrimSpace(blk.Body), "\n")
		switch {
		case strings.TrimSpace(blk.Body) == "":
			errs = append(errs, docError{doc.File, blk.Line, "the benchmarks block has no table yet: run " + benchRegenerate})
		case !strings.HasPrefix(lines[0], "| benchmark ") || !strings.HasPrefix(lines[len(lines)-1], "_medians of "):
			errs = append(errs, docError{doc.File, blk.Line, "the benchmarks block does not hold a generated table: run " + benchRegenerate})
		}
	}
	return errs
}

type lineKind int

const (
	proseLine lineKind = iota
	fenceLine          // opens or closes fenced code
	codeLine           // inside fenced code
)

// codeFence follows fenced code blocks through a doc, line by line.
type codeFence struct {
	char byte // '`' or '~' while inside fenced code
	n    int  // length of the opening fence
}

func (f *codeFence) step(line string) lineKind {
	s := strings.TrimRight(line, "\r\n")
	if indent := len(s) - len(strings.TrimLeft(s, " ")); indent <= 3 {
		s = s[indent:]
	} else {
		s = ""
	}
	run := 0
	for run < len(s) && (s[run] == '`' || s[run] == '~') && s[run] == s[0] {
		run++
	}
	if f.n == 0 {
		if run >= 3 {
			f.char, f.n = s[0], run
			return fenceLine
		}
		return proseLine
	}
	if run >= f.n && s[0] == f.char && strings.TrimSpace(s[run:]) == "" {
		f.n = 0
		return fenceLine
	}
	return codeLine
}

var (
	// figureRE finds a number followed by a time or size unit, a per-op
	// unit, or a ratio sign. The trailing group keeps "3 steps", "2 users"
	// and 0x1f from counting.
	figureRE = regexp.MustCompile(`\b(\d+(?:[.,]\d+)*(?:` +
		`[ \x{00A0}\x{2009}\x{202F}]?(?:ns|[µμu]s|ms|s|B/op|[kKMG]i?B|\pL+/op|×)` +
		`|x))(?:[^\pL\pN]|$)`)
	// flagValueRE finds a command-line flag and its value: -count 6 and
	// -benchtime=3x say how a benchmark runs, not what it measured.
	flagValueRE = regexp.MustCompile(`(^|\s)--?[A-Za-z][\w.-]*(?:=|\s+)\S+`)
	headingRE   = regexp.MustCompile(`^ {0,3}#{1,6}(?:\s|$)`)
)

// scanFigures reports lines outside the blocks that state a benchmark
// figure. Fenced code is scanned too, since pasted benchmark output is the
// very thing to catch; only its flag values are spared.
func scanFigures(doc benchDoc) docErrors {
	generated := make([]bool, len(doc.Lines)+2)
	for _, blk := range doc.Blocks {
		for n := blk.Line; n <= blk.EndLine && n < len(generated); n++ {
			generated[n] = true
		}
	}
	var errs docErrors
	var fence codeFence
	for i, raw := range doc.Lines {
		n := i + 1
		if generated[n] {
			continue
		}
		var figures []string
		switch fence.step(raw) {
		case proseLine:
			figures = figuresIn(raw, false)
		case codeLine:
			figures = figuresIn(raw, true)
		}
		if len(figures) > 0 {
			quoted := make([]string, len(figures))
			for i, f := range figures {
				quoted[i] = strconv.Quote(f)
			}
			errs = append(errs, docError{doc.File, n, "a figure outside a generated block: " + strings.Join(quoted, ", ")})
		}
	}
	return errs
}

// figuresIn returns the figures a line states. In prose, headings and code
// spans are left out: a heading names a section, a code span quotes a
// command or an identifier.
func figuresIn(line string, code bool) []string {
	line = strings.TrimRight(line, "\r\n")
	if !code {
		if headingRE.MatchString(line) {
			return nil
		}
		line = stripCodeSpans(line)
	}
	line = flagValueRE.ReplaceAllString(line, "$1")
	var figures []string
	for _, m := range figureRE.FindAllStringSubmatch(line, -1) {
		figures = append(figures, m[1])
	}
	return figures
}

// stripCodeSpans blanks the code spans of a line: a run of backquotes up to
// the next run of the same length, as CommonMark reads them. A run with no
// match is literal text.
func stripCodeSpans(s string) string {
	runAt := func(i int) int {
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		return j - i
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '`' {
			b.WriteByte(s[i])
			i++
			continue
		}
		n := runAt(i)
		end := -1
		for j := i + n; j < len(s); {
			if s[j] != '`' {
				j++
				continue
			}
			m := runAt(j)
			if m == n {
				end = j + m
				break
			}
			j += m
		}
		if end < 0 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteByte(' ')
		i = end
	}
	return b.String()
}

// benchOutput is what go test -bench printed, one run per result line.
type benchOutput struct {
	Goos, Goarch, CPU string
	Runs              []benchRun
}

type benchRun struct {
	Pkg    string
	Name   string // without Benchmark and the GOMAXPROCS suffix
	Procs  int
	Values []benchValue // in the order of the line
}

type benchValue struct {
	Unit  string
	Value float64
}

var procsSuffixRE = regexp.MustCompile(`-(\d+)$`)

// parseBenchOutput reads the text output of go test -bench. Lines that are
// not results (logs, PASS, ok, a benchmark's name printed before its log
// output) are skipped, as golang.org/x/perf/benchfmt skips them.
func parseBenchOutput(out string) (benchOutput, error) {
	var res benchOutput
	pkg := ""
	for line := range strings.Lines(out) {
		line = strings.TrimSpace(line)
		if key, value, ok := strings.Cut(line, ":"); ok && !strings.ContainsAny(key, " \t") {
			value = strings.TrimSpace(value)
			switch key {
			case "goos":
				res.Goos = value
				continue
			case "goarch":
				res.Goarch = value
				continue
			case "cpu":
				res.CPU = cmp.Or(res.CPU, value)
				continue
			case "pkg":
				pkg = value
				continue
			}
		}
		if run, ok := parseBenchLine(line); ok {
			run.Pkg = pkg
			res.Runs = append(res.Runs, run)
		}
	}
	if len(res.Runs) == 0 {
		return res, errors.New("no benchmark results in the output")
	}
	return res, nil
}

func parseBenchLine(line string) (benchRun, bool) {
	fields := strings.Fields(line)
	if len(fields) < 4 || len(fields)%2 != 0 || !strings.HasPrefix(fields[0], "Benchmark") {
		return benchRun{}, false
	}
	if _, err := strconv.ParseUint(fields[1], 10, 64); err != nil {
		return benchRun{}, false
	}
	run := benchRun{Name: strings.TrimPrefix(fields[0], "Benchmark"), Procs: 1}
	if m := procsSuffixRE.FindStringSubmatch(run.Name); m != nil {
		run.Name = strings.TrimSuffix(run.Name, m[0])
		run.Procs, _ = strconv.Atoi(m[1])
	}
	for i := 2; i < len(fields); i += 2 {
		v, err := strconv.ParseFloat(fields[i], 64)
		if err != nil {
			return benchRun{}, false
		}
		run.Values = append(run.Values, benchValue{fields[i+1], v})
	}
	return run, true
}

// benchTable is the medians of a command's runs, one row per benchmark.
type benchTable struct {
	Rows  []benchRow
	Units []string // ns/op, B/op, allocs/op when present, then others as they first appear
	CPU   string
	Procs []int // the GOMAXPROCS values seen, ascending
}

type benchRow struct {
	Name   string // as the table shows it and base= names it
	Pkg    string
	Procs  int
	Runs   int
	Median map[string]float64
}

var benchStandardUnits = []string{"ns/op", "B/op", "allocs/op"}

// summarizeBench combines the runs of each benchmark into medians, which
// one slow run (a GC, a noisy neighbour) does not move the way it moves a
// mean.
func summarizeBench(out benchOutput) (benchTable, error) {
	if len(out.Runs) == 0 {
		return benchTable{}, errors.New("no benchmark results in the output")
	}
	type key struct {
		pkg, name string
		procs     int
	}
	var keys []key
	samples := map[key]map[string][]float64{}
	runs := map[key]int{}
	var units []string
	for _, r := range out.Runs {
		k := key{r.Pkg, r.Name, r.Procs}
		if samples[k] == nil {
			keys = append(keys, k)
			samples[k] = map[string][]float64{}
		}
		runs[k]++
		for _, v := range r.Values {
			if !slices.Contains(units, v.Unit) {
				units = append(units, v.Unit)
			}
			samples[k][v.Unit] = append(samples[k][v.Unit], v.Value)
		}
	}
	t := benchTable{CPU: out.CPU}
	for _, u := range benchStandardUnits {
		if slices.Contains(units, u) {
			t.Units = append(t.Units, u)
		}
	}
	for _, u := range units {
		if !slices.Contains(benchStandardUnits, u) {
			t.Units = append(t.Units, u)
		}
	}
	for _, k := range keys {
		row := benchRow{Name: k.name, Pkg: k.pkg, Procs: k.procs, Runs: runs[k], Median: map[string]float64{}}
		for u, vs := range samples[k] {
			row.Median[u] = median(vs)
		}
		t.Rows = append(t.Rows, row)
		if !slices.Contains(t.Procs, k.procs) {
			t.Procs = append(t.Procs, k.procs)
		}
	}
	slices.Sort(t.Procs)
	nameBenchRows(t.Rows, len(t.Procs) > 1)
	return t, nil
}

func median(vs []float64) float64 {
	s := slices.Sorted(slices.Values(vs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// nameBenchRows gives each row the shortest name that is unique: the
// benchmark's name, with the GOMAXPROCS suffix when the runs used several
// (-cpu 1,2), and with the package only where two packages share a name.
func nameBenchRows(rows []benchRow, keepProcs bool) {
	count := map[string]int{}
	for i := range rows {
		if keepProcs && rows[i].Procs != 1 {
			rows[i].Name += "-" + strconv.Itoa(rows[i].Procs)
		}
		count[rows[i].Name]++
	}
	var pkgs []string
	for _, r := range rows {
		if count[r.Name] > 1 && !slices.Contains(pkgs, r.Pkg) {
			pkgs = append(pkgs, r.Pkg)
		}
	}
	short := shortPackageNames(pkgs)
	for i := range rows {
		if count[rows[i].Name] > 1 {
			rows[i].Name = short[rows[i].Pkg] + "." + rows[i].Name
		}
	}
}

// shortPackageNames drops the leading path elements all the packages share,
// keeping at least the last one: runtime and runtime/value rather than
// github.com/permgen/permgen/runtime and …/runtime/value.
func shortPackageNames(pkgs []string) map[string]string {
	short := map[string]string{}
	if len(pkgs) == 0 {
		return short
	}
	split := make([][]string, len(pkgs))
	common := math.MaxInt
	for i, p := range pkgs {
		split[i] = strings.Split(p, "/")
		common = min(common, len(split[i])-1)
	}
	for n := 0; n < common; n++ {
		for _, s := range split[1:] {
			if s[n] != split[0][n] {
				common = n
			}
		}
	}
	for i, p := range pkgs {
		short[p] = strings.Join(split[i][common:], "/")
	}
	return short
}

// renderBenchTable writes a block's body: a markdown table, a blank line
// (without it GFM reads the next line as one more row), and a line saying
// where the figures come from. base names the row the ratio column divides
// time/op by; empty means no ratio column.
func renderBenchTable(t benchTable, base string) (string, error) {
	var baseRow *benchRow
	if base != "" {
		for i := range t.Rows {
			if t.Rows[i].Name == base {
				baseRow = &t.Rows[i]
			}
		}
		if baseRow == nil {
			names := make([]string, len(t.Rows))
			for i, r := range t.Rows {
				names[i] = strconv.Quote(r.Name)
			}
			return "", fmt.Errorf("base %q names no row; the rows are %s", base, strings.Join(names, ", "))
		}
	}
	header := []string{"benchmark"}
	for _, u := range t.Units {
		header = append(header, cmp.Or(map[string]string{"ns/op": "time/op"}[u], u))
	}
	if baseRow != nil {
		header = append(header, "÷ "+base)
	}
	cells := [][]string{header}
	for _, r := range t.Rows {
		row := []string{r.Name}
		for _, u := range t.Units {
			v, ok := r.Median[u]
			if !ok {
				row = append(row, "—")
				continue
			}
			row = append(row, formatBenchValue(u, v))
		}
		if baseRow != nil {
			ns, ok := r.Median["ns/op"]
			baseNs := baseRow.Median["ns/op"]
			if ok && baseNs != 0 {
				row = append(row, sig3(ns/baseNs)+"×")
			} else {
				row = append(row, "—")
			}
		}
		cells = append(cells, row)
	}
	for _, row := range cells {
		for i := range row {
			row[i] = escapeMarkdown(row[i])
		}
	}
	widths := make([]int, len(header))
	for _, row := range cells {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c), 3)
		}
	}
	var b strings.Builder
	writeRow := func(row []string) {
		b.WriteString("|")
		for i, c := range row {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i == 0 {
				fmt.Fprintf(&b, " %s%s |", c, pad)
			} else {
				fmt.Fprintf(&b, " %s%s |", pad, c)
			}
		}
		b.WriteString("\n")
	}
	writeRow(cells[0])
	rule := make([]string, len(widths))
	for i, w := range widths {
		if i == 0 {
			rule[i] = strings.Repeat("-", w)
		} else {
			rule[i] = strings.Repeat("-", w-1) + ":"
		}
	}
	writeRow(rule)
	for _, row := range cells[1:] {
		writeRow(row)
	}
	fmt.Fprintf(&b, "\n_%s_\n", escapeMarkdown(benchProvenance(t)))
	return b.String(), nil
}

// benchProvenance says how the figures were taken: how many runs each
// median is of, on which CPU, with which GOMAXPROCS.
func benchProvenance(t benchTable) string {
	lo, hi := t.Rows[0].Runs, t.Rows[0].Runs
	for _, r := range t.Rows {
		lo, hi = min(lo, r.Runs), max(hi, r.Runs)
	}
	var parts []string
	switch {
	case lo != hi:
		parts = append(parts, fmt.Sprintf("medians of %d–%d runs", lo, hi))
	case lo == 1:
		parts = append(parts, "1 run")
	default:
		parts = append(parts, fmt.Sprintf("medians of %d runs", lo))
	}
	if t.CPU != "" {
		parts = append(parts, "cpu: "+t.CPU)
	}
	procs := make([]string, len(t.Procs))
	for i, p := range t.Procs {
		procs[i] = strconv.Itoa(p)
	}
	parts = append(parts, "GOMAXPROCS "+strings.Join(procs, ", "))
	return strings.Join(parts, "; ")
}

// escapeMarkdown keeps a benchmark name or a CPU model from closing a cell
// or starting emphasis.
func escapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\|*_`<[]", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func formatBenchValue(unit string, v float64) string {
	switch unit {
	case "ns/op":
		return formatNanoseconds(v)
	case "B/op":
		return formatBytes(v)
	case "allocs/op":
		return groupThousands(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
	}
	return sig3(v)
}

// formatNanoseconds rounds to 3 significant digits before it picks the
// unit, so that 999.7 ns reads 1.00 µs rather than 1000 ns.
func formatNanoseconds(ns float64) string {
	r := roundSig3(ns)
	switch a := math.Abs(r); {
	case a < 1e3:
		return sig3(r) + " ns"
	case a < 1e6:
		return sig3(r/1e3) + " µs"
	case a < 1e9:
		return sig3(r/1e6) + " ms"
	}
	return sig3(r/1e9) + " s"
}

// formatBytes shows whole bytes below 1000 and 3 significant digits of a
// binary unit above, so that no cell has more than three integer digits.
func formatBytes(n float64) string {
	if r := math.Round(n); math.Abs(r) < 1000 {
		return strconv.FormatFloat(r, 'f', 0, 64) + " B"
	}
	v := n
	for _, unit := range []string{"KiB", "MiB", "GiB"} {
		v /= 1024
		if math.Abs(roundSig3(v)) < 1000 || unit == "GiB" {
			return sig3(v) + " " + unit
		}
	}
	panic("unreachable")
}

// sig3 writes v with 3 significant digits, and no decimals from 100 up.
func sig3(v float64) string {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	// The exponent is read from the formatted digits, not from math.Log10,
	// which can land just below an exact power of ten.
	e := strconv.FormatFloat(v, 'e', 2, 64)
	_, exp, _ := strings.Cut(e, "e")
	n, _ := strconv.Atoi(exp)
	r, _ := strconv.ParseFloat(e, 64)
	return groupThousands(strconv.FormatFloat(r, 'f', max(0, 2-n), 64))
}

func roundSig3(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'e', 2, 64), 64)
	return r
}

// groupThousands puts commas in the integer part of a formatted number.
func groupThousands(s string) string {
	sign, s := "", s
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return sign + b.String()
}

// Tests of the stages.

const benchOutputFixture = `goos: linux
goarch: amd64
pkg: github.com/permgen/permgen/runtime
cpu: Oxide Virtual Turin-like Processor             
BenchmarkPreview/default-json-2         	    2000	      3709 ns/op	     880 B/op	      17 allocs/op
BenchmarkPreview/registered-go-2        	    2000	       635.8 ns/op	     536 B/op	      12 allocs/op
BenchmarkPreview/default-json-2         	    2000	      1382 ns/op	     880 B/op	      17 allocs/op
BenchmarkSafeText/clean-ascii/SafeText-2         	    2000	        40.86 ns/op	3401.61 MB/s	       0 B/op	       0 allocs/op
BenchmarkNewMap/keys=8-2	1000	900 ns/op	11.2 ns/key
BenchmarkLogs-2
    bench_test.go:12: a log line a benchmark printed
--- BENCH: BenchmarkLogs-2
BenchmarkLogs-2	100	12 ns/op
BenchmarkOneProc	100	7 ns/op
PASS
ok  	github.com/permgen/permgen/runtime	0.061s
`

func TestParseBenchOutput(t *testing.T) {
	got, err := parseBenchOutput(benchOutputFixture)
	require.NoError(t, err)
	assert.Equal(t, "linux", got.Goos)
	assert.Equal(t, "amd64", got.Goarch)
	assert.Equal(t, "Oxide Virtual Turin-like Processor", got.CPU)
	const pkg = "github.com/permgen/permgen/runtime"
	assert.Equal(t, []benchRun{
		{pkg, "Preview/default-json", 2, []benchValue{{"ns/op", 3709}, {"B/op", 880}, {"allocs/op", 17}}},
		{pkg, "Preview/registered-go", 2, []benchValue{{"ns/op", 635.8}, {"B/op", 536}, {"allocs/op", 12}}},
		{pkg, "Preview/default-json", 2, []benchValue{{"ns/op", 1382}, {"B/op", 880}, {"allocs/op", 17}}},
		{pkg, "SafeText/clean-ascii/SafeText", 2, []benchValue{{"ns/op", 40.86}, {"MB/s", 3401.61}, {"B/op", 0}, {"allocs/op", 0}}},
		{pkg, "NewMap/keys=8", 2, []benchValue{{"ns/op", 900}, {"ns/key", 11.2}}},
		{pkg, "Logs", 2, []benchValue{{"ns/op", 12}}},
		{pkg, "OneProc", 1, []benchValue{{"ns/op", 7}}},
	}, got.Runs)

	_, err = parseBenchOutput("PASS\nok  \tgithub.com/permgen/permgen/runtime\t0.01s\n")
	require.EqualError(t, err, "no benchmark results in the output")
}

func TestSummarizeBench(t *testing.T) {
	const a, b = "github.com/permgen/permgen/runtime", "github.com/permgen/permgen/runtime/value"
	run := func(pkg, name string, procs int, values ...benchValue) benchRun {
		return benchRun{pkg, name, procs, values}
	}
	ns := func(v float64) benchValue { return benchValue{"ns/op", v} }
	tests := []struct {
		name  string
		runs  []benchRun
		rows  []string
		med   []map[string]float64
		units []string
		procs []int
	}{{
		name:  "odd count takes the middle run",
		runs:  []benchRun{run(a, "X", 2, ns(30)), run(a, "X", 2, ns(10)), run(a, "X", 2, ns(1000))},
		rows:  []string{"X"},
		med:   []map[string]float64{{"ns/op": 30}},
		units: []string{"ns/op"},
		procs: []int{2},
	}, {
		name:  "even count takes the mean of the middle two",
		runs:  []benchRun{run(a, "X", 2, ns(40)), run(a, "X", 2, ns(10)), run(a, "X", 2, ns(1000)), run(a, "X", 2, ns(20))},
		rows:  []string{"X"},
		med:   []map[string]float64{{"ns/op": 30}},
		units: []string{"ns/op"},
		procs: []int{2},
	}, {
		name: "rows keep their first appearance and units put the standard ones first",
		runs: []benchRun{
			run(a, "Y", 2, benchValue{"MB/s", 5}, ns(2), benchValue{"allocs/op", 1}),
			run(a, "X", 2, ns(1), benchValue{"ns/key", 3}, benchValue{"B/op", 8}),
			run(a, "Y", 2, benchValue{"MB/s", 7}, ns(4), benchValue{"allocs/op", 1}),
		},
		rows:  []string{"Y", "X"},
		med:   []map[string]float64{{"MB/s": 6, "ns/op": 3, "allocs/op": 1}, {"ns/op": 1, "ns/key": 3, "B/op": 8}},
		units: []string{"ns/op", "B/op", "allocs/op", "MB/s", "ns/key"},
		procs: []int{2},
	}, {
		name:  "the package is kept only where names collide",
		runs:  []benchRun{run(a, "Decode", 2, ns(1)), run(a, "Preview", 2, ns(2)), run(b, "Decode", 2, ns(3)), run(b, "Partial", 2, ns(4))},
		rows:  []string{"runtime.Decode", "Preview", "runtime/value.Decode", "Partial"},
		med:   []map[string]float64{{"ns/op": 1}, {"ns/op": 2}, {"ns/op": 3}, {"ns/op": 4}},
		units: []string{"ns/op"},
		procs: []int{2},
	}, {
		name:  "several GOMAXPROCS keep their suffix",
		runs:  []benchRun{run(a, "X", 1, ns(4)), run(a, "X", 4, ns(1)), run(a, "X", 2, ns(2))},
		rows:  []string{"X", "X-4", "X-2"},
		med:   []map[string]float64{{"ns/op": 4}, {"ns/op": 1}, {"ns/op": 2}},
		units: []string{"ns/op"},
		procs: []int{1, 2, 4},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := summarizeBench(benchOutput{Runs: tc.runs})
			require.NoError(t, err)
			var rows []string
			var med []map[string]float64
			for _, r := range got.Rows {
				rows = append(rows, r.Name)
				med = append(med, r.Median)
			}
			assert.Equal(t, tc.rows, rows)
			assert.Equal(t, tc.med, med)
			assert.Equal(t, tc.units, got.Units)
			assert.Equal(t, tc.procs, got.Procs)
		})
	}
}

func TestBenchShortPackageNames(t *testing.T) {
	assert.Equal(t, map[string]string{"a/b/runtime": "runtime", "a/b/runtime/value": "runtime/value"},
		shortPackageNames([]string{"a/b/runtime", "a/b/runtime/value"}))
	assert.Equal(t, map[string]string{"x/celfmt": "celfmt", "x/runtime/celrt": "runtime/celrt"},
		shortPackageNames([]string{"x/celfmt", "x/runtime/celrt"}))
	assert.Equal(t, map[string]string{"a": "a", "b": "b"}, shortPackageNames([]string{"a", "b"}))
}

func TestFormatBenchValue(t *testing.T) {
	tests := []struct {
		unit string
		v    float64
		want string
	}{
		{"ns/op", 0, "0 ns"},
		{"ns/op", 0.2531, "0.253 ns"},
		{"ns/op", 7, "7.00 ns"},
		{"ns/op", 40.86, "40.9 ns"},
		{"ns/op", 635.8, "636 ns"},
		{"ns/op", 999.7, "1.00 µs"},
		{"ns/op", 1906, "1.91 µs"},
		{"ns/op", 532_400, "532 µs"},
		{"ns/op", 63_040_000, "63.0 ms"},
		{"ns/op", 2_500_000_000, "2.50 s"},
		{"ns/op", 1_234_000_000_000, "1,230 s"},
		{"B/op", 0, "0 B"},
		{"B/op", 56, "56 B"},
		{"B/op", 929.5, "930 B"},
		{"B/op", 999, "999 B"},
		{"B/op", 1000, "0.977 KiB"},
		{"B/op", 1536, "1.50 KiB"},
		{"B/op", 1023.9 * 1024, "1.00 MiB"},
		{"B/op", 10 << 20, "10.0 MiB"},
		{"B/op", 3 << 30, "3.00 GiB"},
		{"allocs/op", 0, "0"},
		{"allocs/op", 12.5, "13"},
		{"allocs/op", 172_484, "172,484"},
		{"allocs/op", 1_234_567, "1,234,567"},
		{"MB/s", 3401.61, "3,400"},
		{"MB/s", 43.62, "43.6"},
		{"ns/key", 11.25, "11.2"},
		{"ns/key", 0.000456789, "0.000457"},
		{"units", -1234, "-1,230"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%v", tc.unit, tc.v), func(t *testing.T) {
			assert.Equal(t, tc.want, formatBenchValue(tc.unit, tc.v))
		})
	}
}

func TestRenderBenchTable(t *testing.T) {
	table := benchTable{
		Units: []string{"ns/op", "B/op", "allocs/op", "MB/s"},
		CPU:   "AMD EPYC 7B13 (the_fast_one)",
		Procs: []int{2},
		Rows: []benchRow{
			{Name: "Preview/default-json", Runs: 6, Median: map[string]float64{"ns/op": 1906, "B/op": 880, "allocs/op": 17}},
			{Name: "Preview/registered-go", Runs: 6, Median: map[string]float64{"ns/op": 1220, "B/op": 536, "allocs/op": 12, "MB/s": 3401.61}},
		},
	}
	got, err := renderBenchTable(table, "Preview/default-json")
	require.NoError(t, err)
	assert.Equal(t, `| benchmark             | time/op |  B/op | allocs/op |  MB/s | ÷ Preview/default-json |
| --------------------- | ------: | ----: | --------: | ----: | ---------------------: |
| Preview/default-json  | 1.91 µs | 880 B |        17 |     — |                  1.00× |
| Preview/registered-go | 1.22 µs | 536 B |        12 | 3,400 |                 0.640× |

_medians of 6 runs; cpu: AMD EPYC 7B13 (the\_fast\_one); GOMAXPROCS 2_
`, got)

	again, err := renderBenchTable(table, "Preview/default-json")
	require.NoError(t, err)
	assert.Equal(t, got, again, "the same results give the same bytes")

	got, err = renderBenchTable(table, "")
	require.NoError(t, err)
	assert.NotContains(t, got, "÷")

	_, err = renderBenchTable(table, "Preview/default")
	require.EqualError(t, err, `base "Preview/default" names no row; the rows are "Preview/default-json", "Preview/registered-go"`)

	table.Rows[1].Runs = 3
	got, err = renderBenchTable(table, "")
	require.NoError(t, err)
	assert.Contains(t, got, "_medians of 3–6 runs;")
}

func TestParseBenchDoc(t *testing.T) {
	const doc = "# Benchmarks\n" +
		"\n" +
		"<!-- benchmarks: go test ./runtime -run '^$' -bench 'BenchmarkPreview$|BenchmarkSafeText' -count 6 ; base=Preview/default-json -->\n" +
		"| benchmark | time/op |\n" +
		"<!-- end benchmarks -->\n" +
		"```markdown\n" +
		"<!-- benchmarks: an example in a fence, not a block -->\n" +
		"```\n" +
		"<!--benchmarks: go test -bench=. ./celfmt-->\n" +
		"<!--  end   benchmarks  -->\n"
	got, errs := parseBenchDoc("docs/benchmarks.md", doc)
	require.NoError(t, errs.Err())
	assert.Equal(t, []benchBlock{{
		Line:    3,
		EndLine: 5,
		Command: "go test ./runtime -run '^$' -bench 'BenchmarkPreview$|BenchmarkSafeText' -count 6",
		Args:    []string{"go", "test", "./runtime", "-run", "^$", "-bench", "BenchmarkPreview$|BenchmarkSafeText", "-count", "6"},
		Base:    "Preview/default-json",
		Body:    "| benchmark | time/op |\n",
	}, {
		Line:    9,
		EndLine: 10,
		Command: "go test -bench=. ./celfmt",
		Args:    []string{"go", "test", "-bench=.", "./celfmt"},
	}}, got.Blocks)
	assert.Len(t, got.Lines, 10)
}

func TestParseBenchDocErrors(t *testing.T) {
	const ok = "go test ./runtime -bench X"
	tests := []struct {
		name string
		doc  string
		want string
	}{{
		name: "no end",
		doc:  "text\n<!-- benchmarks: " + ok + " -->\n| table |\n",
		want: "d.md:2: the benchmarks block has no <!-- end benchmarks -->",
	}, {
		name: "end without opening",
		doc:  "text\n\n<!-- end benchmarks -->\n",
		want: "d.md:3: <!-- end benchmarks --> without an opening <!-- benchmarks: go test … -bench … -->",
	}, {
		name: "block inside a block",
		doc:  "<!-- benchmarks: " + ok + " -->\n<!-- benchmarks: " + ok + " -->\n<!-- end benchmarks -->\n",
		want: "d.md:2: a benchmarks block opens inside the block of line 1",
	}, {
		name: "unknown option",
		doc:  "<!-- benchmarks: " + ok + " ; baseline=X -->\n<!-- end benchmarks -->\n",
		want: `d.md:1: unknown option "baseline=X": the one option is base=<row>`,
	}, {
		name: "option twice",
		doc:  "<!-- benchmarks: " + ok + " ; base=X ; base=Y -->\n<!-- end benchmarks -->\n",
		want: "d.md:1: option base is given twice",
	}, {
		name: "option without value",
		doc:  "<!-- benchmarks: " + ok + " ; base= -->\n<!-- end benchmarks -->\n",
		want: "d.md:1: option base needs a row name: base=<row>",
	}, {
		name: "not go test",
		doc:  "<!-- benchmarks: go run ./cmd/permgen -bench X -->\n<!-- end benchmarks -->\n",
		want: `d.md:1: not a go test … -bench … command: "go run ./cmd/permgen -bench X"`,
	}, {
		name: "no -bench",
		doc:  "<!-- benchmarks: go test ./runtime -run X -->\n<!-- end benchmarks -->\n",
		want: `d.md:1: not a go test … -bench … command: "go test ./runtime -run X" has no -bench pattern`,
	}, {
		name: "empty -bench",
		doc:  "<!-- benchmarks: go test ./runtime -bench= -->\n<!-- end benchmarks -->\n",
		want: `d.md:1: not a go test … -bench … command: "go test ./runtime -bench=" has no -bench pattern`,
	}, {
		name: "-json",
		doc:  "<!-- benchmarks: go test -json ./runtime -bench X -->\n<!-- end benchmarks -->\n",
		want: "d.md:1: the command may not use -json: its table is read from the text output",
	}, {
		name: "pipe outside quotes",
		doc:  "<!-- benchmarks: go test ./runtime -bench X | tee out -->\n<!-- end benchmarks -->\n",
		want: `d.md:1: the command runs without a shell: '|' must be inside single quotes`,
	}, {
		name: "semicolon inside quotes",
		doc:  "<!-- benchmarks: go test ./runtime -bench 'X;Y' -->\n<!-- end benchmarks -->\n",
		want: "d.md:1: a command may not contain ;",
	}, {
		name: "unterminated quote",
		doc:  "<!-- benchmarks: go test ./runtime -bench 'X -->\n<!-- end benchmarks -->\n",
		want: "d.md:1: the command has an unterminated single quote",
	}, {
		name: "opening marker without -->",
		doc:  "<!-- benchmarks: " + ok + "\n<!-- end benchmarks -->\n",
		want: `d.md:1: malformed marker "<!-- benchmarks: go test ./runtime -bench X": want <!-- benchmarks: go test … -bench … -->`,
	}, {
		name: "opening marker without colon",
		doc:  "<!-- benchmarks " + ok + " -->\n<!-- end benchmarks -->\n",
		want: `d.md:1: malformed marker "<!-- benchmarks go test ./runtime -bench X -->": want <!-- benchmarks: go test … -bench … -->`,
	}, {
		name: "end marker with more text",
		doc:  "<!-- benchmarks: " + ok + " -->\n<!-- end benchmarks here -->\n",
		want: `d.md:2: malformed marker "<!-- end benchmarks here -->": want <!-- end benchmarks -->`,
	}, {
		name: "every problem, in line order",
		doc:  "<!-- end benchmarks -->\n<!-- benchmarks: go vet ./runtime ; x=1 -->\n",
		want: "d.md:1: <!-- end benchmarks --> without an opening <!-- benchmarks: go test … -bench … -->\n" +
			`d.md:2: not a go test … -bench … command: "go vet ./runtime"` + "\n" +
			`d.md:2: unknown option "x=1": the one option is base=<row>` + "\n" +
			"d.md:2: the benchmarks block has no <!-- end benchmarks -->",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := parseBenchDoc("d.md", tc.doc)
			require.EqualError(t, errs.Err(), tc.want)
		})
	}
}

func TestSplitBenchCommand(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string
	}{
		{"go test ./runtime -bench .", []string{"go", "test", "./runtime", "-bench", "."}},
		{"go  test\t-run '^$'  -bench 'A$|B'", []string{"go", "test", "-run", "^$", "-bench", "A$|B"}},
		{"go test -bench='Preview (x)'", []string{"go", "test", "-bench=Preview (x)"}},
		{"go test -run '' -bench X", []string{"go", "test", "-run", "", "-bench", "X"}},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			got, err := splitBenchCommand(tc.cmd)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	for _, bad := range []string{`go test -bench "X"`, `go test -bench X > out`, `go test -bench X && ls`, `go test -run ^$ -bench X`, `go test -bench a\ b`} {
		_, err := splitBenchCommand(bad)
		assert.Error(t, err, bad)
	}
}

func TestBenchFiguresIn(t *testing.T) {
	tests := []struct {
		line string
		code bool
		want []string
	}{
		{line: "A preview takes 1.91 µs on this machine.", want: []string{"1.91 µs"}},
		{line: "about 532 us, or 63.0 ms, or 2s, or 12ns", want: []string{"532 us", "63.0 ms", "2s", "12ns"}},
		{line: "it allocates 880 B/op and 17 allocs/op", want: []string{"880 B/op", "17 allocs/op"}},
		{line: "sizes 10 KB, 1 KiB, 2.5 MB, 10 MiB, 1 GB: all figures", want: []string{"10 KB", "1 KiB", "2.5 MB", "10 MiB", "1 GB"}},
		{line: "decoding runs at 3,400 MB/s", want: []string{"3,400 MB"}},
		{line: "the Go formatter is 1.5× faster, CEL 8.7x slower (2 × more)", want: []string{"1.5×", "8.7x", "2 ×"}},
		{line: "| SafeText | 47.1\u00a0ns |", want: []string{"47.1\u00a0ns"}},
		{line: "```", code: true, want: []string{}},
		{line: "BenchmarkSafeText-2  2000  40.86 ns/op", code: true, want: []string{"40.86 ns"}},
		{line: "go test ./runtime -bench . -benchtime 3x -count 6 -timeout=10m", code: true},
		{line: "## Preview of a 10 MiB argument in 2 s"},
		{line: "Run it with `-count 6` or `-benchtime 3x`, or ``-benchtime=2s``."},
		{line: "with -benchtime 3x and -count=6 outside backquotes too"},
		{line: "medians of 6 runs in 3 steps by 2 users, GOMAXPROCS 2"},
		{line: "hex 0x1f, 0xff, a 2x2 grid, x86 and utf8 strings, 3 MiBs"},
		{line: "the 1.5 release"},
		{line: "an unmatched ` leaves 5 ms in view", want: []string{"5 ms"}},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			got := figuresIn(tc.line, tc.code)
			if len(tc.want) == 0 {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestBenchScanFigures(t *testing.T) {
	const content = "# Benchmarks: 2 µs\n" +
		"\n" +
		"The default preview takes 1.91 µs.\n" +
		"Run `go test ./runtime -bench . -benchtime 3x` to see.\n" +
		"<!-- benchmarks: go test ./runtime -bench . -count 6 -->\n" +
		"| Preview | 1.91 µs | 880 B |\n" +
		"\n" +
		"_medians of 6 runs; GOMAXPROCS 2_\n" +
		"<!-- end benchmarks -->\n" +
		"```\n" +
		"BenchmarkPreview-2  100  1906 ns/op  880 B/op\n" +
		"go test ./runtime -bench . -benchtime 3x\n" +
		"```\n" +
		"It is 1.5× faster and 2x smaller.\n"
	doc, errs := parseBenchDoc("docs/benchmarks.md", content)
	require.NoError(t, errs.Err())
	require.EqualError(t, scanFigures(doc).Err(), `docs/benchmarks.md:3: a figure outside a generated block: "1.91 µs"
docs/benchmarks.md:11: a figure outside a generated block: "1906 ns", "880 B/op"
docs/benchmarks.md:14: a figure outside a generated block: "1.5×", "2x"`)

	// A block without its end still covers its lines, so the one error
	// about it is not buried under its table's figures.
	doc, errs = parseBenchDoc("d.md", "<!-- benchmarks: go test -bench . -->\n| X | 1.91 µs |\n")
	require.Len(t, errs, 1)
	assert.Empty(t, scanFigures(doc))
}

func TestCheckBenchBodies(t *testing.T) {
	const doc = "<!-- benchmarks: go test -bench A -->\n" +
		"<!-- end benchmarks -->\n" +
		"<!-- benchmarks: go test -bench B -->\n" +
		"The table goes here: 3 ms.\n" +
		"<!-- end benchmarks -->\n" +
		"<!-- benchmarks: go test -bench C -->\n" +
		"| benchmark | time/op |\n" +
		"| --------- | ------: |\n" +
		"| C         |  3.00 ms |\n" +
		"\n" +
		"_medians of 6 runs; GOMAXPROCS 2_\n" +
		"<!-- end benchmarks -->\n"
	parsed, errs := parseBenchDoc("d.md", doc)
	require.NoError(t, errs.Err())
	require.EqualError(t, checkBenchBodies(parsed).Err(),
		"d.md:1: the benchmarks block has no table yet: run "+benchRegenerate+"\n"+
			"d.md:3: the benchmarks block does not hold a generated table: run "+benchRegenerate)
}

// fixtureRunner stands for go test: each block's command prints the
// fixture output file its -bench pattern names in testdata/benchdoc.
func fixtureRunner(t *testing.T, outputs map[string]string) benchRunner {
	return func(args []string) ([]byte, error) {
		name, ok := outputs[strings.Join(args, " ")]
		require.True(t, ok, "no fixture output for %q", args)
		return os.ReadFile(filepath.Join("testdata", "benchdoc", name))
	}
}

var benchFixtureOutputs = map[string]string{
	"go test ./runtime -run ^$ -bench BenchmarkPreview$|BenchmarkSafeText -count 2": "runtime.txt",
	"go test ./runtime/... -run ^$ -bench Decode -count 3":                          "multi.txt",
}

func TestBenchmarkDocRoundTrip(t *testing.T) {
	path := filepath.Join("testdata", "benchdoc", "doc.md")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	doc, errs := parseBenchDoc(path, string(data))
	require.NoError(t, errs.Err())
	got, err := regenerateBenchDoc(doc, fixtureRunner(t, benchFixtureOutputs), nil)
	require.NoError(t, err)

	goldenPath := filepath.Join("testdata", "benchdoc", "doc.golden.md")
	if *update {
		require.NoError(t, os.WriteFile(goldenPath, []byte(got), 0o644))
	}
	want, err := os.ReadFile(goldenPath)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), got)

	// What the update writes passes the check, and a second update of it
	// changes nothing.
	regenerated, errs := parseBenchDoc(goldenPath, got)
	require.NoError(t, errs.Err())
	assert.NoError(t, scanFigures(regenerated).Err())
	assert.NoError(t, checkBenchBodies(regenerated).Err())
	again, err := regenerateBenchDoc(regenerated, fixtureRunner(t, benchFixtureOutputs), nil)
	require.NoError(t, err)
	assert.Equal(t, got, again)
}

// -benchmarks-only rewrites the blocks whose command matches, runs no
// other command, and keeps the other blocks byte for byte.
func TestBenchmarkDocOnly(t *testing.T) {
	path := filepath.Join("testdata", "benchdoc", "doc.md")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	doc, errs := parseBenchDoc(path, string(data))
	require.NoError(t, errs.Err())
	require.Len(t, doc.Blocks, 2)
	all, err := regenerateBenchDoc(doc, fixtureRunner(t, benchFixtureOutputs), nil)
	require.NoError(t, err)

	var ran []string
	runner := fixtureRunner(t, benchFixtureOutputs)
	only := func(args []string) ([]byte, error) {
		ran = append(ran, strings.Join(args, " "))
		return runner(args)
	}
	got, err := regenerateBenchDoc(doc, only, regexp.MustCompile(`Decode`))
	require.NoError(t, err)
	assert.Equal(t, []string{"go test ./runtime/... -run ^$ -bench Decode -count 3"}, ran)
	// Split each text at the second block's marker.
	split := func(text string) (string, string) {
		i := strings.LastIndex(text, "<!-- benchmarks:")
		require.Positive(t, i)
		return text[:i], text[i:]
	}
	kept, _ := split(string(data))
	_, rewritten := split(all)
	gotFirst, gotSecond := split(got)
	assert.Equal(t, kept, gotFirst, "the first block is kept as it was")
	assert.Equal(t, rewritten, gotSecond, "the second block is rewritten")
	assert.NotEqual(t, all, got)
}

func TestUpdateBenchmarkFile(t *testing.T) {
	fixture, err := os.ReadFile(filepath.Join("testdata", "benchdoc", "doc.md"))
	require.NoError(t, err)

	t.Run("writes every table", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "benchmarks.md")
		require.NoError(t, os.WriteFile(path, fixture, 0o644))
		require.NoError(t, updateBenchmarkFile(path, "docs/benchmarks.md", fixtureRunner(t, benchFixtureOutputs), nil))
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		want, err := os.ReadFile(filepath.Join("testdata", "benchdoc", "doc.golden.md"))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
		assert.NoError(t, checkBenchmarkFile(path, "docs/benchmarks.md"))
	})

	t.Run("a failed command leaves the file as it was", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "benchmarks.md")
		require.NoError(t, os.WriteFile(path, fixture, 0o644))
		calls := 0
		failSecond := func(args []string) ([]byte, error) {
			if calls++; calls == 2 {
				return []byte("--- FAIL: BenchmarkDecode\n    decode_test.go:9: boom\nFAIL\n"), errors.New("exit status 1")
			}
			return fixtureRunner(t, benchFixtureOutputs)(args)
		}
		err := updateBenchmarkFile(path, "docs/benchmarks.md", failSecond, nil)
		require.Error(t, err)
		assert.True(t, strings.HasPrefix(err.Error(), "docs/benchmarks.md:11: go test ./runtime/... -run '^$' -bench Decode -count 3: exit status 1\n"), err.Error())
		assert.Contains(t, err.Error(), "decode_test.go:9: boom", "the command's output is shown")
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, string(fixture), string(got))
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		assert.Len(t, entries, 1, "no temporary file is left behind")
	})

	t.Run("output without results", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "benchmarks.md")
		require.NoError(t, os.WriteFile(path, fixture, 0o644))
		empty := func([]string) ([]byte, error) { return []byte("PASS\n"), nil }
		err := updateBenchmarkFile(path, "docs/benchmarks.md", empty, nil)
		require.EqualError(t, err, "docs/benchmarks.md:5: go test ./runtime -run '^$' -bench 'BenchmarkPreview$|BenchmarkSafeText' -count 2: no benchmark results in the output\nPASS\n")
	})

	t.Run("a figure outside a block stops the update before it runs", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "benchmarks.md")
		require.NoError(t, os.WriteFile(path, append(fixture, "It takes 3 ms.\n"...), 0o644))
		never := func([]string) ([]byte, error) { t.Fatal("ran a command"); return nil, nil }
		err := updateBenchmarkFile(path, "docs/benchmarks.md", never, nil)
		require.ErrorContains(t, err, `a figure outside a generated block: "3 ms"`)
	})
}
