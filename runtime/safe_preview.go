package runtime

func (d *Dispatcher) safePreview(raw rawPreview) Preview {
	if raw.json {
		return Preview{Text: d.fitBytes(revealJSON(scrub(raw.scrub, raw.Text), d.limits.Output))}
	}
	text := scrubbedText(raw.scrub, raw.Text, Reveal, d.limits.Output)
	if raw.unread != nil {
		text = d.withUnread(text, raw.unread, raw.scrub)
	}
	return Preview{Text: d.fitBytes(text), Formatter: raw.Formatter}
}

// safe sanitizes a piece of a prompt sentence.
func (d *Dispatcher) safe(s string) string { return d.fitBytes(outputText(s, Reveal, d.limits.Output)) }
