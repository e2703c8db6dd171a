package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func text(s string) Formatter {
	return FormatterFunc(func(Request) (string, bool, error) { return s, true, nil })
}

var decline = FormatterFunc(func(Request) (string, bool, error) { return "", false, nil })

// readFormatter stands in for the stock catalog's read entry, so that the
// reference examples about path tools can run without a catalog.
var readFormatter = FormatterFunc(func(req Request) (string, bool, error) {
	if p, ok := textfmt.PromptPath(req.Input); ok {
		return "for path '" + p + "'", true, nil
	}
	return "", true, nil
})

func newDispatcher(t *testing.T, limits Limits, formatters map[string]Formatter) *Dispatcher {
	t.Helper()
	reg := NewRegistry()
	for key, f := range formatters {
		_, err := reg.Register(key, "test", f)
		require.NoError(t, err)
	}
	d, err := NewDispatcher(reg, Options{Limits: limits})
	require.NoError(t, err)
	return d
}

func ptr(s string) *string { return &s }

func TestPreviewReference(t *testing.T) {
	x := strings.Repeat
	tests := []struct {
		name       string
		tool       string
		input      string
		limits     Limits
		formatters map[string]Formatter
		want       string
	}{
		{"json default", "unknown", `{"k":"v"}`, Limits{}, nil, `with input {"k":"v"}`},
		{"empty object", "unknown", `{}`, Limits{}, nil, ``},
		{"null", "unknown", `null`, Limits{}, nil, ``},
		// A deliberate difference: where the reference cuts JSON that does
		// not fit the preview limit, permgen shows the input's parts
		// within the output limit (textfmt.Fields).
		{"string over the preview limit", "unknown", `"` + x("x", 20) + `"`, Limits{Preview: 10}, nil, `with input "` + x("x", 20) + `"`},
		{"number value", "unknown", `{"x":1}`, Limits{}, nil, `with input {"x":1}`},
		{"object over the preview limit", "custom", `{"k":"` + x("x", 50) + `"}`, Limits{Preview: 10}, nil, `with input k: "` + x("x", 50) + `"`},
		{"cut within the output limit", "custom", `{"k":"` + x("x", 600) + `"}`, Limits{}, nil, `with input k: "` + x("x", 470) + `…" (130 B more)`},
		{"no room for the fields: the reference's cut", "custom", `{"k":"` + x("x", 50) + `"}`, Limits{Preview: 10, Output: 30}, nil, `with input {"k":"xxxx…`},
		{"array", "unknown", `[1,2]`, Limits{}, nil, `with input [1,2]`},
		{"empty array", "unknown", `[]`, Limits{}, nil, `with input []`},
		{"string", "unknown", `"hello"`, Limits{}, nil, `with input "hello"`},
		{"key order kept", "unknown", `{"b":1,"a":[true,null]}`, Limits{}, nil, `with input {"b":1,"a":[true,null]}`},
		{"registered", "my-tool", `{}`, Limits{}, map[string]Formatter{"my-tool": text("custom preview")}, `custom preview`},
		{"declines", "unknown-tool", `{"x":1}`, Limits{}, map[string]Formatter{"unknown-tool": decline}, `with input {"x":1}`},
		{"registered read", "read", `{"path":"/foo.ts"}`, Limits{}, map[string]Formatter{"read": text("custom read summary")}, `custom read summary`},
		{"empty string suppresses", "quiet", `{"x":1}`, Limits{}, map[string]Formatter{"quiet": text("")}, ``},
		{"not json is shown as text", "unknown", `{"x": 1`, Limits{}, nil, `with input {"x": 1`},
		{"formatter output capped", "long", `{}`, Limits{Output: 10}, map[string]Formatter{"long": text(x("y", 30))}, x("y", 10) + "…"},
		{"formatter output sanitized", "evil", `{}`, Limits{}, map[string]Formatter{"evil": text("ok\x1b[2K\u202eexe")}, `ok\u{1B}[2K\u{202E}exe`},
		{"names are exact", "Read", `{"path":"/x"}`, Limits{}, map[string]Formatter{"read": readFormatter}, `with input {"path":"/x"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := newDispatcher(t, tc.limits, tc.formatters)
			got := d.Preview(Call{Tool: tc.tool, Input: tc.input})
			assert.Equal(t, tc.want, got.Text)
			if _, declines := tc.formatters[tc.tool].(FormatterFunc); tc.formatters[tc.tool] != nil && !(declines && tc.name == "declines") {
				assert.Equal(t, "test", got.Formatter)
			} else {
				assert.Empty(t, got.Formatter)
			}
		})
	}
}

func TestPreviewOfGoValues(t *testing.T) {
	d := newDispatcher(t, Limits{}, nil)
	tests := []struct {
		input any
		want  string
	}{
		{map[string]any{"b": 1, "a": "x"}, `with input {"a":"x","b":1}`},
		{[]any{1.5, "a"}, `with input [1.5,"a"]`},
		{struct {
			Z string `json:"z"`
			A int    `json:"a"`
		}{"s", 2}, `with input {"z":"s","a":2}`},
		{json.RawMessage(`{"b":1,"a":2}`), `with input {"b":1,"a":2}`},
		{[]byte(`{"b":1,"a":2}`), `with input {"b":1,"a":2}`},
		{nil, ``},
		{make(chan int), ``},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, d.Preview(Call{Tool: "x", Input: tc.input}).Text, "%#v", tc.input)
	}
}

func TestFormatterSeesObject(t *testing.T) {
	var seen []int
	f := FormatterFunc(func(req Request) (string, bool, error) {
		require.NotNil(t, req.Input)
		seen = append(seen, req.Input.Len())
		assert.Equal(t, DefaultPreviewLimit, req.Limits.Preview)
		return "", false, nil
	})
	d := newDispatcher(t, Limits{}, map[string]Formatter{"t": f})
	for _, in := range []any{`[1,2]`, `"s"`, `3`, `null`, `not json`, nil, `{"a":1}`} {
		d.Preview(Call{Tool: "t", Input: in})
	}
	assert.Equal(t, []int{0, 0, 0, 0, 0, 0, 1}, seen)
}

func TestLogReference(t *testing.T) {
	x := strings.Repeat
	tests := []struct {
		name   string
		call   Call
		limits Limits
		want   LogContext
	}{
		{"generic", Call{Tool: "task", Input: `{"k":"v"}`}, Limits{}, LogContext{ToolInputPreview: ptr(`input {"k":"v"}`)}},
		{"generic empty", Call{Tool: "task", Input: `{}`}, Limits{}, LogContext{}},
		{"generic truncated", Call{Tool: "task", Input: `{"k":"` + x("x", 50) + `"}`}, Limits{Log: 10}, LogContext{ToolInputPreview: ptr(`input {"k":"xxxx…`)}},
		{"bash", Call{Tool: "bash", State: "ask", Source: "tool", Origin: "builtin", Input: `{"command":"ls"}`}, Limits{}, LogContext{Origin: ptr("builtin")}},
		{"mcp", Call{Tool: "mcp", Source: "tool", Origin: "builtin", Input: `{}`}, Limits{}, LogContext{Origin: ptr("builtin")}},
		{"source mcp", Call{Tool: "some-server:some-tool", Source: "mcp", Origin: "builtin", Input: `{}`}, Limits{}, LogContext{Origin: ptr("builtin")}},
		{"read", Call{Tool: "read", Source: "tool", Origin: "builtin", Input: `{"path":"/src/foo.ts"}`}, Limits{}, LogContext{ToolInputPreview: ptr("for path '/src/foo.ts'"), Origin: ptr("builtin")}},
		{"read truncated", Call{Tool: "read", Input: `{"path":"/src/` + x("a", 50) + `.ts"}`}, Limits{Log: 15}, LogContext{ToolInputPreview: ptr("for path '/src/…")}},
		{"task", Call{Tool: "task", Input: `{"n":1}`}, Limits{}, LogContext{ToolInputPreview: ptr(`input {"n":1}`)}},
		{"bash context", Call{Tool: "bash", State: "ask", Source: "tool", Origin: "builtin", Command: "ls -la"}, Limits{}, LogContext{Command: ptr("ls -la"), Origin: ptr("builtin")}},
		{"read context", Call{Tool: "read", State: "ask", Source: "tool", Origin: "project", Input: `{"path":"/foo.ts"}`}, Limits{}, LogContext{ToolInputPreview: ptr("for path '/foo.ts'"), Origin: ptr("project")}},
		{"read with empty preview", Call{Tool: "read", Input: `{}`}, Limits{}, LogContext{}},
		{"log text is stripped", Call{Tool: "bash", Command: "echo \x1b[31mhi\u202e\nthere", Target: "a\u200bb"}, Limits{}, LogContext{Command: ptr("echo hi there"), Target: ptr("ab")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := newDispatcher(t, tc.limits, map[string]Formatter{"read": readFormatter})
			assert.Equal(t, tc.want, d.Log(tc.call))
		})
	}
}

func TestLogContextJSONKeepsKeyOrder(t *testing.T) {
	d := newDispatcher(t, Limits{}, nil)
	data, err := json.Marshal(d.Log(Call{Tool: "bash", Origin: "builtin", Command: "ls -la"}))
	require.NoError(t, err)
	assert.Equal(t, `{"command":"ls -la","target":null,"toolInputPreview":null,"origin":"builtin"}`, string(data))
}

func TestPromptReference(t *testing.T) {
	mcpQuery := FormatterFunc(func(req Request) (string, bool, error) {
		args, _ := req.Input.Get("arguments")
		q, _ := args.(*value.Object).Get("query")
		return `with query: "` + q.(string) + `"`, true, nil
	})
	withRead := map[string]Formatter{"read": readFormatter}
	tests := []struct {
		name       string
		call       Call
		formatters map[string]Formatter
		noRegistry bool
		want       string
	}{
		{"read", Call{Tool: "read", State: "ask", Source: "tool", Origin: "builtin", Input: `{"path":"/src"}`}, withRead, false,
			"Current agent requested tool 'read' for path '/src'. Allow this call?"},
		{"agent", Call{Tool: "read", Agent: "my-agent", Source: "tool", Input: `{"path":"/src"}`}, withRead, false,
			"Agent 'my-agent' requested tool 'read' for path '/src'. Allow this call?"},
		{"bash", Call{Tool: "bash", Source: "tool", Origin: "builtin", Command: "git status"}, nil, false,
			"Current agent requested bash command 'git status'. Allow this command?"},
		{"bash pattern", Call{Tool: "bash", Source: "tool", Command: "git push", MatchedPattern: "git *"}, nil, false,
			"Current agent requested bash command 'git push' (matched 'git *'). Allow this command?"},
		{"bash without command", Call{Tool: "bash", Source: "bash"}, nil, false,
			"Current agent requested bash command ''. Allow this command?"},
		{"bash ignores input", Call{Tool: "bash", Command: "ls", Input: `{"command":"rm -rf /"}`}, nil, false,
			"Current agent requested bash command 'ls'. Allow this command?"},
		{"mcp target", Call{Tool: "mcp", Source: "tool", Target: "server:query"}, nil, false,
			"Current agent requested MCP target 'server:query'. Allow this call?"},
		{"mcp pattern", Call{Tool: "mcp", Source: "tool", Target: "server:query", MatchedPattern: "server:*"}, nil, false,
			"Current agent requested MCP target 'server:query' (matched 'server:*'). Allow this call?"},
		{"mcp registered", Call{Tool: "mcp", Source: "tool", Target: "exa:search", Input: `{"tool":"exa:search","arguments":{"query":"typescript"}}`},
			map[string]Formatter{"mcp": mcpQuery}, false,
			`Current agent requested MCP target 'exa:search' with query: "typescript". Allow this call?`},
		{"mcp declines", Call{Tool: "mcp", Source: "tool", Target: "exa:search", Input: `{"tool":"exa:search"}`},
			map[string]Formatter{"mcp": decline}, false,
			"Current agent requested MCP target 'exa:search'. Allow this call?"},
		{"mcp without formatter", Call{Tool: "mcp", Source: "tool", Target: "exa:search", Input: `{"tool":"exa:search","arguments":{"query":"test"}}`},
			nil, true,
			"Current agent requested MCP target 'exa:search'. Allow this call?"},
		{"read again", Call{Tool: "read", Source: "tool", Input: `{"path":"/src/foo.ts"}`}, withRead, false,
			"Current agent requested tool 'read' for path '/src/foo.ts'. Allow this call?"},
		{"task empty", Call{Tool: "task", Source: "tool", Input: `{}`}, nil, false,
			"Current agent requested tool 'task'. Allow this call?"},
		{"task without formatter", Call{Tool: "task", Source: "tool", Input: `{"path":"/src"}`}, nil, true,
			"Current agent requested tool 'task'. Allow this call?"},
		{"task json default", Call{Tool: "task", Source: "tool", Input: `{"path":"/src"}`}, nil, false,
			`Current agent requested tool 'task' with input {"path":"/src"}. Allow this call?`},
		{"mcp source without target is a tool", Call{Tool: "github:create_issue", Source: "mcp", Input: `{"title":"x"}`}, nil, false,
			"Current agent requested tool 'github:create_issue'. Allow this call?"},
		{"hostile names", Call{Tool: "rea\u202ed", Agent: "\x1b[8mroot", Source: "tool", MatchedPattern: "*\n"}, nil, false,
			`Agent '\u{1B}[8mroot' requested tool 'rea\u{202E}d' (matched '*\n'). Allow this call?`},
		{"hostile command", Call{Tool: "bash", Command: "git status\nrm -rf ~\r"}, nil, false,
			`Current agent requested bash command 'git status\nrm -rf ~\r'. Allow this command?`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := newDispatcher(t, Limits{}, tc.formatters)
			if tc.noRegistry {
				var err error
				d, err = NewDispatcher(nil, Options{})
				require.NoError(t, err)
			}
			assert.Equal(t, tc.want, d.Prompt(tc.call))
		})
	}
}

func TestMCPLookupOrder(t *testing.T) {
	owner := func(name string) Formatter {
		return FormatterFunc(func(req Request) (string, bool, error) {
			return name + " " + req.Tool + " " + textfmt.CompactJSON(req.Input), true, nil
		})
	}
	umbrella := `{"tool":"github:create_issue","arguments":{"title":"bug"}}`
	tests := []struct {
		name       string
		call       Call
		formatters map[string]Formatter
		want       string
	}{
		{"server:tool first", Call{Tool: "mcp", Target: "github:create_issue", Input: umbrella},
			map[string]Formatter{"github:create_issue": owner("exact"), "github:*": owner("server"), "mcp": owner("umbrella")},
			`exact github:create_issue {"title":"bug"}`},
		{"then server:*", Call{Tool: "mcp", Target: "github:create_issue", Input: umbrella},
			map[string]Formatter{"github:*": owner("server"), "mcp": owner("umbrella")},
			`server github:create_issue {"title":"bug"}`},
		{"then mcp", Call{Tool: "mcp", Target: "github:create_issue", Input: umbrella},
			map[string]Formatter{"mcp": owner("umbrella"), "gitlab:*": owner("other")},
			`umbrella github:create_issue {"tool":"github:create_issue","arguments":{"title":"bug"}}`},
		{"a decline falls through", Call{Tool: "mcp", Target: "github:create_issue", Input: umbrella},
			map[string]Formatter{"github:create_issue": decline, "github:*": decline, "mcp": owner("umbrella")},
			`umbrella github:create_issue {"tool":"github:create_issue","arguments":{"title":"bug"}}`},
		{"target from input", Call{Tool: "mcp", Input: umbrella},
			map[string]Formatter{"github:*": owner("server")},
			`server github:create_issue {"title":"bug"}`},
		{"direct call gets its arguments", Call{Tool: "github:create_issue", Source: "mcp", Target: "github:create_issue", Input: `{"title":"bug"}`},
			map[string]Formatter{"github:create_issue": owner("exact")},
			`exact github:create_issue {"title":"bug"}`},
		{"direct call with an envelope: the server gets its arguments", Call{Tool: "srv:tool", Source: "mcp", Target: "srv:tool", Input: `{"arguments":{"n":2}}`},
			map[string]Formatter{"srv:*": owner("server"), "mcp": owner("umbrella")},
			`server srv:tool {"n":2}`},
		{"direct call with an envelope: mcp gets the envelope as it is", Call{Tool: "srv:tool", Source: "mcp", Target: "srv:tool", Input: `{"arguments":{"n":2}}`},
			map[string]Formatter{"mcp": owner("umbrella")},
			`umbrella srv:tool {"arguments":{"n":2}}`},
		{"arguments that are not an object are no envelope", Call{Tool: "srv:tool", Source: "mcp", Input: `{"arguments":"n=2"}`},
			map[string]Formatter{"srv:*": owner("server")},
			`server srv:tool {"arguments":"n=2"}`},
		{"direct call to umbrella gets the umbrella form", Call{Tool: "github:create_issue", Source: "mcp", Input: `{"title":"bug"}`},
			map[string]Formatter{"mcp": owner("umbrella")},
			`umbrella github:create_issue {"tool":"github:create_issue","arguments":{"title":"bug"}}`},
		{"nothing registered", Call{Tool: "mcp", Target: "github:create_issue", Input: umbrella},
			nil, ``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := newDispatcher(t, Limits{}, tc.formatters)
			assert.Equal(t, tc.want, d.Preview(tc.call).Text)
		})
	}
}

