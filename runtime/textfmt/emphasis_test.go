package textfmt

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEmphSegments(t *testing.T) {
	dim, err := Emph("dim", "(3 lines)")
	require.NoError(t, err)
	nested, err := Emph("accent", dim)
	require.NoError(t, err)
	tests := []struct {
		name, in string
		want     []EmphSegment
	}{
		{"plain", "read a.go", []EmphSegment{{Text: "read a.go"}}},
		{"a span", "a.go " + dim, []EmphSegment{{Text: "a.go "}, {Style: "dim", Text: "(3 lines)"}}},
		{"no nesting: the inner marks are removed", nested, []EmphSegment{{Style: "accent", Text: "(3 lines)"}}},
		{"an unknown style is plain, its marks removed", "\u0091blink\u0092x\u0093", []EmphSegment{{Text: "blinkx"}}},
		{"an open mark alone", "a\u0091dim", []EmphSegment{{Text: "adim"}}},
		{"a span never closed", "a\u0091dim\u0092x", []EmphSegment{{Text: "adimx"}}},
		{"stray marks", "\u0093a\u0092b", []EmphSegment{{Text: "ab"}}},
		{"an empty span", "\u0091dim\u0092\u0093b", []EmphSegment{{Text: "b"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := EmphSegments(tc.in)
			assert.Equal(t, tc.want, got)
			var text string
			for _, s := range got {
				text += s.Text
			}
			assert.Equal(t, text, StripEmph(tc.in))
			assert.False(t, HasEmph(StripEmph(tc.in)), "no mark is left")
		})
	}
	_, err = Emph("blink", "x")
	assert.EqualError(t, err, `emph: unknown style "blink": want one of dim, accent, strong, success, warning, danger`)
}

// FuzzEmphSegments: whatever the text, its segments hold no mark, read as
// StripEmph does, and a styled one has a known style.
func FuzzEmphSegments(f *testing.F) {
	for _, s := range []string{"", "a", "\u0091dim\u0092x\u0093", "\u0091dim\u0092\u0091accent\u0092x\u0093\u0093", "\u0092\u0093\u0091"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var text string
		for _, seg := range EmphSegments(s) {
			if HasEmph(seg.Text) || seg.Text == "" {
				t.Fatalf("segment %q of %q", seg.Text, s)
			}
			if seg.Style != "" && !slices.Contains(EmphStyles, seg.Style) {
				t.Fatalf("style %q of %q", seg.Style, s)
			}
			text += seg.Text
		}
		if text != StripEmph(s) || HasEmph(text) {
			t.Fatalf("text %q, StripEmph %q of %q", text, StripEmph(s), s)
		}
	})
}
