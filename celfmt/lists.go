package celfmt

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
	"github.com/permgen/permgen/runtime/textfmt"
)

// Lists that free programs (see unmetered.go) build for list literals and
// their concatenations.
//
// cel-go builds a list literal [x] as a slice of its elements, a list that
// holds it and a closure that reads it: three allocations. And it
// concatenates lists a + b + c as a list that refers to the list a + b,
// which refers to a and b, each one allocation, read through as many
// levels. The stock formatters build their text as such a concatenation of
// literals, one per part, then join it (["pattern '…'"] + ["path '…'"]).
//
// A free program builds a list literal as a litList instead, in one
// allocation for up to two elements, and a chain of concatenations of
// litLists as one litList holding all the elements (listChain). A litList
// behaves as the list cel-go would have built: as cel-go's list of a
// literal (NewRefValList), or, when it is a concatenation, as cel-go's
// concatenation of lists, down to what Value returns (the elements, or
// their Go values), the errors of Get and Equal, and the keys Fold passes.
// join of a litList of strings builds the text once.

// envAdapter is the adapter of the environment, which the planner gives to
// the lists it builds.
var envAdapter = adapter{base: types.DefaultTypeAdapter}

// litList is a list literal's value, or a concatenation of them.
type litList struct {
	elems []ref.Val
	// concat is set when the list is a concatenation of lists.
	concat bool
	// first and last are the sizes of the first and last literal of a
	// concatenation, which cel-go's concatenation names in the error of
	// an index out of range; a literal's are its size.
	first, last int
	spare       [2]ref.Val
}

var (
	_ traits.Lister   = (*litList)(nil)
	_ traits.Foldable = (*litList)(nil)
)

// newLitList returns a list of n elements, to be set.
func newLitList(n int) *litList {
	l := &litList{first: n, last: n}
	if n <= len(l.spare) {
		l.elems = l.spare[:n]
	} else {
		l.elems = make([]ref.Val, n)
	}
	return l
}

// cel returns a list that cel-go would have built alike: a list of the
// elements, or a concatenation of lists of them that begins and ends with
// lists of the sizes of the first and last literals.
func (l *litList) cel() traits.Lister {
	if !l.concat {
		return types.NewRefValList(envAdapter, l.elems)
	}
	n := len(l.elems)
	var out ref.Val = types.NewRefValList(envAdapter, l.elems[:l.first])
	if mid := l.elems[l.first : n-l.last]; len(mid) > 0 {
		out = out.(traits.Adder).Add(types.NewRefValList(envAdapter, mid))
	}
	return out.(traits.Adder).Add(types.NewRefValList(envAdapter, l.elems[n-l.last:])).(traits.Lister)
}

func (l *litList) Type() ref.Type            { return types.ListType }
func (l *litList) Size() ref.Val             { return types.Int(len(l.elems)) }
func (l *litList) IsZeroValue() bool         { return len(l.elems) == 0 }
func (l *litList) Iterator() traits.Iterator { return l.cel().Iterator() }
func (l *litList) Contains(e ref.Val) ref.Val {
	// Neither cel-go's list of a literal nor its concatenation of them
	// reports an error: an element equal to e.
	for _, x := range l.elems {
		if b, ok := e.Equal(x).(types.Bool); ok && b == types.True {
			return types.True
		}
	}
	return types.False
}

// Value is the elements, for a literal, and their Go values, for a
// concatenation, as cel-go's lists have them.
func (l *litList) Value() any {
	if !l.concat {
		return l.elems
	}
	merged := make([]any, len(l.elems))
	for i, x := range l.elems {
		merged[i] = x.Value()
	}
	return merged
}

func (l *litList) ConvertToNative(t reflect.Type) (any, error) {
	if l.concat {
		return types.NewDynamicList(envAdapter, l.Value().([]any)).ConvertToNative(t)
	}
	if t == reflect.TypeFor[any]() {
		t = reflect.TypeFor[[]any]()
	}
	if reflect.TypeFor[[]ref.Val]().AssignableTo(t) {
		return l.elems, nil
	}
	if reflect.TypeFor[*litList]().AssignableTo(t) {
		return l, nil
	}
	return l.cel().ConvertToNative(t)
}

func (l *litList) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.ListType:
		return l
	case types.TypeType:
		return types.ListType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", types.ListType, t)
}

func (l *litList) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok || o.Size() != l.Size() {
		return types.False
	}
	var maybeErr ref.Val
	for i, x := range l.elems {
		eq := types.Equal(x, o.Get(types.Int(i)))
		if eq == types.False {
			return types.False
		}
		if l.concat && maybeErr == nil && types.IsUnknownOrError(eq) {
			maybeErr = eq
		}
	}
	if maybeErr != nil {
		return maybeErr
	}
	return types.True
}

