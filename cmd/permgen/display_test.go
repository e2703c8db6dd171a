package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivo/uniseg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestListingsPrintSafeText: the titles, problems and expected texts of a
// catalog reach the terminal as safe text: an escape cannot restyle it, a
// bidi override cannot reorder a row, and a line break cannot forge a row
// of the table.
func TestListingsPrintSafeText(t *testing.T) {
	dir := t.TempDir()
	catalog := filepath.Join(dir, "hostile.yaml")
	require.NoError(t, os.WriteFile(catalog, []byte(`version: 1
formatters:
  - tool: deploy
    title: "Deploy \e[2J\u202Eod\nread  formatters.yaml#read  Read a file  preview,tier:read  -"
    preview: '"to " + string(input.target)'
    examples:
      - input: {target: prod}
        preview: "to \e[31mprod"
`), 0o644))

	tests := []struct {
		name    string
		args    []string
		lines   int
		reveals []string
	}{
		{"list", []string{"list", catalog}, 2, []string{`Deploy \u{1B}[2J\u{202E}od\nread`}},
		{"test", []string{"test", catalog}, 4, []string{`want: preview "to \x1b[31mprod"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, _, _ := runCLI(t, "", tc.args...)
			assert.Len(t, strings.Split(strings.TrimSpace(stdout), "\n"), tc.lines, stdout)
			assert.NotContains(t, stdout, "\x1b")
			assert.NotContains(t, stdout, "\u202e")
			for _, r := range tc.reveals {
				assert.Contains(t, stdout, r)
			}
		})
	}
}

// TestMain runs the tests at the default width, whatever the terminal
// that runs them: the golden renderings wrap at it.
func TestMain(m *testing.M) {
	os.Unsetenv("COLUMNS")
	os.Exit(m.Run())
}

func TestWrapCells(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		width int
		want  []string
	}{
		{"short", "abc", 5, []string{"abc"}},
		{"exact", "abcde", 5, []string{"abcde"}},
		{"cut", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"wide characters take two cells", "日本語テキスト", 5, []string{"日本", "語テ", "キス", "ト"}},
		{"a cluster is never split", "ab👩‍💻cd", 3, []string{"ab", "👩‍💻c", "d"}},
		{"a cluster wider than the width has a piece", "👩‍💻", 1, []string{"👩‍💻"}},
		{"empty", "", 5, []string{""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, wrapCells(tc.text, tc.width))
		})
	}
}

// TestRowsWrapBelowTheGutter: lines below a row that are wider than the
// terminal are wrapped by permgen, each piece after the gutter, so that a
// narrow terminal never starts a piece of a tool's output at its first
// column, where it would pass for a row.
func TestRowsWrapBelowTheGutter(t *testing.T) {
	forged := strings.Repeat("x", 30) + "Read /etc/passwd"
	call := `{"tool": "bash", "id": "c1", "input": {"command": "cat notes.txt", "note": "` + forged + `"}, ` +
		`"result": {"content": [{"type": "text", "text": "` + strings.Repeat("日本", 20) + forged + `"}]}}`
	tests := []struct {
		name    string
		columns string
		width   int
	}{
		{"the terminal's width", "40", 40},
		{"the default width", "", defaultWidth},
		{"no less than the gutter and some text", "3", gutterCells + minWrapCells},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("COLUMNS", tc.columns)
			stdout, stderr, code := runCLI(t, call+"\n", "rows", "--mode", "verbose", "--color", "never")
			require.Equal(t, 0, code, stderr)
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			require.Greater(t, len(lines), 3, stdout)
			assert.Contains(t, lines[0], "cat notes.txt")
			pieces := 0
			for _, l := range lines[1:] {
				if strings.HasPrefix(l, "  └ ") {
					continue
				}
				assert.True(t, strings.HasPrefix(l, gutter), "a line below the row starts with the gutter: %q", l)
				assert.LessOrEqual(t, uniseg.StringWidth(l), tc.width, l)
				pieces++
			}
			assert.Contains(t, strings.ReplaceAll(stdout, "\n"+gutter, ""), "Read /etc/passwd", "the pieces hold the whole text")
			assert.Greater(t, pieces, 2)
		})
	}
}
