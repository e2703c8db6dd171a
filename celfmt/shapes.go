package celfmt

import (
	"reflect"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// Shapes: nodes that free programs (see unmetered.go) use in place of what
// cel-go plans for a few shapes that the stock formatters use all the time,
// with the same results and the same errors, but fewer steps in between.
//
//   - a conditional, c ? t : f, is planned by cel-go as an attribute that
//     resolves one of two attributes, each wrapping its branch, and adapts
//     the result: cond evaluates c, then the branch;
//   - type(x) == T and type(x) != T, where T is a type name, make the type
//     of x and compare it in one node (typeIs), without the two calls and
//     their arguments.
//
// In metered programs, these nodes charge what the nodes they replace
// would have charged.

// shapes are what the meter knows of an expression's AST to build the
// nodes above, and the nodes built so far, by the id of their expression.
type shapes struct {
	// conds are the conditionals' ids, with the ids of their condition
	// and branches.
	conds map[int64][3]int64
	// nodes are the decorated nodes, by the id they had when the planner
	// last decorated them (an attribute's id is its last qualifier's).
	nodes map[int64]interpreter.InterpretableV2
	// folds are the comprehensions' parts, by the comprehension's id.
	folds map[int64]foldParts
}

func newShapes(a *cel.Ast) *shapes {
	s := &shapes{conds: map[int64][3]int64{}, nodes: map[int64]interpreter.InterpretableV2{}, folds: map[int64]foldParts{}}
	ast.PostOrderVisit(a.NativeRep().Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if e.Kind() == ast.ComprehensionKind {
			s.folds[e.ID()] = comprehensionParts(e)
		}
		if e.Kind() != ast.CallKind {
			return
		}
		c := e.AsCall()
		if c.FunctionName() == operators.Conditional && len(c.Args()) == 3 && !c.IsMemberFunction() {
			args := c.Args()
			s.conds[e.ID()] = [3]int64{args[0].ID(), args[1].ID(), args[2].ID()}
		}
	}))
	return s
}

// conditionalAttr is the type of the attribute cel-go plans for c ? t : f.
var conditionalAttr = reflect.TypeOf(interpreter.NewAttributeFactory(nil, nil, nil).
	ConditionalAttribute(0, nil, nil, nil))

// node returns the decorated node of the expression id, when it still
// has that id.
func (s *shapes) node(id int64) interpreter.InterpretableV2 {
	n := s.nodes[id]
	if n == nil || n.ID() != id {
		return nil
	}
	return n
}

// record keeps a decorated node, and returns it.
func (s *shapes) record(i interpreter.InterpretableV2) interpreter.InterpretableV2 {
	s.nodes[i.ID()] = i
	return i
}

// conditional returns the cond node of a conditional's attribute, or nil.
// A metered cond charges what the attribute charged: units, on each
// evaluation, and not its branches' attributes, which the conditional
// attribute resolved without their meter.
func (s *shapes) conditional(n interpreter.InterpretableAttribute, units uint64) *cond {
	ids, ok := s.conds[n.ID()]
	if !ok || reflect.TypeOf(n.Attr()) != conditionalAttr {
		return nil
	}
	c, t, f := s.node(ids[0]), s.node(ids[1]), s.node(ids[2])
	if c == nil || t == nil || f == nil {
		return nil
	}
	return &cond{id: n.ID(), c: c, t: unmetered(t), f: unmetered(f), units: units}
}

// unmetered returns the attribute of a metered attribute, a cond that
// charges nothing for a cond (which was an attribute too), and any other
// node as it is.
func unmetered(n interpreter.InterpretableV2) interpreter.InterpretableV2 {
	switch a := n.(type) {
	case *meteredAttr:
		return a.InterpretableAttribute
	case *cond:
		if a.units != 0 {
			free := *a
			free.units = 0
			return &free
		}
	}
	return n
}

// isCond reports whether a node is an attribute that selects from a cond:
// the planner wraps a cond in such an attribute to select a field or an
// index of it.
func (s *shapes) isCond(n interpreter.InterpretableAttribute) bool {
	_, ok := s.nodes[n.ID()].(*cond)
	return ok && reflect.TypeOf(n.Attr()) == relativeAttr
}