func TestFailureIsolation(t *testing.T) {
	calls := 0
	failing := FormatterFunc(func(req Request) (string, bool, error) {
		calls++
		if calls%2 == 0 {
			panic("boom")
		}
		return "", false, errors.New("bad input")
	})
	var logs bytes.Buffer
	var failures []Failure
	reg := NewRegistry()
	_, err := reg.Register("t", "owner.yaml:3:5", failing)
	require.NoError(t, err)
	d, err := NewDispatcher(reg, Options{
		Logger:    slog.New(slog.NewTextHandler(&logs, nil)),
		OnFailure: func(f Failure) { failures = append(failures, f) },
	})
	require.NoError(t, err)

	call := Call{Tool: "t", Input: `{"a":1}`}
	for range 5 {
		p := d.Preview(call)
		assert.Equal(t, `with input {"a":1}`, p.Text, "a failure falls back to the default preview")
		assert.Empty(t, p.Formatter)
	}
	assert.Equal(t, 5, calls, "every call runs the formatter")
	require.Len(t, failures, 5)
	assert.ErrorContains(t, failures[0].Err, "bad input")
	assert.ErrorIs(t, failures[1].Err, ErrPanic)
	assert.ErrorContains(t, failures[1].Err, "boom")
	assert.Equal(t, "owner.yaml:3:5", failures[2].Owner)
	assert.Equal(t, 5, strings.Count(logs.String(), "formatter failed"))
	assert.Contains(t, logs.String(), "owner=owner.yaml:3:5")
	info, ok := reg.Lookup("t")
	require.True(t, ok)
	assert.Equal(t, int64(5), info.Failures)
}

