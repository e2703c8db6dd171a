package generated_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/generated"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

// dispatchers returns a dispatcher over the compiled-in registration and one
// over the same catalog loaded from YAML at run time.
func dispatchers(t *testing.T, register func(*runtime.Registry) error, file string, src []byte, dir string) (compiled, loaded *runtime.Dispatcher) {
	t.Helper()
	a := runtime.NewRegistry()
	require.NoError(t, register(a))
	b := runtime.NewRegistry()
	checked, err := celfmt.LoadFiles(file, src, celfmt.DirFiles(dir), celfmt.Options{})
	require.NoError(t, err)
	_, err = celfmt.RegisterChecked(b, checked)
	require.NoError(t, err)
	var errs []error
	onFailure := func(f runtime.Failure) { errs = append(errs, f.Err) }
	compiled, err = runtime.NewDispatcher(a, runtime.Options{OnFailure: onFailure})
	require.NoError(t, err)
	loaded, err = runtime.NewDispatcher(b, runtime.Options{OnFailure: onFailure})
	require.NoError(t, err)
	t.Cleanup(func() { assert.Empty(t, errs, "no formatter failed") })
	return compiled, loaded
}

// assertAgree runs every example of a catalog through both dispatchers
// (under -short, the first of each formatter) and returns their number.
func assertAgree(t *testing.T, compiled, loaded *runtime.Dispatcher, file string, src []byte, dir string) int {
	t.Helper()
	cat, errs := celfmt.ParseFiles(file, src, celfmt.DirFiles(dir))
	require.Empty(t, errs)
	n := 0
	for _, e := range cat.Formatters {
		for i, ex := range e.Examples {
			if i > 0 && testing.Short() {
				// One example a formatter: the race run (-short) finds
				// no more in the others, which the full run compares.
				break
			}
			tool := e.Tool
			call := runtime.Call{Tool: tool, Input: ex.Input}
			if server, _, ok := cutMCP(tool); ok {
				call = runtime.Call{Tool: server + ":example", Source: "mcp", Input: ex.Input}
			}
			a, b := compiled.Describe(call), loaded.Describe(call)
			assert.Equal(t, b.Preview, a.Preview, "%s example at %s", tool, ex.Pos)
			assert.Equal(t, b.Prompt, a.Prompt)
			assert.Equal(t, b.Tier, a.Tier)
			// Rows, result lines and expanded results, through the
			// dispatcher: the compiled and the loaded catalog agree.
			for _, mode := range []runtime.Mode{runtime.ModeMinimal, runtime.ModeDefault, runtime.ModeVerbose} {
				assert.Equal(t, loaded.Row(call, mode), compiled.Row(call, mode), "%s example at %s: row", tool, ex.Pos)
			}
			if ex.Output != nil {
				res := resultOf(ex.Output)
				assert.Equal(t, loaded.ResultRow(call, res, runtime.ModeDefault), compiled.ResultRow(call, res, runtime.ModeDefault),
					"%s example at %s: result", tool, ex.Pos)
				assert.Equal(t, loaded.Expand(call, res), compiled.Expand(call, res), "%s example at %s: expand", tool, ex.Pos)
			}
			n++
		}
	}
	return n
}

// resultOf turns an example's output into a result.
func resultOf(o *value.Object) runtime.Result {
	var r runtime.Result
	items, _ := o.Get("content")
	list, _ := items.([]any)
	for _, item := range list {
		c, _ := item.(*value.Object)
		if c == nil {
			continue
		}
		typ, _ := c.Get("type")
		text, _ := c.Get("text")
		t, _ := typ.(string)
		x, _ := text.(string)
		r.Content = append(r.Content, runtime.Content{Type: t, Text: x})
	}
	r.Details, _ = o.Get("details")
	isError, _ := o.Get("isError")
	r.IsError, _ = isError.(bool)
	return r
}

func cutMCP(key string) (server, tool string, ok bool) {
	for i := range len(key) {
		if key[i] == ':' {
			return key[:i], key[i+1:], true
		}
	}
	return "", "", false
}

