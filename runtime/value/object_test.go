package value

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestObjectIndex(t *testing.T) {
	o := NewObject()
	for i := range 50 {
		o.set(string(rune('a'+i%26))+strings.Repeat("x", i/26), NumberOf(float64(i)))
	}
	o.set("a", "again")
	require.Equal(t, 50, o.Len())
	v, ok := o.Get("a")
	require.True(t, ok)
	assert.Equal(t, "again", v)
	v, ok = o.Get("xx")
	require.True(t, ok)
	assert.Equal(t, NumberOf(49), v)
	_, ok = o.Get("nope")
	assert.False(t, ok)
}