// A model must not be able to switch a formatter off: however many calls
// it makes fail, the next well-formed call is formatted.
func TestFailuresDoNotDisableTheFormatter(t *testing.T) {
	sql := FormatterFunc(func(req Request) (string, bool, error) {
		v, _ := req.Input.Get("sql")
		s, ok := v.(string)
		if !ok {
			return "", false, errors.New("sql is not a string")
		}
		return "SQL: " + s, true, nil
	})
	d := newDispatcher(t, Limits{}, map[string]Formatter{"query": sql})
	for range 100 {
		assert.Equal(t, `with input {"sql":1}`, d.Preview(Call{Tool: "query", Input: `{"sql":1}`}).Text)
	}
	assert.Equal(t, "SQL: DROP TABLE users", d.Preview(Call{Tool: "query", Input: `{"sql":"DROP TABLE users"}`}).Text)
}

// A model must not be able to push what matters out of the fallback by
// padding: when the JSON does not fit, every field has a fair share of
// the output, so short fields (paths, modes, flags) are shown whole
// whatever comes before them, in the preview and in the log.
func TestFallbackShowsShortFieldsFirst(t *testing.T) {
	big := strings.Repeat("x", 2<<20)
	edits := "[" + strings.Repeat(`{"oldText":"a","newText":"b"},`, 1000) + `{"oldText":"a","newText":"b"}]`
	var fields strings.Builder
	for i := range 30 {
		fmt.Fprintf(&fields, `"pad%d":"%s",`, i, strings.Repeat("p", 300))
	}
	tests := []struct {
		name, input string
		want        []string // what the preview and the log show
	}{
		{"fits: as written", `{"content":"hi","path":"/a"}`, []string{`{"content":"hi","path":"/a"}`}},
		{"padded content", `{"content":"` + big + `","path":"/home/dev/.ssh/authorized_keys","mode":420}`,
			[]string{`content: "xxxxxxxxxx`, `…" (2.00 MB more), path: "/home/dev/.ssh/authorized_keys", mode: 420`}},
		{"many edits", `{"edits":` + edits + `,"path":"~/.ssh/authorized_keys"}`,
			[]string{`edits[0].oldText: "a", edits[0].newText: "b"`, `more items, `, `, path: "~/.ssh/authorized_keys"`}},
		{"many long fields", `{` + fields.String() + `"allNamespaces":true}`, []string{`, allNamespaces: true, `, ` more fields, `}},
		{"literal ellipsis that fits", `{"a":[1],"b":"…"}`, []string{`{"a":[1],"b":"…"}`}},
	}
	d := newDispatcher(t, Limits{}, map[string]Formatter{"decline": FormatterFunc(func(Request) (string, bool, error) {
		return "", false, nil
	})})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, tool := range []string{"unknown", "decline"} {
				desc := d.Describe(Call{Tool: tool, Input: tc.input})
				require.NotNil(t, desc.Log.ToolInputPreview)
				for _, want := range tc.want {
					assert.Contains(t, desc.Preview.Text, want, tool)
					assert.Contains(t, *desc.Log.ToolInputPreview, want, tool)
				}
				assert.True(t, strings.HasPrefix(desc.Preview.Text, "with input "), desc.Preview.Text)
				assert.LessOrEqual(t, utf8.RuneCountInString(desc.Preview.Text), DefaultOutputLimit)
				assert.LessOrEqual(t, utf8.RuneCountInString(*desc.Log.ToolInputPreview), len("input ")+DefaultLogLimit)
			}
		})
	}
}

