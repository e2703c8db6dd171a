package celfmt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types/ref"
	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/require"
)

// costOf is what one metered evaluation of a formatter's preview spends on
// input, with the cost limit and the memory budget lifted.
func costOf(t *testing.T, f *Formatter, input *value.Object) uint64 {
	t.Helper()
	b := newBudget(1<<40, 1<<62)
	err := f.format(&f.preview, input, nil, f.Entry.Tool, defaultLimits, b, func(ref.Val) error { return nil })
	require.NoError(t, err)
	return b.cost
}

// TestEstimateOfALiteralRange: a comprehension over a list literal reads
// elements as long as the literal's, not strings of any length. The
// estimate of a formatter that looks for three vowels in each word stays
// an upper bound of its cost on the longest words the input holds, within
// a hundred times it, where it was rejected at 503 times the budget.
func TestEstimateOfALiteralRange(t *testing.T) {
	opts := Options{}.withDefaults()
	f := formatter(t, `  - tool: words
    input:
      words: list(string)
    preview: 'input.words.map(w, w + ":" + ["a", "e", "o"].filter(v, w.indexOf(v) >= 0).join("")).join(" ")'
    examples:
      - input: {words: ["hello", "cat"]}
        preview: "hello:eo cat:a"
`, opts)
	words := make([]any, opts.MaxInputBytes/opts.StringEstimate)
	for i := range words {
		words[i] = strings.Repeat("x", opts.StringEstimate-1) + "o" // found last
	}
	worst := costOf(t, f, value.NewObject("words", words))
	require.GreaterOrEqual(t, f.preview.estimate, worst, "an upper bound")
	require.Less(t, f.preview.estimate, 100*worst, "within a hundred times the worst case")
}

// TestEstimateOfAShadowedLiteralVariable: a nested comprehension that
// binds the name of a variable ranging over a literal hides it; its own
// variable reads the input's strings, at their size.
func TestEstimateOfAShadowedLiteralVariable(t *testing.T) {
	decl := "    input:\n      words: list(string)\n      s: string\n"
	lifted := Options{CostBudget: 1 << 50}
	inner := formatter(t, "  - tool: t\n"+decl+
		`    preview: 'string(input.words.exists(v, v.indexOf(input.s) >= 0))'`+"\n", lifted)
	shadowed := formatter(t, "  - tool: t\n"+decl+
		`    preview: 'string(["a"].exists(v, input.words.exists(v, v.indexOf(input.s) >= 0)))'`+"\n", lifted)
	require.GreaterOrEqual(t, shadowed.preview.estimate, inner.preview.estimate)
}

// TestReplaceByTheInput: a replace whose replacement comes from the call
// checks (what it may grow to is the input's doing), and the memory budget
// stops it, before it allocates, on input that would make it grow past the
// budget; a growth of the catalog's own making is still rejected.
func TestReplaceByTheInput(t *testing.T) {
	f := formatter(t, `  - tool: t
    input:
      s: string
      old: string
      new: string
    preview: 'input.s.replace(input.old, input.new)'
    examples:
      - input: {s: "abc", old: "b", new: "x"}
        preview: "axc"
`, Options{})
	_, _, err := f.Run(value.NewObject("s", strings.Repeat("a", 4096), "old", "a", "new", strings.Repeat("b", 4096)), "t", defaultLimits)
	require.ErrorIs(t, err, ErrBudget)

	grows := "input.s" + strings.Repeat(`.replace("a", "aaaa")`, 14)
	_, err = Load("test.yaml", []byte("version: 1\nformatters:\n  - tool: t\n    input:\n      s: string\n    preview: '"+grows+"'\n"), Options{})
	require.ErrorContains(t, err, "replace may build a result of")
}

