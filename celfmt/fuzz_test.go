package celfmt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/value"
)

func addCatalogSeeds(f *testing.F) {
	for _, dir := range []string{"good", "bad"} {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "catalogs", dir, "*.yaml"))
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
}

// FuzzLoad loads arbitrary bytes as a catalog. It never panics, and every
// diagnostic has a position inside the file.
func FuzzLoad(f *testing.F) {
	addCatalogSeeds(f)
	f.Add([]byte("version: 1\nformatters:\n  - tool: t\n    preview: \"a\\u00e9\" + inptu\n"))
	f.Add([]byte("version: 1\nformatters:\n  - tool: t\n    preview: >\n      a\n\n      b +\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, err := Load("f.yaml", src, Options{})
		if err == nil {
			return
		}
		list, ok := err.(ErrorList)
		if !ok {
			t.Fatalf("error is %T, not an ErrorList: %v", err, err)
		}
		lines := strings.Count(string(src), "\n") + 1
		for _, e := range list {
			if e.Pos.File != "f.yaml" || e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 {
				t.Fatalf("position %v outside the file (%d lines): %s", e.Pos, lines, e.Msg)
			}
		}
		if s := list.Snippets(src); !utf8.ValidString(s) && utf8.Valid(src) {
			t.Fatalf("snippets are not valid UTF-8")
		}
	})
}

// FuzzFormat runs the formatters of a catalog on arbitrary JSON. They never
// panic: they return text, decline, or fail with an error.
func FuzzFormat(f *testing.F) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "catalogs", "good", "deploy.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	extra := `
  - tool: everything
    preview: |
      input.map(k, k + ":" + mcpValue(input[k]) + json(input[k])).join(",")
        + string(lines(json(input))) + inline(json(input), 10) + collapse(json(input))
        + promptPath(input).orValue("") + nonEmpty(input.?x.orValue(null)).orValue("")
        + (has(input.n) && type(input.n) == double ? numberText(input.n) : "")
        + truncate(json(input), limits.preview)
`
	// The static budget is lifted: json() in a comprehension is estimated
	// over it, and the run-time limits are what this target exercises. The
	// cost limit is lowered so that one input costs milliseconds even
	// under the fuzzer's instrumentation (FuzzAdversarialCatalog holds the
	// default limits to their time bound).
	checked, err := Load("deploy.yaml", append(src, extra...), Options{CostBudget: 1 << 62, CostLimit: 20_000})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{`{}`, `{"service":"a","target":"b","replicas":2}`, `{"path":" /p ","n":1e21,"x":"  y "}`,
		`{"release":"\u202e"}`, `{"key":[1,{"a":null}],"b":true}`, `{"replicas":1.5}`, `{"query":"a\nb","since":3}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := value.DecodeJSON(data)
		if err != nil {
			return
		}
		obj, _ := v.(*value.Object)
		for _, fm := range checked.Formatters {
			text, ok, err := fm.Run(obj, fm.Entry.Tool, Limits{Preview: 200, Summary: 80, Log: 1000})
			if err == nil && ok && !utf8.ValidString(text) {
				t.Fatalf("%s: invalid UTF-8 %q", fm.Entry.Tool, text)
			}
		}
	})
}
