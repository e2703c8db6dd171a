package gen

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSecondModule is the path other teams take: a module of their own
// pins permgen as a tool, runs go generate on its catalog, builds, registers
// the generated package and previews through it.
func TestSecondModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a second module")
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	dir := t.TempDir()

	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	// What go mod tidy would add: the same requirements and sums as this
	// module, so the build needs no network.
	requires := regexp.MustCompile(`(?s)require \(.*?\)\n`).FindAllString(string(gomod), -1)
	mod := "module example.com/team\n\ngo 1.25.0\n\n" + strings.Join(requires, "\n")
	catalog, err := os.ReadFile(filepath.Join(root, "testdata", "catalogs", "good", "deploy.yaml"))
	require.NoError(t, err)

	files := map[string]string{
		"go.mod":                 mod,
		"go.sum":                 string(gosum),
		"catalogs/team.yaml":     string(catalog),
		"formatters/generate.go": "// Package formatters is the team's catalog, generated.\npackage formatters\n\n//go:generate go tool permgen generate -f ../catalogs/team.yaml -o .\n",
		"main.go": `package main

import (
	"fmt"

	"example.com/team/formatters"
	"github.com/permgen/permgen/runtime"
)

func main() {
	reg := runtime.NewRegistry()
	if _, err := formatters.Register(reg); err != nil {
		panic(err)
	}
	d, err := runtime.NewDispatcher(reg, runtime.Options{})
	if err != nil {
		panic(err)
	}
	desc := d.Describe(runtime.Call{Tool: "deploy", Input: ` + "`" + `{"service":"api","target":"prod","replicas":3}` + "`" + `})
	fmt.Println(desc.Prompt)
	fmt.Println(desc.Preview.Formatter)
}
`,
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	run := func(args ...string) string {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
		return string(out)
	}
	// The commands of docs/generate.md, with this checkout for ../permgen.
	run("mod", "edit", "-require=github.com/permgen/permgen@v0.0.0", "-replace=github.com/permgen/permgen="+filepath.ToSlash(root))
	run("mod", "edit", "-tool=github.com/permgen/permgen/cmd/permgen")
	run("generate", "./...")
	generated, err := os.ReadFile(filepath.Join(dir, "formatters", "team_gen.go"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(generated), Header+"\n"))
	assert.NotContains(t, string(generated), "/internal/", "generated code imports only public packages")
	run("vet", "./...")
	out := run("run", ".")
	assert.Equal(t, "Current agent requested tool 'deploy' deploy 'api' to 'prod' (3 replicas). Allow this call?\ncatalogs/team.yaml#deploy\n", out)
}
