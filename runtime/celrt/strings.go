package celrt

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// The functions of CEL's strings extension library, at the version the
// formatter language pins (cel-go's ext.Strings, version 4).
//
// Positions and lengths count code points, not bytes. A function that
// counts code points reads a byte that is not part of valid UTF-8 as the
// code point U+FFFD, and a function that returns the code points it read
// (charAt, substring, lowerAscii, upperAscii, reverse, strings.quote)
// returns U+FFFD in its place. The others (replace, split, trim, join)
// work on the bytes and keep invalid ones as they are.

func stringIndexError(i int64, size int) error {
	return fmt.Errorf("%w: index %d in a string of %d characters", ErrIndex, i, size)
}

// CharAt is s.charAt(i): the character at position i, or "" when i is
// the length of s. Any other position out of range is an error.
func CharAt(s string, i int64) (string, error) {
	rs := []rune(s)
	if i < 0 || i > int64(len(rs)) {
		return "", stringIndexError(i, len(rs))
	}
	if i == int64(len(rs)) {
		return "", nil
	}
	return string(rs[i]), nil
}

// IndexOf is s.indexOf(sub): the position of the first occurrence of sub
// in s, or -1.
func IndexOf(s, sub string) (int64, error) { return IndexOfFrom(s, sub, 0) }

// IndexOfFrom is s.indexOf(sub, offset): the position of the first
// occurrence of sub at or after offset, or -1. A negative offset is an
// error; an offset past the end finds nothing, except that the empty
// string is found at min(offset, size(s)).
func IndexOfFrom(s, sub string, offset int64) (int64, error) {
	if offset < 0 {
		return -1, stringIndexError(offset, len(s))
	}
	rs := []rune(s)
	n := int64(len(rs))
	if sub == "" {
		return min(offset, n), nil
	}
	if offset >= n {
		return -1, nil
	}
	subs := []rune(sub)
	for i := offset; i+int64(len(subs)) <= n; i++ {
		if slices.Equal(rs[i:i+int64(len(subs))], subs) {
			return i, nil
		}
	}
	return -1, nil
}

// LastIndexOf is s.lastIndexOf(sub): the position of the last occurrence
// of sub in s, or -1. The empty string is found at size(s).
func LastIndexOf(s, sub string) (int64, error) {
	if sub == "" {
		return StringSize(s), nil
	}
	// cel-go compares the lengths in bytes here, before it decodes either
	// string, so "\xff" does not contain "\uFFFD" although "\xff" reads
	// as U+FFFD everywhere else.
	if len(s) < len(sub) {
		return -1, nil
	}
	return LastIndexOfFrom(s, sub, StringSize(s)-1)
}

// LastIndexOfFrom is s.lastIndexOf(sub, offset): the position of the last
// occurrence of sub that starts at or before offset, or -1. A negative
// offset is an error. An offset at or past the end of s finds nothing,
// except that the empty string is found at min(offset, size(s)).
func LastIndexOfFrom(s, sub string, offset int64) (int64, error) {
	if offset < 0 {
		return -1, stringIndexError(offset, len(s))
	}
	rs := []rune(s)
	n := int64(len(rs))
	if sub == "" {
		return min(offset, n), nil
	}
	if offset >= n {
		return -1, nil
	}
	subs := []rune(sub)
	for i := min(offset, n-int64(len(subs))); i >= 0; i-- {
		if slices.Equal(rs[i:i+int64(len(subs))], subs) {
			return i, nil
		}
	}
	return -1, nil
}

// LowerASCII is s.lowerAscii(): s with the letters A to Z lower-cased and
// every other character kept (invalid UTF-8 becomes U+FFFD).
func LowerASCII(s string) string {
	rs := []rune(s)
	for i, r := range rs {
		if 'A' <= r && r <= 'Z' {
			rs[i] = r + 'a' - 'A'
		}
	}
	return string(rs)
}

// UpperASCII is s.upperAscii(): s with the letters a to z upper-cased and
// every other character kept (invalid UTF-8 becomes U+FFFD).
func UpperASCII(s string) string {
	rs := []rune(s)
	for i, r := range rs {
		if 'a' <= r && r <= 'z' {
			rs[i] = r - 'a' + 'A'
		}
	}
	return string(rs)
}

// count converts a count of replacements or parts for package strings,
// where a negative count means all.
func count(n int64) int {
	if n > math.MaxInt {
		return math.MaxInt
	}
	if n < 0 {
		return -1
	}
	return int(n)
}

// Replace is s.replace(old, new): every occurrence of old replaced by new.
// An empty old matches before each character and at the end.
func Replace(s, old, new string) string { return strings.ReplaceAll(s, old, new) }

// ReplaceN is s.replace(old, new, n): the first n occurrences of old
// replaced by new, all of them when n is negative, none when n is 0.
func ReplaceN(s, old, new string, n int64) string {
	return strings.Replace(s, old, new, count(n))
}

// Split is s.split(sep): the parts of s between the occurrences of sep.
// An empty sep splits s into its characters.
func Split(s, sep string) []string { return strings.Split(s, sep) }

// SplitN is s.split(sep, n): at most n parts, the last holding the rest of
// s; all of them when n is negative, and none when n is 0.
func SplitN(s, sep string, n int64) []string {
	parts := strings.SplitN(s, sep, count(n))
	if parts == nil {
		return []string{}
	}
	return parts
}

// Substring is s.substring(start): the characters of s from start on.
// start must be between 0 and size(s).
func Substring(s string, start int64) (string, error) {
	rs := []rune(s)
	if start < 0 || start > int64(len(rs)) {
		return "", stringIndexError(start, len(rs))
	}
	return string(rs[start:]), nil
}

// SubstringRange is s.substring(start, end): the characters of s from
// start up to, not including, end. Both must be between 0 and size(s),
// and start must not be after end.
func SubstringRange(s string, start, end int64) (string, error) {
	if start > end {
		return "", fmt.Errorf("%w: substring range [%d, %d)", ErrInvalid, start, end)
	}
	rs := []rune(s)
	for _, i := range []int64{start, end} {
		if i < 0 || i > int64(len(rs)) {
			return "", stringIndexError(i, len(rs))
		}
	}
	return string(rs[start:end]), nil
}

// Trim is s.trim(): s without leading and trailing Unicode white space.
func Trim(s string) string { return strings.TrimSpace(s) }

// Join is xs.join(): the strings of xs concatenated.
func Join(xs []string) string { return strings.Join(xs, "") }

// JoinSep is xs.join(sep): the strings of xs with sep between them.
func JoinSep(xs []string, sep string) string { return strings.Join(xs, sep) }

// quoteEscapes are the characters strings.quote writes as an escape.
var quoteEscapes = map[rune]string{
	'\a': `\a`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`,
	'\t': `\t`, '\v': `\v`, '\\': `\\`, '"': `\"`,
}

// Quote is strings.quote(s): s in double quotes, with the quote, the
// backslash and the control characters that have a one-letter escape
// (\a \b \f \n \r \t \v) escaped. Other characters, including other
// control characters, are kept; invalid UTF-8 becomes U+FFFD.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		if esc, ok := quoteEscapes[r]; ok {
			b.WriteString(esc)
		} else {
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Reverse is s.reverse(): the characters of s in reverse order (invalid
// UTF-8 becomes U+FFFD).
func Reverse(s string) string {
	rs := []rune(s)
	slices.Reverse(rs)
	return string(rs)
}
