package celfmt

import (
	"testing"
)

// A declared int field reaches CEL exactly, read from the literal.
func TestDeclaredIntFromLiteral(t *testing.T) {
	f := formatter(t, `  - tool: t
    input:
      id: int
      ratio: double
    preview: 'string(input.id) + " " + string(input.id + 1) + " " + json(input) + " " + string(input.ratio)'
`, Options{})
	tests := []formatCase{
		{`{"id":9007199254740993,"ratio":1.50}`, `9007199254740993 9007199254740994 {"id":9007199254740993,"ratio":1.50} 1.5`, ""},
		{`{"id":-9223372036854775808}`, `-9223372036854775808 -9223372036854775807 {"id":-9223372036854775808} 0`, ""},
		{`{"id":1e3}`, `1000 1001 {"id":1e3} 0`, ""},
		{`{"id":2.0}`, `2 3 {"id":2.0} 0`, ""},
		{`{"id":-0}`, `0 1 {"id":-0} 0`, ""},
		{`{"id":1.5}`, "", "input field id: want int, got a number that is not an integer"},
		{`{"id":9223372036854775808}`, "", "input field id: want int, got a number outside the int range"},
		{`{"id":1e400}`, "", "input field id: want int, got a number outside the int range"},
	}
	assertFormats(t, f, tests)
}