// The umbrella tool without a target still names the server tool it runs.
func TestPromptNamesUmbrellaTarget(t *testing.T) {
	reg := NewRegistry()
	d, err := NewDispatcher(reg, Options{})
	require.NoError(t, err)
	tests := []struct {
		name string
		call Call
		want string
	}{
		{"input names the tool", Call{Tool: "mcp", Input: `{"tool":"github:delete_repository","arguments":{"owner":"acme","repo":"prod"}}`},
			"Current agent requested MCP target 'github:delete_repository'. Allow this call?"},
		{"target and envelope both named", Call{Tool: "mcp", Target: "a:b", Input: `{"tool":"c:d"}`},
			"Current agent requested MCP target 'a:b' (envelope names 'c:d'). Allow this call?"},
		{"target and envelope agree", Call{Tool: "mcp", Target: "a:b", Input: `{"tool":"a:b"}`},
			"Current agent requested MCP target 'a:b'. Allow this call?"},
		{"hostile tool name is sanitized", Call{Tool: "mcp", Input: `{"tool":"gh:x\u202e\nrm"}`},
			`Current agent requested MCP target 'gh:x\u{202E}\nrm'. Allow this call?`},
		{"no tool named", Call{Tool: "mcp", Input: `{"arguments":{}}`},
			"Current agent requested tool 'mcp'. Allow this call?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, d.Prompt(tc.call))
			assert.Equal(t, tc.want, d.Describe(tc.call).Prompt)
		})
	}
}

