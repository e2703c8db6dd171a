package celfmt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
)

// readPreviewCEL is the reference preview of the read tool in CEL.
const readPreviewCEL = `
    preview: |
      cel.bind(p, promptPath(input),
        cel.bind(parts,
          (p.hasValue() ? ["path '" + p.value() + "'"] : [])
          + (has(input.offset) && type(input.offset) == double ? ["offset " + numberText(input.offset)] : [])
          + (has(input.limit) && type(input.limit) == double ? ["limit " + numberText(input.limit)] : []),
          parts.size() == 0 ? "" : "for " + parts.join(", ")))
`

// readPreviewGo is the same preview written in Go.
func readPreviewGo(input *Object) string {
	var parts []string
	if p, ok := PromptPath(input); ok {
		parts = append(parts, "path '"+p+"'")
	}
	if v, ok := input.Get("offset"); ok {
		if n, ok := v.(float64); ok {
			parts = append(parts, "offset "+FormatNumber(n))
		}
	}
	if v, ok := input.Get("limit"); ok {
		if n, ok := v.(float64); ok {
			parts = append(parts, "limit "+FormatNumber(n))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "for " + strings.Join(parts, ", ")
}

func TestReadPreviewCELMatchesGo(t *testing.T) {
	f := formatter(t, "  - tool: read"+readPreviewCEL, Options{})
	for _, js := range []string{`{"path":"/x","offset":10,"limit":50}`, `{}`, `{"file_path":" /y ","limit":"5"}`, `{"offset":1.5}`} {
		in := object(t, js)
		text, ok, err := f.Format(in, "read", defaultLimits)
		if err != nil || !ok {
			t.Fatalf("%s: %v %v", js, ok, err)
		}
		if want := readPreviewGo(in); text != want {
			t.Errorf("%s: CEL %q, Go %q", js, text, want)
		}
	}
}

// BenchmarkPreview compares a typical preview evaluated through CEL with
// the same preview written in Go, on the same decoded input.
func BenchmarkPreview(b *testing.B) {
	input := object(b, `{"path":"/home/dev/src/orders-api/internal/billing/invoice.go","offset":118,"limit":40}`)
	b.Run("cel", func(b *testing.B) {
		f := formatter(b, "  - tool: read"+readPreviewCEL, Options{})
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := f.Format(input, "read", defaultLimits); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			readPreviewGo(input)
		}
	})
}

// BenchmarkCompile measures compiling, checking and estimating one
// expression, and building its program.
func BenchmarkCompile(b *testing.B) {
	p, err := newProvider()
	if err != nil {
		b.Fatal(err)
	}
	env, err := baseEnv(p)
	if err != nil {
		b.Fatal(err)
	}
	env, err = env.Extend(cel.Variable("input", cel.MapType(cel.StringType, cel.DynType)))
	if err != nil {
		b.Fatal(err)
	}
	src := NewSource("bench", `"for " + inline(string(input.pattern), limits.summary) + (has(input.path) ? ", path '" + string(input.path) + "'" : ", current working directory")`)
	opts := Options{}.withDefaults()
	b.ReportAllocs()
	for b.Loop() {
		var errs ErrorList
		if _, ok := compile(env, src, "preview", opts, &errs); !ok {
			b.Fatal(errs)
		}
	}
}

// catalogOf returns a catalog of n formatters of a few shapes.
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
	if _, err := Load("bench.yaml", src, Options{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load("bench.yaml", src, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
