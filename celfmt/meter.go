package celfmt

import (
	"fmt"
	"math/bits"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	celfunctions "github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"

	"github.com/permgen/permgen/runtime/celrt"
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
//   - a variable or field access that is a call's argument is charged with
//     the call rather than by itself, once the call's arguments are
//     evaluated: this saves a look-up of the budget per access, and keeps
//     the time between two charges bounded by the size of the expression,
//     whatever the input;
//   - constants cost nothing, and neither do list and map literals of
//     constants, which are built once.
//
// Two shapes that the stock formatters use all the time are made without
// the values cel-go would build in between, and charged what cel-go's
// calls would have been: a chain of string concatenations builds only its
// result (concat), and the step of map and filter appends its element to
// the accumulator without building a list of one element (meteredCall.add).
//
// The same decorator, with free set, builds the programs that run
// unmetered (see unmetered.go): the same nodes, which charge nothing.
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
	p, err := plan(env, ast, calls)
	return p.prg, err
}

// planned is a program and the root of its plan, which an evaluation runs
// directly on its own frame (see run): cel.Program.Eval takes a frame from
// a pool, defers a recover and returns it, for each let and the preview.
type planned struct {
	prg cel.Program
	// root is nil when the plan's root could not be told (see recorder);
	// then the evaluation goes through prg.
	root interpreter.InterpretableV2
}

// plan builds the program of a checked expression, metered.
func plan(env *cel.Env, ast *cel.Ast, calls callTable) (planned, error) {
	return planWith(env, ast, calls, false)
}

// planWith builds the program of a checked expression, metered or free: a
// free program has the same nodes as a metered one, but charges nothing
// (see unmetered.go for when it may run).
func planWith(env *cel.Env, ast *cel.Ast, calls callTable, free bool) (planned, error) {
	return planLists(env, ast, calls, free, false)
}

// planLists is planWith, which plans list literals, their concatenations
// and joins as cel-go does when celLists is set (tests compare the two).
func planLists(env *cel.Env, ast *cel.Ast, calls callTable, free, celLists bool) (planned, error) {
	if calls == nil {
		var err error
		if calls, err = newCallTable(env); err != nil {
			return planned{}, err
		}
	}
	m := &meter{calls: calls, weights: regexWeights(ast), locals: localNames(ast), free: free, celLists: celLists, root: ast.NativeRep().Expr()}
	m.singles, m.plains = literalLists(ast)
	m.shapes = newShapes(ast)
	m.adapter = env.CELTypeAdapter()
	r := &recorder{dec: m.decorate}
	prg, err := env.Program(ast, cel.CustomDecoratorV2(r.decorate))
	if err != nil {
		return planned{}, err
	}
	return planned{prg: prg, root: r.rootOf(ast)}, nil
}

// recorder keeps the last node a decorator returned: the planner decorates
// a node after its children, so the last is the root.
type recorder struct {
	dec  func(interpreter.InterpretableV2) (interpreter.InterpretableV2, error)
	last interpreter.InterpretableV2
}

func (r *recorder) decorate(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	var err error
	if r.dec != nil {
		i, err = r.dec(i)
	}
	r.last = i
	return i, err
}

// rootOf returns the recorded root when it is the node of the expression's
// root, or nil.
func (r *recorder) rootOf(a *cel.Ast) interpreter.InterpretableV2 {
	if r.last == nil || r.last.ID() != a.NativeRep().Expr().ID() {
		return nil
	}
	return r.last
}

// meter decorates the nodes of one program.
type meter struct {
	calls   callTable
	weights map[string]int  // regexWeight of the program's constant patterns
	singles map[int64]bool  // the list literals of one element, not optional
	plains  map[int64]bool  // the list literals without optional elements
	locals  map[string]bool // the names of the comprehensions' variables
	// free makes nodes that charge nothing: only calls are decorated, so
	// that they keep their arguments on the stack, read variables
	// directly and build chains of concatenations once.
	free bool
	// celLists plans list literals, their concatenations and joins as
	// cel-go does, rather than with the nodes of lists.go.
	celLists bool
	// shapes builds the nodes of shapes.go.
	shapes *shapes
	// adapter is the environment's, which the planner's nodes use.
	adapter types.Adapter
	// root is the program's expression, where a failure finds its call.
	root ast.Expr
}

