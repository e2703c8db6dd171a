package celfmt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
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
func readPreviewGo(input *value.Object) string {
	var parts []string
	if p, ok := textfmt.PromptPath(input); ok {
		parts = append(parts, "path '"+p+"'")
	}
	if v, ok := input.Get("offset"); ok {
		if n, ok := v.(value.Number); ok {
			parts = append(parts, "offset "+value.FormatNumber(n.Float64()))
		}
	}
	if v, ok := input.Get("limit"); ok {
		if n, ok := v.(value.Number); ok {
			parts = append(parts, "limit "+value.FormatNumber(n.Float64()))
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
		text, ok, err := f.Run(in, "read", defaultLimits)
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
			if _, _, err := f.Run(input, "read", defaultLimits); err != nil {
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
	env := testEnv(b)
	src := NewSource("bench", `"for " + inline(string(input.pattern), limits.summary) + (has(input.path) ? ", path '" + string(input.path) + "'" : ", current working directory")`)
	opts := Options{}.withDefaults()
	calls, err := newCallTable(env)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var errs ErrorList
		if _, ok := compile(env, calls, src, "preview", nil, nil, opts, &errs); !ok {
			b.Fatal(errs)
		}
	}
}

// BenchmarkLoadStock measures what a host pays to load the stock catalog at
// run time: parsing it, and parsing and checking it (examples not run, as
// a host that trusts the catalog's tests may choose).
func BenchmarkLoadStock(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("..", "formatters.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, errs := ParseFiles("formatters.yaml", src, DirFiles("..")); len(errs) > 0 {
				b.Fatal(errs)
			}
		}
	})
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := LoadFiles("formatters.yaml", src, DirFiles(".."), Options{SkipExamples: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
