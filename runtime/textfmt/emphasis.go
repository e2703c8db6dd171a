package textfmt

import (
	"fmt"
	"slices"
	"strings"
)

// Emphasis marks: a span of emphasized text is EmphOpen, the style's name,
// EmphName, the text and EmphClose. They are C1 controls (PU1, PU2, STS),
// which safe text never lets through, so a mark that reaches the
// sanitizer is dropped rather than shown or interpreted by a terminal.
const (
	EmphOpen  = '\u0091'
	EmphName  = '\u0092'
	EmphClose = '\u0093'
)

// EmphStyles are the names of the styles a span may ask for. A host maps
// each to its theme; none is a colour or an escape.
var EmphStyles = []string{"dim", "accent", "strong", "success", "warning", "danger"}

// Emph is emph(style, text): text marked as a span of the named style.
// Marks inside text are removed, so spans do not nest and a span cannot
// end early.
func Emph(style, text string) (string, error) {
	if !slices.Contains(EmphStyles, style) {
		return "", fmt.Errorf("emph: unknown style %q: want one of %s", style, strings.Join(EmphStyles, ", "))
	}
	return string(EmphOpen) + style + string(EmphName) + StripEmph(text) + string(EmphClose), nil
}

// HasEmph reports whether s holds any emphasis mark.
func HasEmph(s string) bool { return strings.ContainsAny(s, "\u0091\u0092\u0093") }

// StripEmph returns s without its emphasis marks and style names: the text
// a reader sees.
func StripEmph(s string) string {
	if !HasEmph(s) {
		return s
	}
	var b strings.Builder
	for _, seg := range EmphSegments(s) {
		b.WriteString(seg.Text)
	}
	return b.String()
}

// emphMarks removes the marks.
var emphMarks = strings.NewReplacer(string(EmphOpen), "", string(EmphName), "", string(EmphClose), "")

// EmphSegment is a run of text and the style it asks for ("" for none).
type EmphSegment struct {
	Style string
	Text  string
}

// EmphSegments splits s at its spans. A malformed span (an unknown style,
// an open mark without a name's end, a stray mark) is plain text without
// its marks: markup never shows, and only what Emph writes is a span.
func EmphSegments(s string) []EmphSegment {
	if !HasEmph(s) {
		if s == "" {
			return nil
		}
		return []EmphSegment{{Text: s}}
	}
	var segs []EmphSegment
	plain := func(t string) {
		// Text with marks is made valid UTF-8 first: removing a mark
		// between two halves of an invalid sequence would make a new one.
		t = emphMarks.Replace(strings.ToValidUTF8(t, "\uFFFD"))
		if t == "" {
			return
		}
		if n := len(segs); n > 0 && segs[n-1].Style == "" {
			segs[n-1].Text += t
			return
		}
		segs = append(segs, EmphSegment{Text: t})
	}
	for s != "" {
		i := strings.IndexRune(s, EmphOpen)
		if i < 0 {
			plain(s)
			break
		}
		plain(s[:i])
		rest := s[i+len(string(EmphOpen)):]
		j := strings.IndexRune(rest, EmphName)
		k := strings.IndexRune(rest, EmphClose)
		if j < 0 || k < j || !slices.Contains(EmphStyles, rest[:j]) {
			s = rest
			continue
		}
		style, text := rest[:j], rest[j+len(string(EmphName)):k]
		if strings.ContainsAny(text, string(EmphOpen)+string(EmphName)) {
			s = rest
			continue
		}
		if text != "" {
			segs = append(segs, EmphSegment{Style: style, Text: strings.ToValidUTF8(text, "\uFFFD")})
		}
		s = rest[k+len(string(EmphClose)):]
	}
	return segs
}
