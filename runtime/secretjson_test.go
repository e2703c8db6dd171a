package runtime

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShortJSONRedactsByName: an input short enough to be shown as its
// JSON has its credentials hidden by their field's name too, not only by
// their shape, in the preview and in the log context, whatever the value's
// type.
func TestShortJSONRedactsByName(t *testing.T) {
	d := newDispatcher(t, Limits{}, map[string]Formatter{})
	c := Call{Tool: "deploy", Input: `{"password":12345678,"token":["abc12345"],"credentials":{"user":"u1"},` +
		`"var":{"sensitive":true,"value":"s3cr3t"},"x":1}`}
	desc := d.Describe(c)
	want := `{"password":"‹secret, 8 characters›","token":["‹secret, 8 characters›"],` +
		`"credentials":{"user":"‹secret, 2 characters›"},"var":{"sensitive":true,"value":"‹secret, 6 characters›"},"x":1}`
	assert.Equal(t, "with input "+want, desc.Preview.Text)
	require.NotNil(t, desc.Log.ToolInputPreview)
	assert.Equal(t, "input "+want, *desc.Log.ToolInputPreview)
}

// TestVerboseRowRedactsByName: the JSON lines of a verbose row hide a
// credential by its field's name too.
func TestVerboseRowRedactsByName(t *testing.T) {
	d := newDispatcher(t, Limits{}, map[string]Formatter{})
	row := d.Row(Call{Tool: "deploy", Input: `{"db":{"password":12345678},"var":{"sensitive":true,"value":"s3cr3t"}}`}, ModeVerbose)
	var texts []string
	for _, l := range row.Lines {
		texts = append(texts, l.Text)
	}
	assert.Contains(t, texts, `"password": "‹secret, 8 characters›"`)
	assert.Contains(t, texts, `"value": "‹secret, 6 characters›"`)
	assert.NotContains(t, texts, `"password": 12345678`)
}

// TestFormatterOutputScrubbed: a formatter that writes a credential field
// out whole does not show it: what the input carries under a credential's
// name is hidden wherever the formatter's text has it.
func TestFormatterOutputScrubbed(t *testing.T) {
	login := FormatterFunc(func(req Request) (string, bool, error) {
		user, _ := req.Input.Get("user")
		pw, _ := req.Input.Get("password")
		return "as " + user.(string) + " with " + pw.(string), true, nil
	})
	d := newDispatcher(t, Limits{}, map[string]Formatter{"login": login})
	got := d.Prompt(Call{Tool: "login", Input: `{"user":"admin","password":"hunter22"}`})
	assert.Equal(t, "Current agent requested tool 'login' as admin with ‹secret, 8 characters›. Allow this call?", got)
}

// TestSplitCredentialRedacted: a credential that a model splits with a
// hidden character is redacted in the prompt as in the log, instead of
// being revealed piece by piece.
func TestSplitCredentialRedacted(t *testing.T) {
	d := newDispatcher(t, Limits{}, map[string]Formatter{})
	key := "ghp_" + strings.Repeat("aB3", 12)
	c := Call{Tool: "deploy", Input: `{"note":"use ` + key[:10] + `\u200b` + key[10:] + ` now"}`}
	desc := d.Describe(c)
	for _, out := range []string{desc.Preview.Text, desc.Prompt, *desc.Log.ToolInputPreview} {
		assert.NotContains(t, out, key[10:20], out)
		assert.Contains(t, out, "‹secret, 41 characters›", out, "the hidden character counts")
	}
}
