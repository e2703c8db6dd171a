package gen

import (
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/celfmt"
)

// hostileCatalog is a catalog of one entry whose title, description and
// preview (inside a CEL string literal) hold text.
func hostileCatalog(text string) []byte {
	// Go's ASCII quoting is also YAML's double-quoted form.
	q := strconv.QuoteToASCII(text)
	lit := strconv.QuoteToASCII(strconv.Quote(text))
	return []byte("version: 1\nformatters:\n  - tool: deploy\n    title: " + q +
		"\n    description: " + q + "\n    preview: " + lit + "\n")
}

// sourceImporter type-checks the packages generated code imports from
// their source, once per test binary: the source importer asks the go
// command where a package is on every import, before its own cache.
var sourceImporter = sync.OnceValue(func() types.Importer {
	return &cachedImporter{from: importer.ForCompiler(token.NewFileSet(), "source", nil), done: map[string]*types.Package{}}
})

type cachedImporter struct {
	from types.Importer
	done map[string]*types.Package
}

func (c *cachedImporter) Import(path string) (*types.Package, error) {
	if p, ok := c.done[path]; ok {
		return p, nil
	}
	p, err := c.from.Import(path)
	if err == nil {
		c.done[path] = p
	}
	return p, err
}

// topLevel returns the names of the declarations of a Go file, and fails
// when the file does not parse, is not as gofmt writes it or does not
// type-check.
func topLevel(t *testing.T, src []byte) []string {
	t.Helper()
	formatted, err := format.Source(src)
	require.NoError(t, err, "%s", src)
	require.Equal(t, string(formatted), string(src), "generated code is not gofmt'd")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	require.NoError(t, err)
	conf := types.Config{Importer: sourceImporter()}
	_, err = conf.Check("p", fset, []*ast.File{f}, nil)
	require.NoError(t, err, "generated code does not type-check")
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			names = append(names, "func "+d.Name.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names = append(names, "var "+n.Name)
					}
				case *ast.TypeSpec:
					names = append(names, "type "+s.Name.Name)
				}
			}
		}
	}
	slices.Sort(names)
	return names
}

// generateOne generates the package of a one-entry catalog.
func generateOne(t *testing.T, src []byte) []byte {
	t.Helper()
	checked, err := celfmt.Load("c.yaml", src, celfmt.Options{})
	require.NoError(t, err, "%s", src)
	files, err := Generate(checked, Config{Package: "p"})
	require.NoError(t, err)
	require.Len(t, files, 1)
	for _, out := range files {
		return out
	}
	return nil
}

// TestCatalogTextCannotBreakOut: a title, description or CEL literal
// cannot end the comment it is written in and put code in the generated
// package, nor stand in it as characters that read otherwise than the
// compiler reads them.
func TestCatalogTextCannotBreakOut(t *testing.T) {
	want := topLevel(t, generateOne(t, hostileCatalog("Deploy")))
	for _, text := range []string{
		"Deploy\n*/\nfunc init() { panic(1) }\n/*",
		"Deploy */ func init() { panic(1) } /*",
		"Deploy\r*/\rfunc init() { panic(1) }\r/*",
		"Deploy\u2028*/\u2028func init() { panic(1) }\u2028/*",
		"Deploy\u0085func init() { panic(1) }",
		"esc \x1b[31m bel \a nul \x00 bom \ufeff rlo \u202e fsi \u2067 zwsp \u200b filler \u3164",
		"a " + strings.Repeat("b", 200) + " c",
	} {
		out := generateOne(t, hostileCatalog(text))
		assert.Equal(t, want, topLevel(t, out), "%q", text)
		// Go quotes a string literal as strconv.Quote does, which keeps
		// printable characters; in comments, safe text's rule holds.
		for _, r := range []string{"\x1b", "\a", "\x00", "\ufeff", "\u202e", "\u2067", "\u2028", "\u0085", "\u200b", "\r"} {
			assert.NotContains(t, string(out), r, "%q", text)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				assert.NotContains(t, line, "\u3164", "%q", text)
			}
		}
	}
}

// TestWrapSourceIsLinear: a literal longer than the width, after an
// indentation, is left whole on its line (it used to be cut at the
// indentation, again and again).
func TestWrapSourceIsLinear(t *testing.T) {
	long := `"` + strings.Repeat("x", 150) + `"`
	for _, line := range []string{"a " + long, "    a " + long + " b", long, strings.Repeat("ab ", 100)} {
		parts := wrapSource(line, 150)
		assert.Less(t, len(parts), len(line)/4+2, "%q", line)
		assert.Equal(t, strings.Fields(line), strings.Fields(strings.Join(parts, " ")), "%q", line)
	}
}

func FuzzCatalogText(f *testing.F) {
	for _, s := range []string{"Deploy\n*/\nfunc init(){}\n/*", "\u202e\u2028\x00", "a " + strings.Repeat("b", 160)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		src := hostileCatalog(text)
		checked, err := celfmt.Load("c.yaml", src, celfmt.Options{})
		if err != nil {
			return // the catalog is refused with a position: nothing to generate
		}
		files, err := Generate(checked, Config{Package: "p"})
		require.NoError(t, err)
		for _, out := range files {
			names := topLevel(t, out)
			assert.Contains(t, names, "func Register")
			assert.NotContains(t, names, "func init")
		}
	})
}
