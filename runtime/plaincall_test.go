package runtime

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPlainCall holds the shortcut of callSecrets to calls that carry no
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
		{"a name that hidden characters split", `{"q": "pa` + "\u200b" + `ssword=hunter22"}`, "x"},
		{"a name that a backspace escape splits", `{"q": "pa\bssword=hunter22"}`, "x"},
		{"a credential in the tool name", `{}`, "ghp_0123456789abcdefghijABCDEFGHIJ0123456789"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Call{Tool: tc.tool, Input: []byte(tc.input)}
			if !assert.NotNil(t, readSecrets(&c, decode(c), nil), "the case carries a credential") {
				return
			}
			assert.False(t, plainCall(&c, decode(c)))
			assert.NotNil(t, callSecrets(&c, decode(c), nil))
			// The same input as a host that decoded it passes it.
			in := decode(c)
			c.Input = in
			assert.False(t, plainCall(&c, in), "decoded")
			assert.NotNil(t, callSecrets(&c, in, nil), "decoded")
		})
	}
	for _, input := range []string{
		`{"file_path": "/repo/main.go", "old_string": "a\n\tb", "new_string": "say \"hi\""}`,
		`{"command": "go test ./...", "description": "Run the tests"}`,
	} {
		for _, form := range []any{[]byte(input), json.RawMessage(input), input, decode(Call{Input: input})} {
			c := Call{Tool: "edit", Input: form}
			assert.True(t, plainCall(&c, decode(c)), "%T %s", form, input)
		}
	}
	c := Call{Tool: "bash", Input: map[string]any{"command": "ls", "env": map[string]any{"HOME": "/root"}}}
	assert.True(t, plainCall(&c, decode(c)))
	c.Input = map[string]any{"command": "ls", "env": map[string]any{"API_TOKEN": "abcd1234"}}
	assert.False(t, plainCall(&c, decode(c)))
	assert.NotNil(t, callSecrets(&c, decode(c), nil))
}

// FuzzPlainCall holds the shortcut of callSecrets to its promise: a call
// it takes for plain carries nothing that reading its value would find.
func FuzzPlainCall(f *testing.F) {
	f.Add([]byte(`{"command": "go test ./...", "description": "Run the tests"}`), "bash", "")
	f.Add([]byte(`{"q": "{\"a\": \"b\"}", "n": 1}`), "mcp", "srv:query")
	f.Add([]byte(`{"name": "x", "value": "y"}`), "x", "")
	f.Fuzz(func(t *testing.T, input []byte, tool, target string) {
		c := Call{Tool: tool, Input: input, Target: target}
		in := decode(c)
		if plainCall(&c, in) && readSecrets(&c, in, nil) != nil {
			t.Fatalf("plain call %q (tool %q, target %q) carries credentials", input, tool, target)
		}
		// As a host that decoded the input passes it.
		c.Input = in
		if plainCall(&c, in) && readSecrets(&c, in, nil) != nil {
			t.Fatalf("plain decoded call %q (tool %q, target %q) carries credentials", input, tool, target)
		}
	})
}
