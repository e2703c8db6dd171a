package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
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
}

// Description is everything the dispatcher says about one call.
type Description struct {
	Preview Preview
	Prompt  string
	Log     LogContext
	// Tier is the call's approval tier: what its catalog entry declares,
	// raised by the MCP annotations the call carries. For a wrapper whose
	// calls are shown it is the combined tier of the calls it carries (the
	// highest, or TierUnknown when any is unknown or not inspected).
	Tier Tier
	// Calls are the calls a wrapper carries, as its preview shows them;
	// Hidden counts those it carries and does not show (beyond
	// MaxInnerCalls). Both are empty for a call that is not a wrapper.
	Calls  []WrappedCall
	Hidden int
}

// ErrPanic matches the error of a Failure whose formatter panicked.
var ErrPanic = errors.New("formatter panicked")

// Failure reports a formatter that returned an error or panicked. The
// dispatcher used the default preview for that call instead. A failure
// affects its own call only: the registration stays in force for the next
// call, because a model could otherwise switch a formatter off by sending
// input that makes it fail a few times.
//
// A failure is an output too: the call's tool name and the message of Err
// are redacted by the one rule, as the other outputs are (a formatter's
// error may quote the input it failed on), though not made safe text. The
// errors Err wraps, which errors.Is and errors.As reach, are the
// formatter's own.
type Failure struct {
	Tool  string // the call's tool name, redacted
	Key   string // the registry key whose formatter failed
	Owner string // the registration's owner
	Err   error  // what went wrong; errors.Is(Err, ErrPanic) for a panic
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
}

// Dispatcher turns tool calls into previews, ask-prompt sentences and log
// contexts, with the wording of the reference implementation. It consults
// its registry first and falls back to the default previews. A call whose
// formatter is an Unwrapper is shown as the calls it carries (see
// MaxWrapDepth and MaxInnerCalls), and each call has the tier its
// formatter declares (a Tierer), raised by its MCP annotations. It is safe
// for concurrent use.
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
	latch     latch // slots that failed on finished calls
}

// NewDispatcher returns a dispatcher that consults reg, or an error when
// opts.Limits is invalid.
func NewDispatcher(reg *Registry, opts Options) (*Dispatcher, error) {
	limits, err := opts.Limits.WithDefaults()
	if err != nil {
		return nil, err
	}
	return &Dispatcher{reg: reg, limits: limits, logger: opts.Logger, onFailure: opts.OnFailure, showTier: opts.ShowTier, icons: opts.Icons}, nil
}

// Limits returns the limits in force.
func (d *Dispatcher) Limits() Limits { return d.limits }

// Preview returns the preview of a call's input: what its registered
// formatter returns, or the default preview when none is registered or it
// declines or fails. A wrapper call is shown as the calls it carries.
// Prompt text policy (Reveal) applies.
func (d *Dispatcher) Preview(c Call) Preview {
	s := d.subject(c, value.DecodeInput(c.Input), d.limits.Preview)
	n := d.inspect(&s, false)
	return n.preview(d)
}

// Prompt returns the ask-prompt sentence for a call.
func (d *Dispatcher) Prompt(c Call) string {
	if c.Tool == "bash" {
		// The sentence shows the command, not the input: the input is read
		// for the tier alone, when the sentence shows it.
		tier := TierUnknown
		if d.showTier {
			s := d.subject(c, value.DecodeInput(c.Input), d.limits.Preview)
			tier = d.tier(&s)
		}
		return d.prompt(c, value.Input{}, "", tier)
	}
	s := d.subject(c, value.DecodeInput(c.Input), d.limits.Preview)
	n := d.inspect(&s, d.showTier)
	return d.prompt(c, s.in, n.preview(d).Text, n.tier)
}

// Log returns the log context of a call.
func (d *Dispatcher) Log(c Call) LogContext {
	s := d.subject(c, value.DecodeInput(c.Input), d.jsonLimit(c))
	n := d.inspect(&s, false)
	return d.logContext(&s, n, func() string { return n.preview(d).Text })
}

// Describe returns the preview, the ask-prompt sentence, the log context,
// the tier and the wrapped calls of a call, decoding its input once, and
// looking it up and serializing it once for all of them.
func (d *Dispatcher) Describe(c Call) Description {
	s := d.subject(c, value.DecodeInput(c.Input), d.jsonLimit(c))
	n := d.inspect(&s, true)
	preview := n.preview(d)
	prompt := preview.Text
	if c.Tool == "bash" {
		prompt = ""
	}
	return Description{
		Preview: preview,
		Prompt:  d.prompt(c, s.in, prompt, n.tier),
		Log:     d.logContext(&s, n, func() string { return preview.Text }),
		Tier:    n.tier,
		Calls:   n.wrappedCalls(d),
		Hidden:  n.hidden,
	}
}

