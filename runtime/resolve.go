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
	c  Call
	in value.Input
	// keys are the keys the call is looked up under, n of them; for an
	// MCP call whose envelope names another tool than its target, the
	// keys of that tool follow, up to m (see envTool).
	keys [5]lookup
	n, m int
	// upper holds, for a registry with layers, each layer's registrations
	// of the same keys, the topmost layer first: upper[j][i] is layer j's
	// registration of keys[i], or nil. Nil without layers.
	upper [][5]*registration
	// by is the registration whose preview answered, once answer found
	// one.
	by *registration
	// umbrella is the {"tool", "arguments"} object of a direct MCP call,
	// built when a formatter of the umbrella key first needs it.
	umbrella *value.Object
	target   string        // for an MCP call, its "server:tool"
	args     *value.Object // for an MCP call, its arguments
	// named is the "server:tool" the prompt of an MCP call names: its
	// target, else the tool the input of the umbrella tool names (see
	// mcpTarget); "" when it names none.
	named string
	// envTool is the tool the envelope of an MCP call names when that is
	// not its target: the umbrella runs the tool its envelope names, so
	// the prompt names both and the call has the higher tier.
	envTool string
	json    inputJSON
	// scrub holds the credentials the call carries, once scrubbed is set
	// (see scrubber).
	scrub    *textfmt.Scrubber
	scrubbed bool
	// plain is set with scrubbed when the call's text holds nothing the
	// redaction rules start from (see plainCall): the JSON and the fields
	// the dispatcher writes of its input then need no scrubbing.
	plain bool
	// budget is what the description it belongs to may still spend; nil
	// outside an inspection.
	budget *Budget
}

// scrubber returns the credentials the call carries (see callSecrets),
// found on first use.
func (s *subject) scrubber() *textfmt.Scrubber {
	if !s.scrubbed {
		s.plain = secretShortcuts && plainCall(&s.c)
		if !s.plain {
			s.scrub = readSecrets(&s.c, s.in, nil)
		}
		s.scrubbed = true
	}
	return s.scrub
}

// isPlain reports whether the call is plain (see subject.plain).
func (s *subject) isPlain() bool {
	s.scrubber()
	return s.plain
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
	wildcard bool // the key is the "server:*" of tool
}

// subject returns the subject of a call, its registrations found in one
// snapshot of the registry. The default preview's JSON is serialized for
// cuts of up to jsonLimit characters.
func (d *Dispatcher) subject(c Call, in value.Input, jsonLimit int) subject {
	s := subject{c: c, in: in, json: inputJSON{in: in, limit: jsonLimit}}
	mcp := isMCP(c)
	if mcp {
		s.target, s.args, s.umbrella, s.envTool = mcpArgs(c, in)
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
		s.n, s.m = 1, 1
		s.layers(d.reg)
		return s
	}
	target, args, envelope := s.target, s.args, s.umbrella
	s.n = serverKeys(regs, s.keys[:0], target, args)
	tool := target
	if tool == "" {
		tool = "mcp"
	}
	s.keys[s.n] = lookup{reg: regs["mcp"], tool: tool, input: envelope, umbrella: true}
	s.n++
	s.m = s.n + serverKeys(regs, s.keys[s.n:s.n], s.envTool, args)
	s.layers(d.reg)
	return s
}

// layers looks the subject's keys up in the layers of reg, from the same
// snapshot of the list of layers.
func (s *subject) layers(reg *Registry) {
	upper := reg.upper()
	if len(upper) == 0 {
		return
	}
	s.upper = make([][5]*registration, len(upper))
	for j, l := range upper {
		t := l.load()
		for i := 0; i < s.m; i++ {
			s.upper[j][i] = t[s.keyName(i)]
		}
	}
}

// keyName returns the registry key of the i-th lookup.
func (s *subject) keyName(i int) string {
	k := &s.keys[i]
	switch {
	case k.umbrella:
		return "mcp"
	case k.wildcard:
		server, _, _ := strings.Cut(k.tool, ":")
		return server + ":*"
	}
	return k.tool
}

// depth is the number of layers the subject was looked up in, the
// registry at the bottom included.
func (s *subject) depth() int { return len(s.upper) + 1 }

