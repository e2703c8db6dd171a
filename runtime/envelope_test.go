package runtime

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/runtime/textfmt"
)

// echoInput shows the input it receives as compact JSON.
var echoInput = FormatterFunc(func(req Request) (string, bool, error) {
	return textfmt.CompactJSON(req.Input), true, nil
})

// A model writes a direct MCP call's arguments, and may add an "arguments"
// object of its own: only an input whose keys are an envelope's own is
// read as one, unless the host says its inputs are envelopes.
func TestMCPInputIsAnEnvelopeOnlyByItsKeys(t *testing.T) {
	tests := []struct {
		name  string
		call  Call
		shown string // what the server's formatter receives
	}{
		{"an extra arguments object is an argument",
			Call{Tool: "srv:execute_sql", Source: "mcp", Input: `{"sql":"DROP TABLE users","arguments":{"sql":"SELECT 1"}}`},
			`{"sql":"DROP TABLE users","arguments":{"sql":"SELECT 1"}}`},
		{"an empty arguments object does not erase the call",
			Call{Tool: "srv:delete_repository", Source: "mcp", Target: "srv:delete_repository", Input: `{"owner":"acme","repo":"prod","arguments":{}}`},
			`{"owner":"acme","repo":"prod","arguments":{}}`},
		{"the arguments alone are an envelope",
			Call{Tool: "srv:execute_sql", Source: "mcp", Input: `{"arguments":{"sql":"SELECT 1"}}`}, `{"sql":"SELECT 1"}`},
		{"the envelope's own keys",
			Call{Tool: "srv:execute_sql", Source: "mcp", Input: `{"_meta":{"progressToken":7},"tool":"srv:execute_sql","arguments":{"sql":"SELECT 1"}}`},
			`{"sql":"SELECT 1"}`},
		{"arguments that are not an object",
			Call{Tool: "srv:run", Source: "mcp", Input: `{"tool":"srv:run","arguments":[1,2]}`}, `{"tool":"srv:run","arguments":[1,2]}`},
		{"a tool key alone is an argument",
			Call{Tool: "srv:run", Source: "mcp", Input: `{"tool":"hammer"}`}, `{"tool":"hammer"}`},
		{"the host says its inputs are envelopes",
			Call{Tool: "srv:execute_sql", Source: "mcp", Envelope: true, Input: `{"id":3,"arguments":{"sql":"SELECT 1"}}`},
			`{"sql":"SELECT 1"}`},
		{"the umbrella with a target and arguments of its own",
			Call{Tool: "mcp", Target: "srv:execute_sql", Input: `{"sql":"DROP TABLE users","arguments":{"sql":"SELECT 1"}}`},
			`{"sql":"DROP TABLE users","arguments":{"sql":"SELECT 1"}}`},
		{"the umbrella with arguments alone",
			Call{Tool: "mcp", Target: "srv:execute_sql", Input: `{"sql":"DROP TABLE users"}`}, `{"sql":"DROP TABLE users"}`},
		{"the umbrella's envelope",
			Call{Tool: "mcp", Input: `{"tool":"srv:execute_sql","arguments":{"sql":"SELECT 1"}}`}, `{"sql":"SELECT 1"}`},
		{"the umbrella's envelope without arguments",
			Call{Tool: "mcp", Input: `{"tool":"srv:execute_sql"}`}, ``},
		{"the host's envelope without an arguments object",
			Call{Tool: "srv:execute_sql", Source: "mcp", Envelope: true, Input: `{"sql":"DROP TABLE users"}`},
			`{"sql":"DROP TABLE users"}`},
	}
	d := newDispatcher(t, Limits{Output: 300}, map[string]Formatter{"srv:*": echoInput})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.shown, d.Preview(tc.call).Text)
		})
	}
}

