package celfmt

import (
	"errors"
	"fmt"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"

	"github.com/google/cel-go/common/types/ref"
	"github.com/permgen/permgen/runtime/value"
)

// maxEvalAlloc is what an evaluation of a checked catalog may allocate, on
// input within the bounds the estimate assumes. Its time is bounded by
// cost: the cost limit stops it at Options.CostLimit units, and a unit
// takes about a hundred nanoseconds at most (BenchmarkCostUnit measures
// it; a test never bounds seconds, which a busy machine stretches).
const maxEvalAlloc = 64 << 20

// adversarialInputs are inputs within the bounds (about MaxInputBytes of
// text, lists of MaxItems), each shaped to make some construct expensive.
var adversarialInputs = sync.OnceValue(func() []*value.Object {
	const mib = DefaultMaxInputBytes
	words := func(n, size int, c string) []any {
		l := make([]any, n)
		for i := range l {
			l[i] = strings.Repeat(c, size)
		}
		return l
	}
	deep := any("x")
	for range value.MaxDepth - 10 {
		deep = []any{deep}
	}
	return []*value.Object{
		value.NewObject("s", strings.Repeat("a", mib/2), "t", strings.Repeat("{name}", mib/24), "l", words(200, 1000, "w"), "n", 1e21),
		value.NewObject("s", "", "t", "{name}", "l", words(DefaultMaxItems, 1000, "a"), "n", 3.0),
		value.NewObject("s", strings.Repeat("ab", mib/2), "t", "", "l", words(DefaultMaxItems, 1, ""), "n", -1.0),
		value.NewObject("s", strings.Repeat("{name}", mib/12), "t", strings.Repeat("n", mib/2), "l", words(DefaultMaxItems, 400, "{"), "n", 0.0),
		value.NewObject("s", strings.Repeat("\x01 ", mib/2), "t", strings.Repeat("é", mib/4), "l", []any{deep}, "n", 1.5),
	}
})

// exprGen builds an expression from a small grammar of expensive
// constructs, choosing each production with the next byte of a program.
type exprGen struct {
	prog []byte
	vars int
}

func (g *exprGen) pick(n int) int {
	if len(g.prog) == 0 {
		return 0
	}
	b := g.prog[0]
	g.prog = g.prog[1:]
	return int(b) % n
}

func (g *exprGen) str(depth int, local string) string {
	leaves := []string{`string(input.s)`, `string(input.t)`, `"a"`, `"{name}"`, `"aaaa"`}
	if local != "" {
		leaves = append(leaves, local)
	}
	if depth <= 0 {
		return leaves[g.pick(len(leaves))]
	}
	d := depth - 1
	switch g.pick(18) {
	case 0:
		return leaves[g.pick(len(leaves))]
	case 1:
		return "(" + g.str(d, local) + " + " + g.str(d, local) + ")"
	case 2:
		return g.str(d, local) + ".replace(" + g.str(d, local) + ", " + g.str(d, local) + ")"
	case 3:
		return g.list(d, local) + ".join(" + g.str(d, local) + ")"
	case 4:
		return "json(" + g.list(d, local) + ")"
	case 5:
		return "truncate(" + g.str(d, local) + ", " + g.int(d, local) + ")"
	case 6:
		return "collapse(" + g.str(d, local) + ")"
	case 7:
		return g.str(d, local) + ".lowerAscii()"
	case 8:
		return "string(" + g.int(d, local) + ")"
	case 9:
		return g.str(d, local) + ".reverse()"
	case 10:
		return `"%s-%s".format([` + g.str(d, local) + ", " + g.str(d, local) + "])"
	case 11:
		return "string(" + g.str(d, local) + `.matches("^(a|ab|b)*c$"))`
	case 12:
		return "string(" + g.str(d, local) + ".indexOf(" + g.str(d, local) + "))"
	case 13:
		return "inline(" + g.str(d, local) + ", 80)"
	case 14:
		g.vars++
		v := fmt.Sprintf("v%d", g.vars)
		return "cel.bind(" + v + ", " + g.str(d, local) + ", " + v + " + " + v + ")"
	case 15:
		return "json(input)"
	case 16:
		return g.str(d, local) + ".substring(" + g.int(d, local) + " % (size(" + g.str(d, local) + ") + 1))"
	default:
		return "mcpValue(" + g.list(d, local) + ")"
	}
}

