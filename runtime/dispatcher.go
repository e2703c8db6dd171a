package runtime

import (
	"log/slog"
)

// Call is one tool call waiting for permission, with what the permission
// check found. Only Tool is required; an empty field is absent.
type Call struct {
	Tool           string // tool name, exact and case-sensitive
	Input          any    // raw JSON ([]byte, json.RawMessage, string) or Go values
	Agent          string // the agent that made the call
	State          string // the check's state, such as "ask"
	Source         string // tool, bash, mcp, skill, special, default or session
	Target         string // for MCP calls, "server:tool"
	Command        string // for bash, the command
	MatchedPattern string // the permission pattern that matched
	Origin         string // where the matching rule came from
	// Envelope is set by a host whose direct MCP calls (source mcp, tool
	// "server:tool") carry the protocol's envelope {"tool", "arguments",
	// …} as their Input, built by the host itself: their "arguments"
	// object is then the arguments, whatever other keys the input has.
	// Without it, the input of a direct call is read as an envelope only
	// when its keys are an envelope's own ("tool", "arguments", "_meta");
	// any other input is the arguments, every field shown, since a model
	// that writes the arguments can add an "arguments" key of its own. A
	// call to the umbrella tool "mcp" always carries an envelope.
	Envelope bool
	// Annotations are the MCP server's hints about the tool, when it gave
	// any: they raise the call's tier (see Description.Tier), and their
	// title names the tool in rows.
	Annotations *Annotations
	// ID identifies the call across the frames of its row (the agent's
	// tool call id). A slot that fails on a finished call is not run for
	// that call again; without an ID every render runs it.
	ID string
	// Partial is set while the call's arguments are still arriving: Input
	// is a prefix of their JSON text, decoded as far as it goes.
	Partial bool
	// Cwd is the agent's working directory, an absolute path, when the
	// host knows it: a row shows a path inside it relative to it
	// (/src/app/main.go in /src/app reads main.go), as transcripts do.
	// Prompts and log contexts always show paths whole.
	Cwd string
}

// Preview is the preview of a call's input.
type Preview struct {
	Text string // safe text; "" when there is nothing to show
	// Formatter is the owner of the registration that produced Text, or ""
	// when the default preview did.
	Formatter string
}

// LogContext is the context of a permission decision for a log record. A
// nil field is absent.
type LogContext struct {
	Command          *string `json:"command"`
	Target           *string `json:"target"`
	ToolInputPreview *string `json:"toolInputPreview"`
	Origin           *string `json:"origin"`
	// Override is the owner of the registration that answered an MCP
	// call in place of another owner's "server:*" (one registered with
	// Entry.Override), so that a log says who reworded the call; nil
	// otherwise, and then the context has the reference's four keys.
	Override *string `json:"override,omitempty"`
}

// Description is everything the dispatcher says about one call.
type Description struct {
	Preview Preview
	Prompt  string
	Log     LogContext
	// Tier is the call's approval tier: the highest that the entries of
	// the keys it matches declare, raised by the MCP annotations the call
	// carries; TierUnknown, the highest of all, when nothing declares it. For a wrapper whose
	// calls are shown it is the combined tier of the calls it carries (the
	// highest, or TierUnknown when any is unknown or not inspected).
	Tier Tier
	// Calls are the calls a wrapper carries, as its preview shows them;
	// Hidden counts those it carries and does not show (beyond
	// MaxInnerCalls). Both are empty for a call that is not a wrapper.
	Calls  []WrappedCall
	Hidden int
}

// Options configure a Dispatcher.
type Options struct {
	Limits Limits
	// Logger receives a warning for each formatter failure when set,
	// redacted as the Failure is.
	Logger *slog.Logger
	// OnFailure is called for each formatter failure when set. It runs on
	// the goroutine that asked for the preview and must not block.
	OnFailure func(Failure)
	// ShowTier adds the call's tier to the ask-prompt sentence
	// ("… [network]. Allow this call?"), which otherwise keeps the
	// reference wording.
	ShowTier bool
	// Icons is the icon set of rows in the default and verbose modes.
	Icons Icons
	// DescriptionCost is the cost the formatters of one call and the
	// calls it carries may spend together (see Budget), 0 meaning
	// DefaultDescriptionCost.
	DescriptionCost uint64
	// DeviceAnnotations returns, when set, what the host knows of the
	// tool an oh-my-pi device mounts (the MCP hints of an MCP tool mounted
	// as xd://NAME), or nil: a carried call of kind "device" that carries
	// no annotations of its own is given them, and they raise its tier.
	// It runs on the goroutine that asked and must not block.
	DeviceAnnotations func(device string) *Annotations
}