// The umbrella runs the tool its envelope names, whatever the check's
// target says: the prompt names both, and the call has the higher tier.
func TestTargetAndEnvelopeDisagree(t *testing.T) {
	formatters := map[string]Formatter{
		"gh:get_me":     wrapperFormatter{preview: text("who am I"), tier: static(TierRead)},
		"gh:delete":     wrapperFormatter{preview: text("delete it"), tier: static(TierExecute)},
		"gh:plain":      text("plain"),
		"lone:read":     wrapperFormatter{tier: static(TierRead)},
		"lone:write":    wrapperFormatter{tier: static(TierWrite)},
		"broken:read":   wrapperFormatter{tier: static(TierRead)},
		"broken:failed": wrapperFormatter{tier: func(Request) (Tier, error) { return TierRead, errors.New("boom") }},
	}
	tests := []struct {
		name   string
		call   Call
		prompt string
		tier   Tier
	}{
		{"umbrella with a target",
			Call{Tool: "mcp", Target: "gh:get_me", Input: `{"tool":"gh:delete","arguments":{"repo":"prod"}}`},
			"Current agent requested MCP target 'gh:get_me' (envelope names 'gh:delete') who am I. Allow this call?", TierExecute},
		{"direct call with an envelope",
			Call{Tool: "gh:get_me", Source: "mcp", Target: "gh:get_me", Input: `{"tool":"gh:delete","arguments":{"repo":"prod"}}`},
			"Current agent requested MCP target 'gh:get_me' (envelope names 'gh:delete') who am I. Allow this call?", TierExecute},
		{"direct call without a target",
			Call{Tool: "gh:get_me", Source: "mcp", Input: `{"tool":"gh:delete","arguments":{"repo":"prod"}}`},
			"Current agent requested tool 'gh:get_me' (envelope names 'gh:delete') who am I. Allow this call?", TierExecute},
		{"the envelope names a tool nothing declares",
			Call{Tool: "mcp", Target: "gh:get_me", Input: `{"tool":"gh:plain","arguments":{}}`},
			"Current agent requested MCP target 'gh:get_me' (envelope names 'gh:plain') who am I. Allow this call?", TierUnknown},
		{"the envelope names a tool of no server",
			Call{Tool: "mcp", Target: "gh:get_me", Input: `{"tool":"rm","arguments":{}}`},
			"Current agent requested MCP target 'gh:get_me' (envelope names 'rm') who am I. Allow this call?", TierUnknown},
		{"the higher of two known tiers",
			Call{Tool: "mcp", Target: "lone:write", Input: `{"tool":"lone:read","arguments":{}}`},
			"Current agent requested MCP target 'lone:write' (envelope names 'lone:read'). Allow this call?", TierWrite},
		{"the other tool's tier fails",
			Call{Tool: "mcp", Target: "broken:read", Input: `{"tool":"broken:failed","arguments":{}}`},
			"Current agent requested MCP target 'broken:read' (envelope names 'broken:failed'). Allow this call?", TierUnknown},
		{"the umbrella reads the tool of an input that is no envelope",
			Call{Tool: "mcp", Target: "gh:get_me", Input: `{"tool":"gh:delete","repo":"prod"}`},
			"Current agent requested MCP target 'gh:get_me' (envelope names 'gh:delete') who am I. Allow this call?", TierExecute},
		{"a direct call's tool argument is an argument",
			Call{Tool: "gh:get_me", Source: "mcp", Input: `{"tool":"gh:delete","repo":"prod"}`},
			"Current agent requested tool 'gh:get_me' who am I. Allow this call?", TierRead},
		{"they agree",
			Call{Tool: "mcp", Target: "gh:get_me", Input: `{"tool":"gh:get_me","arguments":{}}`},
			"Current agent requested MCP target 'gh:get_me' who am I. Allow this call?", TierRead},
		{"a hostile envelope tool is revealed",
			Call{Tool: "mcp", Target: "gh:get_me", Input: `{"tool":"gh:delete\u202e\n","arguments":{}}`},
			`Current agent requested MCP target 'gh:get_me' (envelope names 'gh:delete\u{202E}') who am I. Allow this call?`, TierUnknown},
	}
	d := newDispatcher(t, Limits{}, formatters)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			desc := d.Describe(tc.call)
			assert.Equal(t, tc.prompt, desc.Prompt)
			assert.Equal(t, tc.prompt, d.Prompt(tc.call))
			assert.Equal(t, tc.tier, desc.Tier)
		})
	}
}

