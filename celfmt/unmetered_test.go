package celfmt

import (
	"strings"
	"testing"

	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUnmeteredAgreesWithMetered runs every example of the stock catalog
// through the plain programs and the metered ones: the results are the
// same.
func TestUnmeteredAgreesWithMetered(t *testing.T) {
	unmetered := 0
	for _, f := range stockCatalog(t).Formatters {
		if !f.unmetered {
			continue
		}
		unmetered++
		for i, ex := range f.Entry.Examples {
			in, _ := ex.Input.(*value.Object)
			tool := f.Entry.Tool
			if ex.Tool != "" {
				tool = ex.Tool
			}
			limits := withDefaults(ex.Limits)
			g := meteredTwin(f)
			want, wantOK, wantErr := g.Run(in, tool, limits)
			text, ok, metered, err := f.run(in, tool, limits, nil)
			assert.Equal(t, inputFits(orEmpty(in), f.opts), !metered, "%s example %d", f.Entry.Tool, i+1)
			assert.Equal(t, want, text, "%s example %d", f.Entry.Tool, i+1)
			assert.Equal(t, wantOK, ok, "%s example %d", f.Entry.Tool, i+1)
			assert.Equal(t, wantErr != nil, err != nil, "%s example %d: %v, %v", f.Entry.Tool, i+1, wantErr, err)
		}
	}
	assert.Positive(t, unmetered)
}

func orEmpty(o *value.Object) *value.Object {
	if o == nil {
		return value.Input{}.Object()
	}
	return o
}

// TestUnmeteredWithinTheEstimate: a formatter whose strict estimate is
// within the cost limit runs unmetered on a small input, and metered on an
// input larger than its estimate assumes.
func TestUnmeteredWithinTheEstimate(t *testing.T) {
	f := formatter(t, `  - tool: t
    let:
      p: 'type(input.path) == string ? string(input.path) : ""'
    preview: '"for " + p.upperAscii()'
`, Options{})
	require.True(t, f.unmetered)
	text, ok, metered, err := f.run(object(t, `{"path":"/a"}`), "t", defaultLimits, nil)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "for /A", text)
	assert.False(t, metered)

	long := strings.Repeat("x", DefaultStringEstimate+1)
	text, _, metered, err = f.run(value.NewObject("path", long), "t", defaultLimits, nil)
	require.NoError(t, err)
	assert.Equal(t, "for "+strings.ToUpper(long), text)
	assert.True(t, metered, "an input over the estimate's bounds is metered")
}

// TestLetOverTheBoundsIsMetered: a let whose value is larger than the
// estimate of the preview assumes makes the rest of the evaluation metered.
func TestLetOverTheBoundsIsMetered(t *testing.T) {
	f := formatter(t, `  - tool: t
    let:
      s: 'type(input.s) == string ? string(input.s) : ""'
      d: s + s + s
    preview: d.lowerAscii()
`, Options{})
	require.True(t, f.unmetered)
	in := value.NewObject("s", strings.Repeat("A", 2000))
	text, _, metered, err := f.run(in, "t", defaultLimits, nil)
	require.NoError(t, err)
	assert.True(t, metered)
	assert.Equal(t, strings.Repeat("a", 6000), text)
	_, _, metered, err = f.run(value.NewObject("s", "A"), "t", defaultLimits, nil)
	require.NoError(t, err)
	assert.False(t, metered)
}

// TestOverTheLimitIsMetered: an expression whose estimate is over the cost
// limit keeps the meter, which stops it on a small input.
func TestOverTheLimitIsMetered(t *testing.T) {
	f := formatter(t, `  - tool: t
    preview: 'string(lists.range(1000).map(i, lists.range(1000).map(j, i + j)).size())'
`, Options{CostBudget: 1 << 40})
	assert.False(t, f.unmetered)
	assert.Nil(t, f.preview.plain.prg)
	_, _, metered, err := f.run(object(t, `{}`), "t", defaultLimits, nil)
	assert.True(t, metered)
	assert.ErrorIs(t, err, ErrCostLimit)

}
