package celrt

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// MemoryBudget is how many bytes one evaluation of a translated formatter
// (its lets and one expression) may allocate through the functions that
// build strings and lists: the interpreter's default budget, so that a
// call the interpreter stops for its size stops in generated code too.
const MemoryBudget = 8 << 20

// ErrBudget is an evaluation that would allocate more than its memory
// budget. The interpreter's errors match it too.
var ErrBudget = errors.New("memory budget exceeded")

// BudgetError is the error of a call of fn that would allocate n bytes
// with left of a total-byte budget left: the message both backends give.
func BudgetError(fn string, n, left, total int64) error {
	return fmt.Errorf("%w: %s would allocate %d bytes with %d of the %d-byte budget left", ErrBudget, fn, n, left, total)
}

// InLet is the failure of a formatter's let: the interpreter's message,
// which names the let.
func InLet(name string, err error) error { return fmt.Errorf("let %s: %w", name, err) }

// Budget is what one evaluation of a translated formatter has allocated
// through the functions that build strings and lists. Generated code
// charges each such call BEFORE making it, with the size the interpreter
// charges (see CallSize), so that an input cannot make a formatter allocate
// more than MemoryBudget: the call fails first, with nothing allocated.
// Once exceeded, the budget stays exceeded: an evaluation that CEL would
// let absorb the error (true || x) fails as the interpreter's does.
// The zero value is a full budget.
type Budget struct {
	used int64
	err  error
}

// Charge takes n bytes for a call of fn, or fails.
func (b *Budget) Charge(fn string, n int64) error {
	if b.err == nil && n <= MemoryBudget-b.used {
		b.used += n
		return nil
	}
	return b.fail(fn, n)
}

// ChargeEach is Charge of each size in turn, for calls of fn made one
// after the other (the + of a chain a + "," + b): it fails at the first
// that the budget cannot take.
func (b *Budget) ChargeEach(fn string, sizes ...int64) error {
	for _, n := range sizes {
		if err := b.Charge(fn, n); err != nil {
			return err
		}
	}
	return nil
}

// fail is kept out of Charge so that Charge, on every concatenation of
// generated code, is inlined.
//
//go:noinline
func (b *Budget) fail(fn string, n int64) error {
	if b.err == nil {
		b.err = BudgetError(fn, n, MemoryBudget-b.used, MemoryBudget)
	}
	return b.err
}

// Call charges what the call fn(args...) allocates at most (see CallSize).
func (b *Budget) Call(fn string, args ...any) error {
	if b.err != nil {
		return b.err
	}
	return b.Charge(fn, CallSize(fn, MemoryBudget-b.used, args...))
}

// CallText is Call for a function whose size depends on its strings and
// ints only (see TextSized): it keeps none of its arguments, so that they
// stay on the caller's stack.
func (b *Budget) CallText(fn string, args ...any) error {
	if b.err != nil {
		return b.err
	}
	return b.Charge(fn, textSize(fn, args))
}

// Err is the error of the first charge that failed, or nil.
func (b *Budget) Err() error { return b.err }

// Failure is the error a function that fails with err returns: the
// budget's, when a charge failed where CEL absorbed the error, as the
// interpreter reports a budget exceeded whatever the evaluation's own
// failure.
//
// It is not inlined: generated code calls it on every failure path, where
// a call costs nothing that matters and an inlined body would make the
// package slower to compile.
//
//go:noinline
func (b *Budget) Failure(err error) error {
	if b.err != nil {
		return b.err
	}
	return err
}

// JSON is json(v) within the budget: the text cannot be sized without
// writing it, so it is written with a limit of what is left, and fails
// when it would be longer.
func (b *Budget) JSON(v any) (string, error) {
	if err := b.Charge("json", copyBound(v, MemoryBudget-b.used)); err != nil {
		return "", err
	}
	m, ok := toModel(v)
	if !ok {
		return "", nil
	}
	runes := (MemoryBudget - b.used) / utf8.UTFMax
	s := textfmt.TruncateJSON(m, int(runes))
	if int64(utf8.RuneCountInString(s)) > runes {
		b.used = MemoryBudget
		return "", b.Charge("json", int64(len(s))+1)
	}
	if err := b.Charge("json", int64(len(s))); err != nil {
		return "", err
	}
	return s, nil
}

