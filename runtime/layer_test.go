package runtime

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pi-permission-system consults a formatter registered for a tool before
// its built-in preview, and one that returns undefined falls through to the
// built-in (ToolPreviewFormatter.formatToolInputForPrompt in
// src/tool-preview-formatter.ts of github.com/Duroxi/pi-permissions at
// commit 784161e2237d658bd453fb4f3ca869fa9dc3c926: customFormatters.get
// first, "rendered !== undefined" returns, else the built-in switch; one
// formatter per tool name in src/tool-input-formatter-registry.ts at
// f4ca4bb4207e5604ab2b639457488811e16bdef6). With the stock catalog at the
// bottom and the host's formatters in a layer, that precedence holds
// exactly: the layer answers first, and a decline, a failure or an answer
// that reads none of the input's fields falls to the stock formatter, not
// to the default JSON.
func TestLayerPrecedence(t *testing.T) {
	fails := FormatterFunc(func(Request) (string, bool, error) { return "", false, errors.New("boom") })
	onlySrc := FormatterFunc(func(req Request) (string, bool, error) {
		if p := str(req.Input, "path"); p == "/src" {
			return "host: " + p, true, nil
		}
		return "", false, nil
	})
	tests := []struct {
		name      string
		host      map[string]Formatter // nil: no layer at all
		call      Call
		want      string
		formatter string
	}{
		{"stock alone", nil, Call{Tool: "read", Input: `{"path":"/src"}`}, "stock read", "stock"},
		{"the layer answers first", map[string]Formatter{"read": text("host read")},
			Call{Tool: "read", Input: `{"path":"/src"}`}, "host read", "host"},
		{"a decline falls to the stock formatter, not to JSON", map[string]Formatter{"read": decline},
			Call{Tool: "read", Input: `{"path":"/src"}`}, "stock read", "stock"},
		{"a failure falls to the stock formatter", map[string]Formatter{"read": fails},
			Call{Tool: "read", Input: `{"path":"/src"}`}, "stock read", "stock"},
		{"a formatter that answers some calls", map[string]Formatter{"read": onlySrc},
			Call{Tool: "read", Input: `{"path":"/src"}`}, "host: /src", "host"},
		{"and leaves the others", map[string]Formatter{"read": onlySrc},
			Call{Tool: "read", Input: `{"path":"/etc"}`}, "stock read", "stock"},
		{"a tool the stock catalog lacks", map[string]Formatter{"deploy": text("to prod")},
			Call{Tool: "deploy", Input: `{}`}, "to prod", "host"},
		{"a tool no layer has gets the default", map[string]Formatter{"read": text("host read")},
			Call{Tool: "other", Input: `{"a":1}`}, `with input {"a":1}`, ""},
		{"a layer's server:* answers before the stock server:tool",
			map[string]Formatter{"github:*": text("host server")},
			Call{Tool: "github:create_issue", Source: "mcp", Target: "github:create_issue", Input: `{"a":1}`}, "host server", "host"},
		{"a layer's mcp answers before the stock server:tool",
			map[string]Formatter{"mcp": text("host umbrella")},
			Call{Tool: "github:create_issue", Source: "mcp", Target: "github:create_issue", Input: `{"a":1}`}, "host umbrella", "host"},
		{"a declining layer falls to the stock server:tool",
			map[string]Formatter{"github:*": decline, "mcp": decline},
			Call{Tool: "github:create_issue", Source: "mcp", Target: "github:create_issue", Input: `{"a":1}`}, "stock issue", "stock"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := NewRegistry()
			_, err := reg.RegisterAll([]Entry{
				{Key: "read", Owner: "stock", Formatter: text("stock read")},
				{Key: "github:create_issue", Owner: "stock", Formatter: text("stock issue")},
				{Key: "github:*", Owner: "stock", Formatter: text("stock server")},
			})
			require.NoError(t, err)
			if tc.host != nil {
				for key, f := range tc.host {
					_, err := reg.Layer("host").Register(key, "host", f)
					require.NoError(t, err)
				}
			}
			d, err := NewDispatcher(reg, Options{})
			require.NoError(t, err)
			got := d.Describe(tc.call)
			assert.Equal(t, tc.want, got.Preview.Text)
			assert.Equal(t, tc.formatter, got.Preview.Formatter)
		})
	}
}

// Each layer is single-owner, and owns its keys apart from the layers
// below: the stock catalog's "read" does not make the host's a duplicate,
// a second "read" in the layer is, and ErrOverride still holds inside a
// layer.
func TestLayerOwnership(t *testing.T) {
	reg := NewRegistry()
	_, err := reg.RegisterAll([]Entry{
		{Key: "read", Owner: "formatters.yaml#read", Formatter: text("stock")},
		{Key: "github:*", Owner: "formatters.yaml#github:*", Formatter: text("stock")},
	})
	require.NoError(t, err)

	_, err = reg.Register("read", "host-app", text("host"))
	require.ErrorIs(t, err, ErrDuplicate, "the bottom keeps refusing clashes")

	host := reg.Layer("host")
	assert.Same(t, host, reg.Layer("host"), "a layer is made once")
	assert.Same(t, host, host.Layer("host"), "a layer of a layer is its root's")
	dispose, err := host.Register("read", "host-app", text("host"))
	require.NoError(t, err)
	_, err = host.Register("read", "plugin", text("plugin"))
	require.ErrorIs(t, err, ErrDuplicate)
	assert.EqualError(t, err, `tool "read" (plugin) is already registered by host-app`)

	_, err = host.Register("github:delete_repository", "plugin", text("p"))
	require.NoError(t, err, "a layer's server:tool stands above the bottom's server:*: the layer is the host's choice")
	_, err = host.Register("github:*", "other", text("o"))
	require.ErrorIs(t, err, ErrOverride, "inside a layer, another owner's server:* is still refused")

	info, ok := host.Lookup("read")
	require.True(t, ok)
	assert.Equal(t, "host", info.Layer)
	assert.Equal(t, []string{"host"}, reg.Layers())

	d, err := NewDispatcher(reg, Options{})
	require.NoError(t, err)
	assert.Equal(t, "host", d.Preview(Call{Tool: "read", Input: `{}`}).Text)
	dispose()
	assert.Equal(t, "stock", d.Preview(Call{Tool: "read", Input: `{}`}).Text, "disposing the layer's registration uncovers the stock one")
}

