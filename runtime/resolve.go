package runtime

import (
	"fmt"
	"strings"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// subject is a call being described, with what is worked out once for it
// however many of its preview, tier and log context ask: the registrations
// it is looked up under (an MCP call misses "server:tool" once, not once
// for its preview and again for its tier), the umbrella object an MCP
// formatter receives, and its input's compact JSON, which the default
// preview and the log context show at their own limits.
type subject struct {
	c    Call
	in   value.Input
	keys [3]lookup
	n    int // keys in use
	// umbrella is the {"tool", "arguments"} object of a direct MCP call,
	// built when a formatter of the umbrella key first needs it.
	umbrella *value.Object
	target   string        // for an MCP call, its "server:tool"
	args     *value.Object // for an MCP call, its arguments
	// named is the "server:tool" the prompt of an MCP call names: its
	// target, else the tool the input of the umbrella tool names (see
	// mcpTarget); "" when it names none.
	named string
	json  inputJSON
	// scrub holds the credentials the call carries, once scrubbed is set
	// (see scrubber).
	scrub    *textfmt.Scrubber
	scrubbed bool
	// budget is what the description it belongs to may still spend; nil
	// outside an inspection.
	budget *Budget
}

// scrubber returns the credentials the call carries (see callSecrets),
// found on first use.
func (s *subject) scrubber() *textfmt.Scrubber {
	if !s.scrubbed {
		s.scrub, s.scrubbed = callSecrets(&s.c, s.in, nil), true
	}
	return s.scrub
}

// lookup is a registry key a call is looked up under: its registration,
// or nil when the key has none, and the tool name its formatter receives.
type lookup struct {
	reg  *registration
	tool string
	// input is what the formatter receives; nil for the umbrella key of a
	// direct MCP call until subject.input builds it.
	input    *value.Object
	umbrella bool // the key is the umbrella "mcp" of an MCP call
}

// subject returns the subject of a call, its registrations found in one
// snapshot of the registry. The default preview's JSON is serialized for
// cuts of up to jsonLimit characters.
func (d *Dispatcher) subject(c Call, in value.Input, jsonLimit int) subject {
	s := subject{c: c, in: in, json: inputJSON{in: in, limit: jsonLimit}}
	mcp := isMCP(c)
	if mcp {
		s.target, s.args, s.umbrella = mcpArgs(c, in)
		s.named = c.Target
		if c.Tool == "mcp" {
			s.named = s.target
		}
	}
	if d.reg == nil {
		return s
	}
	regs := d.reg.load()
	if !mcp {
		s.keys[0] = lookup{reg: regs[c.Tool], tool: c.Tool, input: in.Object()}
		s.n = 1
		return s
	}
	target, args, envelope := s.target, s.args, s.umbrella
	if server, _, ok := strings.Cut(target, ":"); ok && server != "" {
		// The key of the server's every tool is looked up without being
		// built: a map index by a converted []byte does not allocate.
		var buf [64]byte
		wildcard := append(append(buf[:0], server...), ":*"...)
		s.keys[0] = lookup{reg: regs[target], tool: target, input: args}
		s.keys[1] = lookup{reg: regs[string(wildcard)], tool: target, input: args}
		s.n = 2
	}
	tool := target
	if tool == "" {
		tool = "mcp"
	}
	s.keys[s.n] = lookup{reg: regs["mcp"], tool: tool, input: envelope, umbrella: true}
	s.n++
	return s
}

// lookups returns the keys the subject is looked up under, in order.
func (s *subject) lookups() []lookup { return s.keys[:s.n] }

// input returns what the formatter of the i-th key receives.
func (s *subject) input(i int) *value.Object {
	k := &s.keys[i]
	if k.input == nil && k.umbrella {
		if s.umbrella == nil {
			s.umbrella = umbrellaOf(s.target, s.args)
		}
		k.input = s.umbrella
	}
	return k.input
}

// request returns the request of the i-th key's formatter.
func (s *subject) request(i int, limits Limits) Request {
	return Request{Tool: s.keys[i].tool, Input: s.input(i), Limits: limits, Budget: s.budget}
}

// isMCP reports whether a call goes to an MCP server.
func isMCP(c Call) bool { return c.Source == "mcp" || c.Tool == "mcp" }

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

// wrapper returns the registration that unwraps the subject, or nil. An
// MCP call is shown as its target, never unwrapped: the reference wording
// names it.
func (s *subject) wrapper() *registration {
	if isMCP(s.c) || s.n == 0 || s.keys[0].reg == nil {
		return nil
	}
	if _, ok := s.keys[0].reg.formatter.(Unwrapper); ok {
		return s.keys[0].reg
	}
	return nil
}

// answer runs the formatters a call is looked up under until one answers
// with text: the call's own, or for an MCP call those of "server:tool",
// "server:*" and "mcp" in that order (see mcpPreview). ok is false when
// none answers; the call then has the default preview (see renderTree), or
// none for an MCP call or a dispatcher without a registry.
func (d *Dispatcher) answer(s *subject) (raw rawPreview, ok bool) {
	switch {
	case d.reg == nil:
		return rawPreview{}, false
	case isMCP(s.c):
		return d.mcpPreview(s)
	case s.keys[0].reg != nil:
		return d.format(s.keys[0].reg, s, s.request(0, d.limits))
	}
	return rawPreview{}, false
}

// mcpPreview consults the registrations for "server:tool", "server:*" and
// "mcp" in that order, until one returns text. Server registrations receive
// the call's arguments; the umbrella "mcp" receives {"tool", "arguments"}.
// When none returns text there is no preview: the prompt already names the
// target.
func (d *Dispatcher) mcpPreview(s *subject) (rawPreview, bool) {
	for i, k := range s.lookups() {
		if k.reg == nil {
			continue
		}
		var shown []string
		if k.umbrella {
			shown = umbrellaShown
		}
		if raw, ok := d.format(k.reg, s, s.request(i, d.limits), shown...); ok {
			return raw, true
		}
	}
	return rawPreview{}, false
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

// tier returns the tier of a call that is shown as itself: the tier its
// registration declares, raised by the call's annotations.
func (d *Dispatcher) tier(s *subject) Tier {
	declared := TierUnknown
	for i, k := range s.lookups() {
		if k.reg == nil {
			continue
		}
		t, ok := k.reg.formatter.(Tierer)
		if !ok {
			continue
		}
		req := s.request(i, d.limits)
		tier, err := guard(func() (Tier, error) { return t.Tier(req) })
		if err != nil {
			d.fail(k.reg, s.c.Tool, fmt.Errorf("tier: %w", redactError(s.scrubber(), err)), s.scrubber())
			return TierUnknown // a failure says nothing, whatever else does
		}
		if tier != TierUnknown {
			declared = tier
			break
		}
	}
	return stricter(declared, s.c.Annotations.Tier())
}