// elemBytes is what one element of a list costs: an interface value.
const elemBytes = 16

// sized are the functions CallSize sizes: those that build strings or
// lists. A function not here allocates a bounded amount (a number, a
// boolean, a substring of its argument) or is a macro, whose steps are
// calls here.
var sized = map[string]bool{
	"_+_": true, "replace": true, "split": true, "join": true, "format": true, "strings.quote": true,
	"lowerAscii": true, "upperAscii": true, "reverse": true, "substring": true, "charAt": true,
	"indexOf": true, "lastIndexOf": true, "string": true, "bytes": true, "lists.range": true,
	"flatten": true, "slice": true, "sort": true, "@sortByAssociatedKeys": true, "distinct": true,
	"truncate": true, "inline": true, "collapse": true, "plural": true, "mcpValue": true,
	"numberText": true, "sqlKinds": true, "sqlTier": true, "fileSize": true, "durationText": true,
	"dimensions": true, "shortcut": true, "menuPath": true, "redact": true, "parseJSON": true,
	"json": true, "fields": true, "alternatives": true, "sqlResult": true, "commandError": true, "outputLines": true,
}

// Sized reports whether CallSize sizes calls of fn, a CEL function name
// ("replace", "_+_").
func Sized(fn string) bool { return sized[fn] }

// CallSize returns how many bytes a call of fn with these arguments
// allocates at most; it may stop counting once the count passes limit.
// Arguments of unexpected types count 0: the function reports the error.
// The interpreter charges the same sizes for the same calls (celfmt's
// tests hold the two to each other). It keeps no argument, so that the
// arguments of a call stay on the caller's stack.
func CallSize(fn string, limit int64, args ...any) int64 {
	switch fn {
	case "_+_":
		return sizeAdd(args)
	case "join":
		return sizeJoin(args, limit)
	case "format":
		return sizeFormat(args, limit)
	case "reverse":
		return 5*strLen(args, 0) + 2*elemBytes*listLen(args, 0)
	case "flatten":
		return sizeFlatten(args, limit)
	case "slice":
		return elemBytes * listLen(args, 0)
	case "sort", "@sortByAssociatedKeys":
		return 3 * elemBytes * listLen(args, 0)
	case "distinct":
		return 4 * elemBytes * listLen(args, 0)
	case "mcpValue":
		// An input list is handed over as it is; a list built in CEL is
		// copied. Generated code holds both as []any: both count as input.
		if len(args) > 0 {
			if _, input := args[0].([]any); input {
				return 512
			}
		}
		return 512 + elemBytes*listLen(args, 0)
	case "alternatives":
		// A [name, text] pair for each name: the texts are the input's.
		return 16 + 4*elemBytes*listLen(args, 1)
	case "json":
		return 0 // Budget.JSON charges as it writes
	case "fields":
		// fields writes up to four bytes a character of n, and keeps an
		// entry of scratch (56 bytes) for each shown, one for three
		// characters at most.
		if len(args) > 0 {
			return copyBound(args[0], limit) + 24*min(max(intArg(args, 1, 0), 0), 1<<40) + 2048
		}
		return 0
	}
	return textSize(fn, args)
}

// TextSized reports whether the size of a call of fn depends on its
// strings and ints only: Budget.CallText charges it.
func TextSized(fn string) bool {
	switch fn {
	case "_+_", "join", "format", "reverse", "flatten", "slice", "sort", "@sortByAssociatedKeys", "distinct", "mcpValue", "fields", "alternatives":
		return false
	}
	return sized[fn]
}

