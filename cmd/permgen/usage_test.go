package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// help CMD prints what CMD -h prints, on standard output; help alone, or
// about itself, prints permgen's usage; an unknown COMMAND is a usage
// error of one line and a pointer to the list of commands.
func TestHelpCommand(t *testing.T) {
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			want, _, _ := runCLI(t, "", c.name, "-h")
			stdout, stderr, code := runCLI(t, "", "help", c.name)
			assert.Equal(t, exitOK, code)
			assert.Empty(t, stderr)
			assert.NotEmpty(t, stdout)
			assert.Equal(t, want, stdout)
		})
	}
	tests := []struct {
		name   string
		args   []string
		stdout string
		stderr string
		code   int
	}{
		{"alone", []string{"help"}, usage(), "", exitOK},
		{"about itself", []string{"help", "help"}, usage(), "", exitOK},
		{"-h", []string{"-h"}, usage(), "", exitOK},
		{"--help", []string{"--help"}, usage(), "", exitOK},
		{"unknown command", []string{"help", "nosuch"}, "",
			"permgen help: unknown command \"nosuch\"\nrun 'permgen help' for usage\n", exitUsage},
		{"two commands", []string{"help", "preview", "rows"}, "",
			"permgen help: takes at most one COMMAND, got 2\nrun 'permgen help' for usage\n", exitUsage},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, "", tc.args...)
			assert.Equal(t, tc.code, code)
			assert.Equal(t, tc.stdout, stdout)
			assert.Equal(t, tc.stderr, stderr)
		})
	}
}
