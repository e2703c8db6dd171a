package celfmt

import (
	"reflect"

	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"

	"github.com/permgen/permgen/runtime/celrt"
)

// Comprehensions.
//
// cel-go evaluates a comprehension (the macros map, filter, exists, all,
// exists_one, and cel.bind) with a folder it takes from a pool, pushes a
// frame and an activation it takes from pools, makes an iterator over the
// range, and accumulates the result of map and filter in a mutable list
// that it copies into a list at the end. fold does the same steps with one
// scope per comprehension, which the evaluation's activation keeps for the
// next one, and iterates lists by index.
//
// It runs the nodes the planner made for the comprehension's parts, as
// decorated (so a metered program charges each step as it did), but for
// the step of map and filter, accu + [x] or p ? accu + [x] : accu, which
// it makes itself: it appends x to a slice, charging what the list literal,
// the call and the conditional would have, in the same order, and builds
// the list once at the end.

// foldParts are the ids of a comprehension's parts in the AST, and its
// variables.
type foldParts struct {
	accuVar, iterVar, iterVar2                  string
	accuInit, iterRange, cond, step, result     int64
	mapStep, filterStep                         bool // accu + [x]; p ? accu + [x] : accu
	emptyListInit, trueCond, accuResult, twoVar bool
}

// comprehensionParts returns a comprehension's parts.
func comprehensionParts(e ast.Expr) foldParts {
	c := e.AsComprehension()
	accu := c.AccuVar()
	isAccu := func(x ast.Expr) bool { return x.Kind() == ast.IdentKind && x.AsIdent() == accu }
	call := func(x ast.Expr, fn string, n int) []ast.Expr {
		if x.Kind() != ast.CallKind || x.AsCall().FunctionName() != fn || x.AsCall().IsMemberFunction() ||
			len(x.AsCall().Args()) != n {
			return nil
		}
		return x.AsCall().Args()
	}
	add := func(x ast.Expr) bool {
		args := call(x, operators.Add, 2)
		return args != nil && isAccu(args[0]) && args[1].Kind() == ast.ListKind &&
			len(args[1].AsList().Elements()) == 1 && len(args[1].AsList().OptionalIndices()) == 0
	}
	p := foldParts{
		accuVar: accu, iterVar: c.IterVar(), iterVar2: c.IterVar2(), twoVar: c.HasIterVar2(),
		accuInit: c.AccuInit().ID(), iterRange: c.IterRange().ID(), cond: c.LoopCondition().ID(),
		step: c.LoopStep().ID(), result: c.Result().ID(),
	}
	p.emptyListInit = c.AccuInit().Kind() == ast.ListKind && len(c.AccuInit().AsList().Elements()) == 0
	p.trueCond = c.LoopCondition().Kind() == ast.LiteralKind && c.LoopCondition().AsLiteral() == types.True
	p.accuResult = isAccu(c.Result())
	if p.emptyListInit && p.trueCond && p.accuResult {
		step := c.LoopStep()
		if add(step) {
			p.mapStep = true
		} else if args := call(step, operators.Conditional, 3); args != nil && add(args[1]) && isAccu(args[2]) {
			p.filterStep = true
		}
	}
	return p
}

// isEvalFold reports whether a node is cel-go's comprehension node, an
// *interpreter.evalFold, told by name as the package does not export it.
func isEvalFold(i interpreter.InterpretableV2) bool {
	t := reflect.TypeOf(i)
	return t != nil && t.Kind() == reflect.Pointer && t.Elem().Name() == "evalFold" &&
		t.Elem().PkgPath() == "github.com/google/cel-go/interpreter"
}

// fold returns the node of a comprehension that cel-go planned as n, or
// nil when its parts are not all known or it has two variables.
func (s *shapes) fold(n interpreter.InterpretableV2, adapter types.Adapter) *fold {
	p, ok := s.folds[n.ID()]
	if !ok || p.twoVar || !isEvalFold(n) {
		return nil
	}
	f := &fold{
		id: n.ID(), accuVar: p.accuVar, iterVar: p.iterVar, adapter: adapter,
		accuInit: s.node(p.accuInit), iterRange: s.node(p.iterRange),
		cond: s.node(p.cond), step: s.node(p.step), result: s.node(p.result),
	}
	if f.accuInit == nil || f.iterRange == nil || f.cond == nil || f.step == nil || f.result == nil {
		return nil
	}
	switch {
	case p.mapStep:
		if c, ok := f.step.(*meteredCall); ok && c.elem != nil && c.chain == nil {
			f.add = c
		}
	case p.filterStep:
		if c, ok := f.step.(*cond); ok {
			if add, ok := c.t.(*meteredCall); ok && add.elem != nil && add.chain == nil {
				f.filter, f.add = c, add
			}
		}
	}
	return f
}

