package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

// Transcript formats that preview and rows read besides their own JSON
// Lines of calls. Where each is described is in testdata/agents/README.md.
const (
	fromAuto       = "auto"
	fromPermgen    = "permgen"
	fromClaudeCode = "claude-code"
	fromCodex      = "codex"
	fromPi         = "pi"
)

// fromNames are the values --from takes.
var fromNames = []string{fromAuto, fromPermgen, fromClaudeCode, fromCodex, fromPi}

const fromUsage = "the input's format, `auto|permgen|claude-code|codex|pi`: permgen's JSON Lines of calls, a Claude Code session file, a Codex rollout file or a pi / oh-my-pi session file; auto tells them apart by their first lines"

// validFrom reports whether --from names a format.
func validFrom(from string) error {
	for _, f := range fromNames {
		if f == from {
			return nil
		}
	}
	return fmt.Errorf("--from must be one of %s, got %q", strings.Join(fromNames, ", "), from)
}

// detectLines is how many of the first lines detection reads before it
// takes the input for permgen's own format.
const detectLines = 64

// readTranscript hands each call of in to handle, with the line its call
// is on and, when withResult is set, its result, whatever the format
// (from, or the one detected). permgen's own format is read line by line
// by eachCall; an agent's transcript is read to its end first, because a
// call's result comes lines later, and its calls are handed on in the
// order they were made. It reports whether any line was bad.
func readTranscript(command, name, from string, in io.Reader, stderr io.Writer, withResult bool,
	handle func(line int, call runtime.Call, result *runtime.Result)) (bad bool) {
	br := bufio.NewReaderSize(in, 64<<10)
	if from == fromAuto {
		from = readTranscriptFormat(br, nil)
	}
	if from == fromPermgen {
		return eachCall(command, name, br, stderr, withResult, handle)
	}
	t := transcript{format: from, byID: map[string]int{}}
	lines := newLineReader(br)
	var dec value.Decoder
	badLines := 0
	defer func() {
		countRest(stderr, command, name, badLines-maxBadLines, "more bad line skipped", "more bad lines skipped")
	}()
	report := func(line int, err error) {
		bad = true
		if badLines++; badLines <= maxBadLines || lines.failed {
			fmt.Fprintf(stderr, "%s:%d: %v\n", name, line, err)
		}
	}
	for {
		line, err := lines.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			report(lines.line, err)
			if lines.failed {
				break
			}
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		v, err := dec.Decode(line)
		if err != nil {
			report(lines.line, explainBadJSON(line, err, "the record's JSON object"))
			continue
		}
		o, ok := v.(*value.Object)
		if !ok {
			report(lines.line, fmt.Errorf("a record must be a JSON object, got %s", value.Kind(v)))
			continue
		}
		if err := t.record(lines.line, o); err != nil {
			report(lines.line, err)
		}
	}
	for _, c := range t.calls {
		var result *runtime.Result
		if withResult {
			result = c.result
		}
		handle(c.line, c.call, result)
	}
	return bad
}

// readTranscriptFormat tells the format of in from its first lines,
// without consuming them from the reader it returns the format of (in
// itself when it is a large enough bufio.Reader): the first line that
// only one format writes decides, and permgen's own is the default. It
// also stores the format in *format when format is not nil.
func readTranscriptFormat(in io.Reader, format *string) string {
	br := bufio.NewReaderSize(in, 64<<10)
	f := detectFormat(br)
	if format != nil {
		*format = f
	}
	return f
}

// detectFormat tells the format of what br reads from its first lines,
// without consuming them. It reads no further than those lines: input
// arriving through a pipe is told apart from its first line.
func detectFormat(br *bufio.Reader) string {
	var dec value.Decoder
	at := 0 // offset in the buffered input of the next line
	for n, last := 0, false; n < detectLines && !last; {
		data, _ := br.Peek(br.Buffered())
		i := bytes.IndexByte(data[at:], '\n')
		if i < 0 {
			if len(data) == br.Size() {
				// A line longer than the buffer (a long message): its
				// first keys, which name its type, are in view.
				v, _ := value.DecodePartial(data[at:])
				if o, ok := v.(*value.Object); ok {
					if f := lineFormat(o); f != "" {
						return f
					}
				}
				break
			}
			if _, err := br.Peek(len(data) + 1); err == nil {
				continue
			}
			// The input ends: what is left is its last line.
			data, _ = br.Peek(br.Buffered())
			i, last = len(data)-at, true
		}
		line := bytes.TrimSpace(data[at : at+i])
		if at == 0 {
			line = bytes.TrimPrefix(line, []byte("\uFEFF"))
		}
		at += i + 1
		if len(line) == 0 {
			continue
		}
		n++
		v, err := dec.Decode(line)
		if err != nil {
			continue
		}
		if o, ok := v.(*value.Object); ok {
			if f := lineFormat(o); f != "" {
				return f
			}
		}
	}
	return fromPermgen
}

