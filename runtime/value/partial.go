package value

import (
	"encoding/json"
	"unicode/utf8"
	"unsafe"
)

// DecodePartial decodes a prefix of JSON text, as arguments that are still
// arriving: a host that shows a tool call while the model streams it decodes
// what has arrived so far on every frame. The value is in the model of
// DecodeJSON (ordered *Object, Number keeping its literal, string, []any,
// bool, nil), under the same limits, and never holds more than the complete
// text will: every value it shows is the complete text's value, except that
// the top-level value and the last value of each container still open may
// be a prefix of it. The rules:
//
//   - Nothing to show yet gives (nil, nil): empty or white-space text, a
//     top-level number the text ends in or a top-level literal it cuts
//     (see below). The text null gives (nil, nil) too; tool arguments are
//     objects, so the two need no telling apart.
//   - A string the text ends in is closed where the text ends. An escape
//     the end cuts (a lone backslash, or \u with fewer than four hex
//     digits) is left out, and so is a \uD800-\uDBFF high surrogate whose
//     low half may still follow, and the bytes of a UTF-8 character that
//     the end splits. The string is valid UTF-8 and a prefix of the
//     complete one: a string cut after \ud83d shows nothing of the 😀
//     that \ud83d\ude00 makes, rather than a U+FFFD that is not there.
//   - An array or object the text ends in is closed where the text ends. An
//     object key the text ends in, or a key whose value has not started,
//     is dropped: {"a":1,"b and {"a":1,"b": both give {"a":1}.
//   - A number the text ends in is dropped, and with it its key or array
//     element, because more of it may follow: {"n":12 gives {} (12 may
//     become 123, 1. may become 1.5, 1e may become 1e3). A number
//     followed by a comma, a closing bracket or white space is complete.
//     This holds at the top level too: 12 gives (nil, nil) and 12 followed
//     by a space gives 12. When the stream has ended, DecodeJSON reads a
//     bare number.
//   - A literal the text cuts (t, fals, nul) is dropped in the same way; a
//     whole literal cannot continue and is kept.
//   - Text that no JSON text starts with ({"a" 1, ], {"a":1}}, {"a":1} x,
//     "\x) is an error, a *SyntaxError as DecodeJSON returns; so is
//     nesting deeper than MaxDepth. Where DecodeJSON reports an error
//     before the end of the text, other than at a literal the text cuts,
//     DecodePartial reports the same error.
//
// Text that DecodeJSON decodes gives the same value, except a top-level
// number with nothing after it, which gives nil as said above. An object
// that repeats a key shows the earlier value until the later one arrives:
// the last value wins, as in DecodeJSON, and a prefix cannot know about a
// later one.
//
// The cost is linear in the length of data, and the prefix is decoded
// whole on every call: a host that decodes each frame of a long stream may
// want to decode every few frames rather than every one.
func DecodePartial(data []byte) (any, error) {
	p := partialDecoder{decoder: decoder{data: data}}
	p.skipSpace()
	if p.pos == len(data) {
		return nil, nil
	}
	v, keep, err := p.value(0)
	switch {
	case err != nil:
		return nil, err
	case p.cut && !keep:
		return nil, nil
	case p.cut:
		return v, nil
	}
	p.skipSpace()
	if p.pos < len(data) {
		return nil, p.errorf("unexpected %s after top-level value", p.describe())
	}
	return v, nil
}

// DecodePartialInput is DecodeInput for a prefix of JSON text, as
// DecodePartial reads it: raw JSON as string, []byte or json.RawMessage
// decodes with DecodePartial, and a prefix with nothing to show yet gives
// the zero Input, whose Object is empty. Text that no JSON text starts with gives Raw and Err, as
// DecodeInput gives them for invalid JSON: the text may be a freeform
// tool's raw text. Other values (Go values, an Input) are converted as
// DecodeInput converts them.
func DecodePartialInput(v any) Input {
	var data []byte
	switch v := v.(type) {
	case string:
		// Read in place, as DecodeInput does: nothing decoded aliases it.
		data = unsafe.Slice(unsafe.StringData(v), len(v))
	case []byte:
		data = v
	case json.RawMessage:
		data = v
	default:
		return DecodeInput(v)
	}
	value, err := DecodePartial(data)
	if err != nil {
		return Input{Raw: string(data), Err: err} // a copy: data may alias a string
	}
	return Input{Value: value}
}

// partialDecoder decodes with the decoder's methods and closes what the end
// of the input cuts.
type partialDecoder struct {
	decoder
	// cut is set when the input ends inside the value being decoded; the
	// containers around it then close where they are.
	cut bool
	// scannedToEnd is set when a size scan of the container opened at
	// scanFrom reached the end of the input: see size.
	scannedToEnd bool
	scanFrom     int
}

