package celfmt

import (
	"math/bits"

	"github.com/google/cel-go/cel"
	celfunctions "github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// Metering: how the cost limit and the memory budget are enforced.
//
// cel-go's own cost tracking (cel.CostLimit) is not used, for two reasons.
// It charges a call after the call returns, so it cannot stop a call that
// allocates gigabytes or runs for minutes (indexOf of a long needle in a
// long text is quadratic). And it keeps every value an evaluation computes
// on a stack that comprehension steps never pop, searching that stack
// linearly at each step: the time of an evaluation grows with the square of
// its cost, and nested comprehensions within a cost limit of a million ran
// for seconds.
//
// Instead, a decorator wraps every node of the program when it is built:
//
//   - a call becomes a meteredCall, which evaluates each argument once,
//     computes from the arguments what the call will cost and allocate,
//     charges both to the evaluation's budget BEFORE the call, and only then
//     runs the function's own implementation, taken from the environment's
//     function bindings (as the planner does);
//   - any other node (a variable or field access, a comprehension, a list
//     or map literal, && and ||, a conditional) costs nodeUnits, plus as
//     much per field or index it selects, or per element it lists, each time
//     it is evaluated; a comprehension's steps are such nodes, so each
//     iteration is charged;
//   - constants cost nothing.
//
// Every charge is constant work, so time grows linearly with cost, and the
// cost of every function is computed so that one unit takes no more than a
// hundred nanoseconds or so (TestCostCalibration measures it).

// callTable holds the implementations of the environment's functions, by
// overload id and by function name, as the planner looks them up.
type callTable map[string]*celfunctions.Overload

func newCallTable(env *cel.Env) (callTable, error) {
	t := callTable{}
	for _, fn := range env.Functions() {
		bindings, err := fn.Bindings()
		if err != nil {
			return nil, err
		}
		for _, o := range bindings {
			t[o.Operator] = o
		}
	}
	return t, nil
}

// program builds the program of a checked expression, metered.
func program(env *cel.Env, ast *cel.Ast, calls callTable) (cel.Program, error) {
	if calls == nil {
		var err error
		if calls, err = newCallTable(env); err != nil {
			return nil, err
		}
	}
	m := &meter{calls: calls, weights: regexWeights(ast)}
	return env.Program(ast, cel.CustomDecoratorV2(m.decorate))
}

// meter decorates the nodes of one program.
type meter struct {
	calls   callTable
	weights map[string]int // regexWeight of the program's constant patterns
}

func (m *meter) decorate(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	switch n := i.(type) {
	case *meteredCall, *meteredAttr, *meteredNode, interpreter.InterpretableConst:
		return i, nil // already metered, or free
	case interpreter.InterpretableAttribute:
		return &meteredAttr{InterpretableAttribute: n, units: nodeUnits}, nil
	case interpreter.InterpretableCall:
		return m.call(n)
	case interpreter.InterpretableConstructor:
		// A list or map literal allocates it and its elements; a map
		// hashes its keys.
		base := uint64(4 * nodeUnits)
		if n.Type() != types.ListType {
			base = 10 * nodeUnits
		}
		return &meteredNode{InterpretableV2: i, units: base + nodeUnits*uint64(len(n.InitVals()))}, nil
	}
	return &meteredNode{InterpretableV2: i, units: nodeUnits}, nil
}

func (m *meter) call(call interpreter.InterpretableCall) (interpreter.InterpretableV2, error) {
	fn := call.Function()
	c := &meteredCall{InterpretableCall: call, args: call.Args(), size: budgeted[fn], m: m}
	switch fn {
	case "_==_", "_!=_":
		c.equal = true
	case "matches":
		re, err := compileMatch(call)
		if err != nil {
			return nil, err
		}
		c.re = re
	}
	if !c.equal {
		c.impl = m.calls[call.OverloadID()]
		if c.impl == nil {
			c.impl = m.calls[fn]
		}
		if c.impl == nil {
			// No binding: the function is dispatched on its receiver.
			c.impl = &celfunctions.Overload{Operator: fn}
		}
	}
	if fn == "json" {
		c.exec = execJSON
	}
	return c, nil
}

// nodeUnits is what evaluating one node costs: a hundred nanoseconds or so
// of interpretation (resolving a variable through nested comprehensions,
// adapting a value, allocating a result) is two or three units.
const nodeUnits = 3

// meteredNode charges units each time it is evaluated.
type meteredNode struct {
	interpreter.InterpretableV2
	units uint64
}

func (n *meteredNode) Eval(a interpreter.Activation) ref.Val {
	return n.Exec(interpreter.AsFrame(a))
}

func (n *meteredNode) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	if b := budgetOf(frame); b != nil {
		if err := b.spend(n.units); err != nil {
			return types.NewErrWithNodeID(n.ID(), "%w", err)
		}
	}
	return n.InterpretableV2.Exec(frame)
}