// textSize is CallSize of a function TextSized reports.
func textSize(fn string, args []any) int64 {
	switch fn {
	case "replace":
		return sizeReplace(args)
	case "split":
		return sizeSplit(args)
	case "strings.quote":
		return 6*strLen(args, 0) + 2
	case "lowerAscii", "upperAscii":
		return 5 * strLen(args, 0)
	case "substring", "charAt":
		return 4 * strLen(args, 0)
	case "indexOf", "lastIndexOf":
		return 4 * (strLen(args, 0) + strLen(args, 1))
	case "string":
		return bytesLen(args, 0)
	case "bytes", "collapse":
		return strLen(args, 0)
	case "lists.range":
		return elemBytes * max(0, intArg(args, 0, 0))
	case "truncate":
		return sizeTruncate(args)
	case "inline":
		return sizeTruncate(args) + 16
	case "plural":
		return 24 + max(strLen(args, 1), strLen(args, 2))
	case "numberText":
		return 32
	case "sqlKinds":
		return int64(textfmt.MaxSQLKinds) * 4 * elemBytes
	case "sqlTier":
		return 16
	case "fileSize", "durationText":
		return 64
	case "dimensions":
		return 96
	case "shortcut":
		// A key name becomes a symbol of at most twice its bytes ("fn" 🌐).
		return 2*strLen(args, 0) + 16
	case "menuPath":
		// Each ">" of a menu path becomes " → ", five bytes for one.
		return 5*strLen(args, 0) + 16
	case "redact":
		// A credential becomes a placeholder of at most five times its
		// bytes ("&sig=x"), and a field's value the placeholder of its
		// length.
		return 5*(strLen(args, 0)+strLen(args, 1)) + 32
	case "parseJSON":
		// Decoded JSON takes at most 24 bytes of values per byte of text:
		// a value per two bytes ("[0,0,…]"), each a few words.
		return 24 * strLen(args, 0)
	case "commandError":
		// "exit ", a code of at most 12 characters and the first line of
		// the text, cut as truncate cuts it.
		if len(args) > 0 {
			return sizeTruncate(args[1:]) + 64
		}
		return 0
	case "outputLines":
		if len(args) > 0 {
			return sizeSplit([]any{args[0], "\n"})
		}
		return 0
	case "sqlResult":
		// It decodes its text as parseJSON does.
		return 24*strLen(args, 0) + 48
	}
	return 0
}

// listLength is the length of a list value; ok is false for any other.
func listLength(v any) (n int, ok bool) {
	switch l := v.(type) {
	case []any:
		return len(l), true
	case []string:
		return len(l), true
	case []int64:
		return len(l), true
	case []uint64:
		return len(l), true
	case []float64:
		return len(l), true
	case []bool:
		return len(l), true
	}
	return 0, false
}

// listAt is element i of a list value; a string is returned as it is and
// the other elements, which no sizer counts, as nil.
func listAt(v any, i int) any {
	switch l := v.(type) {
	case []any:
		return l[i]
	case []string:
		return l[i]
	}
	return nil
}

func strLen(args []any, i int) int64 {
	if i < len(args) {
		if s, ok := args[i].(string); ok {
			return int64(len(s))
		}
	}
	return 0
}

func bytesLen(args []any, i int) int64 {
	if i < len(args) {
		if b, ok := args[i].([]byte); ok {
			return int64(len(b))
		}
	}
	return 0
}

func listLen(args []any, i int) int64 {
	if i < len(args) {
		return sizeOf(args[i])
	}
	return 0
}

// sizeOf is the number of elements of a list or map, or the bytes of
// bytes, as the interpreter counts them, or 0.
func sizeOf(v any) int64 {
	switch m := v.(type) {
	case []byte:
		return int64(len(m))
	case *value.Object:
		return int64(m.Len())
	case *Map:
		return int64(m.Len())
	}
	n, _ := listLength(v)
	return int64(n)
}

func intArg(args []any, i int, otherwise int64) int64 {
	if i < len(args) {
		if n, ok := args[i].(int64); ok {
			return n
		}
	}
	return otherwise
}

func sizeAdd(args []any) int64 {
	if len(args) == 0 {
		return 0
	}
	switch a := args[0].(type) {
	case string:
		return int64(len(a)) + strLen(args, 1)
	case []byte:
		return int64(len(a)) + bytesLen(args, 1)
	}
	if n, ok := listLength(args[0]); ok {
		return elemBytes * (int64(n) + listLen(args, 1))
	}
	return 0
}

func sizeReplace(args []any) int64 {
	if len(args) < 3 {
		return 0
	}
	s, _ := args[0].(string)
	old, _ := args[1].(string)
	repl, _ := args[2].(string)
	if old == repl {
		return 0
	}
	count := int64(strings.Count(s, old))
	if n := intArg(args, 3, -1); n >= 0 && n < count {
		count = n
	}
	if count == 0 {
		return 0
	}
	return int64(len(s)) + count*max(0, int64(len(repl))-int64(len(old)))
}

