package celfmt

import (
	"fmt"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/permgen/permgen/runtime/value"
)

// Unmetered evaluation.
//
// Metering (meter.go) charges every node and every call as it runs, which
// costs about as much time as the formatting itself. It is only needed when
// the run time cost of an evaluation cannot be bounded before it runs. A
// formatter therefore also gets plain programs, without the meter, and runs
// them when both of these hold:
//
//  1. statically, when it is checked: the strict estimate (below) of its
//     lets and its preview, added up, is within Options.CostLimit, and none
//     of them calls a function whose result the estimate cannot bound
//     (lists.range, format with a format that is not constant, the list
//     functions cel-go estimates itself; see unboundedCall);
//  2. at run time, before it runs: the input is within what the estimate
//     assumes (inputFits), and each let's value is within what the
//     estimate of the expressions after it assumes (letFits). When a let's
//     value is not, the rest of the evaluation is metered, charged with
//     the estimate of what already ran.
//
// The strict estimate is the check's estimate (cost.go) with what it leaves
// loose made tight enough for the argument to hold:
//
//   - sizes: the input is at most Options.StringEstimate bytes of text in
//     all, so every string read from it is at most StringEstimate long, every
//     list or object at most MaxItems long, and json of any part of it at
//     most the 6*StringEstimate the estimator assumes; a let is assumed a
//     string of at most StringEstimate or a list or map of at most
//     letItems elements, which letFits checks; a local variable
//     (cel.bind, a comprehension's variables) has the size cel-go computes
//     from its initializer or its range, or none (an unbounded estimate);
//   - memory: the memory budget is enforced by the meter too. A call that
//     allocates (one that budget.go sizes) costs, in the strict estimate, at
//     least allocBytes per character or element of its arguments and
//     result, at the rate of CostLimit units per MemoryBudget bytes. The
//     sizers of budget.go charge no more than allocBytes per character or
//     element, so an estimate within CostLimit bounds what the evaluation
//     allocates through these functions by MemoryBudget. Growing chains are
//     rejected by the check already (oversized), on the same sizes.
//
// An estimate is a worst case: an input within those bounds cannot make an
// unmetered evaluation spend more than CostLimit or allocate more than
// MemoryBudget, and any other input is metered. The plain programs are
// built by the meter too, with nodes that charge nothing (meter.free): they
// call the same implementations as the metered ones (taken from the
// environment's bindings, == is types.Equal in both, matches compiles its
// constant pattern once in both, json serializes the whole value, which
// the budget allows for any input within the bounds), so the results are
// the same (TestUnmeteredAgreesWithMetered).

// letItems is how many elements a let's list or map may have for the
// evaluation after it to stay unmetered.
const letItems = 128

// allocBytes is the most the sizers of budget.go charge per character or
// element of a call's arguments and result, but for allocRates.
const allocBytes = 16

// strictSize is the strict estimate's size of a variable or a field: ok is
// false when the default of EstimateSize applies.
func (e *estimator) strictSize(n checker.AstNode) (*checker.SizeEstimate, bool) {
	path := n.Path()
	if len(path) == 0 || n.Expr().Kind() != ast.IdentKind && n.Expr().Kind() != ast.SelectKind {
		return nil, false // a call's result, which the call's estimate sizes
	}
	switch root := path[0]; {
	case root == varInput || root == varTool || root == varLimits || root == varResult:
		return nil, false
	case e.lets[root] && len(path) == 1:
		switch n.Type().Kind() {
		case types.ListKind, types.MapKind, types.DynKind:
			return &checker.SizeEstimate{Min: 0, Max: letItems}, true
		}
		return nil, false
	case e.lets[root]:
		return nil, false // letFits bounds what a let holds as the input is bounded
	}
	// A local variable: the size cel-go computed for it, if any.
	return nil, true
}

