//go:build !permgen_lean

package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLeanBuildLinksNoCEL holds the permgen_lean build to its reason to
// be: it links neither cel-go nor protobuf, whose package initialization
// is most of the full build's start, nor this module's catalog language
// and generator.
func TestLeanBuildLinksNoCEL(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "permgen_lean", ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/permgen/permgen/generated")
	for _, dep := range deps {
		for _, heavy := range []string{"github.com/google/cel-go", "google.golang.org/protobuf", "cel.dev/expr", "github.com/permgen/permgen/celfmt", "github.com/permgen/permgen/gen", "gopkg.in/yaml.v3"} {
			assert.False(t, dep == heavy || strings.HasPrefix(dep, heavy+"/"), "the lean build links %s", dep)
		}
	}
	full, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	require.NoError(t, err, "%s", full)
	assert.Contains(t, strings.Fields(string(full)), "github.com/google/cel-go/cel", "the full build links cel-go: the test above can fail")
}
