package runtime

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBudget(t *testing.T) {
	b := NewBudget(10)
	assert.True(t, b.Spend(4))
	assert.Equal(t, uint64(6), b.Left())
	assert.False(t, b.Spend(7), "more than is left")
	assert.Equal(t, uint64(10), b.Spent(), "what is left is spent")
	assert.True(t, b.Exhausted())

	var none *Budget
	assert.True(t, none.Spend(1<<60))
	assert.Equal(t, ^uint64(0), none.Left())
	assert.Zero(t, none.Spent())
	assert.False(t, none.Exhausted())
}

// costly is a read that spends cost units of its request's budget on each
// of its evaluations, and counts them.
func costly(cost uint64, runs *int) Formatter {
	spend := func(req Request) { *runs++; req.Budget.Spend(cost) }
	return wrapperFormatter{
		preview: FormatterFunc(func(req Request) (string, bool, error) {
			spend(req)
			return readFormatter.Format(req)
		}),
		tier: func(req Request) (Tier, error) { spend(req); return TierRead, nil },
	}
}

// TestCarriedCallsShareTheBudget: the calls a wrapper carries spend one
// budget; the calls left once it is spent are not read, the prompt says
// so, and the wrapper's tier is unknown, though every call read is a read.
func TestCarriedCallsShareTheBudget(t *testing.T) {
	runs := 0
	reg := NewRegistry()
	for key, f := range map[string]Formatter{"multi_tool_use.parallel": parallel, "read": costly(100, &runs)} {
		_, err := reg.Register(key, "test", f)
		require.NoError(t, err)
	}
	calls := make([]string, 0, 80)
	for i := range 40 {
		calls = append(calls, "read", fmt.Sprintf(`{"path":"/f%d"}`, i))
	}
	call := Call{Tool: "multi_tool_use.parallel", Input: parallelInput(calls...)}

	tests := []struct {
		name string
		cost uint64
		runs int
		more string
		tier Tier
	}{
		// 40 tiers read to rank them, then the 16 shown run their preview.
		{"all read", 10_000, 56, "… 24 more, none above read", TierRead},
		// 10 evaluations spend it, ranking the first ten calls: those are
		// shown, by the default preview, which runs no formatter; the
		// others are not read.
		{"spent while ranking", 1000, 10, `#10 tool 'read' with input {"path":"/f9"}; … 30 more, not read`, TierUnknown},
		// 40 tiers, then 10 previews: all the tiers were read, and the last
		// calls shown have the default preview.
		{"spent while showing", 5000, 50, "#16 tool 'read' with input …; … 24 more, none above read", TierRead},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := NewDispatcher(reg, Options{DescriptionCost: tc.cost})
			require.NoError(t, err)
			runs = 0
			desc := d.Describe(call)
			assert.Equal(t, tc.runs, runs, "evaluations within the budget")
			assert.True(t, strings.HasSuffix(desc.Preview.Text, tc.more), desc.Preview.Text)
			assert.Equal(t, tc.tier, desc.Tier)
		})
	}
}

// TestMoreSaysTiersNotRead: beyond the bound of tiers one inspection reads,
// the calls left out are counted as not read, apart from those whose tiers
// were read, and the wrapper's tier is unknown.
func TestMoreSaysTiersNotRead(t *testing.T) {
	d := wrapDispatcher(t, Limits{}, nil)
	calls := make([]string, 0, 600)
	for i := range 300 {
		calls = append(calls, "read", fmt.Sprintf(`{"path":"/f%d"}`, i))
	}
	desc := d.Describe(Call{Tool: "multi_tool_use.parallel", Input: parallelInput(calls...)})
	assert.True(t, strings.HasSuffix(desc.Preview.Text, "… 284 more, 44 not read"), desc.Preview.Text)
	assert.Equal(t, TierUnknown, desc.Tier)

	// A wrapper among the calls left out: what it carries was not read.
	calls = calls[:0]
	for i := range 17 {
		calls = append(calls, "multi_tool_use.parallel", parallelInput("read", fmt.Sprintf(`{"path":"/in%d"}`, i)))
	}
	desc = d.Describe(Call{Tool: "multi_tool_use.parallel", Input: parallelInput(calls...)})
	// Of the five left out, four make way for the others' labels: their
	// tiers were read.
	assert.True(t, strings.HasSuffix(desc.Preview.Text, "… 5 more, 1 not read"), desc.Preview.Text)
	assert.Equal(t, TierUnknown, desc.Tier)
}

// TestHiddenSplitScanKeepsItsBound: the search for credentials that
// hidden characters split reads the first maxSecretText bytes of a call's
// text, however long one string of it is, so that each of the hundreds of
// calls a wrapper may carry costs no more than that bound.
func TestHiddenSplitScanKeepsItsBound(t *testing.T) {
	token := "ghp_" + strings.Repeat("Ab1", 6) + "\u200b" + strings.Repeat("Cd2", 6)
	tests := []struct {
		name  string
		text  string
		found bool
	}{
		{"within the bound", strings.Repeat(" ", 100) + token, true},
		{"past the bound in one long string", strings.Repeat(" ", maxSecretText) + token, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := extraSecrets{budget: maxSecretText}
			x.text(tc.text, 0)
			assert.Equal(t, tc.found, len(x.list) > 0, x.list)
		})
	}
}
