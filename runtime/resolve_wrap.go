package runtime

import (
	"fmt"
	"slices"
)

// Bounds of one inspection. A description shows at most maxShownCalls
// carried calls in all (a preview of Limits.Output characters cannot show
// more), and reads the tiers of at most maxTieredCalls calls it does not
// show; a call beyond them is counted, and its tier is unknown. Every
// inspected call may run its formatter's preview, unwrap and tier, each
// bounded on its own: these bounds keep one call's description from running
// a catalog's formatters thousands of times, and the description's Budget
// keeps the evaluations of all of them within one bound: once it is spent,
// the calls not read yet are counted as not read, and their tiers are
// unknown.
const (
	maxShownCalls  = 64
	maxTieredCalls = 256
)

// node is what the dispatcher finds out about one call.
type node struct {
	// s is what a carried call is; nil for the call inspected, whose
	// subject its caller holds.
	s     *subject
	tool  string // the call's tool
	label string // for a carried call, how the preview names it
	// raw is its own preview before sanitizing, when it is shown as
	// itself: the text of the formatter that answered (answered is set),
	// or the default preview that renderTree writes.
	raw      rawPreview
	answered bool
	// safePreview is raw made safe, once made is set (see safe).
	safePreview Preview
	made        bool
	owner       string // the owner of the registration that unwrapped it
	tier        Tier
	calls       []node // the calls it carries that are shown
	hidden      int    // the calls it carries that are not shown
	// unread counts the calls not shown whose tiers were never read (the
	// bounds of the inspection or its budget spent, or a wrapper whose
	// calls were not read): the "… N more" of its preview says so.
	unread int
	// hiddenTier is the combined tier of the calls not shown, when the
	// riskiest were chosen to be shown.
	hiddenTier Tier
	index      int  // its place among the calls of its wrapper, from 1
	deep       bool // it carries calls nested deeper than MaxWrapDepth
	crowded    bool // it carries calls beyond the bounds of an inspection
	broken     bool // reading the calls it carries failed
	// carried are the calls it carries, until they are inspected.
	carried []InnerCall
}

// unwrapped reports whether the call is shown as the calls it carries.
func (n *node) unwrapped() bool { return len(n.calls) > 0 }

// walk is one inspection of a call and the calls it carries.
type walk struct {
	d             *Dispatcher
	shown, tiered int // calls inspected so far, shown and not
	// budget is what the formatters of the calls carried may spend
	// together.
	budget *Budget
}

// inspect is the second step (see Dispatcher.Describe), with subject: it
// finds out what a call does, as a tree of nodes: the formatter that
// answers it, or the calls it carries (each inspected the same way), and,
// when tiers is set, its tier. Each formatter runs at most once per
// method for each call of the tree.
func (d *Dispatcher) inspect(s *subject, tiers bool) node {
	w := walk{d: d}
	n := w.open(s, 0, true, tiers)
	if n.carried != nil {
		// The call's own evaluations are bounded each on its own; the
		// calls it carries share one budget, made only for a wrapper.
		w.budget = NewBudget(d.cost)
		w.expand(&n, 0, MaxInnerCalls)
	}
	return n
}

// open inspects a call depth wrappers deep, but not the calls it carries:
// it reads them, and when there are none (or the call is too deep for them
// to be shown) it works out the call's own preview, when show is set, and
// its tier, when tiers is.
func (w *walk) open(s *subject, depth int, show, tiers bool) node {
	d := w.d
	n := node{tool: s.c.Tool}
	// The topmost layer whose Unwrapper finds calls says what the call
	// carries: one that finds none declines to the layer below, so a
	// host's formatter for a wrapper tool cannot hide the calls the stock
	// catalog unwraps.
	for j := 0; j < s.depth(); j++ {
		reg := s.wrapper(j)
		if reg == nil {
			continue
		}
		req := s.request(0, d.limits)
		calls, err := guard(func() ([]InnerCall, error) { return reg.formatter.(Unwrapper).Unwrap(req) })
		if err != nil {
			// Calls returned beside an error are not trusted to be all
			// of them.
			d.fail(reg, s.c.Tool, fmt.Errorf("unwrap: %w", redactError(s.scrubber(), err)), s.scrubber())
			calls, n.broken = nil, true
		}
		if len(calls) > 0 && depth < MaxWrapDepth {
			n.carried, n.owner = calls, reg.owner
			return n
		}
		if len(calls) > 0 {
			n.hidden, n.deep, n.unread = len(calls), true, len(calls)
		}
		if len(calls) > 0 || n.broken {
			break
		}
	}
	// Once the budget is spent, a formatter would fail at once: the call
	// is shown by its default preview, and its tier is unknown.
	if show && !w.budget.Exhausted() {
		n.raw, n.answered = d.answer(s)
	}
	if tiers && !n.broken && !n.deep && !w.budget.Exhausted() {
		n.tier = d.tier(s)
	}
	return n
}

