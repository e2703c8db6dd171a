package generated_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

// manyFields is the JSON of an object of n fields, each a string of size
// bytes: 10,000 of 90 bytes are a megabyte.
func manyFields(n, size int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"field_%d":"%s"`, i, strings.Repeat("v", size))
	}
	b.WriteString("}")
	return b.String()
}

// genericCalls are the calls of BenchmarkGenericPreview: a small input and
// a megabyte of ten thousand fields, for a tool without a formatter (the
// default preview) and for an MCP tool without one (the mcp summary). The
// inputs are decoded once, outside the loop.
func genericCalls() []struct {
	name string
	call runtime.Call
} {
	small := value.DecodeInput(`{"query":"typescript generics","numResults":5,"filter":{"lang":"en"}}`)
	large := value.DecodeInput(manyFields(10000, 90))
	return []struct {
		name string
		call runtime.Call
	}{
		{"default/small", runtime.Call{Tool: "search", Input: small}},
		{"default/1MiB-10000-fields", runtime.Call{Tool: "search", Input: large}},
		{"mcp/small", runtime.Call{Tool: "srv:search", Source: "mcp", Target: "srv:search", Input: small}},
		{"mcp/1MiB-10000-fields", runtime.Call{Tool: "srv:search", Source: "mcp", Target: "srv:search", Input: large}},
	}
}

// BenchmarkGenericPreview previews calls that no formatter of the stock
// catalog but the generic ones answers, after decoding.
func BenchmarkGenericPreview(b *testing.B) {
	d, _ := stockDispatcher(b)
	for _, c := range genericCalls() {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d.Preview(c.call)
			}
		})
	}
}
