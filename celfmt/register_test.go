package celfmt_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

func readGood(t *testing.T, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "catalogs", "good", name))
	require.NoError(t, err)
	return src
}

func TestLoadCatalog(t *testing.T) {
	reg := runtime.NewRegistry()
	dispose, err := celfmt.LoadCatalog(reg, "deploy.yaml", readGood(t, "deploy.yaml"), celfmt.Options{})
	require.NoError(t, err)
	var owners []string
	for _, info := range reg.List() {
		owners = append(owners, info.Key+" "+info.Owner)
	}
	assert.Equal(t, []string{
		"deploy deploy.yaml#deploy",
		"kv:* deploy.yaml#kv:*",
		"rollback deploy.yaml#rollback",
		"search_logs deploy.yaml#search_logs",
	}, owners)

	d, err := runtime.NewDispatcher(reg, runtime.Options{})
	require.NoError(t, err)
	desc := d.Describe(runtime.Call{Tool: "deploy", Input: `{"service":"api","target":"prod","replicas":3}`})
	assert.Equal(t, "Current agent requested tool 'deploy' deploy 'api' to 'prod' (3 replicas). Allow this call?", desc.Prompt)
	assert.Equal(t, "deploy.yaml#deploy", desc.Preview.Formatter)

	mcp := d.Describe(runtime.Call{Tool: "mcp", Target: "kv:set", Input: `{"tool":"kv:set","arguments":{"key":"a","ttl":5}}`})
	assert.Equal(t, `Current agent requested MCP target 'kv:set' with key="a", ttl=5. Allow this call?`, mcp.Prompt)

	declined := d.Describe(runtime.Call{Tool: "rollback", Input: `{"release":"  "}`})
	assert.Equal(t, `Current agent requested tool 'rollback' with input {"release":" "}. Allow this call?`, declined.Prompt)
	assert.Empty(t, declined.Preview.Formatter)

	dispose()
	assert.Zero(t, reg.Len())
}

func TestLoadCatalogRegistersNothingOnError(t *testing.T) {
	reg := runtime.NewRegistry()
	_, err := reg.Register("search_logs", "host-app", constant("x"))
	require.NoError(t, err)

	_, err = celfmt.LoadCatalog(reg, "deploy.yaml", readGood(t, "deploy.yaml"), celfmt.Options{})
	require.ErrorIs(t, err, runtime.ErrDuplicate)
	assert.Contains(t, err.Error(), `tool "search_logs" (deploy.yaml#search_logs) is already registered by host-app`)
	assert.Equal(t, 1, reg.Len(), "nothing of the catalog was registered")

	bad := []byte("version: 1\nformatters:\n  - tool: a\n    preview: '\"ok\"'\n  - tool: b\n    preview: inptu\n")
	_, err = celfmt.LoadCatalog(reg, "bad.yaml", bad, celfmt.Options{})
	var list celfmt.ErrorList
	require.True(t, errors.As(err, &list))
	assert.Equal(t, "bad.yaml:6:14: preview: undeclared reference to 'inptu' (did you mean 'input'?)", list.Error())
	_, ok := reg.Lookup("a")
	assert.False(t, ok)
}

func TestRegisterCEL(t *testing.T) {
	reg := runtime.NewRegistry()
	dispose, err := celfmt.RegisterCEL(reg, "web_fetch", "plugin:fetch", `"from " + string(input.url)`, celfmt.Options{})
	require.NoError(t, err)
	defer dispose()
	d, err := runtime.NewDispatcher(reg, runtime.Options{})
	require.NoError(t, err)
	p := d.Preview(runtime.Call{Tool: "web_fetch", Input: `{"url":"https://example.com"}`})
	assert.Equal(t, runtime.Preview{Text: "from https://example.com", Formatter: "plugin:fetch"}, p)

	_, err = celfmt.RegisterCEL(reg, "other", "plugin:other", "\"a\" +\n  inptu", celfmt.Options{})
	assert.EqualError(t, err, "plugin:other:2:3: preview: undeclared reference to 'inptu' (did you mean 'input'?)")
	_, err = celfmt.RegisterCEL(reg, "bad key", "plugin", `"x"`, celfmt.Options{})
	assert.ErrorIs(t, err, runtime.ErrInvalidKey)
	_, err = celfmt.RegisterCEL(reg, "web_fetch", "plugin:again", `"x"`, celfmt.Options{})
	assert.ErrorIs(t, err, runtime.ErrDuplicate)
}

