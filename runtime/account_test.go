package runtime

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reader is a formatter that declares the fields it reads.
type reader struct {
	Formatter
	fields InputFields
}

func (r reader) InputFields() InputFields { return r.fields }

func reads(text string, fields InputFields) Formatter {
	return reader{FormatterFunc(func(Request) (string, bool, error) { return text, true, nil }), fields}
}

func paths(names ...string) [][]string {
	var p [][]string
	for _, n := range names {
		p = append(p, strings.Split(n, "."))
	}
	return p
}

// TestUnreadFieldsShown: whatever answers a call, a field that its
// formatter neither reads nor omits is shown after the preview; a call of
// which it reads nothing is not one it knows, and the default preview
// shows it.
func TestUnreadFieldsShown(t *testing.T) {
	tests := []struct {
		name, input string
		fields      InputFields
		want        string
	}{
		{"every field read", `{"command":"ls","cwd":"/"}`, InputFields{Read: paths("command", "cwd")}, "to run ls"},
		{"a field no expression reads", `{"command":"ls","prefix_rule":["bash","-lc"]}`, InputFields{Read: paths("command")},
			`to run ls; also prefix_rule: ["bash", "-lc"]`},
		{"omitted on purpose", `{"command":"ls","description":"list"}`, InputFields{Read: paths("command"), Omitted: []string{"description"}},
			"to run ls"},
		{"a field of a field", `{"command":"ls","opts":{"cwd":"/","sudo":true}}`, InputFields{Read: paths("command", "opts.cwd")},
			"to run ls; also opts.sudo: true"},
		{"a field read whole", `{"command":"ls","opts":{"cwd":"/","sudo":true}}`, InputFields{Read: paths("command", "opts")},
			"to run ls"},
		{"reads all", `{"command":"ls","x":1}`, InputFields{All: true}, "to run ls"},
		{"reads none of the call's fields", `{"cmd":"rm -rf /"}`, InputFields{Read: paths("command")},
			`with input {"cmd":"rm -rf /"}`},
		{"omits every field the call has", `{"description":"x"}`, InputFields{Omitted: []string{"description"}}, "to run ls"},
		{"no input", `{}`, InputFields{Read: paths("command")}, "to run ls"},
		{"a credential it does not read", `{"command":"ls","api_key":"k-12345678"}`, InputFields{Read: paths("command")},
			`to run ls; also api_key: "‹secret, 10 characters›"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := newDispatcher(t, Limits{}, map[string]Formatter{"run": reads("to run ls", tc.fields)})
			assert.Equal(t, tc.want, d.Preview(Call{Tool: "run", Input: tc.input}).Text)
		})
	}
}

// TestUnreadFieldsNotAFieldReader: a formatter that does not say what it
// reads is taken to read every field, as before.
func TestUnreadFieldsNotAFieldReader(t *testing.T) {
	d := newDispatcher(t, Limits{}, map[string]Formatter{"run": text("to run ls")})
	assert.Equal(t, "to run ls", d.Preview(Call{Tool: "run", Input: `{"cmd":"x","y":2}`}).Text)
}

// TestUnreadFieldsShare: a model cannot push the formatter's text out with
// long unread fields, nor hide an unread field behind a long preview:
// each keeps a share of the output limit.
func TestUnreadFieldsShare(t *testing.T) {
	long := strings.Repeat("a", 2000)
	d := newDispatcher(t, Limits{}, map[string]Formatter{
		"run":  reads("to run "+long, InputFields{Read: paths("command")}),
		"tail": reads("to run ls", InputFields{Read: paths("command")}),
	})
	limit := d.Limits().Output
	got := d.Preview(Call{Tool: "run", Input: `{"command":"x","sudo":true}`}).Text
	assert.True(t, strings.HasSuffix(got, "; also sudo: true"), got)
	assert.LessOrEqual(t, utf8.RuneCountInString(got), limit)

	got = d.Preview(Call{Tool: "tail", Input: `{"command":"x","pad":"` + long + `","sudo":true}`}).Text
	require.True(t, strings.HasPrefix(got, "to run ls; also pad: "), got)
	assert.Contains(t, got, "sudo: true")
	assert.LessOrEqual(t, utf8.RuneCountInString(got), limit)
}

// TestUnreadFieldsUmbrella: the umbrella MCP formatter receives the tool in
// its input, which the prompt names already; its arguments' other fields
// are shown.
func TestUnreadFieldsUmbrella(t *testing.T) {
	d := newDispatcher(t, Limits{}, map[string]Formatter{
		"mcp": reads("with query", InputFields{Read: paths("arguments.query")}),
	})
	c := Call{Tool: "exa:search", Source: "mcp", Input: `{"query":"go","region":"eu"}`}
	assert.Equal(t, `with query; also arguments.region: "eu"`, d.Preview(c).Text)
	c.Input = `{"query":"go"}`
	assert.Equal(t, "with query", d.Preview(c).Text)
}

func TestFieldPaths(t *testing.T) {
	got := FieldPaths([][]string{{"b"}, {"a", "x"}, {"a"}, {"b"}, {}, {"c", "d"}, {"c", "d", "e"}})
	assert.Equal(t, [][]string{{"a"}, {"b"}, {"c", "d"}}, got)
	assert.Nil(t, FieldPaths(nil))
}