// meteredAttr charges one unit per evaluation and one per qualifier (a
// field or index it selects). It stays an attribute, as the planner adds
// qualifiers to the attribute it selects from.
type meteredAttr struct {
	interpreter.InterpretableAttribute
	units uint64
}

func (a *meteredAttr) AddQualifier(q interpreter.Qualifier) (interpreter.Attribute, error) {
	a.units += nodeUnits
	_, err := a.InterpretableAttribute.AddQualifier(q)
	return a, err
}

func (a *meteredAttr) Eval(act interpreter.Activation) ref.Val {
	return a.Exec(interpreter.AsFrame(act))
}

func (a *meteredAttr) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	if b := budgetOf(frame); b != nil {
		if err := b.spend(a.units); err != nil {
			return types.NewErrWithNodeID(a.ID(), "%w", err)
		}
	}
	return a.InterpretableAttribute.Exec(frame)
}

// meteredCall charges a call's cost and allocation before making it. It
// keeps the call's id, function, overload and arguments.
type meteredCall struct {
	interpreter.InterpretableCall
	args  []interpreter.InterpretableV2
	impl  *celfunctions.Overload
	size  sizer // nil: the call allocates a bounded amount
	m     *meter
	equal bool        // == or !=, which the planner implements without a binding
	re    *regexMatch // matches with a constant pattern, compiled once
	// exec, when set, makes the call itself within the budget.
	exec func(args []ref.Val, b *budget) ref.Val
}

func (c *meteredCall) Eval(a interpreter.Activation) ref.Val {
	return c.Exec(interpreter.AsFrame(a))
}

func (c *meteredCall) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	var buf [3]ref.Val
	args := buf[:0]
	if len(c.args) > len(buf) {
		args = make([]ref.Val, 0, len(c.args))
	}
	strict := c.impl == nil || !c.impl.NonStrict
	for _, a := range c.args {
		v := a.Exec(frame)
		if strict && types.IsUnknownOrError(v) {
			return v
		}
		args = append(args, v)
	}
	b := budgetOf(frame)
	if b != nil {
		fn := c.Function()
		size := int64(0)
		if c.size != nil && b.err == nil {
			size = c.size(args, b.left)
		}
		if err := b.charge(fn, size); err != nil {
			return types.NewErrWithNodeID(c.ID(), "%w", err)
		}
		if err := b.spend(nodeUnits - 1 + c.m.cost(fn, args, size, b.limit-b.cost)); err != nil {
			return types.NewErrWithNodeID(c.ID(), "%w", err)
		}
		if c.exec != nil {
			return types.LabelErrNode(c.ID(), c.exec(args, b))
		}
	} else if c.exec != nil {
		return types.LabelErrNode(c.ID(), c.exec(args, newBudget(DefaultMemoryBudget, ^uint64(0))))
	}
	return types.LabelErrNode(c.ID(), c.call(args))
}

