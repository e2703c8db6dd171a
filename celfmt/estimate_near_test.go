package celfmt

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/cel-go/common/types/ref"
	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// estimateSlack is how far above the measured worst case an estimate may
// be before it counts as absurd: an estimate that far off rejects
// formatters that are cheap.
const estimateSlack = 100

// estimateBelowWorstCase are the expressions whose estimate is still below
// the cost of an evaluation the search finds. The causes: cel-go counts a
// literal as nothing and the meter as a node; the meter charges
// startsWith, endsWith and `in` for all the text of both sides, where
// cel-go counts what they compare; json of a part of the input is
// estimated at six times StringEstimate whatever the part holds; and the
// list functions of cel-go's extension, which the estimate leaves to
// cel-go. The list only shrinks: an expression that joins it is a
// regression of the estimate, and one that leaves it is taken off.
var estimateBelowWorstCase = map[string]bool{
	"formatters.yaml: mcp preview":              true,
	"formatters.yaml: mcp result":               true,
	"formatters.yaml: write_stdin tier":         true,
	"formatters.yaml: bash expand":              true,
	"formatters.yaml: peekaboo:browser tier":    true,
	"formatters.yaml: sleep row":                true,
	"formatters.yaml: mongodb:* preview":        true,
	"formatters.yaml: mongodb:* tier":           true,
	"formatters.yaml: desktop-commander:* tier": true,
	"formatters.yaml: notion:* preview":         true,
	"good/budget.yaml: repeat preview":          true,
	"good/budget.yaml: pieces preview":          true,
	"good/rows.yaml: read error":                true,
	"good/slotlets.yaml: scale tier":            true,
	"good/wrapped.yaml: schedule tier":          true,
}

// maxFarAboveWorstCase is how many expressions may have an estimate more
// than estimateSlack times the worst cost found, counted over the catalogs
// as they are (118 of 474). It only goes down; an entry added with
// expressions far above their cost raises it, and says so.
const maxFarAboveWorstCase = 118

// TestEstimateNearWorstCase measures the check's cost estimate of every
// expression of the stock catalog and the repository's catalogs against
// the cost of its most expensive evaluation found: each example's input
// grown to the bounds the estimate assumes (every string to
// Options.StringEstimate characters, of its own text or of the characters
// formatters split on; every list to as many elements as the input bound
// holds). The estimate counts cel-go's units, one per node, where the meter
// charges nodeUnits: it is compared in the meter's units. It holds the
// estimate to an upper bound, but for the expressions
// estimateBelowWorstCase lists, and to within estimateSlack of the worst
// case for all but maxFarAboveWorstCase of them.
func TestEstimateNearWorstCase(t *testing.T) {
	stock, err := loadFile("../formatters.yaml")
	require.NoError(t, err)
	catalogs := map[string]*Checked{"formatters.yaml": stock}
	files, err := filepath.Glob("../testdata/catalogs/good/*.yaml")
	require.NoError(t, err)
	for _, file := range files {
		if filepath.Base(file) == "random.yaml" {
			// go generate draws it anew whenever the estimate changes: its
			// formatters are the generator's differential tests, not
			// catalogs anyone keeps.
			continue
		}
		c, err := loadFile(file)
		require.NoError(t, err, file)
		catalogs["good/"+filepath.Base(file)] = c
	}
	opts := Options{}.withDefaults()
	searched := growths
	if raceEnabled {
		// The race detector makes the grown inputs slow, and finds nothing
		// in code that runs on one goroutine: the inputs as they are.
		searched = growths[:1]
	}
	var ratios []float64
	var far []string
	below := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(catalogs)) {
		for _, f := range catalogs[name].Formatters {
			for _, s := range f.slots() {
				est := s.c.estimate * nodeUnits
				for i, l := range f.lets {
					if s.c.reads(i) {
						est = sat(est, l.estimate*nodeUnits)
					}
				}
				worst, at := uint64(0), ""
				for i, ex := range f.Entry.Examples {
					if ex.mistyped {
						continue
					}
					for _, grow := range searched {
						in, _ := grown(ex.Input, grow, opts).(*value.Object)
						var result *value.Object
						if s.result {
							if ex.Output == nil {
								continue
							}
							result, _ = grown(ex.Output, grow, opts).(*value.Object)
							result = resultOf(s.slot, result)
						}
						tool := f.Entry.Tool
						if ex.Tool != "" {
							tool = ex.Tool
						}
						b := newBudget(1<<40, 1<<62)
						f.format(s.c, in, result, tool, withDefaults(ex.Limits), b, func(ref.Val) error { return nil })
						if b.cost > worst {
							worst, at = b.cost, fmt.Sprintf("example %d grown %s", i+1, grow.name)
						}
					}
				}
				if worst == 0 {
					continue // no example reaches it
				}
				where := fmt.Sprintf("%s: %s %s", name, f.Entry.Tool, s.name)
				if est < worst {
					below[where] = true
					if !estimateBelowWorstCase[where] && !raceEnabled {
						t.Errorf("%s: estimate %d below the cost %d of %s", where, est, worst, at)
					}
				}
				ratio := float64(est) / float64(worst)
				ratios = append(ratios, ratio)
				if ratio > estimateSlack {
					far = append(far, fmt.Sprintf("%s: %.0fx (%d, %s)", where, ratio, worst, at))
				}
			}
		}
	}
	require.NotEmpty(t, ratios)
	if raceEnabled {
		return // fewer inputs: fewer worst cases found
	}
	for where := range estimateBelowWorstCase {
		assert.True(t, below[where], "%s: the estimate is an upper bound now: take it off estimateBelowWorstCase", where)
	}
	assert.LessOrEqual(t, len(far), maxFarAboveWorstCase, "estimates more than %dx the worst cost found:\n%s",
		estimateSlack, strings.Join(far, "\n"))
	sort.Float64s(ratios)
	t.Logf("%d expressions; estimate over worst cost: median %.1fx; %d below, %d above %dx",
		len(ratios), ratios[len(ratios)/2], len(below), len(far), estimateSlack)
}

