package runtime

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
	// Annotations are the MCP hints of the tool that runs, when the
	// Unwrapper knows them (a device that mounts an MCP tool): they raise
	// the carried call's tier as Call.Annotations raise a call's. A device
	// call that carries none gets what Options.DeviceAnnotations knows.
	Annotations *Annotations
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
	// counts those not shown: beyond MaxInnerCalls or the bound of one
	// description, or all of them when it is nested MaxWrapDepth deep.
	Calls  []WrappedCall
	Hidden int
}
