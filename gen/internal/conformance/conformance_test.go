package conformance

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/value"
)

var update = flag.Bool("update", false, "rewrite the conformance table in docs/conformance.md")

// TestConformance runs every translated conformance test and compares its
// result with the expected one: a value of the same CEL type that is
// equal, or an error.
func TestConformance(t *testing.T) {
	skips := skippedPerFile()
	for _, f := range testFiles {
		t.Run(f.name, func(t *testing.T) {
			passed := 0
			for _, c := range f.cases {
				if t.Run(c.name, func(t *testing.T) {
					if msg := run(c); msg != "" {
						t.Error(msg)
					}
				}) {
					passed++
				}
			}
			t.Logf("%s: %d passed, %d failed, %d skipped", f.name, passed, len(f.cases)-passed, len(skips[f.name]))
		})
	}
}

// run evaluates a case and returns what is wrong with its result, or "".
func run(c testCase) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("%s\npanicked: %v", c.expr, r)
		}
	}()
	got, err := c.eval()
	switch {
	case c.wantErr && err == nil:
		return fmt.Sprintf("%s\ngot  %s\nwant an error", c.expr, show(got))
	case c.wantErr:
		return ""
	case err != nil:
		return fmt.Sprintf("%s\ngot  error %v\nwant %s", c.expr, err, show(c.want))
	case !same(got, c.want):
		return fmt.Sprintf("%s\ngot  %s\nwant %s", c.expr, show(got), show(c.want))
	}
	return ""
}

// same reports whether two values are of the same CEL type and equal. It
// is stricter than CEL's ==, which finds 1 == 1.0 and [1] == [1.0], and
// lets NaN equal NaN.
func same(got, want any) bool {
	got, want = dynList(got), dynList(want)
	if celrt.TypeOf(got) != celrt.TypeOf(want) {
		return false
	}
	switch w := want.(type) {
	case []any:
		g := got.([]any)
		if len(g) != len(w) {
			return false
		}
		for i := range w {
			if !same(g[i], w[i]) {
				return false
			}
		}
		return true
	case *celrt.Map:
		g, ok := got.(*celrt.Map)
		if !ok || g.Len() != w.Len() {
			return false
		}
		for i := range w.Len() {
			wk, wv := w.At(i)
			found := false
			for j := range g.Len() {
				if gk, gv := g.At(j); same(gk, wk) {
					found = same(gv, wv)
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case float64:
		g := toFloat(got)
		return g == w || math.IsNaN(g) && math.IsNaN(w)
	}
	return celrt.Equal(got, want)
}

func toFloat(v any) float64 {
	if n, ok := v.(value.Number); ok {
		return n.Float64()
	}
	return v.(float64)
}

// dynList returns a typed list ([]string, []int64, …) as a []any, and any
// other value as it is.
func dynList(v any) any {
	if _, ok := v.([]any); ok || v == nil {
		return v
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice || rv.Type().Elem().Kind() == reflect.Uint8 {
		return v
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out
}

// show writes a value as CEL text with its type: int 1, double 1.0.
func show(v any) string {
	return celrt.TypeOf(dynList(v)).Name + " " + celText(v)
}

func celText(v any) string {
	v = dynList(v)
	switch v := v.(type) {
	case nil:
		return "null"
	case uint64:
		return strconv.FormatUint(v, 10) + "u"
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eIN") {
			s += ".0"
		}
		return s
	case string:
		return strconv.Quote(v)
	case []byte:
		return "b" + strconv.Quote(string(v))
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = celText(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *celrt.Map:
		parts := make([]string, v.Len())
		for i := range parts {
			k, e := v.At(i)
			parts[i] = celText(k) + ": " + celText(e)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// skippedPerFile returns the skipped tests of each file.
func skippedPerFile() map[string][]skippedTest {
	out := map[string][]skippedTest{}
	for _, s := range skipped {
		file, _, _ := strings.Cut(s.name, "/")
		out[file] = append(out[file], s)
	}
	return out
}

// TestSkipReasons checks that every skipped test has a reason and belongs
// to a translated file.
func TestSkipReasons(t *testing.T) {
	files := map[string]bool{}
	for _, f := range testFiles {
		files[f.name] = true
	}
	for _, s := range skipped {
		file, _, _ := strings.Cut(s.name, "/")
		if !files[file] || strings.TrimSpace(s.reason) == "" {
			t.Errorf("%s: skipped with reason %q", s.name, s.reason)
		}
	}
}

const (
	docPath    = "../../../docs/conformance.md"
	tableBegin = "<!-- conformance table: begin (go test ./gen/internal/conformance -run Table -update) -->"
	tableEnd   = "<!-- conformance table: end -->"
	topReasons = 3
	tableTitle = "| file | passed | skipped | top reasons for skipping |"
)

// TestTable checks that the conformance table of docs/conformance.md gives the counts
// of this run. -update rewrites it.
func TestTable(t *testing.T) {
	table := docTable()
	b, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(b, []byte(tableBegin))
	end := bytes.Index(b, []byte(tableEnd))
	if start < 0 || end < start {
		t.Fatalf("%s has no conformance table between %q and %q", docPath, tableBegin, tableEnd)
	}
	start += len(tableBegin)
	if string(b[start:end]) == table {
		return
	}
	if !*update {
		t.Fatalf("the conformance table in %s is stale: run go test ./gen/internal/conformance -run Table -update\nwant:%s", docPath, table)
	}
	out := append(append(append([]byte{}, b[:start]...), table...), b[end:]...)
	if err := os.WriteFile(docPath, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// docTable runs every case and writes the table of counts per file.
func docTable() string {
	skips := skippedPerFile()
	var sb strings.Builder
	sb.WriteString("\n" + tableTitle + "\n|---|--:|--:|---|\n")
	var passedAll, failedAll, skippedAll int
	for _, f := range testFiles {
		passed := 0
		for _, c := range f.cases {
			if run(c) == "" {
				passed++
			}
		}
		failed := len(f.cases) - passed
		passedAll, failedAll, skippedAll = passedAll+passed, failedAll+failed, skippedAll+len(skips[f.name])
		counts := strconv.Itoa(passed)
		if failed > 0 {
			counts += fmt.Sprintf(" (%d fail)", failed)
		}
		fmt.Fprintf(&sb, "| %s | %s | %d | %s |\n", f.name, counts, len(skips[f.name]), reasonSummary(skips[f.name]))
	}
	counts := strconv.Itoa(passedAll)
	if failedAll > 0 {
		counts += fmt.Sprintf(" (%d fail)", failedAll)
	}
	fmt.Fprintf(&sb, "| **all** | **%s** | **%d** | |\n", counts, skippedAll)
	return sb.String()
}

// reasonSummary names the commonest kinds of reason, with counts.
func reasonSummary(skips []skippedTest) string {
	count := map[string]int{}
	for _, s := range skips {
		count[reasonKind(s.reason)]++
	}
	kinds := make([]string, 0, len(count))
	for k := range count {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if count[kinds[i]] != count[kinds[j]] {
			return count[kinds[i]] > count[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	parts := []string{}
	for i, k := range kinds {
		if i == topReasons {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%d)", k, count[k]))
	}
	return strings.Join(parts, ", ")
}

// reasonKind is a reason's text before the first colon, and for what the
// translation does not cover, what that is: "translator: function format".
func reasonKind(reason string) string {
	kind, rest, _ := strings.Cut(reason, ": ")
	if kind == "translator" {
		rest, _, _ = strings.Cut(rest, " (")
		return kind + ": " + rest
	}
	return kind
}
