package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

const hookUsage = `Usage: permgen hook [flags] claude-code|gemini-cli|codex

Answers an agent's hook before a tool call runs, with permgen's text for
the call: the hook's JSON payload is read from standard input and the
answer, one JSON object, is written to standard output.

	claude-code   a PreToolUse hook: a call at or above --ask-from, or of
	              unknown tier, is answered "ask" with permgen's prompt as
	              permissionDecisionReason, which Claude Code shows in its
	              permission dialog
	gemini-cli    a BeforeTool hook: such a call is answered "ask" with
	              permgen's prompt as systemMessage, which Gemini CLI shows
	              the person; a release that does not act on "ask" goes on
	              to its own confirmation
	codex         a PreToolUse hook: as gemini-cli (Codex rejects "ask" from
	              a PreToolUse hook and shows systemMessage as a warning)

A call below --ask-from gets "{}": no decision, the agent's own rules apply.
permgen never answers "allow" or "deny". MCP tools ("mcp__server__tool")
are described by the catalog's "server:tool" entries.

A payload that cannot be read (empty, not JSON, a field missing or of the
wrong type, another hook event) is reported on standard error, answered
"{}" and exits 1, which all three agents take as a hook error that does
not block the call. A usage error exits 2, which blocks the call: a typo in
the settings is noticed at the first call rather than skipping permgen.

Flags:
`

// hookAgent is how one agent's hook asks and answers.
type hookAgent struct {
	agent runtime.Agent
	event string // the hook event it answers
	// head is the answer to a call that asks up to its text, which
	// follows as a JSON string, then tail: a fixed answer needs no
	// reflection on a struct in a process that answers once.
	head, tail string
}

// hookAgents are the agents permgen answers the hooks of, by the name
// the command takes.
var hookAgents = map[string]hookAgent{
	// https://code.claude.com/docs/en/hooks: PreToolUse output
	// hookSpecificOutput.permissionDecision "ask" shows
	// permissionDecisionReason to the user in the permission prompt.
	"claude-code": {runtime.AgentClaudeCode, "PreToolUse",
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":`, "}}\n"},
	// google-gemini/gemini-cli docs/hooks/reference.md: systemMessage is
	// "displayed immediately to the user in the terminal". Its
	// HookDecision (packages/core/src/hooks/types.ts) has "ask", which
	// releases that act on it answer with their confirmation prompt;
	// the others block only on "block" and "deny", and go on.
	"gemini-cli": {runtime.AgentGeminiCLI, "BeforeTool", `{"decision":"ask","systemMessage":`, "}\n"},
	// openai/codex codex-rs/hooks/src/engine/output_parser.rs:
	// permissionDecision "ask" is "unsupported" and fails the hook;
	// systemMessage becomes a warning entry of the hook's run.
	"codex": {runtime.AgentCodex, "PreToolUse", `{"systemMessage":`, "}\n"},
}

// hookAgentNames are the names hook takes, in the order usage lists them.
var hookAgentNames = []string{"claude-code", "gemini-cli", "codex"}

// appendAnswer appends the agent's answer to a call that asks, prompt
// being its text, and a newline.
func (a hookAgent) appendAnswer(b []byte, prompt string) []byte {
	b = append(b, a.head...)
	b = appendString(b, prompt)
	return append(b, a.tail...)
}

// noDecision is the answer that leaves the call to the agent's own flow.
const noDecision = "{}\n"

type hookFlags struct {
	registryFlags
	askFrom string
	limits  limitFlags
}

func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var opts hookFlags
	fs := newFlagSet("hook", hookUsage)
	fs.StringVar(&opts.askFrom, "ask-from", "write", "the lowest tier asked about, `write|network|execute`: calls of a lower tier get no decision (unknown is always asked)")
	opts.registryFlags.register(fs, "leave the compiled-in stock catalog out")
	opts.limits.register(fs, true)
	rest, code, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) != 1 {
		return usageError(stderr, "hook", "takes one agent (%s), got %d arguments", strings.Join(hookAgentNames, ", "), len(rest))
	}
	agent, ok := hookAgents[rest[0]]
	if !ok {
		return usageError(stderr, "hook", "unknown agent %q (known: %s)", rest[0], strings.Join(hookAgentNames, ", "))
	}
	askFrom, err := runtime.ParseTier(opts.askFrom)
	if err != nil || askFrom == runtime.TierRead {
		return usageError(stderr, "hook", "--ask-from must be write, network or execute, got %q", opts.askFrom)
	}
	if err := opts.limits.validate(); err != nil {
		return usageError(stderr, "hook", "%v", err)
	}
	command := "hook " + rest[0]
	// From here on nothing is a usage error: whatever goes wrong, the
	// agent's own flow goes on.
	fail := func(format string, args ...any) int {
		errorf(stderr, command, format, args...)
		io.WriteString(stdout, noDecision)
		return exitInvalid
	}
	payload, err := io.ReadAll(io.LimitReader(stdin, maxLineBytes+1))
	switch {
	case err != nil:
		return fail("reading the payload: %v", err)
	case len(payload) > maxLineBytes:
		return fail("payload longer than %d MiB", maxLineBytes>>20)
	}
	call, err := parseHookPayload(agent, payload)
	if err != nil {
		return fail("%v", err)
	}
	reg, ok := opts.registry(command, stderr)
	if !ok {
		io.WriteString(stdout, noDecision)
		return exitInvalid
	}
	var failures failureLog
	d, err := runtime.NewDispatcher(reg, runtime.Options{Limits: opts.limits.limits(), OnFailure: failures.add, ShowTier: true})
	if err != nil {
		return fail("%v", err)
	}
	desc := d.Describe(call)
	failures.report(stderr, "<stdin>", 1, d.Limits().Output)
	if !desc.Tier.AtLeast(askFrom) {
		io.WriteString(stdout, noDecision)
		return exitOK
	}
	// appendString writes "<" as it is, for whoever reads the answer in
	// a log; the prompt is safe text already.
	out := agent.appendAnswer(nil, desc.Prompt)
	stdout.Write(out)
	return exitOK
}

