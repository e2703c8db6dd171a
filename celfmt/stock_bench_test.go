package celfmt

import (
	"os"
	"sync"
	"testing"

	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/require"
)

// stockInputs are typical inputs of the reference tools, as the generated
// package's BenchmarkStock has them; the other entries run on their first
// example.
var stockInputs = map[string]string{
	"read":  `{"path":"/home/dev/src/orders-api/internal/billing/invoice.go","offset":118,"limit":40}`,
	"write": `{"path":"/out.ts","content":"package main\n\nfunc main() {}\n"}`,
	"edit":  `{"path":"/src/app.go","edits":[{"oldText":"a\nb","newText":"c"},{"oldText":"d","newText":"e"}]}`,
	"find":  `{"pattern":"*_test.go","path":"/home/dev/src"}`,
	"grep":  `{"pattern":"func \\(s \\*InvoiceService\\) DueDate","glob":"**/*.go","path":"/home/dev/src"}`,
	"ls":    `{"path":"/home/dev/src"}`,
	"mcp":   `{"tool":"exa:search","arguments":{"query":"golang time.AddDate","numResults":5}}`,
}

// stockChecked is the stock catalog loaded at run time, once: loading it,
// examples and all, is the expensive part of each test that reads it, and
// none changes it.
var stockChecked = sync.OnceValues(func() (*Checked, error) {
	src, err := os.ReadFile("../formatters.yaml")
	if err != nil {
		return nil, err
	}
	return LoadFiles("formatters.yaml", src, DirFiles(".."), Options{})
})

// stockCatalog is the stock catalog loaded at run time.
func stockCatalog(t testing.TB) *Checked {
	t.Helper()
	c, err := stockChecked()
	require.NoError(t, err)
	return c
}

// stockCall is the typical call of a stock formatter.
func stockCall(t testing.TB, f *Formatter) (*value.Object, string) {
	t.Helper()
	tool := f.Entry.Tool
	if js, ok := stockInputs[tool]; ok {
		return object(t, js), tool
	}
	ex := f.Entry.Examples[0]
	if ex.Tool != "" {
		tool = ex.Tool
	}
	in, _ := ex.Input.(*value.Object)
	return in, tool
}

// BenchmarkStockInterpreted runs every stock formatter loaded at run time
// on a typical input, metered and on the path Run takes ("fast": unmetered
// where the formatter's estimate and the input allow it). The two run in
// one process, one after the other: on a busy machine, compare them over
// several runs (-count) with a fixed number of iterations (-benchtime 2000x).
func BenchmarkStockInterpreted(b *testing.B) {
	for _, f := range stockCatalog(b).Formatters {
		in, tool := stockCall(b, f)
		for _, mode := range []string{"metered", "fast"} {
			b.Run(f.Entry.Tool+"/"+mode, func(b *testing.B) {
				g := f
				if mode == "metered" {
					g = meteredTwin(f)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := g.Run(in, tool, defaultLimits); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
