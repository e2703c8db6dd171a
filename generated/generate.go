// Package generated is the stock catalog, formatters.yaml, compiled into Go
// registrations: the previews of edit, write, read, find, grep, ls and the
// MCP argument summary. Register it in a registry:
//
//	reg := runtime.NewRegistry()
//	if _, err := generated.Register(reg); err != nil {
//		return err
//	}
//
// Everything but this file is written by go generate; do not edit it.
package generated

//go:generate go tool permgen generate -f ../formatters.yaml -o .
