package gen

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/google/cel-go/common/types"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/runtime"
)

// Plan says how generated code runs one formatter of a catalog.
type Plan struct {
	Tool string
	// Reason is why the formatter runs in the interpreter; "" when it
	// was translated to Go.
	Reason string
	// body, unwrap and tier are the bodies of the functions of the
	// entry's preview, unwrap and tier expressions, nil for those it does
	// not have.
	body, unwrap, tier []jen.Code
	// render are the bodies of the functions of the entry's row, result,
	// error, expand and title expressions, in that order, nil for those it
	// does not have.
	render [5][]jen.Code
	// patterns are the formatter's constant regular expressions.
	patterns []patternVar
}

// Native reports whether the formatter was translated to Go.
func (p Plan) Native() bool { return p.Reason == "" }

// Translate translates every formatter of a catalog to Go, in catalog
// order. A formatter with an expression the translation does not cover
// gets the reason in its Plan and runs in the interpreter.
func Translate(c *celfmt.Checked) []Plan {
	plans := make([]Plan, len(c.Formatters))
	tools := make([]string, len(c.Formatters))
	for i, f := range c.Formatters {
		tools[i] = f.Entry.Tool
	}
	names := goNames(tools)
	for i, f := range c.Formatters {
		plans[i].Tool = f.Entry.Tool
		p, err := safeTranslate(f, "pattern"+names[i])
		if err != nil {
			var u *UnsupportedError
			if errors.As(err, &u) {
				plans[i].Reason = u.Reason
			} else {
				plans[i].Reason = err.Error()
			}
			continue
		}
		p.Tool = f.Entry.Tool
		plans[i] = p
	}
	return plans
}

// safeTranslate translates a formatter; a translation that panics (a bug
// of the translation, not of the catalog) leaves the formatter to the
// interpreter rather than stopping go generate.
func safeTranslate(f *celfmt.Formatter, patternBase string) (p Plan, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the translation failed: %v", r)
		}
	}()
	return translateFormatter(f, patternBase)
}

// translateFormatter translates the expressions of a formatter: the body
// of a function
//
//	func(input *value.Object, tool string, limits runtime.Limits) (string, bool, error)
//
// that evaluates the formatter's lets, in order, and its preview, and
// those of functions of the same parameters that evaluate the lets and
// the unwrap expression, returning ([]runtime.InnerCall, error), and the
// tier expression, returning (runtime.Tier, error).
func translateFormatter(f *celfmt.Formatter, patternBase string) (Plan, error) {
	var p Plan
	if preview := f.Preview(); preview.AST != nil {
		body, err := translateSlot(f, preview, []jen.Code{jen.Lit(""), jen.False()}, &p.patterns, patternBase,
			func(t *translator, v val) {
				if f.Optional() {
					v = t.settle(t.coerce(v, types.NewOptionalType(types.StringType)), "text")
					t.emit(jen.Return(jen.Add(v.code).Dot("Value"), jen.Add(v.code).Dot("Ok"), jen.Nil()))
				} else {
					t.emit(jen.Return(t.coerce(v, types.StringType).code, jen.True(), jen.Nil()))
				}
			})
		if err != nil {
			return Plan{}, err
		}
		p.body = body
	}
	if unwrap, ok := f.UnwrapExpr(); ok {
		body, err := translateSlot(f, unwrap, []jen.Code{jen.Nil()}, &p.patterns, patternBase,
			func(t *translator, v val) {
				t.emit(jen.Return(qual("InnerCalls").Call(t.coerce(v, types.DynType).code)))
			})
		if err != nil {
			return Plan{}, err
		}
		p.unwrap = body
	}
	if tier, ok := f.TierExpr(); ok {
		body, err := translateSlot(f, tier, []jen.Code{jen.Qual(runtimePath, "TierUnknown")}, &p.patterns, patternBase,
			func(t *translator, v val) {
				if s, ok := constantString(v); ok {
					if tier, err := runtime.ParseTier(s); err == nil {
						t.emit(jen.Return(tierConstant(tier), jen.Nil()))
						return
					}
				}
				t.emit(jen.Return(qual("Tier").Call(t.coerce(v, types.StringType).code)))
			})
		if err != nil {
			return Plan{}, err
		}
		p.tier = body
	}
	for i, slot := range renderExprs(f) {
		e, ok := slot()
		if !ok {
			continue
		}
		list := i == 3 // expand
		zeros := []jen.Code{jen.Lit(""), jen.False()}
		want := types.StringType
		if list {
			zeros = []jen.Code{jen.Nil(), jen.False()}
			want = types.NewListType(types.StringType)
		}
		body, err := translateSlot(f, e, zeros, &p.patterns, patternBase, func(t *translator, v val) {
			if e.AST.OutputType().IsExactType(want) {
				t.emit(jen.Return(t.coerce(v, want).code, jen.True(), jen.Nil()))
				return
			}
			v = t.settle(t.coerce(v, types.NewOptionalType(want)), "out")
			t.emit(jen.Return(jen.Add(v.code).Dot("Value"), jen.Add(v.code).Dot("Ok"), jen.Nil()))
		})
		if err != nil {
			return Plan{}, err
		}
		p.render[i] = body
	}
	return p, nil
}

