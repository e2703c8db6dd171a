package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const rowsCalls = `{"tool":"grep","id":"c1","input":{"pattern":"TODO","path":"/src"},"durationMs":1234,"result":{"content":[{"type":"text","text":"a.go:1: TODO\nb.go:2: TODO"}]}}
{"tool":"deploy","id":"c2","input":{"service":"api","replicas":3},"result":{"content":[{"type":"text","text":"permission denied\u001b[2K"}],"isError":true}}
{"tool":"ponder","input":"plan"}
`

func TestRowsModes(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--mode", "minimal"}, "Grep TODO in /src\n" +
			"  = 2 matches (1.2s)\n" +
			`Deploy with input {"service":"api","replicas":3}` + "\n" +
			"  ! failed: permission denied\n" +
			`Ponder with input "plan"` + "\n"},
		{[]string{"--mode", "verbose", "--no-builtin"}, `Grep with input {"pattern":"TODO","path":"/src"}` + "\n" +
			"    │ {\n" +
			"    │   \"pattern\": \"TODO\",\n" +
			"    │   \"path\": \"/src\"\n" +
			"    │ }\n" +
			"  └ ✅ a.go:1: TODO (+1 line) (1.2s)\n" +
			"    │ {\n" +
			"    │   \"content\": [\n" +
			"    │     {\n" +
			"    │       \"type\": \"text\",\n" +
			"    │       \"text\": \"a.go:1: TODO\\nb.go:2: TODO\"\n" +
			"    │     }\n" +
			"    │   ],\n" +
			"    │   \"isError\": false\n" +
			"    │ }\n" +
			`Deploy with input {"service":"api","replicas":3}` + "\n" +
			"    │ {\n" +
			"    │   \"service\": \"api\",\n" +
			"    │   \"replicas\": 3\n" +
			"    │ }\n" +
			"  └ ❌ failed: permission denied\n" +
			"    │ {\n" +
			"    │   \"content\": [\n" +
			"    │     {\n" +
			"    │       \"type\": \"text\",\n" +
			"    │       \"text\": \"permission denied\\u001b[2K\"\n" +
			"    │     }\n" +
			"    │   ],\n" +
			"    │   \"isError\": true\n" +
			"    │ }\n" +
			`Ponder with input "plan"` + "\n" +
			`    │ "plan"` + "\n"},
		{[]string{"--no-builtin", "--icons", "plain"}, `Grep with input {"pattern":"TODO","path":"/src"}` + "\n" +
			"  └ ✅ a.go:1: TODO (+1 line) (1.2s)\n" +
			`Deploy with input {"service":"api","replicas":3}` + "\n" +
			"  └ ❌ failed: permission denied\n" +
			`Ponder with input "plan"` + "\n"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			stdout, stderr, code := runCLI(t, rowsCalls, append([]string{"rows"}, tc.args...)...)
			require.Equal(t, 0, code, stderr)
			assert.Equal(t, tc.want, stdout)
		})
	}
}

func TestRowsColour(t *testing.T) {
	stdout, _, code := runCLI(t, rowsCalls, "rows", "--color", "always", "--no-builtin")
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "\x1b[1mGrep\x1b[0m with input {\"pattern\":\"TODO\",\"path\":\"/src\"}\n  └ ✅ \x1b[2ma.go:1: TODO (+1 line)\x1b[0m \x1b[2m(1.2s)\x1b[0m\n")
	assert.Contains(t, stdout, "  └ ❌ \x1b[31mfailed: permission denied\x1b[0m\n")
	assert.Equal(t, 3*2+3*2, strings.Count(stdout, "\x1b["), "only the styles permgen writes: the result's own escape is stripped")

	stdout, _, _ = runCLI(t, rowsCalls, "rows", "--no-builtin")
	assert.NotContains(t, stdout, "\x1b[", "auto: a buffer is not a terminal")
	t.Setenv("NO_COLOR", "1")
	colour, err := useColour("auto", 0, os.Stdout)
	require.NoError(t, err)
	assert.False(t, colour, "NO_COLOR")
	stdout, _, _ = runCLI(t, rowsCalls, "rows", "--mode", "minimal", "--color", "always")
	assert.NotContains(t, stdout, "\x1b[", "minimal is never coloured")
}

