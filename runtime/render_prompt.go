package runtime

import (
	"strings"

	"github.com/permgen/permgen/runtime/textfmt"
)

// prompt builds the ask-prompt sentence around a sanitized preview. An MCP
// call always names its target: a call to the umbrella tool without one
// names the tool its input carries, so the person learns which server tool
// runs even when the check did not say. When the envelope of an MCP call
// names another tool than its target (envTool), the sentence names that
// tool too: it is what the umbrella runs.
// sc holds the credentials the call carries.
func (d *Dispatcher) prompt(c Call, sc *textfmt.Scrubber, named, envTool, preview string, tier Tier) string {
	// The pieces are sanitized first, so that the sentence is written
	// into one allocation of the size it needs.
	agent, pattern := d.safe(sc, c.Agent), d.safe(sc, c.MatchedPattern)
	name, requested := "", " requested MCP target '" // the command, target or tool
	other := ""
	switch {
	case c.Tool == "bash":
		name, requested = d.safe(sc, c.Command), " requested bash command '"
	case isMCP(c):
		name = d.safeName(sc, named)
		if envTool != "" {
			other = d.safeName(sc, envTool)
		}
	}
	if name == "" && c.Tool != "bash" {
		name, requested = d.safeName(sc, c.Tool), " requested tool '"
	}
	var b strings.Builder
	extra := 0
	if other != "" {
		extra = len(envelopeNames) + len(other) + len("')")
	}
	b.Grow(len(agent) + len(pattern) + len(name) + extra + len(preview) + promptWords)
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
	if other != "" {
		b.WriteString(envelopeNames)
		b.WriteString(other)
		b.WriteString("')")
	}
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

// envelopeNames leads the tool that an MCP call's envelope names when it
// is not the call's target.
const envelopeNames = " (envelope names '"

// promptWords is room for the words of a prompt sentence around its
// pieces, at most: "Current agent", " requested bash command", the quotes,
// " (matched)", " [tier unknown]" and ". Allow this command?".
const promptWords = 96

// writeTier writes " [tier]" when the host asked for tiers in prompts.
func (d *Dispatcher) writeTier(b *strings.Builder, tier Tier) {
	if !d.showTier {
		return
	}
	if !tier.Known() {
		b.WriteString(" [tier unknown]")
		return
	}
	b.WriteString(" [")
	b.WriteString(tier.String())
	b.WriteString("]")
}

// label names a carried call in its wrapper's preview.
func (d *Dispatcher) label(s *subject, kind string) string {
	c := s.c
	if isMCP(c) {
		if target := s.named; target != "" {
			return "MCP target '" + outputText(target, Reveal, maxLabelName) + "'"
		}
	}
	kind = outputText(kind, Reveal, maxLabelKind)
	if kind == "" {
		kind = "tool"
	}
	return kind + " '" + outputText(c.Tool, Reveal, maxLabelName) + "'"
}

// Bounds of a label, in characters: room for any real tool name.
const (
	maxLabelName = 64
	maxLabelKind = 16
)

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
func (d *Dispatcher) logContext(s *subject, n *node, wrapped func() string) LogContext {
	sc := s.scrubber()
	texts := [4]string{
		d.logText(sc, s.c.Command), d.logText(sc, s.c.Target), d.logPreview(s, n, wrapped), d.logText(sc, s.c.Origin),
	}
	override := d.logText(sc, s.override(n))
	if texts == [4]string{} && override == "" {
		return LogContext{}
	}
	// The values that are present share one allocation.
	kept := new([5]string)
	copy(kept[:], texts[:])
	kept[4] = override
	present := func(i int) *string {
		if kept[i] == "" {
			return nil
		}
		return &kept[i]
	}
	return LogContext{Command: present(0), Target: present(1), ToolInputPreview: present(2), Origin: present(3), Override: present(4)}
}

// logText returns text as a log context shows it: the credentials the
// call carries (sc) replaced, stripped, cut at the log limit; "" is
// absent.
func (d *Dispatcher) logText(sc *textfmt.Scrubber, text string) string {
	return scrubbedText(sc, text, Strip, d.limits.Log)
}

// logPreview returns the input preview of a log context, "" when absent.
func (d *Dispatcher) logPreview(s *subject, n *node, wrapped func() string) string {
	c := s.c
	switch {
	case d.reg == nil || c.Tool == "bash" || isMCP(c):
		return ""
	case isPathTool(c.Tool) && n.unwrapped():
		// The calls the preview shows were scrubbed of their own
		// credentials; the wrapper's input may name more.
		return d.logText(s.scrubber(), wrapped())
	case isPathTool(c.Tool):
		return safeRedacted(n.raw.scrubbed(), Strip, d.limits.Log)
	}
	js, _ := s.json.show("input ", d.limits.Log, d.limits.Log)
	if js == "" {
		return ""
	}
	if s.isPlain() {
		return safeRedacted(js, Strip, len("input ")+d.limits.Log+1)
	}
	return scrubbedText(s.scrubber(), js, Strip, len("input ")+d.limits.Log+1)
}
