package celfmt

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestBadCatalogs loads every broken catalog and compares all of its
// diagnostics, with their snippets, with the golden file beside it.
func TestBadCatalogs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "catalogs", "bad", "*.yaml"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 25)
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".yaml"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			dir := filepath.Dir(file)
			_, err = LoadFiles(name, src, DirFiles(dir), Options{})
			var list ErrorList
			require.True(t, errors.As(err, &list), "want diagnostics, got %v", err)
			got := list.SnippetsOf(func(f string) []byte {
				text, _ := os.ReadFile(filepath.Join(dir, f))
				return text
			})
			golden := strings.TrimSuffix(file, ".yaml") + ".golden"
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test -update to create it")
			assert.Equal(t, string(want), got)
			for _, e := range list {
				// A position names this file or one it includes.
				assert.True(t, e.Pos.File == name || strings.HasPrefix(e.Pos.File, strings.TrimSuffix(name, ".yaml")+string(filepath.Separator)), e.Pos.File)
				assert.Positive(t, e.Pos.Line)
				assert.Positive(t, e.Pos.Col)
			}
		})
	}
}

// TestGoodCatalogs loads every valid catalog: all expressions check and all
// examples pass.
func TestGoodCatalogs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "catalogs", "good", "*.yaml"))
	require.NoError(t, err)
	for _, file := range files {
		src, err := os.ReadFile(file)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		require.NoError(t, err)
		checked, err := LoadFiles(filepath.Base(file), src, DirFiles(filepath.Dir(file)), Options{})
		require.NoError(t, err, "%s", file)
		assert.NotEmpty(t, checked.Formatters)
	}
	// The stock catalog, loaded once for every test that reads it.
	assert.NotEmpty(t, stockCatalog(t).Formatters)
}

// TestHiddenLineBreaks: YAML breaks lines at characters that editors,
// terminals and diffs do not all show as breaks. A catalog using one could
// show a reviewer one key where YAML reads two, so each is refused at the
// position an editor counts; line feeds, CRLF and escapes are fine.
func TestHiddenLineBreaks(t *testing.T) {
	const entry = "version: 1\nformatters:\n  - tool: t\n    preview: '\"x\"'%s    tier: read\n"
	for _, tc := range []struct {
		name, sep string
		want      string // "" when the catalog loads
	}{
		{"line feed", "\n", ""},
		{"crlf", "\r\n", ""},
		{"carriage return", "\r", "f.yaml:4:19: a carriage return without a line feed"},
		{"next line", "\u0085", "f.yaml:4:19: U+0085 NEXT LINE"},
		{"line separator", "\u2028", "f.yaml:4:19: U+2028 LINE SEPARATOR"},
		{"paragraph separator", "\u2029", "f.yaml:4:19: U+2029 PARAGRAPH SEPARATOR"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("f.yaml", []byte(fmt.Sprintf(entry, tc.sep)), Options{})
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}

	escaped := "version: 1\nformatters:\n  - tool: t\n    preview: '\"a\\u2028b\\rc\"'\n    tier: read\n"
	_, err := Load("f.yaml", []byte(escaped), Options{})
	assert.NoError(t, err, "escapes inside CEL strings are not line breaks")

	atEnd := "version: 1\r"
	_, errs := Parse("f.yaml", []byte(atEnd))
	require.Len(t, errs, 1)
	assert.Equal(t, Pos{File: "f.yaml", Line: 1, Col: 11}, errs[0].Pos)

	many := strings.Repeat("#\r", 50)
	_, errs = Parse("f.yaml", []byte(many))
	assert.Len(t, errs, maxLineBreakErrors+1, "a file full of them is not one error each")
}
