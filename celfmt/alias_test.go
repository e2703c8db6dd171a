package celfmt_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/runtime"
)

// aliasRegistrations lists "key owner aliasOf" for every registration.
func aliasRegistrations(reg *runtime.Registry) []string {
	var list []string
	for _, info := range reg.List() {
		list = append(list, info.Key+" "+info.Owner+" "+info.AliasOf)
	}
	return list
}

// generatedAliases returns the aliases catalog as generated code embeds it.
func generatedAliases(t *testing.T) *celfmt.GeneratedCatalog {
	t.Helper()
	checked, err := celfmt.Load("aliases.yaml", readGood(t, "aliases.yaml"), celfmt.Options{})
	require.NoError(t, err)
	entries, err := checked.Generated()
	require.NoError(t, err)
	return celfmt.NewGeneratedCatalog(celfmt.EnvVersion, entries)
}

// aliasCatalogPaths are the two ways testdata/catalogs/good/aliases.yaml
// reaches a registry: loaded at run time and generated.
func aliasCatalogPaths(t *testing.T) []struct {
	name     string
	register func(*runtime.Registry) (func(), error)
} {
	return []struct {
		name     string
		register func(*runtime.Registry) (func(), error)
	}{
		{"loaded", func(reg *runtime.Registry) (func(), error) {
			return celfmt.LoadCatalog(reg, "aliases.yaml", readGood(t, "aliases.yaml"), celfmt.Options{})
		}},
		{"generated", func(reg *runtime.Registry) (func(), error) { return celfmt.RegisterGenerated(reg, generatedAliases(t)) }},
	}
}

// TestAliasesPreview registers a catalog with aliases, loaded and
// generated: each alias has the entry's owner and formatter, and previews
// through the dispatcher as the entry does.
func TestAliasesPreview(t *testing.T) {
	for _, tc := range aliasCatalogPaths(t) {
		t.Run(tc.name, func(t *testing.T) {
			reg := runtime.NewRegistry()
			dispose, err := tc.register(reg)
			require.NoError(t, err)
			assert.Equal(t, []string{
				"Read aliases.yaml#read_file read_file",
				"memo:* aliases.yaml#notes:* notes:*",
				"notes:* aliases.yaml#notes:* ",
				"read aliases.yaml#read_file read_file",
				"read_file aliases.yaml#read_file ",
			}, aliasRegistrations(reg))

			d, err := runtime.NewDispatcher(reg, runtime.Options{})
			require.NoError(t, err)
			for _, tool := range []string{"read_file", "Read", "read"} {
				p := d.Preview(runtime.Call{Tool: tool, Input: `{"path":"/a"}`})
				assert.Equal(t, runtime.Preview{Text: "read /a (as " + tool + ")", Formatter: "aliases.yaml#read_file"}, p)
			}
			// The always-declining formatter declines under its alias too.
			p := d.Preview(runtime.Call{Tool: "mcp", Target: "memo:add", Input: `{"text":"hi"}`})
			assert.Empty(t, p.Formatter)

			dispose()
			assert.Zero(t, reg.Len())
		})
	}
}

// TestAliasesAreAtomic registers nothing of a catalog when one alias is
// taken, and names the owner that holds it.
func TestAliasesAreAtomic(t *testing.T) {
	for _, tc := range aliasCatalogPaths(t) {
		t.Run(tc.name, func(t *testing.T) {
			reg := runtime.NewRegistry()
			_, err := reg.Register("read", "host-app", constant("x"))
			require.NoError(t, err)
			_, err = tc.register(reg)
			require.ErrorIs(t, err, runtime.ErrDuplicate)
			assert.EqualError(t, err, `tool "read" (aliases.yaml#read_file) is already registered by host-app`)
			assert.Equal(t, []string{"read host-app "}, aliasRegistrations(reg))
		})
	}
}

// TestSelectionTakesAliasesAlong selects generated formatters by their
// tool names: the aliases come and go with their entry, and naming an
// alias is an error that names the tool.
func TestSelectionTakesAliasesAlong(t *testing.T) {
	c := generatedAliases(t)
	reg := runtime.NewRegistry()
	_, err := celfmt.RegisterGenerated(reg, c, runtime.Only("read_file"))
	require.NoError(t, err)
	assert.Equal(t, []string{
		"Read aliases.yaml#read_file read_file", "read aliases.yaml#read_file read_file", "read_file aliases.yaml#read_file ",
	}, aliasRegistrations(reg))

	reg = runtime.NewRegistry()
	_, err = celfmt.RegisterGenerated(reg, c, runtime.Except("read_file"))
	require.NoError(t, err)
	assert.Equal(t, []string{"memo:* aliases.yaml#notes:* notes:*", "notes:* aliases.yaml#notes:* "}, aliasRegistrations(reg))

	_, err = celfmt.RegisterGenerated(runtime.NewRegistry(), c, runtime.Only("Read"))
	assert.EqualError(t, err, `"Read" is an alias of "read_file": select the formatter by its tool "read_file"`)
}

// constant is a formatter that always returns s.
func constant(s string) runtime.Formatter {
	return runtime.FormatterFunc(func(runtime.Request) (string, bool, error) { return s, true, nil })
}
