package celfmt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

// rowsCatalog loads the good catalog of rows and results.
func rowsCatalog(t *testing.T) map[string]*Formatter {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "catalogs", "good", "rows.yaml"))
	require.NoError(t, err)
	checked, err := Load("rows.yaml", src, Options{})
	require.NoError(t, err)
	byTool := map[string]*Formatter{}
	for _, f := range checked.Formatters {
		byTool[f.Entry.Tool] = f
	}
	return byTool
}

func jsonObject(t *testing.T, js string) *value.Object {
	t.Helper()
	v, err := value.DecodeJSON([]byte(js))
	require.NoError(t, err)
	return v.(*value.Object)
}

func TestRendererSlots(t *testing.T) {
	fs := rowsCatalog(t)
	read, bash, screenshot := fs["read"], fs["bash"], fs["screenshot"]
	req := func(input, result string) runtime.Request {
		r := runtime.Request{Tool: "read", Input: jsonObject(t, input), Limits: DefaultLimits}
		if result != "" {
			var res runtime.Result
			require.NoError(t, json.Unmarshal([]byte(result), &res))
			r.Result = res.Object()
		}
		return r
	}

	text, ok, err := read.Row(req(`{"path": "/a", "offset": 3}`, ""))
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "/a:3", text)

	// While the arguments arrive, a row declines until its fields are there.
	partial := req(`{}`, "")
	partial.Partial = true
	_, ok, err = read.Row(partial)
	require.NoError(t, err)
	assert.False(t, ok)

	text, ok, err = read.Result(req(`{"path": "/a"}`, `{"content": [{"type": "text", "text": "a\nb"}], "isError": false}`))
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "2 lines", text)

	text, ok, err = read.ErrorLine(req(`{"path": "/a"}`, `{"content": [{"type": "text", "text": "no such file"}], "isError": true}`))
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "no such file", text)

	lines, ok, err := read.Expand(req(`{"path": "/a"}`, `{"content": [{"type": "text", "text": "x\ny"}]}`))
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, []string{"x", "y"}, lines)

	// A nil result is an empty one.
	text, ok, err = read.Result(req(`{"path": "/a"}`, ""))
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "0 lines", text)
	text, ok, err = read.ErrorLine(req(`{"path": "/a"}`, ""))
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "failed", text)

	// A result field of another type than declared is a failure.
	_, _, err = bash.ErrorLine(runtime.Request{Tool: "bash", Input: value.NewObject(), Limits: DefaultLimits,
		Result: jsonObject(t, `{"content": "text"}`)})
	assert.ErrorContains(t, err, "result field content")

	// A slot the entry lacks declines.
	_, ok, err = screenshot.Row(req(`{}`, ""))
	require.NoError(t, err)
	assert.False(t, ok)
	_, ok, err = screenshot.ErrorLine(req(`{}`, `{"isError": true}`))
	require.NoError(t, err)
	assert.False(t, ok)
	lines, ok, err = screenshot.Expand(req(`{}`, `{}`))
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Nil(t, lines)

	assert.Equal(t, runtime.Presentation{Title: "Read", Category: "file", NerdIcon: "\uf15c", PlainIcon: "📄"}, read.Presentation())
	assert.Equal(t, runtime.Presentation{Category: "desktop", NerdIcon: "\uf030", PlainIcon: "📷"}, screenshot.Presentation())
}

// TestRendererMeteredAgreesWithUnmetered: the slots of rows and results
// give the same outcome with and without the meter.
func TestRendererMeteredAgreesWithUnmetered(t *testing.T) {
	for _, f := range rowsCatalog(t) {
		for _, ex := range f.Entry.Examples {
			obj, _ := ex.Input.(*value.Object)
			req := runtime.Request{Tool: f.Entry.Tool, Input: obj, Limits: DefaultLimits, Result: ex.Output}
			type outcome struct {
				text  string
				lines []string
				ok    bool
				err   error
			}
			run := func() []outcome {
				var out []outcome
				for _, slot := range []func(runtime.Request) (string, bool, error){f.Row, f.Result, f.ErrorLine} {
					text, ok, err := slot(req)
					out = append(out, outcome{text: text, ok: ok, err: err})
				}
				lines, ok, err := f.Expand(req)
				return append(out, outcome{lines: lines, ok: ok, err: err})
			}
			plain := run()
			f.metered = true
			metered := run()
			f.metered = false
			assert.Equal(t, plain, metered, "%s at %s", f.Entry.Tool, ex.Pos)
		}
	}
}

