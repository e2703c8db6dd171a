package value

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
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
// order of the text, numbers become Number (which keeps the literal as
// written), and invalid UTF-8 inside strings becomes U+FFFD. Text after the
// value other than white space is an error.
//
// Empty objects and arrays are shared values, so input made of many of them
// costs little memory; like every decoded value, they are never modified.
func DecodeJSON(data []byte) (any, error) {
	d := decoder{data: data}
	return d.decode()
}

// Decoder decodes JSON values as DecodeJSON does, one after the other,
// and keeps its scratch space from one to the next: the arrays and objects
// of a value are gathered there and each gets storage of its size once
// complete, so a program that decodes many small values (a file of JSON
// lines) allocates little more than what the values hold. The zero value
// is ready to use; a Decoder is not safe for concurrent use.
type Decoder struct {
	stacks stacks
}

// stacks hold the keys and values of the arrays and objects being
// decoded, innermost last.
type stacks struct {
	keys   []string
	values []any
}

// Decode decodes one JSON value, as DecodeJSON does. The value does not
// refer to data or to the Decoder.
func (dec *Decoder) Decode(data []byte) (any, error) {
	d := decoder{data: data, stacks: &dec.stacks}
	v, err := d.decode()
	// What the stacks held belongs to the value now, or is garbage: they
	// keep none of it alive.
	clear(dec.stacks.keys[:cap(dec.stacks.keys)])
	clear(dec.stacks.values[:cap(dec.stacks.values)])
	dec.stacks.keys, dec.stacks.values = dec.stacks.keys[:0], dec.stacks.values[:0]
	return v, err
}

func (d *decoder) decode() (any, error) {
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
	// text holds copies of short strings and number literals, many to an
	// allocation; the strings point into it and it is only appended to.
	text []byte
	// sizes holds the element count of large arrays and objects, by the
	// offset of their opening bracket, once a scan has counted them.
	sizes map[int]int
	// stacks, with a Decoder, gathers the first sizeHintFrom elements of
	// each array and object; without one, each grows its own storage.
	stacks *stacks
}

// keep returns a copy of b as a string. Short strings (keys, words,
// numbers) are copied into a shared block, so that an object of many small
// keys does not cost an allocation per key.
func (d *decoder) keep(b []byte) string {
	const short, block = 64, 4096
	if len(b) > short || len(b) == 0 {
		return string(b)
	}
	if cap(d.text)-len(d.text) < len(b) {
		// No block larger than the input: a small input needs little.
		d.text = make([]byte, 0, min(block, max(len(d.data), short)))
	}
	start := len(d.text)
	d.text = append(d.text, b...)
	return unsafe.String(&d.text[start], len(b))
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
	open := d.pos
	d.pos++ // {
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return &emptyObject, nil
	}
	st := d.stacks
	var o *Object // nil while the pairs are on the stacks
	kmark, vmark := 0, 0
	if st == nil {
		o = &Object{}
	} else {
		kmark, vmark = len(st.keys), len(st.values)
	}
	for {
		switch {
		case o == nil && len(st.keys)-kmark == sizeHintFrom:
			o = &Object{}
			o.grow(d.size(open, sizeHintFrom))
			for i, k := range st.keys[kmark:] {
				o.set(k, st.values[vmark+i])
			}
			st.pop(kmark, vmark)
		case st == nil && len(o.keys) == sizeHintFrom:
			o.grow(d.size(open, len(o.keys)))
		}
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
		if o != nil {
			o.set(key, v)
		} else {
			st.keys, st.values = append(st.keys, key), append(st.values, v)
		}
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
			if o == nil {
				o = ObjectOf(st.keys[kmark:], st.values[vmark:])
				st.pop(kmark, vmark)
			}
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
	open := d.pos
	d.pos++ // [
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return emptyList, nil
	}
	st := d.stacks
	var list []any // nil while the elements are on the stack
	mark := 0
	if st != nil {
		mark = len(st.values)
	}
	for {
		switch {
		case list == nil && st != nil && len(st.values)-mark == sizeHintFrom:
			list = append(make([]any, 0, d.size(open, sizeHintFrom)), st.values[mark:]...)
			st.pop(len(st.keys), mark)
		case st == nil && len(list) == sizeHintFrom:
			list = append(make([]any, 0, d.size(open, len(list))), list...)
		}
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		if list != nil || st == nil {
			list = append(list, v)
		} else {
			st.values = append(st.values, v)
		}
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
			if list == nil {
				list = append(make([]any, 0, len(st.values)-mark), st.values[mark:]...)
				st.pop(len(st.keys), mark)
			}
			return list, nil
		default:
			return nil, d.errorf("unexpected %s after array element", d.describe())
		}
	}
}

// pop drops the keys and values from the given lengths on.
func (st *stacks) pop(keys, values int) {
	st.keys, st.values = st.keys[:keys], st.values[:values]
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
	return d.literalNumber(d.data[start:d.pos]), nil
}