func (l *litList) Get(index ref.Val) ref.Val {
	i, err := types.IndexOrError(index)
	if err != nil {
		return types.ValOrErr(index, "%v", err)
	}
	switch {
	case i < 0:
		return types.NewErr("index '%d' out of range in list size '%d'", i, types.Int(l.first))
	case i >= len(l.elems):
		return types.NewErr("index '%d' out of range in list size '%d'", i-(len(l.elems)-l.last), types.Int(l.last))
	}
	return l.elems[i]
}

func (l *litList) Fold(f traits.Folder) {
	for i, x := range l.elems {
		var k any = i
		if l.concat {
			k = types.Int(i)
		}
		if !f.FoldEntry(k, x) {
			break
		}
	}
}

func (l *litList) String() string {
	var sb strings.Builder
	sb.WriteString("[")
	for i, x := range l.elems {
		sb.WriteString(fmt.Sprintf("%v", x))
		if i != len(l.elems)-1 {
			sb.WriteString(", ")
		}
	}
	sb.WriteString("]")
	return sb.String()
}

// Add concatenates lists as cel-go's list does: an empty list added to
// another is the other.
func (l *litList) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if len(l.elems) == 0 {
		return other
	}
	if o.Size() == types.IntZero {
		return l
	}
	if r, ok := other.(*litList); ok {
		return concatLists([]*litList{l, r})
	}
	return l.cel().Add(other)
}

// concatLists concatenates two lists or more, none empty.
func concatLists(parts []*litList) *litList {
	n := 0
	for _, p := range parts {
		n += len(p.elems)
	}
	out := newLitList(n)
	out.concat = true
	out.first, out.last = parts[0].first, parts[len(parts)-1].last
	i := 0
	for _, p := range parts {
		i += copy(out.elems[i:], p.elems)
	}
	return out
}

// join is the list's elements joined by sep, when they are strings.
func (l *litList) join(sep string) (ref.Val, bool) {
	n := len(sep) * max(0, len(l.elems)-1)
	for _, x := range l.elems {
		s, ok := x.(types.String)
		if !ok {
			return nil, false
		}
		n += len(s)
	}
	var sb strings.Builder
	sb.Grow(n)
	for i, x := range l.elems {
		if i != 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(string(x.(types.String)))
	}
	return types.String(sb.String()), true
}

// listLit is a list literal without optional elements, which builds a
// litList. It keeps cel-go's node for what it does not do itself: an
// unknown element.
type listLit struct {
	interpreter.InterpretableConstructor
	elems []interpreter.InterpretableV2
}

func (n *listLit) Eval(a interpreter.Activation) ref.Val { return n.Exec(interpreter.AsFrame(a)) }

func (n *listLit) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	l := newLitList(len(n.elems))
	for i, e := range n.elems {
		v := e.Exec(frame)
		if types.IsUnknownOrError(v) {
			if types.IsError(v) {
				return v
			}
			return n.InterpretableConstructor.Exec(frame)
		}
		l.elems[i] = v
	}
	return l
}

// baseListType is the type of cel-go's list of a literal.
var baseListType = reflect.TypeOf(types.NewRefValList(nil, nil))

// listChain is a chain of list concatenations, a + b + c + …, in a free
// program: the lists that are litLists are concatenated once, as one
// litList, with the result cel-go's concatenations would have had (an
// empty list added to another is the other). Any other list is added as
// the call would.
type listChain struct {
	first interpreter.InterpretableV2
	// calls are the calls of the chain, innermost first.
	calls []*meteredCall
}

// newListChain returns the chain that ends with call c, a concatenation
// of lists.
func newListChain(c *meteredCall) *listChain {
	if left, ok := c.args[0].(*meteredCall); ok && left.lists != nil {
		return &listChain{first: left.lists.first, calls: append(left.lists.calls[:len(left.lists.calls):len(left.lists.calls)], c)}
	}
	return &listChain{first: c.args[0], calls: []*meteredCall{c}}
}

// emptyList reports whether v is an empty list that cel-go's
// concatenation leaves out: a list of cel-go's or of the input.
func emptyList(v ref.Val) bool {
	switch l := v.(type) {
	case *litList:
		return len(l.elems) == 0
	case inputList:
		return len(l.l) == 0
	case traits.Lister:
		return reflect.TypeOf(v) == baseListType && l.Size() == types.IntZero
	}
	return false
}

