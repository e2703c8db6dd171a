package runtime_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRuntimeLinksNoCEL holds the layering: a host that registers Go or
// generated formatters and dispatches imports runtime (and its value and
// textfmt packages) and links no CEL interpreter, parser or YAML reader.
func TestRuntimeLinksNoCEL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, pkg := range []string{
		"github.com/permgen/permgen/runtime",
		"github.com/permgen/permgen/runtime/value",
		"github.com/permgen/permgen/runtime/textfmt",
	} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		require.NoError(t, err, "%s", out)
		for _, dep := range strings.Fields(string(out)) {
			for _, banned := range []string{"cel-go", "cel.dev", "antlr", "protobuf", "genproto", "yaml", "permgen/celfmt", "permgen/gen"} {
				if strings.Contains(dep, banned) {
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		}
	}
}
