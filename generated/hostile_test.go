package generated_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/generated"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

// stockDispatcher returns a dispatcher over the compiled stock catalog and a
// function that returns the failures it reported.
func stockDispatcher(t testing.TB) (*runtime.Dispatcher, func() []runtime.Failure) {
	t.Helper()
	reg := runtime.NewRegistry()
	_, err := generated.Register(reg)
	require.NoError(t, err)
	var failures []runtime.Failure
	d, err := runtime.NewDispatcher(reg, runtime.Options{OnFailure: func(f runtime.Failure) { failures = append(failures, f) }})
	require.NoError(t, err)
	return d, func() []runtime.Failure { return failures }
}

// paddedSQL is a harmless statement, size bytes of blank lines, and a
// destructive one.
func paddedSQL(size int) string {
	return "SELECT 1;" + strings.Repeat("\n", size) + "DROP TABLE users; --"
}

// A model pads what matters out of sight: the stock formatters still show
// it, because their bounds apply to what they read and their cost is linear.
func TestStockShowsWhatPaddingHides(t *testing.T) {
	edits := strings.Repeat(`{"oldText":"a","newText":"b"},`, 1000) + `{"oldText":"x\ny","newText":"z"}`
	tests := []struct {
		name   string
		call   runtime.Call
		prefix string
	}{
		{"postgres query padded with 60 KB", mcpCall("postgres:query", map[string]any{"sql": paddedSQL(60_000)}),
			"Current agent requested MCP target 'postgres:query' DROP, SELECT: SELECT 1; DROP TABLE users; --."},
		{"postgres query padded with 1 MiB", mcpCall("postgres:query", map[string]any{"sql": paddedSQL(1 << 20)}),
			"Current agent requested MCP target 'postgres:query' DROP, SELECT: SELECT 1; DROP TABLE users; --."},
		{"postgres query padded with 100,000 statements", mcpCall("postgres:query", map[string]any{"sql": strings.Repeat("SELECT 1; ", 100_000) + "DROP TABLE users"}),
			"Current agent requested MCP target 'postgres:query' DROP, SELECT: SELECT 1; SELECT 1;"},
		{"write with 1.1 MiB of content before its path",
			runtime.Call{Tool: "write", Input: `{"content":"` + strings.Repeat("x", 1100<<10) + `","path":"/home/dev/.ssh/authorized_keys"}`},
			"Current agent requested tool 'write' for '/home/dev/.ssh/authorized_keys' (1 line, 1126400 characters)."},
		{"edit with 1001 edits before its path",
			runtime.Call{Tool: "edit", Input: `{"edits":[` + edits + `],"path":"~/.ssh/authorized_keys"}`},
			"Current agent requested tool 'edit' for '~/.ssh/authorized_keys' (1001 replacements: edit #1 replaces 1 line with 1 line, plus 1000 additional edits)."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, failures := stockDispatcher(t)
			got := d.Prompt(tc.call)
			assert.True(t, strings.HasPrefix(got, tc.prefix), "got %.300q", got)
			assert.Empty(t, failures())
		})
	}
}

// A strands-agents shell call lists its commands: padding one, or sending
// thousands, does not push the last one out of the prompt.
func TestStrandsShellShowsItsLastCommand(t *testing.T) {
	long := strings.Repeat("x", 3000)
	inputs := map[string]string{
		"a padded first command": `{"command": ["echo ` + strings.Repeat("a", 100_000) + `", "rm -rf ~"], "work_dir": "/srv"}`,
		"padded command objects": `{"command": [` + strings.Repeat(`{"command": "`+long+`", "work_dir": "`+long+`", "timeout": 1}, `, 3) +
			`"rm -rf ~"], "parallel": true}`,
		"5000 commands before it": `{"command": [` + strings.Repeat(`"echo hi", `, 5000) + `"rm -rf ~"], "ignore_errors": true}`,
	}
	for name, input := range inputs {
		t.Run(name, func(t *testing.T) {
			d, failures := stockDispatcher(t)
			got := d.Prompt(runtime.Call{Tool: "shell", Input: input})
			assert.Regexp(t, `#\d+ 'rm -rf ~'`, got)
			assert.Empty(t, failures())
		})
	}
}

// Calls that make a formatter fail do not switch it off for later calls.
func TestStockFormatterCannotBePoisoned(t *testing.T) {
	d, failures := stockDispatcher(t)
	for range 10 {
		d.Prompt(mcpCall("postgres:query", map[string]any{"sql": 1}))
	}
	assert.Len(t, failures(), 10, "each poisoned call fails on its own")
	got := d.Prompt(mcpCall("postgres:query", map[string]any{"sql": "DROP TABLE users"}))
	assert.Equal(t, "Current agent requested MCP target 'postgres:query' DROP: DROP TABLE users. Allow this call?", got)
}

func mcpCall(target string, args map[string]any) runtime.Call {
	return runtime.Call{Tool: target, Source: "mcp", Target: target, Input: args}
}

// BenchmarkPadded measures the stock formatters on padded input through the
// dispatcher: "decoded" starts from the decoded input, as a host that has
// parsed the call already does, "raw" from the call's JSON text, decoding
// included.
func BenchmarkPadded(b *testing.B) {
	quoted := func(s string) string { return strings.ReplaceAll(s, "\n", `\n`) }
	cases := []struct {
		name, tool, target, input string
	}{
		{"postgres_query_60KB", "postgres:query", "postgres:query", `{"sql":"` + quoted(paddedSQL(60_000)) + `"}`},
		{"postgres_query_1MiB", "postgres:query", "postgres:query", `{"sql":"` + quoted(paddedSQL(1<<20)) + `"}`},
		{"write_1MiB", "write", "", `{"path":"/srv/app/main.go","content":"` +
			strings.Repeat(`package main\n\nfunc main() {}\n`, (1<<20)/32) + `"}`},
	}
	for _, c := range cases {
		for _, form := range []string{"decoded", "raw"} {
			b.Run(c.name+"/"+form, func(b *testing.B) {
				d, failures := stockDispatcher(b)
				call := runtime.Call{Tool: c.tool, Target: c.target, Input: []byte(c.input)}
				if c.target != "" {
					call.Source = "mcp"
				}
				if form == "decoded" {
					call.Input = value.DecodeInput(call.Input)
				}
				b.SetBytes(int64(len(c.input)))
				for b.Loop() {
					d.Describe(call)
				}
				if f := failures(); len(f) > 0 {
					b.Fatal(fmt.Sprint(f[0].Err))
				}
			})
		}
	}
}
