package celfmt

import (
	"fmt"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/google/cel-go/cel"
)

// celGoModule is the module path of cel-go, and celGoVersion the version
// EnvVersion names. go.mod requires this version; TestEnvVersion checks
// that the build uses it (from the build information when the binary has
// it) and that the environment it builds is the one recorded in
// testdata/env/functions.golden.
const (
	celGoModule  = "github.com/google/cel-go"
	celGoVersion = "v0.31.0"
)

// buildCelGoVersion returns the version of cel-go the running binary was
// built with, read from its build information; a replaced module reports
// the replacement's version. When the binary carries no build information
// (or cel-go is not among its dependencies), it returns celGoVersion, the
// version EnvVersion names, and fromBuild false: the version is then the
// pinned one, not a measured one.
func buildCelGoVersion() (version string, fromBuild bool) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return celGoVersion, false
	}
	mods := append([]*debug.Module{&info.Main}, info.Deps...)
	for _, m := range mods {
		if m == nil || m.Path != celGoModule {
			continue
		}
		if m.Replace != nil && m.Replace.Version != "" {
			return m.Replace.Version, true
		}
		if m.Version != "" && m.Version != "(devel)" {
			return m.Version, true
		}
	}
	return celGoVersion, false
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