// Every key a call matches is asked for its tier, and the call has the
// highest: a registration cannot make a call look safer than another
// entry for it says.
func TestTierIsTheHighestOfEveryKey(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name    string
		entries []Entry
		call    Call
		want    Tier
	}{
		{"a tool's entry does not lower its server's",
			[]Entry{{Key: "gh:*", Owner: "stock", Formatter: wrapperFormatter{tier: static(TierNetwork)}},
				{Key: "gh:delete", Owner: "plugin", Override: true, Formatter: wrapperFormatter{preview: text("harmless"), tier: static(TierRead)}}},
			Call{Tool: "gh:delete", Source: "mcp"}, TierNetwork},
		{"a tool's entry raises its server's",
			[]Entry{{Key: "gh:*", Owner: "stock", Formatter: wrapperFormatter{tier: static(TierNetwork)}},
				{Key: "gh:run", Owner: "stock", Formatter: wrapperFormatter{tier: static(TierExecute)}}},
			Call{Tool: "gh:run", Source: "mcp"}, TierExecute},
		{"an entry that declares nothing says nothing",
			[]Entry{{Key: "gh:*", Owner: "stock", Formatter: wrapperFormatter{tier: static(TierWrite)}},
				{Key: "gh:x", Owner: "stock", Formatter: text("x")}},
			Call{Tool: "gh:x", Source: "mcp"}, TierWrite},
		{"the umbrella's tier counts",
			[]Entry{{Key: "gh:*", Owner: "stock", Formatter: wrapperFormatter{tier: static(TierRead)}},
				{Key: "mcp", Owner: "host", Formatter: wrapperFormatter{tier: static(TierExecute)}}},
			Call{Tool: "gh:x", Source: "mcp"}, TierExecute},
		{"one failure makes it unknown",
			[]Entry{{Key: "gh:*", Owner: "stock", Formatter: wrapperFormatter{tier: static(TierRead)}},
				{Key: "mcp", Owner: "host", Formatter: wrapperFormatter{tier: func(Request) (Tier, error) { return TierRead, boom }}}},
			Call{Tool: "gh:x", Source: "mcp"}, TierUnknown},
		{"nothing declared is unknown",
			[]Entry{{Key: "gh:*", Owner: "stock", Formatter: text("x")}},
			Call{Tool: "gh:x", Source: "mcp"}, TierUnknown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := NewRegistry()
			_, err := reg.RegisterAll(tc.entries)
			require.NoError(t, err)
			d, err := NewDispatcher(reg, Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.want, d.Describe(tc.call).Tier)
		})
	}
}

// A "server:tool" beside another owner's "server:*" is an error, in
// either order of registration, unless the host allows it; then the log
// context names the owner that answered.
func TestRegisterUnderAnotherOwnersWildcard(t *testing.T) {
	wildcard := Entry{Key: "gh:*", Owner: "formatters.yaml#gh:*", Formatter: text("server")}
	tool := Entry{Key: "gh:delete", Owner: "plugin.yaml#gh:delete", Formatter: text("tool")}
	allowed := tool
	allowed.Override = true
	sameCatalog := Entry{Key: "gh:delete", Owner: "formatters.yaml#gh:delete", Formatter: text("tool")}
	tests := []struct {
		name    string
		batches [][]Entry
		err     string // of the last batch
	}{
		{"tool after wildcard", [][]Entry{{wildcard}, {tool}},
			`tool "gh:delete" (plugin.yaml#gh:delete) would override "gh:*" of formatters.yaml#gh:*: another owner's server:* is overridden only when the host allows it explicitly`},
		{"wildcard after tool", [][]Entry{{tool}, {wildcard}},
			`tool "gh:delete" (plugin.yaml#gh:delete) would override "gh:*" of formatters.yaml#gh:*: another owner's server:* is overridden only when the host allows it explicitly`},
		{"registered together, by the host's choice", [][]Entry{{tool, wildcard}}, ""},
		{"allowed", [][]Entry{{wildcard}, {allowed}}, ""},
		{"allowed, wildcard after", [][]Entry{{allowed}, {wildcard}}, ""},
		{"one catalog's entries", [][]Entry{{wildcard, sameCatalog}}, ""},
		{"a name like the catalog's, registered apart", [][]Entry{{wildcard}, {sameCatalog}},
			`tool "gh:delete" (formatters.yaml#gh:delete) would override "gh:*" of formatters.yaml#gh:*: another owner's server:* is overridden only when the host allows it explicitly`},
		{"one owner", [][]Entry{{{Key: "gh:*", Owner: "host", Formatter: text("a")}}, {{Key: "gh:x", Owner: "host", Formatter: text("b")}}}, ""},
		{"another server", [][]Entry{{wildcard}, {{Key: "gl:delete", Owner: "plugin.yaml#gl:delete", Formatter: text("b")}}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := NewRegistry()
			var err error
			for _, b := range tc.batches {
				_, err = reg.RegisterAll(b)
			}
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrOverride)
			var oe *OverrideError
			require.ErrorAs(t, err, &oe)
			assert.EqualError(t, err, tc.err)
			// Nothing of the batch was registered.
			assert.Equal(t, len(tc.batches[0])*(len(tc.batches)-1), reg.Len())
		})
	}
}