// TestAdversarialCELFallsBack runs nested comprehensions over a large input
// through the dispatcher: the cost limit stops the formatter, the failure is
// reported and the default preview is shown. That the limit stopped it is
// the ErrCostLimit of the failure (without the limit the formatter would
// succeed after a billion steps); the time is only logged.
func TestAdversarialCELFallsBack(t *testing.T) {
	reg := runtime.NewRegistry()
	_, err := celfmt.RegisterCEL(reg, "t", "host",
		`string(input.a.map(x, input.a.map(y, input.a.map(z, x + y + z))).size())`,
		celfmt.Options{CostBudget: 1 << 62}) // lift the static check: only the run-time limit remains
	require.NoError(t, err)
	var failures []runtime.Failure
	d, err := runtime.NewDispatcher(reg, runtime.Options{OnFailure: func(f runtime.Failure) { failures = append(failures, f) }})
	require.NoError(t, err)

	input := `{"a":[` + strings.Repeat("1,", 999) + `1]}`
	start := time.Now()
	p := d.Preview(runtime.Call{Tool: "t", Input: input})
	t.Logf("stopped and fell back after %v", time.Since(start))
	assert.Equal(t, "with input "+textfmt.Fields(value.DecodeInput(input).Value, runtime.DefaultOutputLimit-len("with input ")), p.Text)
	require.Len(t, failures, 1)
	assert.ErrorIs(t, failures[0].Err, celfmt.ErrCostLimit)
	assert.ErrorContains(t, failures[0].Err, "cost limit exceeded")
}

// TestMemoryBudgetFallsBack runs a formatter whose replace would build a
// string of gigabytes: the memory budget stops it before the allocation,
// the failure is reported and the default preview is shown.
func TestMemoryBudgetFallsBack(t *testing.T) {
	reg := runtime.NewRegistry()
	_, err := celfmt.RegisterCEL(reg, "t", "host", `string(input.template).replace("{name}", string(input.name))`, celfmt.Options{})
	require.NoError(t, err)
	var failures []runtime.Failure
	d, err := runtime.NewDispatcher(reg, runtime.Options{OnFailure: func(f runtime.Failure) { failures = append(failures, f) }})
	require.NoError(t, err)

	input := `{"template":"` + strings.Repeat("{name}", 100_000) + `","name":"` + strings.Repeat("n", 400_000) + `"}`
	p := d.Preview(runtime.Call{Tool: "t", Input: input})
	assert.Equal(t, "with input "+textfmt.Fields(value.DecodeInput(input).Value, runtime.DefaultOutputLimit-len("with input ")), p.Text)
	require.Len(t, failures, 1)
	assert.ErrorIs(t, failures[0].Err, celfmt.ErrBudget)
	assert.ErrorContains(t, failures[0].Err, "memory budget exceeded: replace would allocate 40000000000 bytes")
}

// TestPaddedInputStillShowsThePath pads a write call with more than the
// input bound of text: the formatter reads only the path and counts lines,
// so it still succeeds, and the path is shown.
func TestPaddedInputStillShowsThePath(t *testing.T) {
	reg := runtime.NewRegistry()
	_, err := celfmt.RegisterCEL(reg, "write", "host",
		`"for '" + string(input.path) + "' (" + plural(lines(string(input.content)), "line", "lines") + ")"`, celfmt.Options{})
	require.NoError(t, err)
	d, err := runtime.NewDispatcher(reg, runtime.Options{})
	require.NoError(t, err)
	input := `{"content":"` + strings.Repeat("x", 1_100_000) + `","path":"/etc/passwd"}`
	assert.Equal(t, "for '/etc/passwd' (1 line)", d.Preview(runtime.Call{Tool: "write", Input: input}).Text)
}

func TestDeclaredTypeMismatchFallsBack(t *testing.T) {
	reg := runtime.NewRegistry()
	_, err := celfmt.LoadCatalog(reg, "c.yaml", []byte(`version: 1
formatters:
  - tool: read
    input:
      path: string
    preview: '"for path " + input.path'
`), celfmt.Options{})
	require.NoError(t, err)
	var failures []runtime.Failure
	d, err := runtime.NewDispatcher(reg, runtime.Options{OnFailure: func(f runtime.Failure) { failures = append(failures, f) }})
	require.NoError(t, err)
	assert.Equal(t, "for path /a", d.Preview(runtime.Call{Tool: "read", Input: `{"path":"/a"}`}).Text)
	assert.Equal(t, `with input {"path":42}`, d.Preview(runtime.Call{Tool: "read", Input: `{"path":42}`}).Text)
	require.Len(t, failures, 1)
	assert.ErrorContains(t, failures[0].Err, "input field path: want string, got number")
	assert.Equal(t, "c.yaml#read", failures[0].Owner)
}