// localNames returns the names of the variables the comprehensions of an
// expression declare (cel.bind's too).
func localNames(a *cel.Ast) map[string]bool {
	names := map[string]bool{}
	ast.PostOrderVisit(a.NativeRep().Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if e.Kind() == ast.ComprehensionKind {
			c := e.AsComprehension()
			names[c.IterVar()], names[c.IterVar2()], names[c.AccuVar()] = true, true, true
		}
	}))
	return names
}

// literalLists returns the ids of the list literals of an expression that
// have one element, which is not optional ([x], not [?x]), and of those
// that have no optional element.
func literalLists(a *cel.Ast) (singles, plains map[int64]bool) {
	singles, plains = map[int64]bool{}, map[int64]bool{}
	ast.PostOrderVisit(a.NativeRep().Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if e.Kind() == ast.ListKind && len(e.AsList().OptionalIndices()) == 0 {
			plains[e.ID()] = true
			singles[e.ID()] = len(e.AsList().Elements()) == 1
		}
	}))
	return singles, plains
}

func (m *meter) decorate(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	if m.free {
		out, err := m.decorateFree(i)
		if err != nil {
			return nil, err
		}
		return m.shapes.record(out), nil
	}
	out, err := m.decorateMetered(i)
	if err != nil {
		return nil, err
	}
	return m.shapes.record(out), nil
}

// decorateMetered decorates a node of a metered program.
func (m *meter) decorateMetered(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	switch n := i.(type) {
	case *meteredCall, *meteredAttr, *meteredNode, *cond, *typeIs, *fold, interpreter.InterpretableConst:
		return i, nil // already metered, or free
	case interpreter.InterpretableAttribute:
		if c := m.shapes.conditional(n, nodeUnits); c != nil {
			return c, nil
		}
		if m.shapes.isCond(n) {
			// What selects from a cond costs what it cost when it
			// qualified the conditional attribute: the cond charges
			// the node.
			return &meteredAttr{InterpretableAttribute: n}, nil
		}
		return &meteredAttr{InterpretableAttribute: n, units: nodeUnits}, nil
	case interpreter.InterpretableCall:
		c, err := m.call(n)
		if err != nil {
			return nil, err
		}
		if t := typeOf(c); t != nil {
			return t, nil
		}
		return c, nil
	case interpreter.InterpretableConstructor:
		if c := constant(n); c != nil {
			return c, nil
		}
		// A list or map literal allocates it and its elements; a map
		// hashes its keys.
		base := uint64(4 * nodeUnits)
		if n.Type() != types.ListType {
			base = 10 * nodeUnits
		}
		if n.Type() == types.ListType && m.plains[n.ID()] && !m.celLists {
			i = &listLit{InterpretableConstructor: n, elems: n.InitVals()}
		}
		return &meteredNode{InterpretableV2: i, units: base + nodeUnits*uint64(len(n.InitVals()))}, nil
	}
	if f := m.shapes.fold(i, m.adapter); f != nil {
		return &meteredNode{InterpretableV2: f, units: nodeUnits}, nil
	}
	return &meteredNode{InterpretableV2: i, units: nodeUnits}, nil
}

// decorateFree decorates a node of a free program: calls, the shapes of
// shapes.go and constant literals.
func (m *meter) decorateFree(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	switch n := i.(type) {
	case *meteredCall, *cond, *typeIs, *fold, *listLit, *hasNonEmpty:
		return i, nil
	case interpreter.InterpretableCall:
		c, err := m.call(n)
		if err != nil {
			return nil, err
		}
		if t := typeOf(c); t != nil {
			return t, nil
		}
		if h := hasNonEmptyOf(c); h != nil {
			return h, nil
		}
		return c, nil
	case interpreter.InterpretableConstructor:
		if c := constant(n); c != nil {
			return c, nil
		}
		if n.Type() == types.ListType && m.plains[n.ID()] && !m.celLists {
			return &listLit{InterpretableConstructor: n, elems: n.InitVals()}, nil
		}
		return n, nil
	case interpreter.InterpretableAttribute:
		if c := m.shapes.conditional(n, 0); c != nil {
			return c, nil
		}
	}
	if f := m.shapes.fold(i, m.adapter); f != nil {
		return f, nil
	}
	return i, nil
}

