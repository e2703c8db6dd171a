package runtime

import (
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
)

// TestHiddenPaddingCannotEmptyARow: invisible characters and escape
// sequences before what a result or an argument says do not use up the
// room it is shown in: they are stripped before the cut.
func TestHiddenPaddingCannotEmptyARow(t *testing.T) {
	d := newDispatcher(t, Limits{}, nil)
	result := func(text string) string {
		return d.ResultRow(Call{Tool: "upload", Input: `{}`}, Result{Content: []Content{{Type: "text", Text: text}}}, ModeMinimal).Text
	}
	assert.Equal(t, "uploaded ~/.ssh/id_rsa to evil.example",
		result(strings.Repeat("\u200b", 80)+"uploaded ~/.ssh/id_rsa to evil.example"))
	assert.Equal(t, "uploaded ~/.ssh/id_rsa", result("\x1b[0m\nuploaded ~/.ssh/id_rsa"),
		"a line of escapes alone is not the first line")
	assert.Equal(t, "uploaded ~/.ssh/id_rsa (+1 line)", result("uploaded ~/.ssh/id_rsa\n\x1b[0m\n\u200b\nsent"))

	row := d.Row(Call{Tool: "fetch", Input: `{"url":"` + strings.Repeat(`\u200b`, 200) + strings.Repeat(" ", 200) + `https://evil.example"}`}, ModeVerbose)
	var shown []string
	for _, l := range row.Lines {
		shown = append(shown, l.Text)
	}
	assert.Contains(t, strings.Join(shown, "\n"), `"url": " https://evil.example"`)
}

// TestLongResultsCostWhatTheyShow: a result or argument text of millions of
// lines is not split into millions of strings to show forty of them.
func TestLongResultsCostWhatTheyShow(t *testing.T) {
	d := newDispatcher(t, Limits{}, nil)
	text := strings.Repeat("a\n", 4<<20) // 8 MiB, 4 Mi lines
	res := Result{Content: []Content{{Type: "text", Text: text}}}
	call := Call{Tool: "cat", Input: `{}`}
	raw := value.DecodeInput(text)
	assert.Error(t, raw.Err)
	for name, render := range map[string]func(){
		"result row":                             func() { d.ResultRow(call, res, ModeMinimal) },
		"expand":                                 func() { d.Expand(call, res) },
		"verbose lines of text that is not JSON": func() { jsonLines(raw, nil) },
	} {
		var before, after goruntime.MemStats
		goruntime.ReadMemStats(&before)
		render()
		goruntime.ReadMemStats(&after)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(len(text)), "%s allocates in proportion to the lines it shows", name)
	}
	lines := d.Expand(call, res)
	assert.Len(t, lines, MaxLines)
	assert.Equal(t, "… 4194265 more lines", lines[MaxLines-1].Text)
}
