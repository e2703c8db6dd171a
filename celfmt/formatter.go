package celfmt

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

// Formatter is one checked catalog entry, ready to run. It is safe for
// concurrent use.
type Formatter struct {
	Entry    *Entry
	optional bool
	lets     []compiled
	letNames []string
	// preview, unwrap and tierExpr are the expressions evaluated after the
	// lets; one that the entry does not have has no AST.
	preview  compiled
	unwrap   compiled
	tierExpr compiled
	// render are the slots of rows and results, by renderSlot; one that
	// the entry does not have has no AST.
	render [renderSlots]compiled
	// tier is the tier the entry names, if any.
	tier runtime.Tier
	// fields are the input fields it accounts for (see InputFields).
	fields runtime.InputFields
	opts   Options
	// unmetered is set when the preview may run without the meter on
	// input within the bounds of its estimate (see unmetered.go), and
	// unwrapUnmetered and tierUnmetered when unwrap and tier may.
	unmetered       bool
	unwrapUnmetered bool
	tierUnmetered   bool
	renderUnmetered [renderSlots]bool
	// activations recycles the activations of its evaluations: each Run
	// needs one, with room for a budget, the values of lets and call
	// arguments. An activation holds nothing of an evaluation once
	// released, but the boxed tool name and limits, which the next
	// evaluation reuses when they are the same. The pool is the
	// formatter's, not the package's: no state outlives its formatter.
	activations sync.Pool
	// checked are the options it was checked with: the estimates hold
	// for them only.
	checked Options
	// metered makes every evaluation metered, as a test or a benchmark
	// compares the two.
	metered bool
}

// unmeteredWithin reports whether every expression of a formatter has a
// plain program and their strict estimates add up to no more than limit.
func unmeteredWithin(lets []compiled, preview compiled, limit uint64) bool {
	total := uint64(0)
	for _, c := range append(lets[:len(lets):len(lets)], preview) {
		if c.plain.prg == nil {
			return false
		}
		total = sat(total, c.strict)
	}
	return total <= limit
}

// Optional reports whether the preview's type is optional_type(string),
// that is, whether it may decline.
func (f *Formatter) Optional() bool { return f.optional }

// Run evaluates the formatter on a call's input. ok is false when the
// expression returns optional.none() (a decline), or when the entry has no
// preview. An error (a runtime error,
// the cost limit, the memory budget (ErrBudget) or a declared field of
// another type) is a failure the caller must not show.
//
// The input is not measured first: however large it is, a formatter that
// reads a short field stays cheap, and one that reads a long field is
// bounded by the cost limit and the memory budget.
func (f *Formatter) Run(input *value.Object, tool string, limits Limits) (text string, ok bool, err error) {
	text, ok, _, err = f.run(input, tool, limits, nil)
	return text, ok, err
}

// run is Run within a description's shared budget (nil for none), which
// also reports whether the evaluation was metered.
func (f *Formatter) run(input *value.Object, tool string, limits Limits, shared *runtime.Budget) (text string, ok, metered bool, err error) {
	if f.preview.ast == nil {
		return "", false, false, nil
	}
	metered, err = f.runSlot(&f.preview, f.unmetered, input, nil, tool, limits, shared, func(out ref.Val) (err error) {
		text, ok, err = result(out)
		return err
	})
	if err != nil {
		return "", false, metered, err
	}
	return text, ok, metered, nil
}

// runSlot evaluates the lets and then the expression c, and gives its
// value to use before the evaluation's values are released. result is the
// variable result of a slot that sees it, and nil for the others. It runs
// without the meter when unmetered allows and the input, the result and
// the lets' values are within the bounds of the estimates. shared, when
// not nil, is the budget of the description the evaluation belongs to: it
// lowers the cost limit to what is left of it, and is charged what the
// evaluation spent (an unmetered one, its estimate).
func (f *Formatter) runSlot(c *compiled, unmetered bool, input, result *value.Object, tool string, limits Limits,
	shared *runtime.Budget, use func(ref.Val) error) (metered bool, err error) {
	if input == nil {
		input = value.Input{}.Object()
	}
	limit := min(f.opts.CostLimit, shared.Left())
	if shared != nil && unmetered && slotEstimate(f.lets, c) > limit {
		unmetered = false
	}
	vars := f.activation(input, result, tool, limits)
	defer vars.release()
	if !unmetered || f.metered || f.opts != f.checked || !inputFits(input, f.opts) ||
		result != nil && !inputFits(result, f.opts) {
		b := vars.newBudget(f.opts.MemoryBudget, limit)
		out, err := f.evaluate(c, vars, 0, b)
		shared.Spend(b.cost)
		if err != nil {
			return true, sharedError(err, shared, limit < f.opts.CostLimit)
		}
		return true, use(out)
	}
	// What runs unmetered is within its estimate, which is charged.
	// Free programs charge nothing, but keep call arguments on the stack
	// of a budget.
	vars.newBudget(math.MaxInt64, math.MaxUint64)
	spent := uint64(0)
	for i, l := range f.lets {
		if !c.reads(i) {
			vars.vals = append(vars.vals, types.NullValue) // never read
			continue
		}
		v, err := eval(l.plain, vars)
		spent += l.strict
		if err != nil {
			shared.Spend(spent)
			return false, fmt.Errorf("let %s: %w", l.name, err)
		}
		vars.vals = append(vars.vals, v)
		if !letFits(v, f.opts) {
			// The rest is metered, and charged with what ran.
			b := vars.newBudget(f.opts.MemoryBudget, limit)
			b.cost = spent
			out, err := f.evaluate(c, vars, i+1, b)
			shared.Spend(b.cost)
			if err != nil {
				return true, sharedError(err, shared, limit < f.opts.CostLimit)
			}
			return true, use(out)
		}
	}
	out, err := eval(c.plain, vars)
	// What ran unmetered is charged its estimate, which bounds it.
	shared.Spend(sat(spent, c.strict))
	if err != nil {
		return false, err
	}
	return false, use(out)
}

