//go:build !permgen_lean

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/generated"
)

// decodeReport decodes one -format json report, refusing fields the
// report types do not have, so that a test sees the shape a consumer does.
func decodeReport(t *testing.T, stdout string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(v), stdout)
	assert.False(t, dec.More(), "one object")
}

func TestCheckJSON(t *testing.T) {
	good := filepath.Join("..", "..", "testdata", "catalogs", "good", "wrapped.yaml")
	stdout, stderr, code := runCLI(t, "", "check", "--format", "json", good)
	assert.Equal(t, 0, code, stderr)
	var report checkReport
	decodeReport(t, stdout, &report)
	assert.True(t, report.OK)
	assert.Equal(t, good, report.File)
	assert.Empty(t, report.Diagnostics)
	assert.Equal(t, 6, report.Formatters)
	assert.Equal(t, 5, report.Translated)
	require.Len(t, report.Interpreted, 1)
	assert.NotEmpty(t, report.Interpreted[0].Reason)
	assert.Contains(t, stdout, `"diagnostics": []`, "an empty list, not null")

	// The diagnostics of a catalog that does not check are in the object,
	// at the positions the text output gives, and nothing is on stderr.
	bad := filepath.Join("..", "..", "testdata", "catalogs", "bad", "undeclared-field.yaml")
	_, text, _ := runCLI(t, "", "check", bad)
	stdout, stderr, code = runCLI(t, "", "check", "--format", "json", bad)
	assert.Equal(t, 1, code)
	assert.Empty(t, stderr)
	var failed catalogReport
	decodeReport(t, stdout, &failed)
	assert.False(t, failed.OK)
	require.Len(t, failed.Diagnostics, 1)
	d := failed.Diagnostics[0]
	assert.Equal(t, "error", d.Severity)
	assert.True(t, strings.HasPrefix(text, bad+":22:17: "+d.Message+"\n"), text)
	assert.Equal(t, jsonDiagnostic{File: bad, Line: 22, Col: 17, Severity: "error", Message: d.Message}, d)

	// A warning is a diagnostic; -strict makes the check fail on it.
	noExamples := filepath.Join(t.TempDir(), "no-examples.yaml")
	require.NoError(t, os.WriteFile(noExamples, []byte("version: 1\nformatters:\n  - tool: t\n    preview: '\"x\"'\n"), 0o644))
	for _, strict := range []bool{false, true} {
		args := []string{"check", "--format", "json"}
		if strict {
			args = append(args, "-strict")
		}
		stdout, _, code = runCLI(t, "", append(args, noExamples)...)
		var warned checkReport
		decodeReport(t, stdout, &warned)
		require.Len(t, warned.Diagnostics, 1)
		assert.Equal(t, "warning", warned.Diagnostics[0].Severity)
		assert.Equal(t, 3, warned.Diagnostics[0].Line)
		assert.Equal(t, !strict, warned.OK)
		assert.Equal(t, map[bool]int{false: 0, true: 1}[strict], code)
	}

	_, stderr, code = runCLI(t, "", "check", "--format", "yaml", good)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `permgen check: -format must be text or json, got "yaml"`)
}

