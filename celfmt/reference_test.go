package celfmt

import (
	"os"
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
	for _, m := range fencedBlock.FindAllStringSubmatch(text, -1) {
		switch m[1] {
		case "yaml":
			_, err := Load(languageReference, []byte(m[2]), Options{})
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
