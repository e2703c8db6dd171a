package runtime

import (
	"strings"
	"testing"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func emph(t *testing.T, style, text string) string {
	t.Helper()
	out, err := textfmt.Emph(style, text)
	require.NoError(t, err)
	return out
}

// spansOf returns the text of each span with its style, for comparing.
func spansOf(text string, spans []Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Style+":"+text[s.Start:s.End])
	}
	return out
}

// A catalog's row asks for a dim detail and an accent by name; rows carry
// them as spans over text that reads the same without them, and never as
// escapes.
func TestRowEmphasis(t *testing.T) {
	f := rowFormatter{
		present: Presentation{Title: "Read"},
		row: func(req Request) (string, bool, error) {
			path, _ := field(req.Input, "path").(string)
			note, _ := field(req.Input, "note").(string)
			return strings.TrimSpace(emph(t, "accent", path) + " " + emph(t, "dim", "(30 lines)") + " " + note), true, nil
		},
		result: func(req Request) (string, bool, error) {
			return "read " + emph(t, "strong", "3") + " lines", true, nil
		},
		expand: func(req Request) ([]string, bool, error) {
			return []string{emph(t, "dim", "10") + "  package main", "plain"}, true, nil
		},
	}
	d := newDispatcher(t, Limits{}, map[string]Formatter{"read": f})
	tests := []struct {
		name, path string
		mode       Mode
		text       string
		spans      []string
	}{
		{"spans", "/src/a.go", ModeDefault, "/src/a.go (30 lines)", []string{"accent:/src/a.go", "dim:(30 lines)"}},
		{"minimal mode has none", "/src/a.go", ModeMinimal, "/src/a.go (30 lines)", nil},
		{"a model that imitates the marks gets no span, and no mark on screen",
			"/x\u0091danger\u0092evil\u0093", ModeDefault, "/xevil (30 lines)", nil},
		{"a model's marks outside any span are not markup either", "/a\u0091danger\u0092evil\u0093", ModeDefault,
			"/aevil (30 lines)", nil},
		{"a lone mark from the model switches spans off too", "/x\u0093", ModeDefault, "/x (30 lines)", nil},
		{"a span redacted away is dropped", "/sk-proj-abcdefghijklmnopqrstuvwxyz0123456789", ModeDefault,
			"/‹secret, 44 characters› (30 lines)", []string{"dim:(30 lines)"}},
		{"an escape inside a span is stripped from it", "/a\x1b[2J.go", ModeDefault, "/a.go (30 lines)",
			[]string{"accent:/a.go", "dim:(30 lines)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			row := d.Row(Call{Tool: "read", Input: map[string]any{"path": tc.path}}, tc.mode)
			assert.Equal(t, tc.text, row.Text)
			assert.Equal(t, tc.spans, spansOf(row.Text, row.Spans))
			assert.False(t, textfmt.HasEmph(row.Line()), "no mark is left in the text")
			assert.NotContains(t, row.Line(), "\x1b")
		})
	}
	forged := d.Row(Call{Tool: "read", Input: map[string]any{"path": "/a", "note": "\u0091danger\u0092evil\u0093"}}, ModeDefault)
	assert.Equal(t, "/a (30 lines) evil", forged.Text)
	assert.Nil(t, forged.Spans, "a model's span, written where the row shows its text as it is, is not honoured")
	res := d.ResultRow(Call{Tool: "read", Input: `{"path":"/a"}`}, Result{}, ModeDefault)
	assert.Equal(t, "read 3 lines", res.Text)
	assert.Equal(t, []string{"strong:3"}, spansOf(res.Text, res.Spans))
	// A result that carries the marks is the model's too.
	res = d.ResultRow(Call{Tool: "read", Input: `{"path":"/a"}`}, Result{Content: []Content{{Type: "text", Text: "\u0091dim\u0092"}}}, ModeDefault)
	assert.Equal(t, "read 3 lines", res.Text)
	assert.Nil(t, res.Spans)

	lines := d.Expand(Call{Tool: "read", Input: `{"path":"/a"}`}, Result{})
	require.Len(t, lines, 2)
	assert.Equal(t, "10 package main", lines[0].Text)
	assert.Equal(t, []string{"dim:10"}, spansOf(lines[0].Text, lines[0].Spans))
	assert.Nil(t, lines[1].Spans)
}

// A span cut by the output bound is dropped: emphasis is lost rather than
// put on other text.
func TestRowEmphasisCut(t *testing.T) {
	f := rowFormatter{row: func(req Request) (string, bool, error) {
		return "x " + emph(t, "dim", strings.Repeat("y", 100)), true, nil
	}}
	d := newDispatcher(t, Limits{Output: 20}, map[string]Formatter{"t": f})
	row := d.Row(Call{Tool: "t", Input: `{}`}, ModeDefault)
	assert.True(t, strings.HasSuffix(row.Text, "…"), row.Text)
	assert.Nil(t, row.Spans)
}

// The default result lines are the model's text: marks in it are never
// markup, and are stripped as any control character is.
func TestDefaultLinesHaveNoSpans(t *testing.T) {
	d := newDispatcher(t, Limits{}, map[string]Formatter{})
	lines := d.Expand(Call{Tool: "x"}, Result{Content: []Content{{Type: "text", Text: "a\u0091dim\u0092b\u0093c"}}})
	require.Len(t, lines, 1)
	assert.Equal(t, "adimbc", lines[0].Text)
	assert.Nil(t, lines[0].Spans)
}

// A path inside the working directory is shown relative to it, in a span
// as elsewhere, and keeps its emphasis.
func TestRowEmphasisCwd(t *testing.T) {
	f := rowFormatter{row: func(req Request) (string, bool, error) {
		path, _ := field(req.Input, "path").(string)
		return "read " + emph(t, "accent", path), true, nil
	}}
	d := newDispatcher(t, Limits{}, map[string]Formatter{"read": f})
	row := d.Row(Call{Tool: "read", Input: `{"path":"/home/dev/src/a.go"}`, Cwd: "/home/dev"}, ModeDefault)
	assert.Equal(t, "read src/a.go", row.Text)
	assert.Equal(t, []string{"accent:src/a.go"}, spansOf(row.Text, row.Spans))
}
