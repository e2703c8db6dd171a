package celfmt

import (
	"runtime"
	"strings"
	"testing"

	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bigInput is a JSON object with the given fields, built without decoding
// cost mattering to the test.
func bigInput(t testing.TB, fields map[string]any) *value.Object {
	t.Helper()
	var keys []string
	var values []any
	for _, k := range []string{"path", "template", "name", "tags", "sep", "s", "p", "content", "edits", "a"} {
		if v, ok := fields[k]; ok {
			keys, values = append(keys, k), append(values, v)
		}
	}
	return value.ObjectOf(keys, values)
}

// TestPaddingDoesNotHideThePath: bounds apply to what a formatter reads,
// not to the whole input. Padding the input with text or items a formatter
// does not read (or reads cheaply) must not make it fail.
func TestPaddingDoesNotHideThePath(t *testing.T) {
	write := formatter(t, `  - tool: write
    preview: '"for " + string(input.path) + " (" + plural(lines(string(input.content)), "line", "lines") + ")"'
`, Options{})
	content := strings.Repeat("x\n", 5<<20/2) // 5 MiB
	text, ok, err := write.Run(bigInput(t, map[string]any{"path": "/a", "content": content}), "write", defaultLimits)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "for /a (2621441 lines)", text)

	edit := formatter(t, `  - tool: edit
    preview: '"for " + string(input.path) + " (" + plural(input.edits.size(), "edit", "edits") + ")"'
`, Options{})
	edits := make([]any, 1001)
	for i := range edits {
		edits[i] = value.NewObject("oldText", "a", "newText", "b")
	}
	text, _, err = edit.Run(bigInput(t, map[string]any{"path": "/b", "edits": edits}), "edit", defaultLimits)
	require.NoError(t, err)
	assert.Equal(t, "for /b (1001 edits)", text)
}

// TestMemoryBudgetStopsBombs runs the allocations an attacker found: each
// must fail with the budget error, before the allocation. "Before" is
// measured in bytes, not seconds (a busy machine under -race stretched a
// bound in seconds): the evaluation allocates less than twice the budget,
// the most a result grown by doubling a buffer takes for what the budget
// charges (json's is). Without the budget, each would fail the ErrorIs
// check, and most the bound as well: the replace bomb builds 40 GB, the
// join 500 MB, the constant chain 350 MB, json over 100 MB, the doubling
// concatenation 30 MiB.
func TestMemoryBudgetStopsBombs(t *testing.T) {
	tags := make([]any, 1000)
	for i := range tags {
		tags[i] = strings.Repeat("t", 1000)
	}
	tests := []struct {
		name    string
		preview string
		input   map[string]any
		opts    Options
	}{
		{"replace bomb", `input.template.replace("{name}", input.name)`,
			map[string]any{"template": strings.Repeat("{name}", 100_000), "name": strings.Repeat("n", 400_000)}, Options{}},
		{"join bomb", `input.tags.join(input.sep)`,
			map[string]any{"tags": tags, "sep": strings.Repeat("s", 500_000)}, Options{}},
		{"split map", `string(input.s.split("").map(c, input.s.split("")).size())`,
			map[string]any{"s": strings.Repeat("x", 30_000)}, Options{CostBudget: 1 << 62, CostLimit: 1 << 40}},
		// Rejected at check time (see testdata/catalogs/bad): lift the
		// check to see the run time stop it too.
		{"constant replace chain", `"a"` + strings.Repeat(`.replace("a", "aaaa")`, 14),
			nil, Options{CostBudget: 1 << 62, CostLimit: 1 << 40, MemoryBudget: 1 << 62}},
		{"doubling concatenation", `cel.bind(a, string(input.s) + string(input.s), cel.bind(b, a + a, cel.bind(c, b + b, c + c)))`,
			map[string]any{"s": strings.Repeat("x", 1<<20)}, Options{CostLimit: 1 << 40}},
		{"doubling list", `string((cel.bind(a, input.tags + input.tags, cel.bind(b, a + a, cel.bind(c, b + b, cel.bind(d, c + c, cel.bind(e, d + d, e + e))))).size()))`,
			map[string]any{"tags": tags}, Options{MemoryBudget: 1 << 20}},
		{"format precision", `"%.999999999f".format([1.0])`, nil, Options{CostBudget: 1 << 62}},
		{"json of a long text", `cel.bind(j, json(input.s), j + j + j)`,
			map[string]any{"s": strings.Repeat("\x01", 2<<20)}, Options{}},
		{"lists range", `string(lists.range(100000000).size())`, nil, Options{CostBudget: 1 << 62, CostLimit: 1 << 40}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := formatter(t, "  - tool: t\n    preview: '"+strings.ReplaceAll(tc.preview, "'", "''")+"'\n", tc.opts)
			if tc.opts.MemoryBudget == 1<<62 {
				f.opts.MemoryBudget = DefaultMemoryBudget
			}
			in := bigInput(t, tc.input)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, _, err := f.Run(in, "t", defaultLimits)
			runtime.ReadMemStats(&after)
			allocated := after.TotalAlloc - before.TotalAlloc
			require.ErrorIs(t, err, ErrBudget)
			assert.Contains(t, err.Error(), "memory budget exceeded: ")
			assert.Less(t, allocated, 2*uint64(f.opts.MemoryBudget), "bytes allocated before the budget stopped it")
			t.Logf("%v after %d bytes", err, allocated)
		})
	}
}

