package textfmt

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/permgen/permgen/runtime/value"
)

func TestCommandError(t *testing.T) {
	details := func(fields map[string]any) func(string) (any, bool) {
		return func(key string) (any, bool) { v, ok := fields[key]; return v, ok }
	}
	for _, tc := range []struct {
		name    string
		details map[string]any
		text    string
		want    string
		ok      bool
	}{
		{"code and output", map[string]any{"exitCode": 1.0}, "FAIL billing\n--- more", "exit 1: FAIL billing", true},
		{"exit_code", map[string]any{"exit_code": int64(2)}, "", "exit 2", true},
		{"code of the model", map[string]any{"code": value.NumberOf(127)}, "sh: nope: not found", "exit 127: sh: nope: not found", true},
		{"the first number wins", map[string]any{"exitCode": "1", "exit_code": 3.0, "code": 4.0}, "", "exit 3", true},
		{"pi's marker", nil, "\x1b[31mboom\x1b[0m\n\nCommand exited with code 2", "exit 2: \x1b[31mboom\x1b[0m", true},
		{"the last marker", nil, "exited with code 0\nexited with code 9", "exit 9: exited with code 0", true},
		{"details before the marker", map[string]any{"exitCode": 5.0}, "Command exited with code 0", "exit 5: Command exited with code 0", true},
		{"a marker with no code", nil, "oops, exited with code ", "oops, exited with code", true},
		{"output only", nil, "  permission denied  \n", "permission denied", true},
		{"a long line", nil, strings.Repeat("a", 50), strings.Repeat("a", 40) + "…", true},
		{"nothing", map[string]any{"exitCode": nil}, " \n", "", false},
	} {
		got, ok := CommandError(details(tc.details), tc.text, 40)
		assert.Equal(t, tc.ok, ok, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
	}
}

func TestOutputLines(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"a\nb\n", []string{"a", "b"}},
		{"a\n\nb", []string{"a", "", "b"}},
		{"a\n\n", []string{"a", ""}},
		{"one", []string{"one"}},
	} {
		got, ok := OutputLines(tc.text)
		assert.True(t, ok, "%q", tc.text)
		assert.Equal(t, tc.want, got, "%q", tc.text)
	}
	for _, blank := range []string{"", "\n", " \t\n"} {
		_, ok := OutputLines(blank)
		assert.False(t, ok, "%q", blank)
	}
}
