package celfmt

import (
	"errors"
	"flag"
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
			_, err = Load(name, src, Options{})
			var list ErrorList
			require.True(t, errors.As(err, &list), "want diagnostics, got %v", err)
			got := list.Snippets(src)
			golden := strings.TrimSuffix(file, ".yaml") + ".golden"
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test -update to create it")
			assert.Equal(t, string(want), got)
			for _, e := range list {
				assert.Equal(t, name, e.Pos.File)
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
	files = append(files, filepath.Join("..", "formatters.yaml"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		require.NoError(t, err)
		checked, err := Load(filepath.Base(file), src, Options{})
		require.NoError(t, err, "%s", file)
		assert.NotEmpty(t, checked.Formatters)
	}
}