// TestExpandBoundedByCostLimit: an expand over a huge list in the input or
// the result stops at the cost limit, as a preview does.
func TestExpandBoundedByCostLimit(t *testing.T) {
	src := `version: 1
formatters:
  - tool: ls
    expand: |
      input.?names.orValue([]).map(n, string(n)) + result.content.map(c, string(c.?text.orValue("")))
`
	checked, err := Load("ls.yaml", []byte(src), Options{})
	require.NoError(t, err)
	f := checked.Formatters[0]
	// Under the race detector, where building a million items took
	// seconds, there is one more item than the cost limit has units:
	// each costs at least one, so the limit still stops the expand.
	n := 1_000_000
	if raceEnabled {
		n = DefaultCostLimit + 1
	}
	many := make([]any, n)
	items := make([]any, len(many))
	for i := range many {
		many[i] = "a"
		items[i] = value.NewObject("type", "text", "text", "a")
	}
	_, _, err = f.Expand(runtime.Request{Tool: "ls", Input: value.NewObject("names", many), Limits: DefaultLimits})
	assert.ErrorIs(t, err, ErrCostLimit)
	_, _, err = f.Expand(runtime.Request{Tool: "ls", Input: value.NewObject(), Limits: DefaultLimits,
		Result: value.NewObject("content", items)})
	assert.ErrorIs(t, err, ErrCostLimit)
	lines, ok, err := f.Expand(runtime.Request{Tool: "ls", Input: value.NewObject("names", []any{"x"}), Limits: DefaultLimits,
		Result: value.NewObject("content", []any{value.NewObject("text", strings.Repeat("y", 3))})})
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, []string{"x", "yyy"}, lines)
}

// TestGeneratedRenderer: a formatter restored from its generated form
// renders and presents as the checked one does.
func TestGeneratedRenderer(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "catalogs", "good", "rows.yaml"))
	require.NoError(t, err)
	checked, err := Load("rows.yaml", src, Options{})
	require.NoError(t, err)
	entries, err := checked.Generated()
	require.NoError(t, err)
	reg := runtime.NewRegistry()
	_, err = RegisterGenerated(reg, NewGeneratedCatalog(EnvVersion, entries))
	require.NoError(t, err)
	c := NewGeneratedCatalog(EnvVersion, entries)
	for i, f := range checked.Formatters {
		g := generatedFormatter{c, i}
		assert.Equal(t, f.Presentation(), g.Presentation())
		for _, ex := range f.Entry.Examples {
			obj, _ := ex.Input.(*value.Object)
			req := runtime.Request{Tool: f.Entry.Tool, Input: obj, Limits: DefaultLimits, Result: ex.Output}
			for _, slot := range []struct {
				want, got func(runtime.Request) (string, bool, error)
			}{{f.Row, g.Row}, {f.Result, g.Result}, {f.ErrorLine, g.ErrorLine}} {
				wt, wok, werr := slot.want(req)
				gt, gok, gerr := slot.got(req)
				assert.Equal(t, []any{wt, wok, werr}, []any{gt, gok, gerr}, "%s at %s", f.Entry.Tool, ex.Pos)
			}
			wl, wok, werr := f.Expand(req)
			gl, gok, gerr := g.Expand(req)
			assert.Equal(t, []any{wl, wok, werr}, []any{gl, gok, gerr}, "%s at %s", f.Entry.Tool, ex.Pos)
		}
	}
}

// TestPresentationKeys: a string icon is the icon of the set that can draw
// it, title "" is no title, and communication marks the tool; generated
// code presents them as the checked formatter does (TestGeneratedRenderer).
func TestPresentationKeys(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "catalogs", "good", "rows.yaml"))
	require.NoError(t, err)
	checked, err := Load("rows.yaml", src, Options{})
	require.NoError(t, err)
	got := map[string]runtime.Presentation{}
	for _, f := range checked.Formatters {
		got[f.Entry.Tool] = f.Presentation()
	}
	assert.Equal(t, runtime.Presentation{PlainIcon: "✅", NoTitle: true, Communication: true}, got["done"])
	assert.Equal(t, runtime.Presentation{NerdIcon: "\U000f018d"}, got["terminal"])
	assert.Equal(t, runtime.Presentation{Title: "Clock"}, got["clock"], "an absent title is not an empty one")

	_, errs := Parse("bad.yaml", []byte("version: 1\nformatters:\n  - tool: x\n    communication: yes please\n    row: '\"x\"'\n"))
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), "communication must be true or false")
}
