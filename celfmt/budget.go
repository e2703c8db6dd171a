package celfmt

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/textfmt"
)

// ErrBudget is returned by Formatter.Format when an evaluation would
// allocate more than Options.MemoryBudget. The error's message says which
// function would have allocated how much. It is celrt.ErrBudget, which
// translated formatters return on the same calls.
var ErrBudget = celrt.ErrBudget

// The memory budget.
//
// A call's cost is only known to cel-go after the call returns, too late to
// stop a call that builds a huge string (a replace of every character by a
// long text, a join of a list of long strings): the allocation has
// happened, or killed the process, by then. The budget is therefore
// enforced BEFORE the call: every call is a meteredCall (see meter.go),
// which evaluates its arguments once, computes from them how many bytes the
// call will allocate at most (cheaply: counting, never building; the
// sizers below), charges that to the evaluation's budget, and only then
// runs the function. An evaluation that would go over the budget fails
// there, with nothing allocated.
//
// The budget of one evaluation travels in the activation under a name CEL
// code cannot write (it is not an identifier), so one program serves
// concurrent evaluations. The charges add up: the budget bounds everything
// an evaluation allocates through these functions, garbage included, not
// only what is live at one time. Once exceeded, the evaluation fails even
// when CEL would absorb the error (true || x), because Format checks the
// budget after evaluating. The same holds for the cost limit.

// budgetName is the activation variable that carries the budget.
const budgetName = "@permgen.budget"

// budget is what one evaluation may still allocate and spend.
type budget struct {
	left, total int64
	// cost is what the evaluation spent, limit what it may spend.
	cost, limit uint64
	err         error
	// stack holds the arguments of the calls under way (see
	// meteredCall.Exec).
	stack []ref.Val
	// one is the list a comprehension's step appends (see oneList).
	one oneList
}

// pop drops the stack's values from base on. It leaves them in the
// stack's array, where the next calls overwrite them: they stay reachable
// until the evaluation is over at most (activation.release clears them).
func (b *budget) pop(base int) {
	b.stack = b.stack[:base]
}

func newBudget(total int64, limit uint64) *budget {
	return &budget{left: total, total: total, limit: limit}
}

// ErrCostLimit is returned by Formatter.Format when an evaluation would
// spend more than Options.CostLimit.
var ErrCostLimit = errors.New("cost limit exceeded")

// spend charges n units of cost, or fails.
func (b *budget) spend(n uint64) error {
	if b.err != nil {
		return b.err
	}
	if n > b.limit-b.cost {
		b.err = fmt.Errorf("%w: the evaluation would spend more than %d", ErrCostLimit, b.limit)
		b.cost = b.limit
		return b.err
	}
	b.cost += n
	return nil
}

// charge takes n bytes from the budget, or fails.
func (b *budget) charge(fn string, n int64) error {
	if b.err != nil {
		return b.err
	}
	if n > b.left {
		b.err = celrt.BudgetError(fn, n, b.left, b.total)
		return b.err
	}
	b.left -= n
	return nil
}