func (g *exprGen) list(depth int, local string) string {
	if depth <= 0 {
		return []string{`input.l`, `["a", "b"]`}[g.pick(2)]
	}
	d := depth - 1
	g.vars++
	x := fmt.Sprintf("x%d", g.vars)
	switch g.pick(9) {
	case 0:
		return "input.l"
	case 1:
		return g.str(d, local) + ".split(" + g.str(d, local) + ")"
	case 2:
		return "(" + g.list(d, local) + " + " + g.list(d, local) + ")"
	case 3:
		return g.list(d, local) + ".map(" + x + ", " + g.str(d, "string("+x+")") + ")"
	case 4:
		return g.list(d, local) + ".filter(" + x + ", size(string(" + x + ")) > " + g.int(d, local) + ")"
	case 5:
		return "[" + g.str(d, local) + ", " + g.str(d, local) + "]"
	case 6:
		return "lists.range(" + g.int(d, local) + " % 100000).map(" + x + ", " + g.str(d, local) + ")"
	case 7:
		return g.list(d, local) + ".map(" + x + ", " + g.list(d, "string("+x+")") + ".join(\",\"))"
	default:
		return g.list(d, local) + ".distinct()"
	}
}

func (g *exprGen) int(depth int, local string) string {
	if depth <= 0 {
		return []string{"10", "1000"}[g.pick(2)]
	}
	d := depth - 1
	switch g.pick(5) {
	case 0:
		return "size(" + g.str(d, local) + ")"
	case 1:
		return g.list(d, local) + ".size()"
	case 2:
		return "lines(" + g.str(d, local) + ")"
	case 3:
		return "int(input.n)"
	default:
		return "1000"
	}
}

// allocatedBytes is how many bytes the process has allocated so far.
func allocatedBytes() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// assertBounded checks a catalog and, when it passes, runs it on every
// adversarial input: each evaluation must stay within the cost limit and
// allocate less than maxEvalAlloc. It checks the catalog twice: with the
// default options, and with the static cost budget lifted, as the run-time
// bounds must hold whatever the estimate lets through.
func assertBounded(t *testing.T, expr string) {
	t.Helper()
	options := []Options{{}, {CostBudget: 1 << 62}}
	if raceEnabled {
		// The seeds' evaluations took most of the package's time under
		// the race detector, for nothing it can find (one goroutine runs
		// them): there only the lifted budget, which lets the most
		// through, is checked; the normal run and the fuzzing check both.
		options = options[1:]
	}
	for _, opts := range options {
		assertBoundedWith(t, expr, opts)
	}
}

