package runtime

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/textfmt"
)

// How a wrapper's preview reads:
//
//	→ device 'web_fetch' to fetch 'https://example.com/x'
//	→ 3 calls: #1 tool 'read' for path '/a'; #2 tool 'ls' for path '/b'; … 1 more
//
// A carried call that is a wrapper too shows its own calls numbered under
// its number (#2.1, #2.2). A wrapper nested deeper than MaxWrapDepth shows
// its own preview and how many calls it carries.
const (
	arrow     = "→ "
	separator = "; "
)

// preview returns the preview of an inspected call: its own preview, or
// the calls it carries.
func (n *node) preview(d *Dispatcher) Preview {
	m := d.measure()
	if !n.unwrapped() {
		p := n.safe(d)
		if note := n.note(); note != "" {
			// A note longer than the whole limit is cut too.
			p.Text = m.cut(strings.TrimLeft(m.cut(p.Text, m.total()-m.cost(note))+note, " "), m.total())
		}
		return p
	}
	return Preview{Text: m.cut(d.carried(n, "", m, m.total()), m.total()), Formatter: n.owner}
}

// note says what a call shown as itself carries and does not show.
func (n *node) note() string {
	switch {
	case n.broken:
		return " (could not read the calls it carries)"
	case n.deep:
		return " " + arrow + textfmt.CountPhrase(n.hidden, "call", "calls") + " nested too deep to show"
	case n.crowded:
		return " " + arrow + textfmt.CountPhrase(n.hidden, "call", "calls") + " not shown: too many calls in all"
	}
	return ""
}

// carried renders the calls a wrapper carries within budget. number is the
// wrapper's own number in an enclosing list, "" when it has none.
func (d *Dispatcher) carried(n *node, number string, m measure, budget int) string {
	total := len(n.calls) + n.hidden
	if total == 1 {
		child := &n.calls[0]
		return arrow + d.item(child, number, m, budget-m.cost(arrow))
	}
	header := arrow + strconv.Itoa(total) + " calls: "
	calls := make([]*node, len(n.calls))
	nums := make([]string, len(n.calls))
	items := make([]string, len(n.calls))
	sizes := make([]int, len(n.calls))
	least := make([]int, len(n.calls))
	ranks := make([]int, len(n.calls))
	for i := range n.calls {
		calls[i] = &n.calls[i]
		nums[i] = strconv.Itoa(calls[i].index)
		if number != "" {
			nums[i] = number + "." + nums[i]
		}
		items[i] = d.item(calls[i], nums[i], m, unbounded)
		sizes[i] = m.cost(items[i])
		least[i] = min(sizes[i], m.cost(calls[i].label+" "+textfmt.Ellipsis))
		ranks[i] = risk(calls[i].tier)
	}
	hidden, hiddenTier := n.hidden, n.hiddenTier
	if hidden == 0 {
		hiddenTier = TierRead // the least claim, raised by the calls dropped below
	}
	// overhead is the cost of all but the calls' own text.
	overhead := func() int {
		c := m.cost(header) + m.cost(more(hidden, n.unread, hiddenTier)) + m.cost(separator)*(len(calls)-1)
		for _, num := range nums {
			c += m.cost("#" + num + " ")
		}
		return c
	}
	// When the labels of the calls shown do not fit, the least risky
	// (the last of those alike) make way, counted with the others left
	// out: cutting the end of the list could drop the riskiest.
	for len(calls) > 1 && overhead()+sum(least) > budget {
		drop := 0
		for i := range calls {
			if ranks[i] <= ranks[drop] {
				drop = i
			}
		}
		hidden++
		hiddenTier = combined(hiddenTier, calls[drop].tier)
		calls, nums, items = slices.Delete(calls, drop, drop+1), slices.Delete(nums, drop, drop+1), slices.Delete(items, drop, drop+1)
		sizes, least, ranks = slices.Delete(sizes, drop, drop+1), slices.Delete(least, drop, drop+1), slices.Delete(ranks, drop, drop+1)
	}
	shares := share(sizes, least, ranks, budget-overhead())
	var b strings.Builder
	b.WriteString(header)
	for i, child := range calls {
		if i > 0 {
			b.WriteString(separator)
		}
		b.WriteString("#" + nums[i] + " ")
		if sizes[i] > shares[i] {
			// A call shown as itself reads the same at any budget.
			if child.unwrapped() {
				items[i] = d.item(child, nums[i], m, shares[i])
			}
			items[i] = m.cut(items[i], shares[i])
		}
		b.WriteString(items[i])
	}
	b.WriteString(more(hidden, n.unread, hiddenTier))
	return b.String()
}

// more counts the calls of a wrapper that are not shown, and says the
// highest tier among them when it is known, or how many were not read at
// all: a call not read may do anything, and the person must know that
// the count is not of calls looked at.
func more(hidden, unread int, tier Tier) string {
	if hidden == 0 {
		return ""
	}
	s := separator + textfmt.Ellipsis + " " + strconv.Itoa(hidden) + " more"
	switch {
	case unread >= hidden:
		s += ", not read"
	case unread > 0:
		s += ", " + strconv.Itoa(unread) + " not read"
	case tier.Known():
		s += ", none above " + tier.String()
	}
	return s
}

