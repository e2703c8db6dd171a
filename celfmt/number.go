package celfmt

import (
	"math"
	"strconv"
)

// FormatNumber returns f as JavaScript's String(f) prints it: integers
// without a decimal point (42), the shortest digits that read back as f
// (0.1, 1.5), and exponent notation from 1e21 up and below 1e-6 (1e+21,
// 1.5e-7). NaN and the infinities print as NaN, Infinity and -Infinity.
func FormatNumber(f float64) string {
	return string(AppendNumber(make([]byte, 0, 24), f))
}

// AppendNumber appends the text of FormatNumber(f) to dst.
func AppendNumber(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0: // and -0, which JavaScript prints as 0
		return append(dst, '0')
	case f < 0:
		dst = append(dst, '-')
		f = -f
	}
	if f < 1e21 && f == math.Trunc(f) {
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	// Shortest round-trip digits d1.d2…dk and exponent e, so that
	// f = 0.d1d2…dk × 10^n with n = e+1 (ECMA-262 Number::toString).
	var scratch [32]byte
	e := strconv.AppendFloat(scratch[:0], f, 'e', -1, 64)
	mant, exp := e, 0
	for i, c := range e {
		if c == 'e' {
			mant = e[:i]
			exp, _ = strconv.Atoi(string(e[i+1:]))
			break
		}
	}
	digits := make([]byte, 0, len(mant))
	for _, c := range mant {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		for range n - k {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for range -n {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}