// relativeAttr is the type of the attribute cel-go plans to select from
// a value that is not an attribute.
var relativeAttr = reflect.TypeOf(interpreter.NewAttributeFactory(nil, nil, nil).RelativeAttribute(0, nil))

// cond is c ? t : f, which evaluates as cel-go's conditional attribute
// does: the branch c selects, or c's error, or no such overload when c is
// not a boolean; an error is labelled with the conditional's id, unless
// it has one. It charges units first, when the evaluation is metered.
type cond struct {
	id      int64
	c, t, f interpreter.InterpretableV2
	units   uint64
}

func (n *cond) ID() int64                             { return n.id }
func (n *cond) Eval(a interpreter.Activation) ref.Val { return n.Exec(interpreter.AsFrame(a)) }

func (n *cond) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	if n.units != 0 {
		if b := budgetOf(frame); b != nil {
			if err := b.spend(n.units); err != nil {
				return types.NewErrWithNodeID(n.id, "%w", err)
			}
		}
	}
	var out ref.Val
	switch v := n.c.Exec(frame); v {
	case types.True:
		out = n.t.Exec(frame)
	case types.False:
		out = n.f.Exec(frame)
	default:
		if types.IsUnknown(v) {
			return v
		}
		out = types.MaybeNoSuchOverloadErr(v)
	}
	if _, ok := out.(*types.Err); ok {
		return types.LabelErrNode(n.id, out)
	}
	return out
}

// typeOf returns the typeIs node of a call that is type(x) == T or
// type(x) != T, or nil.
func typeOf(c *meteredCall) *typeIs {
	if !c.equal || len(c.args) != 2 || c.chain != nil || c.elem != nil {
		return nil
	}
	call, ok := c.args[0].(*meteredCall)
	if !ok || call.Function() != fnType || len(call.args) != 1 || call.chain != nil || call.exec != nil ||
		call.elem != nil || call.impl == nil || call.impl.Unary == nil || call.impl.OperandTrait != 0 || !call.strict {
		return nil
	}
	t, ok := c.args[1].(interpreter.InterpretableConst)
	if !ok {
		return nil
	}
	if _, ok := t.Value().(ref.Type); !ok {
		return nil
	}
	return &typeIs{eq: c, typ: call, x: call.args[0], t: t.Value(), ne: c.Function() == operators.NotEquals}
}

// fnType is the name of the function type.
const fnType = "type"

// typeIs is type(x) == t, or type(x) != t when ne is set, made as the two
// calls would be: x's error is the result; type's own error, labelled
// with its id, is the result; otherwise the comparison's. Metered, it
// charges what the two calls charge.
type typeIs struct {
	eq, typ *meteredCall
	x       interpreter.InterpretableV2
	t       ref.Val
	ne      bool
}

func (n *typeIs) ID() int64                             { return n.eq.ID() }
func (n *typeIs) Eval(a interpreter.Activation) ref.Val { return n.Exec(interpreter.AsFrame(a)) }

func (n *typeIs) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	if !n.eq.m.free {
		if b := budgetOf(frame); b != nil {
			return n.metered(frame, b)
		}
	}
	x := n.x.Exec(frame)
	if types.IsUnknownOrError(x) {
		return x
	}
	t := types.LabelErrNode(n.typ.ID(), n.typ.impl.Unary(x))
	if types.IsUnknownOrError(t) {
		return t
	}
	eq := types.Equal(t, n.t)
	if n.ne && !types.IsError(eq) {
		eq = types.Bool(eq != types.True)
	}
	return types.LabelErrNode(n.eq.ID(), eq)
}

// metered makes the two calls as meteredCall.Exec would, with their
// arguments on the budget's stack.
func (n *typeIs) metered(frame *interpreter.ExecutionFrame, b *budget) ref.Val {
	base := len(b.stack)
	x := n.x.Exec(frame)
	if types.IsUnknownOrError(x) {
		return x
	}
	b.stack = append(b.stack, x)
	t := n.typ.charged(b.stack[base:base+1:base+1], b)
	b.pop(base)
	if types.IsUnknownOrError(t) {
		return t
	}
	b.stack = append(b.stack, t, n.t)
	out := n.eq.charged(b.stack[base:base+2:base+2], b)
	b.pop(base)
	return out
}
