package celfmt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/runtime"
)

// TestInputFields: what an entry reads is found in its checked
// expressions, so that the dispatcher can show the fields it does not.
func TestInputFields(t *testing.T) {
	tests := []struct {
		name, entry string
		want        runtime.InputFields
	}{
		{"selects", `preview: 'string(input.a) + string(input.?b.orValue("")) + (has(input.c) ? "c" : "")'`,
			runtime.InputFields{Read: [][]string{{"a"}, {"b"}, {"c"}}}},
		{"indexes by constant", `preview: 'string(input["a"]) + string(input[?"b"].orValue(""))'`,
			runtime.InputFields{Read: [][]string{{"a"}, {"b"}}}},
		{"a field of a field", `preview: 'string(input.opts.cwd) + string(input.opts.?sudo.orValue(false))'`,
			runtime.InputFields{Read: [][]string{{"opts", "cwd"}, {"opts", "sudo"}}}},
		{"a field and its whole", `preview: 'string(input.opts.cwd) + string(input.opts.size())'`,
			runtime.InputFields{Read: [][]string{{"opts"}}}},
		{"through lets", "let:\n      p: input.path\n      q: p + string(input.mode)\n    preview: q",
			runtime.InputFields{Read: [][]string{{"mode"}, {"path"}}}},
		{"a let the preview does not use", "let:\n      unused: string(input.secret)\n    preview: string(input.path)",
			runtime.InputFields{Read: [][]string{{"path"}}}},
		{"unwrap reads too", "preview: string(input.path)\n    unwrap: '[{\"tool\": \"t\", \"input\": input.calls}]'",
			runtime.InputFields{Read: [][]string{{"calls"}, {"path"}}}},
		{"numberText and mcpValue name a field", `preview: 'numberText(input, "timeout") + mcpValue(input, "v")'`,
			runtime.InputFields{Read: [][]string{{"timeout"}, {"v"}}}},
		{"alternatives names its fields", `preview: 'alternatives(input, ["path", "file_path"]).map(p, p[1]).join(" or ")'`,
			runtime.InputFields{Read: [][]string{{"file_path"}, {"path"}}}},
		{"alternatives of computed names", `preview: 'alternatives(input, [string(input.k)]).size() > 0 ? "a" : "b"'`,
			runtime.InputFields{All: true}},
		{"rawText reads no field", `preview: 'rawText(input).orValue(string(input.patch))'`,
			runtime.InputFields{Read: [][]string{{"patch"}}}},
		{"input whole", `preview: 'fields(input, 100)'`, runtime.InputFields{All: true}},
		{"iterated", `preview: 'input.map(k, k).join(",")'`, runtime.InputFields{All: true}},
		{"a computed key", `preview: 'string(input[string(input.k)])'`, runtime.InputFields{All: true}},
		{"declared fields count as read", "input:\n      path: string\n      force: bool\n    preview: input.path",
			runtime.InputFields{Read: [][]string{{"force"}, {"path"}}}},
		{"omits", "omits: [description]\n    preview: string(input.path)",
			runtime.InputFields{Read: [][]string{{"path"}}, Omitted: []string{"description"}}},
		{"reads nothing", `preview: '"constant"'`, runtime.InputFields{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := formatter(t, "  - tool: t\n    "+tc.entry+"\n", Options{})
			assert.Equal(t, tc.want, f.InputFields())
			var _ runtime.FieldReader = f
			g, err := f.Generated()
			require.NoError(t, err)
			assert.Equal(t, tc.want, g.Fields, "generated code carries them")
		})
	}
}

func TestOmitsErrors(t *testing.T) {
	for _, tc := range []struct{ name, omits, want string }{
		{"not a list", "omits: description", "c.yaml:4:12: omits must be a list of input field names, got string \"description\""},
		{"twice", "omits: [a, a]", `c.yaml:4:16: duplicate omitted field "a": already listed at c.yaml:4:13`},
		{"empty", `omits: [""]`, "c.yaml:4:13: an omitted field must be a field name, got an empty string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := loadErrors(t, "version: 1\nformatters:\n  - tool: t\n    "+tc.omits+"\n    preview: '\"x\"'\n")
			assert.Contains(t, got, tc.want)
		})
	}
}
