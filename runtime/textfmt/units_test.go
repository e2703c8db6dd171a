package textfmt

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMinorUnits(t *testing.T) {
	for _, tc := range []struct {
		amount   int64
		currency string
		want     string
		ok       bool
	}{
		{1999, "usd", "19.99 USD", true},
		{5, "EUR", "0.05 EUR", true},
		{0, "usd", "0.00 USD", true},
		{500, "jpy", "500 JPY", true},
		{505, "kwd", "0.505 KWD", true},
		{7, "bhd", "0.007 BHD", true},
		{1250000, "", "12500.00", true},
		{-1, "usd", "", false},
		{100, "us", "", false},
		{100, "usd\u202e", "", false},
		{100, "u$d", "", false},
	} {
		got, ok := MinorUnits(tc.amount, tc.currency)
		assert.Equal(t, tc.ok, ok, "%d %q", tc.amount, tc.currency)
		assert.Equal(t, tc.want, got, "%d %q", tc.amount, tc.currency)
	}
}

func TestOneLineAndToolPart(t *testing.T) {
	line, ok := OneLine(" a\n\n b ", 80)
	assert.True(t, ok)
	assert.Equal(t, "a b", line)
	_, ok = OneLine(" \t\n", 80)
	assert.False(t, ok, "blank text declines")
	assert.Equal(t, "create_issue", ToolPart("github:create_issue"))
	assert.Equal(t, "read", ToolPart("read"))
	assert.Equal(t, "b:c", ToolPart("a:b:c"))
}
