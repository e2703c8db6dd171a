package value

import (
	"math"
	"strconv"
)

// Number is a JSON number in the value model.
//
// A number decoded from JSON text keeps its literal: previews print the
// digits the call carried, because those are what the tool receives, and a
// tool written in another language may read them exactly (a Python or Go
// tool receives 9007199254740993, which a float64 would print as …992;
// 1.50 stays 1.50 and 1E+2 stays 1E+2). The float64 value is kept next to
// the literal, because CEL formatters compute with doubles and every read
// would otherwise parse the literal again. A declared int field takes its
// value from the literal, exactly.
//
// A number computed in Go or CEL has no literal and prints as JavaScript
// prints it (FormatNumber), except that integers converted from Go integer
// types keep all their digits. The zero value is the number 0.
type Number struct {
	lit string // as written; "" for a computed number
	f   float64
}

// NumberOf returns a computed number: it prints as JavaScript prints f.
func NumberOf(f float64) Number { return Number{f: f} }

// Float64 returns the number's value, rounded to the nearest float64 (a
// literal out of range gives ±Inf or ±0).
func (n Number) Float64() float64 { return n.f }

// String returns the literal as written, or for a computed number the text
// of FormatNumber.
func (n Number) String() string {
	if n.lit != "" {
		return n.lit
	}
	return FormatNumber(n.f)
}

// Literal returns the number as the JSON text wrote it, and false for a
// computed number.
func (n Number) Literal() (string, bool) { return n.lit, n.lit != "" }

// Int64 returns the number as an int64 when it is an integer in the int64
// range. A literal is read exactly, whatever its form (9007199254740993,
// 1e3, 2.0, -0); a computed number is read from its float64 value.
func (n Number) Int64() (int64, bool) {
	if n.lit != "" {
		return literalInt(n.lit)
	}
	if n.f == math.Trunc(n.f) && n.f >= math.MinInt64 && n.f < math.MaxInt64 {
		return int64(n.f), true
	}
	return 0, false
}

// AppendJSON appends the number as JSON text: the literal, or the
// JavaScript text of a computed number, which is null when it is NaN or
// infinite (as JSON.stringify writes them).
func (n Number) AppendJSON(dst []byte) []byte {
	switch {
	case n.lit != "":
		return append(dst, n.lit...)
	case math.IsNaN(n.f) || math.IsInf(n.f, 0):
		return append(dst, "null"...)
	}
	return AppendNumber(dst, n.f)
}

// literalInt reads a JSON number literal as an int64 exactly: it is one when
// its decimal value has no fraction and lies in the int64 range. The
// exponent is read without building the number, so 1e999999999 costs no
// more than 1e9.
func literalInt(lit string) (int64, bool) {
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	mant, exp := lit, 0
	if i := indexAny(lit, 'e', 'E'); i >= 0 {
		mant = lit[:i]
		e := lit[i+1:]
		expNeg := e != "" && e[0] == '-'
		if e != "" && (e[0] == '-' || e[0] == '+') {
			e = e[1:]
		}
		for _, c := range []byte(e) {
			exp = min(exp*10+int(c-'0'), 1<<20) // beyond any int64
		}
		if expNeg {
			exp = -exp
		}
	}
	// digits × 10^(point-len(digits)), with the decimal point at point.
	digits, point := mant, len(mant)
	if i := indexAny(mant, '.', '.'); i >= 0 {
		digits, point = mant[:i]+mant[i+1:], i
	}
	point += exp
	for digits != "" && digits[0] == '0' {
		digits, point = digits[1:], point-1
	}
	for digits != "" && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	switch {
	case digits == "":
		return 0, true // zero, -0 included
	case point < len(digits):
		return 0, false // a fraction
	case point > 19:
		return 0, false // at least 10^19
	}
	var u uint64
	for i := range point {
		d := uint64(0)
		if i < len(digits) {
			d = uint64(digits[i] - '0')
		}
		u = u*10 + d
	}
	switch {
	case neg && u <= 1<<63:
		return -int64(u-1) - 1, true
	case !neg && u < 1<<63:
		return int64(u), true
	}
	return 0, false
}

func indexAny(s string, a, b byte) int {
	for i := range len(s) {
		if s[i] == a || s[i] == b {
			return i
		}
	}
	return -1
}

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