// foldConstants builds constant list and map literals once (see constant).
func foldConstants(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	if n, ok := i.(interpreter.InterpretableConstructor); ok {
		if c := constant(n); c != nil {
			return c, nil
		}
	}
	return i, nil
}

// constant returns a list or map literal of constants ([], {}, ["a", "b"])
// as a constant, built once: lists and maps are immutable in CEL (a
// comprehension that accumulates into an empty one copies it first), so
// evaluations may share it. It returns nil for any other literal.
func constant(n interpreter.InterpretableConstructor) interpreter.InterpretableV2 {
	if t := n.Type(); t != types.ListType && t != types.MapType {
		return nil
	}
	for _, v := range n.InitVals() {
		if _, ok := v.(interpreter.InterpretableConst); !ok {
			return nil
		}
	}
	v := n.Eval(interpreter.EmptyActivation())
	if types.IsUnknownOrError(v) {
		return nil // a map with a duplicate key fails each time, as it should
	}
	return interpreter.NewConstValue(n.ID(), v)
}

func (m *meter) call(call interpreter.InterpretableCall) (*meteredCall, error) {
	fn := call.Function()
	c := &meteredCall{
		InterpretableCall: call,
		args:              slices.Clone(call.Args()),
		size:              budgeted[fn],
		m:                 m,
		units:             nodeUnits - 1,
		cost:              callCost(fn),
	}
	// An argument that is a variable or a field is charged with the call,
	// once its arguments are evaluated, rather than by itself: looking the
	// budget up and charging it costs about what reading the field does.
	// The time between two charges stays bounded, by the size of the
	// expression.
	for i, a := range c.args {
		switch a := a.(type) {
		case *meteredAttr:
			c.args[i] = m.variable(a.InterpretableAttribute)
			c.units += a.units
		case interpreter.InterpretableAttribute:
			if m.free {
				c.args[i] = m.variable(a)
			}
		case *cond:
			// Charged with the call, as its attribute was.
			if a.units != 0 {
				free := *a
				free.units = 0
				c.args[i] = &free
				c.units += a.units
			}
		}
	}
	if fn == "_+_" && call.OverloadID() == overloads.AddString && len(c.args) == 2 {
		// a + b + c …: see concat.
		c.chain = newConcat(c)
	}
	if fn == "_+_" && len(c.args) == 2 {
		// accu + [x], the step of map and filter: see meteredCall.add.
		list, units := c.args[1], uint64(0)
		if n, ok := list.(*meteredNode); ok {
			list, units = n.InterpretableV2, n.units
		}
		if list, ok := list.(interpreter.InterpretableConstructor); ok && m.singles[list.ID()] {
			c.elem, c.elemUnits = list.InitVals()[0], units
		}
		if c.elem == nil && call.OverloadID() == overloads.AddList && !m.celLists {
			// a + b + c … of lists: see listChain.
			c.lists = newListChain(c)
		}
	}
	if fn == "join" && !m.celLists && (call.OverloadID() == "list_join_string" || call.OverloadID() == "list_join") {
		c.join = true
	}
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
	c.strict = c.impl == nil || !c.impl.NonStrict
	if fn == "json" && !m.free {
		c.exec = execJSON
	}
	return c, nil
}

// variable returns an attribute that reads a variable of the evaluation
// (input, tool, limits, a let) and selects fields or indexes of it as a
// rootVar, and any other attribute as it is.
func (m *meter) variable(attr interpreter.InterpretableAttribute) interpreter.InterpretableV2 {
	a, ok := attr.Attr().(interpreter.NamespacedAttribute)
	if !ok {
		return attr
	}
	names := a.CandidateVariableNames()
	if len(names) != 1 || m.locals[names[0]] {
		return attr // a name a comprehension may bind, found through its scopes
	}
	quals := a.Qualifiers()
	for _, q := range quals {
		if q.IsOptional() {
			return attr
		}
	}
	v := &rootVar{InterpretableAttribute: attr, name: names[0], quals: quals, adapter: attr.Adapter()}
	if v.name == varLimits && len(quals) == 1 {
		if q, ok := quals[0].(interpreter.ConstantQualifier); ok {
			if name, ok := q.Value().(types.String); ok && slices.Contains(limitNames, string(name)) {
				v.limit = string(name)
			}
		}
	}
	return v
}

