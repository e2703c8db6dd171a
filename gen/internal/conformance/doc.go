// Package conformance runs the CEL conformance tests (the simple tests that
// ship with cel.dev/expr) through the native translation of package gen:
// each in-scope test's expression is checked, translated to Go, compiled
// into this package and evaluated by conformance_test.go, which compares
// its result with the test's expected value. It owns the test harness
// only: the translation is gen's, the run-time semantics are celrt's.
//
// The *_gen.go files are written by the program in ./generate from the
// test files in the module cache and from skip.txt, the reviewed list of
// tests left out by hand. Every test that is not run is listed with its
// reason in skipped_gen.go. Regenerate with
//
//	go generate ./gen/internal/conformance
package conformance

//go:generate go run ./generate