func TestRowsBadInput(t *testing.T) {
	in := `{"tool":"grep","input":{}}
{"tool":"grep","result":{"content":"x"}}
{"tool":"grep","result":{"content":[],"extra":1}}
{"tool":"grep","result":{"isError":"yes"}}
{"tool":"grep","result":[1]}
{"tool":"grep","result":{"content":[1]}}
`
	stdout, stderr, code := runCLI(t, in, "rows", "--mode", "minimal")
	assert.Equal(t, 1, code)
	assert.Equal(t, "Grep for current working directory\n", stdout)
	assert.Equal(t, `<stdin>:2: result "content" must be a list, got string
<stdin>:3: unknown result field "extra" (known: content, details, isError)
<stdin>:4: result "isError" must be a boolean, got string
<stdin>:5: field "result" must be an object, got array
<stdin>:6: result "content" item 1 must be an object, got number
`, stderr)

	_, stderr, code = runCLI(t, "", "rows", "--mode", "loud")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `unknown mode "loud": want minimal, default or verbose`)
	_, stderr, code = runCLI(t, "", "rows", "--icons", "emoji")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `--icons must be nerd or plain, got "emoji"`)

	_, stderr, code = runCLI(t, `{"tool":"x","result":{}}`, "preview")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `unknown field "result"`, "preview takes calls, not results")
}

// TestRowsTranscript renders the transcript in every mode and icon set and
// compares with golden files (go test ./cmd/permgen -update rewrites them).
func TestRowsTranscript(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "transcript.jsonl")
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Skip("no transcript")
	}
	require.NoError(t, err)
	require.GreaterOrEqual(t, strings.Count(string(data), "\n"), 40, "the transcript holds at least 40 calls")
	for _, args := range [][]string{{"--mode", "minimal"}, {"--mode", "default"}, {"--mode", "default", "--icons", "plain"}, {"--mode", "verbose"}} {
		name := strings.TrimPrefix(strings.Join(args, ""), "--mode")
		name = strings.ReplaceAll(name, "--icons", ".")
		t.Run(name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, "", append([]string{"rows", path}, args...)...)
			require.Equal(t, 0, code, stderr)
			golden(t, filepath.Join("..", "..", "testdata", "golden", "transcript."+name+".txt"), []byte(stdout))
		})
	}
}

// TestRowsReportsFailures: a row that fails on a finished call is reported
// with its line, the call gets the default rendering, and the counts at the
// end name the rows command.
func TestRowsReportsFailures(t *testing.T) {
	catalog := filepath.Join(t.TempDir(), "fails.yaml")
	require.NoError(t, os.WriteFile(catalog, []byte("version: 1\nformatters:\n  - tool: boom\n    row: 'string(input.n + 1)'\n"), 0o644))
	var in strings.Builder
	for range 22 {
		in.WriteString(`{"tool":"boom","input":{"n":"x"}}` + "\n")
	}
	in.WriteString("[1]\n")
	stdout, stderr, code := runCLI(t, in.String(), "rows", "--mode", "minimal", "--no-builtin", "--catalog", catalog)
	assert.Equal(t, 1, code, "the bad last line")
	assert.Equal(t, strings.Repeat(`Boom with input {"n":"x"}`+"\n", 22), stdout)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	require.Len(t, lines, 22)
	assert.Contains(t, lines[0], "<stdin>:1: formatter "+catalog+"#boom failed: row: ")
	assert.Equal(t, "<stdin>:23: a call must be a JSON object, got array", lines[20])
	assert.Equal(t, "permgen rows: <stdin>: 2 more formatter failures not shown", lines[21])
}

// TestRowsDurationsAndCommunication: a line's durationMs is shown after
// its result, bad ones are reported, and a communication tool's rows are
// shown in verbose mode only, as Peekaboo's agent does.
func TestRowsDurationsAndCommunication(t *testing.T) {
	in := `{"tool":"grep","input":{},"durationMs":"fast","result":{}}
{"tool":"grep","input":{},"durationMs":-1,"result":{}}
{"tool":"grep","input":{},"durationMs":1e300,"result":{}}
{"tool":"grep","input":{},"durationMs":0.25,"result":{}}
{"tool":"grep","input":{},"durationMs":null,"result":{}}
`
	stdout, stderr, code := runCLI(t, in, "rows", "--mode", "minimal")
	assert.Equal(t, 1, code)
	assert.Equal(t, "Grep for current working directory\n  = no matches (250µs)\nGrep for current working directory\n  = no matches\n", stdout)
	assert.Equal(t, `<stdin>:1: field "durationMs" must be a number of milliseconds, got string
<stdin>:2: field "durationMs" must be from 0 to 31536000000 milliseconds, got -1
<stdin>:3: field "durationMs" must be from 0 to 31536000000 milliseconds, got 1e300
`, stderr)

	catalog := filepath.Join(t.TempDir(), "done.yaml")
	require.NoError(t, os.WriteFile(catalog, []byte(`version: 1
formatters:
  - tool: done
    title: Task Completed
    icon: "✅"
    communication: true
    row: '"finished"'
`), 0o644))
	calls := `{"tool":"done","input":{"message":"all set"},"result":{"content":[{"type":"text","text":"all set"}]}}
{"tool":"grep","input":{},"result":{}}
`
	for mode, want := range map[string]string{
		"minimal": "Grep\n  = done\n",
		"default": "Grep\n  └ ✅ done\n",
		"verbose": "✅ Task Completed finished\n",
	} {
		stdout, stderr, code := runCLI(t, calls, "rows", "--mode", mode, "--icons", "plain", "--no-builtin", "--catalog", catalog)
		require.Equal(t, 0, code, stderr)
		if mode == "verbose" {
			assert.True(t, strings.HasPrefix(stdout, want), stdout)
			continue
		}
		assert.Equal(t, want, stdout, mode)
	}
}

