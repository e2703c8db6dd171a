package generated

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// stockFile is one file of the stock catalog, parsed.
type stockFile struct {
	name string
	root *yaml.Node
}

// stockFiles are formatters.yaml and the files it includes.
func stockFiles(t *testing.T) []stockFile {
	t.Helper()
	parse := func(name string) *yaml.Node {
		src, err := os.ReadFile(filepath.Join("..", name))
		require.NoError(t, err)
		var doc yaml.Node
		require.NoError(t, yaml.Unmarshal(src, &doc), name)
		require.Len(t, doc.Content, 1, name)
		return doc.Content[0]
	}
	files := []stockFile{{"formatters.yaml", parse("formatters.yaml")}}
	if inc := mappingValue(files[0].root, "include"); inc != nil {
		for _, n := range inc.Content {
			files = append(files, stockFile{n.Value, parse(n.Value)})
		}
	}
	require.Greater(t, len(files), 1, "formatters.yaml includes the server files")
	return files
}

// mappingValue is the value of key in a mapping node, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// TestStockCatalogHasNoYAMLAnchors: what entries share is a shared let or
// a library function, which the check compiles in each entry and a reader
// finds by name, never a YAML anchor and alias, which copy text silently.
func TestStockCatalogHasNoYAMLAnchors(t *testing.T) {
	for _, f := range stockFiles(t) {
		var walk func(n *yaml.Node)
		walk = func(n *yaml.Node) {
			assert.Empty(t, n.Anchor, "%s:%d:%d: the anchor &%s", f.name, n.Line, n.Column, n.Anchor)
			assert.NotEqual(t, yaml.AliasNode, n.Kind, "%s:%d:%d: the alias *%s", f.name, n.Line, n.Column, n.Value)
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(f.root)
	}
}

// expressionKeys are the keys of an entry whose values are CEL.
var expressionKeys = []string{"preview", "row", "result", "error", "expand", "tier", "unwrap"}

// TestStockCatalogRepeatsNoIdiom: no piece of logic is spelled out in more
// than two places. A line of an expression of 40 characters or more (white
// space folded) that more than two entries, or shared lets, write is an
// idiom a shared let or a library function should say once. A line that
// only binds what library functions return to a name
// ("cel.bind(d, resultObject(result.details),") is a use of the library,
// not logic written again.
func TestStockCatalogRepeatsNoIdiom(t *testing.T) {
	owners := map[string][]string{}
	add := func(owner, expr string) {
		for _, line := range strings.Split(expr, "\n") {
			line = strings.Join(strings.Fields(line), " ")
			if len(line) < 40 || bindsCalls(line) {
				continue
			}
			if !slices.Contains(owners[line], owner) {
				owners[line] = append(owners[line], owner)
			}
		}
	}
	exprs := 0
	for _, f := range stockFiles(t) {
		if lets := mappingValue(f.root, "let"); lets != nil {
			for i := 0; i+1 < len(lets.Content); i += 2 {
				add("shared let "+lets.Content[i].Value, lets.Content[i+1].Value)
				exprs++
			}
		}
		entries := mappingValue(f.root, "formatters")
		if entries == nil {
			continue
		}
		for _, e := range entries.Content {
			owner := fmt.Sprintf("%s:%d (%s)", f.name, e.Line, mappingValue(e, "tool").Value)
			for _, key := range expressionKeys {
				if v := mappingValue(e, key); v != nil && v.Kind == yaml.ScalarNode {
					add(owner, v.Value)
					exprs++
				}
			}
			if lets := mappingValue(e, "let"); lets != nil {
				for i := 1; i < len(lets.Content); i += 2 {
					add(owner, lets.Content[i].Value)
					exprs++
				}
			}
			if v := mappingValue(mappingValue(e, "title"), "expr"); v != nil {
				add(owner, v.Value)
				exprs++
			}
		}
	}
	require.Greater(t, exprs, 900, "the walk finds the catalog's expressions")
	for line, in := range owners {
		assert.LessOrEqual(t, len(in), 2, "%q is written in %d places: %s", line, len(in), strings.Join(in, ", "))
	}
}

// callBinding is a cel.bind of a name to calls and field selections only.
var callBinding = regexp.MustCompile(`^cel\.bind\(\w+, [\w.?()", ]+\),$`)

// bindsCalls reports whether line binds a name to what calls of library
// functions return, with no operator.
func bindsCalls(line string) bool {
	return callBinding.MatchString(line) && !strings.ContainsAny(strings.ReplaceAll(line, ".?", "."), "?:+-*/=<>!&|")
}
