package celfmt

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var envGolden = filepath.Join("..", "testdata", "env", "functions.golden")

const envGoldenHeader = `# The CEL environment of celfmt: the cel-go version of the build, libraries,
# variables, macros, and each function with its overload ids and signatures.
# TestEnvVersion compares it with the environment the code builds; when they
# differ, give celfmt.EnvVersion a new value and run go test ./celfmt -update.
`

// readEnvGolden splits the golden file into the EnvVersion it records and
// the listing.
func readEnvGolden(t *testing.T) (version, listing string) {
	t.Helper()
	data, err := os.ReadFile(envGolden)
	require.NoError(t, err, "run go test ./celfmt -update to create %s", envGolden)
	rest := string(data)
	for strings.HasPrefix(rest, "#") {
		_, rest, _ = strings.Cut(rest, "\n")
	}
	line, listing, _ := strings.Cut(rest, "\n")
	version, ok := strings.CutPrefix(line, "EnvVersion: ")
	require.True(t, ok, "%s: want an EnvVersion line after the comments, got %q", envGolden, line)
	return version, strings.TrimPrefix(listing, "\n")
}

// TestEnvVersion pins the environment to EnvVersion, the way generated code
// pins itself to the environment: a change of a function, an overload id or
// signature, a variable, a macro, a library or the cel-go version fails
// until EnvVersion has a new value, and -update refuses to record a changed
// environment under the old one.
func TestEnvVersion(t *testing.T) {
	got, err := envListing()
	require.NoError(t, err)
	for _, want := range []string{"cel-go: ", "\nfunctions:\n", "  input: map(string, dyn)\n", "  limits: ", "  tool: string\n", "\n  json\n"} {
		require.Contains(t, got, want, "the listing is missing something it should always list")
	}

	var (
		haveGolden               = true
		wantVersion, wantListing string
	)
	if _, err := os.Stat(envGolden); os.IsNotExist(err) && *update {
		haveGolden = false
	} else {
		wantVersion, wantListing = readEnvGolden(t)
	}
	changed := haveGolden && got != wantListing
	if changed && EnvVersion == wantVersion {
		t.Errorf("the environment listing differs from %s:\n%s", envGolden, listingDiff(wantListing, got))
		t.Fatalf("the environment changed: give EnvVersion a new value and run go test ./celfmt -update\n(EnvVersion is still %q, the version %s records for another environment)", EnvVersion, envGolden)
	}
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(envGolden), 0o755))
		content := envGoldenHeader + "EnvVersion: " + EnvVersion + "\n\n" + got
		require.NoError(t, os.WriteFile(envGolden, []byte(content), 0o644))
		return
	}
	if changed {
		t.Errorf("the environment listing differs from %s:\n%s", envGolden, listingDiff(wantListing, got))
		t.Fatalf("the environment and EnvVersion changed: run go test ./celfmt -update to record them")
	}
	if EnvVersion != wantVersion {
		t.Fatalf("EnvVersion is %q but %s records %q for this environment: run go test ./celfmt -update", EnvVersion, envGolden, wantVersion)
	}
}

// listingDiff lists the lines of want missing from got ("-") and the lines
// of got not in want ("+"), under the section and function they belong to.
func listingDiff(want, got string) string {
	count := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			m[l]++
		}
		return m
	}
	var b strings.Builder
	report := func(s string, other map[string]int, sign string) {
		var heading string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "    ") {
				heading = l
			}
			if other[l] > 0 {
				other[l]--
				continue
			}
			if l != heading && heading != "" {
				b.WriteString("  (" + strings.TrimSpace(heading) + ")")
			}
			b.WriteString(" " + sign + " " + l + "\n")
		}
	}
	report(want, count(got), "-")
	report(got, count(want), "+")
	return b.String()
}

// TestEnvVersionNamesCelGo checks that EnvVersion names the cel-go version
// the build uses, and the one go.mod requires.
func TestEnvVersionNamesCelGo(t *testing.T) {
	assert.Contains(t, EnvVersion, "cel-go "+celGoVersion, "EnvVersion names the pinned cel-go version")
	version, fromBuild := buildCelGoVersion()
	if fromBuild {
		assert.Equal(t, celGoVersion, version,
			"the build uses cel-go %s but EnvVersion names %s: an upgrade of cel-go needs a new EnvVersion (update celGoVersion, then go test ./celfmt -update)", version, celGoVersion)
	} else {
		t.Logf("no build information for %s: checking go.mod only", celGoModule)
	}

	f, err := os.Open(filepath.Join("..", "go.mod"))
	require.NoError(t, err)
	defer f.Close()
	var required string
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(s.Text()), "require "))
		if len(fields) >= 2 && fields[0] == celGoModule {
			required = fields[1]
		}
	}
	require.NoError(t, s.Err())
	assert.Equal(t, celGoVersion, required, "go.mod requires cel-go %s but EnvVersion names %s", required, celGoVersion)
}