// parseHookPayload reads the call of a hook's payload: its event must be
// the one agent answers, tool_name a non-empty string and tool_input
// present (its value, whatever it is, is the call's input, as the
// dispatcher reads any input). For Gemini CLI, an mcp_context naming
// the server and the tool names the call's "server:tool".
func parseHookPayload(agent hookAgent, payload []byte) (runtime.Call, error) {
	if len(bytes.TrimSpace(payload)) == 0 {
		return runtime.Call{}, errors.New("empty payload: expected the hook's JSON object on standard input")
	}
	var dec value.Decoder
	v, err := dec.Decode(payload)
	if err != nil {
		return runtime.Call{}, explainBadJSON(payload, err, "the hook's JSON object")
	}
	o, ok := v.(*value.Object)
	if !ok {
		return runtime.Call{}, fmt.Errorf("the payload must be a JSON object, got %s", value.Kind(v))
	}
	event, err := hookString(o, "hook_event_name")
	if err != nil {
		return runtime.Call{}, err
	}
	if event != agent.event {
		return runtime.Call{}, fmt.Errorf("hook_event_name is %s, not %s: configure permgen as a %s hook",
			quoteText(event), agent.event, agent.event)
	}
	tool, err := hookString(o, "tool_name")
	if err != nil {
		return runtime.Call{}, err
	}
	input, ok := o.Get("tool_input")
	if !ok {
		return runtime.Call{}, errors.New(`missing "tool_input"`)
	}
	if agent.agent == runtime.AgentCodex && tool == "apply_patch" {
		input = codexPatch(input)
	}
	call := runtime.AgentCall(agent.agent, tool, value.Input{Value: input})
	if agent.agent == runtime.AgentGeminiCLI {
		if key, ok := geminiMCPKey(o); ok {
			call = runtime.MCPCall(key, value.Input{Value: input})
		}
	}
	if id, ok := field(o, "tool_use_id").(string); ok {
		call.ID = id
	}
	return call, nil
}

// codexPatch returns the patch of a Codex apply_patch hook's input,
// {"command": PATCH}, as the raw text its freeform tool call carries and
// the stock catalog's apply_patch reads; any other input is the input.
func codexPatch(input any) any {
	o, ok := input.(*value.Object)
	if !ok || o.Len() != 1 {
		return input
	}
	if patch, ok := field(o, "command").(string); ok {
		return patch
	}
	return input
}

// geminiMCPKey returns the "server:tool" an mcp_context names, when it
// names both.
func geminiMCPKey(o *value.Object) (string, bool) {
	ctx, ok := field(o, "mcp_context").(*value.Object)
	if !ok {
		return "", false
	}
	server, _ := field(ctx, "server_name").(string)
	tool, _ := field(ctx, "tool_name").(string)
	if server == "" || tool == "" {
		return "", false
	}
	return server + ":" + tool, true
}

// hookString returns the non-empty string field key of o.
func hookString(o *value.Object, key string) (string, error) {
	v, ok := o.Get(key)
	if !ok {
		return "", fmt.Errorf("missing %q", key)
	}
	s, ok := v.(string)
	switch {
	case !ok:
		return "", fmt.Errorf("%q must be a string, got %s", key, value.Kind(v))
	case s == "":
		return "", fmt.Errorf("%q is empty", key)
	}
	return s, nil
}

// quoteText quotes text from the payload for an error message, as safe
// text: an agent's new event name is reported, never obeyed by a
// terminal.
func quoteText(s string) string {
	return "'" + runtime.OutputText(s, runtime.Reveal, 80) + "'"
}