// Dispatcher turns tool calls into previews, ask-prompt sentences and log
// contexts, with the wording of the reference implementation. It consults
// its registry first and falls back to the default previews. A call whose
// formatter is an Unwrapper is shown as the calls it carries (see
// MaxWrapDepth and MaxInnerCalls), and each call has the highest tier that
// the registrations it matches declare (Tierers), raised by its MCP
// annotations. It is safe for concurrent use.
//
// A Dispatcher without a registry shows no input previews at all: prompts
// carry no preview fragment and log contexts no input preview, as in the
// reference when no formatter is passed.
type Dispatcher struct {
	reg       *Registry
	limits    Limits
	logger    *slog.Logger
	onFailure func(Failure)
	showTier  bool
	icons     Icons
	latch     latch  // slots that failed on finished calls
	cost      uint64 // see Options.DescriptionCost
	// deviceAnnotations is Options.DeviceAnnotations.
	deviceAnnotations func(string) *Annotations
}

// NewDispatcher returns a dispatcher that consults reg, or an error when
// opts.Limits is invalid.
func NewDispatcher(reg *Registry, opts Options) (*Dispatcher, error) {
	limits, err := opts.Limits.WithDefaults()
	if err != nil {
		return nil, err
	}
	cost := opts.DescriptionCost
	if cost == 0 {
		cost = DefaultDescriptionCost
	}
	return &Dispatcher{reg: reg, limits: limits, logger: opts.Logger, onFailure: opts.OnFailure, showTier: opts.ShowTier, icons: opts.Icons,
		cost: cost, deviceAnnotations: opts.DeviceAnnotations}, nil
}

// Limits returns the limits in force.
func (d *Dispatcher) Limits() Limits { return d.limits }

// Preview returns the preview of a call's input: what its registered
// formatter returns, or the default preview when none is registered or it
// declines or fails. A wrapper call is shown as the calls it carries.
// Prompt text policy (Reveal) applies.
func (d *Dispatcher) Preview(c Call) Preview {
	s := d.subject(c, decode(c), d.limits.Preview)
	n := d.inspect(&s, false)
	d.renderTree(&n, &s)
	return n.preview(d)
}

// Prompt returns the ask-prompt sentence for a call.
func (d *Dispatcher) Prompt(c Call) string {
	if c.Tool == "bash" {
		// The sentence shows the command, not the input: the input is read
		// for the tier, when the sentence shows it, and for the
		// credentials it carries, when the sentence shows text the host
		// wrote and the input's text may hold one.
		written := c.Command != "" || c.Agent != "" || c.MatchedPattern != ""
		if !d.showTier && (!written || secretShortcuts && plainCall(&c)) {
			return d.prompt(c, nil, "", "", "", TierUnknown)
		}
		s := d.subject(c, decode(c), d.limits.Preview)
		tier := TierUnknown
		if d.showTier {
			tier = d.tier(&s)
		}
		return d.prompt(c, s.scrubber(), "", "", "", tier)
	}
	s := d.subject(c, decode(c), d.limits.Preview)
	n := d.inspect(&s, d.showTier)
	d.renderTree(&n, &s)
	return d.prompt(c, s.scrubber(), s.named, s.envTool, n.preview(d).Text, n.tier)
}

// Log returns the log context of a call.
func (d *Dispatcher) Log(c Call) LogContext {
	s := d.subject(c, decode(c), d.jsonLimit(c))
	n := d.inspect(&s, false)
	d.renderTree(&n, &s)
	return d.logContext(&s, &n, func() string { return n.preview(d).Text })
}

// Describe returns the preview, the ask-prompt sentence, the log context,
// the tier and the wrapped calls of a call.
//
// A call goes through five steps, each in its own file and each run once
// per call (and once per call it carries), whichever of the outputs ask
// for its result:
//
//  1. decode (decode.go): the input as a value.
//  2. resolve (resolve.go, resolve_wrap.go): the subject, with the
//     registry keys the call is looked up under in one snapshot, and for
//     an MCP call its target, arguments and umbrella object; then the
//     tree of what it does: the formatter that answers it, or the calls
//     it carries (each resolved the same way), and the tiers.
//  3. render (render_preview.go, render_prompt.go): the text of each call
//     shown as itself before sanitizing (the default preview, from the
//     input's JSON serialized once, where no formatter answered), and the
//     pieces of the prompt sentence and the log context.
//  4. make safe (safe_preview.go): the call's credentials, found once,
//     replaced; then safe text, revealed for the prompt, stripped for the
//     log.
//  5. fit (fit.go): the calls a wrapper carries share its limit, notes
//     say what is not shown, and text is cut to the byte cap.
func (d *Dispatcher) Describe(c Call) Description {
	s := d.subject(c, decode(c), d.jsonLimit(c))
	n := d.inspect(&s, true)
	d.renderTree(&n, &s)
	preview := n.preview(d)
	prompt := preview.Text
	if c.Tool == "bash" {
		prompt = ""
	}
	return Description{
		Preview: preview,
		Prompt:  d.prompt(c, s.scrubber(), s.named, s.envTool, prompt, n.tier),
		Log:     d.logContext(&s, &n, func() string { return preview.Text }),
		Tier:    n.tier,
		Calls:   n.wrappedCalls(d),
		Hidden:  n.hidden,
	}
}