// rootVar reads a variable of the evaluation and selects fields or
// indexes of it, as its attribute would, but taking the variable from the
// evaluation's activation directly, rather than through the scopes of the
// comprehensions it is in (which compare the name with each of their
// variables). Whatever is not the common case (an error, an optional) is
// left to the attribute, which evaluates it again, as evaluating has no
// side effects.
type rootVar struct {
	interpreter.InterpretableAttribute
	name    string
	quals   []interpreter.Qualifier
	adapter types.Adapter
	// limit names the field of limits the attribute reads, when it reads
	// one: it is read without boxing the limits as the qualifier does.
	limit string
}

func (v *rootVar) Eval(a interpreter.Activation) ref.Val {
	return v.Exec(interpreter.AsFrame(a))
}

func (v *rootVar) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	root := rootActivation(frame)
	if root == nil {
		return v.InterpretableAttribute.Exec(frame)
	}
	obj, found := root.ResolveName(v.name)
	switch obj.(type) {
	case *types.Err, *types.Optional, nil:
		found = false
	}
	if !found {
		return v.InterpretableAttribute.Exec(frame)
	}
	if l, ok := obj.(limitsVal); ok && v.limit != "" {
		return types.Int(limitField(Limits(l), v.limit))
	}
	for _, q := range v.quals {
		var err error
		if obj, err = q.Qualify(frame, obj); err != nil {
			return v.InterpretableAttribute.Exec(frame)
		}
	}
	return v.adapter.NativeToValue(obj)
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
	args   []interpreter.InterpretableV2
	impl   *celfunctions.Overload
	size   sizer // nil: the call allocates a bounded amount
	m      *meter
	strict bool        // an error or unknown argument is the result
	equal  bool        // == or !=, which the planner implements without a binding
	re     *regexMatch // matches with a constant pattern, compiled once
	// units is what the call costs on top of cost: the node, and the
	// variables and fields among its arguments.
	units uint64
	// cost is what the call costs given its arguments (see callCost).
	cost callCostFunc
	// exec, when set, makes the call itself within the budget.
	exec func(args []ref.Val, b *budget) ref.Val
	// elem is x when the call is l + [x], and elemUnits what the list
	// literal [x] costs.
	elem      interpreter.InterpretableV2
	elemUnits uint64
	// chain, when set, makes a chain of string concatenations that ends
	// with the call (see concat).
	chain *concat
	// lists, when set, makes a chain of list concatenations that ends
	// with the call (see listChain).
	lists *listChain
	// join is set when the call is the join of a list: a litList of
	// strings is joined without cel-go's implementation.
	join bool
}

func (c *meteredCall) Eval(a interpreter.Activation) ref.Val {
	return c.Exec(interpreter.AsFrame(a))
}

func (c *meteredCall) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	b := budgetOf(frame)
	if b == nil {
		return c.unbudgeted(frame)
	}
	// The arguments go on the budget's stack rather than in a slice of
	// their own, which would escape to the heap (the implementations are
	// function values): an argument's own calls push theirs above and pop
	// them before it returns.
	if c.chain != nil {
		return c.chain.exec(frame, b)
	}
	if c.lists != nil {
		return c.lists.exec(frame, b)
	}
	base := len(b.stack)
	for i, a := range c.args {
		if i == 1 && c.elem != nil {
			if acc, ok := b.stack[base].(traits.MutableLister); ok {
				out := c.add(frame, b, acc)
				b.pop(base)
				return out
			}
		}
		v := a.Exec(frame)
		if c.strict && types.IsUnknownOrError(v) {
			b.pop(base)
			return v
		}
		b.stack = append(b.stack, v)
	}
	args := b.stack[base:len(b.stack):len(b.stack)]
	out := c.charged(args, b)
	b.pop(base)
	return out
}