// TestRowsCwd: --cwd shows the paths inside the working directory
// relative to it, and must be a clean absolute path.
func TestRowsCwd(t *testing.T) {
	in := `{"tool":"read","input":{"path":"/home/dev/app/src/main.go"}}
{"tool":"read","input":{"path":"/home/dev/application/x"}}
`
	stdout, stderr, code := runCLI(t, in, "rows", "--mode", "minimal", "--cwd", "/home/dev/app")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "Read src/main.go\nRead /home/dev/application/x\n", stdout)
	for _, bad := range []string{"dev/app", "/home/dev/app/", "/home/../etc"} {
		_, stderr, code = runCLI(t, in, "rows", "--cwd", bad)
		assert.Equal(t, 2, code, bad)
		assert.Contains(t, stderr, "--cwd must be a clean absolute path", bad)
	}
}

// TestRowsStockTitles: the stock entries of Peekaboo's tools that act by
// action title each call by it, and a model that writes an escape, a line
// break or a title of its own into the name gets none of them onto the
// screen: the title stays one line of safe text, and an action the tool
// does not know shows the display name.
func TestRowsStockTitles(t *testing.T) {
	tests := []struct {
		name, call, want string
	}{
		{"a launch", `{"tool":"app","input":{"action":"launch","name":"Safari"}}`, "📱 App Launch: Safari launch 'Safari'\n"},
		{"escapes and line breaks in the name",
			`{"tool":"app","input":{"action":"launch","name":"Safari\u001b[2J\u001b]0;x\u0007\nApp Quit: Terminal"}}`,
			"📱 App Launch: Safari App Quit: Terminal launch 'Safari App Quit: Terminal'\n"},
		{"an unknown action", `{"tool":"app","input":{"action":"App Launch: Safari"}}`, "📱 App app launch: safari\n"},
		{"a dock item", `{"tool":"dock","input":{"action":"right-click","app":"Trash"}}`, "🚢 Dock Right click: Trash right-click 'Trash'\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tc.call+"\n", "rows", "--icons", "plain", "--color", "always")
			require.Equal(t, 0, code, stderr)
			plain := strings.ReplaceAll(strings.ReplaceAll(stdout, "\x1b[1m", ""), "\x1b[0m", "")
			assert.Equal(t, tc.want, plain)
			assert.Equal(t, 2, strings.Count(stdout, "\x1b["), "only the style permgen gives the title")
		})
	}
}

// TestRowsEmphasis: permgen rows maps the named styles a catalog's row
// asks for to its colours with --color, and drops them otherwise; a model
// that writes the marks itself gets neither a style nor a mark on screen.
func TestRowsEmphasis(t *testing.T) {
	catalog := filepath.Join("..", "..", "testdata", "catalogs", "good", "rows.yaml")
	calls := `{"tool":"read","input":{"path":"/src/a.go","limit":30}}` + "\n" +
		`{"tool":"read","input":{"path":"/x\u0091danger\u0092evil\u0093","limit":30}}` + "\n"
	stdout, stderr, code := runCLI(t, calls, "rows", "--no-builtin", "--catalog", catalog, "--icons", "plain", "--color", "always")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "📄 \x1b[1mRead\x1b[0m /src/a.go \x1b[2m(30 lines)\x1b[0m\n"+
		"📄 \x1b[1mRead\x1b[0m /xevil (30 lines)\n", stdout)

	stdout, _, _ = runCLI(t, calls, "rows", "--no-builtin", "--catalog", catalog, "--icons", "plain", "--color", "never")
	assert.Equal(t, "📄 Read /src/a.go (30 lines)\n📄 Read /xevil (30 lines)\n", stdout)
	for _, r := range stdout {
		assert.False(t, r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f, "control %U in the output", r)
	}
}
