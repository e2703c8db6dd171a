package celfmt

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The expected strings are what String(x) prints in JavaScript.
func TestFormatNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{1, "1"},
		{-1, "-1"},
		{42, "42"},
		{1.5, "1.5"},
		{0.1, "0.1"},
		{-2.5, "-2.5"},
		{123456.789, "123456.789"},
		{1e20, "100000000000000000000"},
		{1e21, "1e+21"},
		{1.2345e25, "1.2345e+25"},
		{123456789012345680000, "123456789012345680000"},
		{0.000001, "0.000001"},
		{0.0000012, "0.0000012"},
		{1e-7, "1e-7"},
		{1.5e-7, "1.5e-7"},
		{-1.5e-10, "-1.5e-10"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{9007199254740993, "9007199254740992"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
	}
	tenth, fifth := 0.1, 0.2
	tests = append(tests, struct {
		in   float64
		want string
	}{tenth + fifth, "0.30000000000000004"})
	for _, tc := range tests {
		assert.Equal(t, tc.want, FormatNumber(tc.in), "FormatNumber(%v)", tc.in)
	}
}