func TestTestJSON(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte(`version: 1
formatters:
  - tool: greet
    preview: '"hello " + string(input.name)'
    examples:
      - input: {name: ann}
        preview: hello ann
      - input: {name: bob}
        preview: hello rob
      - input: {name: [1]}
        preview: hello
`), 0o644))
	stdout, stderr, code := runCLI(t, "", "test", "--format", "json", bad)
	assert.Equal(t, 1, code, stderr)
	var report testReport
	decodeReport(t, stdout, &report)
	assert.False(t, report.OK)
	assert.Equal(t, 1, report.Passed)
	assert.Equal(t, 2, report.Failed)
	require.Len(t, report.Failures, 2)
	assert.Equal(t, jsonTestFailure{jsonPos: jsonPos{File: bad, Line: 9, Col: 18}, Tool: "greet", Example: 2,
		Problem: report.Failures[0].Problem, Want: `preview "hello rob"`, Got: `preview "hello bob"`}, report.Failures[0])
	assert.Equal(t, 3, report.Failures[1].Example)
	assert.Contains(t, report.Failures[1].Problem, "no such overload: string(list)")
	assert.Empty(t, report.Failures[1].Want, "a failure, not another text")

	good := filepath.Join("..", "..", "testdata", "catalogs", "good", "wrapped.yaml")
	stdout, _, code = runCLI(t, "", "test", "--format", "json", good)
	assert.Equal(t, 0, code)
	decodeReport(t, stdout, &report)
	assert.Equal(t, testReport{catalogReport: catalogReport{File: good, OK: true, Diagnostics: []jsonDiagnostic{}},
		Passed: 13, Failures: []jsonTestFailure{}}, report)
}

func TestListJSON(t *testing.T) {
	dir := t.TempDir()
	catalog := filepath.Join(dir, "c.yaml")
	// A title that would restyle the terminal reaches the JSON as safe
	// text too.
	require.NoError(t, os.WriteFile(catalog, []byte(`version: 1
formatters:
  - tool: deploy
    aliases: [ship]
    title: "Deploy\e[2J"
    omits: [note]
    tier: execute
    preview: '"to " + string(input.target)'
`), 0o644))
	stdout, stderr, code := runCLI(t, "", "list", "--format", "json", catalog)
	assert.Equal(t, 0, code, stderr)
	var report listReport
	decodeReport(t, stdout, &report)
	require.Len(t, report.Entries, 1)
	e := report.Entries[0]
	assert.Equal(t, jsonEntry{Key: "deploy", Owner: catalog + "#deploy", Pos: &jsonPos{File: catalog, Line: 3, Col: 5},
		Title: e.Title, Aliases: []string{"ship"}, Slots: []string{"preview", "tier:execute"}, Omits: []string{"note"}}, e)
	assert.NotContains(t, e.Title, "\x1b")
	assert.True(t, strings.HasPrefix(e.Title, "Deploy"))
	assert.False(t, report.Builtin)
}

// TestListBuiltin: without a FILE, list shows the catalog compiled into
// the binary, wherever it runs: each entry once, with its aliases.
func TestListBuiltin(t *testing.T) {
	t.Chdir(t.TempDir()) // no formatters.yaml here
	stdout, stderr, code := runCLI(t, "", "list", "--format", "json")
	assert.Equal(t, 0, code, stderr)
	var report listReport
	decodeReport(t, stdout, &report)
	assert.True(t, report.Builtin)
	keys, aliases := 0, 0
	for _, e := range generated.Entries() {
		if e.AliasOf == "" {
			keys++
		} else {
			aliases++
		}
	}
	require.Len(t, report.Entries, keys)
	listed := 0
	for _, e := range report.Entries {
		listed += len(e.Aliases)
		assert.Nil(t, e.Pos)
	}
	assert.Equal(t, aliases, listed)
	assert.Equal(t, jsonEntry{Key: "read", Owner: "formatters.yaml#read", Title: "Read", Aliases: []string{"Read", "read_file"}}, report.Entries[0])

	stdout, _, code = runCLI(t, "", "list")
	assert.Equal(t, 0, code)
	rows := strings.Split(strings.TrimSpace(stdout), "\n")
	assert.Len(t, rows, keys+1)
	assert.Equal(t, []string{"KEY", "OWNER", "TITLE", "ALIASES"}, strings.Fields(rows[0]))
	assert.Equal(t, []string{"read", "formatters.yaml#read", "Read", "Read,read_file"}, strings.Fields(rows[1]))

	// -f names a file even when it is the default's name.
	_, stderr, code = runCLI(t, "", "list", "-f", "formatters.yaml")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "no such file or directory")
}