// add makes accu + [x] when accu is the accumulator of a comprehension
// (map, filter): the mutable list that the comprehension appends to. It
// appends x as the call would, without building the list [x] first (an
// element slice, a list and a closure), and charges what the list literal
// and the call would.
func (c *meteredCall) add(frame *interpreter.ExecutionFrame, b *budget, acc traits.MutableLister) ref.Val {
	if err := c.spend(b, c.elemUnits); err != nil {
		return types.NewErrWithNodeID(c.ID(), "%w", err)
	}
	x := c.elem.Exec(frame)
	if types.IsUnknownOrError(x) {
		return x
	}
	if err := c.charge(b, valueBytes, c.units+1); err != nil {
		return types.NewErrWithNodeID(c.ID(), "%w", err)
	}
	b.one.v = x
	out := acc.Add(&b.one)
	b.one.v = nil
	return types.LabelErrNode(c.ID(), out)
}

// concat is a chain of string concatenations, a + b + c + …, which the
// parser nests to the left: ((a + b) + c) + …. Made one call at a time,
// each call builds a new string, and the chain of n strings builds n-1, of
// which only the last is the result. concat builds only the last, once,
// but charges the budget what each call of the chain would have charged,
// in the same order, so that the chain fails, or does not, where it would
// have.
type concat struct {
	first interpreter.InterpretableV2 // a
	// calls are the calls of the chain, innermost first: calls[i] adds
	// its second argument to what calls[:i] made.
	calls []*meteredCall
}

// newConcat returns the chain that ends with call c, a concatenation of
// strings. Its first argument is a chain too, or the chain's first string.
func newConcat(c *meteredCall) *concat {
	if left, ok := c.args[0].(*meteredCall); ok && left.chain != nil {
		return &concat{first: left.chain.first, calls: append(slices.Clip(left.chain.calls), c)}
	}
	return &concat{first: c.args[0], calls: []*meteredCall{c}}
}

func (k *concat) exec(frame *interpreter.ExecutionFrame, b *budget) ref.Val {
	// The strings are kept on the budget's stack until the last call.
	base := len(b.stack)
	defer b.pop(base)
	acc := k.first.Exec(frame)
	if types.IsUnknownOrError(acc) {
		return acc
	}
	b.stack = append(b.stack, acc)
	n := 0 // the length of the string made so far
	if s, ok := acc.(types.String); ok {
		n = len(s)
	}
	for _, c := range k.calls {
		v := c.args[1].Exec(frame)
		if types.IsUnknownOrError(v) {
			return v
		}
		// The values on the stack are strings, but maybe the first.
		s, ok := v.(types.String)
		if _, accString := b.stack[base].(types.String); !ok || !accString {
			// Not strings after all: the call, made as such, with what
			// the calls before made.
			acc = join(b.stack[base:], n)
			b.pop(base)
			b.stack = append(b.stack, acc, v)
			acc = c.charged(b.stack[base:base+2:base+2], b)
			b.pop(base)
			if types.IsUnknownOrError(acc) {
				return acc
			}
			b.stack = append(b.stack, acc)
			n = 0
			if s, ok := acc.(types.String); ok {
				n = len(s)
			}
			continue
		}
		// What c.charged charges for a + s.
		if err := c.charge(b, int64(n+len(s)), c.units+1+uint64(n+len(s))/traversal); err != nil {
			return types.NewErrWithNodeID(c.ID(), "%w", err)
		}
		b.stack = append(b.stack, v)
		n += len(s)
	}
	return join(b.stack[base:], n)
}

// join concatenates strings of n bytes in all; a single value is returned
// as it is.
func join(parts []ref.Val, n int) ref.Val {
	if len(parts) == 1 {
		return parts[0]
	}
	var sb strings.Builder
	sb.Grow(n)
	for _, p := range parts {
		sb.WriteString(string(p.(types.String)))
	}
	return types.String(sb.String())
}

// spend charges units to budget b, unless the call is free.
func (c *meteredCall) spend(b *budget, units uint64) error {
	if c.m.free {
		return nil
	}
	return b.spend(units)
}

// charge charges bytes and units to budget b, unless the call is free.
func (c *meteredCall) charge(b *budget, bytes int64, units uint64) error {
	if c.m.free {
		return nil
	}
	if err := b.charge(c.Function(), bytes); err != nil {
		return err
	}
	return b.spend(units)
}

