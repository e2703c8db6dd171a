package celfmt

import (
	"math"
	"regexp/syntax"

	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/permgen/permgen/runtime/value"
)

// Costs.
//
// cel-go charges one unit of cost per step of evaluation and one per ten
// characters a string function reads (its StringTraversalCostFactor), but
// the strings extension at the version this package pins (4) has no costs
// for its functions: replace, split, join, substring, indexOf and the rest
// would count as one unit whatever the length of their text. The estimator
// below and the meter (meter.go) give them, and this package's functions,
// costs that grow with the text they read and write, at the same rates: the
// static estimate assumes the sizes of Options, the run time counts the
// actual sizes. The estimator also gives the size of each function's
// result, so that a chain of calls whose text grows with each call
// (replace("a", "aaaa") fourteen times) is estimated as growing.

// traversal is how many characters of text cost one unit, as in cel-go.
const traversal = 10

// jsonPerUnit is how many characters of JSON cost one unit (see the
// perUnit of functions).
const jsonPerUnit = 4

// regexCostDivisor is how many steps of a regular expression (characters
// of text times instructions of the compiled pattern) cost one unit: a step
// of Go's slowest matcher takes about ten nanoseconds.
const regexCostDivisor = 8

// estimator gives the checker the sizes it cannot know (see
// Options.StringEstimate and Options.MaxItems), the cost of the functions
// that cel-go leaves at one unit, and the size of their results.
type estimator struct {
	o Options
	// oversized is the first call whose result may be larger than the
	// memory budget.
	oversized *oversizedCall
	// strict, when set, makes the estimate the one that decides whether an
	// expression may run unmetered (see unmetered.go): lets are assumed
	// within the bounds their values are checked against at run time,
	// local variables have the size cel-go computes for them, and a call
	// that allocates costs at least its allocation at the rate of the
	// memory budget to the cost limit.
	strict bool
	lets   map[string]bool
	// literal are the sizes the estimate gives the reads of comprehension
	// elements, by the id of each place that reads one: over a literal
	// (["a", "e", "o"].filter(v, …)), the size of the longest element
	// rather than that of any string (see literalElements); over a part of
	// the input, in a loop whose steps are linear in their element, the
	// average size of an element (see amortizedReads).
	literal map[int64]checker.SizeEstimate
}

// oversizedCall is a call whose result may not fit in the memory budget:
// arg is the id of its first argument (its target, for a method).
type oversizedCall struct {
	fn   string
	arg  int64
	size uint64
}

func (e *estimator) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	if e.strict {
		if s, ok := e.strictSize(n); ok {
			return s
		}
	}
	if s, ok := e.literal[n.Expr().ID()]; ok {
		return &s
	}
	switch n.Type().Kind() {
	case types.StringKind, types.BytesKind:
		return &checker.SizeEstimate{Min: 0, Max: uint64(e.o.StringEstimate)}
	case types.ListKind, types.MapKind, types.DynKind:
		return &checker.SizeEstimate{Min: 0, Max: uint64(e.o.MaxItems)}
	}
	// Scalars and type values (type(x) == string) have size 1; without an
	// estimate cel-go would assume the largest size there is.
	return &checker.SizeEstimate{Min: 1, Max: 1}
}

// literalElements returns the sizes of the comprehension variables of a
// that range over a list literal of constants, or over the keys of a map
// literal with constant keys, by the id of each identifier that reads one:
// the size of the longest constant. A nested comprehension that binds the
// same name hides the variable from its loop.
func literalElements(a ast.Expr) map[int64]checker.SizeEstimate {
	var sizes map[int64]checker.SizeEstimate
	var visit func(e ast.Expr, bound map[string]checker.SizeEstimate)
	visit = func(e ast.Expr, bound map[string]checker.SizeEstimate) {
		switch e.Kind() {
		case ast.IdentKind:
			if s, ok := bound[e.AsIdent()]; ok {
				if sizes == nil {
					sizes = map[int64]checker.SizeEstimate{}
				}
				sizes[e.ID()] = s
			}
		case ast.SelectKind, ast.CallKind, ast.ListKind, ast.MapKind, ast.StructKind:
			for _, x := range operands(e) {
				visit(x, bound)
			}
		case ast.ComprehensionKind:
			c := e.AsComprehension()
			visit(c.IterRange(), bound)
			visit(c.AccuInit(), bound)
			s, literal := literalElementSize(c.IterRange(), !c.HasIterVar2())
			inner := bound // most comprehensions range over the input: nothing to copy
			if len(bound) > 0 || literal {
				inner = make(map[string]checker.SizeEstimate, len(bound)+1)
				for name, s := range bound {
					inner[name] = s
				}
				delete(inner, c.AccuVar())
				delete(inner, c.IterVar())
				if c.HasIterVar2() {
					delete(inner, c.IterVar2())
				}
			}
			if literal {
				if c.HasIterVar2() && c.IterRange().Kind() == ast.ListKind {
					inner[c.IterVar2()] = s // the index is an int, sized by its type
				} else {
					inner[c.IterVar()] = s
				}
			}
			visit(c.LoopCondition(), inner)
			visit(c.LoopStep(), inner)
			result := bound
			if _, ok := bound[c.AccuVar()]; ok {
				result = make(map[string]checker.SizeEstimate, len(bound))
				for name, s := range bound {
					result[name] = s
				}
				delete(result, c.AccuVar())
			}
			visit(c.Result(), result)
		}
	}
	visit(a, nil)
	return sizes
}