// TestStockCatalogAgrees compares the compiled stock catalog with
// formatters.yaml loaded at run time, on every example.
func TestStockCatalogAgrees(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "formatters.yaml"))
	require.NoError(t, err)
	compiled, loaded := dispatchers(t, func(r *runtime.Registry) error {
		_, err := generated.Register(r)
		return err
	}, "formatters.yaml", src, "..")
	assert.Positive(t, assertAgree(t, compiled, loaded, "formatters.yaml", src, ".."))
}

// TestTestdataCatalogsAgree does the same for every valid catalog under
// testdata, through the embedded form generated code holds.
func TestTestdataCatalogsAgree(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "catalogs", "good", "*.yaml"))
	require.NoError(t, err)
	for _, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		name := filepath.Base(file)
		checked, err := celfmt.LoadFiles(name, src, celfmt.DirFiles(filepath.Dir(file)), celfmt.Options{})
		require.NoError(t, err)
		entries, err := checked.Generated()
		require.NoError(t, err)
		compiled, loaded := dispatchers(t, func(r *runtime.Registry) error {
			_, err := celfmt.RegisterGenerated(r, celfmt.NewGeneratedCatalog(celfmt.EnvVersion, entries))
			return err
		}, name, src, filepath.Dir(file))
		assert.Positive(t, assertAgree(t, compiled, loaded, name, src, filepath.Dir(file)), file)
	}
}

func TestRegisterOptions(t *testing.T) {
	reg := runtime.NewRegistry()
	dispose, err := generated.Register(reg, runtime.Only("read", "edit"))
	require.NoError(t, err)
	assert.Equal(t, 6, reg.Len(), "read and edit, each with its two aliases")
	dispose()
	_, err = generated.Register(reg, runtime.Except("mcp"))
	require.NoError(t, err)
	_, ok := reg.Lookup("mcp")
	assert.False(t, ok)
	_, ok = reg.Lookup("grep")
	assert.True(t, ok)
	_, err = generated.Register(runtime.NewRegistry(), runtime.Only("nope"))
	assert.ErrorContains(t, err, `no formatter for tool "nope"`)
	_, err = generated.Register(reg)
	assert.ErrorIs(t, err, runtime.ErrDuplicate, "atomic: a second registration conflicts")
}

// A process that registers the whole catalog once, as a hook does,
// pays nothing to select it.
func TestSelectAllCopiesNothing(t *testing.T) {
	entries := generated.Entries()
	var selected []runtime.Entry
	allocs := testing.AllocsPerRun(10, func() {
		var err error
		selected, err = runtime.Select(entries)
		require.NoError(t, err)
	})
	assert.Zero(t, allocs)
	assert.Len(t, selected, len(entries))
}

func TestEnvVersionMismatchFailsLoudly(t *testing.T) {
	checked, err := stockChecked()
	require.NoError(t, err)
	entries, err := checked.Generated()
	require.NoError(t, err)
	old := celfmt.NewGeneratedCatalog("permgen-cel-0 (old)", entries)
	_, err = celfmt.RegisterGenerated(runtime.NewRegistry(), old)
	assert.ErrorIs(t, err, celfmt.ErrEnvVersion)
	assert.Contains(t, err.Error(), "run go generate")
}

// BenchmarkRegister measures registering the whole stock catalog: the
// generated package holds Go functions, so nothing is parsed, checked or
// restored, now or on a formatter's first call.
func BenchmarkRegister(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := generated.Register(runtime.NewRegistry()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPreview compares a preview through the generated package with
// the same formatter loaded from formatters.yaml at run time.
func BenchmarkPreview(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("..", "formatters.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	call := runtime.Call{Tool: "edit", Input: `{"path":"/src/app.go","edits":[{"oldText":"a\nb","newText":"c"},{"oldText":"d","newText":"e"}]}`}
	for _, mode := range []string{"generated", "loaded"} {
		b.Run(mode, func(b *testing.B) {
			reg := runtime.NewRegistry()
			if mode == "generated" {
				_, err = generated.Register(reg)
			} else {
				var checked *celfmt.Checked
				if checked, err = celfmt.LoadFiles("formatters.yaml", src, celfmt.DirFiles(".."), celfmt.Options{}); err == nil {
					_, err = celfmt.RegisterChecked(reg, checked)
				}
			}
			if err != nil {
				b.Fatal(err)
			}
			d, err := runtime.NewDispatcher(reg, runtime.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				d.Preview(call)
			}
		})
	}
}
