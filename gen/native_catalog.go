package gen

import (
	"errors"
	"fmt"
	"slices"
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
	// lets is the body of the function that computes the formatter's
	// lets, once for all its slots (nil when no slot reads one), and
	// letFields the fields of the struct it returns. bySlot says that it
	// takes the slot it computes them for, because some slots read fewer
	// lets than others.
	lets      []jen.Code
	letFields []jen.Code
	bySlot    bool
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
	var slots []slotExpr
	if preview := f.Preview(); preview.AST != nil {
		slots = append(slots, slotExpr{"SlotPreview", preview})
	}
	if unwrap, ok := f.UnwrapExpr(); ok {
		slots = append(slots, slotExpr{"SlotUnwrap", unwrap})
	}
	if tier, ok := f.TierExpr(); ok {
		slots = append(slots, slotExpr{"SlotTier", tier})
	}
	for i, slot := range renderExprs(f) {
		if e, ok := slot(); ok {
			slots = append(slots, slotExpr{renderSlotNames[i], e})
		}
	}
	lets, err := translateLets(f, &p, patternBase, slots)
	if err != nil {
		return Plan{}, err
	}
	if preview := f.Preview(); preview.AST != nil {
		body, err := translateSlot(f, lets, "SlotPreview", preview, []jen.Code{jen.Lit(""), jen.False()}, &p.patterns, patternBase,
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
		body, err := translateSlot(f, lets, "SlotUnwrap", unwrap, []jen.Code{jen.Nil()}, &p.patterns, patternBase,
			func(t *translator, v val) {
				t.emit(jen.Return(qual("InnerCalls").Call(t.coerce(v, types.DynType).code)))
			})
		if err != nil {
			return Plan{}, err
		}
		p.unwrap = body
	}
	if tier, ok := f.TierExpr(); ok {
		body, err := translateSlot(f, lets, "SlotTier", tier, []jen.Code{jen.Qual(runtimePath, "TierUnknown")}, &p.patterns, patternBase,
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
		body, err := translateSlot(f, lets, renderSlotNames[i], e, zeros, &p.patterns, patternBase, func(t *translator, v val) {
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

// renderSlotNames are the celrt constants of the slots of renderExprs.
var renderSlotNames = [5]string{"SlotRow", "SlotResult", "SlotErrorLine", "SlotExpand", "SlotTitle"}

// slotExpr is a slot expression of a formatter and the celrt constant
// that names its slot.
type slotExpr struct {
	slot string
	e    celfmt.CheckedExpr
}

// readsLets reports whether a slot expression reads a let.
func readsLets(e celfmt.CheckedExpr) bool { return slices.Contains(e.Lets, true) }

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

// letValues are the lets of a formatter as its slots read them: the
// fields of the struct its lets function returns. absorbs says that the
// lets function may absorb a failure of its budget (see budgetChecked).
type letValues struct {
	name    string // the struct's name; the function's is name + "Of"
	names   []string
	vals    []val
	absorbs bool
	bySlot  bool // the function takes the slot
}

// translateLets translates the lets of a formatter into the body of one
// function of (input, tool, limits), which every slot that reads a let
// calls first: it computes, in order, the lets the slot reads (as
// celfmt.CheckedExpr.Lets says; when slots read different lets, the
// function takes the slot), and returns them as a struct, with the budget
// and the steps they took, which the slot goes on charging. A let no slot
// reads is not translated. It returns nil when no slot reads a let.
func translateLets(f *celfmt.Formatter, p *Plan, patternBase string, slots []slotExpr) (*letValues, error) {
	var callers []slotExpr
	for _, s := range slots {
		if readsLets(s.e) {
			callers = append(callers, s)
		}
	}
	if len(callers) == 0 {
		return nil, nil
	}
	name := "lets" + strings.TrimPrefix(patternBase, "pattern")
	t := newTranslator(nil, []jen.Code{jen.Id(name).Values(), jen.Qual(celrtPath, "Budget").Values(), jen.Lit(0)})
	t.names[name], t.names[name+"Of"], t.names["slot"] = 1, 1, 1
	t.patterns, t.patternBase = &p.patterns, patternBase
	bindVariables(t, f)
	lv := &letValues{name: name}
	var values []jen.Code
	for i, l := range f.Lets() {
		var readers, others []jen.Code
		for _, c := range callers {
			if c.e.Lets[i] {
				readers = append(readers, jen.Id("slot").Op("==").Qual(celrtPath, c.slot))
			} else {
				others = append(others, jen.Id("slot").Op("!=").Qual(celrtPath, c.slot))
			}
		}
		if len(readers) == 0 {
			continue // no slot reads it
		}
		var goVar string
		if len(others) > 0 {
			goVar = t.goName(l.Name) // declared before the block that sets it
		}
		block, _, v, err := t.sub(func() (val, error) {
			t.ast, t.let = l.AST.NativeRep(), l.Name
			v, err := t.expr(t.ast.Expr())
			if err != nil {
				return val{}, err
			}
			v = t.coerce(v, l.AST.OutputType())
			t.flush() // as failures of the let
			t.let = ""
			return v, nil
		})
		if err != nil {
			return nil, err
		}
		if len(others) == 0 {
			goVar = t.goName(l.Name)
			t.emit(block...)
			t.emit(jen.Id(goVar).Op(":=").Add(v.code))
		} else {
			// Only some slots read it: computed for those.
			p.bySlot = true
			guard := joined("||", readers)
			if len(others) < len(readers) {
				guard = joined("&&", others)
			}
			t.emit(jen.Var().Id(goVar).Add(goType(v.t)))
			t.emit(jen.If(guard).Block(append(block, jen.Id(goVar).Op("=").Add(v.code))...))
		}
		t.bind(l.Name, val{code: jen.Id(goVar), t: v.t})
		p.letFields = append(p.letFields, jen.Id(goVar).Add(goType(v.t)))
		values = append(values, field(goVar, jen.Id(goVar)))
		lv.names = append(lv.names, l.Name)
		lv.vals = append(lv.vals, val{code: jen.Id("lets").Dot(goVar), t: v.t})
	}
	budget, steps := jen.Code(jen.Qual(celrtPath, "Budget").Values()), jen.Code(jen.Lit(0))
	if t.budget {
		budget = jen.Id("budget")
	}
	if t.steps {
		steps = jen.Id("steps")
	}
	lv.absorbs = t.absorbs
	lv.bySlot = p.bySlot
	t.emit(jen.Return(jen.Id(name).Add(fields(values...)), budget, steps, jen.Nil()))
	p.lets = t.body()
	return lv, nil
}

// joined is the operands joined by the operator op.
func joined(op string, operands []jen.Code) *jen.Statement {
	out := jen.Add(operands[0])
	for _, x := range operands[1:] {
		out = out.Op(op).Add(x)
	}
	return out
}

// bindVariables declares the variables of a formatter's expressions.
func bindVariables(t *translator, f *celfmt.Formatter) {
	t.bind("input", val{code: jen.Id("input"), t: f.InputType()})
	t.bind("tool", val{code: jen.Id("tool"), t: types.StringType})
	t.bind("limits", val{code: jen.Id("limits"), t: types.NewObjectType("permgen.Limits")})
	// Only the slots that see the result have it: the checker rejects a
	// reference elsewhere.
	t.bind("result", val{code: jen.Id("result"), t: celfmt.ResultType()})
}

// translateSlot returns the body of a function of (input, tool, limits)
// that takes the formatter's lets from its lets function, when it has
// some, and then evaluates the expression e, whose value finish returns.
// zeros are the function's results but the error when it fails.
func translateSlot(f *celfmt.Formatter, lets *letValues, slot string, e celfmt.CheckedExpr, zeros []jen.Code, patterns *[]patternVar, patternBase string,
	finish func(*translator, val)) ([]jen.Code, error) {
	if !readsLets(e) {
		lets = nil
	}
	t := newTranslator(nil, zeros)
	t.patterns, t.patternBase = patterns, patternBase
	bindVariables(t, f)
	var used []*bool
	if lets != nil {
		t.goName("lets") // the variable the lets are in
		for i, name := range lets.names {
			used = append(used, t.bindUsed(name, lets.vals[i]))
		}
		t.absorbs = lets.absorbs
	}
	t.ast = e.AST.NativeRep()
	v, err := t.expr(t.ast.Expr())
	if err != nil {
		return nil, err
	}
	t.budgetChecked()
	finish(t, v)
	if lets == nil {
		return t.body(), nil
	}
	// The slot goes on with the budget and the steps the lets took.
	budget, steps := jen.Id("_"), jen.Id("_")
	if t.budget {
		budget = jen.Id("budget")
	}
	if t.steps {
		steps = jen.Id("steps")
	}
	letsVar := jen.Id("_")
	for _, u := range used {
		if *u {
			letsVar = jen.Id("lets")
		}
	}
	args := []jen.Code{jen.Id("input"), jen.Id("tool"), jen.Id("limits")}
	if lets.bySlot {
		args = append(args, jen.Qual(celrtPath, slot))
	}
	call := jen.List(letsVar, budget, steps, jen.Err()).Op(":=").Id(lets.name + "Of").Call(args...)
	check := jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(append(append([]jen.Code{}, zeros...), jen.Err())...))
	t.budget, t.steps = false, false // declared by the call
	return append([]jen.Code{call, check}, t.body()...), nil
}