// lineFormat returns the format only which writes a line such as o, or
// "".
func lineFormat(o *value.Object) string {
	if _, ok := o.Get("tool"); ok {
		return fromPermgen
	}
	typ, _ := field(o, "type").(string)
	_, hasPayload := o.Get("payload")
	_, hasMessage := field(o, "message").(*value.Object)
	switch {
	case hasPayload && codexRecordTypes[typ]:
		return fromCodex
	case claudeRecordTypes[typ] && (has(o, "uuid") || has(o, "sessionId") || has(o, "leafUuid") || has(o, "messageId")):
		return fromClaudeCode
	case typ == "session" && (has(o, "cwd") || has(o, "version")),
		typ == "message" && hasMessage,
		typ == "model_change" || typ == "thinking_level_change":
		return fromPi
	case typ == "" && (has(o, "record_type") || has(o, "instructions")),
		codexItemTypes[typ] && !hasMessage:
		// Rollouts written before records had a payload: a header
		// {"id", "timestamp", "instructions"}, state records, and the
		// response items themselves.
		return fromCodex
	}
	return ""
}

func has(o *value.Object, key string) bool {
	_, ok := o.Get(key)
	return ok
}

// claudeRecordTypes are the types of Claude Code session lines.
var claudeRecordTypes = map[string]bool{
	"user": true, "assistant": true, "summary": true, "system": true,
	"file-history-snapshot": true, "queue-operation": true,
}

// codexRecordTypes are the types of Codex rollout records
// (RolloutItem in codex-rs/protocol/src/protocol.rs).
var codexRecordTypes = map[string]bool{
	"session_meta": true, "response_item": true, "event_msg": true,
	"turn_context": true, "compacted": true,
}

// codexItemTypes are the types of Codex response items that are tool
// calls or their outputs (ResponseItem in codex-rs/protocol/src/models.rs).
var codexItemTypes = map[string]bool{
	"function_call": true, "function_call_output": true,
	"custom_tool_call": true, "custom_tool_call_output": true,
	"local_shell_call": true, "web_search_call": true, "reasoning": true,
}

// transcript gathers the calls of an agent's transcript and pairs each
// with its result by the call's id.
type transcript struct {
	format string
	calls  []*transcriptCall
	byID   map[string]int // index in calls of the call with an id
}

type transcriptCall struct {
	line   int
	call   runtime.Call
	result *runtime.Result
}

// add adds a call made on line, unless a call with its id was added
// already: an agent may write a message again as it streams.
func (t *transcript) add(line int, c runtime.Call) {
	if c.Tool == "bash" && c.Source == "" {
		// The reference words a call of the tool "bash" by its command
		// (pi's and oh-my-pi's bash tool take {"command"}).
		if in, ok := c.Input.(value.Input); ok {
			if o, ok := in.Value.(*value.Object); ok {
				if cmd, ok := field(o, "command").(string); ok {
					c.Source, c.Command = "bash", cmd
				}
			}
		}
	}
	if c.ID != "" {
		if _, ok := t.byID[c.ID]; ok {
			return
		}
		t.byID[c.ID] = len(t.calls)
	}
	t.calls = append(t.calls, &transcriptCall{line: line, call: c})
}

// pair gives the call with id its result. A result whose call is not in
// the transcript (cut off before it) is left out: without its call there
// is no row to put it under.
func (t *transcript) pair(id string, r runtime.Result) {
	if i, ok := t.byID[id]; ok && id != "" {
		t.calls[i].result = &r
	}
}

// record reads one line of the transcript. Records of other types
// (messages, reasoning, metadata, types added later) are skipped: their
// text is no call, and reasoning is never shown.
func (t *transcript) record(line int, o *value.Object) error {
	switch t.format {
	case fromClaudeCode:
		return t.claudeRecord(line, o)
	case fromCodex:
		item := o
		if p, ok := field(o, "payload").(*value.Object); ok {
			if typ, _ := field(o, "type").(string); typ != "response_item" {
				return nil
			}
			item = p
		}
		return t.codexItem(line, item)
	case fromPi:
		return t.piRecord(line, o)
	}
	return nil
}