// call runs the implementation the way the interpreter would.
func (c *meteredCall) call(args []ref.Val) ref.Val {
	if c.equal {
		eq := types.Equal(args[0], args[1])
		if c.Function() == "_!=_" && !types.IsError(eq) {
			return types.Bool(eq != types.True)
		}
		return eq
	}
	if c.re != nil {
		return c.re.match(args)
	}
	impl := c.impl
	if len(args) > 0 && (impl.OperandTrait != 0 && !args[0].Type().HasTrait(impl.OperandTrait) ||
		impl.Unary == nil && impl.Binary == nil && impl.Function == nil) {
		if r, ok := args[0].(traits.Receiver); ok {
			return r.Receive(c.Function(), c.OverloadID(), args[1:])
		}
		return types.NewErr("no such overload: %s", c.Function())
	}
	switch {
	case len(args) == 1 && impl.Unary != nil:
		return impl.Unary(args[0])
	case len(args) == 2 && impl.Binary != nil:
		return impl.Binary(args[0], args[1])
	case impl.Function != nil:
		return impl.Function(args...)
	}
	return types.NewErr("no such overload: %s", c.Function())
}

// cost is what a call with these arguments costs, computed before the call
// from the arguments and from size, the bytes the memory budget charges it.
// Walks of deep values stop at limit.
func (m *meter) cost(fn string, args []ref.Val, size int64, limit uint64) uint64 {
	text := func(i int) uint64 {
		if i >= len(args) {
			return 0
		}
		switch v := args[i].(type) {
		case types.String:
			return uint64(len(v))
		case types.Bytes:
			return uint64(len(v))
		}
		return 0
	}
	elems := func(i int) uint64 {
		if i < 0 || i >= len(args) {
			return 0
		}
		return uint64(sizeOf(args[i]))
	}
	made := uint64(max(0, size))
	switch fn {
	case "_+_":
		return 1 + (text(0)+text(1))/traversal
	case "_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_":
		return 1 + minUnits(args[0], args[1], limit)
	case "@in":
		if _, ok := args[1].(traits.Lister); ok {
			return 1 + mul(elems(1), nodeUnits+deepUnits(args[0], limit))
		}
		return 1 + deepUnits(args[0], limit)
	case "string", "bytes":
		// Only a conversion between bytes and string copies the text.
		if _, same := args[0].(types.String); same == (fn == "string") {
			return 1
		}
		return 1 + (text(0)+text(1))/traversal
	case "size", "startsWith", "endsWith", "contains", "trim", "int", "uint", "double",
		"charAt", "strings.quote":
		return 1 + (text(0)+text(1))/traversal + elems(0)
	case "lowerAscii", "upperAscii", "reverse", "substring":
		// The text is converted to characters and back.
		return 1 + 2*text(0)/traversal + elems(0)
	case "replace", "format":
		return 1 + (text(0)+text(1)+text(2)+made)/traversal + elems(1)
	case "join":
		// The elements are read twice: to size the result, to build it.
		return 1 + 2*made/traversal + elems(0)
	case "split", "lists.range", "slice", "flatten":
		// One unit per element made.
		return 1 + text(0)/traversal + made/valueBytes
	case "indexOf", "lastIndexOf":
		// The text is converted to characters, then searched.
		return 1 + sat(2*text(0), mul(text(0), max(1, text(1))))/traversal
	case "matches":
		p, _ := args[1].(types.String)
		w, ok := m.weights[string(p)]
		if !ok {
			w = regexWeight(string(p))
		}
		return 1 + mul(text(0)+1, uint64(w))/regexCostDivisor
	case "json":
		return 1 + deepUnits(args[0], limit)
	case "distinct":
		return 1 + mul(elems(0), deepUnits(args[0], limit))/traversal
	case "sort", "@sortByAssociatedKeys":
		keys := len(args) - 1
		return 1 + mul(deepUnits(args[keys], limit), uint64(bits.Len64(elems(keys))+1))
	}
	for _, f := range functions {
		if f.name == fn && f.perUnit > 0 {
			return 1 + text(0)/uint64(f.perUnit)
		}
	}
	return 1
}

// minUnits is the smaller of the deepUnits of a and b, which is what
// comparing them can cost, found without walking the larger one further
// than the smaller: both are walked to a bound that grows until one of
// them fits.
func minUnits(a, b ref.Val, limit uint64) uint64 {
	for k := uint64(64); ; k *= 8 {
		k = min(k, limit)
		ua, ub := deepUnits(a, k), deepUnits(b, k)
		if ua <= k || ub <= k || k == limit {
			return min(ua, ub)
		}
	}
}
