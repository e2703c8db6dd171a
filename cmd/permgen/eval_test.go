package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEval(t *testing.T) {
	inputFile := filepath.Join(t.TempDir(), "input.json")
	assert.NoError(t, os.WriteFile(inputFile, []byte(`{"b": 1, "a": ["x", true, null]}`), 0o644))
	tests := []struct {
		name   string
		args   []string
		stdin  string
		stdout string
		stderr string
		code   int
	}{
		{"string", []string{"--input", `{"path": "/x"}`, `"for path '" + input.path + "'"`}, "",
			`"for path '/x'" (string)` + "\n", "", 0},
		{"number", []string{"--input", `{"edits": [1, 2, 3]}`, `input.edits.size()`}, "",
			"3 (int)\n", "", 0},
		{"decline", []string{`nonEmpty(input.?path.orValue(""))`}, "",
			"optional.none() (optional_type(string): declines)\n", "", 0},
		{"optional with a value", []string{"--input", `{"path": "/x"}`, `nonEmpty(input.?path.orValue(""))`}, "",
			`optional.of("/x") (optional_type(string))` + "\n", "", 0},
		{"tool and limits", []string{"--tool", "read", "--summary-max", "9", `tool + " " + string(limits.summary)`}, "",
			`"read 9" (string)` + "\n", "", 0},
		{"input from a file, in its order", []string{"--input", "@" + inputFile, "input"}, "",
			`{"b": 1.0, "a": ["x", true, null]} (map(string, dyn))` + "\n", "", 0},
		{"input from standard input", []string{"--input", "@-", "input.k"}, `{"k": "v"}`,
			`"v" (dyn)` + "\n", "", 0},
		{"an expression after --", []string{"--", "-1"}, "",
			"-1 (int)\n", "", 0},
		{"type error", []string{`"count: " + input.items.size() + 1`}, "", "",
			"expr:1:11: found no matching overload for '_+_' applied to '(string, int)'\n" +
				`    "count: " + input.items.size() + 1` + "\n" +
				"              ^\n" +
				"permgen eval: 1 problem\n", 1},
		{"syntax errors on a later line", []string{"\"a\" +\n  + )"}, "", "",
			"expr:2:3: Syntax error: mismatched input '+' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n" +
				"      + )\n" +
				"      ^\n" +
				"expr:2:5: Syntax error: mismatched input ')' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n" +
				"      + )\n" +
				"        ^\n" +
				"permgen eval: 2 problems\n", 1},
		{"run-time failure", []string{"--input", `{"n": "x"}`, `int(input.n)`}, "", "",
			"permgen eval: evaluation failed: type conversion error from 'string' to 'int'\n", 1},
		{"bad input JSON", []string{"--input", `{"a": 1,}`, "input"}, "", "",
			"permgen eval: --input: invalid JSON at column 9: invalid character '}' looking for beginning of object key string\n", 1},
		{"text after the input", []string{"--input", `{} x`, "input"}, "", "",
			"permgen eval: --input: text after the JSON object at column 3\n", 1},
		{"empty input", []string{"--input", ` `, "input"}, "", "",
			"permgen eval: --input: empty: want a JSON object\n", 1},
		{"input not an object", []string{"--input", `[1]`, "input"}, "", "",
			"permgen eval: --input: must be a JSON object, got array\n", 1},
		{"input file missing", []string{"--input", "@" + inputFile + ".absent", "input"}, "", "",
			"permgen eval: --input: open " + inputFile + ".absent: no such file or directory\n", 1},
		{"no expression", nil, "", "",
			"permgen eval: takes one EXPR, got 0 (quote the expression)\nrun 'permgen help eval' for usage\n", 2},
		{"two expressions", []string{"1", "2"}, "", "",
			"permgen eval: takes one EXPR, got 2 (quote the expression)\nrun 'permgen help eval' for usage\n", 2},
		{"bad limit", []string{"--log-max", "0", "1"}, "", "",
			"permgen eval: --log-max must be a positive integer, got 0\nrun 'permgen help eval' for usage\n", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tc.stdin, append([]string{"eval"}, tc.args...)...)
			assert.Equal(t, tc.code, code)
			assert.Equal(t, tc.stdout, stdout)
			assert.Equal(t, tc.stderr, stderr)
		})
	}
}

func TestEvalHelp(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "eval", "-h")
	assert.Equal(t, 0, code)
	assert.Empty(t, stderr)
	assert.Contains(t, stdout, "Usage: permgen eval [flags] EXPR")
	assert.Contains(t, stdout, `optional.none() (optional_type(string): declines)`)
	assert.Contains(t, stdout, "-input")
	stdout, _, _ = runCLI(t, "", "-h")
	assert.Contains(t, stdout, "\teval ")
}
