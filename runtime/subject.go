package runtime

import (
	"strings"
	"unsafe"

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
	json     inputJSON
	// scrub holds the credentials the call carries, once scrubbed is set
	// (see scrubber).
	scrub    *textfmt.Scrubber
	scrubbed bool
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
	if d.reg == nil {
		return s
	}
	regs := d.reg.load()
	if !isMCP(c) {
		s.keys[0] = lookup{reg: regs[c.Tool], tool: c.Tool, input: in.Object()}
		s.n = 1
		return s
	}
	target, args, envelope := mcpArgs(c, in)
	s.target, s.args, s.umbrella = target, args, envelope
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
	return Request{Tool: s.keys[i].tool, Input: s.input(i), Limits: limits}
}

// inputJSON is a call's input serialized once for the default preview and
// the log context, which show it at their own limits.
type inputJSON struct {
	in    value.Input
	limit int // the largest limit it is serialized for
	js    textfmt.InputJSON
	made  bool
}

// minFieldsRoom is the least room in which the default previews show an
// input whose JSON does not fit by its fields (textfmt.Fields): room for a
// key and the start of its value with what its cut leaves out. A smaller
// room shows the JSON cut, as the reference does.
const minFieldsRoom = 40

// show returns prefix and the input as default previews show it: its
// compact JSON when that has at most limit characters (see
// textfmt.InputJSON), else its fields fitted to room characters (see
// textfmt.Fields); "" when the JSON is empty. json reports that the text
// is the JSON. Text that is not JSON is shown as it is, cut at limit.
func (x *inputJSON) show(prefix string, limit, room int) (text string, json bool) {
	if x.in.Err != nil {
		text := textfmt.TruncateText(x.in.Raw, limit)
		if text == "" {
			return "", false
		}
		return prefix + text, false
	}
	if !x.made || x.js.Max() < limit {
		x.js, x.made = textfmt.NewInputJSON(x.in.Value, max(x.limit, limit)), true
	}
	if x.js.Fits(limit) || room < minFieldsRoom {
		return x.js.Cut(prefix, limit), true
	}
	out := make([]byte, 0, len(prefix)+4*room+64)
	out = textfmt.AppendFields(append(out, prefix...), x.in.Value, room)
	return unsafe.String(unsafe.SliceData(out), len(out)), false
}
