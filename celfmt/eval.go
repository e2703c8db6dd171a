package celfmt

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/permgen/permgen/runtime/value"
)

// EvalFile is the file name of the positions of Eval's diagnostics: they
// are "expr:line:col", the expression's own lines and columns.
const EvalFile = "expr"

// EvalResult is the value of an expression evaluated by Eval.
type EvalResult struct {
	// Type is the expression's checked CEL type: "string",
	// "optional_type(string)", "int", "list(dyn)", "dyn", …
	Type string
	// Text is the string a formatter would return: the value of a string,
	// or of an optional string that has one. It is "" otherwise.
	Text string
	// Declined is set when the value is optional.none(), the way a
	// formatter declines.
	Declined bool
	// Value is the value printed in CEL's literal syntax, whatever its type:
	// "hello" (quoted), 3, 4.0, true, null, ["a", "b"], {"k": 1},
	// optional.of("x"), optional.none(). Maps of the input keep its order.
	Value string
}

// Eval checks and evaluates one expression in the formatter environment,
// as a formatter with undeclared input (input is a map of dyn) sees it, and
// returns its value, whatever its type: unlike a preview, the expression
// may be of any type, so that a catalog's author can try a piece of one
// (input.edits.size()). tool and limits are the variables tool and limits;
// a zero limit means its default (DefaultLimits). A nil input is an empty
// object.
//
// When the expression does not check (a syntax error, an undeclared
// reference, a cost estimate over opts.CostBudget, …) the error is an
// ErrorList whose positions are the expression's own lines and columns in
// file EvalFile; print it with Snippets([]byte(expr)) for a caret under
// each. When the evaluation fails (an error, the cost limit, the memory
// budget) the error is that failure, as for a formatter (errors.Is with
// ErrCostLimit or ErrBudget).
func Eval(expr string, input *value.Object, tool string, limits Limits, opts Options) (EvalResult, error) {
	opts = opts.withDefaults()
	var errs ErrorList
	p, err := newProvider()
	if err != nil {
		return EvalResult{}, err
	}
	env, err := baseEnv(p)
	if err != nil {
		return EvalResult{}, err
	}
	calls, err := newCallTable(env)
	if err != nil {
		return EvalResult{}, err
	}
	if env, err = env.Extend(cel.Variable(varInput, undeclaredInput)); err != nil {
		return EvalResult{}, err
	}
	if strings.TrimSpace(expr) == "" {
		errs.Add(Pos{File: EvalFile, Line: 1, Col: 1}, "empty expression")
		return EvalResult{}, errs
	}
	const what = "expression"
	c, ok := compile(env, calls, NewSource(EvalFile, expr), what, nil, nil, opts, &errs)
	if !ok {
		for _, e := range errs {
			e.Msg = strings.TrimPrefix(e.Msg, what+": ")
		}
		errs.Sort()
		return EvalResult{}, errs
	}
	if input == nil {
		input = value.Input{}.Object()
	}
	b := newBudget(opts.MemoryBudget, opts.CostLimit)
	vars := &activation{
		input:  objectVal{o: input},
		tool:   types.String(tool),
		limits: limitsVal(withDefaults(limits)),
		budget: b,
	}
	out, _, err := c.prg.prg.Eval(vars)
	if b.err != nil {
		err = b.err
	}
	if err != nil {
		return EvalResult{}, err
	}
	r := EvalResult{Type: c.ast.OutputType().String(), Value: celLiteral(out, 0)}
	switch v := out.(type) {
	case types.String:
		r.Text = string(v)
	case *types.Optional:
		if !v.HasValue() {
			r.Declined = true
		} else if s, ok := v.GetValue().(types.String); ok {
			r.Text = string(s)
		}
	}
	return r, nil
}

// maxLiteralDepth bounds the nesting celLiteral prints; deeper values are
// shown as "…".
const maxLiteralDepth = 100

// celLiteral prints a value in CEL's literal syntax.
func celLiteral(v ref.Val, depth int) string {
	if depth > maxLiteralDepth {
		return "…"
	}
	switch v := v.(type) {
	case types.String:
		return strconv.Quote(string(v))
	case types.Int:
		return strconv.FormatInt(int64(v), 10)
	case types.Uint:
		return strconv.FormatUint(uint64(v), 10) + "u"
	case types.Double:
		f := float64(v)
		switch {
		case math.IsInf(f, 1):
			return `double("Infinity")`
		case math.IsInf(f, -1):
			return `double("-Infinity")`
		case math.IsNaN(f):
			return `double("NaN")`
		}
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return s
	case types.Bool:
		return strconv.FormatBool(bool(v))
	case types.Null:
		return "null"
	case types.Bytes:
		return "b" + strconv.Quote(string(v))
	case *types.Optional:
		if !v.HasValue() {
			return "optional.none()"
		}
		return "optional.of(" + celLiteral(v.GetValue(), depth+1) + ")"
	case limitsVal:
		return fmt.Sprintf("%s{preview: %d, summary: %d, log: %d, output: %d}", limitsTypeName, v.Preview, v.Summary, v.Log, v.Output)
	case ref.Type:
		return v.TypeName()
	case traits.Mapper:
		// The input's objects keep their order; maps built in CEL have
		// none, so their entries are sorted.
		var entries []string
		for it := v.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			entries = append(entries, celLiteral(k, depth+1)+": "+celLiteral(v.Get(k), depth+1))
		}
		if _, ordered := v.(objectVal); !ordered {
			slices.Sort(entries)
		}
		return "{" + strings.Join(entries, ", ") + "}"
	case traits.Lister:
		var b strings.Builder
		b.WriteByte('[')
		for it := v.Iterator(); it.HasNext() == types.True; {
			if b.Len() > 1 {
				b.WriteString(", ")
			}
			b.WriteString(celLiteral(it.Next(), depth+1))
		}
		b.WriteByte(']')
		return b.String()
	}
	return fmt.Sprint(v.Value())
}