// assertBoundedWith runs the check of assertBounded with opts. Every
// adversarial input is larger than the estimate assumes, so Run meters it:
// the evaluation here is the one Run makes, with a budget of the
// formatter's limits that the test holds, to read the units it spent.
// Were the cost limit not enforced, the nested comprehensions of the seeds
// would spend billions of units and fail the cost check; were the memory
// budget not, the replace and join seeds would allocate gigabytes and fail
// the allocation check.
func assertBoundedWith(t *testing.T, expr string, opts Options) {
	t.Helper()
	src := "version: 1\nformatters:\n  - tool: t\n    preview: '" + strings.ReplaceAll(expr, "'", "''") + "'\n"
	checked, err := Load("adversarial.yaml", []byte(src), opts)
	if err != nil || len(checked.Formatters) == 0 {
		return
	}
	f := checked.Formatters[0]
	for i, in := range adversarialInputs() {
		if inputFits(in, f.opts) {
			t.Fatalf("input %d is within the estimate's bounds: Run would not meter it", i)
		}
		b := newBudget(f.opts.MemoryBudget, f.opts.CostLimit)
		before := allocatedBytes()
		err := f.format(&f.preview, in, nil, "t", defaultLimits, b, func(out ref.Val) error {
			_, _, err := result(out)
			return err
		})
		allocated := allocatedBytes() - before
		if allocated >= maxEvalAlloc {
			t.Errorf("input %d: %s allocated %d MiB (%v)", i, expr, allocated>>20, err)
		}
		if b.cost > f.opts.CostLimit {
			t.Errorf("input %d: %s spent %d units, more than the limit of %d (%v)", i, expr, b.cost, f.opts.CostLimit, err)
		}
		if b.err != nil && !errors.Is(err, b.err) {
			t.Errorf("input %d: %s went over a bound (%v) but failed with %v", i, expr, b.err, err)
		}
	}
}

// FuzzAdversarialCatalog builds catalogs of expensive constructs: an
// expression as written (seeded with what attackers tried) and one built
// from a grammar by prog. Whatever passes the check must evaluate within
// the cost limit and maxEvalAlloc on every adversarial input.
func FuzzAdversarialCatalog(f *testing.F) {
	seeds := []string{
		`string(input.t).replace("{name}", string(input.s))`,
		`string(input.s).replace("{name}", string(input.t))`,
		`input.l.join(string(input.s))`,
		`string(string(input.s).split("").map(c, string(input.s).split("")).size())`,
		`string(string(input.s).matches("^(a|ab|b)*c$"))`,
		`"a"` + strings.Repeat(`.replace("a", "aaaa")`, 14),
		`string(input.l.map(x, input.l.map(y, input.l.map(z, string(x) + string(y) + string(z)))).size())`,
		`json(input)`,
		`json(input.l.map(x, json(input)))`,
		`input.l.map(x, string(x) + string(input.s)).join("")`,
		`string(input.l.map(x, size(string(input.s))).size())`,
		`string((input.l + input.l + input.l + input.l).size())`,
		`cel.bind(a, input.l + input.l, cel.bind(b, a + a, cel.bind(c, b + b, (c + c).join(","))))`,
		`string(string(input.s).indexOf(string(input.t)))`,
		`string(input.l.map(x, string(input.s).lowerAscii()).size())`,
		`string(input.l.map(x, input.l.distinct().size()).size())`,
		`string(input.l.map(x, input == input).size())`,
		`string(input.l.map(x, x == input).size())`,
		`string(input.l.map(x, input in [x]).size())`,
		`string(input.l.filter(x, x in input.l).size())`,
		`string(input.l.map(x, {"a": x, "b": [x, x, x]}).size())`,
		`"%s".format([input]) + "%.999999f".format([1.0])`,
		`string(lists.range(1000).map(i, lists.range(1000).map(j, i + j)).size())`,
		`collapse(string(input.s) + string(input.t))`,
	}
	for _, s := range seeds {
		f.Add(s, []byte{})
	}
	for _, p := range [][]byte{
		{2, 0, 1, 3}, {3, 3, 1, 2, 0, 0}, {14, 14, 14, 14, 1, 0}, {1, 1, 1, 1, 1, 1, 0},
		{3, 3, 0, 7, 3, 2, 0, 1}, {4, 3, 3, 0}, {11, 1, 0, 1}, {16, 2, 0, 0, 0, 1, 0},
	} {
		f.Add("", p)
	}
	f.Fuzz(func(t *testing.T, expr string, prog []byte) {
		if expr != "" {
			assertBounded(t, expr)
		}
		if len(prog) > 0 {
			g := &exprGen{prog: prog}
			assertBounded(t, g.str(6, ""))
		}
	})
}
