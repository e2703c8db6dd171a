package main

import (
	"strconv"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime"
)

// The --format json output is written by hand rather than by encoding/json:
// reflecting over jsonResult cost more than a call's preview does. The
// bytes are those encoding/json writes for the same values with HTML
// escaping off (field order, omitempty, escapes, null for an absent log
// value); TestJSONOutputMatchesEncodingJSON and FuzzJSONOutput hold the
// two to each other.

// appendResult appends r as one line of JSON, with its newline.
func appendResult(b []byte, r *jsonResult) []byte {
	b = append(b, `{"tool":`...)
	b = appendString(b, r.Tool)
	b = append(b, `,"preview":`...)
	b = appendString(b, r.Preview)
	b = append(b, `,"prompt":`...)
	b = appendString(b, r.Prompt)
	b = append(b, `,"log":{"command":`...)
	b = appendOptional(b, r.Log.Command)
	b = append(b, `,"target":`...)
	b = appendOptional(b, r.Log.Target)
	b = append(b, `,"toolInputPreview":`...)
	b = appendOptional(b, r.Log.ToolInputPreview)
	b = append(b, `,"origin":`...)
	b = appendOptional(b, r.Log.Origin)
	if r.Log.Override != nil {
		b = append(b, `,"override":`...)
		b = appendString(b, *r.Log.Override)
	}
	b = append(b, `},"formatter":`...)
	b = appendString(b, r.Formatter)
	b = append(b, `,"tier":`...)
	b = appendTier(b, r.Tier)
	if len(r.Calls) > 0 {
		b = append(b, `,"calls":`...)
		b = appendCalls(b, r.Calls)
	}
	if r.Hidden != 0 {
		b = append(b, `,"hidden":`...)
		b = strconv.AppendInt(b, int64(r.Hidden), 10)
	}
	if len(r.Failures) > 0 {
		b = append(b, `,"failures":[`...)
		for i, f := range r.Failures {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"owner":`...)
			b = appendString(b, f.Owner)
			b = append(b, `,"key":`...)
			b = appendString(b, f.Key)
			b = append(b, `,"error":`...)
			b = appendString(b, f.Error)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, "}\n"...)
}

// appendCalls appends the calls a wrapper carries.
func appendCalls(b []byte, calls []jsonCall) []byte {
	b = append(b, '[')
	for i := range calls {
		c := &calls[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"label":`...)
		b = appendString(b, c.Label)
		b = append(b, `,"preview":`...)
		b = appendString(b, c.Preview)
		b = append(b, `,"formatter":`...)
		b = appendString(b, c.Formatter)
		b = append(b, `,"tier":`...)
		b = appendTier(b, c.Tier)
		if len(c.Calls) > 0 {
			b = append(b, `,"calls":`...)
			b = appendCalls(b, c.Calls)
		}
		if c.Hidden != 0 {
			b = append(b, `,"hidden":`...)
			b = strconv.AppendInt(b, int64(c.Hidden), 10)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendTier appends a tier as its text, as Tier.MarshalText gives it:
// "" for an unknown tier, whose String is "unknown".
func appendTier(b []byte, t runtime.Tier) []byte {
	if t == runtime.TierUnknown {
		return appendString(b, "")
	}
	return appendString(b, t.String())
}

// appendOptional appends a string, or null when there is none.
func appendOptional(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string as encoding/json writes it with
// HTML escaping off: '"' and '\' escaped, the short escapes for \b, \f,
// \n, \r and \t, \u00XX for the other control characters, \u2028 and
// \u2029 escaped (JavaScript reads them as line ends), and each byte of
// invalid UTF-8 as \ufffd.
func appendString(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		return appendInvalidString(b, s)
	}
	// Valid text needs a look at few bytes: the ASCII ones to escape, and
	// the first byte of U+2028 and U+2029.
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !needsCare[c] {
			continue
		}
		if c == 0xE2 {
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
				b = append(b, s[start:i]...)
				b = append(b, '\\', 'u', '2', '0', '2', hexDigits[s[i+2]&0xF])
				i += 2
				start = i + 1
			}
			continue
		}
		b = append(b, s[start:i]...)
		b = appendEscape(b, c)
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendInvalidString is appendString for text that is not valid UTF-8.
func appendInvalidString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if needsCare[c] {
				b = append(b, s[start:i]...)
				b = appendEscape(b, c)
				start = i + 1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendEscape appends the escape of an ASCII byte that needs one.
func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// needsCare marks the bytes appendString looks at: the ASCII control
// characters, '"' and '\', and 0xE2, which starts U+2028 and U+2029.
var needsCare = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'], t[0xE2] = true, true, true
	return t
}()