// eval evaluates a program on an activation. It runs the program's plan on
// the activation's own frame when it has one, and otherwise does what
// cel.Program.Eval does: a Go panic is an internal error, and so is an
// error value.
func eval(p planned, vars *activation) (out ref.Val, err error) {
	if p.root == nil {
		out, _, err = p.prg.Eval(vars)
		return out, err
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("internal error: %v", r)
		}
	}()
	out = p.root.Exec(&vars.frame)
	if e, ok := out.(*types.Err); ok {
		return out, e
	}
	return out, nil
}

// activation returns the activation of one evaluation, which the caller
// releases when the evaluation is over.
func (f *Formatter) activation(input, result *value.Object, tool string, limits Limits) *activation {
	vars, _ := f.activations.Get().(*activation)
	if vars == nil {
		vars = &activation{pool: &f.activations}
	}
	vars.input = objectVal{o: input}
	if result != nil {
		vars.result = objectVal{o: result}
	}
	if vars.tool == nil || vars.toolName != tool {
		vars.tool, vars.toolName = types.String(tool), tool
	}
	if vars.limits == nil || vars.rawLimits != limits {
		vars.limits, vars.rawLimits = limitsVal(limits), limits
	}
	vars.lets = f.letNames
	vars.frame.Activation = vars
	vars.vals = vars.spareVals[:0]
	return vars
}

// release clears the activation of what the evaluation put in it and
// returns it to the pool.
func (a *activation) release() {
	a.input = nil
	a.result = nil
	a.lets = nil
	a.vals = nil
	clear(a.spareVals[:])
	clear(a.spareStack[:])
	a.spare = budget{}
	a.budget = nil
	a.pool.Put(a)
}

// newBudget gives the activation a budget of total bytes and limit units,
// and returns it.
func (a *activation) newBudget(total int64, limit uint64) *budget {
	a.spare = budget{left: total, total: total, limit: limit, stack: a.spareStack[:0]}
	a.budget = &a.spare
	return a.budget
}

// format evaluates the formatter's expression c within budget b, metered,
// and gives its value to use before the evaluation's values are released.
func (f *Formatter) format(c *compiled, input, result *value.Object, tool string, limits Limits, b *budget, use func(ref.Val) error) error {
	if input == nil {
		input = value.Input{}.Object()
	}
	vars := f.activation(input, result, tool, limits)
	defer vars.release()
	out, err := f.evaluate(c, vars, 0, b)
	if err != nil {
		return err
	}
	return use(out)
}

// evaluate evaluates the lets from the i-th on that c reads, then the
// expression c, metered within budget b.
func (f *Formatter) evaluate(c *compiled, vars *activation, i int, b *budget) (ref.Val, error) {
	vars.budget = b
	for j, l := range f.lets[i:] {
		if !c.reads(i + j) {
			vars.vals = append(vars.vals, types.NullValue) // never read
			continue
		}
		v, err := eval(l.prg, vars)
		if b.err != nil {
			err = b.err
		}
		if err != nil {
			return nil, fmt.Errorf("let %s: %w", l.name, err)
		}
		vars.vals = append(vars.vals, v)
	}
	out, err := eval(c.prg, vars)
	if b.err != nil {
		err = b.err
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

func result(v ref.Val) (string, bool, error) { return textValue("preview", v) }

// slotEstimate is the strict estimate of the lets and the expression c
// added up: what an unmetered evaluation of them may spend at most.
func slotEstimate(lets []compiled, c *compiled) uint64 {
	total := c.strict
	for _, l := range lets {
		total = sat(total, l.strict)
	}
	return total
}

// sharedError marks the failure of an evaluation that a description's
// shared budget stopped: its cost limit was what the budget had left
// (lowered is set), and the budget is spent.
func sharedError(err error, shared *runtime.Budget, lowered bool) error {
	if lowered && shared.Exhausted() && errors.Is(err, ErrCostLimit) {
		return fmt.Errorf("%w: %w", runtime.ErrDescriptionCost, err)
	}
	return err
}
