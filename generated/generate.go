// Package generated is the stock catalog, formatters.yaml, translated into
// Go: a function per formatter (the previews of read, write, edit, find,
// grep, ls, the MCP argument summary and the real tools of agents and MCP
// servers) and their registrations. It links no CEL interpreter. Register
// it in a registry:
//
//	reg := runtime.NewRegistry()
//	if _, err := generated.Register(reg); err != nil {
//		return err
//	}
//
// Everything but this file is written by go generate; do not edit it.
package generated

//go:generate go tool permgen generate -f ../formatters.yaml -o .