// rawPreview is a preview before sanitizing.
type rawPreview struct {
	Preview
	json bool // Text is the default preview: compact JSON (see revealJSON)
	// unread are the fields of the input that the formatter did not read
	// (see FieldReader), shown after its text.
	unread *value.Object
	// scrub holds the credentials of the call Text was written from.
	scrub *textfmt.Scrubber
}

func (d *Dispatcher) safePreview(raw rawPreview) Preview {
	if raw.json {
		return Preview{Text: d.fitBytes(revealJSON(scrub(raw.scrub, raw.Text), d.limits.Output))}
	}
	text := scrubbedText(raw.scrub, raw.Text, Reveal, d.limits.Output)
	if raw.unread != nil {
		text = d.withUnread(text, raw.unread, raw.scrub)
	}
	return Preview{Text: d.fitBytes(text), Formatter: raw.Formatter}
}

// fitBytes cuts sanitized text to Limits.OutputBytes, when set.
func (d *Dispatcher) fitBytes(s string) string {
	if d.limits.OutputBytes > 0 {
		return textfmt.TruncateBytes(s, d.limits.OutputBytes)
	}
	return s
}

// isMCP reports whether a call goes to an MCP server.
func isMCP(c Call) bool { return c.Source == "mcp" || c.Tool == "mcp" }

// rawPreview returns the unsanitized preview text of a call, with the
// credentials of the call when it has any text.
func (d *Dispatcher) rawPreview(s *subject) rawPreview {
	raw := d.unscrubbed(s)
	if raw.Text != "" {
		raw.scrub = s.scrubber()
	}
	return raw
}

func (d *Dispatcher) unscrubbed(s *subject) rawPreview {
	if d.reg == nil {
		return rawPreview{}
	}
	if isMCP(s.c) {
		return d.mcpPreview(s)
	}
	if reg := s.keys[0].reg; reg != nil {
		if raw, ok := d.format(reg, s, s.request(0, d.limits)); ok {
			return raw
		}
	}
	text, json := d.defaultPreview(s)
	return rawPreview{Preview: Preview{Text: text}, json: json}
}

// defaultPreview is "with input " and the input's compact JSON when that
// has at most Limits.Preview characters, as in the reference; otherwise
// "with input " and the input's fields within Limits.Output (see
// textfmt.Fields): every field has a fair share of the room, so a model
// cannot push the path of a write out of the preview by sending a
// megabyte of content before it, nor hide a nested value or a list item
// behind {…} or a count. It is "" when the JSON is empty; text that is not
// JSON is shown as it is. json reports that the text is the JSON.
func (d *Dispatcher) defaultPreview(s *subject) (text string, json bool) {
	const prefix = "with input "
	return s.json.show(prefix, d.limits.Preview, d.limits.Output-len(prefix))
}

// inputText is the input as default previews show it, at a limit of n
// characters: compact JSON, its fields, or the text itself when it is not
// JSON.
func inputText(in value.Input, n int) string {
	js := inputJSON{in: in, limit: n}
	text, _ := js.show("", n, n)
	return text
}

// jsonLimit returns the largest cut of a call's input JSON that its
// default preview and its log context may make: the log context shows
// the input's JSON for every tool but bash, MCP calls and the path tools,
// which show their preview.
func (d *Dispatcher) jsonLimit(c Call) int {
	if d.reg == nil || c.Tool == "bash" || isMCP(c) || isPathTool(c.Tool) {
		return d.limits.Preview
	}
	return max(d.limits.Preview, d.limits.Log)
}

// mcpPreview consults the registrations for "server:tool", "server:*" and
// "mcp" in that order, until one returns text. Server registrations receive
// the call's arguments; the umbrella "mcp" receives {"tool", "arguments"}.
// When none returns text there is no preview: the prompt already names the
// target.
func (d *Dispatcher) mcpPreview(s *subject) rawPreview {
	for i, k := range s.lookups() {
		if k.reg == nil {
			continue
		}
		var shown []string
		if k.umbrella {
			shown = umbrellaShown
		}
		if raw, ok := d.format(k.reg, s, s.request(i, d.limits), shown...); ok {
			return raw
		}
	}
	return rawPreview{}
}

// umbrellaShown are the fields of the umbrella object that an MCP call's
// prompt shows: its target names the tool.
var umbrellaShown = []string{"tool"}