func TestLimitsValidation(t *testing.T) {
	l, err := Limits{}.WithDefaults()
	require.NoError(t, err)
	assert.Equal(t, Limits{Preview: 200, Summary: 80, Log: 1000, Output: 500}, l)

	l, err = Limits{Summary: 5}.WithDefaults()
	require.NoError(t, err)
	assert.Equal(t, 5, l.Summary)

	for _, tc := range []struct {
		limits Limits
		field  string
	}{
		{Limits{Preview: -1}, "preview"},
		{Limits{Summary: -2}, "summary"},
		{Limits{Log: -3}, "log"},
		{Limits{Output: -4}, "output"},
		{Limits{OutputBytes: -5}, "output bytes"},
	} {
		_, err := NewDispatcher(NewRegistry(), Options{Limits: tc.limits})
		assert.ErrorContains(t, err, "limits: "+tc.field+" must be a positive integer")
	}
}

// TestOutputBytes: a host that stores previews under a byte limit gets
// previews and prompt pieces within it, cut between grapheme clusters of
// a multi-byte script, with the ellipsis counted; the prompt's own wording
// is not cut.
func TestOutputBytes(t *testing.T) {
	reg := NewRegistry()
	_, err := reg.Register("note", "test", FormatterFunc(func(req Request) (string, bool, error) {
		return "漢字のメモ👩‍👩‍👧を保存", true, nil
	}))
	require.NoError(t, err)
	d, err := NewDispatcher(reg, Options{Limits: Limits{OutputBytes: 16}})
	require.NoError(t, err)

	desc := d.Describe(Call{Tool: "note", Input: `{}`})
	assert.Equal(t, "漢字のメ…", desc.Preview.Text, "12 bytes of text and the 3 of the ellipsis")
	assert.LessOrEqual(t, len(desc.Preview.Text), 16)

	desc = d.Describe(Call{Tool: "write_file", Input: `{"path":"/データ/ファイル.txt"}`})
	assert.LessOrEqual(t, len(desc.Preview.Text), 16)
	assert.True(t, utf8.ValidString(desc.Preview.Text))

	desc = d.Describe(Call{Tool: "bash", Input: `{}`, Command: "echo 漢字漢字漢字漢字"})
	assert.Equal(t, "Current agent requested bash command 'echo 漢字…'. Allow this command?", desc.Prompt)

	// log values are bounded by the log limit, in characters, not by bytes
	command := desc.Log.Command
	require.NotNil(t, command)
	assert.Equal(t, "echo 漢字漢字漢字漢字", *command)
}

