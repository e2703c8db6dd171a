package celfmt

import (
	"fmt"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/value"
)

// The unwrap and tier expressions of a formatter: the calls a wrapper call
// carries, and how much a call may do.

var (
	_ runtime.Formatter = (*Formatter)(nil)
	_ runtime.Unwrapper = (*Formatter)(nil)
	_ runtime.Tierer    = (*Formatter)(nil)
)

// Unwrap returns the calls a wrapper call carries: it makes a Formatter a
// runtime.Unwrapper. It returns nil when the entry has no unwrap, or when
// the expression gives optional.none() or an empty list. A failure of the
// evaluation (as for Run) or an element that is not a call (a
// *celrt.CallError) is an error.
func (f *Formatter) Unwrap(req runtime.Request) ([]runtime.InnerCall, error) {
	calls, _, err := f.unwrapCalls(req.Input, req.Tool, req.Limits, req.Budget)
	return calls, err
}

// unwrapCalls is Unwrap within a description's shared budget (nil for
// none), which also reports whether the evaluation was metered.
func (f *Formatter) unwrapCalls(input *value.Object, tool string, limits Limits, shared *runtime.Budget) (calls []runtime.InnerCall, metered bool, err error) {
	if f.unwrap.ast == nil {
		return nil, false, nil
	}
	metered, err = f.runSlot(&f.unwrap, f.unwrapUnmetered, input, nil, tool, limits, shared, func(out ref.Val) (err error) {
		var values int
		calls, values, err = innerCalls(out)
		// Converting the calls is work the evaluation did not count: a
		// wrapper that carries a large input many times over spends the
		// description's budget by it.
		shared.Spend(uint64(values) / valuesPerUnit)
		return err
	})
	if err != nil {
		return nil, metered, err
	}
	return calls, metered, nil
}

// Tier returns the call's tier: it makes a Formatter a runtime.Tierer.
// It is the tier the entry names, or what its tier expression gives, which
// must be a tier's name (an error matching runtime.ErrInvalidTier
// otherwise); TierUnknown when the entry declares none.
func (f *Formatter) Tier(req runtime.Request) (runtime.Tier, error) {
	t, _, err := f.tierOf(req.Input, req.Tool, req.Limits, req.Budget)
	return t, err
}

// tierOf is Tier within a description's shared budget (nil for none),
// which also reports whether the evaluation was metered.
func (f *Formatter) tierOf(input *value.Object, tool string, limits Limits, shared *runtime.Budget) (t runtime.Tier, metered bool, err error) {
	if f.tierExpr.ast == nil {
		return f.tier, false, nil
	}
	metered, err = f.runSlot(&f.tierExpr, f.tierUnmetered, input, nil, tool, limits, shared, func(out ref.Val) (err error) {
		t, err = tierValue(out)
		return err
	})
	if err != nil {
		return runtime.TierUnknown, metered, err
	}
	return t, metered, nil
}

// tierValue converts the value of a tier expression to a tier, by the rule
// generated code follows (celrt.Tier).
func tierValue(out ref.Val) (runtime.Tier, error) {
	s, ok := out.(types.String)
	if !ok {
		return runtime.TierUnknown, fmt.Errorf("tier returned %s, not a string", out.Type().TypeName())
	}
	return celrt.Tier(string(s))
}

// valuesPerUnit is how many values converting the calls of an unwrap
// takes per unit of cost: a unit is up to a hundred nanoseconds or so, a
// value a few nanoseconds to convert.
const valuesPerUnit = 4

// innerCalls converts the value of an unwrap expression to calls, by the
// rules generated code follows (celrt.InnerCalls), and returns how many
// values it converted.
func innerCalls(out ref.Val) ([]runtime.InnerCall, int, error) {
	budget := celrt.MaxCallValues
	v, err := dynValue(out, 0, &budget)
	converted := celrt.MaxCallValues - budget
	if err != nil {
		return nil, converted, fmt.Errorf("unwrap: %w", err)
	}
	calls, values, err := celrt.CountInnerCalls(v)
	return calls, converted + values, err
}