// expand inspects the calls an opened wrapper carries: it shows at most
// room of them, and works out their combined tier.
func (w *walk) expand(n *node, depth, room int) {
	carried := n.carried
	n.carried = nil
	tiers := make([]Tier, len(carried))
	// When there are more calls than room, the riskiest are shown (by
	// tier, unknown first): padding a wrapper with harmless calls must not
	// push a dangerous one out of sight. A call whose tier was not read,
	// the bound of an inspection being spent, ranks last: otherwise
	// padding beyond the bound would outrank a call known to execute.
	// The calls read to be ranked are kept, so that those chosen are not
	// decoded, looked up, unwrapped and tiered a second time.
	var chosen []bool
	var ranked openedCalls
	if len(carried) > room {
		ranks := make([]int, len(carried))
		ranked = make(openedCalls, len(carried))
		for i, ic := range carried {
			tiers[i], ranked[i], _ = w.tierOnly(ic, depth+1, true)
			ranks[i] = -1
			if ranked[i] != nil {
				ranks[i] = risk(tiers[i])
			}
		}
		chosen = riskiest(ranks, room)
	}
	most := min(len(carried), room) // calls that may be shown
	n.calls = make([]node, 0, most)
	shownAt := make([]int, 0, most) // the index of each shown call
	// What each shown call is, when it was not ranked: at most most of
	// them, so that appending never moves those the nodes point to.
	subjects := make([]subject, 0, most)
	for i, ic := range carried {
		o := ranked.at(i)
		if w.shown == maxShownCalls || chosen == nil && i >= room || chosen != nil && !chosen[i] ||
			o == nil && w.budget.Exhausted() {
			n.hidden++
			read := false
			switch {
			case chosen == nil:
				tiers[i], _, read = w.tierOnly(ic, depth+1, false)
			case o != nil:
				read = o.read
			}
			if !read {
				tiers[i] = TierUnknown
				n.unread++
			}
			continue
		}
		w.shown++
		var child node
		if o != nil {
			// Opened to be ranked: what showing it adds is its answer.
			child, child.s = o.n, &o.s
			if child.carried == nil && !w.budget.Exhausted() {
				child.raw, child.answered = w.d.answer(child.s)
			}
		} else {
			ic = w.d.annotated(ic)
			subjects = append(subjects, w.d.subject(Call{Tool: ic.Tool, Input: ic.Input, Annotations: ic.Annotations}, decodeInner(ic), w.d.limits.Preview))
			s := &subjects[len(subjects)-1]
			s.budget = w.budget
			child = w.open(s, depth+1, true, true)
			child.s = s
		}
		child.label = w.d.label(child.s, ic.Kind)
		child.index = i + 1
		n.calls = append(n.calls, child)
		shownAt = append(shownAt, i)
	}
	// The calls that carry calls share what is left of the bound, so that
	// each shows some of its own.
	wrappers := 0
	for i := range n.calls {
		if n.calls[i].carried != nil {
			wrappers++
		}
	}
	for j := range n.calls {
		child := &n.calls[j]
		if child.carried != nil {
			if share := min(MaxInnerCalls, (maxShownCalls-w.shown)/wrappers); share > 0 {
				w.expand(child, depth+1, share)
			} else {
				if !w.budget.Exhausted() {
					child.raw, child.answered = w.d.answer(child.s)
				}
				child.hidden, child.crowded, child.carried = len(child.carried), true, nil
				child.unread = child.hidden
			}
			wrappers--
		}
		tiers[shownAt[j]] = child.tier
	}
	n.tier = tiers[0]
	for _, t := range tiers[1:] {
		n.tier = combined(n.tier, t)
	}
	// What the calls left out may do is said when they were left out for
	// being the least risky.
	n.hiddenTier = TierUnknown
	if chosen != nil && n.hidden > 0 {
		first := true
		for i := range carried {
			if slices.Contains(shownAt, i) {
				continue
			}
			if first {
				n.hiddenTier, first = tiers[i], false
			} else {
				n.hiddenTier = combined(n.hiddenTier, tiers[i])
			}
		}
	}
}

// opened is a carried call opened for its tier alone (see tierOnly).
type opened struct {
	s    subject
	n    node
	read bool // its tier was read (see tierOnly)
}

// openedCalls are the carried calls of a wrapper opened to be ranked, nil
// for those not read.
type openedCalls []*opened

// at returns the i-th call opened, or nil.
func (o openedCalls) at(i int) *opened {
	if o == nil {
		return nil
	}
	return o[i]
}

// tierOnly returns the tier of a carried call without showing it, and,
// when keep is set, the call as opened; nil when it was not read: beyond
// maxTieredCalls, or once the budget is spent, it is not, and the tier is
// unknown. A wrapper's tier is unknown too: the calls it carries are read
// only when it is shown, so that one wrapper full of calls cannot spend
// the bound before its siblings are read. read reports whether its tier
// was read: not for a call not read, nor for a wrapper, nor when the
// budget ran out as it was read.
func (w *walk) tierOnly(ic InnerCall, depth int, keep bool) (t Tier, o *opened, read bool) {
	if w.tiered == maxTieredCalls || w.budget.Exhausted() {
		return TierUnknown, nil, false
	}
	w.tiered++
	ic = w.d.annotated(ic)
	call := Call{Tool: ic.Tool, Input: ic.Input, Annotations: ic.Annotations}
	o = &opened{s: w.d.subject(call, decodeInner(ic), w.d.limits.Preview)}
	o.s.budget = w.budget
	o.n = w.open(&o.s, depth, false, true)
	t, read = o.n.ownTier(), o.n.carried == nil && !w.budget.Exhausted()
	o.read = read
	if !keep {
		o = nil
	}
	return t, o, read
}

// ownTier is the tier of a call opened without the calls it carries:
// unknown for a wrapper, whose calls are not read.
func (n node) ownTier() Tier {
	if n.carried != nil {
		return TierUnknown
	}
	return n.tier
}

// risk ranks tiers by what a call of the tier may do: an unknown tier is
// the highest.
func risk(t Tier) int { return t.rank() }

// riskiest marks the n calls of the highest ranks, and of those alike the
// first.
func riskiest(ranks []int, n int) []bool {
	order := make([]int, len(ranks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return ranks[b] - ranks[a] })
	chosen := make([]bool, len(ranks))
	for _, i := range order[:min(n, len(order))] {
		chosen[i] = true
	}
	return chosen
}