// value decodes the value at p.pos, which is before the end of the input.
// When the input ends inside it, p.cut is set, and keep says whether what
// has arrived is shown: false for a number or literal that is not whole.
func (p *partialDecoder) value(depth int) (v any, keep bool, err error) {
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		s, err := p.str()
		return s, err == nil, err
	case c == '-' || (c >= '0' && c <= '9'):
		if numberCut(p.data[p.pos:]) {
			p.pos, p.cut = len(p.data), true
			return nil, false, nil
		}
		v, err := p.number()
		return v, err == nil, err
	case c == 't':
		return p.word("true", true)
	case c == 'f':
		return p.word("false", false)
	case c == 'n':
		return p.word("null", nil)
	}
	return nil, false, p.errorf("unexpected %s looking for a value", p.describe())
}

// word decodes the literal word, whose value is v, or drops it when the
// input ends inside it.
func (p *partialDecoder) word(word string, v any) (any, bool, error) {
	if rest := p.data[p.pos:]; len(rest) < len(word) && string(rest) == word[:len(rest)] {
		p.pos, p.cut = len(p.data), true
		return nil, false, nil
	}
	if err := p.literal(word); err != nil {
		return nil, false, err
	}
	return v, true, nil
}

func (p *partialDecoder) object(depth int) (any, bool, error) {
	if depth > MaxDepth {
		return nil, false, p.errorf("nesting deeper than %d", MaxDepth)
	}
	open := p.pos
	p.pos++ // {
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return &emptyObject, true, nil
	}
	o := &Object{}
	for {
		if len(o.keys) == sizeHintFrom {
			o.grow(p.size(open, len(o.keys)))
		}
		if p.pos >= len(p.data) {
			p.cut = true
			return o, true, nil
		}
		if p.data[p.pos] != '"' {
			return nil, false, p.errorf("unexpected %s looking for an object key", p.describe())
		}
		key, err := p.str()
		if err != nil {
			return nil, false, err
		}
		if p.cut { // a cut key is dropped
			return o, true, nil
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			p.cut = true
			return o, true, nil
		}
		if p.data[p.pos] != ':' {
			return nil, false, p.errorf("unexpected %s after object key", p.describe())
		}
		p.pos++
		p.skipSpace()
		if p.pos >= len(p.data) {
			p.cut = true
			return o, true, nil
		}
		v, keep, err := p.value(depth)
		if err != nil {
			return nil, false, err
		}
		if keep {
			o.set(key, v)
		}
		if p.cut {
			return o, true, nil
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			p.cut = true
			return o, true, nil
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case '}':
			p.pos++
			return o, true, nil
		default:
			return nil, false, p.errorf("unexpected %s after object value", p.describe())
		}
	}
}

func (p *partialDecoder) array(depth int) (any, bool, error) {
	if depth > MaxDepth {
		return nil, false, p.errorf("nesting deeper than %d", MaxDepth)
	}
	open := p.pos
	p.pos++ // [
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return emptyList, true, nil
	}
	var list []any
	for {
		if len(list) == sizeHintFrom {
			// Without a closing bracket there is no count to allocate.
			if n := p.size(open, len(list)); n > cap(list) {
				list = append(make([]any, 0, n), list...)
			}
		}
		if p.pos >= len(p.data) {
			p.cut = true
			return listOrEmpty(list), true, nil
		}
		v, keep, err := p.value(depth)
		if err != nil {
			return nil, false, err
		}
		if keep {
			list = append(list, v)
		}
		if p.cut {
			return listOrEmpty(list), true, nil
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			p.cut = true
			return list, true, nil
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case ']':
			p.pos++
			return list, true, nil
		default:
			return nil, false, p.errorf("unexpected %s after array element", p.describe())
		}
	}
}

// listOrEmpty returns list, or the empty list for nil: a cut array with no
// element yet is an empty array, not a missing one.
func listOrEmpty(list []any) []any {
	if list == nil {
		return emptyList.([]any)
	}
	return list
}

// size is decoder.size for input that may end early. A scan that reaches
// the end of the input has seen every container opened after it that is
// still open then; those never close, so they are not scanned again,
// which would cost the rest of the input once per level of nesting. The
// containers it saw close are in d.sizes as usual.
func (p *partialDecoder) size(open, have int) int {
	if n, ok := p.sizes[open]; ok {
		return max(n, have)
	}
	if p.scannedToEnd && open > p.scanFrom {
		return have
	}
	n := p.decoder.size(open, have)
	if n == have { // no closing bracket before the end
		p.scannedToEnd, p.scanFrom = true, open
	}
	return n
}

// str decodes the string literal at p.pos, and when the input ends inside
// it, sets p.cut and returns what has arrived.
func (p *partialDecoder) str() (string, error) {
	start := p.pos
	s, err := p.string()
	// The decoder reports a string without a closing quote at the end of
	// the input, and every other error before it.
	if err == nil || p.pos < len(p.data) {
		return s, err
	}
	p.cut = true
	return p.cutString(start)
}

