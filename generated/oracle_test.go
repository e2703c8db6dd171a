package generated_test

import (
	"github.com/permgen/permgen/runtime"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/generated"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// The oracle: the seven reference previews of reference/preview-spec.md in
// plain Go, written from the spec alone. The stock catalog must agree with
// it on any input, but for two departures from the spec: where the spec
// picks path over file_path, an agent reads only its own field, so when
// both are there and differ the catalog shows both (promptPaths); and
// where the spec's MCP summary would hide something ([3 items], {…}, the
// 60- and 160-character cuts) or read two ways (a quote inside a string,
// a key that looks like punctuation), the catalog shows every leaf with
// textfmt.Fields (oracleMCP).

func oracle(tool string, in *value.Object, l celfmt.Limits) string {
	switch tool {
	case "read":
		return oracleRead(in, l)
	case "write":
		return oracleWrite(in, l)
	case "edit":
		return oracleEdit(in, l)
	case "find", "grep", "ls":
		return oracleSearch(tool, in, l)
	case "mcp":
		return oracleMCP(in, l)
	}
	panic("no oracle for " + tool)
}

func get(in *value.Object, key string) any {
	v, _ := in.Get(key)
	return v
}

// promptPaths is the spec's prompt path, quoted, or, when path and
// file_path are both non-empty and differ, both with their names, each cut
// to half the preview limit: path '<a>' or file_path '<b>'.
func promptPaths(in *value.Object, l celfmt.Limits) (quoted string, named, ok bool) {
	a, aok := textfmt.NonEmptyString(get(in, "path"))
	b, bok := textfmt.NonEmptyString(get(in, "file_path"))
	if aok && bok && a != b {
		n := l.Preview / 2
		return "path '" + textfmt.Truncate(a, n) + "' or file_path '" + textfmt.Truncate(b, n) + "'", true, true
	}
	p, ok := textfmt.PromptPath(in)
	return "'" + p + "'", false, ok
}

func oracleRead(in *value.Object, l celfmt.Limits) string {
	var parts []string
	if p, named, ok := promptPaths(in, l); named {
		parts = append(parts, p)
	} else if ok {
		parts = append(parts, "path "+p)
	}
	for _, key := range []string{"offset", "limit"} {
		// numberText prints the double CEL sees, as JavaScript does.
		if n, ok := get(in, key).(value.Number); ok {
			parts = append(parts, key+" "+value.FormatNumber(n.Float64()))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "for " + strings.Join(parts, ", ")
}

func oracleWrite(in *value.Object, l celfmt.Limits) string {
	content, _ := get(in, "content").(string)
	stats := "(" + textfmt.CountPhrase(textfmt.LineCount(content), "line", "lines") + ", " +
		textfmt.CountPhrase(len([]rune(content)), "character", "characters") + ")"
	if p, _, ok := promptPaths(in, l); ok {
		return "for " + p + " " + stats
	}
	return stats
}

// oracleEdit follows pi's edit tool where it extends the reference: edits
// sent as JSON text are decoded, and a legacy oldText/newText pair is
// appended to the edits.
func oracleEdit(in *value.Object, l celfmt.Limits) string {
	var edits []any
	switch e := get(in, "edits").(type) {
	case []any:
		edits = e
	case string:
		if v, err := value.DecodeJSON([]byte(e)); err == nil {
			edits, _ = v.([]any)
		}
	}
	_, oldOK := get(in, "oldText").(string)
	_, newOK := get(in, "newText").(string)
	if oldOK && newOK {
		edits = append(edits[:len(edits):len(edits)], in)
	}
	type pair struct{ old, new string }
	var pairs []pair
	for _, e := range edits {
		o, ok := e.(*value.Object)
		if !ok {
			continue
		}
		old, oldOK := get(o, "oldText").(string)
		new, newOK := get(o, "newText").(string)
		if oldOK && newOK {
			pairs = append(pairs, pair{old, new})
		}
	}
	p, _, hasPath := promptPaths(in, l)
	if len(pairs) == 0 {
		if hasPath {
			return "for " + p + " with edit input"
		}
		return "with edit input"
	}
	text := "(" + textfmt.CountPhrase(len(pairs), "replacement", "replacements") +
		": edit #1 replaces " + textfmt.CountPhrase(textfmt.LineCount(pairs[0].old), "line", "lines") +
		" with " + textfmt.CountPhrase(textfmt.LineCount(pairs[0].new), "line", "lines")
	if len(pairs) > 1 {
		text += ", plus " + textfmt.CountPhrase(len(pairs)-1, "additional edit", "additional edits")
	}
	text += ")"
	if hasPath {
		return "for " + p + " " + text
	}
	return text
}

// searchKeys are the reference's search fields that the real find-like,
// grep-like and ls-like tools send: no find tool sends glob, no ls tool a
// pattern or glob, and none of them file_path.
var searchKeys = map[string][]string{"find": {"pattern"}, "grep": {"pattern", "glob"}, "ls": nil}

func oracleSearch(tool string, in *value.Object, l celfmt.Limits) string {
	var parts []string
	for _, key := range searchKeys[tool] {
		if _, ok := textfmt.NonEmptyString(get(in, key)); ok {
			parts = append(parts, key+" '"+textfmt.InlineText(get(in, key).(string), l.Summary)+"'")
		}
	}
	if p, ok := textfmt.NonEmptyString(get(in, "path")); ok {
		parts = append(parts, "path '"+p+"'")
	} else {
		parts = append(parts, "current working directory")
	}
	return "for " + strings.Join(parts, ", ")
}

// oracleMCP is the spec's MCP summary where it shows every argument whole
// and reads one way only; otherwise every leaf, fitted to the output limit
// (the departure).
func oracleMCP(in *value.Object, l celfmt.Limits) string {
	args, ok := get(in, "arguments").(*value.Object)
	if !ok || args.Len() == 0 {
		return ""
	}
	var entries []string
	plain := true
	for k, v := range args.All() {
		entries = append(entries, k+": "+textfmt.MCPValue(v))
		plain = plain && bareKey.MatchString(k) && plainScalar(v)
	}
	if text := strings.Join(entries, ", "); plain && utf8.RuneCountInString(text) <= 160 {
		return "with " + text
	}
	return "with " + textfmt.Fields(args, l.Output-len("with "))
}

// bareKey is a key the spec's summary and the fields rendering both write
// as it is.
var bareKey = regexp.MustCompile(`^[\p{L}\p{M}\p{N}_$@/+#~%&*!?=<>|^-]{1,64}$`)

// plainScalar reports whether the spec's summary shows v whole and as the
// fields rendering writes it: a number, a boolean, null, or a string of at
// most 60 characters with no quote, no backslash at its end and no run of
// white space to fold.
func plainScalar(v any) bool {
	switch x := v.(type) {
	case nil, bool, value.Number, float64:
		return true
	case string:
		return utf8.RuneCountInString(x) <= 60 && !strings.Contains(x, `"`) && !strings.HasSuffix(x, `\`) &&
			!foldable.MatchString(x)
	}
	return false
}

// foldable finds white space the fields rendering folds: a tab or a
// Unicode space, or two in a row.
var foldable = regexp.MustCompile(`[\t\x{00A0}\x{1680}\x{2000}-\x{200A}\x{202F}\x{205F}\x{3000}]|  `)

// stock maps each reference tool to its generated function.
var stock = map[string]func(*value.Object, string, celfmt.Limits) (string, bool, error){
	"read": generated.PreviewRead, "write": generated.PreviewWrite, "edit": generated.PreviewEdit,
	"find": generated.PreviewFind, "grep": generated.PreviewGrep, "ls": generated.PreviewLs,
	"mcp": generated.PreviewMcp,
}

var toolOrder = []string{"read", "write", "edit", "find", "grep", "ls", "mcp"}

// fieldsOf are the argument names each tool's inputs are made of.
var fieldsOf = map[string][]string{
	"read":  {"path", "file_path", "offset", "limit"},
	"write": {"path", "file_path", "content"},
	"edit":  {"path", "file_path", "edits", "oldText", "newText"},
	"find":  {"pattern", "glob", "path", "file_path"},
	"grep":  {"pattern", "glob", "path", "file_path"},
	"ls":    {"pattern", "glob", "path", "file_path"},
	"mcp":   {"tool", "arguments"},
}

// shapedInput builds a tool-shaped input from fuzz data: each field is
// absent, a string, a number, a boolean, null, a list or an object, as
// kinds selects, with values from the strings and numbers given.
func shapedInput(tool string, kinds uint32, s1, s2, s3 string, n float64) *value.Object {
	var pairs []any
	strs := []string{s1, s2, s3}
	for i, key := range fieldsOf[tool] {
		kind := (kinds >> (3 * i)) & 7
		var v any
		switch kind {
		case 0:
			continue // absent
		case 1, 2:
			v = strs[i%3]
		case 3:
			v = n
		case 4:
			v = kinds&1 == 0
		case 5:
			v = nil
		case 6: // a list: of edits for edit, of mixed values otherwise
			v = []any{map[string]any{"oldText": s2, "newText": s3}, s1, map[string]any{"oldText": n, "newText": s1}, map[string]any{"oldText": s3, "newText": s2}}
		case 7: // an object: MCP arguments, or a stray one
			v = map[string]any{"q": s1, "n": n, "list": []any{s2}, "obj": map[string]any{"x": s3}, "z": nil}
		}
		pairs = append(pairs, key, v)
	}
	return value.NewObject(pairs...)
}

var fuzzLimits = celfmt.Limits{Preview: 200, Summary: 80, Log: 1000, Output: 500}

func FuzzStockAgainstOracle(f *testing.F) {
	f.Add(uint8(0), uint32(0b011_011_001), "/src/a.go", "x", "y", 10.0)
	f.Add(uint8(1), uint32(0b001_001), "/out.ts", "line1\nline2", "", 0.0)
	f.Add(uint8(2), uint32(0b110_000_001), "/f.ts", "a\nb", "c", 1.5)
	f.Add(uint8(2), uint32(0b001_001_000_000_000), "", "old", "new", 0.0)
	f.Add(uint8(3), uint32(0b001_001_001), "  a   b ", "**/*.go", " /src ", 0.0)
	f.Add(uint8(4), uint32(0b000_001_001), "\x1b[31mTODO\u202e", "", "", 0.0)
	f.Add(uint8(6), uint32(0b111_001), "exa:search", "typescript", "", 5.0)
	f.Add(uint8(6), uint32(0b001_001), "x:y", strings.Repeat("z", 300), "", 1e21)
	f.Fuzz(func(t *testing.T, which uint8, kinds uint32, s1, s2, s3 string, n float64) {
		tool := toolOrder[int(which)%len(toolOrder)]
		in := shapedInput(tool, kinds, s1, s2, s3, n)
		got, ok, err := stock[tool](in, tool, fuzzLimits)
		if err != nil {
			t.Fatalf("%s on %s: %v", tool, textfmt.CompactJSON(in), err)
		}
		if !ok {
			t.Fatalf("%s declined %s", tool, textfmt.CompactJSON(in))
		}
		if want := oracle(tool, in, fuzzLimits); got != want {
			t.Fatalf("%s on %s:\n catalog %q\n oracle  %q", tool, textfmt.CompactJSON(in), got, want)
		}
	})
}

// BenchmarkStock runs each reference formatter on the same input three
// ways: translated to Go (the generated package), interpreted (the same
// catalog loaded at run time) and the hand-written Go oracle.
func BenchmarkStock(b *testing.B) {
	inputs := map[string]string{
		"read":  `{"path":"/home/dev/src/orders-api/internal/billing/invoice.go","offset":118,"limit":40}`,
		"write": `{"path":"/out.ts","content":"package main\n\nfunc main() {}\n"}`,
		"edit":  `{"path":"/src/app.go","edits":[{"oldText":"a\nb","newText":"c"},{"oldText":"d","newText":"e"}]}`,
		"find":  `{"pattern":"*_test.go","path":"/home/dev/src"}`,
		"grep":  `{"pattern":"func \\(s \\*InvoiceService\\) DueDate","glob":"**/*.go","path":"/home/dev/src"}`,
		"ls":    `{"path":"/home/dev/src"}`,
		"mcp":   `{"tool":"exa:search","arguments":{"query":"golang time.AddDate","numResults":5}}`,
	}
	interpreted := loadedStock(b)
	for _, tool := range toolOrder {
		v, err := value.DecodeJSON([]byte(inputs[tool]))
		if err != nil {
			b.Fatal(err)
		}
		in := v.(*value.Object)
		b.Run(tool+"/native", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				stock[tool](in, tool, fuzzLimits)
			}
		})
		b.Run(tool+"/interpreted", func(b *testing.B) {
			f := interpreted[tool]
			b.ReportAllocs()
			for b.Loop() {
				f.Run(in, tool, fuzzLimits)
			}
		})
		b.Run(tool+"/oracle", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				oracle(tool, in, fuzzLimits)
			}
		})
	}
}

// BenchmarkCatalog runs every stock formatter that has a preview on its
// first example, translated to Go and interpreted.
func BenchmarkCatalog(b *testing.B) {
	interpreted := loadedStock(b)
	native := map[string]runtime.Formatter{}
	for _, e := range generated.Entries() {
		native[e.Key] = e.Formatter
	}
	checked := loadedChecked(b)
	for _, f := range checked.Formatters {
		tool := f.Entry.Tool
		if len(f.Entry.Examples) == 0 || !f.Entry.HasPreview() {
			continue
		}
		req := exampleRequest(b, f)
		b.Run(tool+"/native", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				native[tool].Format(req)
			}
		})
		b.Run(tool+"/interpreted", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				interpreted[tool].Format(req)
			}
		})
	}
}

func loadedChecked(b testing.TB) *celfmt.Checked {
	b.Helper()
	src, err := os.ReadFile(filepath.Join("..", "formatters.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	checked, err := celfmt.LoadFiles("formatters.yaml", src, celfmt.DirFiles(".."), celfmt.Options{SkipExamples: true})
	if err != nil {
		b.Fatal(err)
	}
	return checked
}

// loadedStock returns the stock formatters loaded at run time, by tool.
func loadedStock(b testing.TB) map[string]*celfmt.Formatter {
	byTool := map[string]*celfmt.Formatter{}
	for _, f := range loadedChecked(b).Formatters {
		byTool[f.Entry.Tool] = f
	}
	return byTool
}

// exampleRequest is the call of a formatter's first example.
func exampleRequest(b testing.TB, f *celfmt.Formatter) runtime.Request {
	ex := f.Entry.Examples[0]
	in, _ := ex.Input.(*value.Object)
	tool := f.Entry.Tool
	if ex.Tool != "" {
		tool = ex.Tool
	}
	limits, err := ex.Limits.WithDefaults()
	if err != nil {
		b.Fatal(err)
	}
	return runtime.Request{Tool: tool, Input: in, Limits: limits}
}