// literalNumber returns the Number of a literal whose syntax is checked.
// Literals 0 to 99 come from a table, without allocating.
func (d *decoder) literalNumber(text []byte) any {
	switch {
	case len(text) == 1:
		return smallNumbers[text[0]-'0']
	case len(text) == 2 && text[0] != '-':
		return smallNumbers[(text[0]-'0')*10+text[1]-'0']
	}
	// ParseFloat only fails on range, and then returns ±Inf or ±0 as
	// JavaScript would.
	f, _ := strconv.ParseFloat(unsafe.String(unsafe.SliceData(text), len(text)), 64)
	return Number{lit: d.keep(text), f: f}
}

// smallNumbers holds the literals 0 to 99, boxed once.
var smallNumbers = func() (t [100]any) {
	for i := range t {
		t[i] = Number{lit: strconv.Itoa(i), f: float64(i)}
	}
	return t
}()

// emptyList is the value of every empty array, boxed once.
var emptyList any = []any{}

// sizeHintFrom is the number of elements from which the decoder counts
// the rest of an array or object, to allocate its storage once instead of
// growing it step by step: a large array of small values would otherwise
// leave garbage several times its final size.
const sizeHintFrom = 64

// size returns the number of elements of the array or object whose
// opening bracket is at open, of which have are decoded and the next starts
// at d.pos. It scans to the closing bracket once; the counts of the large
// arrays and objects nested in what it scans are kept, so no byte is
// scanned twice. On invalid input the count is only a hint.
func (d *decoder) size(open, have int) int {
	if n, ok := d.sizes[open]; ok {
		return max(n, have)
	}
	type frame struct{ open, commas int }
	stack := []frame{{open: open}}
	data := d.data
	for i := d.pos; i < len(data); i++ {
		switch data[i] {
		case '"':
			i = closingQuote(data, i+1)
		case '[', '{':
			stack = append(stack, frame{open: i})
		case ',':
			stack[len(stack)-1].commas++
		case ']', '}':
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return have + top.commas + 1
			}
			if top.commas+1 >= sizeHintFrom {
				if d.sizes == nil {
					d.sizes = map[int]int{}
				}
				d.sizes[top.open] = top.commas + 1
			}
		}
	}
	return have
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
	end := plainEnd(d.data, start)
	if end < len(d.data) && d.data[end] == '"' {
		raw := d.data[start:end]
		if !utf8.Valid(raw) {
			d.pos = start - 1
			return d.replacingString()
		}
		d.pos = end + 1
		return d.keep(raw), nil // no escapes: one copy
	}
	end = closingQuote(d.data, start)
	if end >= len(d.data) {
		return "", d.unterminated(start)
	}
	raw := d.data[start:end]
	if !utf8.Valid(raw) {
		d.pos = start - 1
		return d.replacingString()
	}
	// Escapes are ASCII and decode to valid UTF-8 no longer than
	// themselves, so the text is valid and a buffer the size of the
	// literal holds it, plus eight bytes for the word-sized stores below.
	// The loop stops at the closing quote, or earlier at a control
	// character, which closingQuote does not look for.
	b := make([]byte, len(raw)+8)
	w, r := 0, start
	for {
		// Copy eight bytes at a time until one needs attention; the
		// lowest byte special flags is the first such byte of the word.
		for r+8 <= len(d.data) {
			x := binary.LittleEndian.Uint64(d.data[r:])
			binary.LittleEndian.PutUint64(b[w:], x)
			if m := special(x); m != 0 {
				k := bits.TrailingZeros64(m) / 8
				r, w = r+k, w+k
				break
			}
			r, w = r+8, w+8
		}
		for r < end && !isSpecial(d.data[r]) {
			b[w] = d.data[r]
			r, w = r+1, w+1
		}
		switch c := d.data[r]; { // r <= end
		case c == '"': // at end
			d.pos = r + 1
			return unsafe.String(unsafe.SliceData(b), w), nil
		case c < 0x20:
			d.pos = r
			return "", d.errorf("control character 0x%02x in string", c)
		}
		// A backslash, and the escaped byte is before end.
		if c := shortEscapes[d.data[r+1]]; c != 0 {
			b[w] = c
			r, w = r+2, w+1
			// Padding repeats one escape (\n\n\n…): measure the run
			// four escapes at a time, then fill its output at once.
			if n := repeatedRun(d.data[:end], r, d.data[r-2:r]); n > 0 {
				fill(b[w:w+n/2], c)
				r, w = r+n, w+n/2
			}
			continue
		}
		d.pos = r
		out, err := d.escape(b[:w])
		if err != nil {
			return "", err
		}
		w, r = len(out), d.pos
	}
}

