package runtime

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A host that writes its policy with the operators of Go, or with the
// helpers of Tier, asks for a call whose tier is unknown: TierUnknown, the
// zero value, is the riskiest in every comparison and combination.
func TestTierFailsClosed(t *testing.T) {
	var zero Tier
	assert.Equal(t, TierUnknown, zero, "the zero value is unknown")
	// Every tier, lowest first, and what lies beyond the constants.
	order := []Tier{TierRead, TierWrite, TierNetwork, TierExecute, TierUnknown}
	for i, a := range order {
		for j, b := range order {
			assert.Equal(t, i >= j, a >= b, "%v >= %v", a, b)
			assert.Equal(t, i >= j, a.AtLeast(b), "%v.AtLeast(%v)", a, b)
			assert.Equal(t, order[max(i, j)], max(a, b), "max(%v, %v)", a, b)
			assert.Equal(t, order[max(i, j)], MaxTier(a, b), "MaxTier(%v, %v)", a, b)
		}
	}
	ask := func(desc Description) bool { return desc.Tier >= TierWrite }
	assert.True(t, ask(Description{}), "a policy written with >= asks for an unknown call")
	assert.True(t, Description{}.Tier.AtLeast(TierExecute))
	assert.False(t, TierRead.AtLeast(TierWrite))

	sorted := []Tier{TierUnknown, TierExecute, TierRead, TierNetwork, TierWrite}
	slices.Sort(sorted)
	assert.Equal(t, order, sorted, "sorting puts unknown last, as the riskiest")

	assert.Equal(t, TierUnknown, MaxTier(), "nothing declared is unknown")
	assert.Equal(t, TierRead, MaxTier(TierRead, TierRead))
	assert.Equal(t, TierUnknown, MaxTier(TierRead, TierUnknown, TierWrite))
	assert.Equal(t, TierExecute, MaxTier(TierWrite, TierExecute, TierNetwork))
}

// A Tier made by converting a number that is no tier is unknown to every
// method: none of them takes it for less than read.
func TestTierOutOfRangeIsUnknown(t *testing.T) {
	for _, bad := range []Tier{Tier(-5), Tier(-128), Tier(1), Tier(9), Tier(127)} {
		assert.False(t, bad.Known(), "%d", int8(bad))
		assert.True(t, bad.AtLeast(TierExecute), "%d", int8(bad))
		assert.False(t, TierExecute.AtLeast(bad) && !bad.AtLeast(TierExecute), "%d", int8(bad))
		assert.Equal(t, TierUnknown, MaxTier(TierRead, bad), "%d", int8(bad))
		assert.Equal(t, TierUnknown, combined(TierRead, bad), "%d", int8(bad))
		assert.Equal(t, risk(TierUnknown), risk(bad), "%d", int8(bad))
	}
	assert.Equal(t, "Tier(-5)", Tier(-5).String())
}

func TestTierNames(t *testing.T) {
	tests := []struct {
		tier Tier
		name string
	}{
		{TierRead, "read"}, {TierWrite, "write"}, {TierNetwork, "network"}, {TierExecute, "execute"}, {TierUnknown, "unknown"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.name, tc.tier.String())
	}
	_, err := ParseTier("unknown")
	require.ErrorIs(t, err, ErrInvalidTier, "a catalog cannot declare a tier unknown")
	names := TierNames()
	names[0] = "changed"
	assert.Equal(t, "read", TierNames()[0], "the names are a copy")
	b, err := json.Marshal(struct{ T Tier }{})
	require.NoError(t, err)
	assert.JSONEq(t, `{"T":""}`, string(b))
}

// stricter ignores a statement that says nothing: annotations alone give
// the tier, and a catalog's declaration alone gives it.
func TestStricter(t *testing.T) {
	assert.Equal(t, TierRead, stricter(TierUnknown, TierRead))
	assert.Equal(t, TierRead, stricter(TierRead, TierUnknown))
	assert.Equal(t, TierNetwork, stricter(TierRead, TierNetwork))
	assert.Equal(t, TierNetwork, stricter(TierNetwork, TierRead))
	assert.Equal(t, TierUnknown, stricter(TierUnknown, TierUnknown))
}
