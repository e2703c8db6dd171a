package runtime

import (
	"fmt"
	"slices"
	"strings"

	"github.com/permgen/permgen/runtime/value"
)

// InnerCall is a call that a wrapper call carries: an oh-my-pi device write
// ("write" to xd://NAME with the arguments as content), a parallel-call
// wrapper, and the like. The dispatcher previews it through the same
// registry as a call of its own.
type InnerCall struct {
	Tool string // the tool that runs
	// Input is its arguments, as Call.Input: a string or []byte is JSON
	// text, decoded (text that is not JSON is shown as it is, since it is
	// what the tool receives); *value.Object and other Go values are used
	// as they are.
	Input any
	// Kind is what the prompt calls it: "tool" when empty, "device" for an
	// oh-my-pi device.
	Kind string
}

// Unwrapper is implemented by the formatter of a wrapper tool. Unwrap
// returns the calls the wrapper carries, or none when this call carries
// none (a write to a file, not to a device). An error is a failure, which
// the dispatcher reports and shows.
type Unwrapper interface {
	Unwrap(req Request) ([]InnerCall, error)
}

// Tierer is implemented by a formatter whose tool declares an approval
// tier. TierUnknown says nothing; an error is a failure, and the call's
// tier is then unknown.
type Tierer interface {
	Tier(req Request) (Tier, error)
}

// Bounds of wrapped calls. A wrapper's calls are shown to MaxWrapDepth
// levels (a wrapper in a wrapper); a wrapper deeper than that is shown as
// itself, with the number of calls it carries. At most MaxInnerCalls calls
// of one wrapper are shown; the prompt counts the others.
const (
	MaxWrapDepth  = 2
	MaxInnerCalls = 16
)

// WrappedCall describes a call that a wrapper carries, as the wrapper's
// preview shows it.
type WrappedCall struct {
	// Label names the call in the preview: "tool 'read'", "device
	// 'web_fetch'", "MCP target 'exa:search'". Safe text.
	Label string
	Tool  string // the tool, as the call names it (not sanitized)
	// Preview is the call's own preview, bounded by Limits.Output alone
	// (the wrapper's preview shares its limit among its calls).
	Preview Preview
	Tier    Tier
	// Calls are the calls it carries when it is a wrapper too, and Hidden
	// counts those not shown: beyond MaxInnerCalls, or all of them when it
	// is nested MaxWrapDepth deep.
	Calls  []WrappedCall
	Hidden int
}

// maxVisits bounds the calls one description inspects, those shown and
// those whose tier is read without showing them; a wrapper with more calls
// than that has an unknown tier.
const maxVisits = 1024

// node is what the dispatcher finds out about one call.
type node struct {
	tool   string     // the call's tool
	label  string     // for a carried call, how the preview names it
	raw    rawPreview // its own preview, when it is shown as itself
	owner  string     // the owner of the registration that unwrapped it
	tier   Tier
	calls  []node // the calls it carries that are shown
	hidden int    // the calls it carries that are not shown
	// hiddenTier is the combined tier of the calls not shown, when they
	// were not shown for their number.
	hiddenTier Tier
	index      int  // its place among the calls of its wrapper, from 1
	deep       bool // it carries calls nested deeper than MaxWrapDepth
	broken     bool // reading the calls it carries failed
}

// unwrapped reports whether the call is shown as the calls it carries.
func (n *node) unwrapped() bool { return len(n.calls) > 0 }

// walk is one inspection of a call and the calls it carries.
type walk struct {
	d      *Dispatcher
	visits int
}

// inspect finds out what a call does: its preview, or the calls it
// carries, and, when tiers is set, its tier.
func (d *Dispatcher) inspect(c Call, in value.Input, tiers bool) node {
	w := walk{d: d}
	return w.visit(c, in, 0, true, tiers)
}

