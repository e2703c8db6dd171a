package celfmt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIncludeNeedsAReader: a catalog given as bytes alone, as a plugin's
// is, reads no file of the host's.
func TestIncludeNeedsAReader(t *testing.T) {
	src := "version: 1\ninclude: [more.yaml]\nformatters:\n  - {tool: t, preview: '\"t\"'}\n"
	_, errs := Parse("p.yaml", []byte(src))
	require.Len(t, errs, 1)
	assert.Equal(t, "p.yaml:2:11", errs[0].Pos.String())
	assert.Contains(t, errs[0].Msg, "load it with LoadFiles")
}

// TestIncludedFilesAreReadBelowTheFirst checks the names ParseFiles reads:
// relative to the including file, below the first file's directory.
func TestIncludedFilesAreReadBelowTheFirst(t *testing.T) {
	files := map[string]string{
		"plugins/p/a.yaml":     "version: 1\ninclude: [b/c.yaml]\nformatters:\n  - {tool: a, preview: '\"a\"'}\n",
		"plugins/p/b/c.yaml":   "version: 1\nformatters:\n  - {tool: c, preview: '\"c\"'}\n",
		"plugins/p/other.yaml": "version: 1\nformatters:\n  - {tool: o, preview: '\"o\"'}\n",
	}
	var read []string
	src := "version: 1\ninclude: [a.yaml, other.yaml]\nformatters:\n  - {tool: root, preview: '\"r\"'}\n"
	cat, errs := ParseFiles("plugins/p/root.yaml", []byte(src), func(name string) ([]byte, error) {
		read = append(read, name)
		text, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("no file %s", name)
		}
		return []byte(text), nil
	})
	require.Empty(t, errs)
	assert.Equal(t, []string{"plugins/p/a.yaml", "plugins/p/b/c.yaml", "plugins/p/other.yaml"}, read)
	var order []string
	for _, e := range cat.Formatters {
		order = append(order, e.Tool+"@"+e.Pos.File)
	}
	assert.Equal(t, []string{"root@plugins/p/root.yaml", "a@plugins/p/a.yaml", "c@plugins/p/b/c.yaml", "o@plugins/p/other.yaml"}, order)
}

// TestCatalogFilesAreBounded holds the files of one catalog to
// MaxCatalogFiles and their bytes together to MaxCatalogBytes, so that
// includes cannot make loading read without end.
func TestCatalogFilesAreBounded(t *testing.T) {
	var list []string
	for i := range MaxCatalogFiles {
		list = append(list, fmt.Sprintf("f%d.yaml", i))
	}
	src := "version: 1\ninclude: [" + strings.Join(list, ", ") + "]\nformatters:\n  - {tool: root, preview: '\"r\"'}\n"
	reads := 0
	_, errs := ParseFiles("root.yaml", []byte(src), func(name string) ([]byte, error) {
		reads++
		return fmt.Appendf(nil, "version: 1\nformatters:\n  - {tool: %q, preview: '\"x\"'}\n", strings.TrimSuffix(name, ".yaml")), nil
	})
	require.Len(t, errs, 1)
	assert.Equal(t, MaxCatalogFiles-1, reads)
	assert.Contains(t, errs[0].Msg, fmt.Sprintf("a catalog may span at most %d files", MaxCatalogFiles))

	big := "version: 1\n# " + strings.Repeat("x", MaxCatalogBytes/2) + "\nformatters:\n  - {tool: big, preview: '\"x\"'}\n"
	src = "version: 1\ninclude: [a.yaml, b.yaml]\nformatters:\n  - {tool: root, preview: '\"r\"'}\n"
	_, errs = ParseFiles("root.yaml", []byte(src), func(string) ([]byte, error) { return []byte(big), nil })
	require.NotEmpty(t, errs)
	assert.Equal(t, "root.yaml:2:19", errs[0].Pos.String())
	assert.Contains(t, errs[0].Msg, fmt.Sprintf("more than the %d a catalog may have", MaxCatalogBytes))
}