// TestBudgetErrorIsNotAbsorbed: CEL absorbs errors in && and ||; the
// budget still fails the evaluation.
func TestBudgetErrorIsNotAbsorbed(t *testing.T) {
	f := formatter(t, `  - tool: t
    preview: '(input.s.replace("x", input.s) == "" || true) ? "absorbed" : "no"'
`, Options{})
	_, _, err := f.Run(bigInput(t, map[string]any{"s": strings.Repeat("x", 10_000)}), "t", defaultLimits)
	require.ErrorIs(t, err, ErrBudget)
}

// TestBudgetedFunctionsStillWork evaluates each budgeted function on
// ordinary values: the decorator calls the same implementations.
func TestBudgetedFunctionsStillWork(t *testing.T) {
	f := formatter(t, `  - tool: t
    preview: |
      [
        "a-b".replace("-", "+"), "a-b-c".replace("-", "+", 1), "a,b".split(",").join(";"),
        "x".split("", 1).join(), "%s=%d".format(["k", 3]), strings.quote("q"), "Ab".lowerAscii(),
        "Ab".upperAscii(), "abc".reverse(), "abc".substring(1), "abc".charAt(1),
        string("abc".indexOf("c")), string("abca".lastIndexOf("a")), string(bytes("b")),
        json(lists.range(3)), json([[1], [2]].flatten()), json([1, 2, 3].slice(1, 2)),
        json([2, 1].sort()), json([1, 1].distinct()), json([1, 2].reverse()),
        json([1] + [2]), truncate("abcdef", 3), inline(" a  b ", 9), collapse(" c  d "),
        plural(2, "x", "xs"), mcpValue("m"), promptPath({"path": "/p"}).orValue(""), numberText(2.5),
        json({"k": [1, "v"]}), string(input.n + 1.0), input.x + "!", json([3, 1].sortBy(v, v)),
        redact("?token=abc"), redact("api_key", "k")
      ].join("|")
`, Options{})
	text, _, err := f.Run(value.NewObject("n", 1.0, "x", "dyn"), "t", defaultLimits)
	require.NoError(t, err)
	assert.Equal(t, `a+b|a+b-c|a;b|x|k=3|"q"|ab|AB|cba|bc|b|2|3|b|[0,1,2]|[1,2]|[2]|[1,2]|[1]|[2,1]|[1,2]|abc…|a b|c d|2 xs|"m"|/p|2.5|{"k":[1,"v"]}|2|dyn!|[1,3]|?token=‹secret, 3 characters›|‹secret, 1 character›`, text)
}