func sum(list []int) int {
	total := 0
	for _, v := range list {
		total += v
	}
	return total
}

// item renders one carried call: its label, then its preview or the calls
// it carries.
func (d *Dispatcher) item(n *node, number string, m measure, budget int) string {
	if n.unwrapped() {
		return n.label + " " + d.carried(n, number, m, budget-m.cost(n.label)-1)
	}
	text := n.preview(d).Text
	if text == "" {
		return n.label
	}
	return n.label + " " + text
}

// unbounded is a budget that no preview reaches.
const unbounded = 1 << 50

// share shares budget among items of the given sizes and ranks: each item
// is sure of its least (or its size, when smaller); then the items of the
// highest rank share what is left (see waterfill), then those of the next
// rank share what they left, and so on. A dangerous call is shown whole
// before harmless ones, and among calls alike a long one cannot crowd out
// a short one.
func share(sizes, least, ranks []int, budget int) []int {
	shares := make([]int, len(sizes))
	reserved := 0
	for i, s := range sizes {
		reserved += min(s, least[i])
	}
	var order []int // the ranks, highest first
	for _, r := range ranks {
		if !slices.Contains(order, r) {
			order = append(order, r)
		}
	}
	slices.Sort(order)
	slices.Reverse(order)
	left := budget
	for _, r := range order {
		var group []int
		for i := range ranks {
			if ranks[i] == r {
				group = append(group, i)
				reserved -= min(sizes[i], least[i])
			}
		}
		for j, s := range waterfill(pick(sizes, group), pick(least, group), left-reserved) {
			shares[group[j]] = s
			left -= s
		}
	}
	return shares
}

// pick returns the items of list at the given indexes.
func pick(list, indexes []int) []int {
	out := make([]int, len(indexes))
	for j, i := range indexes {
		out[j] = list[i]
	}
	return out
}

// waterfill shares budget among items of the given sizes: an item that
// needs less than an equal share gets what it needs, and what it leaves is
// shared among the others, so a long preview cannot crowd out a short one.
// No item gets less than its least (or its size, when smaller).
func waterfill(sizes, least []int, budget int) []int {
	order := make([]int, len(sizes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return sizes[a] - sizes[b] })
	shares := make([]int, len(sizes))
	left, k := budget, len(sizes)
	for _, i := range order {
		fair := max(max(left, 0)/k, least[i])
		shares[i] = min(sizes[i], fair)
		left -= shares[i]
		k--
	}
	return shares
}

// measure measures text against the output limits: Limits.Output
// characters and, when set, Limits.OutputBytes bytes. One number, the cost,
// stands for both: a text of r characters and b bytes costs
// max(r·bytes, b·chars), and fits when its cost is at most chars·bytes.
type measure struct{ chars, bytes int }

func (d *Dispatcher) measure() measure {
	const most = 1 << 24 // keeps chars·bytes within an int
	return measure{chars: min(d.limits.Output, most), bytes: min(d.limits.OutputBytes, most)}
}

func (m measure) total() int {
	if m.bytes == 0 {
		return m.chars
	}
	return m.chars * m.bytes
}

func (m measure) cost(s string) int {
	r := utf8.RuneCountInString(s)
	if m.bytes == 0 {
		return r
	}
	return max(r*m.bytes, len(s)*m.chars)
}

// cut returns s when it fits in cost c, and otherwise its longest prefix
// that fits with an ellipsis, cut between grapheme clusters.
func (m measure) cut(s string, c int) string {
	if m.cost(s) <= c {
		return s
	}
	chars := c
	if m.bytes > 0 {
		chars = c / m.bytes
	}
	if utf8.RuneCountInString(s) > chars {
		if chars < 1 {
			return ""
		}
		s = textfmt.Truncate(s, chars-1)
	}
	if m.bytes > 0 {
		s = textfmt.TruncateBytes(s, c/m.chars)
	}
	return s
}

// fitBytes cuts sanitized text to Limits.OutputBytes, when set.
func (d *Dispatcher) fitBytes(s string) string {
	if d.limits.OutputBytes > 0 {
		return textfmt.TruncateBytes(s, d.limits.OutputBytes)
	}
	return s
}

// wrappedCalls describes the calls a wrapper shows.
func (n *node) wrappedCalls(d *Dispatcher) []WrappedCall {
	if !n.unwrapped() {
		return nil
	}
	calls := make([]WrappedCall, len(n.calls))
	for i := range n.calls {
		child := &n.calls[i]
		calls[i] = WrappedCall{
			Label:   child.label,
			Tool:    child.tool,
			Preview: child.preview(d),
			Tier:    child.tier,
			Calls:   child.wrappedCalls(d),
			Hidden:  child.hidden,
		}
	}
	return calls
}
