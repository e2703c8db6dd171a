package gen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/permgen/permgen/celfmt"
)

// catalogOf returns a catalog of n formatters of four shapes, a quarter of
// them with a declared input and an example.
func catalogOf(n int) []byte {
	var b strings.Builder
	b.WriteString("version: 1\nformatters:\n")
	for i := range n {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "  - tool: tool_%d\n    title: Tool %d\n    input:\n      path: string\n      count: int\n    preview: |\n      \"for '\" + input.path + \"' (\" + plural(input.count, \"item\", \"items\") + \")\"\n    examples:\n      - input: {path: /a, count: 2}\n        preview: for '/a' (2 items)\n", i, i)
		case 1:
			fmt.Fprintf(&b, "  - tool: \"srv%d:*\"\n    preview: |\n      input.size() == 0 ? \"\" : \"with \" + truncate(input.map(k, k + \": \" + mcpValue(input[k])).join(\", \"), 160)\n", i)
		case 2:
			fmt.Fprintf(&b, "  - tool: tool_%d\n    let:\n      q: inline(string(input.?query.orValue(\"\")), limits.summary)\n    preview: '\"for \" + q'\n", i)
		default:
			fmt.Fprintf(&b, "  - tool: tool_%d\n    preview: |\n      nonEmpty(input.?url.orValue(\"\")).hasValue() ? optional.of(\"fetch \" + truncate(string(input.url), 120)) : optional.none()\n", i)
		}
	}
	return []byte(b.String())
}

// BenchmarkLoadCatalog loads (parses, checks, runs the examples of) a
// 100-formatter catalog, as a host application does at run time.
func BenchmarkLoadCatalog(b *testing.B) {
	src := catalogOf(100)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := celfmt.Load("bench.yaml", src, celfmt.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerate1000 measures what permgen generate does for a
// 1,000-formatter catalog: load and check it (examples included), then emit
// the Go source; and the two stages apart.
func BenchmarkGenerate1000(b *testing.B) {
	src := catalogOf(1000)
	b.Run("total", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			checked, err := celfmt.Load("big.yaml", src, celfmt.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Generate(checked, Config{Package: "big"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	checked, err := celfmt.Load("big.yaml", src, celfmt.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("emit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Generate(checked, Config{Package: "big"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
