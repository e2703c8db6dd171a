package runtime

import (
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// subject is a call being described, with what is worked out once for it
// however many of its preview and log context ask: its input's compact
// JSON, which the default preview and the log context cut at their own
// limits.
type subject struct {
	c    Call
	in   value.Input
	json inputJSON
}

// subject returns the subject of a call. The default preview's JSON is
// serialized for cuts of up to jsonLimit characters.
func (d *Dispatcher) subject(c Call, in value.Input, jsonLimit int) subject {
	return subject{c: c, in: in, json: inputJSON{in: in, limit: jsonLimit}}
}

// inputJSON is a call's input serialized once for the default preview and
// the log context, which cut it at their own limits.
type inputJSON struct {
	in    value.Input
	limit int // the largest cut it is serialized for
	js    textfmt.InputJSON
	made  bool
}

// cut returns prefix and the input as default previews show it, cut at n
// characters: compact JSON (see textfmt.InputJSON), or the text itself
// when it is not JSON; "" when that is empty.
func (x *inputJSON) cut(prefix string, n int) string {
	if x.in.Err != nil {
		text := textfmt.TruncateText(x.in.Raw, n)
		if text == "" {
			return ""
		}
		return prefix + text
	}
	if !x.made || x.js.Max() < n {
		x.js, x.made = textfmt.NewInputJSON(x.in.Value, max(x.limit, n)), true
	}
	return x.js.Cut(prefix, n)
}
