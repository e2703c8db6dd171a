package celfmt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

// selfWrapper is a plugin wrapper whose unwrap carries itself: every call
// it carries is another call of it, with the same input, so that each
// evaluation, bounded on its own, runs on every one of the hundreds of
// calls one description reads.
const selfWrapper = `version: 1
formatters:
  - tool: plugin
    preview: 'input.data.indexOf("b") >= 0 ? "found" : "ran"'
    unwrap: 'input.?calls.orValue([]).map(c, {"tool": "plugin", "input": CARRIED})'
    tier: 'input.data.lastIndexOf("b") >= 0 ? "execute" : "read"'
`

// selfWrapperInput is its input: n carried calls and data bytes of text.
func selfWrapperInput(n, data int) string { return paddedInput(n, data, 0) }

// paddedInput is selfWrapperInput with a list of pad numbers, which no
// formatter reads.
func paddedInput(n, data, pad int) string {
	list := func(n int) string { return strings.TrimSuffix(strings.Repeat("0,", n), ",") }
	return `{"calls":[` + list(n) + `],"data":"` + strings.Repeat("a", data) + `","pad":[` + list(pad) + `]}`
}

// spending records the budget of the calls it sees, as a host's own
// formatter could.
type spending struct {
	*Formatter
	budgets map[*runtime.Budget]bool
	runs    int
}

func (s *spending) Format(req runtime.Request) (string, bool, error) {
	s.see(req)
	return s.Formatter.Format(req)
}

func (s *spending) Unwrap(req runtime.Request) ([]runtime.InnerCall, error) {
	s.see(req)
	return s.Formatter.Unwrap(req)
}

func (s *spending) Tier(req runtime.Request) (runtime.Tier, error) {
	s.see(req)
	return s.Formatter.Tier(req)
}

func (s *spending) see(req runtime.Request) {
	s.runs++
	if req.Budget != nil {
		s.budgets[req.Budget] = true
	}
}

// selfWrapperDispatcher returns a dispatcher of the plugin wrapper, whose
// carried calls have the input carried (a CEL expression).
func selfWrapperDispatcher(t testing.TB, carried string) (*runtime.Dispatcher, *spending) {
	t.Helper()
	checked, err := Load("plugin.yaml", []byte(strings.ReplaceAll(selfWrapper, "CARRIED", carried)), Options{})
	require.NoError(t, err)
	f := &spending{Formatter: checked.Formatters[0], budgets: map[*runtime.Budget]bool{}}
	reg := runtime.NewRegistry()
	_, err = reg.Register("plugin", "plugin.yaml", f)
	require.NoError(t, err)
	d, err := runtime.NewDispatcher(reg, runtime.Options{})
	require.NoError(t, err)
	return d, f
}

// TestCarriedCallsShareOneBudget: the calls a wrapper carries, however
// many and however costly each, spend one budget together; once it is
// spent the rest are counted as not read, and the wrapper's tier is
// unknown. Without the shared budget the 4 MB input below spends the
// cost limit of one evaluation on each of some 320 calls, millions of
// units and seconds of time; and the calls of the second case, cheap to
// evaluate, carry two hundred thousand values each to convert.
func TestCarriedCallsShareOneBudget(t *testing.T) {
	tests := []struct {
		name  string
		input string
		runs  int // formatter runs at most
	}{
		{"costly evaluations", selfWrapperInput(400, 4<<20), 24},
		{"costly conversions", paddedInput(40, 10, 5000), 3 * (1 + int(runtime.DefaultDescriptionCost/(40*5000/valuesPerUnit)))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, f := selfWrapperDispatcher(t, "input")
			desc := d.Describe(runtime.Call{Tool: "plugin", Input: tc.input})
			require.Len(t, f.budgets, 1, "one budget for all the calls carried")
			var b *runtime.Budget
			for b = range f.budgets {
			}
			assert.True(t, b.Exhausted(), "the input is costly enough to spend it")
			// An evaluation is charged after it ran, within what was left,
			// so the calls carried together spend the budget and no more.
			assert.Equal(t, uint64(runtime.DefaultDescriptionCost), b.Spent())
			assert.LessOrEqual(t, f.runs, tc.runs,
				"formatter runs: a few spend the budget, and the calls after them are not read")
			assert.Equal(t, runtime.TierUnknown, desc.Tier)
			assert.Contains(t, desc.Preview.Text, " more, not read", desc.Preview.Text)
		})
	}
}

// TestCarriedCallsWithinBudgetAreRead: calls that cost little are all read
// within the shared budget: their tiers are known, and the calls not shown
// are counted with what they may do.
func TestCarriedCallsWithinBudgetAreRead(t *testing.T) {
	d, f := selfWrapperDispatcher(t, `{"data": input.data}`)
	desc := d.Describe(runtime.Call{Tool: "plugin", Input: selfWrapperInput(20, 10)})
	require.Len(t, f.budgets, 1)
	for b := range f.budgets {
		assert.False(t, b.Exhausted())
		assert.NotZero(t, b.Spent(), "the evaluations of the calls carried are charged")
	}
	assert.Equal(t, runtime.TierRead, desc.Tier)
	assert.NotContains(t, desc.Preview.Text, "not read", desc.Preview.Text)
	assert.Contains(t, desc.Preview.Text, "more, none above read", desc.Preview.Text)
}

// BenchmarkSelfWrapper describes a call of a wrapper that carries itself
// hundreds of times on an input of 4 MB: the calls it carries share one
// budget, so the description takes about as long as a couple of costly
// evaluations, whatever the number of calls.
// The input is decoded once, as a host that holds it decoded passes it:
// what is measured is the description, up to the line limit of permgen
// preview (64 MiB).
func BenchmarkSelfWrapper(b *testing.B) {
	for _, size := range []int{4 << 20, 60 << 20} {
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			d, _ := selfWrapperDispatcher(b, "input")
			in := value.DecodeInput([]byte(selfWrapperInput(400, size)))
			require.NoError(b, in.Err)
			call := runtime.Call{Tool: "plugin", Input: in.Object()}
			b.ReportAllocs()
			for b.Loop() {
				d.Describe(call)
			}
		})
	}
}
