package runtime

import (
	"fmt"
	"slices"
	"strings"
)

// Tier is how much a call may do, for approval policies that treat a
// read differently from a command. Tiers are ordered: a later one may do
// what an earlier one does and more, and TierUnknown, which nothing
// declared, is the highest of all, because an undeclared call may do
// anything.
//
// TierUnknown is the zero value, and the constants are numbered so that
// plain comparisons fail closed: a policy written as
//
//	if desc.Tier >= runtime.TierWrite { ask() }
//
// asks for an unknown call too, as it does with AtLeast, and Go's max of
// two tiers is unknown when either is. A Tier that is none of the
// constants (a conversion from a number) counts as unknown in every method.
type Tier int8

// The tiers, lowest first; TierUnknown, the zero value, is the highest.
const (
	TierRead    Tier = iota - 4 // reads local state and changes nothing
	TierWrite                   // changes local state: files, memory, a database
	TierNetwork                 // reaches beyond the machine: fetches, posts, sends
	TierExecute                 // runs code or commands, which may do anything
	TierUnknown                 // nothing declares it: treated as the riskiest
)

// Known reports whether t is one of the declared tiers: read, write,
// network or execute.
func (t Tier) Known() bool { return t >= TierRead && t < TierUnknown }

// rank orders tiers by what a call of the tier may do, from 0 for read;
// anything that is not a known tier ranks highest.
func (t Tier) rank() int {
	if !t.Known() {
		return int(TierUnknown - TierRead)
	}
	return int(t - TierRead)
}

// AtLeast reports whether a call of tier t may do what a call of tier u
// does: whether a policy that asks for u must ask for t. An unknown t is at
// least any tier.
func (t Tier) AtLeast(u Tier) bool { return t.rank() >= u.rank() }

// MaxTier returns the tier of calls made together, or of one call that
// several statements describe: the highest, and TierUnknown when any is
// unknown (or when there are none, since then nothing declared it).
func MaxTier(tiers ...Tier) Tier {
	if len(tiers) == 0 {
		return TierUnknown
	}
	m := TierRead
	for _, t := range tiers {
		if t.rank() > m.rank() {
			m = t
		}
	}
	if !m.Known() {
		return TierUnknown
	}
	return m
}

var tierNames = [...]string{"read", "write", "network", "execute"}

// String returns the tier's name: "read", "write", "network", "execute",
// or "unknown" for TierUnknown.
func (t Tier) String() string {
	switch {
	case t.Known():
		return tierNames[t.rank()]
	case t == TierUnknown:
		return "unknown"
	}
	return fmt.Sprintf("Tier(%d)", int8(t))
}

// ErrInvalidTier matches the error of ParseTier.
var ErrInvalidTier = fmt.Errorf("invalid tier")

// ParseTier returns the tier named s: read, write, network or execute.
// "unknown" is not a tier a catalog can declare, and is an error too.
func ParseTier(s string) (Tier, error) {
	for i, name := range tierNames {
		if name == s {
			return TierRead + Tier(i), nil
		}
	}
	return TierUnknown, fmt.Errorf("%w %q: want %s", ErrInvalidTier, s, strings.Join(TierNames(), ", "))
}

// TierNames returns the names of the known tiers, lowest first.
func TierNames() []string { return slices.Clone(tierNames[:]) }

// MarshalText returns the tier's name, and "" for TierUnknown: the JSON
// form of an unknown tier stays the empty string that consumers of the
// command line's JSON output already read.
func (t Tier) MarshalText() ([]byte, error) {
	if t == TierUnknown {
		return []byte{}, nil
	}
	return []byte(t.String()), nil
}

// UnmarshalText reads a tier's name; "" and "unknown" are TierUnknown.
func (t *Tier) UnmarshalText(b []byte) error {
	if len(b) == 0 || string(b) == "unknown" {
		*t = TierUnknown
		return nil
	}
	v, err := ParseTier(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// combined returns the tier of calls of tiers t and u made together: the
// higher one, or TierUnknown when either is unknown.
func combined(t, u Tier) Tier { return MaxTier(t, u) }

// stricter returns the higher of two statements about one call's tier,
// ignoring one that says nothing (TierUnknown): a server's annotations can
// raise the tier a catalog declares, never lower it, and the other way
// round.
func stricter(t, u Tier) Tier {
	switch {
	case t == TierUnknown:
		return u
	case u == TierUnknown:
		return t
	}
	return MaxTier(t, u)
}

// Annotations are the hints an MCP server gives about a tool (the
// protocol's ToolAnnotations). A nil field is absent and takes the
// protocol's default: not read-only, destructive, open world.
type Annotations struct {
	Title           string `json:"title,omitempty"` // the tool's display name
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// Tier returns the tier the hints describe: TierNetwork for a tool that
// reaches an open world (the default), else TierRead for a read-only one
// and TierWrite for any other. A nil Annotations says nothing.
func (a *Annotations) Tier() Tier {
	switch {
	case a == nil:
		return TierUnknown
	case a.OpenWorldHint == nil || *a.OpenWorldHint:
		return TierNetwork
	case a.ReadOnlyHint != nil && *a.ReadOnlyHint:
		return TierRead
	}
	return TierWrite
}
