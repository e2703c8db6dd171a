package celfmt

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGeneratedAgreesWithChecked restores every formatter of every valid
// catalog from its embedded form and runs every example through both.
func TestGeneratedAgreesWithChecked(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "catalogs", "good", "*.yaml"))
	require.NoError(t, err)
	for _, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		checked, err := LoadFiles(filepath.Base(file), src, DirFiles(filepath.Dir(file)), Options{})
		require.NoError(t, err)
		entries, err := checked.Generated()
		require.NoError(t, err)
		gen := NewGeneratedCatalog(EnvVersion, entries)
		for i, f := range checked.Formatters {
			for _, ex := range f.Entry.Examples {
				obj, _ := ex.Input.(*value.Object)
				want, wantOK, wantErr := f.Run(obj, f.Entry.Tool, defaultLimits)
				got, gotOK, gotErr := gen.Format(i, obj, f.Entry.Tool, defaultLimits)
				assert.Equal(t, want, got, "%s example at %s", f.Entry.Tool, ex.Pos)
				assert.Equal(t, wantOK, gotOK)
				assert.Equal(t, wantErr, gotErr)
			}
		}
	}
}

func TestGeneratedVersionMismatch(t *testing.T) {
	gen := NewGeneratedCatalog("permgen-cel-0", []GeneratedEntry{{Tool: "t"}})
	assert.ErrorIs(t, gen.CheckVersion(), ErrEnvVersion)
	_, _, err := gen.Format(0, nil, "t", defaultLimits)
	assert.ErrorIs(t, err, ErrEnvVersion)
}