// visit inspects a call depth wrappers deep: its preview when show is set,
// its tier when tiers is.
func (w *walk) visit(c Call, in value.Input, depth int, show, tiers bool) node {
	d := w.d
	n := node{tool: c.Tool}
	var carried []InnerCall
	if reg := d.wrapper(c); reg != nil {
		req := Request{Tool: c.Tool, Input: in.Object(), Limits: d.limits}
		calls, err := guard(func() ([]InnerCall, error) { return reg.formatter.(Unwrapper).Unwrap(req) })
		if err != nil {
			d.fail(reg, c.Tool, fmt.Errorf("unwrap: %w", err))
			n.broken = true
		}
		carried = calls
		n.owner = reg.owner
	}
	if len(carried) == 0 || depth == MaxWrapDepth {
		if show {
			n.raw = d.rawPreview(c, in)
		}
		if len(carried) > 0 {
			n.hidden, n.deep = len(carried), true
		}
		if tiers && !n.broken && !n.deep {
			n.tier = d.tier(c, in)
		}
		return n
	}
	// When there are more calls than can be shown, the riskiest are shown
	// (by tier, unknown first): padding a wrapper with harmless calls must
	// not push a dangerous one out of sight.
	var chosen []bool
	var all []Tier // with chosen, the tier of each call
	if show && len(carried) > MaxInnerCalls {
		all = make([]Tier, len(carried))
		for i, ic := range carried {
			all[i] = TierUnknown
			if w.visits < maxVisits {
				w.visits++
				all[i] = w.visit(Call{Tool: ic.Tool, Input: ic.Input}, value.DecodeInput(ic.Input), depth+1, false, true).tier
			}
		}
		chosen = riskiest(all, MaxInnerCalls)
		n.tier, n.hiddenTier = all[0], TierRead
		for i, t := range all {
			n.tier = combined(n.tier, t)
			if !chosen[i] {
				n.hiddenTier = combined(n.hiddenTier, t)
			}
		}
	}
	for i, ic := range carried {
		shown := show && (chosen == nil && i < MaxInnerCalls || chosen != nil && chosen[i])
		if chosen != nil && !shown {
			n.hidden++
			continue
		}
		if chosen == nil && w.visits == maxVisits {
			n.hidden += len(carried) - i
			n.tier = TierUnknown
			break
		}
		w.visits++
		inner := Call{Tool: ic.Tool, Input: ic.Input}
		innerIn := value.DecodeInput(ic.Input)
		// A carried call's tier is always wanted: the preview gives the
		// riskiest calls room first.
		child := w.visit(inner, innerIn, depth+1, shown, chosen == nil)
		switch {
		case chosen != nil:
			child.tier = all[i]
		case i == 0:
			n.tier = child.tier
		default:
			n.tier = combined(n.tier, child.tier)
		}
		if !shown {
			n.hidden++
			continue
		}
		child.label = d.label(inner, innerIn, ic.Kind)
		child.index = i + 1
		n.calls = append(n.calls, child)
	}
	return n
}

// risk ranks tiers by what a call of the tier may do: an unknown tier is
// the highest.
func risk(t Tier) int {
	if t == TierUnknown {
		return int(TierExecute) + 1
	}
	return int(t)
}

// riskiest marks the n calls of the highest tiers, an unknown tier being
// the highest, and of those alike the first.
func riskiest(tiers []Tier, n int) []bool {
	rank := risk
	order := make([]int, len(tiers))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank(tiers[b]) - rank(tiers[a]) })
	chosen := make([]bool, len(tiers))
	for _, i := range order[:min(n, len(order))] {
		chosen[i] = true
	}
	return chosen
}

// wrapper returns the registration that unwraps a call, or nil. An MCP call
// is shown as its target, never unwrapped: the reference wording names it.
func (d *Dispatcher) wrapper(c Call) *registration {
	if d.reg == nil || isMCP(c) {
		return nil
	}
	if reg := d.reg.find(c.Tool); reg != nil {
		if _, ok := reg.formatter.(Unwrapper); ok {
			return reg
		}
	}
	return nil
}

// tier returns the tier of a call that is shown as itself: the tier its
// registration declares, raised by the call's annotations.
func (d *Dispatcher) tier(c Call, in value.Input) Tier {
	declared := TierUnknown
	if d.reg != nil {
		keys, nkeys := d.keys(c, in)
		for _, k := range keys[:nkeys] {
			reg := d.reg.find(k.key)
			if reg == nil {
				continue
			}
			t, ok := reg.formatter.(Tierer)
			if !ok {
				continue
			}
			req := Request{Tool: k.tool, Input: k.input, Limits: d.limits}
			tier, err := guard(func() (Tier, error) { return t.Tier(req) })
			if err != nil {
				d.fail(reg, c.Tool, fmt.Errorf("tier: %w", err))
				return TierUnknown // a failure says nothing, whatever else does
			}
			if tier != TierUnknown {
				declared = tier
				break
			}
		}
	}
	return stricter(declared, c.Annotations.Tier())
}

// lookup is a registry key a call is looked up under, with what its
// formatter receives.
type lookup struct {
	key, tool string
	input     *value.Object
}

// keys returns the keys a call is looked up under, in order, in an array
// so that the lookup of every preview allocates nothing.
func (d *Dispatcher) keys(c Call, in value.Input) ([3]lookup, int) {
	var keys [3]lookup
	if !isMCP(c) {
		keys[0] = lookup{c.Tool, c.Tool, in.Object()}
		return keys, 1
	}
	target, args, umbrella := mcpInput(c, in)
	n := 0
	if server, _, ok := strings.Cut(target, ":"); ok && server != "" {
		keys[0], keys[1] = lookup{target, target, args}, lookup{server + ":*", target, args}
		n = 2
	}
	tool := target
	if tool == "" {
		tool = "mcp"
	}
	keys[n] = lookup{"mcp", tool, umbrella}
	return keys, n + 1
}

// label names a carried call in its wrapper's preview.
func (d *Dispatcher) label(c Call, in value.Input, kind string) string {
	if isMCP(c) {
		if target := mcpTarget(c, in.Object()); target != "" {
			return "MCP target '" + SafeText(target, Reveal, maxLabelName) + "'"
		}
	}
	kind = SafeText(kind, Reveal, maxLabelKind)
	if kind == "" {
		kind = "tool"
	}
	return kind + " '" + SafeText(c.Tool, Reveal, maxLabelName) + "'"
}

// Bounds of a label, in characters: room for any real tool name.
const (
	maxLabelName = 64
	maxLabelKind = 16
)