func TestLargeInputIsNotSerializedInFull(t *testing.T) {
	big := `{"content":"` + strings.Repeat("x", 10<<20) + `"}`
	d := newDispatcher(t, Limits{}, nil)
	desc := d.Describe(Call{Tool: "write_file", Input: big})
	assert.Equal(t, `with input content: "`+strings.Repeat("x", 462)+`…" (10.0 MB more)`, desc.Preview.Text)
	assert.Equal(t, `input content: "`+strings.Repeat("x", 973)+`…" (10.0 MB more)`, *desc.Log.ToolInputPreview)
}

// A byte cap never blanks a name the sentence needs: a cap too small for
// one character and the ellipsis is refused when the limits are
// validated, and within any cap accepted the tool, the MCP target and the
// tool an envelope names keep their first character, even when the name
// opens with a grapheme cluster longer than the cap leaves room for.
func TestOutputBytesNeverBlankAName(t *testing.T) {
	for _, n := range []int{1, 2, MinOutputBytes - 1} {
		_, err := NewDispatcher(NewRegistry(), Options{Limits: Limits{OutputBytes: n}})
		assert.ErrorContains(t, err, fmt.Sprintf("limits: output bytes must be 0 (no byte cap) or at least %d", MinOutputBytes), "cap %d", n)
	}
	family := "👩\u200d👩\u200d👧\u200d👦" // one cluster of 25 bytes
	tests := []struct {
		name string
		call Call
		want string
	}{
		{"a tool name that fits", Call{Tool: "read"}, "Current agent requested tool 'read'. Allow this call?"},
		{"a long tool name is cut", Call{Tool: "write_file_everywhere"}, "Current agent requested tool 'writ…'. Allow this call?"},
		{"a tool that opens with a long cluster", Call{Tool: family + "deploy"}, "Current agent requested tool '👩…'. Allow this call?"},
		{"an MCP target", Call{Tool: family + ":x", Source: "mcp", Target: family + ":x"}, "Current agent requested MCP target '👩…'. Allow this call?"},
		{"the tool an envelope names", Call{Tool: "mcp", Target: "a:b", Input: `{"tool":"` + family + `:x","arguments":{}}`},
			"Current agent requested MCP target 'a:b' (envelope names '👩…'). Allow this call?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := NewDispatcher(NewRegistry(), Options{Limits: Limits{OutputBytes: MinOutputBytes}})
			require.NoError(t, err)
			assert.Equal(t, tc.want, d.Prompt(tc.call))
		})
	}
}
