package celfmt

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// MaxDepth is how deeply arrays and objects may nest in decoded input.
const MaxDepth = 10000

// SyntaxError reports invalid JSON text and the byte offset where it was found.
type SyntaxError struct {
	Offset int // byte offset of the problem in the input
	Msg    string
}

// Error returns "invalid JSON at offset N: message".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at offset %d: %s", e.Offset, e.Msg)
}

// DecodeJSON decodes one JSON value. Objects become *Object with the key
// order of the text, numbers become float64 (as in JavaScript), and invalid
// UTF-8 inside strings becomes U+FFFD. Text after the value other than white
// space is an error.
func DecodeJSON(data []byte) (any, error) {
	d := decoder{data: data}
	d.skipSpace()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		return nil, d.errorf("unexpected %s after top-level value", d.describe())
	}
	return v, nil
}

type decoder struct {
	data []byte
	pos  int
	buf  []byte // scratch space for strings with escapes
}

func (d *decoder) errorf(format string, args ...any) error {
	return &SyntaxError{Offset: d.pos, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) describe() string {
	if d.pos >= len(d.data) {
		return "end of input"
	}
	c := d.data[d.pos]
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) value(depth int) (any, error) {
	if d.pos >= len(d.data) {
		return nil, d.errorf("unexpected end of input")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth + 1)
	case c == '[':
		return d.array(depth + 1)
	case c == '"':
		return d.string()
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	default:
		return nil, d.errorf("unexpected %s looking for a value", d.describe())
	}
}

func (d *decoder) literal(word string) error {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return d.errorf("invalid literal, want %s", word)
	}
	d.pos += len(word)
	return nil
}

func (d *decoder) object(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, d.errorf("nesting deeper than %d", MaxDepth)
	}
	d.pos++ // {
	o := &Object{}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return o, nil
	}
	for {
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.errorf("unexpected %s looking for an object key", d.describe())
		}
		key, err := d.string()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.errorf("unexpected %s after object key", d.describe())
		}
		d.pos++
		d.skipSpace()
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		o.set(key, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.errorf("unexpected end of input in object")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
		case '}':
			d.pos++
			return o, nil
		default:
			return nil, d.errorf("unexpected %s after object value", d.describe())
		}
	}
}

func (d *decoder) array(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, d.errorf("nesting deeper than %d", MaxDepth)
	}
	d.pos++ // [
	list := []any{}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return list, nil
	}
	for {
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.errorf("unexpected end of input in array")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
		case ']':
			d.pos++
			return list, nil
		default:
			return nil, d.errorf("unexpected %s after array element", d.describe())
		}
	}
}

func (d *decoder) number() (any, error) {
	start := d.pos
	if d.data[d.pos] == '-' {
		d.pos++
	}
	switch {
	case d.pos < len(d.data) && d.data[d.pos] == '0':
		d.pos++
	case d.pos < len(d.data) && d.data[d.pos] >= '1' && d.data[d.pos] <= '9':
		d.digits()
	default:
		return nil, d.errorf("invalid number")
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if d.digits() == 0 {
			return nil, d.errorf("invalid number: no digits after decimal point")
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if d.digits() == 0 {
			return nil, d.errorf("invalid number: no digits in exponent")
		}
	}
	// The syntax is checked above; ParseFloat only fails on range, and then
	// returns ±Inf or ±0 as JavaScript would.
	text := d.data[start:d.pos]
	f, _ := strconv.ParseFloat(unsafe.String(unsafe.SliceData(text), len(text)), 64)
	return f, nil
}

func (d *decoder) digits() int {
	n := 0
	for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
		d.pos++
		n++
	}
	return n
}

// string decodes a string literal starting at the opening quote.
func (d *decoder) string() (string, error) {
	d.pos++ // "
	start := d.pos
	// Fast path: no escapes and valid UTF-8 need no copying into scratch.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			s := string(d.data[start:d.pos])
			d.pos++
			return s, nil
		case c == '\\':
			return d.slowString(start)
		case c < 0x20:
			return "", d.errorf("control character 0x%02x in string", c)
		case c < utf8.RuneSelf:
			d.pos++
		default:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			if r == utf8.RuneError && size == 1 {
				return d.slowString(start)
			}
			d.pos += size
		}
	}
	return "", d.errorf("unexpected end of input in string")
}

func (d *decoder) slowString(start int) (string, error) {
	b := append(d.buf[:0], d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			d.buf = b
			return string(b), nil
		case c == '\\':
			d.pos++
			if d.pos >= len(d.data) {
				return "", d.errorf("unexpected end of input in string escape")
			}
			e := d.data[d.pos]
			d.pos++
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, err := d.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) {
					r = d.surrogatePair(r)
				}
				b = utf8.AppendRune(b, r)
			default:
				d.pos--
				return "", d.errorf("invalid escape %s in string", d.describe())
			}
		case c < 0x20:
			return "", d.errorf("control character 0x%02x in string", c)
		case c < utf8.RuneSelf:
			b = append(b, c)
			d.pos++
		default:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			b = utf8.AppendRune(b, r) // invalid bytes become U+FFFD
			d.pos += size
		}
	}
	return "", d.errorf("unexpected end of input in string")
}

// surrogatePair combines a high surrogate with a following \u low surrogate.
// A lone surrogate cannot be UTF-8 and becomes U+FFFD.
func (d *decoder) surrogatePair(high rune) rune {
	if high < 0xDC00 && d.pos+6 <= len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
		save := d.pos
		d.pos += 2
		low, err := d.hex4()
		if err == nil && low >= 0xDC00 && low <= 0xDFFF {
			return utf16.DecodeRune(high, low)
		}
		d.pos = save
	}
	return utf8.RuneError
}

func (d *decoder) hex4() (rune, error) {
	if len(d.data)-d.pos < 4 {
		return 0, d.errorf("invalid \\u escape")
	}
	var r rune
	for _, c := range d.data[d.pos : d.pos+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, d.errorf("invalid \\u escape")
		}
	}
	d.pos += 4
	return r, nil
}
