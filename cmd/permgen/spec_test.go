package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReferenceExamples runs the examples of reference/preview-spec.md that
// concern the stock catalog and the dispatcher through permgen preview, in
// both formats. (Examples with a registered test formatter, and the helper
// functions, are unit tests of runtime and celfmt.)
func TestReferenceExamples(t *testing.T) {
	x := strings.Repeat
	tests := []struct {
		name    string
		flags   []string
		call    string
		preview string
		prompt  string  // "" when only the preview is checked
		log     *string // the log's toolInputPreview, when checked
	}{
		// formatEditInputForPrompt
		{"edit no edits", nil, `{"tool":"edit","input":{"path":"/foo.ts"}}`, "for '/foo.ts' with edit input", "Current agent requested tool 'edit' for '/foo.ts' with edit input. Allow this call?", nil},
		{"edit one", nil, `{"tool":"edit","input":{"path":"/foo.ts","edits":[{"oldText":"line1\nline2","newText":"replaced"}]}}`, "for '/foo.ts' (1 replacement: edit #1 replaces 2 lines with 1 line)", "", nil},
		{"edit three", nil, `{"tool":"edit","input":{"path":"/foo.ts","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"},{"oldText":"e","newText":"f"}]}}`, "for '/foo.ts' (3 replacements: edit #1 replaces 1 line with 1 line, plus 2 additional edits)", "", nil},
		{"edit legacy", nil, `{"tool":"edit","input":{"path":"/bar.ts","oldText":"old","newText":"new"}}`, "for '/bar.ts' (1 replacement: edit #1 replaces 1 line with 1 line)", "", nil},
		{"edit no path", nil, `{"tool":"edit","input":{"edits":[{"oldText":"x","newText":"y"}]}}`, "(1 replacement: edit #1 replaces 1 line with 1 line)", "", nil},
		{"edit empty edits", nil, `{"tool":"edit","input":{"path":"/foo.ts","edits":[]}}`, "for '/foo.ts' with edit input", "", nil},
		// formatWriteInputForPrompt
		{"write", nil, `{"tool":"write","input":{"path":"/out.ts","content":"line1\nline2"}}`, "for '/out.ts' (2 lines, 11 characters)", "", nil},
		{"write no content", nil, `{"tool":"write","input":{"path":"/out.ts"}}`, "for '/out.ts' (0 lines, 0 characters)", "", nil},
		{"write hi", nil, `{"tool":"write","input":{"path":"/out.ts","content":"hi"}}`, "for '/out.ts' (1 line, 2 characters)", "", nil},
		// formatReadInputForPrompt
		{"read", nil, `{"tool":"read","input":{"path":"/src/foo.ts"}}`, "for path '/src/foo.ts'", "Current agent requested tool 'read' for path '/src/foo.ts'. Allow this call?", nil},
		{"read offset limit", nil, `{"tool":"read","input":{"path":"/x","offset":10,"limit":50}}`, "for path '/x', offset 10, limit 50", "", nil},
		{"read empty", nil, `{"tool":"read","input":{}}`, "", "Current agent requested tool 'read'. Allow this call?", nil},
		{"read x.ts", nil, `{"tool":"read","input":{"path":"/src/x.ts"}}`, "for path '/src/x.ts'", "", nil},
		// formatSearchInputForPrompt and sanitizeInlineText through grep
		{"grep", nil, `{"tool":"grep","input":{"pattern":"TODO","path":"/src"}}`, "for pattern 'TODO', path '/src'", "", nil},
		{"grep summary 5", []string{"--summary-max", "5"}, `{"tool":"grep","input":{"pattern":"abcdefgh"}}`, "for pattern 'abcde…', current working directory", "", nil},
		{"inline summary 5", []string{"--summary-max", "5"}, `{"tool":"grep","input":{"pattern":"hello world"}}`, "for pattern 'hello…', current working directory", "", nil},
		{"inline spaces", nil, `{"tool":"grep","input":{"pattern":"  hello   world  "}}`, "for pattern 'hello world', current working directory", "", nil},
		{"find", nil, `{"tool":"find","input":{}}`, "for current working directory", "", nil},
		{"grep empty", nil, `{"tool":"grep","input":{}}`, "for current working directory", "", nil},
		{"ls", nil, `{"tool":"ls","input":{}}`, "for current working directory", "Current agent requested tool 'ls' for current working directory. Allow this call?", nil},
		{"other", nil, `{"tool":"other","input":{}}`, "", "", nil},
		// formatJsonInputForPrompt and the default preview
		{"json", nil, `{"tool":"unknown","input":{"k":"v"}}`, `with input {"k":"v"}`, "", nil},
		{"json empty", nil, `{"tool":"unknown","input":{}}`, "", "", nil},
		{"json string", []string{"--preview-max", "10"}, `{"tool":"unknown","input":"` + x("x", 20) + `"}`, `with input "xxxxxxxxx…`, "", nil},
		{"unknown", nil, `{"tool":"unknown","input":{"x":1}}`, `with input {"x":1}`, "", nil},
		{"custom", []string{"--preview-max", "10"}, `{"tool":"custom","input":{"k":"` + x("x", 50) + `"}}`, `with input {"k":"xxxx…`, "", nil},
		// getToolInputPreviewForLog and getPermissionLogContext
		{"log bash", nil, `{"tool":"bash","state":"ask","source":"tool","origin":"builtin","input":{"command":"ls"}}`, "", "", ptrTo("")},
		{"log mcp", nil, `{"tool":"mcp","state":"ask","source":"tool","origin":"builtin","input":{}}`, "", "", ptrTo("")},
		{"log source mcp", nil, `{"tool":"some-server:some-tool","state":"ask","source":"mcp","origin":"builtin","input":{}}`, "", "", ptrTo("")},
		{"log read", nil, `{"tool":"read","state":"ask","source":"tool","origin":"builtin","input":{"path":"/src/foo.ts"}}`, "for path '/src/foo.ts'", "", ptrTo("for path '/src/foo.ts'")},
		{"log read 15", []string{"--log-max", "15"}, `{"tool":"read","input":{"path":"/src/` + x("a", 50) + `.ts"}}`, "", "", ptrTo("for path '/src/…")},
		{"log task", nil, `{"tool":"task","input":{"n":1}}`, "", "", ptrTo(`input {"n":1}`)},
		{"log json 10", []string{"--log-max", "10"}, `{"tool":"task","input":{"k":"` + x("x", 50) + `"}}`, "", "", ptrTo(`input {"k":"xxxx…`)},
		// formatMcpInputForPrompt through the umbrella tool
		{"mcp no arguments", nil, `{"tool":"mcp","target":"exa:search","input":{"tool":"exa:search"}}`, "", "Current agent requested MCP target 'exa:search'. Allow this call?", nil},
		{"mcp empty arguments", nil, `{"tool":"mcp","target":"exa:search","input":{"tool":"exa:search","arguments":{}}}`, "", "", nil},
		{"mcp query", nil, `{"tool":"mcp","target":"exa:search","input":{"tool":"exa:search","arguments":{"query":"typescript generics"}}}`, `with query: "typescript generics"`, `Current agent requested MCP target 'exa:search' with query: "typescript generics". Allow this call?`, nil},
		{"mcp two", nil, `{"tool":"mcp","target":"exa:search","input":{"tool":"exa:search","arguments":{"query":"test","numResults":5}}}`, `with query: "test", numResults: 5`, "", nil},
		{"mcp count", nil, `{"tool":"mcp","input":{"arguments":{"count":42}}}`, "with count: 42", "", nil},
		{"mcp bool", nil, `{"tool":"mcp","input":{"arguments":{"verbose":true}}}`, "with verbose: true", "", nil},
		{"mcp list", nil, `{"tool":"mcp","input":{"arguments":{"ids":[1,2,3]}}}`, "with ids: [3 items]", "", nil},
		{"mcp object", nil, `{"tool":"mcp","input":{"arguments":{"filter":{"type":"file"}}}}`, "with filter: {…}", "", nil},
		{"mcp long", nil, `{"tool":"mcp","input":{"arguments":{"first":"` + x("x", 80) + `","second":"` + x("y", 80) + `","third":"` + x("z", 80) + `"}}}`,
			`with first: "` + x("x", 60) + `…", second: "` + x("y", 60) + `…", third: "zzzzzzz…`, "", nil},
		{"mcp query long", nil, `{"tool":"mcp","input":{"arguments":{"query":"` + x("x", 100) + `"}}}`, `with query: "` + x("x", 60) + `…"`, "", nil},
		// A source-mcp call whose input is the envelope: the reference passes
		// it to mcp unchanged.
		{"mcp envelope with source mcp", nil, `{"tool":"srv:tool","source":"mcp","target":"srv:tool","agent":"a1","input":{"arguments":{"n":2}}}`,
			"with n: 2", "Agent 'a1' requested MCP target 'srv:tool' with n: 2. Allow this call?", nil},
		// formatAskPrompt
		{"ask agent", nil, `{"tool":"read","agent":"my-agent","state":"ask","source":"tool","origin":"builtin","input":{"path":"/src"}}`, "for path '/src'", "Agent 'my-agent' requested tool 'read' for path '/src'. Allow this call?", nil},
		{"ask bash", nil, `{"tool":"bash","state":"ask","source":"tool","origin":"builtin","command":"git status"}`, "", "Current agent requested bash command 'git status'. Allow this command?", nil},
		{"ask bash pattern", nil, `{"tool":"bash","source":"tool","command":"git push","matchedPattern":"git *"}`, "", "Current agent requested bash command 'git push' (matched 'git *'). Allow this command?", nil},
		{"ask mcp", nil, `{"tool":"mcp","source":"tool","origin":"builtin","target":"server:query"}`, "", "Current agent requested MCP target 'server:query'. Allow this call?", nil},
		{"ask mcp pattern", nil, `{"tool":"mcp","source":"tool","target":"server:query","matchedPattern":"server:*"}`, "", "Current agent requested MCP target 'server:query' (matched 'server:*'). Allow this call?", nil},
		{"ask task", nil, `{"tool":"task","source":"tool","input":{}}`, "", "Current agent requested tool 'task'. Allow this call?", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d, ok := departures[tc.name]; ok {
				require.NotEmpty(t, d.why, "a departure says why")
				require.NotEqual(t, tc.preview, d.preview, "a departure changes the text")
				tc.preview = d.preview
			}
			args := append([]string{"preview", "--format", "json"}, tc.flags...)
			stdout, stderr, code := runCLI(t, tc.call+"\n", args...)
			require.Equal(t, 0, code, stderr)
			var got jsonResult
			require.NoError(t, json.Unmarshal([]byte(stdout), &got))
			if tc.log == nil || tc.preview != "" {
				assert.Equal(t, tc.preview, got.Preview, "preview")
			}
			if tc.log != nil {
				if *tc.log == "" {
					assert.Nil(t, got.Log.ToolInputPreview)
				} else if assert.NotNil(t, got.Log.ToolInputPreview) {
					assert.Equal(t, *tc.log, *got.Log.ToolInputPreview)
				}
			}
			text, stderr, code := runCLI(t, tc.call+"\n", append([]string{"preview"}, tc.flags...)...)
			require.Equal(t, 0, code, stderr)
			assert.Equal(t, got.Prompt+"\n", text, "text and json agree")
			if tc.prompt != "" {
				assert.Equal(t, tc.prompt, got.Prompt)
			}
		})
	}
}

