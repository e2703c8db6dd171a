package runtime

import (
	"strings"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// Span is a run of a row's or a line's text that its formatter asks to
// emphasize, by the name of a style (textfmt.EmphStyles: dim, accent,
// strong, success, warning, danger), which the host maps to its theme.
// Start and End are byte offsets into the text; spans are in order and do
// not overlap. A span only marks text the row shows: it never adds any.
type Span struct {
	Start, End int
	Style      string
}

// emphasis splits the output of a catalog's slot into the text it shows,
// its marks removed, and the segments its marks ask for. A model that
// writes marks itself (in the call's input, its tool name or its result)
// could imitate the catalog's: then no segment is honoured, and the text
// is shown plain.
func emphasis(out string, req *Request) (string, []textfmt.EmphSegment) {
	if !textfmt.HasEmph(out) {
		return out, nil
	}
	text := textfmt.StripEmph(out)
	if textfmt.HasEmph(req.Tool) || hasEmph(req.Input) || hasEmph(req.Result) {
		return text, nil
	}
	return text, textfmt.EmphSegments(out)
}

// hasEmph reports whether a model value holds an emphasis mark in any
// key or string.
func hasEmph(v any) bool {
	switch v := v.(type) {
	case string:
		return textfmt.HasEmph(v)
	case *value.Object:
		if v == nil {
			return false
		}
		for k, x := range v.All() {
			if textfmt.HasEmph(k) || hasEmph(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if hasEmph(x) {
				return true
			}
		}
	}
	return false
}

// alignSpans finds the segments in text, the safe text shown for them,
// in order: each segment is made safe on its own and looked for after the
// one before. A styled segment that is not found whole (cut, redacted,
// rewritten) has no span: emphasis is lost rather than misplaced.
func alignSpans(text string, segs []textfmt.EmphSegment) []Span {
	var spans []Span
	at := 0
	for _, seg := range segs {
		s := safeRedacted(seg.Text, Strip, 0)
		if s == "" {
			continue
		}
		i := strings.Index(text[at:], s)
		if i < 0 {
			continue
		}
		if seg.Style != "" {
			spans = append(spans, Span{Start: at + i, End: at + i + len(s), Style: seg.Style})
		}
		at += i + len(s)
	}
	return spans
}