// strictCall makes a call's estimate strict.
func (e *estimator) strictCall(fn, overload string, args []checker.AstNode, est *checker.CallEstimate) *checker.CallEstimate {
	sz := func(i int) uint64 {
		if i < len(args) {
			s := e.size(args[i])
			return s.Max
		}
		return 0
	}
	rate, allocates := allocRates[fn]
	if !allocates {
		if _, sized := budgeted[fn]; !sized {
			return est
		}
		rate = allocBytes
	}
	in := uint64(0)
	for i := range args {
		in = sat(in, sz(i))
	}
	if est == nil {
		est = &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: 1}}
		var out uint64
		switch {
		case fn == "_+_" && overload == overloads.AddList:
			out = sat(sz(0), sz(1))
		case fn == "_+_":
			out = 1 // numbers
		case fn == "string" || fn == "bytes":
			out = sat(mul(4, sz(0)), 32)
		case fn == "strings.quote":
			out = sat(mul(6, sz(0)), 2)
		default: // sort, slice, distinct, reverse of a list
			out = sz(0)
		}
		est.ResultSize = &checker.SizeEstimate{Min: 0, Max: out}
	}
	if e.textRooted(fn, args) {
		// join or format of a list read from the input or a let: its
		// text is bounded as theirs is.
		n := sz(0)
		if fn == "format" {
			n = sz(1)
		}
		out := sat(sat(sz(0), mul(n, 6+sz(1))), uint64(e.o.StringEstimate)*6)
		est.ResultSize = &checker.SizeEstimate{Min: 0, Max: min(out, est.ResultSize.Max)}
		est.Max = max(1, min(est.Max, out/traversal))
	}
	out := in
	if est.ResultSize != nil {
		out = est.ResultSize.Max
	}
	bytes := sat(mul(sat(in, out), rate), allocConst)
	if units := mul(bytes, e.o.CostLimit) / max(1, uint64(e.o.MemoryBudget)); units > est.Max {
		est.Max = units
	}
	return est
}

// textRooted reports whether a call is a join or a format of a list read
// from the input or a let, whose text the run time bounds.
func (e *estimator) textRooted(fn string, args []checker.AstNode) bool {
	i := 0
	switch fn {
	case "join":
	case "format":
		i = 1
	default:
		return false
	}
	if i >= len(args) {
		return false
	}
	path := args[i].Path()
	return len(path) > 0 && (path[0] == varInput || path[0] == varResult || e.lets[path[0]])
}

// allocRates is, for the functions budget.go sizes, the most their sizer
// charges per character or element of their arguments and result, when it
// is more than allocBytes. Every sizer charges no more than allocConst on
// top.
var allocRates = map[string]uint64{
	"reverse":               32,
	"parseJSON":             24,
	"sort":                  48,
	"@sortByAssociatedKeys": 48,
	"distinct":              64,
}

// allocConst bounds what a sizer charges whatever the size of the
// arguments (mcpValue, numberText, plural, sqlKinds).
const allocConst = 1024

// maxFormatText bounds the text of a constant format, precisions included,
// for the strict estimate (which counts the format's text as its size).
const maxFormatText = 1024

// unboundedCall returns the first call of an expression whose result the
// strict estimate cannot bound: lists.range, format with a format that is
// not a constant (its precisions), and the list functions of cel-go's
// library, which cel-go estimates itself, without their allocation.
func unboundedCall(a *cel.Ast) string {
	found := ""
	ast.PostOrderVisit(a.NativeRep().Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if found != "" || e.Kind() != ast.CallKind {
			return
		}
		c := e.AsCall()
		switch fn := c.FunctionName(); fn {
		case "lists.range", "flatten", "slice", "distinct", "sort", "sortBy", "@sortByAssociatedKeys",
			"fields": // allocates for its n, not for its result
			found = fn
		case "reverse":
			if c.IsMemberFunction() && a.NativeRep().GetType(c.Target().ID()).Kind() == types.ListKind {
				found = fn
			}
		case "format":
			// A constant format adds its precisions to the result.
			if !c.IsMemberFunction() || c.Target().Kind() != ast.LiteralKind ||
				sizeFormat([]ref.Val{types.String(constString(c.Target())), types.NullValue}, 1<<20) > maxFormatText {
				found = fn
			}
		}
	}))
	return found
}

