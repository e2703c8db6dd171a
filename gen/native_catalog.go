package gen

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/google/cel-go/common/types"

	"github.com/permgen/permgen/celfmt"
)

// Plan says how generated code runs one formatter of a catalog.
type Plan struct {
	Tool string
	// Reason is why the formatter runs in the interpreter; "" when it
	// was translated to Go.
	Reason string
	body   []jen.Code
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
	for i, f := range c.Formatters {
		plans[i].Tool = f.Entry.Tool
		body, patterns, err := safeTranslate(f)
		if err != nil {
			var u *UnsupportedError
			if errors.As(err, &u) {
				plans[i].Reason = u.Reason
			} else {
				plans[i].Reason = err.Error()
			}
			continue
		}
		plans[i].body, plans[i].patterns = body, patterns
	}
	return plans
}

// safeTranslate translates a formatter; a translation that panics (a bug
// of the translation, not of the catalog) leaves the formatter to the
// interpreter rather than stopping go generate.
func safeTranslate(f *celfmt.Formatter) (body []jen.Code, patterns []patternVar, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the translation failed: %v", r)
		}
	}()
	return translateFormatter(f, "pattern"+camel(strings.ReplaceAll(f.Entry.Tool, "*", "any")))
}

// translateFormatter returns the body of a function
//
//	func(input *value.Object, tool string, limits runtime.Limits) (string, bool, error)
//
// that evaluates the formatter's lets, in order, and its preview.
func translateFormatter(f *celfmt.Formatter, patternBase string) ([]jen.Code, []patternVar, error) {
	t := newTranslator(nil, []jen.Code{jen.Lit(""), jen.False()})
	var patterns []patternVar
	t.patterns, t.patternBase = &patterns, patternBase
	var lets []string
	var used []*bool
	t.bind("input", val{code: jen.Id("input"), t: f.InputType()})
	t.bind("tool", val{code: jen.Id("tool"), t: types.StringType})
	t.bind("limits", val{code: jen.Id("limits"), t: types.NewObjectType("permgen.Limits")})
	for _, l := range f.Lets() {
		t.ast = l.AST.NativeRep()
		v, err := t.expr(t.ast.Expr())
		if err != nil {
			return nil, nil, err
		}
		v = t.coerce(v, l.AST.OutputType())
		name := t.goName(l.Name)
		t.emit(jen.Id(name).Op(":=").Add(v.code))
		lets = append(lets, name)
		used = append(used, t.bindUsed(l.Name, val{code: jen.Id(name), t: v.t}))
	}
	p := f.Preview()
	t.ast = p.AST.NativeRep()
	v, err := t.expr(t.ast.Expr())
	if err != nil {
		return nil, nil, err
	}
	// A let nothing reads is still evaluated (its failure fails the
	// formatter, as in the interpreter), and Go wants it read.
	for i, u := range used {
		if !*u {
			t.emit(jen.Id("_").Op("=").Id(lets[i]))
		}
	}
	if f.Optional() {
		v = t.settle(t.coerce(v, types.NewOptionalType(types.StringType)), "text")
		t.emit(jen.Return(jen.Add(v.code).Dot("Value"), jen.Add(v.code).Dot("Ok"), jen.Nil()))
	} else {
		t.emit(jen.Return(t.coerce(v, types.StringType).code, jen.True(), jen.Nil()))
	}
	return t.body(), patterns, nil
}