// cutString decodes the string literal whose opening quote is at start and
// which has no closing quote, as the literal closed after its last whole
// character: an escape or a UTF-8 character the end splits is left out.
// The closed literal is decoded as any other, so its escapes, control
// characters and invalid UTF-8 are read as in a whole string.
func (p *partialDecoder) cutString(start int) (string, error) {
	p.pos = len(p.data)
	text := p.data[start+1 : wholeEnd(p.data, start+1)]
	if plainEnd(text, 0) == len(text) && utf8.Valid(text) {
		return p.keep(text), nil // no escapes: one copy
	}
	lit := make([]byte, 0, len(text)+2)
	lit = append(append(append(lit, '"'), text...), '"')
	closed := decoder{data: lit}
	s, err := closed.string()
	if err != nil {
		err.(*SyntaxError).Offset += start
	}
	return s, err
}

// wholeEnd returns the end of the last whole character of a string literal
// whose text starts at i and runs to the end of data. Left out after it:
// an escape the end cuts (a lone backslash, or \u with fewer than four hex
// digits); a \uD800-\uDBFF high surrogate at the end or before such a cut
// escape, since its low half may follow and the two make one character;
// and the bytes of a UTF-8 character the end splits.
func wholeEnd(data []byte, i int) int {
	end := len(data)
	if k := lastEscape(data, i, max(i, end-5)); k >= 0 && cutEscape(data[k:]) {
		end = k
	}
	if k := end - 6; k >= i && escapeAt(data, i, k) && data[k+1] == 'u' {
		if r, ok := hexRune(data[k+2 : end]); ok && r >= 0xD800 && r <= 0xDBFF {
			return k
		}
	}
	if end < len(data) {
		return end // the bytes before an escape are whole or invalid
	}
	return i + len(dropSplitRune(data[i:]))
}

// lastEscape returns the offset of the last backslash at or after from
// that starts an escape in the string text starting at i, or -1.
func lastEscape(data []byte, i, from int) int {
	for k := len(data) - 1; k >= from; k-- {
		if data[k] == '\\' {
			if escapeAt(data, i, k) {
				return k
			}
			return -1 // escaped by the backslash before it
		}
	}
	return -1
}

// escapeAt reports whether the byte at k, in the string text starting at
// i, is a backslash that starts an escape: one after an even number of
// backslashes. No escape ends in a backslash but \\, so a run of
// backslashes starts where an escape may start, and pairs up from there.
func escapeAt(data []byte, i, k int) bool {
	if data[k] != '\\' {
		return false
	}
	j := k
	for j > i && data[j-1] == '\\' {
		j--
	}
	return (k-j)%2 == 0
}

// cutEscape reports whether rest, the end of the input, is an
// escape not yet whole: a backslash, or \u and fewer than four hex digits.
func cutEscape(rest []byte) bool {
	if len(rest) == 0 || len(rest) >= 6 || rest[0] != '\\' {
		return false
	}
	if len(rest) == 1 {
		return true
	}
	if rest[1] != 'u' {
		return false
	}
	_, ok := hexRune(rest[2:])
	return ok
}

// hexRune reads hex digits.
func hexRune(hex []byte) (rune, bool) {
	var r rune
	for _, c := range hex {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

// dropSplitRune drops the end of text when it is the start of a UTF-8
// character with bytes missing. Invalid bytes stay, to become U+FFFD as
// they do in the whole string: only bytes that more input can complete are
// dropped. A leading byte is never the continuation of an earlier one, so
// the last one decides.
func dropSplitRune(text []byte) []byte {
	for i := len(text) - 1; i >= 0 && i >= len(text)-utf8.UTFMax+1; i-- {
		switch c := text[i]; {
		case c < utf8.RuneSelf:
			return text
		case utf8.RuneStart(c):
			if !utf8.FullRune(text[i:]) {
				return text[:i]
			}
			return text
		}
	}
	return text
}

// numberCut reports whether text, which starts with a minus sign or a digit,
// is a number literal or the start of one up to its very end: a number the
// end of the input cuts, which more digits may continue.
func numberCut(text []byte) bool {
	n := len(text)
	i := 0
	digits := func() {
		for i < n && text[i] >= '0' && text[i] <= '9' {
			i++
		}
	}
	digit := func() bool { return i < n && text[i] >= '0' && text[i] <= '9' }
	if text[i] == '-' {
		i++
	}
	switch {
	case i == n:
		return true
	case text[i] == '0':
		i++
	case digit():
		digits()
	default:
		return false
	}
	if i < n && text[i] == '.' {
		i++
		if i == n {
			return true
		}
		if !digit() {
			return false
		}
		digits()
	}
	if i < n && (text[i] == 'e' || text[i] == 'E') {
		i++
		if i < n && (text[i] == '+' || text[i] == '-') {
			i++
		}
		if i == n {
			return true
		}
		if !digit() {
			return false
		}
		digits()
	}
	return i == n
}