// format runs the preview of a registration, with the fields of the input
// it did not read; ok is false when it declines, fails, or reads none of
// the fields the input has (see FieldReader).
// shown are the fields of the input that the prompt shows around the
// preview.
func (d *Dispatcher) format(reg *registration, s *subject, req Request, shown ...string) (raw rawPreview, ok bool) {
	unread, declines := reg.accounting.unread(req.Input, shown...)
	if declines {
		return rawPreview{}, false
	}
	text, ok := d.run(reg, s, req)
	if !ok {
		return rawPreview{}, false
	}
	return rawPreview{Preview: Preview{Text: text, Formatter: reg.owner}, unread: unread}, true
}

// mcpInput returns an MCP call's target, its arguments and the umbrella form
// {"tool": target, "arguments": arguments} (see mcpArgs).
func mcpInput(c Call, in value.Input) (target string, args, umbrella *value.Object) {
	target, args, umbrella = mcpArgs(c, in)
	if umbrella == nil {
		umbrella = umbrellaOf(target, args)
	}
	return target, args, umbrella
}

// mcpArgs returns an MCP call's target, its arguments and, when its input
// is one, the umbrella form {"tool": target, "arguments": arguments}. An
// input that is an envelope (an object whose "arguments" is an object) is
// the umbrella form as it is, and its "arguments" are the arguments: a call
// to the umbrella tool "mcp" carries one, and so may a direct call
// ("server:tool" with source mcp). Any other input of a direct call is the
// arguments themselves, and umbrella is nil: umbrellaOf builds it.
func mcpArgs(c Call, in value.Input) (target string, args, umbrella *value.Object) {
	obj := in.Object()
	args, envelope := field(obj, "arguments").(*value.Object)
	if c.Tool == "mcp" {
		if !envelope {
			args = &value.Object{}
		}
		return mcpTarget(c, obj), args, obj
	}
	target = c.Target
	if target == "" {
		target = c.Tool
	}
	if envelope {
		return target, args, obj
	}
	return target, obj, nil
}

// umbrellaOf returns the umbrella form of a direct MCP call.
func umbrellaOf(target string, args *value.Object) *value.Object {
	return value.ObjectOf([]string{"tool", "arguments"}, []any{strings.ToValidUTF8(target, "\uFFFD"), args})
}

// mcpTarget returns the "server:tool" an MCP call goes to: the call's
// target, else, for the umbrella tool, the tool its input names.
func mcpTarget(c Call, input *value.Object) string {
	if c.Target != "" || c.Tool != "mcp" {
		return c.Target
	}
	target, _ := textfmt.NonEmptyString(field(input, "tool"))
	return target
}

// field returns the value of key, or nil.
func field(o *value.Object, key string) any {
	v, _ := o.Get(key)
	return v
}

// run calls the formatter of a subject's key, turning errors and panics
// into a decline that is reported.
func (d *Dispatcher) run(reg *registration, s *subject, req Request) (text string, ok bool) {
	out, err := guard(func() (formatted, error) {
		text, ok, err := reg.formatter.Format(req)
		return formatted{text, ok}, err
	})
	if err != nil {
		d.fail(reg, s.c.Tool, err, s.scrubber())
		return "", false
	}
	return out.text, out.ok
}

type formatted struct {
	text string
	ok   bool
}

// guard calls f, turning a panic into an error that matches ErrPanic.
func guard[T any](f func() (T, error)) (out T, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero T
			out, err = zero, fmt.Errorf("%w: %v", ErrPanic, p)
		}
	}()
	return f()
}

// fail reports a failure of a formatter on a call whose credentials sc
// holds: they are redacted from the tool name and the error's message.
func (d *Dispatcher) fail(reg *registration, tool string, err error, sc *textfmt.Scrubber) {
	reg.failures.Add(1)
	f := Failure{Tool: scrub(sc, tool), Key: reg.key, Owner: reg.owner, Err: redactError(sc, err)}
	err = f.Err
	if d.logger != nil {
		d.logger.LogAttrs(context.Background(), slog.LevelWarn, "formatter failed",
			slog.String("tool", f.Tool), slog.String("key", f.Key), slog.String("owner", f.Owner),
			slog.String("error", err.Error()))
	}
	if d.onFailure != nil {
		d.onFailure(f)
	}
}

