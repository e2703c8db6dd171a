package celfmt

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// letsCatalog is a catalog of n formatters with lets lets each.
func letsCatalog(n, lets int) []byte {
	var b strings.Builder
	b.WriteString("version: 1\nformatters:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - tool: t%d\n    let:\n", i)
		for j := 0; j < lets; j++ {
			if j == 0 {
				fmt.Fprintf(&b, "      l0: 'string(input.a)'\n")
			} else {
				fmt.Fprintf(&b, "      l%d: 'l%d + \"x\"'\n", j, j-1)
			}
		}
		fmt.Fprintf(&b, "    preview: 'l%d'\n", lets-1)
	}
	return []byte(b.String())
}

// TestLoadingIsLinear loads catalogs of 400 and 800 lets and compares the
// allocations: twice the lets, about twice the work. (Before lets were
// bounded per formatter, 6,400 lets in one formatter took seconds.)
func TestLoadingIsLinear(t *testing.T) {
	allocs := func(src []byte) float64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Load("t.yaml", src, Options{})
		runtime.ReadMemStats(&after)
		require.NoError(t, err)
		return float64(after.Mallocs - before.Mallocs)
	}
	small := allocs(letsCatalog(4, MaxLets))
	large := allocs(letsCatalog(8, MaxLets))
	assert.InDelta(t, 2, large/small, 0.2, "allocations %v then %v", small, large)
}

func TestCatalogBounds(t *testing.T) {
	list := func(err error) ErrorList {
		t.Helper()
		var l ErrorList
		require.True(t, errors.As(err, &l), "%v", err)
		return l
	}

	_, err := Load("big.yaml", append([]byte("version: 1\nformatters:\n#"), strings.Repeat("x", MaxCatalogBytes)...), Options{})
	assert.Equal(t, fmt.Sprintf("big.yaml:1:1: the catalog is %d bytes, more than the %d a catalog may have: split it",
		MaxCatalogBytes+24, MaxCatalogBytes), list(err).Error())

	long := strings.Repeat(`"x" + `, MaxExpressionChars/6+1) + `"x"`
	_, err = Load("long.yaml", []byte("version: 1\nformatters:\n  - tool: t\n    preview: '"+long+"'\n"), Options{})
	assert.Equal(t, fmt.Sprintf("long.yaml:4:14: the expression is %d characters long, more than the 100000 an expression may have",
		len(long)), list(err).Error())

	_, errs := Check(&Catalog{File: "host", Formatters: []*Entry{{Tool: "t", Preview: NewSource("host", long)}}}, Options{})
	assert.Equal(t, fmt.Sprintf("host:1:1: preview: the expression is %d characters long, more than the 100000 an expression may have",
		len(long)), errs.Error())
}

// TestExamplesAreBounded: aliases cannot expand the examples of a small
// file into an enormous input, and the examples of a catalog cannot spend
// more than twenty evaluations may.
func TestExamplesAreBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\nformatters:\n  - tool: t\n    preview: '\"ok\"'\n    examples:\n")
	b.WriteString("      - input: {l: &big [" + strings.Repeat("1, ", 999) + "1]}\n        preview: ok\n")
	for range 250 {
		b.WriteString("      - input: {l: *big}\n        preview: ok\n")
	}
	_, err := Load("alias.yaml", []byte(b.String()), Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "example values are too large: more than 200000 values in all the examples")

	// One example's values are bounded together, its output and the
	// calls it expects beside its input.
	b.Reset()
	b.WriteString("version: 1\nformatters:\n  - tool: t\n    result: '\"ok\"'\n    examples:\n")
	b.WriteString("      - input: {l: &big [" + strings.Repeat("1, ", 59999) + "1]}\n")
	b.WriteString("        output: {content: [{l: *big}], details: *big}\n        result: ok\n")
	_, err = Load("output.yaml", []byte(b.String()), Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the example is too large: more than 100000 values")

	b.Reset()
	b.WriteString("version: 1\nformatters:\n  - tool: t\n    preview: 'string(input.l.map(x, input.l.map(y, x + y)).size())'\n    examples:\n")
	b.WriteString("      - input: {l: &l [" + strings.Repeat("1, ", 299) + "1]}\n        preview: \"300\"\n")
	for range 24 {
		b.WriteString("      - input: {l: *l}\n        preview: \"300\"\n")
	}
	_, err = Load("cost.yaml", []byte(b.String()), Options{CostBudget: 1 << 62, CostLimit: 10_000})
	list := err.(ErrorList)
	require.Len(t, list, 25)
	assert.Contains(t, list[0].Msg, "example 1 fails: cost limit exceeded")
	assert.Contains(t, list[24].Msg, "example 25 not run: the examples of the catalog spent 200000, all they may")
}