// operands are the expressions a select, a call, a list, a map or a struct
// is made of, in order (a call's target first, a map's keys before their
// values).
func operands(e ast.Expr) []ast.Expr {
	switch e.Kind() {
	case ast.SelectKind:
		return []ast.Expr{e.AsSelect().Operand()}
	case ast.CallKind:
		c := e.AsCall()
		if c.IsMemberFunction() {
			return append([]ast.Expr{c.Target()}, c.Args()...)
		}
		return c.Args()
	case ast.ListKind:
		return e.AsList().Elements()
	case ast.MapKind:
		var out []ast.Expr
		for _, en := range e.AsMap().Entries() {
			out = append(out, en.AsMapEntry().Key(), en.AsMapEntry().Value())
		}
		return out
	case ast.StructKind:
		var out []ast.Expr
		for _, f := range e.AsStruct().Fields() {
			out = append(out, f.AsStructField().Value())
		}
		return out
	}
	return nil
}

// readsNoVariable reports whether an expression reads no variable: its value is
// the catalog's text, whatever the call.
func readsNoVariable(e ast.Expr) bool {
	reads := false
	ast.PostOrderVisit(e, ast.NewExprVisitor(func(e ast.Expr) {
		reads = reads || e.Kind() == ast.IdentKind || e.Kind() == ast.ComprehensionKind
	}))
	return !reads
}

// literalElementSize is the size of the longest element of a non-empty
// list literal of constants (keys, for a map literal, when keys is set),
// or ok false.
func literalElementSize(e ast.Expr, keys bool) (s checker.SizeEstimate, ok bool) {
	var elems []ast.Expr
	switch e.Kind() {
	case ast.ListKind:
		elems = e.AsList().Elements()
	case ast.MapKind:
		if !keys {
			return s, false
		}
		for _, en := range e.AsMap().Entries() {
			elems = append(elems, en.AsMapEntry().Key())
		}
	}
	if len(elems) == 0 {
		return s, false // cel.bind ranges over [], and there is nothing to size
	}
	s.Min = math.MaxUint64
	for _, el := range elems {
		if el.Kind() != ast.LiteralKind {
			return s, false
		}
		n := uint64(1)
		switch v := el.AsLiteral().(type) {
		case types.String:
			n = uint64(len(v))
		case types.Bytes:
			n = uint64(len(v))
		}
		s.Min, s.Max = min(s.Min, n), max(s.Max, n)
	}
	return s, true
}

// listText is the text the elements of a list of n strings hold together:
// StringEstimate each, but no more than MaxInputBytes in all, as the input
// bound covers all strings together (a list split from a string, or mapped
// from the input, holds no more text than the input).
func (e *estimator) listText(n uint64) uint64 {
	return min(mul(n, uint64(e.o.StringEstimate)), uint64(e.o.MaxInputBytes))
}

// size is the size of a node: computed by cel-go when it can (a constant,
// the result of an earlier call), estimated otherwise.
func (e *estimator) size(n checker.AstNode) checker.SizeEstimate {
	if s := n.ComputedSize(); s != nil {
		return *s
	}
	if s := e.EstimateSize(n); s != nil {
		return *s
	}
	return checker.SizeEstimate{Min: 0, Max: math.MaxUint64} // no bound (strict)
}