// prompt builds the ask-prompt sentence around a sanitized preview. An MCP
// call always names its target: a call to the umbrella tool without one
// names the tool its input carries, so the person learns which server tool
// runs even when the check did not say.
func (d *Dispatcher) prompt(c Call, in value.Input, preview string, tier Tier) string {
	// The pieces are sanitized first, so that the sentence is written
	// into one allocation of the size it needs.
	agent, pattern := d.safe(c.Agent), d.safe(c.MatchedPattern)
	name, requested := "", " requested MCP target '" // the command, target or tool
	switch {
	case c.Tool == "bash":
		name, requested = d.safe(c.Command), " requested bash command '"
	case isMCP(c):
		name = d.safe(mcpTarget(c, in.Object()))
	}
	if name == "" && c.Tool != "bash" {
		name, requested = d.safe(c.Tool), " requested tool '"
	}
	var b strings.Builder
	b.Grow(len(agent) + len(pattern) + len(name) + len(preview) + promptWords)
	if agent != "" {
		b.WriteString("Agent '")
		b.WriteString(agent)
		b.WriteString("'")
	} else {
		b.WriteString("Current agent")
	}
	b.WriteString(requested)
	b.WriteString(name)
	b.WriteString("'")
	if pattern != "" {
		b.WriteString(" (matched '")
		b.WriteString(pattern)
		b.WriteString("')")
	}
	if preview != "" && c.Tool != "bash" {
		b.WriteString(" ")
		b.WriteString(preview)
	}
	d.writeTier(&b, tier)
	if c.Tool == "bash" {
		b.WriteString(". Allow this command?")
	} else {
		b.WriteString(". Allow this call?")
	}
	return b.String()
}

// promptWords is room for the words of a prompt sentence around its
// pieces, at most: "Current agent", " requested bash command", the quotes,
// " (matched)", " [tier unknown]" and ". Allow this command?".
const promptWords = 96

// writeTier writes " [tier]" when the host asked for tiers in prompts.
func (d *Dispatcher) writeTier(b *strings.Builder, tier Tier) {
	if !d.showTier {
		return
	}
	if tier == TierUnknown {
		b.WriteString(" [tier unknown]")
		return
	}
	b.WriteString(" [")
	b.WriteString(tier.String())
	b.WriteString("]")
}

// safe sanitizes a piece of a prompt sentence.
func (d *Dispatcher) safe(s string) string { return d.fitBytes(outputText(s, Reveal, d.limits.Output)) }

// pathTools are the tools whose log context carries their preview.
func isPathTool(tool string) bool {
	switch tool {
	case "read", "write", "edit", "find", "grep", "ls":
		return true
	}
	return false
}

// logContext returns the log context of an inspected call; wrapped returns
// its preview, for a wrapper shown as the calls it carries.
func (d *Dispatcher) logContext(s *subject, n node, wrapped func() string) LogContext {
	texts := [4]string{
		d.logText(s.c.Command), d.logText(s.c.Target), d.logPreview(s, n, wrapped), d.logText(s.c.Origin),
	}
	if texts == [4]string{} {
		return LogContext{}
	}
	// The values that are present share one allocation.
	kept := new([4]string)
	*kept = texts
	present := func(i int) *string {
		if kept[i] == "" {
			return nil
		}
		return &kept[i]
	}
	return LogContext{Command: present(0), Target: present(1), ToolInputPreview: present(2), Origin: present(3)}
}

// logText returns text as a log context shows it: stripped, cut at the
// log limit; "" is absent.
func (d *Dispatcher) logText(text string) string { return outputText(text, Strip, d.limits.Log) }

// logPreview returns the input preview of a log context, "" when absent.
func (d *Dispatcher) logPreview(s *subject, n node, wrapped func() string) string {
	c := s.c
	switch {
	case d.reg == nil || c.Tool == "bash" || isMCP(c):
		return ""
	case isPathTool(c.Tool) && n.unwrapped():
		return d.logText(wrapped())
	case isPathTool(c.Tool):
		return scrubbedText(n.raw.scrub, n.raw.Text, Strip, d.limits.Log)
	}
	js, _ := s.json.show("input ", d.limits.Log, d.limits.Log)
	if js == "" {
		return ""
	}
	return scrubbedText(s.scrubber(), js, Strip, len("input ")+d.limits.Log+1)
}

// redactedError is an error whose message is redacted (see scrub); it
// wraps the error it was redacted from.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redactError returns err with its message redacted: the credentials sc
// holds and those the rule finds in it replaced by their size. It returns
// err itself when there are none.
func redactError(sc *textfmt.Scrubber, err error) error {
	msg := err.Error()
	if r := scrub(sc, msg); r != msg {
		return &redactedError{msg: r, err: err}
	}
	return err
}
