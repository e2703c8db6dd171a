//go:build !permgen_lean

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
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

When the expression does not check, its diagnostics are printed with a caret
under each position, as expr:LINE:COL relative to the expression; when it
fails at run time, the failure is printed. Both exit 1. An expression that
starts with "-" goes after "--".

Flags:
`

type evalFlags struct {
	input  string
	tool   string
	limits limitFlags
}

func runEval(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var opts evalFlags
	fs := newFlagSet("eval", evalUsage)
	fs.StringVar(&opts.input, "input", "{}", "the call's input, `JSON|@FILE`: a JSON object, or @FILE to read it from FILE (@- for standard input)")
	fs.StringVar(&opts.tool, "tool", "tool", "the call's tool `NAME`, the variable tool")
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
	input, err := evalInput(opts.input, stdin)
	if err != nil {
		errorf(stderr, "eval", "--input: %v", err)
		return exitInvalid
	}

	l := opts.limits.limits()
	limits := celfmt.Limits{Preview: l.Preview, Summary: l.Summary, Log: l.Log}
	r, err := celfmt.Eval(expr, input, opts.tool, limits, celfmt.Options{})
	var list celfmt.ErrorList
	switch {
	case errors.As(err, &list):
		fmt.Fprint(stderr, list.Snippets([]byte(expr)))
		errorf(stderr, "eval", "%s", problems(len(list)))
		return exitInvalid
	case err != nil:
		errorf(stderr, "eval", "evaluation failed: %s", runtime.SafeText(err.Error(), runtime.Reveal, runtime.DefaultOutputLimit))
		return exitInvalid
	}
	typ := r.Type
	if r.Declined {
		typ += ": declines"
	}
	fmt.Fprintf(stdout, "%s (%s)\n", r.Value, typ)
	return exitOK
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