// activation holds the variables of one evaluation. It is cheaper than a
// map and keeps the budget out of reach of CEL code.
type activation struct {
	pool                *sync.Pool // where release returns it
	input, tool, limits ref.Val
	// result is the variable result, nil in a slot that does not see it.
	result ref.Val
	// toolName and rawLimits are what tool and limits hold.
	toolName  string
	rawLimits Limits
	// lets are the names of the lets, vals the values of those evaluated
	// so far, in the same order.
	lets []string
	vals []ref.Val
	// budget is nil when the evaluation is not metered.
	budget *budget
	// frame is the frame the evaluation runs on (see run).
	frame interpreter.ExecutionFrame
	// spare holds the budget and the values of a few lets without
	// allocating them apart.
	spare     budget
	spareVals [8]ref.Val
	// scopes are the scopes of comprehensions no longer under way, for
	// the next ones (see fold).
	scopes     []*foldScope
	spareStack [16]ref.Val
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case varInput:
		return a.input, true
	case varTool:
		return a.tool, true
	case varLimits:
		return a.limits, true
	case varResult:
		return a.result, a.result != nil
	case budgetName:
		return a.budget, true
	}
	for i, l := range a.lets {
		if l == name && i < len(a.vals) {
			return a.vals[i], true
		}
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

// rootActivation returns the activation of the evaluation a frame belongs
// to: it is at the root of the frame's scopes (a comprehension pushes one
// scope per level). It is nil when the evaluation has another kind of
// activation.
func rootActivation(frame *interpreter.ExecutionFrame) *activation {
	var act interpreter.Activation = frame.Activation
	for act != nil {
		if a, ok := act.(*activation); ok {
			return a
		}
		act = act.Parent()
	}
	return nil
}

// budgetOf returns the budget of the evaluation a frame belongs to.
func budgetOf(frame *interpreter.ExecutionFrame) *budget {
	if a := rootActivation(frame); a != nil {
		return a.budget
	}
	v, ok := frame.ResolveName(budgetName)
	if !ok {
		return nil
	}
	b, _ := v.(*budget)
	return b
}

// valueBytes is what one element of a list costs: an interface value.
const valueBytes = 16

// sizer returns how many bytes a call with these arguments allocates at
// most. It may stop counting once the count passes limit. Arguments of
// unexpected types count 0: the implementation reports the error.
type sizer func(args []ref.Val, limit int64) int64

// budgeted lists, by function name, the functions that build strings or
// lists, and how much they allocate. A function that is not here allocates
// a bounded amount (a number, a boolean, a substring of its argument) or is
// a macro, whose steps are calls listed here.
var budgeted = map[string]sizer{
	"_+_":           sizeAdd,
	"replace":       sizeReplace,
	"split":         sizeSplit,
	"join":          sizeJoin,
	"format":        sizeFormat,
	"strings.quote": func(a []ref.Val, _ int64) int64 { return 6*strLen(a, 0) + 2 },
	"lowerAscii":    func(a []ref.Val, _ int64) int64 { return 5 * strLen(a, 0) },
	"upperAscii":    func(a []ref.Val, _ int64) int64 { return 5 * strLen(a, 0) },
	"reverse":       func(a []ref.Val, _ int64) int64 { return 5*strLen(a, 0) + 2*valueBytes*listLen(a, 0) },
	"substring":     func(a []ref.Val, _ int64) int64 { return 4 * strLen(a, 0) },
	"charAt":        func(a []ref.Val, _ int64) int64 { return 4 * strLen(a, 0) },
	"indexOf":       func(a []ref.Val, _ int64) int64 { return 4 * (strLen(a, 0) + strLen(a, 1)) },
	"lastIndexOf":   func(a []ref.Val, _ int64) int64 { return 4 * (strLen(a, 0) + strLen(a, 1)) },
	"string":        func(a []ref.Val, _ int64) int64 { return bytesLen(a, 0) },
	"bytes":         func(a []ref.Val, _ int64) int64 { return strLen(a, 0) },
	"lists.range":   sizeRange,
	"flatten":       sizeFlatten,
	"slice":         func(a []ref.Val, _ int64) int64 { return valueBytes * listLen(a, 0) },
	"sort":          func(a []ref.Val, _ int64) int64 { return 3 * valueBytes * listLen(a, 0) },
	"@sortByAssociatedKeys": func(a []ref.Val, _ int64) int64 {
		return 3 * valueBytes * listLen(a, 0)
	},
	"distinct": func(a []ref.Val, _ int64) int64 { return 4 * valueBytes * listLen(a, 0) },
	// This package's functions.
	"truncate": sizeTruncate,
	"inline":   func(a []ref.Val, l int64) int64 { return sizeTruncate(a, l) + 16 },
	"collapse": func(a []ref.Val, _ int64) int64 { return strLen(a, 0) },
	"plural":   func(a []ref.Val, _ int64) int64 { return 24 + max(strLen(a, 1), strLen(a, 2)) },
	"mcpValue": func(a []ref.Val, _ int64) int64 {
		if _, input := a[0].Value().([]any); input {
			return 512
		}
		return 512 + valueBytes*listLen(a, 0)
	},
	"numberText":   func([]ref.Val, int64) int64 { return 32 },
	"sqlKinds":     func([]ref.Val, int64) int64 { return int64(textfmt.MaxSQLKinds) * 4 * valueBytes },
	"sqlTier":      func([]ref.Val, int64) int64 { return 16 },
	"fileSize":     func([]ref.Val, int64) int64 { return 64 },
	"durationText": func([]ref.Val, int64) int64 { return 64 },
	"dimensions":   func([]ref.Val, int64) int64 { return 96 },
	// A key name becomes a symbol of at most twice its bytes ("fn" 🌐);
	// each ">" of a menu path " → ", five bytes for one.
	"shortcut": func(a []ref.Val, _ int64) int64 { return 2*strLen(a, 0) + 16 },
	"menuPath": func(a []ref.Val, _ int64) int64 { return 5*strLen(a, 0) + 16 },
	// A credential becomes a placeholder of at most five times its bytes
	// ("&sig=x"), and a field's value the placeholder of its length.
	"redact": func(a []ref.Val, _ int64) int64 { return 5*(strLen(a, 0)+strLen(a, 1)) + 32 },
	// Decoded JSON takes at most 24 bytes of values per byte of text: a
	// value per two bytes ("[0,0,…]"), each a few words.
	"parseJSON": func(a []ref.Val, _ int64) int64 { return 24 * strLen(a, 0) },
	// sqlResult decodes its text as parseJSON does.
	"sqlResult": func(a []ref.Val, _ int64) int64 { return 24*strLen(a, 0) + 48 },
	// A [name, text] pair for each name: the texts are the input's.
	"alternatives": func(a []ref.Val, _ int64) int64 { return 16 + 4*valueBytes*listLen(a, 1) },
	// commandError writes "exit ", a code of at most 12 characters and
	// the first line of the text, cut as truncate cuts it.
	"commandError": func(a []ref.Val, l int64) int64 { return sizeTruncate(a[1:], l) + 64 },
	"outputLines":  func(a []ref.Val, l int64) int64 { return sizeSplit([]ref.Val{a[0], types.String("\n")}, l) },
	// json charges as it writes (execJSON), once.
	"json": func([]ref.Val, int64) int64 { return 0 },
	// fields writes up to four bytes a character of n, and keeps an entry
	// of scratch (56 bytes) for each shown, one for three characters at most.
	"fields": func(a []ref.Val, l int64) int64 {
		return copyBound(a[0], l) + 24*min(max(intArg(a, 1, 0), 0), 1<<40) + 2048
	},
}

func strLen(args []ref.Val, i int) int64 {
	if i < len(args) {
		if s, ok := args[i].(types.String); ok {
			return int64(len(s))
		}
	}
	return 0
}

func bytesLen(args []ref.Val, i int) int64 {
	if i < len(args) {
		if b, ok := args[i].(types.Bytes); ok {
			return int64(len(b))
		}
	}
	return 0
}

func listLen(args []ref.Val, i int) int64 {
	if i < len(args) {
		return sizeOf(args[i])
	}
	return 0
}

// sizeOf is the number of elements of a list or map, or 0.
func sizeOf(v ref.Val) int64 {
	if s, ok := v.(traits.Sizer); ok {
		if _, isString := v.(types.String); isString {
			return 0
		}
		if n, ok := s.Size().(types.Int); ok && n > 0 {
			return int64(n)
		}
	}
	return 0
}

func intArg(args []ref.Val, i int, otherwise int64) int64 {
	if i < len(args) {
		if n, ok := args[i].(types.Int); ok {
			return int64(n)
		}
	}
	return otherwise
}

func sizeAdd(args []ref.Val, _ int64) int64 {
	switch a := args[0].(type) {
	case types.String:
		return int64(len(a)) + strLen(args, 1)
	case types.Bytes:
		return int64(len(a)) + bytesLen(args, 1)
	case traits.MutableLister:
		// A comprehension appending to its own result: in place.
		return valueBytes * sizeOf(args[1])
	case traits.Lister:
		return valueBytes * (sizeOf(a) + sizeOf(args[1]))
	}
	return 0
}

func sizeReplace(args []ref.Val, _ int64) int64 {
	s, _ := args[0].(types.String)
	old, _ := args[1].(types.String)
	repl, _ := args[2].(types.String)
	if old == repl {
		return 0
	}
	count := int64(strings.Count(string(s), string(old)))
	if n := intArg(args, 3, -1); n >= 0 && n < count {
		count = n
	}
	if count == 0 {
		return 0
	}
	return int64(len(s)) + count*max(0, int64(len(repl))-int64(len(old)))
}

func sizeSplit(args []ref.Val, _ int64) int64 {
	s, _ := args[0].(types.String)
	sep, _ := args[1].(types.String)
	pieces := int64(strings.Count(string(s), string(sep)))
	if sep != "" {
		pieces++
	} else {
		pieces-- // Count("") counts the runes plus one
	}
	if n := intArg(args, 2, -1); n >= 0 && n < pieces {
		pieces = n
	}
	return valueBytes * (pieces + 2)
}

func sizeJoin(args []ref.Val, limit int64) int64 {
	list, ok := args[0].(traits.Lister)
	if !ok {
		return 0
	}
	sep := strLen(args, 1)
	n := sizeOf(list)
	total := n * valueBytes
	for i := int64(0); i < n && total <= limit; i++ {
		s, _ := list.Get(types.Int(i)).(types.String)
		total += int64(len(s)) + sep
	}
	return total
}

func sizeFormat(args []ref.Val, limit int64) int64 {
	f, _ := args[0].(types.String)
	total := int64(len(f))
	// A clause's precision adds as many digits: count every number the
	// format holds.
	num := int64(0)
	for _, c := range []byte(f) {
		if c >= '0' && c <= '9' {
			num = min(num*10+int64(c-'0'), 1<<40)
			continue
		}
		total += num
		num = 0
	}
	total += num
	if list, ok := args[1].(traits.Lister); ok {
		n := sizeOf(list)
		for i := int64(0); i < n && total <= limit; i++ {
			total += printBound(list.Get(types.Int(i)), limit-total)
		}
	}
	return total
}

// printBound bounds the length of a value as format prints it: strings
// quoted and escaped inside lists and maps, numbers at most 400 digits.
func printBound(v ref.Val, limit int64) int64 {
	switch v := v.(type) {
	case types.String:
		return 6*int64(len(v)) + 2
	case types.Bytes:
		return 4*int64(len(v)) + 3
	case objectVal:
		return celrt.InputPrintBound(v.o, limit)
	case traits.Lister:
		total := int64(2)
		n := sizeOf(v)
		for i := int64(0); i < n && total <= limit; i++ {
			total += 2 + printBound(v.Get(types.Int(i)), limit-total)
		}
		return total
	case traits.Mapper:
		total := int64(2)
		for it := v.Iterator(); it.HasNext() == types.True && total <= limit; {
			k := it.Next()
			e, _ := v.Find(k)
			total += 4 + printBound(k, limit-total) + printBound(e, limit-total)
		}
		return total
	}
	return 400
}

// copyBound bounds what toModel allocates to convert a value: nothing for
// input values, which it hands over as they are; a copy of the elements of
// lists and maps built in CEL.
func copyBound(v ref.Val, limit int64) int64 {
	switch v := v.(type) {
	case objectVal, types.String:
		return 0
	case traits.Lister:
		n := sizeOf(v)
		total := valueBytes * n
		for i := int64(0); i < n && total <= limit; i++ {
			total += copyBound(v.Get(types.Int(i)), limit-total)
		}
		return total
	case traits.Mapper:
		total := 4 * valueBytes * sizeOf(v)
		for it := v.Iterator(); it.HasNext() == types.True && total <= limit; {
			e, _ := v.Find(it.Next())
			total += copyBound(e, limit-total)
		}
		return total
	}
	return 0
}

func sizeRange(args []ref.Val, _ int64) int64 {
	return valueBytes * max(0, intArg(args, 0, 0))
}

func sizeFlatten(args []ref.Val, limit int64) int64 {
	depth := intArg(args, 1, 1)
	var walk func(v ref.Val, depth int64) int64
	walk = func(v ref.Val, depth int64) int64 {
		list, ok := v.(traits.Lister)
		if !ok {
			return valueBytes
		}
		n := sizeOf(list)
		if depth <= 0 {
			return valueBytes
		}
		total := int64(valueBytes)
		for i := int64(0); i < n && total <= limit; i++ {
			total += walk(list.Get(types.Int(i)), depth-1)
		}
		return total
	}
	return walk(args[0], depth+1)
}

func sizeTruncate(args []ref.Val, _ int64) int64 {
	s := strLen(args, 0)
	// n characters of up to 4 bytes, plus a grapheme cluster of up to 32
	// characters that straddles the cut, plus the ellipsis.
	n := intArg(args, 1, 0)
	if n < 0 {
		n = 0
	}
	if n < s {
		s = min(s, 4*(n+32))
	}
	return s + 3
}

// execJSON serializes within the budget: the JSON text cannot be sized
// without writing it, so it is written with a limit of what is left, and
// fails when it would be longer.
func execJSON(args []ref.Val, b *budget) ref.Val {
	if err := b.charge("json", copyBound(args[0], b.left)); err != nil {
		return types.WrapErr(err)
	}
	m, ok := toModel(args[0])
	if !ok {
		return types.String("")
	}
	runes := b.left / utf8.UTFMax
	s := textfmt.TruncateJSON(m, int(min(runes, 1<<40)))
	if int64(utf8.RuneCountInString(s)) > runes {
		b.left = 0
		return types.WrapErr(b.charge("json", int64(len(s))+1))
	}
	if err := b.charge("json", int64(len(s))); err != nil {
		return types.WrapErr(err)
	}
	if err := b.spend(uint64(len(s)) / jsonPerUnit); err != nil {
		return types.WrapErr(err)
	}
	return types.String(s)
}
