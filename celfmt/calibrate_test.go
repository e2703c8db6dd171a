package celfmt

import (
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/permgen/permgen/runtime/value"
)

// calibrationInput is an input at the bounds the estimate assumes: a
// string of MaxInputBytes, lists and objects of MaxItems.
func calibrationInput() *value.Object {
	items := make([]any, DefaultMaxItems)
	words := make([]any, DefaultMaxItems)
	var objKeys []string
	var objValues []any
	nested := make([]any, DefaultMaxItems)
	for i := range items {
		items[i] = float64(i)
		words[i] = strings.Repeat("w", 1000)
		objKeys = append(objKeys, strings.Repeat("k", 6)+string(rune('a'+i%26))+strings.Repeat("z", i/26))
		objValues = append(objValues, float64(i))
		nested[i] = value.NewObject("a", []any{"x", "y", 1.0}, "b", strings.Repeat("v", 900))
	}
	return value.NewObject(
		"s", strings.Repeat("ab", DefaultMaxInputBytes/2),
		"ctl", strings.Repeat("\x01", DefaultMaxInputBytes/8),
		"sp", strings.Repeat(" ", DefaultMaxInputBytes),
		"a", items, "w", words, "o", value.ObjectOf(objKeys, objValues), "n1", nested, "n2", nested,
	)
}

// calibrationCases are the constructs whose time per unit of cost bounds
// how long an evaluation within the cost limit can take.
var calibrationCases = []struct{ name, expr string }{
	{"map", `string(input.a.map(x, x).size())`},
	{"filter equal", `string(input.a.filter(x, x == 3.0).size())`},
	{"concat in map", `string(input.w.map(x, x + x).size())`},
	{"object lookup", `string(input.o.map(k, input.o[k]).size())`},
	{"size of text", `string(input.a.map(x, size(input.s)).size())`},
	{"replace", `string(size(input.s.replace("a", "b")))`},
	{"split", `string(input.s.split("b").size())`},
	{"join", `string(size(input.w.join(",")))`},
	{"indexOf", `string(input.s.indexOf("abababababc"))`},
	{"lastIndexOf", `string(input.s.lastIndexOf("c"))`},
	{"substring", `string(size(input.s.substring(1)))`},
	{"charAt", `input.s.charAt(5)`},
	{"promptPath", `string(input.a.map(x, promptPath(input.o).orValue("")).size())`},
	{"nonEmpty", `nonEmpty(input.sp).orValue("")`},
	{"lowerAscii", `string(size(input.s.lowerAscii()))`},
	{"reverse", `string(size(input.s.reverse()))`},
	{"contains", `string(input.s.contains("abababababc"))`},
	{"matches simple", `string(input.s.matches("^[ab]+$"))`},
	{"matches nfa", `string(input.s.matches("(a|ab|b|ba)*(abc|bac|cab)"))`},
	{"json", `string(size(json(input.s)))`},
	{"json control", `string(size(json(input.ctl)))`},
	{"json nested", `string(size(json(input.n1)))`},
	{"fields nested", `fields(input.n1, 500)`},
	{"fields wide", `fields(input.o, 500)`},
	{"fields words", `fields(input.w, 500)`},
	{"fields SQL", `fields({"q": "DELETE FROM t; " + input.s}, 500)`},
	{"lines", `string(lines(input.s))`},
	{"collapse", `string(size(collapse(input.s)))`},
	{"truncate", `truncate(input.s, 100)`},
	{"inline", `inline(input.s, 100)`},
	{"deep equal", `string(input.a.map(x, input.n1 == input.n2).size())`},
	{"in list", `string(input.a.map(x, "zz" in input.w).size())`},
	{"mcpValue", `string(input.a.map(x, mcpValue(input.n1)).size())`},
	{"shortcut", `string(size(shortcut(input.s.replace("b", "+"))))`},
	{"shortcut names", `string(size(shortcut(input.s.replace("ab", "fn+"))))`},
	{"menuPath", `string(size(menuPath(input.s.replace("b", ">"))))`},
	{"baseName", `baseName(input.s)`},
	{"xdDevice", `xdDevice(input.s.replace("ab", "%61")).orValue("")`},
	{"resultValue", `string(input.a.map(x, resultValue(input.n1)).size())`},
	{"fileSize", `string(input.a.map(x, fileSize(x)).size())`},
	{"redact", `string(size(redact(input.s)))`},
	{"redact words", `string(size(redact(input.s.replace("b", " "))))`},
	{"redact quotes", `string(size(redact(input.s.replace("b", "\""))))`},
	{"redact params", `string(size(redact(input.s.replace("ab", "&sig=x"))))`},
	{"redact urls", `string(size(redact(input.s.replace("ab", "a://:b@"))))`},
	{"redact shapes", `string(size(redact(input.s.replace("ab", "sk-a"))))`},
	{"redact field", `string(size(redact("path", input.s.replace("b", " "))))`},
	{"startsWith", `string(input.s.startsWith(input.s))`},
	{"string equal", `string(input.s == input.s + "")`},
}

var calibrate = flag.Bool("calibrate", false, "run TestCostCalibration")

// TestCostCalibration reports, for each construct, the time one unit of
// cost takes. The slowest bounds the time of an evaluation: CostLimit
// units of it. It asserts nothing about time (machines differ); run it
// with -calibrate -v to see the table.
func TestCostCalibration(t *testing.T) {
	if !*calibrate {
		t.Skip("measures for a while: run with -calibrate")
	}
	in := calibrationInput()
	for _, c := range calibrationCases {
		f := formatter(t, "  - tool: t\n    preview: '"+strings.ReplaceAll(c.expr, "'", "''")+"'\n",
			Options{CostBudget: 1 << 62, CostLimit: 1 << 62, MemoryBudget: 1 << 40})
		vars := &activation{input: objectVal{o: in}, budget: newBudget(1<<40, 1<<62)}
		if _, _, err := f.preview.prg.prg.Eval(vars); err != nil { // warm up
			t.Fatalf("%s: %v", c.name, err)
		}
		vars.budget = newBudget(1<<40, 1<<62)
		start := time.Now()
		_, _, err := f.preview.prg.prg.Eval(vars)
		elapsed := time.Since(start)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		cost := vars.budget.cost
		t.Logf("%-16s %10d units %12v %8.1f ns/unit", c.name, cost, elapsed, float64(elapsed.Nanoseconds())/float64(cost))
	}
}

// BenchmarkCostUnit measures each calibration case with the default
// limits (the static budget lifted): ns/op is the longest an evaluation of
// the construct takes, ns/unit the time of one unit of cost.
func BenchmarkCostUnit(b *testing.B) {
	in := calibrationInput()
	opts := Options{CostBudget: 1 << 62}.withDefaults()
	for _, c := range calibrationCases {
		b.Run(strings.ReplaceAll(c.name, " ", "_"), func(b *testing.B) {
			f := formatter(b, "  - tool: t\n    preview: '"+strings.ReplaceAll(c.expr, "'", "''")+"'\n", opts)
			var cost uint64
			for b.Loop() {
				vars := &activation{input: objectVal{o: in}, budget: newBudget(opts.MemoryBudget, opts.CostLimit)}
				f.preview.prg.prg.Eval(vars)
				cost = vars.budget.cost
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(max(cost, 1)), "ns/unit")
		})
	}
}