// layerReg returns the registration of the i-th key in the j-th layer
// from the top, the bottom registry being the last; nil when it has none.
func (s *subject) layerReg(j, i int) *registration {
	if j < len(s.upper) {
		return s.upper[j][i]
	}
	return s.keys[i].reg
}

// layeredOver reports whether reg is a registration of a layer above the
// bottom, and some layer below it holds one of the keys the subject's
// preview is looked up under: its answer then stands in place of theirs.
func (s *subject) layeredOver(reg *registration) bool {
	for j := range s.upper {
		for i := 0; i < s.n; i++ {
			if s.upper[j][i] != reg {
				continue
			}
			for k := j + 1; k < s.depth(); k++ {
				for i2 := 0; i2 < s.n; i2++ {
					if s.layerReg(k, i2) != nil {
						return true
					}
				}
			}
			return false
		}
	}
	return false
}

// serverKeys appends to keys the lookups of an MCP tool "server:tool":
// its own key and its server's "server:*", and returns how many; none for
// a tool that names no server.
func serverKeys(regs map[string]*registration, keys []lookup, tool string, args *value.Object) int {
	server, _, ok := strings.Cut(tool, ":")
	if !ok || server == "" {
		return 0
	}
	// The key of the server's every tool is looked up without being
	// built: a map index by a converted []byte does not allocate.
	var buf [64]byte
	wildcard := append(append(buf[:0], server...), ":*"...)
	keys = append(keys,
		lookup{reg: regs[tool], tool: tool, input: args},
		lookup{reg: regs[string(wildcard)], tool: tool, input: args, wildcard: true})
	return len(keys)
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
	target, args, umbrella, _ = mcpArgs(c, in)
	if umbrella == nil {
		umbrella = umbrellaOf(target, args)
	}
	return target, args, umbrella
}

// mcpArgs returns an MCP call's target, its arguments, the umbrella form
// {"tool": target, "arguments": arguments} when its input is one, and the
// tool its envelope names when that is not the target (see subject.envTool).
//
// The input of an MCP call is what the model wrote, and may hold any keys:
// it is read as an envelope only when every key is one of an envelope's
// own (see isEnvelope), or when the host says it is one (Call.Envelope).
// Any other input is the arguments themselves, every field of it shown,
// and umbrella is nil: umbrellaOf builds it. Reading {"sql": "DROP TABLE
// users", "arguments": {"sql": "SELECT 1"}} as an envelope would show the
// SELECT while the server runs the DROP.
//
// A direct call ("server:tool" with source mcp) is an envelope only with
// an "arguments" object: {"tool": "hammer"} is an argument named tool. The
// umbrella tool "mcp" reads its input's "tool" whatever else it holds, so
// the tool it names is the target when the check gave none, and is named
// beside a target that differs.
func mcpArgs(c Call, in value.Input) (target string, args, umbrella *value.Object, envTool string) {
	obj := in.Object()
	args, isArgs := field(obj, "arguments").(*value.Object)
	umbrellaTool := c.Tool == "mcp"
	target = c.Target
	switch {
	case umbrellaTool:
		target = mcpTarget(c, obj)
		envTool = otherTool(target, obj)
	case target == "":
		target = c.Tool
	}
	if (c.Envelope || isEnvelope(obj)) && (isArgs || umbrellaTool) {
		if !isArgs {
			args = &value.Object{}
		}
		return target, args, obj, otherTool(target, obj)
	}
	return target, obj, nil, envTool
}

// isEnvelope reports whether every key of an object is one of an MCP
// envelope's own: the tool, its arguments, and the protocol's metadata,
// which says nothing of what the call does.
func isEnvelope(obj *value.Object) bool {
	for k := range obj.All() {
		switch k {
		case "tool", "arguments", "_meta":
		default:
			return false
		}
	}
	return true
}