// departures are the reference examples whose text permgen changes on
// purpose (docs/differences.md): the table above keeps the reference's
// text, which hides part of the input; permgen shows every leaf instead
// (textfmt.Fields). Each says what the reference hid.
var departures = map[string]struct{ preview, why string }{
	"json string": {`with input "` + strings.Repeat("x", 20) + `"`,
		"the JSON does not fit the preview limit (10), and the reference cuts it there; the whole value fits the output limit"},
	"custom": {`with input k: "` + strings.Repeat("x", 50) + `"`,
		"likewise: the reference cuts the JSON at 10 characters, the field fits the output limit whole"},
	"mcp list":   {`with ids: [1, 2, 3]`, "the reference counts a list ([3 items]) instead of showing it"},
	"mcp object": {`with filter.type: "file"`, "the reference elides an object ({…}); an empty filter would read the same"},
	"mcp long": {`with first: "` + strings.Repeat("x", 80) + `", second: "` + strings.Repeat("y", 80) + `", third: "` + strings.Repeat("z", 80) + `"`,
		"the reference cuts each string at 60 characters and the whole at 160"},
	"mcp query long": {`with query: "` + strings.Repeat("x", 100) + `"`, "the reference cuts a string at 60 characters"},
}

func TestReferenceLogContext(t *testing.T) {
	stdout, _, code := runCLI(t, `{"tool":"bash","state":"ask","source":"tool","origin":"builtin","command":"ls -la"}
{"tool":"read","state":"ask","source":"tool","origin":"project","input":{"path":"/foo.ts"}}
`, "preview", "--format", "json")
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 2)
	assert.Contains(t, lines[0], `"log":{"command":"ls -la","target":null,"toolInputPreview":null,"origin":"builtin"}`)
	assert.Contains(t, lines[1], `"log":{"command":null,"target":null,"toolInputPreview":"for path '/foo.ts'","origin":"project"}`)
	assert.Contains(t, lines[1], `"formatter":"formatters.yaml#read"`)
}

