package runtime

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlainCall holds the shortcuts of callSecrets to calls that carry a
// credential: each input here has one that only reading its value finds,
// so taking it for plain would leak the credential.
func TestPlainCall(t *testing.T) {
	for _, tc := range []struct {
		name, input, tool string
	}{
		{"a name", `{"password": "hunter22"}`, "x"},
		{"a name written with an escape", `{"p\u0061ssword": "hunter22"}`, "x"},
		{"a shape written with an escape", `{"q": "\u0067hp_0123456789abcdefghijABCDEFGHIJ0123456789"}`, "x"},
		{"a slash written with an escape", `{"q": "https:\/\/user:hunter22@example.com"}`, "x"},
		{"a name in the JSON a string holds, escaped there", `{"q": "{\"p\\u0061ssword\": \"hunter22\"}"}`, "x"},
		{"a sensitive value", `{"name": "db", "sensitive": true, "value": "hunter22"}`, "x"},
		{"a sensitive value in capitals", `{"name": "db", "SENSITIVE": true, "value": "hunter22"}`, "x"},
		{"a sensitive value in the JSON a string holds", `{"q": "{\"name\": \"db\", \"sensitive\": true, \"value\": \"hunter22\"}"}`, "x"},
		{"a name that hidden characters split", `{"q": "pa` + "\u200b" + `ssword=hunter22"}`, "x"},
		{"a name that a backspace escape splits", `{"q": "pa\bssword=hunter22"}`, "x"},
		{"a credential in the tool name", `{}`, "ghp_0123456789abcdefghijABCDEFGHIJ0123456789"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Call{Tool: tc.tool, Input: []byte(tc.input)}
			if !assert.NotNil(t, readSecrets(&c, decode(c), nil), "the case carries a credential") {
				return
			}
			assert.False(t, plainCall(&c))
			assert.NotNil(t, callSecrets(&c, decode(c), nil))
			// The same input as a host that decoded it passes it.
			in := decode(c)
			c.Input = in
			assert.NotNil(t, callSecrets(&c, in, nil), "decoded")
		})
	}
	for _, input := range []string{
		`{"file_path": "/repo/main.go", "old_string": "a\n\tb", "new_string": "say \"hi\""}`,
		`{"command": "go test ./...", "description": "Run the tests"}`,
	} {
		for _, form := range []any{[]byte(input), json.RawMessage(input), input} {
			c := Call{Tool: "edit", Input: form}
			assert.True(t, plainCall(&c), "%T %s", form, input)
		}
		c := Call{Tool: "edit", Input: decode(Call{Input: input})}
		assert.False(t, plainCall(&c), "a decoded value has no JSON text to read")
	}
}

// FuzzPlainCall holds the shortcuts of callSecrets to the full reading:
// with and without them, a call gives the same credentials, as its JSON
// text, as a host that decoded it passes it (with and without the text),
// and the same description, where the dispatcher writes the input's JSON
// and fields itself (the default preview, the log context).
func FuzzPlainCall(f *testing.F) {
	f.Add([]byte(`{"command": "go test ./...", "description": "Run the tests"}`), "bash", "")
	f.Add([]byte(`{"q": "{\"a\": \"b\"}", "n": 1}`), "mcp", "srv:query")
	f.Add([]byte(`{"q": "{\"name\": \"db\", \"sensitive\": true, \"value\": \"hunter22\"}"}`), "x", "")
	f.Add([]byte(`{"name": "x", "value": "y"}`), "x", "")
	f.Add([]byte(`{"to": "ken", "a": {"pa": "ss"}, "b": ["://", "%"]}`), "deploy", "")
	d, err := NewDispatcher(NewRegistry(), Options{Limits: Limits{Preview: 60, Log: 80}})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, input []byte, tool, target string) {
		decoded := decode(Call{Input: input})
		withText := decoded
		if withText.Err == nil {
			withText.Raw = string(input)
		}
		for _, c := range []Call{
			{Tool: tool, Input: input, Target: target},
			{Tool: tool, Input: decoded, Target: target},
			{Tool: tool, Input: withText, Target: target},
		} {
			in := decode(c)
			fast, fastDesc := callSecrets(&c, in, nil), d.Describe(c)
			secretShortcuts = false
			full, fullDesc := callSecrets(&c, in, nil), d.Describe(c)
			secretShortcuts = true
			require.Equal(t, full, fast, "input %q (tool %q, target %q, %T)", input, tool, target, c.Input)
			require.Equal(t, fullDesc, fastDesc, "input %q (tool %q, target %q, %T)", input, tool, target, c.Input)
		}
	})
}
