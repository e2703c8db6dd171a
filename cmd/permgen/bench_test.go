package main

import (
	"strings"
	"testing"

	"github.com/permgen/permgen/generated"
	"github.com/permgen/permgen/runtime"
)

// BenchmarkDescribeWrite1MiB describes a write call whose content is 1 MiB
// of text, from the raw JSON a host receives, with the stock catalog.
func BenchmarkDescribeWrite1MiB(b *testing.B) {
	reg := runtime.NewRegistry()
	if _, err := generated.Register(reg); err != nil {
		b.Fatal(err)
	}
	d, err := runtime.NewDispatcher(reg, runtime.Options{})
	if err != nil {
		b.Fatal(err)
	}
	raw := []byte(`{"path":"/x","content":"` + strings.Repeat(`line of text\n`, (1<<20)/14) + `"}`)
	call := runtime.Call{Tool: "write", Input: raw}
	if got := d.Describe(call).Preview.Text; !strings.HasPrefix(got, "for '/x' (") {
		b.Fatalf("preview %q", got)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		d.Describe(call)
	}
}