// fold evaluates a comprehension with one variable as cel-go's evalFold
// does (not exhaustively, not interruptible: this package sets neither).
type fold struct {
	id                                      int64
	accuVar, iterVar                        string
	accuInit, iterRange, cond, step, result interpreter.InterpretableV2
	adapter                                 types.Adapter
	// add is the call accu + [x] of map and filter, and filter the
	// conditional of filter: fold makes the step itself.
	add    *meteredCall
	filter *cond
}

func (f *fold) ID() int64                             { return f.id }
func (f *fold) Eval(a interpreter.Activation) ref.Val { return f.Exec(interpreter.AsFrame(a)) }

func (f *fold) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	root := rootActivation(frame)
	s := root.scope()
	defer root.done(s)
	s.f, s.parent = f, frame
	s.frame.Activation = s

	r := f.iterRange.Exec(frame)
	if types.IsUnknownOrError(r) {
		return r
	}
	if !r.Type().HasTrait(traits.IterableType) {
		return types.NewErr("no such overload: %s", celrt.Signature("comprehension", []string{r.Type().TypeName()}))
	}
	var b *budget
	if root != nil {
		b = root.budget
	}
	if f.add != nil && b != nil {
		return f.build(s, r.(traits.Iterable), b)
	}
	if l, ok := r.(traits.Lister); ok {
		n, _ := l.Size().(types.Int)
		for i := types.Int(0); i < n; i++ {
			if !f.next(s, l.Get(i)) {
				break
			}
		}
	} else if o, ok := r.(objectVal); ok {
		// The keys in order, as its iterator has them, without one.
		for i := 0; i < o.o.Len(); i++ {
			k, _ := o.o.At(i)
			if !f.next(s, types.String(k)) {
				break
			}
		}
	} else {
		for it := r.(traits.Iterable).Iterator(); it.HasNext() == types.True; {
			if !f.next(s, it.Next()) {
				break
			}
		}
	}
	return f.end(s)
}

// next makes the step of one element, and reports whether the loop goes on.
func (f *fold) next(s *foldScope, v ref.Val) bool {
	s.iter = v
	if c, ok := f.cond.Exec(&s.frame).(types.Bool); ok && c != types.True {
		return false
	}
	s.accu = f.step.Exec(&s.frame)
	s.initialized = true
	return true
}

// end evaluates the result, as folder.evalResult does.
func (f *fold) end(s *foldScope) ref.Val {
	s.computeResult = true
	res := f.result.Exec(&s.frame)
	if !types.IsUnknownOrError(res) && s.mutable {
		switch l := res.(type) {
		case traits.MutableLister:
			res = l.ToImmutableList()
		case traits.MutableMapper:
			res = l.ToImmutableMap()
		}
	}
	return res
}