// unterminated reports why the string whose text starts at i has no
// closing quote: the input ends, or a control character comes first.
func (d *decoder) unterminated(i int) error {
	for {
		d.pos = plainEnd(d.data, i)
		switch {
		case d.pos >= len(d.data):
			d.pos = len(d.data)
			return d.errorf("unexpected end of input in string")
		case d.data[d.pos] < 0x20:
			return d.errorf("control character 0x%02x in string", d.data[d.pos])
		case d.pos+1 >= len(d.data): // a backslash
			d.pos = len(d.data)
			return d.errorf("unexpected end of input in string escape")
		}
		i = d.pos + 2
	}
}

// replacingString decodes the string literal whose opening quote is at
// d.pos and which holds invalid UTF-8, replacing each invalid byte with
// U+FFFD.
func (d *decoder) replacingString() (string, error) {
	d.pos++ // "
	var b []byte
	for {
		i := plainEnd(d.data, d.pos)
		b = appendValid(b, d.data[d.pos:i])
		d.pos = i
		switch c := d.data[d.pos]; {
		case c == '"':
			d.pos++
			return unsafe.String(unsafe.SliceData(b), len(b)), nil
		case c < 0x20:
			return "", d.errorf("control character 0x%02x in string", c)
		}
		var err error
		if b, err = d.escape(b); err != nil {
			return "", err
		}
	}
}

// escape appends the character of the escape sequence at d.pos.
func (d *decoder) escape(b []byte) ([]byte, error) {
	d.pos++ // \
	if d.pos >= len(d.data) {
		return nil, d.errorf("unexpected end of input in string escape")
	}
	e := d.data[d.pos]
	d.pos++
	switch e {
	case '"', '\\', '/':
		return append(b, e), nil
	case 'b':
		return append(b, '\b'), nil
	case 'f':
		return append(b, '\f'), nil
	case 'n':
		return append(b, '\n'), nil
	case 'r':
		return append(b, '\r'), nil
	case 't':
		return append(b, '\t'), nil
	case 'u':
		r, err := d.hex4()
		if err != nil {
			return nil, err
		}
		if utf16.IsSurrogate(r) {
			r = d.surrogatePair(r)
		}
		return utf8.AppendRune(b, r), nil
	}
	d.pos--
	return nil, d.errorf("invalid escape %s in string", d.describe())
}

// appendValid appends text with each invalid UTF-8 byte replaced by U+FFFD.
func appendValid(b, text []byte) []byte {
	for len(text) > 0 {
		if utf8.Valid(text) {
			return append(b, text...)
		}
		r, size := utf8.DecodeRune(text)
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, text[:size]...)
		}
		text = text[size:]
	}
	return b
}

const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// special flags, in the high bit of each byte of the little-endian word x,
// the bytes a string literal cannot hold as they are: a quote, a backslash
// or a control character. A byte of v is zero, or below n, where
// (v - lowBits*n) &^ v has its high bit set; borrows only reach the bytes
// above a flagged one, so whether any byte is flagged is exact, and so is
// the lowest flagged byte.
func special(x uint64) uint64 {
	quote := x ^ (lowBits * '"')
	backslash := x ^ (lowBits * '\\')
	return ((quote-lowBits)&^quote | (backslash-lowBits)&^backslash | (x-lowBits*0x20)&^x) & highBits
}

// shortEscapes maps the byte after a backslash to the character the
// two-byte escape stands for; zero for \u and invalid escapes.
var shortEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func isSpecial(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }

// plainEnd returns the offset of the first byte from i on that a string
// literal cannot hold as it is, or len(data) when there is none.
func plainEnd(data []byte, i int) int {
	for ; i+8 <= len(data); i += 8 {
		if m := special(binary.LittleEndian.Uint64(data[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(data) && !isSpecial(data[i]); i++ {
	}
	return i
}

// closingQuote returns the offset of the quote that closes the string
// whose text starts at i, or len(data) when there is none: the first quote
// after an even number of backslashes. It does not look at other bytes, so
// it finds quotes as fast as bytes.IndexByte does. The backslashes before
// a quote are counted back to the opening quote at most, and each is
// counted once, so the cost stays linear.
func closingQuote(data []byte, i int) int {
	for {
		q := bytes.IndexByte(data[i:], '"')
		if q < 0 {
			return len(data)
		}
		q += i
		k := q
		for data[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 0 {
			return q
		}
		i = q + 1
	}
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
	r, ok := hexRune(d.data[d.pos : d.pos+4])
	if !ok {
		return 0, d.errorf("invalid \\u escape")
	}
	d.pos += 4
	return r, nil
}

// repeatedRun returns how many bytes of data from i on, a multiple of
// eight, repeat the two-byte pair.
func repeatedRun(data []byte, i int, pair []byte) int {
	four := (uint64(pair[0]) | uint64(pair[1])<<8) * 0x0001000100010001
	n := i
	for n+8 <= len(data) && binary.LittleEndian.Uint64(data[n:n+8]) == four {
		n += 8
	}
	return n - i
}

// fill sets every byte of b to c.
func fill(b []byte, c byte) {
	if len(b) == 0 {
		return
	}
	b[0] = c
	for done := 1; done < len(b); done *= 2 {
		copy(b[done:], b[:done])
	}
}
