package celfmt

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
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
// ErrCostLimit or ErrBudget); an *EvalError when the failure is at a
// place in the expression (an operator applied to operands of other
// types, say).
func Eval(expr string, input *value.Object, tool string, limits Limits, opts Options) (EvalResult, error) {
	return evalIn(nil, expr, input, nil, tool, limits, opts)
}

// EvalEntry is Eval in the environment of a catalog's entry, as its
// formatter sees it: input has the entry's declared type (a field declared
// int is an int), the entry's lets (its own and the catalog's shared lets
// it uses) are variables computed on that input, and, when result is not
// nil, the variable result holds it, as result, error and expand see it.
// The entry's lets must check: it comes from a catalog Check accepted.
func EvalEntry(e *Entry, expr string, input, result *value.Object, tool string, limits Limits, opts Options) (EvalResult, error) {
	if e == nil {
		return EvalResult{}, errors.New("no entry")
	}
	return evalIn(e, expr, input, result, tool, limits, opts)
}

// EvalError is an evaluation that failed at a place in the expression:
// Pos is where (in file EvalFile), Err the failure.
type EvalError struct {
	Pos Pos
	Err error
}

func (e *EvalError) Error() string { return e.Err.Error() }

// Unwrap returns the failure.
func (e *EvalError) Unwrap() error { return e.Err }

func evalIn(e *Entry, expr string, input, result *value.Object, tool string, limits Limits, opts Options) (EvalResult, error) {
	opts = opts.withDefaults()
	var errs ErrorList
	p, err := newProvider()
	if err != nil {
		return EvalResult{}, err
	}
	inputType := undeclaredInput
	if e != nil {
		inputType = declareInput(p, inputTypeName(e.Tool), e.Input, func(f Field, err error) {
			errs.Add(f.TypePos, "input field %s: %v", f.Name, err)
		})
		if len(errs) > 0 {
			return EvalResult{}, errs
		}
	}
	env, err := baseEnv(p)
	if err != nil {
		return EvalResult{}, err
	}
	calls, err := newCallTable(env)
	if err != nil {
		return EvalResult{}, err
	}
	f := &Formatter{Entry: e, opts: opts}
	var fields, letNames []string
	var lets []Let
	if e != nil {
		lets = e.Lets
		for _, field := range e.Input {
			fields = append(fields, field.Name)
		}
		for _, l := range lets {
			letNames = append(letNames, l.Name)
		}
	}
	env, err = bindLets(env, inputType, letNames, func(i int, env *cel.Env) (*types.Type, error) {
		c, ok := compile(env, calls, lets[i].Expr, "let "+lets[i].Name, fields, letNames[:i], opts, &errs)
		if !ok {
			return nil, errs
		}
		c.name = lets[i].Name
		f.lets = append(f.lets, c)
		f.letNames = append(f.letNames, c.name)
		return c.ast.OutputType(), nil
	})
	if err != nil {
		return EvalResult{}, err
	}
	if result != nil {
		if env, err = env.Extend(cel.Variable(varResult, ResultType())); err != nil {
			return EvalResult{}, err
		}
	}
	if strings.TrimSpace(expr) == "" {
		errs.Add(Pos{File: EvalFile, Line: 1, Col: 1}, "empty expression")
		return EvalResult{}, errs
	}
	const what = "expression"
	src := NewSource(EvalFile, expr)
	c, ok := compile(env, calls, src, what, fields, letNames, opts, &errs)
	if !ok {
		for _, e := range errs {
			e.Msg = strings.TrimPrefix(e.Msg, what+": ")
		}
		errs.Sort()
		return EvalResult{}, errs
	}
	c.needs = letsRead(f.lets, c.ast.NativeRep().Expr())
	if input == nil {
		input = value.Input{}.Object()
	}
	vars := f.activation(input, result, tool, withDefaults(limits))
	defer vars.release()
	out, err := f.evaluate(&c, vars, 0, vars.newBudget(opts.MemoryBudget, opts.CostLimit))
	if err != nil {
		return EvalResult{}, failureAt(c.ast, src, err)
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

// failureAt makes a failure of the expression src an *EvalError at the
// place it names: the operator or the function of a failed call, the
// start of another expression. A let's failure, the budget's and the cost
// limit's stay as they are: they belong to no place in src.
func failureAt(a *cel.Ast, src Source, err error) error {
	var celErr *types.Err
	if !errors.As(err, &celErr) || celErr.NodeID() == 0 || strings.HasPrefix(err.Error(), "let ") ||
		errors.Is(err, ErrBudget) || errors.Is(err, ErrCostLimit) {
		return err
	}
	id := celErr.NodeID()
	loc := a.NativeRep().SourceInfo().GetStartLocation(id)
	if loc.Line() < 1 {
		return err
	}
	col := loc.Column()
	ast.PostOrderVisit(a.NativeRep().Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if e.ID() == id && e.Kind() == ast.CallKind {
			col = nameStart(src.Text, loc.Line(), col, e.AsCall().FunctionName())
		}
	}))
	return &EvalError{Pos: src.PosAt(loc.Line(), col), Err: err}
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