// claudeRecord reads a Claude Code session line: "assistant" lines carry
// tool_use blocks, "user" lines tool_result blocks naming them by id.
// A sub-agent's lines (isSidechain) name the agent in its calls.
func (t *transcript) claudeRecord(line int, o *value.Object) error {
	typ, _ := field(o, "type").(string)
	msg, _ := field(o, "message").(*value.Object)
	if msg == nil || typ != "assistant" && typ != "user" {
		return nil
	}
	blocks, _ := field(msg, "content").([]any)
	agent := ""
	if side, _ := field(o, "isSidechain").(bool); side {
		agent = "sub-agent"
		if id, ok := field(o, "agentId").(string); ok && id != "" {
			agent = "sub-agent " + id
		}
	}
	for i, b := range blocks {
		block, ok := b.(*value.Object)
		if !ok {
			continue
		}
		switch field(block, "type") {
		case "tool_use", "server_tool_use":
			name, id, err := callName(block, "name", "id", i)
			if err != nil {
				return err
			}
			input, _ := block.Get("input")
			c := runtime.AgentCall(runtime.AgentClaudeCode, name, value.Input{Value: input})
			c.ID, c.Agent = id, agent
			t.add(line, c)
		case "tool_result":
			id, _ := field(block, "tool_use_id").(string)
			isError, _ := field(block, "is_error").(bool)
			t.pair(id, runtime.Result{Content: contentItems(field(block, "content")), IsError: isError})
		}
	}
	return nil
}

// callName returns the name and the id of a tool call block (the i-th
// of its message); a call without a name is a bad line.
func callName(block *value.Object, nameKey, idKey string, i int) (name, id string, err error) {
	name, _ = field(block, nameKey).(string)
	id, _ = field(block, idKey).(string)
	if name == "" {
		return "", "", fmt.Errorf("tool call %d (content item %d) has no %q", i+1, i+1, nameKey)
	}
	return name, id, nil
}

// contentItems reads a result's content: a string, or a list of items
// {"type", "text"} (images and other items keep their type, without
// text).
func contentItems(v any) []runtime.Content {
	switch v := v.(type) {
	case string:
		return []runtime.Content{{Type: "text", Text: v}}
	case []any:
		out := make([]runtime.Content, 0, len(v))
		for _, item := range v {
			o, ok := item.(*value.Object)
			if !ok {
				continue
			}
			typ, _ := field(o, "type").(string)
			text, _ := field(o, "text").(string)
			if typ == "input_text" || typ == "output_text" {
				typ = "text" // Codex's output items
			}
			out = append(out, runtime.Content{Type: typ, Text: text})
		}
		return out
	}
	return nil
}

// codexItem reads a Codex response item: function_call and
// custom_tool_call (a freeform tool such as apply_patch, whose input is
// raw text) paired with their outputs by call_id, local_shell_call and
// web_search_call. arguments is JSON text: its value is the input, or,
// when it is not JSON, the text itself.
func (t *transcript) codexItem(line int, item *value.Object) error {
	typ, _ := field(item, "type").(string)
	id, _ := field(item, "call_id").(string)
	switch typ {
	case "function_call":
		name, _, err := callName(item, "name", "call_id", 0)
		if err != nil {
			return fmt.Errorf("function_call has no %q", "name")
		}
		args, _ := field(item, "arguments").(string)
		var input any = args
		var dec value.Decoder
		if v, err := dec.Decode([]byte(args)); err == nil {
			input = v
		}
		c := runtime.AgentCall(runtime.AgentCodex, name, value.Input{Value: input})
		c.ID = id
		t.add(line, c)
	case "custom_tool_call":
		name, _, err := callName(item, "name", "call_id", 0)
		if err != nil {
			return fmt.Errorf("custom_tool_call has no %q", "name")
		}
		input, _ := item.Get("input")
		c := runtime.AgentCall(runtime.AgentCodex, name, value.Input{Value: input})
		c.ID = id
		t.add(line, c)
	case "local_shell_call":
		// Its action is the shell tool's arguments, under other names.
		action, _ := field(item, "action").(*value.Object)
		var pairs []any
		if action != nil {
			if cmd, ok := action.Get("command"); ok {
				pairs = append(pairs, "command", cmd)
			}
			if dir, ok := field(action, "working_directory").(string); ok {
				pairs = append(pairs, "workdir", dir)
			}
		}
		t.add(line, runtime.Call{Tool: "shell", ID: id, Input: value.Input{Value: value.NewObject(pairs...)}})
	case "web_search_call":
		action, _ := field(item, "action").(*value.Object)
		var pairs []any
		if action != nil {
			for key, v := range action.All() {
				if key != "type" {
					pairs = append(pairs, key, v)
				}
			}
		}
		t.add(line, runtime.Call{Tool: "web_search", Input: value.Input{Value: value.NewObject(pairs...)}})
	case "function_call_output", "custom_tool_call_output":
		t.pair(id, codexOutput(field(item, "output")))
	}
	return nil
}

