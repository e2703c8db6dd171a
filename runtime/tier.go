package runtime

import (
	"fmt"
	"strings"
)

// Tier is how much a call may do, for approval policies that treat a
// read differently from a command. Tiers are ordered: a later one may do
// what an earlier one does and more.
//
// TierUnknown, the zero value, means nothing declares the call's tier. A
// policy should treat it as the highest: when calls are combined (the
// calls a wrapper carries), one unknown makes the whole unknown.
type Tier uint8

// The tiers, lowest first.
const (
	TierUnknown Tier = iota
	TierRead         // reads local state and changes nothing
	TierWrite        // changes local state: files, memory, a database
	TierNetwork      // reaches beyond the machine: fetches, posts, sends
	TierExecute      // runs code or commands, which may do anything
)

var tierNames = [...]string{TierRead: "read", TierWrite: "write", TierNetwork: "network", TierExecute: "execute"}

// String returns the tier's name ("read", "write", "network", "execute"),
// or "" for TierUnknown.
func (t Tier) String() string {
	if int(t) < len(tierNames) {
		return tierNames[t]
	}
	return fmt.Sprintf("Tier(%d)", uint8(t))
}

// ErrInvalidTier matches the error of ParseTier.
var ErrInvalidTier = fmt.Errorf("invalid tier")

// ParseTier returns the tier named s: read, write, network or execute.
func ParseTier(s string) (Tier, error) {
	for t, name := range tierNames {
		if name != "" && name == s {
			return Tier(t), nil
		}
	}
	return TierUnknown, fmt.Errorf("%w %q: want %s", ErrInvalidTier, s, strings.Join(TierNames(), ", "))
}

// TierNames returns the names of the known tiers, lowest first.
func TierNames() []string { return []string{"read", "write", "network", "execute"} }

// MarshalText returns the tier's name, "" for TierUnknown.
func (t Tier) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a tier's name; "" is TierUnknown.
func (t *Tier) UnmarshalText(b []byte) error {
	if len(b) == 0 {
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
func combined(t, u Tier) Tier {
	if t == TierUnknown || u == TierUnknown {
		return TierUnknown
	}
	return max(t, u)
}

// stricter returns the higher of two statements about one call's tier,
// ignoring one that says nothing: a server's annotations can raise the
// tier a catalog declares, never lower it, and the other way round.
func stricter(t, u Tier) Tier { return max(t, u) }

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