// charged charges the call to budget b, then makes it.
func (c *meteredCall) charged(args []ref.Val, b *budget) ref.Val {
	if c.m.free {
		if c.join {
			if out, ok := joinList(args); ok {
				return out
			}
		}
		return types.LabelErrNode(c.ID(), c.call(args))
	}
	size := int64(0)
	if c.size != nil && b.err == nil {
		size = c.size(args, b.left)
	}
	if err := b.charge(c.Function(), size); err != nil {
		return types.NewErrWithNodeID(c.ID(), "%w", err)
	}
	units := c.units + 1
	if c.cost != nil {
		units = c.units + c.cost(c.m, args, size, b.limit-b.cost)
	}
	if err := b.spend(units); err != nil {
		return types.NewErrWithNodeID(c.ID(), "%w", err)
	}
	if c.exec != nil {
		return types.LabelErrNode(c.ID(), c.exec(args, b))
	}
	if c.join {
		if out, ok := joinList(args); ok {
			return out
		}
	}
	return types.LabelErrNode(c.ID(), c.call(args))
}

// unbudgeted makes the call when the activation carries no budget.
func (c *meteredCall) unbudgeted(frame *interpreter.ExecutionFrame) ref.Val {
	args := make([]ref.Val, 0, len(c.args))
	for _, a := range c.args {
		v := a.Exec(frame)
		if c.strict && types.IsUnknownOrError(v) {
			return v
		}
		args = append(args, v)
	}
	if c.exec != nil {
		return types.LabelErrNode(c.ID(), c.exec(args, newBudget(DefaultMemoryBudget, ^uint64(0))))
	}
	return types.LabelErrNode(c.ID(), c.call(args))
}

// call runs the implementation the way the interpreter would. A failure
// that says only "no such overload" names the function and the types of
// the arguments it had, as generated code does (celrt.Signature).
func (c *meteredCall) call(args []ref.Val) ref.Val {
	out := c.callImpl(args)
	if e, ok := out.(*types.Err); ok {
		if msg, ok := c.explain(e.Error(), args); ok {
			return types.NewErrFromString(msg)
		}
	}
	return out
}

// explain words a failure of one of cel-go's implementations as generated
// code words it (runtime/celrt): the call and its operands' types for no
// such overload, the operands of an overflow or a division by zero, the
// size of a string an index is out of. ok is false for the other
// failures, which keep their message.
func (c *meteredCall) explain(msg string, args []ref.Val) (_ string, ok bool) {
	fn := c.Function()
	ints := len(args) == 2 && args[0].Type() == types.IntType && args[1].Type() == types.IntType
	switch {
	case msg == "no such overload" || msg == "no such overload: "+fn:
		kinds := make([]string, len(args))
		for i, a := range args {
			kinds[i] = a.Type().TypeName()
		}
		sig := celrt.Signature(fn, kinds)
		if len(kinds) > 0 && c.m.isMember(c.ID()) {
			sig = kinds[0] + "." + celrt.Signature(fn, kinds[1:])
		}
		return "no such overload: " + sig, true
	case msg == "integer overflow" && ints && slices.Contains([]string{"_+_", "_-_", "_*_", "_/_", "_%_"}, fn):
		return fmt.Sprintf("integer overflow: %v %s %v", args[0].Value(), strings.Trim(fn, "_"), args[1].Value()), true
	case msg == "integer overflow" && len(args) == 1 && fn == "-_" && args[0].Type() == types.IntType:
		return fmt.Sprintf("integer overflow: 0 - %v", args[0].Value()), true
	case msg == "integer overflow" && len(args) == 1 && (fn == "int" || fn == "uint"):
		from := args[0].Type().TypeName()
		if from == "double" {
			return fmt.Sprintf("integer overflow: double %g to %s", args[0].Value(), fn), true
		}
		return fmt.Sprintf("integer overflow: %s %v to %s", from, args[0].Value(), fn), true
	case msg == "division by zero" && ints:
		return fmt.Sprintf("division by zero: %v / %v", args[0].Value(), args[1].Value()), true
	case msg == "modulus by zero" && ints:
		return fmt.Sprintf("division by zero: modulus %v %% 0", args[0].Value()), true
	case strings.HasPrefix(msg, "index out of range: ") && len(args) > 1 && args[0].Type() == types.StringType:
		size := utf8.RuneCountInString(string(args[0].(types.String)))
		return fmt.Sprintf("index out of range: index %s in a string of %d characters", strings.TrimPrefix(msg, "index out of range: "), size), true
	}
	return msg, false
}