func (e *estimator) EstimateCallCost(fn, overload string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	all := args
	if target != nil {
		all = append([]checker.AstNode{*target}, args...)
	}
	est := e.estimateCall(fn, overload, all)
	if e.strict {
		est = e.strictCall(fn, overload, all, est)
	}
	if est != nil && est.ResultSize != nil && est.ResultSize.Max > uint64(e.o.MemoryBudget) &&
		e.oversized == nil && len(all) > 0 {
		e.oversized = &oversizedCall{fn: fn, arg: all[0].Expr().ID(), size: est.ResultSize.Max}
	}
	return est
}

func (e *estimator) estimateCall(fn, overload string, args []checker.AstNode) *checker.CallEstimate {
	str := uint64(e.o.StringEstimate)
	// elems is the size of an argument that is a list: a dyn one has no
	// more than MaxItems elements, whatever its strings hold.
	elems := func(i int) checker.SizeEstimate {
		if i >= len(args) {
			return checker.SizeEstimate{}
		}
		return e.size(args[i])
	}
	sz := func(i int) checker.SizeEstimate {
		if i >= len(args) {
			return checker.SizeEstimate{}
		}
		s := e.size(args[i])
		if _, sized := e.literal[args[i].Expr().ID()]; !sized && args[i].Type().Kind() == types.DynKind {
			// A dyn argument may be a string as well as a list or a map.
			s.Max = max(s.Max, str)
		}
		return s
	}
	switch fn {
	case "_+_":
		if overload == overloads.AddString || overload == overloads.AddBytes {
			out := sat(sz(0).Max, sz(1).Max)
			return callEstimate(out, traversal, &out)
		}
	case "replace":
		if len(args) < 3 {
			return nil
		}
		s, old, repl := sz(0).Max, sz(1).Min, sz(2).Max
		count := sat(s, 1)
		if old > 0 {
			count = s / old
		}
		out := sat(s, mul(count, repl))
		if !e.strict && !readsNoVariable(args[2].Expr()) {
			// The replacement reads a variable (input.s.replace(input.old,
			// input.new); a let counts as one, even one of constants): what
			// the result may grow to is not known from the expression's text,
			// and the memory budget stops, before it allocates, a replace that
			// would build more than it allows. A growth written in the
			// expression (a chain of replace("a", "aaaa")) is still rejected.
			out = min(out, uint64(e.o.MemoryBudget))
		}
		return callEstimate(sat(s, out), traversal, &out)
	case "split":
		out := sat(sz(0).Max, 1)
		if len(args) == 3 && args[2].Expr().Kind() == ast.LiteralKind {
			// split(sep, n) makes at most n parts, none when n is 0, and
			// all of them when n is negative.
			if n, ok := args[2].Expr().AsLiteral().(types.Int); ok && n >= 0 {
				out = min(out, uint64(n))
			}
		}
		return callEstimate(sat(sz(0).Max, out), traversal, &out)
	case "outputLines":
		// split(text, "\n"), without its last part when it is empty.
		out := sat(sz(0).Max, 1)
		return callEstimate(sat(sz(0).Max, out), traversal, &out)
	case "join":
		sep := uint64(0)
		if len(args) > 1 {
			sep = sz(1).Max
		}
		out := sat(mul(elems(0).Max, sep), e.listText(elems(0).Max))
		return callEstimate(out, traversal, &out)
	case "format":
		out := sat(sz(0).Max, mul(6, e.listText(elems(1).Max)))
		return callEstimate(out, traversal, &out)
	case "lowerAscii", "upperAscii", "reverse", "trim", "substring":
		if len(args) == 0 || !textual(args[0]) {
			return nil
		}
		out := sz(0).Max
		return callEstimate(mul(2, out), traversal, &out)
	case "charAt":
		out := uint64(4)
		return callEstimate(sz(0).Max, traversal, &out)
	case "indexOf", "lastIndexOf":
		return callEstimate(mul(sz(0).Max, max(1, sz(1).Max)), traversal, nil)
	case "size":
		if len(args) == 1 && textual(args[0]) {
			return callEstimate(sz(0).Max, traversal, nil)
		}
	case "matches":
		if len(args) == 2 {
			w := uint64(regexWeight(constString(args[1].Expr())))
			return callEstimate(mul(sat(sz(0).Max, 1), w), regexCostDivisor, nil)
		}
	case "alternatives":
		// A field for each name, its text trimmed and compared; a pair of
		// [name, text] for each.
		names := elems(1).Max
		out := names
		return callEstimate(mul(names, sat(mul(nodeUnits, traversal), str)), traversal, &out)
	case "json", "fields":
		// fields writes no more than json of the same value (its paths
		// aside), and reads as much of it: up to six bytes for one of the
		// text the value holds, assumed a string's, or the share of an
		// element of the input's (see amortizedReads).
		text := str
		if len(args) > 0 {
			if s, ok := e.literal[args[0].Expr().ID()]; ok {
				text = min(text, s.Max)
			}
		}
		read := mul(6, text)
		out := read
		if fn == "fields" && len(args) == 2 && args[1].Expr().Kind() == ast.LiteralKind {
			// fields(value, n) writes at most n characters, or the least
			// the value can show when n is smaller (a note such as
			// "… 3 fields, 120 B").
			if n, ok := args[1].Expr().AsLiteral().(types.Int); ok && n >= 0 {
				out = min(out, 4*(max(uint64(n), 64)+32))
			}
		}
		return callEstimate(read, jsonPerUnit, &out)
	}
	for _, f := range functions {
		if f.name != fn {
			continue
		}
		// The text the call reads: its first argument, and when that is a
		// string, its other string arguments too (redact(name, text)).
		text, texts := sz(0).Max, len(args) > 0 && textual(args[0])
		for i := 1; texts && i < len(args); i++ {
			if textual(args[i]) {
				text = sat(text, sz(i).Max)
			}
		}
		read, per := uint64(0), uint64(1)
		if f.perUnit > 0 && len(args) > 0 {
			read, per = text, uint64(f.perUnit)
		}
		var out *uint64
		switch {
		case f.resultSize < 0 && texts:
			n := sat(mul(uint64(max(f.growth, 1)), text), 16) // no longer than the text it formats, or growth times it
			out = &n
		case f.resultSize < 0:
			n := str
			out = &n
		case f.resultSize > 0:
			n := uint64(f.resultSize)
			out = &n
		}
		return callEstimate(read, per, out)
	}
	return nil
}

