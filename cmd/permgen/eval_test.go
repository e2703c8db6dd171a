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
			"expr:1:1: type conversion error from 'string' to 'int'\n" +
				"    int(input.n)\n" +
				"    ^\n" +
				"permgen eval: evaluation failed at expr:1:1\n", 1},
		// A JSON number is a double to undeclared input: the failure names
		// the operator and the types, with a caret under the operator.
		{"operator on operands of other types", []string{"--input", `{"count": 3}`, `"files: " + input.count`}, "", "",
			"expr:1:11: no such overload: string + double\n" +
				`    "files: " + input.count` + "\n" +
				"              ^\n" +
				"permgen eval: evaluation failed at expr:1:11\n", 1},
		{"function on operands of other types", []string{"--input", `{"s": 3}`, "\"x\" +\n  truncate(input.s, 2)"}, "", "",
			"expr:2:3: no such overload: truncate(double, int)\n" +
				"      truncate(input.s, 2)\n" +
				"      ^\n" +
				"permgen eval: evaluation failed at expr:2:3\n", 1},
		{"method on a value of another type", []string{"--input", `{"s": 3}`, `input.s.startsWith("x")`}, "", "",
			"expr:1:9: no such overload: double.startsWith(string)\n" +
				`    input.s.startsWith("x")` + "\n" +
				"            ^\n" +
				"permgen eval: evaluation failed at expr:1:9\n", 1},
		{"a result without a catalog", []string{"--result", `{"text": "ok"}`, "result.text"}, "", "",
			"permgen eval: -result needs -catalog: only an entry's result, error and expand see a result\nrun 'permgen help eval' for usage\n", 2},
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

// evalCatalog is a catalog whose entry declares its input, has lets of
// its own and a shared one, and an alias.
const evalCatalog = `version: 1
let:
  unit: 'input.count == 1 ? "file" : "files"'
formatters:
  - tool: delete
    aliases: [rm]
    input:
      count: int
      paths: list(string)
    let:
      shown: input.paths.map(p, "'" + p + "'").join(", ")
      what: plural(input.count, unit, unit)
    preview: '"delete " + what + ": " + shown'
    result: 'result.text'
    examples:
      - input: {count: 2, paths: [a, b]}
        preview: "delete 2 files: 'a', 'b'"
  - tool: "srv:*"
    preview: '"on " + tool'
    examples:
      - tool: "srv:x"
        input: {}
        preview: on srv:x
`

func TestEvalInAnEntry(t *testing.T) {
	dir := t.TempDir()
	catalog := filepath.Join(dir, "formatters.yaml")
	assert.NoError(t, os.WriteFile(catalog, []byte(evalCatalog), 0o644))
	broken := filepath.Join(dir, "broken.yaml")
	assert.NoError(t, os.WriteFile(broken, []byte("version: 1\nformatters:\n  - tool: x\n    preview: 'input.'\n"), 0o644))
	in := `{"count": 2, "paths": ["a", "b"]}`
	tests := []struct {
		name   string
		args   []string
		stdout string
		stderr string
		code   int
	}{
		// Declared int: plural takes it, where undeclared input's double
		// would fail.
		{"declared types", []string{"--tool", "delete", "--input", in, `plural(input.count, "file", "files")`},
			`"2 files" (string)` + "\n", "", 0},
		{"lets and shared lets", []string{"--tool", "delete", "--input", in, `what + " / " + shown + " / " + unit`},
			`"2 files / 'a', 'b' / files" (string)` + "\n", "", 0},
		{"the type of a let", []string{"--tool", "delete", "--input", in, `input.paths`},
			`["a", "b"] (list(string))` + "\n", "", 0},
		{"an alias names the entry, the variable tool is the name given", []string{"--tool", "rm", "--input", in, `tool + " " + what`},
			`"rm 2 files" (string)` + "\n", "", 0},
		{"a server's tool falls to its wildcard entry", []string{"--tool", "srv:drop", "tool"},
			`"srv:drop" (string)` + "\n", "", 0},
		{"the result", []string{"--tool", "delete", "--input", in, "--result", `{"text": "removed"}`, `result.text + " " + what`},
			`"removed 2 files" (string)` + "\n", "", 0},
		{"a declared field of another type", []string{"--tool", "delete", "--input", `{"count": "two", "paths": []}`, `input.count + 1`},
			"", "expr:1:6: input field count: want int, got string\n" +
				"    input.count + 1\n" +
				"         ^\n" +
				"permgen eval: evaluation failed at expr:1:6\n", 1},
		{"an undeclared field", []string{"--tool", "delete", "--input", in, `input.cont`},
			"", "expr:1:7: undefined field 'cont' (did you mean 'count'?)\n" +
				"    input.cont\n" +
				"          ^\n" +
				"permgen eval: 1 problem\n", 1},
		{"no entry", []string{"--tool", "write", "tool"},
			"", "permgen eval: " + catalog + ": no entry for tool \"write\" (see permgen list)\n", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, "", append([]string{"eval", "--catalog", catalog}, tc.args...)...)
			assert.Equal(t, tc.code, code)
			assert.Equal(t, tc.stdout, stdout)
			assert.Equal(t, tc.stderr, stderr)
		})
	}
	t.Run("a catalog that does not check", func(t *testing.T) {
		_, stderr, code := runCLI(t, "", "eval", "--catalog", broken, "--tool", "x", "1")
		assert.Equal(t, 1, code)
		assert.Contains(t, stderr, broken+":4:")
		assert.Contains(t, stderr, "permgen eval: "+broken+": 1 problem")
	})
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