// TestEstimateOfALimitedSplit: split(sep, n) makes at most n parts, so a
// comprehension over them costs n steps, not one per character of the
// text.
func TestEstimateOfALimitedSplit(t *testing.T) {
	opts := Options{}.withDefaults()
	f := formatter(t, `  - tool: t
    input:
      s: string
    preview: 'input.s.split(",", 2).map(p, p.upperAscii()).join(",")'
`, opts)
	worst := costOf(t, f, value.NewObject("s", strings.Repeat("a,", opts.StringEstimate/2)))
	require.GreaterOrEqual(t, f.preview.estimate, worst, "an upper bound")
	require.Less(t, f.preview.estimate, 100*worst, "within a hundred times the worst case")
}

// TestEstimateOfTextFunctionsOnDyn: a string function on a dyn value reads
// a string as long as any (StringEstimate), not the MaxItems elements of a
// list: the estimate of nonEmpty on a dyn field is an upper bound of its
// metered cost on the longest string.
func TestEstimateOfTextFunctionsOnDyn(t *testing.T) {
	opts := Options{}.withDefaults()
	f := formatter(t, "  - tool: t\n    input:\n      command: dyn\n"+
		`    preview: 'nonEmpty(input.command).orValue("") + inline(input.command, 80)'`+"\n", Options{})
	worst := costOf(t, f, value.NewObject("command", strings.Repeat("x", opts.StringEstimate)))
	require.GreaterOrEqual(t, nodeUnits*f.preview.estimate, worst, "an upper bound")
}

// TestEstimateAmortizesTheInputsElements: a comprehension over a part of
// the input whose steps are linear in their element is estimated with
// elements of the input's average size (its MaxInputBytes over MaxItems of
// them), and that stays an upper bound both when all are of that size and
// when fewer are as long as a string may be.
func TestEstimateAmortizesTheInputsElements(t *testing.T) {
	opts := Options{}.withDefaults()
	f := formatter(t, "  - tool: t\n    input:\n      env: dyn\n"+
		`    preview: 'input.env.map(k, k.trim() + "=" + string(input.env[k]).trim()).join(",")'`+"\n", Options{})
	env := func(n, size int) *value.Object {
		keys, vals := make([]string, n), make([]any, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("%0*d", size/2, i)
			vals[i] = strings.Repeat(" v", size/4)
		}
		return value.NewObject("env", value.ObjectOf(keys, vals))
	}
	for _, in := range []*value.Object{
		env(opts.MaxItems, opts.MaxInputBytes/opts.MaxItems),
		env(opts.MaxInputBytes/opts.StringEstimate, opts.StringEstimate),
	} {
		require.GreaterOrEqual(t, nodeUnits*f.preview.estimate, costOf(t, f, in), "an upper bound")
	}
	// Over a let, which the estimate does not see as the input, each
	// element is as long as a string may be.
	whole := formatter(t, "  - tool: t\n    input:\n      env: dyn\n    let:\n      e: input.env\n"+
		`    preview: 'e.map(k, k.trim() + "=" + string(e[k]).trim()).join(",")'`+"\n", Options{})
	require.Less(t, 2*f.preview.estimate, whole.preview.estimate, "the elements share the input")
}

// TestEstimateKeepsAProductOfAnElementWhole: a step whose cost is a
// product of two sizes of its element (x.indexOf(x)) is not linear in it,
// and its reads keep their full size: the estimate is that of MaxItems
// elements of StringEstimate characters.
func TestEstimateKeepsAProductOfAnElementWhole(t *testing.T) {
	opts := Options{}.withDefaults()
	lifted := Options{CostBudget: 1 << 50}
	product := formatter(t, "  - tool: t\n    input:\n      list: dyn\n"+
		`    preview: 'string(input.list.map(x, x.indexOf(x)).size())'`+"\n", lifted)
	full := uint64(opts.MaxItems) * uint64(opts.StringEstimate) * uint64(opts.StringEstimate) / traversal
	require.GreaterOrEqual(t, product.preview.estimate, full)
	nested := formatter(t, "  - tool: t\n    input:\n      list: dyn\n"+
		`    preview: 'string(input.list.map(x, x.split(",").map(p, p.trim())).size())'`+"\n", lifted)
	require.GreaterOrEqual(t, nested.preview.estimate, uint64(opts.MaxItems)*uint64(opts.StringEstimate)*2/traversal)
}
