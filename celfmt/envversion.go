package celfmt

import (
	"runtime/debug"
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