func sizeSplit(args []any) int64 {
	if len(args) < 2 {
		return 0
	}
	s, _ := args[0].(string)
	sep, _ := args[1].(string)
	pieces := int64(strings.Count(s, sep))
	if sep != "" {
		pieces++
	} else {
		pieces-- // Count("") counts the runes plus one
	}
	if n := intArg(args, 2, -1); n >= 0 && n < pieces {
		pieces = n
	}
	return elemBytes * (pieces + 2)
}

func sizeJoin(args []any, limit int64) int64 {
	if len(args) == 0 {
		return 0
	}
	n, ok := listLength(args[0])
	if !ok {
		return 0
	}
	sep := strLen(args, 1)
	total := int64(n) * elemBytes
	for i := 0; i < n && total <= limit; i++ {
		s, _ := listAt(args[0], i).(string)
		total += int64(len(s)) + sep
	}
	return total
}

func sizeFormat(args []any, limit int64) int64 {
	if len(args) == 0 {
		return 0
	}
	f, _ := args[0].(string)
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
	if len(args) > 1 {
		n, _ := listLength(args[1])
		for i := 0; i < n && total <= limit; i++ {
			total += printBound(listAt(args[1], i), limit-total)
		}
	}
	return total
}

// printBound bounds the length of a value as format prints it: strings
// quoted and escaped inside lists and maps, numbers at most 400 digits.
func printBound(v any, limit int64) int64 {
	switch v := v.(type) {
	case string:
		return 6*int64(len(v)) + 2
	case []byte:
		return 4*int64(len(v)) + 3
	case *value.Object:
		return InputPrintBound(v, limit)
	case *Map:
		total := int64(2)
		for i := 0; i < v.Len() && total <= limit; i++ {
			k, e := v.At(i)
			total += 4 + printBound(k, limit-total) + printBound(e, limit-total)
		}
		return total
	}
	if n, ok := listLength(v); ok {
		total := int64(2)
		for i := 0; i < n && total <= limit; i++ {
			total += 2 + printBound(listAt(v, i), limit-total)
		}
		return total
	}
	return 400
}

// InputPrintBound bounds the length of an input value as format prints
// it: what both backends charge for it.
func InputPrintBound(v any, limit int64) int64 {
	switch v := v.(type) {
	case string:
		return 6*int64(len(v)) + 2
	case []any:
		total := int64(2)
		for _, e := range v {
			if total > limit {
				break
			}
			total += 2 + InputPrintBound(e, limit-total)
		}
		return total
	case *value.Object:
		total := int64(2)
		for i := 0; i < v.Len() && total <= limit; i++ {
			k, e := v.At(i)
			total += 4 + 6*int64(len(k)) + InputPrintBound(e, limit-total)
		}
		return total
	}
	return 400
}

// copyBound bounds what converting a value to JSON's model allocates:
// nothing for input values, which are handed over as they are; a copy of
// the elements of lists and maps built in CEL.
func copyBound(v any, limit int64) int64 {
	switch v := v.(type) {
	case *value.Object, string:
		return 0
	case *Map:
		if v.input {
			return 0 // as the interpreter hands input over
		}
		total := 4 * elemBytes * int64(v.Len())
		for i := 0; i < v.Len() && total <= limit; i++ {
			_, e := v.At(i)
			total += copyBound(e, limit-total)
		}
		return total
	}
	if n, ok := listLength(v); ok {
		total := elemBytes * int64(n)
		for i := 0; i < n && total <= limit; i++ {
			total += copyBound(listAt(v, i), limit-total)
		}
		return total
	}
	return 0
}

func sizeFlatten(args []any, limit int64) int64 {
	if len(args) == 0 {
		return 0
	}
	return flatBound(args[0], intArg(args, 1, 1)+1, limit)
}

// flatBound bounds what flatten builds of a value to a depth.
func flatBound(v any, depth, limit int64) int64 {
	n, ok := listLength(v)
	if !ok || depth <= 0 {
		return elemBytes
	}
	total := int64(elemBytes)
	for i := 0; i < n && total <= limit; i++ {
		total += flatBound(listAt(v, i), depth-1, limit)
	}
	return total
}

func sizeTruncate(args []any) int64 {
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