// build makes map and filter: the steps accu + [x], or p ? accu + [x] :
// accu, append x to a slice, charged as meteredCall.add and cond charge
// them; the list is built once, before the result is evaluated.
func (f *fold) build(s *foldScope, r traits.Iterable, b *budget) ref.Val {
	var out []ref.Val
	var failed ref.Val // the accumulator, once it is an error or unknown
	step := func(v ref.Val) bool {
		s.iter = v
		if f.filter != nil {
			if f.filter.units != 0 {
				if err := b.spend(f.filter.units); err != nil {
					// The evaluation fails with err whatever it makes
					// from here on.
					failed = types.NewErrWithNodeID(f.filter.id, "%w", err)
					return false
				}
			}
			switch p := f.filter.c.Exec(&s.frame); p {
			case types.True:
			case types.False:
				return true
			default:
				if types.IsUnknown(p) {
					failed = p
				} else {
					failed = types.LabelErrNode(f.filter.id, types.MaybeNoSuchOverloadErr(p))
				}
				return true
			}
			if failed != nil {
				// accu + [x] of an error is the error.
				failed = types.LabelErrNode(f.filter.id, failed)
				return true
			}
		} else if failed != nil {
			// Every later step is the error, and charges nothing.
			return false
		}
		x, err := f.appended(s, b)
		if x == nil {
			failed = err
			if f.filter != nil {
				failed = types.LabelErrNode(f.filter.id, failed)
			}
			// Past the cost limit or the budget, the evaluation fails
			// whatever it makes from here on.
			return b.err == nil
		}
		out = append(out, x)
		return true
	}
	if l, ok := r.(traits.Lister); ok {
		n, _ := l.Size().(types.Int)
		for i := types.Int(0); i < n && step(l.Get(i)); i++ {
		}
	} else if o, ok := r.(objectVal); ok {
		for i := 0; i < o.o.Len(); i++ {
			if k, _ := o.o.At(i); !step(types.String(k)) {
				break
			}
		}
	} else {
		for it := r.Iterator(); it.HasNext() == types.True && step(it.Next()); {
		}
	}
	s.initialized = true
	if failed != nil {
		s.accu = failed
	} else {
		// The list cel-go would make of out (see litList).
		s.accu = &litList{elems: out, first: len(out), last: len(out)}
	}
	return f.end(s)
}

// appended evaluates x of accu + [x] and charges the list literal and the
// call, as meteredCall.add does; it returns x, or nil and the error.
func (f *fold) appended(s *foldScope, b *budget) (ref.Val, ref.Val) {
	c := f.add
	if err := c.spend(b, c.elemUnits); err != nil {
		return nil, types.NewErrWithNodeID(c.ID(), "%w", err)
	}
	x := c.elem.Exec(&s.frame)
	if types.IsUnknownOrError(x) {
		return nil, x
	}
	if err := c.charge(b, valueBytes, c.units+1); err != nil {
		return nil, types.NewErrWithNodeID(c.ID(), "%w", err)
	}
	return x, nil
}

// foldScope is the scope of one comprehension: its variables, resolved
// as cel-go's folder resolves them, and the frame its parts run on.
type foldScope struct {
	frame  interpreter.ExecutionFrame
	parent *interpreter.ExecutionFrame
	f      *fold
	accu   ref.Val
	iter   ref.Val
	// initialized is set once the accumulator has a value, mutable when
	// it is a mutable list or map the fold made, computeResult while the
	// result is evaluated (the iteration variable is out of scope).
	initialized, mutable, computeResult bool
}

func (s *foldScope) ResolveName(name string) (any, bool) {
	if name == s.f.accuVar {
		if !s.initialized {
			s.initialized = true
			v := s.f.accuInit.Exec(s.parent)
			if l, ok := v.(traits.Lister); ok && l.Size() == types.IntZero {
				v = types.NewMutableList(s.f.adapter)
				s.mutable = true
			}
			if m, ok := v.(traits.Mapper); ok && m.Size() == types.IntZero {
				v = types.NewMutableMap(s.f.adapter, map[ref.Val]ref.Val{})
				s.mutable = true
			}
			s.accu = v
		}
		return s.accu, true
	}
	if !s.computeResult && name == s.f.iterVar {
		return s.iter, true
	}
	return s.parent.ResolveName(name)
}

func (s *foldScope) Parent() interpreter.Activation { return s.parent.Activation }

// Unwrap returns the activation around the comprehension, as the folder's
// does, for names that are not local.
func (s *foldScope) Unwrap() interpreter.Activation { return s.parent }

// scope returns a cleared scope, the activation's own when it has one
// left. A nil activation (an evaluation with another kind of activation)
// makes a new one.
func (a *activation) scope() *foldScope {
	if a == nil || len(a.scopes) == 0 {
		return &foldScope{}
	}
	s := a.scopes[len(a.scopes)-1]
	a.scopes = a.scopes[:len(a.scopes)-1]
	return s
}

// done clears a scope and gives it back to the activation.
func (a *activation) done(s *foldScope) {
	*s = foldScope{}
	if a != nil {
		a.scopes = append(a.scopes, s)
	}
}