func (k *listChain) exec(frame *interpreter.ExecutionFrame, b *budget) ref.Val {
	base := len(b.stack)
	defer b.pop(base)
	// The stack holds the litLists to concatenate, or one value, which
	// is the result so far.
	var parts [8]*litList
	acc := parts[:0]
	var other ref.Val // the result so far, when it is not in acc
	v := k.first.Exec(frame)
	if types.IsUnknownOrError(v) {
		return v
	}
	if l, ok := v.(*litList); ok && len(l.elems) > 0 {
		acc = append(acc, l)
	} else {
		other = v
	}
	for _, c := range k.calls {
		v := c.args[1].Exec(frame)
		if types.IsUnknownOrError(v) {
			return v
		}
		if l, ok := v.(*litList); ok && len(l.elems) > 0 && (other == nil || emptyList(other)) {
			if err := k.charge(c, b, acc, other, len(l.elems)); err != nil {
				return err
			}
			acc, other = append(acc, l), nil
			continue
		}
		if other == nil && emptyList(v) {
			if err := k.charge(c, b, acc, other, 0); err != nil {
				return err
			}
			continue
		}
		// The call, made as such, with what the calls before made.
		var lhs ref.Val = other
		if other == nil {
			lhs = listOf(acc)
		}
		b.stack = append(b.stack, lhs, v)
		other = c.charged(b.stack[base:base+2:base+2], b)
		b.pop(base)
		acc = acc[:0]
		if types.IsUnknownOrError(other) {
			return other
		}
	}
	if other != nil {
		return other
	}
	return listOf(acc)
}

// charge charges what call c charges, metered, for adding a list of m
// elements, neither mutable, to the result so far: the litLists acc, or
// other, an empty list. It is what c.charged charges for lists: the memory
// of sizeAdd, and the units of the call, as _+_ costs one for lists.
func (k *listChain) charge(c *meteredCall, b *budget, acc []*litList, other ref.Val, m int) ref.Val {
	if c.m.free {
		return nil
	}
	n := 0
	for _, l := range acc {
		n += len(l.elems)
	}
	size := int64(0)
	if b.err == nil {
		size = valueBytes * int64(n+m)
	}
	if err := b.charge(c.Function(), size); err != nil {
		return types.NewErrWithNodeID(c.ID(), "%w", err)
	}
	if err := b.spend(c.units + 1); err != nil {
		return types.NewErrWithNodeID(c.ID(), "%w", err)
	}
	return nil
}

// listOf is the concatenation of litLists, of which there is one or more.
func listOf(parts []*litList) ref.Val {
	if len(parts) == 1 {
		return parts[0]
	}
	return concatLists(parts)
}

// joinList joins the arguments of a join, a litList of strings and a
// separator, or reports that it cannot.
func joinList(args []ref.Val) (ref.Val, bool) {
	l, ok := args[0].(*litList)
	if !ok {
		return nil, false
	}
	sep := ""
	if len(args) == 2 {
		s, ok := args[1].(types.String)
		if !ok {
			return nil, false
		}
		sep = string(s)
	}
	return l.join(sep)
}

// hasNonEmpty is nonEmpty(x).hasValue() in a free program, made as the
// two calls would be, without the optional between them: x's error is the
// result, and otherwise whether x is a string that is not blank.
type hasNonEmpty struct {
	has *meteredCall
	x   interpreter.InterpretableV2
}

// hasNonEmptyOf returns the hasNonEmpty node of a call that is
// nonEmpty(x).hasValue(), or nil.
func hasNonEmptyOf(c *meteredCall) *hasNonEmpty {
	if c.OverloadID() != "optional_hasValue" || len(c.args) != 1 || !c.strict || c.exec != nil {
		return nil
	}
	inner, ok := c.args[0].(*meteredCall)
	if !ok || inner.OverloadID() != "nonEmpty_dyn" || len(inner.args) != 1 || !inner.strict ||
		inner.chain != nil || inner.lists != nil || inner.exec != nil {
		return nil
	}
	return &hasNonEmpty{has: c, x: inner.args[0]}
}

func (n *hasNonEmpty) ID() int64                             { return n.has.ID() }
func (n *hasNonEmpty) Eval(a interpreter.Activation) ref.Val { return n.Exec(interpreter.AsFrame(a)) }

func (n *hasNonEmpty) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	x := n.x.Exec(frame)
	if types.IsUnknownOrError(x) {
		return x
	}
	s, ok := x.(types.String)
	if !ok {
		return types.False
	}
	_, ok = textfmt.NonEmptyString(string(s))
	return types.Bool(ok)
}