// codexOutput reads a Codex tool output: text; a list of content items;
// or, in rollouts of earlier releases, {"content", "success"}. An
// exec's text may be JSON {"output", "metadata": {"exit_code"}} or start
// with "Exit code: N" or say "Process exited with code N": a code other
// than 0 marks the result an error, as success false does.
func codexOutput(v any) runtime.Result {
	var r runtime.Result
	switch v := v.(type) {
	case *value.Object:
		if ok, isBool := field(v, "success").(bool); isBool && !ok {
			r.IsError = true
		}
		v2, _ := v.Get("content")
		return codexText(contentItems(v2), r.IsError)
	case []any:
		return codexText(contentItems(v), false)
	case string:
		return codexText([]runtime.Content{{Type: "text", Text: v}}, false)
	}
	return r
}

// codexText returns the result of output items, reading an exec's exit
// code from its text.
func codexText(items []runtime.Content, isError bool) runtime.Result {
	r := runtime.Result{Content: items, IsError: isError}
	if len(items) != 1 || items[0].Type != "text" {
		return r
	}
	text := items[0].Text
	var dec value.Decoder
	if v, err := dec.Decode([]byte(text)); err == nil {
		if o, ok := v.(*value.Object); ok {
			if out, ok := field(o, "output").(string); ok {
				r.Content = []runtime.Content{{Type: "text", Text: out}}
				if meta, ok := field(o, "metadata").(*value.Object); ok {
					if code, ok := field(meta, "exit_code").(value.Number); ok && code.Float64() != 0 {
						r.IsError = true
					}
				}
			}
		}
		return r
	}
	// An exec's text of later releases: a header of a few lines, then
	// "Output:" and what the command printed, which is the result.
	lines := strings.SplitN(text, "\n", codexHeaderLines+1)
	for i, l := range lines[:min(len(lines), codexHeaderLines)] {
		l = strings.TrimSpace(l)
		if l == "Output:" {
			_, out, _ := strings.Cut(text, "\nOutput:\n")
			if i == 0 {
				out = strings.TrimPrefix(text, "Output:\n")
			}
			r.Content = []runtime.Content{{Type: "text", Text: out}}
			break
		}
		for _, prefix := range []string{"Exit code: ", "Process exited with code "} {
			if rest, ok := strings.CutPrefix(l, prefix); ok {
				if n, err := strconv.Atoi(rest); err == nil && n != 0 {
					r.IsError = true
				}
			}
		}
	}
	return r
}

// codexHeaderLines bounds the header of an exec's text.
const codexHeaderLines = 6

// piRecord reads a pi or oh-my-pi session line: "message" records whose
// assistant message carries toolCall blocks, and toolResult messages
// naming them by toolCallId.
func (t *transcript) piRecord(line int, o *value.Object) error {
	if typ, _ := field(o, "type").(string); typ != "message" {
		return nil
	}
	msg, _ := field(o, "message").(*value.Object)
	if msg == nil {
		return nil
	}
	switch field(msg, "role") {
	case "assistant":
		blocks, _ := field(msg, "content").([]any)
		for i, b := range blocks {
			block, ok := b.(*value.Object)
			if !ok || field(block, "type") != "toolCall" {
				continue
			}
			name, id, err := callName(block, "name", "id", i)
			if err != nil {
				return err
			}
			args, _ := block.Get("arguments")
			c := runtime.AgentCall(runtime.AgentPi, name, value.Input{Value: args})
			c.ID = id
			t.add(line, c)
		}
	case "toolResult":
		id, _ := field(msg, "toolCallId").(string)
		isError, _ := field(msg, "isError").(bool)
		details, _ := msg.Get("details")
		t.pair(id, runtime.Result{Content: contentItems(field(msg, "content")), Details: details, IsError: isError})
	}
	return nil
}