// exprSlot is one expression a formatter evaluates after its lets.
type exprSlot struct {
	name   string
	c      *compiled
	slot   renderSlot
	result bool // it sees the call's result
}

// slots are the formatter's expressions but its lets.
func (f *Formatter) slots() []exprSlot {
	var out []exprSlot
	for _, s := range []exprSlot{{name: "preview", c: &f.preview}, {name: "unwrap", c: &f.unwrap}, {name: "tier", c: &f.tierExpr}} {
		if s.c.ast != nil {
			out = append(out, s)
		}
	}
	for s := range renderSlots {
		if c := &f.render[s]; c.ast != nil {
			out = append(out, exprSlot{name: s.String(), c: c, slot: s, result: s.seesResult()})
		}
	}
	return out
}

func loadFile(file string) (*Checked, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return LoadFiles(filepath.Base(file), src, DirFiles(filepath.Dir(file)), Options{CostBudget: 1 << 50})
}

// growth is a way of growing an input to the bounds of the estimate.
type growth struct {
	name string
	long bool   // strings to StringEstimate characters
	text string // the text a long string repeats; its own when ""
	many bool   // lists to MaxItems elements
}

// separators is text of the characters formatters split, trim, quote and
// escape on.
const separators = "a b/c,d\ne\tf'g\"h=i:j;k.l-m_n|o&p$q\\r(s)t[u]{v}w<x>y*z?%@#!~`+\x01 \r\n  "

var growths = []growth{
	{name: "as is"},
	{name: "long", long: true},
	{name: "with separators", long: true, text: separators},
	{name: "many", many: true},
	{name: "many long", many: true, long: true},
	{name: "many with separators", many: true, long: true, text: separators},
}

// grown is v grown by g within room bytes of text.
func grown(v any, g growth, opts Options) any {
	return grow(v, g, opts, opts.MaxInputBytes*9/10)
}

func grow(v any, g growth, opts Options, room int) any {
	switch v := v.(type) {
	case string:
		n := len(v)
		if g.long {
			n = opts.StringEstimate
		}
		n = min(n, room)
		text := v
		if g.text != "" || text == "" {
			text = cmp.Or(g.text, separators)
		}
		s := strings.Repeat(text, n/len(text)+1)[:n]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		return s
	case []any:
		n := len(v)
		if g.many && n > 0 {
			n = opts.MaxItems
		}
		out := make([]any, n)
		for i := range out {
			out[i] = grow(v[i%len(v)], g, opts, room/max(n, 1))
		}
		return out
	case *value.Object:
		var keys []string
		var vals []any
		n := 0
		for range v.All() {
			n++
		}
		for k, e := range v.All() {
			keys = append(keys, k)
			vals = append(vals, grow(e, g, opts, room/n))
		}
		return value.ObjectOf(keys, vals)
	}
	return v
}
