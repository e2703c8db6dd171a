package runtime

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

// safe sanitizes a piece of a prompt sentence.
func (d *Dispatcher) safe(s string) string { return d.fitBytes(outputText(s, Reveal, d.limits.Output)) }