// otherTool returns the tool an envelope names, when it names one and that
// is not target.
func otherTool(target string, envelope *value.Object) string {
	tool, ok := textfmt.NonEmptyString(field(envelope, "tool"))
	if !ok || tool == target {
		return ""
	}
	return tool
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

// override returns the owner of the registration that answered an MCP
// call, as inspected, in place of another owner's "server:*", or that
// answered a call from a layer above another registration of its keys;
// "" when none did.
func (s *subject) override(n *node) string {
	if n.answered && s.by != nil && s.layeredOver(s.by) {
		return s.by.owner
	}
	if !isMCP(s.c) || !n.answered || s.n < 3 {
		return ""
	}
	tool, server := s.keys[0].reg, s.keys[1].reg
	if tool == nil || server == nil || sameOwner(tool, server) || n.raw.Formatter != tool.owner {
		return ""
	}
	return tool.owner
}

// wrapper returns the j-th registration, counted from the topmost layer,
// that may unwrap the subject, or nil: the registration of its tool in
// that layer, when it is an Unwrapper. An MCP call is shown as its target,
// never unwrapped: the reference wording names it.
func (s *subject) wrapper(j int) *registration {
	if isMCP(s.c) || s.n == 0 {
		return nil
	}
	reg := s.layerReg(j, 0)
	if reg == nil {
		return nil
	}
	if _, ok := reg.formatter.(Unwrapper); ok {
		return reg
	}
	return nil
}

// unwraps reports whether a registration of any layer may unwrap the
// subject.
func (s *subject) unwraps() bool {
	for j := 0; j < s.depth(); j++ {
		if s.wrapper(j) != nil {
			return true
		}
	}
	return false
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
	}
	// Each layer answers before the one below it, the bottom last.
	for j := 0; j < s.depth(); j++ {
		if reg := s.layerReg(j, 0); reg != nil {
			if raw, ok := d.format(reg, s, s.request(0, d.limits)); ok {
				s.by = reg
				return raw, true
			}
		}
	}
	return rawPreview{}, false
}

// mcpPreview consults the registrations for "server:tool", "server:*" and
// "mcp" in that order, until one returns text. Server registrations receive
// the call's arguments; the umbrella "mcp" receives {"tool", "arguments"}.
// When none returns text there is no preview: the prompt already names the
// target.
//
// With layers, every key of a layer is consulted before any of the layer
// below: a host's "server:*" answers before the stock "server:tool", as
// pi-permission-system consults a registered formatter first for any tool.
func (d *Dispatcher) mcpPreview(s *subject) (rawPreview, bool) {
	for j := 0; j < s.depth(); j++ {
		for i, k := range s.lookups() {
			reg := s.layerReg(j, i)
			if reg == nil {
				continue
			}
			var shown []string
			if k.umbrella {
				shown = umbrellaShown
			}
			if raw, ok := d.format(reg, s, s.request(i, d.limits), shown...); ok {
				s.by = reg
				return raw, true
			}
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
	unread, declines := reg.accounts().unread(req.Input, shown...)
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

// tier returns the tier of a call that is shown as itself: the highest
// tier that the registrations of the keys it matches declare, raised by
// the call's annotations. Every key counts, not the first that declares
// one: a "server:tool" registered beside another owner's "server:*" must
// not make the server's call look safer than the server's entry says. An
// MCP call whose envelope names another tool than its target has the
// higher of the two tools' tiers, unknown when either is.
func (d *Dispatcher) tier(s *subject) Tier {
	declared, ok := d.declared(s, 0, s.n)
	if !ok {
		return TierUnknown
	}
	tier := stricter(declared, s.c.Annotations.Tier())
	if s.envTool == "" {
		return tier
	}
	// The annotations describe the target, not the tool the envelope
	// names.
	other, ok := d.declared(s, s.n, s.m)
	if !ok {
		return TierUnknown
	}
	return combined(tier, other)
}

// declared returns the highest tier that the registrations of the keys
// from..to declare (TierUnknown when none does); ok is false when one
// fails, which says nothing, whatever the others say.
func (d *Dispatcher) declared(s *subject, from, to int) (tier Tier, ok bool) {
	tier = TierUnknown
	// Every layer counts: a layer above the stock catalog can raise a
	// call's tier, never lower it.
	for j := 0; j < s.depth(); j++ {
		for i := from; i < to; i++ {
			reg := s.layerReg(j, i)
			if reg == nil {
				continue
			}
			t, isTierer := reg.formatter.(Tierer)
			if !isTierer {
				continue
			}
			req := s.request(i, d.limits)
			got, err := guard(func() (Tier, error) { return t.Tier(req) })
			if err != nil {
				d.fail(reg, s.c.Tool, fmt.Errorf("tier: %w", redactError(s.scrubber(), err)), s.scrubber())
				return TierUnknown, false
			}
			tier = stricter(tier, got)
		}
	}
	return tier, true
}