// unmeteredProgram returns the plain program of an expression and its
// strict estimate, or nil when the expression must be metered.
func unmeteredProgram(env *cel.Env, calls callTable, a *cel.Ast, lets []string, opts Options) (planned, uint64, string) {
	strict := &estimator{o: opts, strict: true, lets: map[string]bool{}}
	for _, l := range lets {
		strict.lets[l] = true
	}
	if fn := unboundedCall(a); fn != "" {
		return planned{}, 0, "the result of " + fn + " has no strict bound"
	}
	est, err := env.EstimateCost(a, strict)
	switch {
	case err != nil:
		return planned{}, 0, err.Error()
	case strict.oversized != nil:
		return planned{}, 0, strict.oversized.fn + " may go over the memory budget"
	case est.Max > opts.CostLimit:
		return planned{}, est.Max, fmt.Sprintf("strict estimate %d over the cost limit", est.Max)
	}
	p, err := planWith(env, a, calls, true)
	if err != nil {
		return planned{}, 0, err.Error()
	}
	return p, est.Max, ""
}

// fits measures values against the bounds of the strict estimate: text
// is what is left of the StringEstimate bytes they may hold in all.
type fits struct {
	text  int
	items int
}

func newFits(o Options) *fits { return &fits{text: o.StringEstimate, items: o.MaxItems} }

// model reports whether an input value fits, counting its strings, keys
// and number literals, and a few bytes per value for what JSON prints
// around them.
func (f *fits) model(v any) bool {
	switch v := v.(type) {
	case string:
		f.text -= len(v) + 2
	case value.Number:
		lit, ok := v.Literal()
		if !ok {
			lit = v.String()
		}
		f.text -= len(lit) + 1
	case []any:
		f.text -= 2
		if len(v) > f.items || f.text < 0 {
			return false
		}
		for _, e := range v {
			if !f.model(e) {
				return false
			}
		}
	case *value.Object:
		f.text -= 2
		if v.Len() > f.items || f.text < 0 {
			return false
		}
		for k, e := range v.All() {
			f.text -= len(k) + 4
			if !f.model(e) {
				return false
			}
		}
	default: // null, booleans, bare numbers
		f.text -= 6
	}
	return f.text >= 0
}

// val reports whether a CEL value fits. Lists and maps at the top may hold
// at most letItems elements.
func (f *fits) val(v ref.Val, depth int) bool {
	items := f.items
	if depth == 0 {
		items = letItems
	}
	switch v := v.(type) {
	case types.String:
		f.text -= len(v) + 2
	case types.Bytes:
		f.text -= len(v) + 2
	case objectVal:
		if depth == 0 && v.o.Len() > letItems {
			return false
		}
		return f.model(v.o)
	case *types.Optional:
		if v.HasValue() {
			return f.val(v.GetValue(), depth)
		}
	case traits.Lister:
		n := sizeOf(v)
		f.text -= 2
		if n > int64(items) || f.text < 0 {
			return false
		}
		if model, ok := v.(inputList); ok {
			return f.model(model.l)
		}
		for i := int64(0); i < n; i++ {
			if !f.val(v.Get(types.Int(i)), depth+1) {
				return false
			}
		}
	case traits.Mapper:
		n := sizeOf(v)
		f.text -= 2
		if n > int64(items) || f.text < 0 {
			return false
		}
		for it := v.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			e, _ := v.Find(k)
			if !f.val(k, depth+1) || !f.val(e, depth+1) {
				return false
			}
		}
	default: // numbers, booleans, null, types
		f.text -= 6
	}
	return f.text >= 0
}

// inputFits reports whether an input is within what the strict estimate
// assumes of it.
func inputFits(input *value.Object, o Options) bool {
	return newFits(o).model(input)
}

// letFits reports whether a let's value is within what the strict
// estimate of the expressions after it assumes of it.
func letFits(v ref.Val, o Options) bool {
	return newFits(o).val(v, 0)
}