// callEstimate is the estimate of a call that reads (and writes) n
// characters, at one unit per divisor characters, with a result of at most
// out characters or elements when out is not nil.
func callEstimate(n, divisor uint64, out *uint64) *checker.CallEstimate {
	est := &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: sat(1, n/divisor)}}
	if out != nil {
		est.ResultSize = &checker.SizeEstimate{Min: 0, Max: *out}
	}
	return est
}

// sat and mul add and multiply without overflowing.
func sat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

func mul(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}

// deepUnits is the cost of walking a value (comparing it, serializing it):
// nodeUnits per element or entry and one per ten characters of its
// strings, counted up to limit.
func deepUnits(v ref.Val, limit uint64) uint64 {
	switch v := v.(type) {
	case types.String:
		return 1 + uint64(len(v))/traversal
	case objectVal:
		return modelUnits(v.o, limit)
	case traits.Lister:
		if model, ok := v.Value().([]any); ok {
			return modelUnits(model, limit)
		}
		n := uint64(nodeUnits)
		for it := v.Iterator(); it.HasNext() == types.True && n <= limit; {
			n += nodeUnits + deepUnits(it.Next(), limit-n)
		}
		return n
	case traits.Mapper:
		n := uint64(nodeUnits)
		for it := v.Iterator(); it.HasNext() == types.True && n <= limit; {
			k := it.Next()
			e, _ := v.Find(k)
			n += nodeUnits + deepUnits(k, limit-n) + deepUnits(e, limit-n)
		}
		return n
	}
	return 1
}

// modelUnits is deepUnits of an input value.
func modelUnits(v any, limit uint64) uint64 {
	switch v := v.(type) {
	case string:
		return 1 + uint64(len(v))/traversal
	case []any:
		n := uint64(nodeUnits)
		for _, e := range v {
			if n > limit {
				break
			}
			n += nodeUnits + modelUnits(e, limit-n)
		}
		return n
	case *value.Object:
		n := uint64(nodeUnits)
		for k, e := range v.All() {
			if n > limit {
				break
			}
			n += nodeUnits + 1 + uint64(len(k))/traversal + modelUnits(e, limit-n)
		}
		return n
	}
	return 1
}

// maxRegexWeight bounds the instructions of a compiled pattern: matching
// takes time proportional to the text times the instructions.
const maxRegexWeight = 1000

// regexWeight is the number of instructions of a pattern's compiled
// program, at least 1: what matching one character can cost. A pattern
// that does not compile weighs the most.
func regexWeight(pattern string) int {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return maxRegexWeight
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return maxRegexWeight
	}
	return max(1, len(prog.Inst))
}

