package celrt

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSignature(t *testing.T) {
	for _, tc := range []struct {
		fn    string
		kinds []string
		want  string
	}{
		{"_+_", []string{"string", "double"}, "string + double"},
		{"@in", []string{"string", "bool"}, "string in bool"},
		{"!_", []string{"string"}, "!string"},
		{"-_", []string{"bool"}, "-bool"},
		{"_[_]", []string{"list", "string"}, "list[string]"},
		{".path", []string{"string"}, "string.path"},
		{"?.path", []string{"list"}, "list.?path"},
		{"size", []string{"bool"}, "size(bool)"},
		{"truncate", []string{"double", "int"}, "truncate(double, int)"},
		{"_+_", []string{"int"}, "_+_(int)"},
	} {
		assert.Equal(t, tc.want, Signature(tc.fn, tc.kinds), tc.fn)
	}
}

// TestFailuresNameTheirOperands: generated code's failures say what a
// reader needs to find the cause, and stay errors.Is their kind.
func TestFailuresNameTheirOperands(t *testing.T) {
	_, err := Add("n: ", 3.0)
	assert.EqualError(t, err, "no such overload: string + double")
	assert.True(t, errors.Is(err, ErrNoSuchOverload))
	_, err = InputInt("two")
	assert.EqualError(t, err, "want int, got string")
	assert.True(t, errors.Is(err, ErrNoSuchOverload))
	_, err = ToString(nil)
	assert.EqualError(t, err, "no such overload: string(null_type)")
	_, err = IndexList([]string{"a"}, 3)
	assert.EqualError(t, err, "index out of bounds: 3")
	assert.True(t, errors.Is(err, ErrIndex))
}