// isMember reports whether the call of the program with this id is a
// method call, x.f(y).
func (m *meter) isMember(id int64) bool {
	member := false
	if m.root != nil {
		ast.PostOrderVisit(m.root, ast.NewExprVisitor(func(e ast.Expr) {
			if e.ID() == id && e.Kind() == ast.CallKind {
				member = e.AsCall().IsMemberFunction()
			}
		}))
	}
	return member
}

// callImpl runs the implementation.
func (c *meteredCall) callImpl(args []ref.Val) ref.Val {
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

// callCostFunc is what a call with these arguments costs, computed before
// the call from the arguments and from size, the bytes the memory budget
// charges it. Walks of deep values stop at limit.
type callCostFunc func(m *meter, args []ref.Val, size int64, limit uint64) uint64

// callCost returns the cost function of a function, or nil when a call
// costs one unit whatever its arguments. It is chosen once, when the
// program is built.
func callCost(fn string) callCostFunc {
	if c, ok := callCosts[fn]; ok {
		return c
	}
	for _, f := range functions {
		if f.name == fn && f.perUnit > 0 {
			per := uint64(f.perUnit)
			return func(_ *meter, args []ref.Val, _ int64, _ uint64) uint64 {
				text := uint64(0)
				for i := range args {
					text += textOf(args, i)
				}
				return 1 + text/per
			}
		}
	}
	return nil
}

// textOf is the length of the i-th argument when it is a string or bytes.
func textOf(args []ref.Val, i int) uint64 {
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

// elemsOf is the number of elements of the i-th argument when it is a list
// or a map.
func elemsOf(args []ref.Val, i int) uint64 {
	if i < 0 || i >= len(args) {
		return 0
	}
	return uint64(sizeOf(args[i]))
}

// callCosts are the cost functions of the functions whose cost depends on
// their arguments.
var callCosts = map[string]callCostFunc{}

func init() {
	add := func(f callCostFunc, names ...string) {
		for _, n := range names {
			callCosts[n] = f
		}
	}
	add(func(_ *meter, args []ref.Val, _ int64, _ uint64) uint64 {
		return 1 + (textOf(args, 0)+textOf(args, 1))/traversal
	}, "_+_")
	add(func(_ *meter, args []ref.Val, _ int64, limit uint64) uint64 {
		return 1 + minUnits(args[0], args[1], limit)
	}, "_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_")
	add(func(_ *meter, args []ref.Val, _ int64, limit uint64) uint64 {
		if _, ok := args[1].(traits.Lister); ok {
			return 1 + mul(elemsOf(args, 1), nodeUnits+deepUnits(args[0], limit))
		}
		return 1 + deepUnits(args[0], limit)
	}, "@in")
	for _, fn := range []string{"string", "bytes"} {
		toString := fn == "string"
		add(func(_ *meter, args []ref.Val, _ int64, _ uint64) uint64 {
			// Only a conversion between bytes and string copies the text.
			if _, same := args[0].(types.String); same == toString {
				return 1
			}
			return 1 + (textOf(args, 0)+textOf(args, 1))/traversal
		}, fn)
	}
	add(func(_ *meter, args []ref.Val, _ int64, _ uint64) uint64 {
		return 1 + (textOf(args, 0)+textOf(args, 1))/traversal + elemsOf(args, 0)
	}, "size", "contains", "trim", "int", "uint", "double", "charAt", "strings.quote")
	add(func(_ *meter, args []ref.Val, _ int64, _ uint64) uint64 {
		// A prefix or suffix is compared with as much of the text as it
		// holds, no more.
		return 1 + min(textOf(args, 0), textOf(args, 1))/traversal
	}, "startsWith", "endsWith")
	add(func(_ *meter, args []ref.Val, _ int64, _ uint64) uint64 {
		// The text is converted to characters and back.
		return 1 + 2*textOf(args, 0)/traversal + elemsOf(args, 0)
	}, "lowerAscii", "upperAscii", "reverse", "substring")
	add(func(_ *meter, args []ref.Val, size int64, _ uint64) uint64 {
		made := uint64(max(0, size))
		return 1 + (textOf(args, 0)+textOf(args, 1)+textOf(args, 2)+made)/traversal + elemsOf(args, 1)
	}, "replace", "format")
	add(func(_ *meter, args []ref.Val, size int64, _ uint64) uint64 {
		// The elements are read twice: to size the result, to build it.
		return 1 + 2*uint64(max(0, size))/traversal + elemsOf(args, 0)
	}, "join")
	add(func(_ *meter, args []ref.Val, size int64, _ uint64) uint64 {
		// One unit per element made.
		return 1 + textOf(args, 0)/traversal + uint64(max(0, size))/valueBytes
	}, "split", "lists.range", "slice", "flatten", "outputLines")
	add(func(_ *meter, args []ref.Val, _ int64, _ uint64) uint64 {
		// The text is converted to characters, then searched.
		text := textOf(args, 0)
		return 1 + sat(2*text, mul(text, max(1, textOf(args, 1))))/traversal
	}, "indexOf", "lastIndexOf")
	add(func(m *meter, args []ref.Val, _ int64, _ uint64) uint64 {
		p, _ := args[1].(types.String)
		w, ok := m.weights[string(p)]
		if !ok {
			w = regexWeight(string(p))
		}
		return 1 + mul(textOf(args, 0)+1, uint64(w))/regexCostDivisor
	}, "matches")
	add(func(_ *meter, args []ref.Val, _ int64, _ uint64) uint64 {
		// A field is looked up for each name, and its text trimmed and
		// compared with the first.
		field, n := fieldOf(args[0]), uint64(1)
		for _, name := range stringList(args[1]) {
			v, _ := field(name)
			s, _ := v.(string)
			n += nodeUnits + uint64(len(s))/traversal
		}
		return n
	}, "alternatives")
	add(func(_ *meter, args []ref.Val, _ int64, limit uint64) uint64 {
		return 1 + deepUnits(args[0], limit)
	}, "json", "fields")
	add(func(_ *meter, args []ref.Val, _ int64, limit uint64) uint64 {
		return 1 + mul(elemsOf(args, 0), deepUnits(args[0], limit))/traversal
	}, "distinct")
	add(func(_ *meter, args []ref.Val, _ int64, limit uint64) uint64 {
		keys := len(args) - 1
		return 1 + mul(deepUnits(args[keys], limit), uint64(bits.Len64(elemsOf(args, keys))+1))
	}, "sort", "@sortByAssociatedKeys")
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

// oneList is a list of one element, for a comprehension's accumulator to
// append (see meteredCall.add): the accumulator copies the elements of the
// list it adds, so the same oneList serves every step of an evaluation.
// It is never a value of the evaluation.
type oneList struct{ v ref.Val }

func (l *oneList) list() traits.Lister { return types.NewRefValList(adapter{}, []ref.Val{l.v}) }

func (l *oneList) ConvertToNative(t reflect.Type) (any, error) { return l.list().ConvertToNative(t) }
func (l *oneList) ConvertToType(t ref.Type) ref.Val            { return l.list().ConvertToType(t) }
func (l *oneList) Equal(other ref.Val) ref.Val                 { return l.list().Equal(other) }
func (l *oneList) Type() ref.Type                              { return types.ListType }
func (l *oneList) Value() any                                  { return l.list().Value() }
func (l *oneList) Add(other ref.Val) ref.Val                   { return l.list().Add(other) }
func (l *oneList) Contains(v ref.Val) ref.Val                  { return l.list().Contains(v) }
func (l *oneList) Iterator() traits.Iterator                   { return l.list().Iterator() }
func (l *oneList) Size() ref.Val                               { return types.IntOne }

func (l *oneList) Get(i ref.Val) ref.Val {
	if i == types.IntZero {
		return l.v
	}
	return types.NewErr("index out of range: %v", i)
}