// textual reports whether a node may be text: a string, or a dyn value,
// which is one when a string function runs on it.
func textual(n checker.AstNode) bool {
	k := n.Type().Kind()
	return k == types.StringKind || k == types.DynKind
}

// Amortized element sizes.
//
// cel-go estimates a comprehension as the size of its range times the cost
// of one step, each step on an element of the largest size there is. Over
// a range read from the input that is far above what any input costs: the
// input holds Options.MaxInputBytes of text in all, so its MaxItems
// elements are MaxInputBytes/MaxItems bytes on average. When the cost of a
// step grows no faster than the size of its element (it reads the element,
// its fields, a value the range maps it to, each alone or beside text that
// is not the element's), the steps together cost no more than MaxItems
// steps on elements of that average size: what a step on a long element
// costs more, the others cost less. So the reads of an element are sized
// at the average where that holds. A step whose cost is a product of two
// sizes of its element (x.indexOf(x), a comprehension over its parts) is
// not linear, and its reads keep their full size.

// linearCalls are the functions whose cost is no more than the sum of what
// their arguments' sizes cost alone: a call of one of these on two reads
// of an element is still linear in the element's size.
var linearCalls = map[string]bool{
	"_+_": true, "_==_": true, "_!=_": true, "_<_": true, "_<=_": true, "_>_": true, "_>=_": true,
	"_&&_": true, "_||_": true, "!_": true, "-_": true, "_?_:_": true, "@not_strictly_false": true,
	"_[_]": true, "_[?_]": true, "_?._": true, "or": true, "orValue": true, "size": true, "type": true,
	"string": true, "dyn": true, "int": true, "double": true, "has": true,
}

func init() {
	for _, f := range functions {
		// Their cost is per unit of all their text together (callCost).
		linearCalls[f.name] = true
	}
}

// amortizedReads returns, by the id of each node that reads an element of
// a comprehension over the input (the variable, a field or index of it,
// the range indexed by it), the average size share, for the
// comprehensions whose steps are linear in their element (see above).
func amortizedReads(a ast.Expr, share checker.SizeEstimate) map[int64]checker.SizeEstimate {
	sizes := map[int64]checker.SizeEstimate{}
	var visit func(e ast.Expr, elems map[string]ast.Expr)
	visit = func(e ast.Expr, elems map[string]ast.Expr) {
		if len(elems) > 0 && elementRead(e, elems) {
			sizes[e.ID()] = share
		}
		switch e.Kind() {
		case ast.SelectKind, ast.CallKind, ast.ListKind, ast.MapKind, ast.StructKind:
			for _, x := range operands(e) {
				visit(x, elems)
			}
		case ast.ComprehensionKind:
			c := e.AsComprehension()
			visit(c.IterRange(), elems)
			visit(c.AccuInit(), elems)
			inner := without(elems, c.AccuVar(), c.IterVar(), c.IterVar2())
			if inputRooted(c.IterRange()) {
				step := with(inner, c.IterRange(), c.IterVar(), c.IterVar2())
				if !linearStep(c.LoopCondition(), step) || !linearStep(c.LoopStep(), step) {
					step = inner
				}
				inner = step
			}
			visit(c.LoopCondition(), inner)
			visit(c.LoopStep(), inner)
			result := without(elems, c.AccuVar())
			if isBind(c) && len(elems) > 0 && elementRead(c.AccuInit(), elems) {
				// cel.bind(v, x.name, …): v is a read of the element too,
				// where the loop it is in is linear.
				result = with(result, nil, c.AccuVar(), "")
			}
			visit(c.Result(), result)
		}
	}
	visit(a, nil)
	return sizes
}

// isBind reports whether a comprehension is a cel.bind: no range, a
// variable set once.
func isBind(c ast.ComprehensionExpr) bool {
	r := c.IterRange()
	return r.Kind() == ast.ListKind && len(r.AsList().Elements()) == 0
}

// with adds the variables of a comprehension over rng to elems; without
// removes the names a comprehension binds.
func with(elems map[string]ast.Expr, rng ast.Expr, names ...string) map[string]ast.Expr {
	out := make(map[string]ast.Expr, len(elems)+len(names))
	for k, v := range elems {
		out[k] = v
	}
	for _, n := range names {
		if n != "" {
			out[n] = rng
		}
	}
	return out
}

