package generated_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGeneratedLinksNoCEL holds what native translation is for: the stock
// catalog's generated package links no CEL interpreter, parser, protobuf
// or YAML reader, only the runtime helpers of the translated code.
func TestGeneratedLinksNoCEL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const pkg = "github.com/permgen/permgen/generated"
	out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := strings.Fields(string(out))
	for _, dep := range deps {
		for _, banned := range []string{
			"github.com/google/cel-go",
			"google.golang.org/protobuf",
			"github.com/antlr4-go",
			"cel.dev/expr",
			"gopkg.in/yaml.v3",
		} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
	require.True(t, slices.Contains(deps, "github.com/permgen/permgen/runtime/celrt"),
		"%s links the runtime helpers of translated code", pkg)
}
