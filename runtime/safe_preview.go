package runtime

import (
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/textfmt"
)

// The fourth step (see Dispatcher.Describe) makes the rendered text safe:
// the credentials of the call it was written from replaced, then safe text
// under the prompt's policy (Reveal) within Limits.Output; the log context
// strips instead (see logText).

// safe returns the preview of a call shown as itself, made safe. It is
// worked out once per call, however many times a wrapper's preview, its
// WrappedCalls and the fitting of its calls ask.
func (n *node) safe(d *Dispatcher) Preview {
	if !n.made {
		n.safePreview, n.made = d.safePreview(&n.raw), true
	}
	return n.safePreview
}

// safePreview makes a rendered preview safe.
func (d *Dispatcher) safePreview(raw *rawPreview) Preview {
	if raw.json {
		return Preview{Text: d.fitBytes(revealJSON(raw.scrubbed(), d.limits.Output))}
	}
	text := safeRedacted(raw.scrubbed(), Reveal, d.limits.Output)
	if raw.unread != nil {
		text = d.withUnread(text, raw.unread, raw.scrub)
	}
	return Preview{Text: d.fitBytes(text), Formatter: raw.Formatter}
}

// safe sanitizes a piece of a prompt sentence that the host wrote beside
// the input (its command, agent or pattern): the credentials the call
// carries, which sc holds, are replaced there as in the input, so that a
// token the input names and the command also spells shows in neither.
func (d *Dispatcher) safe(sc *textfmt.Scrubber, s string) string {
	return d.fitBytes(scrubbedText(sc, s, Reveal, d.limits.Output))
}

// safeName sanitizes a name the sentence needs, the tool or the target
// that runs: cut to the byte cap, it keeps at least its first character.
// A cut on a grapheme cluster boundary keeps nothing of a name that opens
// with a cluster longer than the cap leaves room for, and a prompt that
// names no tool asks the person to allow they cannot tell what; the first
// rune fits any cap that Limits.WithDefaults accepts (MinOutputBytes).
func (d *Dispatcher) safeName(sc *textfmt.Scrubber, s string) string {
	text := scrubbedText(sc, s, Reveal, d.limits.Output)
	cut := d.fitBytes(text)
	if cut != textfmt.Ellipsis || text == textfmt.Ellipsis {
		return cut
	}
	_, size := utf8.DecodeRuneInString(text)
	return text[:size] + textfmt.Ellipsis
}