func without(elems map[string]ast.Expr, names ...string) map[string]ast.Expr {
	if len(elems) == 0 {
		return elems
	}
	out := make(map[string]ast.Expr, len(elems))
	for k, v := range elems {
		out[k] = v
	}
	for _, n := range names {
		delete(out, n)
	}
	return out
}

// inputRooted reports whether e reads a part of the input: input, a field
// or an index of it, however deep.
func inputRooted(e ast.Expr) bool {
	switch e.Kind() {
	case ast.IdentKind:
		return e.AsIdent() == varInput
	case ast.SelectKind:
		return inputRooted(e.AsSelect().Operand())
	case ast.CallKind:
		c := e.AsCall()
		switch c.FunctionName() {
		case "_[_]", "_[?_]", "_?._":
			return inputRooted(c.Args()[0])
		case "orValue", "value":
			return c.IsMemberFunction() && inputRooted(c.Target())
		}
	}
	return false
}

// elementRead reports whether e reads an element of a comprehension's
// range: its variable, a field or an index of a read, or the range indexed
// by its variable (input.env[k]).
func elementRead(e ast.Expr, elems map[string]ast.Expr) bool {
	switch e.Kind() {
	case ast.IdentKind:
		_, ok := elems[e.AsIdent()]
		return ok
	case ast.SelectKind:
		return elementRead(e.AsSelect().Operand(), elems)
	case ast.CallKind:
		c := e.AsCall()
		switch c.FunctionName() {
		case "_[_]", "_[?_]":
			args := c.Args()
			if elementRead(args[0], elems) {
				return true
			}
			if k := args[1]; k.Kind() == ast.IdentKind {
				rng, ok := elems[k.AsIdent()]
				return ok && rng != nil && sameExpr(rng, args[0])
			}
		case "_?._":
			return elementRead(c.Args()[0], elems)
		case "orValue", "value", "string", "dyn":
			if c.IsMemberFunction() {
				return elementRead(c.Target(), elems)
			}
			return len(c.Args()) == 1 && elementRead(c.Args()[0], elems)
		}
	}
	return false
}

// linearStep reports whether the cost of e grows no faster than the size
// of the elements it reads: no call but the linear ones takes two reads of
// an element, and no comprehension ranges over a read of one.
func linearStep(e ast.Expr, elems map[string]ast.Expr) bool {
	linear := true
	var reads func(e ast.Expr) bool // whether e reads an element anywhere
	reads = func(e ast.Expr) bool {
		found := false
		ast.PostOrderVisit(e, ast.NewExprVisitor(func(x ast.Expr) {
			if x.Kind() == ast.IdentKind {
				if _, ok := elems[x.AsIdent()]; ok {
					found = true
				}
			}
		}))
		return found
	}
	ast.PostOrderVisit(e, ast.NewExprVisitor(func(x ast.Expr) {
		switch x.Kind() {
		case ast.CallKind:
			c := x.AsCall()
			if linearCalls[c.FunctionName()] {
				return
			}
			n := 0
			if c.IsMemberFunction() && reads(c.Target()) {
				n++
			}
			for _, a := range c.Args() {
				if reads(a) {
					n++
				}
			}
			linear = linear && n < 2
		case ast.ComprehensionKind:
			c := x.AsComprehension()
			if !isBind(c) && reads(c.IterRange()) {
				linear = false
			}
		}
	}))
	return linear
}

// sameExpr reports whether two expressions are the same reads of the same
// names (input.env and input.env), whatever their ids.
func sameExpr(a, b ast.Expr) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case ast.IdentKind:
		return a.AsIdent() == b.AsIdent()
	case ast.SelectKind:
		sa, sb := a.AsSelect(), b.AsSelect()
		return sa.FieldName() == sb.FieldName() && sa.IsTestOnly() == sb.IsTestOnly() && sameExpr(sa.Operand(), sb.Operand())
	case ast.LiteralKind:
		return a.AsLiteral().Equal(b.AsLiteral()) == types.True
	case ast.CallKind:
		ca, cb := a.AsCall(), b.AsCall()
		if ca.FunctionName() != cb.FunctionName() || ca.IsMemberFunction() != cb.IsMemberFunction() || len(ca.Args()) != len(cb.Args()) {
			return false
		}
		if ca.IsMemberFunction() && !sameExpr(ca.Target(), cb.Target()) {
			return false
		}
		for i := range ca.Args() {
			if !sameExpr(ca.Args()[i], cb.Args()[i]) {
				return false
			}
		}
		return true
	}
	return false
}