// A freeform tool sends text, not an object: formatters still see an empty
// object, and read the text with rawText.
func TestRawTextInput(t *testing.T) {
	reg := runtime.NewRegistry()
	_, err := celfmt.RegisterCEL(reg, "apply_patch", "test", `rawText(input).orValue("no text") + " / " + string(input.size())`, celfmt.Options{})
	require.NoError(t, err)
	d, err := runtime.NewDispatcher(reg, runtime.Options{})
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		input any
		want  string
	}{
		{"text that is not JSON", "*** Begin Patch\n*** Add File: a.go\n+package a\n*** End Patch", `*** Begin Patch\n*** Add File: a.go\n+package a\n*** End Patch / 0`},
		{"a JSON string", `"*** Begin Patch"`, "*** Begin Patch / 0"},
		{"an object", `{"input":"x"}`, "no text / 1"},
		{"a number", `42`, "no text / 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, d.Preview(runtime.Call{Tool: "apply_patch", Input: tc.input}).Text)
		})
	}
}

// TestLoadCatalogReplacesItsGroup: loading a catalog again under its name
// replaces its formatters in one step, leaves other owners alone, keeps the
// loaded version when the new one is broken, and makes the old disposer
// harmless. Readers running meanwhile (go test -race) see one version or
// the other.
func TestLoadCatalogReplacesItsGroup(t *testing.T) {
	version := func(n int, extra string) []byte {
		return []byte(fmt.Sprintf("version: 1\nformatters:\n  - tool: deploy\n    preview: '\"v%d\"'\n%s", n, extra))
	}
	reg := runtime.NewRegistry()
	_, err := reg.Register("host", "host-app", constant("host"))
	require.NoError(t, err)
	disposeV1, err := celfmt.LoadCatalog(reg, "team.yaml", version(1, "  - tool: rollback\n    preview: '\"r\"'\n"), celfmt.Options{})
	require.NoError(t, err)
	d, err := runtime.NewDispatcher(reg, runtime.Options{})
	require.NoError(t, err)
	preview := func(tool string) string { return d.Preview(runtime.Call{Tool: tool, Input: `{}`}).Text }

	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if p := preview("deploy"); !strings.HasPrefix(p, "v") {
				t.Errorf("a moment without the catalog: %q", p)
				return
			}
		}
	}()
	disposeV2, err := celfmt.LoadCatalog(reg, "team.yaml", version(2, ""), celfmt.Options{})
	require.NoError(t, err)
	_, err = celfmt.LoadCatalog(reg, "team.yaml", version(3, "  - tool: x\n    preview: inptu\n"), celfmt.Options{})
	require.Error(t, err)
	_, err = celfmt.LoadCatalog(reg, "team.yaml", version(4, "  - tool: host\n    preview: '\"mine\"'\n"), celfmt.Options{})
	require.ErrorIs(t, err, runtime.ErrDuplicate)
	close(stop)
	<-done

	assert.Equal(t, "v2", preview("deploy"), "a broken or conflicting version leaves the loaded one")
	_, ok := reg.Lookup("rollback")
	assert.False(t, ok, "what the new version dropped is gone")
	assert.Equal(t, "host", preview("host"))
	disposeV1()
	assert.Equal(t, "v2", preview("deploy"), "the replaced version's disposer does nothing")
	disposeV2()
	assert.Equal(t, 1, reg.Len())
}

// Every way of registering CEL formatters refuses a "server:tool" beside
// another owner's "server:*", and allows it with Options.Override.
func TestRegisterOverridesOnlyWhenAllowed(t *testing.T) {
	plugin := []byte("version: 1\nformatters:\n  - tool: \"gh:delete\"\n    tier: read\n    preview: '\"tidy \" + string(input.repo)'\n")
	tests := []struct {
		name     string
		register func(reg *runtime.Registry, opts celfmt.Options) error
	}{
		{"LoadCatalog", func(reg *runtime.Registry, opts celfmt.Options) error {
			_, err := celfmt.LoadCatalog(reg, "plugin.yaml", plugin, opts)
			return err
		}},
		{"RegisterChecked", func(reg *runtime.Registry, opts celfmt.Options) error {
			checked, err := celfmt.Load("plugin.yaml", plugin, opts)
			if err != nil {
				return err
			}
			_, err = celfmt.RegisterChecked(reg, checked)
			return err
		}},
		{"RegisterCEL", func(reg *runtime.Registry, opts celfmt.Options) error {
			_, err := celfmt.RegisterCEL(reg, "gh:delete", "plugin", `"tidy " + string(input.repo)`, opts)
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := runtime.NewRegistry()
			_, err := reg.Register("gh:*", "stock.yaml#gh:*", runtime.FormatterFunc(func(runtime.Request) (string, bool, error) {
				return "delete", true, nil
			}))
			require.NoError(t, err)
			require.ErrorIs(t, tc.register(reg, celfmt.Options{}), runtime.ErrOverride)
			assert.Equal(t, 1, reg.Len())
			require.NoError(t, tc.register(reg, celfmt.Options{Override: true}))
			info, ok := reg.Lookup("gh:delete")
			require.True(t, ok)
			assert.True(t, info.Override)
		})
	}
}
