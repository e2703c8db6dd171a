package runtime

import "errors"

// DefaultDescriptionCost is the cost the formatters of the calls one call
// carries may spend together (see Options.DescriptionCost): twice what one
// CEL evaluation may spend by default, so that the calls are read within
// about 100 ms however many they are.
const DefaultDescriptionCost = 1_000_000

// ErrDescriptionCost is the failure of an evaluation stopped because the
// description it belongs to spent its shared budget (see Budget).
var ErrDescriptionCost = errors.New("cost budget of the description spent")

// Budget is the cost that the formatters of the calls one call carries
// (and those they carry) may spend together, in the units of the CEL
// evaluator's cost limit: each evaluation is bounded on its own, and a
// wrapper carrying hundreds of calls, each as costly as one evaluation may
// be, would still take seconds without a bound on all of them. Formatters
// that count their costs charge it (package celfmt's do); the dispatcher
// stops reading carried calls once it is spent and says how many it left
// unread. A nil Budget bounds nothing. A Budget belongs to one
// description, which runs on one goroutine: it is not safe for concurrent
// use.
type Budget struct {
	limit, spent uint64
}

// NewBudget returns a budget of limit units.
func NewBudget(limit uint64) *Budget { return &Budget{limit: limit} }

// Left returns the units not spent yet; the largest uint64 for a nil
// budget.
func (b *Budget) Left() uint64 {
	if b == nil {
		return ^uint64(0)
	}
	return b.limit - b.spent
}

// Spent returns the units spent so far.
func (b *Budget) Spent() uint64 {
	if b == nil {
		return 0
	}
	return b.spent
}

// Spend charges n units, at most what is left, and reports whether all n
// were left.
func (b *Budget) Spend(n uint64) bool {
	if b == nil {
		return true
	}
	if n > b.limit-b.spent {
		b.spent = b.limit
		return false
	}
	b.spent += n
	return true
}

// Exhausted reports whether nothing is left.
func (b *Budget) Exhausted() bool { return b != nil && b.spent >= b.limit }