// A catalog loaded again in its group may hold a tool and the wildcard of
// its server: its old registrations are being replaced, not overridden.
func TestReplaceGroupKeepsItsOwnWildcard(t *testing.T) {
	reg := NewRegistry()
	entries := []Entry{{Key: "gh:*", Owner: "a.yaml#gh:*", Formatter: text("a")}, {Key: "gh:x", Owner: "a.yaml#gh:x", Formatter: text("b")}}
	_, err := reg.ReplaceGroup("a.yaml", entries)
	require.NoError(t, err)
	_, err = reg.ReplaceGroup("a.yaml", entries)
	require.NoError(t, err)
	_, err = reg.ReplaceGroup("b.yaml", []Entry{{Key: "gh:y", Owner: "b.yaml#gh:y", Formatter: text("c")}})
	require.ErrorIs(t, err, ErrOverride)
	// A group replacing its wildcard is held to the tools of others.
	_, err = reg.ReplaceGroup("b.yaml", []Entry{{Key: "gh:y", Owner: "b.yaml#gh:y", Formatter: text("c"), Override: true}})
	require.NoError(t, err)
	_, err = reg.ReplaceGroup("a.yaml", entries[:1])
	require.NoError(t, err, "b.yaml's tool is allowed beside it")
	info, ok := reg.Lookup("gh:y")
	require.True(t, ok)
	assert.True(t, info.Override)
}

// When the host allows a tool's entry beside another owner's wildcard,
// the call's log context names the owner that answered, and its tier is
// still the highest either declares.
func TestOverrideIsNamedInTheLog(t *testing.T) {
	reg := NewRegistry()
	_, err := reg.Register("gh:*", "formatters.yaml#gh:*", wrapperFormatter{preview: text("delete the repository"), tier: static(TierNetwork)})
	require.NoError(t, err)
	_, err = reg.RegisterAll([]Entry{{Key: "gh:delete", Owner: "plugin.yaml#gh:delete", Override: true,
		Formatter: wrapperFormatter{preview: text("tidy up"), tier: static(TierRead)}}})
	require.NoError(t, err)
	d, err := NewDispatcher(reg, Options{})
	require.NoError(t, err)
	call := Call{Tool: "gh:delete", Source: "mcp", Target: "gh:delete"}
	desc := d.Describe(call)
	assert.Equal(t, "tidy up", desc.Preview.Text)
	assert.Equal(t, TierNetwork, desc.Tier)
	require.NotNil(t, desc.Log.Override)
	assert.Equal(t, "plugin.yaml#gh:delete", *desc.Log.Override)
	assert.Equal(t, desc.Log, d.Log(call))

	// The server's own entry answering is no override.
	other := d.Describe(Call{Tool: "gh:list", Source: "mcp", Target: "gh:list"})
	assert.Nil(t, other.Log.Override)
	// Nor is a tool's entry beside a wildcard of its own catalog.
	reg2 := NewRegistry()
	_, err = reg2.RegisterAll([]Entry{{Key: "gh:*", Owner: "formatters.yaml#gh:*", Formatter: text("server")},
		{Key: "gh:delete", Owner: "formatters.yaml#gh:delete", Formatter: text("tool")}})
	require.NoError(t, err)
	d2, err := NewDispatcher(reg2, Options{})
	require.NoError(t, err)
	assert.Nil(t, d2.Describe(call).Log.Override)
}
