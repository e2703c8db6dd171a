package runtime

import (
	"unsafe"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// rawPreview is a preview before sanitizing.
type rawPreview struct {
	Preview
	json bool // Text is the default preview: compact JSON (see revealJSON)
	// unread are the fields of the input that the formatter did not read
	// (see FieldReader), shown after its text.
	unread *value.Object
	// scrub holds the credentials of the call Text was written from.
	scrub *textfmt.Scrubber
	// clean is Text with those credentials replaced, once cleaned is set
	// (see scrubbed).
	clean   string
	cleaned bool
	// plain is set when Text is the default preview of a plain call (see
	// subject.plain), which has nothing to scrub.
	plain bool
}

// scrubbed returns the text with the credentials of its call replaced
// (see scrub), worked out once for the preview and the log context, which
// make it safe under their own policies.
func (r *rawPreview) scrubbed() string {
	if !r.cleaned {
		r.clean, r.cleaned = r.Text, true
		if !r.plain {
			r.clean = scrub(r.scrub, r.Text)
		}
	}
	return r.clean
}

// renderTree is the third step (see Dispatcher.Describe): it gives each call
// of an inspected tree that is shown as itself its text before sanitizing.
// The text of the formatter that answered it (see answer) is kept; a call
// that none answered has the default preview, unless it goes to an MCP
// server (the prompt names its target) or the dispatcher has no registry.
// A call with text keeps its credentials for the next step.
// s is the call of n: the subject it was inspected from.
func (d *Dispatcher) renderTree(n *node, s *subject) {
	if n.unwrapped() {
		for i := range n.calls {
			d.renderTree(&n.calls[i], n.calls[i].s)
		}
		return
	}
	if !n.answered && d.reg != nil && !isMCP(s.c) {
		text, json := d.defaultPreview(s)
		n.raw = rawPreview{Preview: Preview{Text: text}, json: json, plain: s.isPlain()}
	}
	if n.raw.Text != "" {
		n.raw.scrub = s.scrubber()
	}
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