func ptrTo(s string) *string { return &s }

// TestReferenceRegisteredExamples runs the reference examples that need a
// registered formatter, with testdata/catalogs/good/registered.yaml in place
// of the stock catalog.
func TestReferenceRegisteredExamples(t *testing.T) {
	catalog := "../../testdata/catalogs/good/registered.yaml"
	in := `{"tool":"my-tool","input":{}}
{"tool":"unknown-tool","input":{"x":1}}
{"tool":"read","input":{"path":"/foo.ts"}}
{"tool":"mcp","state":"ask","source":"tool","origin":"builtin","target":"exa:search","input":{"tool":"exa:search","arguments":{"query":"typescript"}}}
{"tool":"mcp","state":"ask","source":"tool","origin":"builtin","target":"exa:search","input":{"tool":"exa:search"}}
`
	stdout, stderr, code := runCLI(t, in, "preview", "--no-builtin", "--catalog", catalog)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, `Current agent requested tool 'my-tool' custom preview. Allow this call?
Current agent requested tool 'unknown-tool' with input {"x":1}. Allow this call?
Current agent requested tool 'read' custom read summary. Allow this call?
Current agent requested MCP target 'exa:search' with query: "typescript". Allow this call?
Current agent requested MCP target 'exa:search'. Allow this call?
`, stdout)
}