// The tier rule of the hostile round holds across layers: a call's tier is
// the highest any registration of any layer declares for its keys, so a
// layer raises a tier and never lowers it; one that declares none says
// nothing, and one whose tier fails makes the call unknown.
func TestLayerTiers(t *testing.T) {
	tiered := func(tier Tier) Formatter { return wrapperFormatter{preview: text("x"), tier: static(tier)} }
	failing := wrapperFormatter{preview: text("x"), tier: func(Request) (Tier, error) { return TierUnknown, errors.New("boom") }}
	tests := []struct {
		name  string
		stock Formatter
		upper []Formatter // the layers, made in this order
		call  Call
		want  Tier
	}{
		{"a layer cannot lower a tier", tiered(TierExecute), []Formatter{tiered(TierRead)}, Call{Tool: "run"}, TierExecute},
		{"a layer raises a tier", tiered(TierRead), []Formatter{tiered(TierNetwork)}, Call{Tool: "run"}, TierNetwork},
		{"a layer that declares none says nothing", tiered(TierWrite), []Formatter{text("host")}, Call{Tool: "run"}, TierWrite},
		{"a declining layer still counts", tiered(TierRead),
			[]Formatter{wrapperFormatter{preview: decline, tier: static(TierExecute)}}, Call{Tool: "run"}, TierExecute},
		{"every layer counts", tiered(TierRead), []Formatter{tiered(TierExecute), tiered(TierRead)}, Call{Tool: "run"}, TierExecute},
		{"a failing tier in a layer is unknown", tiered(TierRead), []Formatter{failing}, Call{Tool: "run"}, TierUnknown},
		{"nothing declared anywhere", text("stock"), []Formatter{text("host")}, Call{Tool: "run"}, TierUnknown},
		{"an MCP call's keys in every layer", tiered(TierExecute), []Formatter{tiered(TierRead)},
			Call{Tool: "srv:drop", Source: "mcp", Target: "srv:drop"}, TierExecute},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := NewRegistry()
			key := tc.call.Tool
			if tc.call.Source == "mcp" {
				key = "srv:*"
			}
			_, err := reg.Register(key, "stock", tc.stock)
			require.NoError(t, err)
			for i, f := range tc.upper {
				k := tc.call.Tool // a layer holds the exact tool
				_, err := reg.Layer(string(rune('a'+i))).Register(k, "host", f)
				require.NoError(t, err)
			}
			d, err := NewDispatcher(reg, Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.want, d.Describe(tc.call).Tier)
		})
	}
}

// The layer made last is consulted first.
func TestLayerOrder(t *testing.T) {
	reg := NewRegistry()
	_, err := reg.Register("read", "stock", text("stock"))
	require.NoError(t, err)
	_, err = reg.Layer("team").Register("read", "team", text("team"))
	require.NoError(t, err)
	_, err = reg.Layer("host").Register("read", "host", text("host"))
	require.NoError(t, err)
	assert.Equal(t, []string{"host", "team"}, reg.Layers())
	d, err := NewDispatcher(reg, Options{})
	require.NoError(t, err)
	assert.Equal(t, "host", d.Preview(Call{Tool: "read"}).Text)
}

// A layer's formatter for a wrapper tool that finds no calls declines to
// the layer below: a host's write formatter cannot hide the device call the
// stock catalog unwraps, and its preview does not stand for the device's.
func TestLayerUnwrapFallsThrough(t *testing.T) {
	stock := deviceWrite
	reg := NewRegistry()
	_, err := reg.Register("write", "stock", stock)
	require.NoError(t, err)
	_, err = reg.Layer("host").Register("write", "host", text("a harmless file"))
	require.NoError(t, err)
	d, err := NewDispatcher(reg, Options{})
	require.NoError(t, err)
	desc := d.Describe(Call{Tool: "write", Input: `{"path":"xd://bash","content":"{\"command\":\"id\"}"}`})
	assert.Equal(t, "Current agent requested tool 'write' → device 'bash' with input {\"command\":\"id\"}. Allow this call?", desc.Prompt)
	require.Len(t, desc.Calls, 1)
	assert.Equal(t, "bash", desc.Calls[0].Tool)
}

// A call a layer answers in place of another registration of its keys is
// named in the log context, so that a log says who worded it; a call the
// bottom answers, or one a layer answers alone, has the reference's keys.
func TestLayerLogNamesTheOverride(t *testing.T) {
	reg := NewRegistry()
	_, err := reg.Register("read", "stock", text("stock"))
	require.NoError(t, err)
	_, err = reg.Layer("host").RegisterAll([]Entry{
		{Key: "read", Owner: "host-app", Formatter: text("host")},
		{Key: "deploy", Owner: "host-app", Formatter: text("to prod")},
	})
	require.NoError(t, err)
	d, err := NewDispatcher(reg, Options{})
	require.NoError(t, err)
	log := d.Log(Call{Tool: "read", Input: `{}`})
	require.NotNil(t, log.Override)
	assert.Equal(t, "host-app", *log.Override)
	assert.Nil(t, d.Log(Call{Tool: "deploy", Input: `{}`}).Override)
}
