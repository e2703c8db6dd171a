package celfmt

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// languageReference is the language reference, whose examples must hold.
const languageReference = "../docs/language.md"

var (
	fencedBlock = regexp.MustCompile("(?s)```(yaml|json)\n(.*?)```")
	exampleRow  = regexp.MustCompile("(?m)^\\| `([^`]+)` \\| `([^`]+)` \\|$")
)

// TestLanguageReference runs every example of the language reference
// (docs/language.md): catalogs load, table rows evaluate to their
// stated results, and every function and catalog key is documented.
func TestLanguageReference(t *testing.T) {
	doc, err := os.ReadFile(languageReference)
	require.NoError(t, err)
	text := string(doc)

	var input *value.Object
	catalogs := 0
	// A block whose first line names a file ("# servers/db.yaml") is a
	// file that catalogs of the reference include, relative to it.
	files := map[string][]byte{}
	blocks := fencedBlock.FindAllStringSubmatch(text, -1)
	for _, m := range blocks {
		if name, ok := includedName(m[2]); ok && m[1] == "yaml" {
			files[filepath.Join(filepath.Dir(languageReference), name)] = []byte(m[2])
		}
	}
	read := func(name string) ([]byte, error) {
		if src, ok := files[name]; ok {
			return src, nil
		}
		return nil, os.ErrNotExist
	}
	for _, m := range blocks {
		switch m[1] {
		case "yaml":
			if _, ok := includedName(m[2]); ok {
				continue // loaded with the catalog that includes it
			}
			_, err := LoadFiles(languageReference, []byte(m[2]), read, Options{})
			require.NoError(t, err, "catalog in the reference:\n%s", m[2])
			catalogs++
		case "json":
			input = object(t, m[2])
		}
	}
	require.Positive(t, catalogs)
	require.NotNil(t, input, "the reference states the example input")

	env := testEnv(t)
	vars := map[string]any{
		"input":  objectVal{o: input},
		"tool":   "read",
		"limits": limitsVal(DefaultLimits),
	}
	rows := exampleRow.FindAllStringSubmatch(text, -1)
	require.Greater(t, len(rows), 30)
	for _, row := range rows {
		expr, want := row[1], row[2]
		t.Run(expr, func(t *testing.T) { assertEval(t, env, vars, expr, want) })
	}

	for _, f := range functions {
		assert.Contains(t, text, "\n### "+f.name+"\n", "function %s is not documented", f.name)
	}
	for _, key := range append(append(append([]string{}, topKeys...), entryKeys...), exampleKeys...) {
		assert.Contains(t, text, "| `"+key+"` |", "catalog key %s is not documented", key)
	}
	assert.True(t, strings.Contains(text, "`tool`") && strings.Contains(text, "`limits`") && strings.Contains(text, "`input`"))
}

// includedName returns the file name a block of the reference starts
// with, as a comment ("# servers/db.yaml"), when it is an included file.
func includedName(block string) (string, bool) {
	first, _, _ := strings.Cut(block, "\n")
	name, ok := strings.CutPrefix(first, "# ")
	return name, ok && strings.HasSuffix(name, ".yaml") && !strings.Contains(name, " ")
}