// renderExprs are the accessors of a formatter's row, result, error,
// expand and title expressions, in that order.
func renderExprs(f *celfmt.Formatter) [5]func() (celfmt.CheckedExpr, bool) {
	return [5]func() (celfmt.CheckedExpr, bool){f.RowExpr, f.ResultExpr, f.ErrorExpr, f.ExpandExpr, f.TitleExpr}
}

// tierConstant is the runtime constant of a tier: runtime.TierRead.
func tierConstant(t runtime.Tier) *jen.Statement {
	name := t.String()
	return jen.Qual(runtimePath, "Tier"+strings.ToUpper(name[:1])+name[1:])
}

// translateSlot returns the body of a function of (input, tool, limits)
// that evaluates the formatter's lets, in order, and then the expression
// e, whose value finish returns. zeros are the function's results but the
// error when it fails.
func translateSlot(f *celfmt.Formatter, e celfmt.CheckedExpr, zeros []jen.Code, patterns *[]patternVar, patternBase string,
	finish func(*translator, val)) ([]jen.Code, error) {
	t := newTranslator(nil, zeros)
	t.patterns, t.patternBase = patterns, patternBase
	var lets []string
	var used []*bool
	t.bind("input", val{code: jen.Id("input"), t: f.InputType()})
	t.bind("tool", val{code: jen.Id("tool"), t: types.StringType})
	t.bind("limits", val{code: jen.Id("limits"), t: types.NewObjectType("permgen.Limits")})
	// Only the slots that see the result have it: the checker rejects a
	// reference elsewhere.
	t.bind("result", val{code: jen.Id("result"), t: celfmt.ResultType()})
	for _, l := range f.Lets() {
		t.ast, t.let = l.AST.NativeRep(), l.Name
		v, err := t.expr(t.ast.Expr())
		if err != nil {
			return nil, err
		}
		v = t.coerce(v, l.AST.OutputType())
		t.let = ""
		name := t.goName(l.Name)
		t.emit(jen.Id(name).Op(":=").Add(v.code))
		lets = append(lets, name)
		used = append(used, t.bindUsed(l.Name, val{code: jen.Id(name), t: v.t}))
	}
	t.ast = e.AST.NativeRep()
	v, err := t.expr(t.ast.Expr())
	if err != nil {
		return nil, err
	}
	// A let nothing reads is still evaluated (its failure fails the
	// formatter, as in the interpreter), and Go wants it read.
	for i, u := range used {
		if !*u {
			t.emit(jen.Id("_").Op("=").Id(lets[i]))
		}
	}
	t.budgetChecked()
	finish(t, v)
	return t.body(), nil
}