// dynValue converts a CEL value to the dynamic form of package celrt,
// spending one of budget on each value it converts, as celrt.InnerCalls
// does. Objects and lists of the input stay as they are.
func dynValue(v ref.Val, depth int, budget *int) (any, error) {
	if depth > value.MaxDepth {
		return nil, fmt.Errorf("a value nested deeper than %d", value.MaxDepth)
	}
	if *budget--; *budget < 0 {
		return nil, fmt.Errorf("more than %d values in all", celrt.MaxCallValues)
	}
	switch x := v.(type) {
	case types.Null:
		return nil, nil
	case types.Bool:
		return bool(x), nil
	case types.Int:
		return int64(x), nil
	case types.Uint:
		return uint64(x), nil
	case types.Double:
		return float64(x), nil
	case types.String:
		return string(x), nil
	case types.Bytes:
		return []byte(x), nil
	case objectVal:
		return x.o, nil
	case inputList:
		return x.l, nil
	case limitsVal:
		return Limits(x), nil
	case *types.Optional:
		if !x.HasValue() {
			return celrt.None[any](), nil
		}
		e, err := dynValue(x.GetValue(), depth+1, budget)
		if err != nil {
			return nil, err
		}
		return celrt.Of(e), nil
	case ref.Type:
		return celrt.Type{Name: x.TypeName()}, nil
	case traits.Mapper:
		var keys, values []any
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			kv, err := dynValue(k, depth+1, budget)
			if err != nil {
				return nil, err
			}
			e, err := dynValue(x.Get(k), depth+1, budget)
			if err != nil {
				return nil, err
			}
			keys, values = append(keys, kv), append(values, e)
		}
		return celrt.NewMap(keys, values)
	case traits.Lister:
		n, _ := x.Size().(types.Int)
		list := make([]any, 0, int(n))
		for it := x.Iterator(); it.HasNext() == types.True; {
			e, err := dynValue(it.Next(), depth+1, budget)
			if err != nil {
				return nil, err
			}
			list = append(list, e)
		}
		return list, nil
	}
	return nil, fmt.Errorf("a value of type %s", v.Type().TypeName())
}

// unwrapProblem says why the checked type of an unwrap expression is not
// a list of calls, or an optional of one, or returns "".
func unwrapProblem(out *types.Type, e ast.Expr, lets []compiled) string {
	if out.Kind() == types.OpaqueKind && out.TypeName() == "optional_type" {
		inner := out.Parameters()[0]
		if inner.Kind() == types.DynKind && alwaysNone(e, lets) {
			return "" // optional.none(): never a wrapper
		}
		if callList(inner) {
			return ""
		}
	} else if callList(out) {
		return ""
	}
	hint := `: a list of calls such as [{"tool": "read", "input": {"path": input.path}}], ` +
		`or optional.none() when the call carries none`
	if out.Kind() == types.DynKind {
		return "unwrap has type dyn, not a list of calls" + hint + `; build the list, as in ` +
			`input.calls.map(c, {"tool": string(c.name), "input": c.args})`
	}
	return fmt.Sprintf("unwrap must have type list(map(string, dyn)) or optional_type(list(map(string, dyn))), got %s%s",
		out, hint)
}

// callList reports whether a type is a list whose elements may be calls:
// maps with string keys, or dyn.
func callList(t *types.Type) bool {
	if t.Kind() != types.ListKind {
		return false
	}
	switch e := t.Parameters()[0]; e.Kind() {
	case types.DynKind:
		return true
	case types.MapKind:
		k := e.Parameters()[0].Kind()
		return k == types.StringKind || k == types.DynKind
	}
	return false
}

// tierProblem says why the checked type of a tier expression is not
// string, or returns "".
func tierProblem(out *types.Type) string {
	switch {
	case out.IsExactType(cel.StringType):
		return ""
	case out.Kind() == types.DynKind:
		return "tier has type dyn: wrap it in string(...) so that its type is string"
	}
	return fmt.Sprintf("tier must have type string (%s), got %s", tierList(), out)
}

// checkTierConstants reports each string constant a tier expression may
// return (itself, a branch of a conditional, the result of a cel.bind)
// that names no tier.
func checkTierConstants(c compiled, src Source, errs *ErrorList) bool {
	good := true
	var visit func(e ast.Expr)
	visit = func(e ast.Expr) {
		switch e.Kind() {
		case ast.LiteralKind:
			s, ok := e.AsLiteral().(types.String)
			if !ok {
				return
			}
			if _, err := runtime.ParseTier(string(s)); err != nil {
				errs.Add(exprPos(c.ast, src, e), "tier: %s", unknownTier(string(s)))
				good = false
			}
		case ast.CallKind:
			if call := e.AsCall(); call.FunctionName() == "_?_:_" && len(call.Args()) == 3 {
				visit(call.Args()[1])
				visit(call.Args()[2])
			}
		case ast.ComprehensionKind:
			c := e.AsComprehension()
			if r := c.Result(); r.Kind() == ast.IdentKind && r.AsIdent() == c.AccuVar() {
				visit(c.AccuInit()) // cel.bind(x, "read", x)
			} else {
				visit(r)
			}
		}
	}
	visit(c.ast.NativeRep().Expr())
	return good
}
