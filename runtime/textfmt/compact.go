package textfmt

import (
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/value"
)

// CompactJSON serializes v the way the reference implementation shows tool
// input: compact JSON as JavaScript's JSON.stringify writes it (keys in input
// order; <, >, & and non-ASCII text left as they are), with every run of white space in the whole text, inside
// string values too, folded into one space and the ends trimmed. Numbers
// decoded from JSON print as the call wrote them; computed numbers print as
// JavaScript prints them (see Number).
//
// null, the empty object and values JSON cannot hold give "".
func CompactJSON(v any) string {
	return compactJSON(v, -1)
}

// TruncateJSON returns Truncate(CompactJSON(v), n) but serializes only as
// much of v as the result shows, so its cost does not grow with the size of
// v beyond the first n characters.
func TruncateJSON(v any, n int) string {
	if n < 0 {
		n = 0
	}
	return compactJSON(v, n)
}

// TruncateText returns Truncate of text with white space runs folded into one
// space and the ends trimmed, reading only as much of text as the result
// shows. It is how input that is not valid JSON is shown.
func TruncateText(text string, n int) string {
	if n < 0 {
		n = 0
	}
	w := collapser{limit: cutLimit(n)}
	w.writeString(text)
	return w.result()
}

func compactJSON(v any, limit int) string {
	switch v := v.(type) {
	case nil:
		return ""
	case *value.Object:
		if v.Len() == 0 {
			return ""
		}
	}
	w := collapser{limit: cutLimit(limit)}
	if !w.value(v) {
		return ""
	}
	return w.result()
}

// value writes v as JSON and reports false when v has no JSON form.
func (w *collapser) value(v any) bool {
	if w.full() {
		return true
	}
	switch v := v.(type) {
	case nil:
		w.writeASCII("null")
	case bool:
		if v {
			w.writeASCII("true")
		} else {
			w.writeASCII("false")
		}
	case value.Number:
		var scratch [32]byte
		w.writeASCII(string(v.AppendJSON(scratch[:0])))
	case float64: // a computed number from Go code that built the value itself
		var scratch [32]byte
		w.writeASCII(string(value.NumberOf(v).AppendJSON(scratch[:0])))
	case string:
		w.quoted(v)
	case []any:
		w.writeByte('[')
		for i, e := range v {
			if w.full() {
				return true
			}
			if i > 0 {
				w.writeByte(',')
			}
			if !w.value(e) {
				return false
			}
		}
		w.writeByte(']')
	case *value.Object:
		if w.redact {
			v = redactNamed(nil, "", v).(*value.Object)
		}
		w.writeByte('{')
		for i := range v.Len() {
			if w.full() {
				return true
			}
			if i > 0 {
				w.writeByte(',')
			}
			k, e := v.At(i)
			w.quoted(k)
			w.writeByte(':')
			if w.redact {
				e = redactNamed(v, k, e)
			}
			if !w.value(e) {
				return false
			}
		}
		w.writeByte('}')
	default:
		return false
	}
	return true
}

func (w *collapser) writeASCII(s string) {
	for i := 0; i < len(s) && !w.full(); i++ {
		w.writeByte(s[i])
	}
}

const hexDigits = "0123456789abcdef"

// quoted writes s as a JSON string literal with JSON.stringify's escapes.
func (w *collapser) quoted(s string) {
	w.writeByte('"')
	for i := 0; i < len(s) && !w.full(); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			w.writeRune(r, s[i:i+size])
			i += size
			continue
		}
		i++
		switch c {
		case '"', '\\':
			w.writeByte('\\')
			w.writeByte(c)
		case '\b':
			w.writeASCII(`\b`)
		case '\f':
			w.writeASCII(`\f`)
		case '\n':
			w.writeASCII(`\n`)
		case '\r':
			w.writeASCII(`\r`)
		case '\t':
			w.writeASCII(`\t`)
		default:
			if c < 0x20 {
				w.writeASCII(`\u00`)
				w.writeByte(hexDigits[c>>4])
				w.writeByte(hexDigits[c&0xF])
			} else {
				w.writeByte(c)
			}
		}
	}
	w.writeByte('"')
}
