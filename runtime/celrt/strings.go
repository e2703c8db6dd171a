package celrt

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
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
	if isASCII(s) && offset >= 0 && offset < int64(len(s)) && sub != "" {
		// characters are bytes: no need to decode
		if i := strings.Index(s[offset:], sub); i >= 0 {
			return offset + int64(i), nil
		}
		return -1, nil
	}
	rs := []rune(s)
	if offset < 0 {
		return -1, stringIndexError(offset, len(rs))
	}
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
	if isASCII(s) && offset >= 0 && offset < int64(len(s)) && sub != "" {
		// characters are bytes: no need to decode
		return int64(strings.LastIndex(s[:min(int64(len(s)), offset+int64(len(sub)))], sub)), nil
	}
	rs := []rune(s)
	if offset < 0 {
		return -1, stringIndexError(offset, len(rs))
	}
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

// Format is s.format(args): s with each clause replaced by the next
// argument, formatted. The clauses are %s (any value but an optional),
// %d (a number), %f and %e (a number as fixed-point or scientific, with a
// precision given as %.3f, 6 by default), %b (an int, uint or bool in
// binary), %x and %X (an int or uint in hexadecimal, or the bytes of a
// string or bytes), %o (an int or uint in octal), and %% for a percent
// sign. A clause it does not know, a value a clause does not take, and
// fewer arguments than clauses are errors; more arguments are not.
func Format(s string, args []any) (string, error) {
	var b strings.Builder
	next := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		if next >= len(args) {
			return "", fmt.Errorf("%w: format: more clauses than the %d arguments", ErrIndex, len(args))
		}
		verb, precision, n, err := formatClause(s[i+1:])
		if err != nil {
			return "", err
		}
		text, err := formatArg(verb, precision, args[next])
		if err != nil {
			return "", err
		}
		b.WriteString(text)
		next++
		i += n
	}
	return b.String(), nil
}

// formatClause reads the clause after a %: an optional precision and a
// letter. It returns the letter, the precision and the bytes it read.
func formatClause(c string) (verb byte, precision, n int, err error) {
	precision = 6
	if c != "" && c[0] == '.' {
		n = 1
		for n < len(c) && '0' <= c[n] && c[n] <= '9' {
			n++
		}
		if n == len(c) {
			return 0, 0, 0, fmt.Errorf("%w: format: a precision with no clause after it", ErrInvalid)
		}
		if precision, err = strconv.Atoi(c[1:n]); err != nil {
			return 0, 0, 0, fmt.Errorf("%w: format: precision %q", ErrInvalid, c[1:n])
		}
	}
	if n == len(c) {
		return 0, 0, 0, fmt.Errorf("%w: format: %% at the end of the format", ErrInvalid)
	}
	switch verb = c[n]; verb {
	case 's', 'd', 'f', 'e', 'b', 'x', 'X', 'o':
		return verb, precision, n + 1, nil
	}
	return 0, 0, 0, fmt.Errorf("%w: format: unknown clause %%%c", ErrInvalid, verb)
}

// formatArg formats v for a clause.
func formatArg(verb byte, precision int, v any) (string, error) {
	if d, ok := double(v); ok {
		v = d
	}
	switch verb {
	case 's':
		return formatText(v)
	case 'd':
		switch x := v.(type) {
		case int64, uint64:
			return fmt.Sprint(x), nil
		case float64:
			return doubleText(x), nil
		}
	case 'f', 'e':
		layout := fmt.Sprintf("%%.%df", precision)
		if verb == 'e' {
			layout = fmt.Sprintf("%%1.%de", precision)
		}
		switch x := v.(type) {
		case int64:
			return fmt.Sprintf(layout, float64(x)), nil
		case uint64:
			return fmt.Sprintf(layout, float64(x)), nil
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return doubleText(x), nil
			}
			return fmt.Sprintf(layout, x), nil
		}
	case 'b':
		switch x := v.(type) {
		case bool:
			if x {
				return "1", nil
			}
			return "0", nil
		case int64:
			return strconv.FormatInt(x, 2), nil
		case uint64:
			return strconv.FormatUint(x, 2), nil
		}
	case 'x', 'X':
		switch v.(type) {
		case int64, uint64, string, []byte:
			return fmt.Sprintf("%"+string(verb), v), nil
		}
	case 'o':
		switch x := v.(type) {
		case int64:
			return strconv.FormatInt(x, 8), nil
		case uint64:
			return strconv.FormatUint(x, 8), nil
		}
	}
	return "", fmt.Errorf("%w: format: %%%c of a value of type %s", ErrNoSuchOverload, verb, TypeOf(v))
}

// doubleText writes a double for %s and %d: in full, without an exponent.
func doubleText(d float64) string {
	switch {
	case math.IsNaN(d):
		return "NaN"
	case math.IsInf(d, 1):
		return "Infinity"
	case math.IsInf(d, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(d, 'f', -1, 64)
}

// formatText writes a value for %s. Strings and bytes are written as they
// are, also inside a list or map; a map's entries are sorted by the text
// of their keys.
func formatText(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "null", nil
	case bool:
		return strconv.FormatBool(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case uint64:
		return strconv.FormatUint(x, 10), nil
	case string:
		return x, nil
	case []byte:
		return string(x), nil
	case Type:
		return x.Name, nil
	}
	if d, ok := double(v); ok {
		return doubleText(d), nil
	}
	switch TypeOf(v) {
	case ListType:
		parts := []string{}
		for _, e := range list(v) {
			text, err := formatText(e)
			if err != nil {
				return "", err
			}
			parts = append(parts, text)
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case MapType:
		var entries [][2]string
		var err error
		eachEntry(v, func(k, e any) bool {
			var key, text string
			if key, err = formatText(k); err != nil {
				return false
			}
			if text, err = formatText(e); err != nil {
				return false
			}
			entries = append(entries, [2]string{key, text})
			return true
		})
		if err != nil {
			return "", err
		}
		slices.SortStableFunc(entries, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
		parts := make([]string, len(entries))
		for i, e := range entries {
			parts[i] = e[0] + ": " + e[1]
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	}
	return "", fmt.Errorf("%w: format: %%s of a value of type %s", ErrNoSuchOverload, TypeOf(v))
}

// isASCII reports whether s is made of ASCII characters only, so that its
// character positions are its byte positions.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
