package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"sync"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/celfmt"
)

// moduleImporter reads the export data of the packages generated code
// imports, once per test binary.
var moduleImporter = sync.OnceValues(func() (types.Importer, error) { return ExportImporter("..") })

// TestTranslationThatDoesNotTypeCheckRunsInTheInterpreter: a formatter
// whose Go does not type-check (here made so by hand: the translation
// gives none such today) is left to the interpreter, with the reason, and
// the rest stay translated; the output then type-checks, so go generate
// never writes a package that does not build.
func TestTranslationThatDoesNotTypeCheckRunsInTheInterpreter(t *testing.T) {
	imp, err := moduleImporter()
	require.NoError(t, err)
	src := []byte(`version: 1
formatters:
  - tool: deploy
    preview: '"deploy " + input.service'
  - tool: echo
    preview: '"echo " + input.text'
`)
	checked, err := celfmt.Load("c.yaml", src, celfmt.Options{})
	require.NoError(t, err)
	plans := Translate(checked)
	require.True(t, plans[0].Native() && plans[1].Native())
	plans[0].body = []jen.Code{jen.Return(jen.Id("undeclared"), jen.True(), jen.Nil())}

	files, plans, err := generateFrom(checked, Config{Package: "p", Importer: imp}, plans)
	require.NoError(t, err)
	assert.False(t, plans[0].Native())
	assert.Equal(t, "its translation to Go does not type-check (undefined: undeclared)", plans[0].Reason)
	assert.True(t, plans[1].Native(), "the other formatter stays translated")
	out := files["c_gen.go"]
	assert.NotContains(t, string(out), "return undeclared")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "c_gen.go", out, 0)
	require.NoError(t, err)
	_, err = (&types.Config{Importer: imp}).Check("p", fset, []*ast.File{f}, nil)
	require.NoError(t, err, "the output type-checks")

	// Without the importer, nothing is checked: the broken code stands.
	files, _, err = generateFrom(checked, Config{Package: "p"}, withBrokenPreview(Translate(checked)))
	require.NoError(t, err)
	assert.True(t, strings.Contains(string(files["c_gen.go"]), "return undeclared"))
}

func withBrokenPreview(plans []Plan) []Plan {
	plans[0].body = []jen.Code{jen.Return(jen.Id("undeclared"), jen.True(), jen.Nil())}
	return plans
}

// TestSharedCodeThatDoesNotTypeCheckFails: an error outside the code of a
// translated formatter is the generator's own, which no fallback mends:
// generate fails and writes nothing.
func TestSharedCodeThatDoesNotTypeCheckFails(t *testing.T) {
	imp, err := moduleImporter()
	require.NoError(t, err)
	plans := []Plan{{Tool: "deploy"}}
	_, err = typeCheck([]byte("package p\n\nvar x int = \"s\"\n"), imp, plans)
	require.ErrorContains(t, err, "cannot use")
}
