package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/permgen/permgen/celfmt"
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

// A usage error is one line that says what is wrong, prefixed with the
// command, and one that says where its usage is: not the usage itself,
// which would bury the problem. It exits 2.
func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"preview", "-frmat", "json"},
			"permgen preview: flag provided but not defined: -frmat\nrun 'permgen help preview' for usage\n"},
		{"unknown flag after FILE", []string{"rows", "x.jsonl", "--nope"},
			"permgen rows: flag provided but not defined: -nope\nrun 'permgen help rows' for usage\n"},
		{"flag without its value", []string{"eval", "--input"},
			"permgen eval: flag needs an argument: -input\nrun 'permgen help eval' for usage\n"},
		{"value the flag package rejects", []string{"preview", "--preview-max", "many"},
			"permgen preview: invalid value \"many\" for flag -preview-max: parse error\nrun 'permgen help preview' for usage\n"},
		{"value the command rejects", []string{"preview", "--format", "yaml"},
			"permgen preview: --format must be text or json, got \"yaml\"\nrun 'permgen help preview' for usage\n"},
		{"mode", []string{"rows", "--mode", "loud"},
			"permgen rows: --mode: unknown mode \"loud\": want minimal, default or verbose\nrun 'permgen help rows' for usage\n"},
		{"icons", []string{"rows", "--icons", "emoji"},
			"permgen rows: --icons must be nerd or plain, got \"emoji\"\nrun 'permgen help rows' for usage\n"},
		{"color", []string{"rows", "--color", "red"},
			"permgen rows: --color must be auto, always or never, got \"red\"\nrun 'permgen help rows' for usage\n"},
		{"limit", []string{"rows", "--output-max", "0"},
			"permgen rows: --output-max must be a positive integer, got 0\nrun 'permgen help rows' for usage\n"},
		{"catalog command flag", []string{"generate", "-out", "x"},
			"permgen generate: flag provided but not defined: -out\nrun 'permgen help generate' for usage\n"},
		{"catalog command FILEs", []string{"check", "a.yaml", "b.yaml"},
			"permgen check: takes at most one FILE, got 2\nrun 'permgen help check' for usage\n"},
		{"flag of a command without flags", []string{"schema", "--json"},
			"permgen schema: flag provided but not defined: -json\nrun 'permgen help schema' for usage\n"},
		{"unknown command", []string{"frobnicate"},
			"permgen: unknown command \"frobnicate\"\nrun 'permgen help' for usage\n"},
		{"unknown command that looks like a flag", []string{"-x"},
			"permgen: unknown command \"-x\"\nrun 'permgen help' for usage\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, "", tc.args...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, stdout)
			assert.Equal(t, tc.want, stderr)
		})
	}
}

// version, --version and -version print the version and the CEL
// environment.
func TestVersion(t *testing.T) {
	want := "permgen " + version() + "\nCEL environment: " + celfmt.EnvVersion + "\n"
	tests := []struct {
		name   string
		args   []string
		stdout string
		stderr string
		code   int
	}{
		{"command", []string{"version"}, want, "", exitOK},
		{"--version", []string{"--version"}, want, "", exitOK},
		{"-version", []string{"-version"}, want, "", exitOK},
		{"--version with an argument", []string{"--version", "x"}, "",
			"permgen version: takes no arguments\nrun 'permgen help version' for usage\n", exitUsage},
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

// A flag's placeholder in -h says what its value is: the values it takes,
// or what the value names, never the type's name or the flag's own name.
func TestFlagPlaceholders(t *testing.T) {
	tests := []struct {
		command string
		line    string // the flag's line in -h
	}{
		{"preview", "  -format text|json\n"},
		{"preview", "  -catalog FILE\n"},
		{"preview", "  -preview-max N\n"},
		{"preview", "  -output-max-bytes N\n"},
		{"rows", "  -mode minimal|default|verbose\n"},
		{"rows", "  -icons nerd|plain\n"},
		{"rows", "  -color auto|always|never\n"},
		{"eval", "  -input JSON|@FILE\n"},
		{"eval", "  -tool NAME\n"},
		{"generate", "  -f FILE\n"},
		{"generate", "  -o DIR\n"},
		{"generate", "  -package NAME\n"},
		{"diff", "  -o DIR\n"},
		{"check", "  -f FILE\n"},
		{"test", "  -f FILE\n"},
		{"list", "  -f FILE\n"},
	}
	for _, tc := range tests {
		t.Run(tc.command+strings.TrimRight(tc.line, "\n"), func(t *testing.T) {
			stdout, _, _ := runCLI(t, "", tc.command, "-h")
			assert.Contains(t, stdout, tc.line)
		})
	}
	// Every flag of every command: a placeholder is upper case or a list
	// of values.
	flagLine := regexp.MustCompile(`(?m)^  -(\S+) (\S+)$`)
	for _, c := range commands {
		stdout, _, _ := runCLI(t, "", c.name, "-h")
		for _, m := range flagLine.FindAllStringSubmatch(stdout, -1) {
			name, placeholder := m[1], m[2]
			if placeholder != strings.ToUpper(placeholder) && !strings.Contains(placeholder, "|") {
				t.Errorf("%s -%s: placeholder %q names neither the value nor the values", c.name, name, placeholder)
			}
		}
	}
}

// The catalog commands take the catalog as -f FILE or as FILE; both at
// once is a usage error that names both, even when they agree.
func TestCatalogFileOnce(t *testing.T) {
	for _, cmd := range []string{"generate", "diff", "check", "test", "list"} {
		tests := []struct {
			name string
			args []string
		}{
			{"-f first", []string{"-f", "a.yaml", "b.yaml"}},
			{"FILE first", []string{"b.yaml", "-f", "a.yaml"}},
			{"-f=", []string{"-f=a.yaml", "b.yaml"}},
		}
		for _, tc := range tests {
			t.Run(cmd+"/"+tc.name, func(t *testing.T) {
				stdout, stderr, code := runCLI(t, "", append([]string{cmd}, tc.args...)...)
				assert.Equal(t, exitUsage, code)
				assert.Empty(t, stdout)
				assert.Equal(t, "permgen "+cmd+": -f a.yaml and FILE b.yaml both name the catalog: give one\n"+
					"run 'permgen help "+cmd+"' for usage\n", stderr)
			})
		}
	}
	// The same file both ways is still one too many.
	_, stderr, code := runCLI(t, "", "check", "-f", "a.yaml", "a.yaml")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "-f a.yaml and FILE a.yaml both name the catalog")
}
