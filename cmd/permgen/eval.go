//go:build !permgen_lean

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

const evalUsage = `Usage: permgen eval [flags] EXPR

Checks and evaluates one CEL expression in the formatter environment, as a
formatter whose input is not declared sees it, and prints its value in CEL's
literal syntax and its type. The expression may be of any type, so a piece
of a formatter can be tried on its own. A value of optional.none() is how a
formatter declines.

	$ permgen eval --input '{"path": "/x"}' '"for path '\''" + input.path + "'\''"'
	"for path '/x'" (string)
	$ permgen eval --input '{"edits": [1, 2]}' 'input.edits.size()'
	2 (int)
	$ permgen eval 'nonEmpty(input.?path.orValue(""))'
	optional.none() (optional_type(string): declines)
	$ permgen eval --tool read 'tool + " " + string(limits.summary)'
	"read 80" (string)

With --catalog FILE, the expression sees what the formatter of the entry
for --tool sees: input of the entry's declared type, the entry's lets, and
with --result the variable result. --tool names the entry by its tool, an
alias, or a "server:tool" name its "server:*" entry answers.

	$ permgen eval --catalog formatters.yaml --tool Read --input '{"file_path": "/x", "limit": 20}' 'parts'
	["path '/x'", "limit 20"] (list(string))

When the expression does not check, its diagnostics are printed with a caret
under each position, as expr:LINE:COL relative to the expression; when it
fails at run time, the failure is printed, with a caret under the operator
or the call that failed. Both exit 1. An expression that
starts with "-" goes after "--".

Flags:
`

type evalFlags struct {
	input   string
	result  string
	tool    string
	catalog string
	limits  limitFlags
}

func runEval(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var opts evalFlags
	fs := newFlagSet("eval", evalUsage)
	fs.StringVar(&opts.input, "input", "{}", "the call's input, `JSON|@FILE`: a JSON object, or @FILE to read it from FILE (@- for standard input)")
	fs.StringVar(&opts.tool, "tool", "tool", "the call's tool `NAME`, the variable tool; with -catalog, the entry whose environment the expression sees")
	fs.StringVar(&opts.catalog, "catalog", "", "evaluate in the environment of an entry of the catalog `FILE` (see -tool)")
	fs.StringVar(&opts.result, "result", "", "with -catalog, the call's result, `JSON|@FILE`, the variable result: {\"text\": …, \"isError\": …}")
	opts.limits.register(fs, false)
	rest, code, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) != 1 {
		return usageError(stderr, "eval", "takes one EXPR, got %d (quote the expression)", len(rest))
	}
	expr := rest[0]
	if err := opts.limits.validate(); err != nil {
		return usageError(stderr, "eval", "%v", err)
	}
	if opts.result != "" && opts.catalog == "" {
		return usageError(stderr, "eval", "-result needs -catalog: only an entry's result, error and expand see a result")
	}
	input, err := evalInput(opts.input, stdin)
	if err != nil {
		errorf(stderr, "eval", "--input: %v", err)
		return exitInvalid
	}
	var result *value.Object
	if opts.result != "" {
		if result, err = evalInput(opts.result, stdin); err != nil {
			errorf(stderr, "eval", "--result: %v", err)
			return exitInvalid
		}
	}

	l := opts.limits.limits()
	limits := celfmt.Limits{Preview: l.Preview, Summary: l.Summary, Log: l.Log}
	var r celfmt.EvalResult
	if opts.catalog != "" {
		checked, ok := loadCatalogFile("eval", opts.catalog, opts.catalog, celfmt.Options{SkipExamples: true}, stderr)
		if !ok {
			return exitInvalid
		}
		entry, err := entryFor(checked, opts.tool)
		if err != nil {
			errorf(stderr, "eval", "%s: %v", opts.catalog, err)
			return exitInvalid
		}
		r, err = celfmt.EvalEntry(entry, expr, input, result, opts.tool, limits, celfmt.Options{})
		if code, failed := evalFailed(err, expr, stderr); failed {
			return code
		}
	} else {
		r, err = celfmt.Eval(expr, input, opts.tool, limits, celfmt.Options{})
		if code, failed := evalFailed(err, expr, stderr); failed {
			return code
		}
	}
	typ := r.Type
	if r.Declined {
		typ += ": declines"
	}
	fmt.Fprintf(stdout, "%s (%s)\n", r.Value, typ)
	return exitOK
}

// evalFailed prints an evaluation's failure: the diagnostics of an
// expression that does not check, or a failure at run time, each with a
// caret under its place in the expression when it has one.
func evalFailed(err error, expr string, stderr io.Writer) (code int, failed bool) {
	var list celfmt.ErrorList
	var at *celfmt.EvalError
	switch {
	case err == nil:
		return exitOK, false
	case errors.As(err, &list):
		fmt.Fprint(stderr, list.Snippets([]byte(expr)))
		errorf(stderr, "eval", "%s", problems(len(list)))
	case errors.As(err, &at):
		msg := runtime.SafeText(err.Error(), runtime.Reveal, runtime.DefaultOutputLimit)
		fmt.Fprint(stderr, celfmt.ErrorList{{Pos: at.Pos, Msg: msg}}.Snippets([]byte(expr)))
		errorf(stderr, "eval", "evaluation failed at %s", at.Pos)
	default:
		errorf(stderr, "eval", "evaluation failed: %s", runtime.SafeText(err.Error(), runtime.Reveal, runtime.DefaultOutputLimit))
	}
	return exitInvalid, true
}

// entryFor returns the entry of a catalog whose environment eval's
// expression sees for the tool name: the entry of that tool or alias, or
// for "server:tool" the entry "server:*".
func entryFor(checked *celfmt.Checked, tool string) (*celfmt.Entry, error) {
	var wildcard *celfmt.Entry
	server, _, isMCP := strings.Cut(tool, ":")
	for _, f := range checked.Formatters {
		e := f.Entry
		if e.Tool == tool || slices.Contains(e.Aliases, tool) {
			return e, nil
		}
		if isMCP && e.Tool == server+":*" {
			wildcard = e
		}
	}
	if wildcard != nil {
		return wildcard, nil
	}
	return nil, fmt.Errorf("no entry for tool %q (see permgen list)", tool)
}

// evalInput decodes eval's --input: JSON text, or @FILE.
func evalInput(arg string, stdin io.Reader) (*value.Object, error) {
	data := []byte(arg)
	if name, ok := strings.CutPrefix(arg, "@"); ok {
		var err error
		if name == "-" {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(name)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty: want a JSON object")
	}
	v, err := value.DecodeJSON(data)
	if err != nil {
		return nil, explainBadJSON(data, err, "the JSON object")
	}
	o, ok := v.(*value.Object)
	if !ok {
		return nil, fmt.Errorf("must be a JSON object, got %s", value.Kind(v))
	}
	return o, nil
}
