package celfmt

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var envGolden = filepath.Join("..", "testdata", "env", "functions.golden")

const envGoldenHeader = `# The CEL environment of celfmt: the cel-go version of the build, libraries,
# variables, object types, macros, and each function with its overload ids
# and signatures.
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
// signature, a variable, a field of an object type, a macro, a library or
// the cel-go version fails until EnvVersion has a new value, and -update
// refuses to record a changed environment under the old one.
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

// envListing describes the environment formatters are checked and run in,
// one line per item and sorted, so that two builds with the same listing
// give an expression the same meaning: the cel-go version, the libraries,
// the variables, the macros, and every function with the id and signature
// of each of its overloads. The environment is built as Check builds it;
// input is declared as Eval declares it (Check declares it per entry, as
// an object of the declared fields when the entry declares them).
//
// A change of the listing needs a new EnvVersion: TestEnvVersion compares
// it with testdata/env/functions.golden.
func envListing() (string, error) {
	p, err := newProvider()
	if err != nil {
		return "", err
	}
	env, err := baseEnv(p)
	if err != nil {
		return "", err
	}
	if env, err = env.Extend(cel.Variable(varInput, undeclaredInput)); err != nil {
		return "", err
	}
	var b strings.Builder
	// Without build information this is the pinned version, so the
	// listing is the same either way; TestEnvVersion says which it saw.
	version, _ := buildCelGoVersion()
	fmt.Fprintf(&b, "cel-go: %s\n", version)

	b.WriteString("\nlibraries:\n")
	libs := env.Libraries()
	sort.Strings(libs)
	for _, l := range libs {
		fmt.Fprintf(&b, "  %s\n", l)
	}

	b.WriteString("\nvariables:\n")
	vars := env.Variables()
	sort.Slice(vars, func(i, j int) bool { return vars[i].Name() < vars[j].Name() })
	for _, v := range vars {
		fmt.Fprintf(&b, "  %s: %s\n", v.Name(), v.Type())
	}

	// The result slots add the variable result; the object types list their
	// fields, which expressions read as much as functions.
	fmt.Fprintf(&b, "  %s: %s (result, error and expand)\n", varResult, ResultType())
	b.WriteString("\nobject types:\n")
	for _, name := range []string{limitsTypeName, resultTypeName} {
		decl := p.objects[name]
		fmt.Fprintf(&b, "  %s\n", name)
		for _, field := range decl.names {
			fmt.Fprintf(&b, "    %s: %s\n", field, decl.fields[field].Type)
		}
	}

	b.WriteString("\nmacros:\n")
	var macros []string
	for _, m := range env.Macros() {
		macros = append(macros, m.MacroKey())
	}
	sort.Strings(macros)
	for _, m := range macros {
		fmt.Fprintf(&b, "  %s\n", m)
	}

	b.WriteString("\nfunctions:\n")
	fns := env.Functions()
	names := make([]string, 0, len(fns))
	for name := range fns {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(&b, "  %s\n", name)
		var overloads []string
		for _, o := range fns[name].OverloadDecls() {
			args := make([]string, len(o.ArgTypes()))
			for i, t := range o.ArgTypes() {
				args[i] = t.String()
			}
			sig := "(" + strings.Join(args, ", ") + ")"
			if o.IsMemberFunction() && len(args) > 0 {
				sig = args[0] + ".(" + strings.Join(args[1:], ", ") + ")"
			}
			overloads = append(overloads, fmt.Sprintf("    %s %s -> %s", o.ID(), sig, o.ResultType()))
		}
		sort.Strings(overloads)
		for _, o := range overloads {
			b.WriteString(o + "\n")
		}
	}
	return b.String(), nil
}

// Generated code refuses to run in a binary built with another cel-go than
// the one its environment is pinned to (a host may require a newer one).
func TestCheckCelGo(t *testing.T) {
	require.NoError(t, checkCelGo(celGoVersion, true))
	require.NoError(t, checkCelGo("", false), "no build information: nothing to compare")
	err := checkCelGo("v0.32.0", true)
	require.ErrorIs(t, err, ErrEnvVersion)
	require.ErrorContains(t, err, "built with cel-go v0.32.0")
}
