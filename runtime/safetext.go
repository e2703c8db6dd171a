package runtime

import (
	"encoding/binary"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/rivo/uniseg"

	"github.com/permgen/permgen/celfmt"
)

// TextPolicy says what SafeText does with content a reader cannot see:
// control characters, terminal escape sequences, bidi controls and invisible
// format characters.
type TextPolicy uint8

const (
	// Reveal makes hidden content visible, for text a person approves: a
	// bidi override shows as \u{202E}, an escape sequence as \u{1B}[31m, a
	// line feed as \n. The person sees that the input hides something.
	Reveal TextPolicy = iota
	// Strip removes hidden content (whole escape sequences included), for
	// tool rows and logs. Line breaks become spaces.
	Strip
)

// String returns the policy's name.
func (p TextPolicy) String() string {
	switch p {
	case Reveal:
		return "reveal"
	case Strip:
		return "strip"
	}
	return "TextPolicy(" + strconv.Itoa(int(p)) + ")"
}

// SafeText returns s as text that is safe to show on one line of a terminal
// or a UI, at most max characters long plus one "…" when it was cut:
//
//   - valid UTF-8 (invalid bytes become U+FFFD), one line, trimmed, every run
//     of white space folded into one space;
//   - no C0 or C1 control character, DEL or terminal escape sequence;
//   - no bidi control and no invisible format character, except what real
//     text needs: ZWJ and ZWNJ between non-ASCII characters (emoji, Indic and
//     Arabic scripts), one variation selector after a character, and emoji
//     tag sequences (subdivision flags);
//   - under Reveal, hidden content is shown as escapes rather than dropped;
//   - truncation counts runes, keeps whole grapheme clusters and whole
//     escapes, and drops trailing white space before the "…".
//
// The same input always gives the same output, and text that needs no change
// is returned as it is, without allocating. max < 1 means no bound.
func SafeText(s string, policy TextPolicy, max int) string {
	if max < 1 {
		max = int(^uint(0) >> 1)
	}
	if isPlain(s, max) {
		return s
	}
	t := sanitizer{policy: policy, max: max, src: s}
	t.run()
	return t.result()
}

// isPlain reports whether s needs no change: valid UTF-8 of at most max
// runes with nothing SafeText would rewrite.
func isPlain(s string, max int) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' {
		return false
	}
	i := plainWords(s)
	runes := i
	lastSpace := i > 0 && s[i-1] == ' '
	for i < len(s) && runes <= max {
		switch c := s[i]; {
		case c > ' ' && c < 0x7f:
			j := i + 1
			for j < len(s) && s[j] > ' ' && s[j] < 0x7f {
				j++
			}
			runes += j - i
			i = j
			lastSpace = false
		case c == ' ':
			if lastSpace {
				return false
			}
			lastSpace = true
			runes++
			i++
		case c < utf8.RuneSelf:
			return false
		default:
			r, size := decodeRune(s[i:])
			if (r < 0x3040 || r > 0xD7A3 || r == 0x3164) && (r == utf8.RuneError || needsCare(r)) {
				return false // outside kana, CJK and Hangul syllables, which need no care
			}
			lastSpace = false
			runes++
			i += size
		}
	}
	return runes <= max && !lastSpace
}

// decodeRune is utf8.DecodeRuneInString with the three-byte sequences of
// most non-Latin scripts (CJK, kana, Hangul, Indic) decoded inline.
func decodeRune(s string) (rune, int) {
	if len(s) >= 3 && s[0]&0xF0 == 0xE0 && s[1]&0xC0 == 0x80 && s[2]&0xC0 == 0x80 {
		r := rune(s[0]&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F)
		if r >= 0x800 && (r < 0xD800 || r > 0xDFFF) {
			return r, 3
		}
	}
	return utf8.DecodeRuneInString(s)
}

// plainWords returns the length of a prefix of s, in whole 8-byte words,
// that is printable ASCII without two spaces in a row. It checks eight bytes
// at a time, because almost every string the dispatcher returns is such
// text.
func plainWords(s string) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	// Bytes are printable ASCII and space when none has its high bit set,
	// is DEL (b+1 has the high bit) or is below 0x20 (b+0x60 lacks it): the
	// additions cannot carry between bytes unless a high bit is already
	// set. Among those, b+0x5F lacks the high bit only for a space, so two
	// spaces in a row show at the same byte of x and of the word one byte
	// further.
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	for len(b) >= 9 {
		x := binary.LittleEndian.Uint64(b)
		next := binary.LittleEndian.Uint64(b[1:])
		bad := x | (x + ones) | ^(x + 0x6060606060606060)
		double := ^((x + 0x5f5f5f5f5f5f5f5f) | (next + 0x5f5f5f5f5f5f5f5f))
		if (bad|double)&highs != 0 {
			break
		}
		b = b[8:]
	}
	return len(s) - len(b)
}

// needsCare reports whether the non-ASCII rune r may need rewriting or
// depends on its neighbours.
func needsCare(r rune) bool {
	switch {
	case r >= 0x3040 && r <= 0xD7A3 && r != 0x3164, // kana, CJK, Hangul
		r >= 0x0400 && r <= 0x052F, // Cyrillic
		r >= 0x0F00 && r <= 0x10FF: // Tibetan, Myanmar, Georgian
		return false
	case r <= 0x00A0,
		r >= 0xFE00 && r <= 0xFE0F,
		r >= 0xE0000:
		return true
	}
	return unicode.IsSpace(r) || isFormat(r) || isHiddenFiller(r)
}

// isFormat reports whether r is an invisible format character (category Cf)
// other than the prepended concatenation marks, which are visible.
func isFormat(r rune) bool {
	switch r {
	case 0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F,
		0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD:
		return false
	}
	return unicode.Is(unicode.Cf, r)
}

// isHiddenFiller reports characters that render as nothing without being
// format characters: the Hangul fillers and Khmer inherent vowels known from
// spoofing, and the unassigned default-ignorable code points, which a
// future Unicode version (or a font) may render invisibly.
func isHiddenFiller(r rune) bool {
	switch r {
	case 0x115F, 0x3164, 0xFFA0, 0x17B4, 0x17B5, 0x2065:
		return true
	}
	return (r >= 0xFFF0 && r <= 0xFFF8) || (r >= 0xE0000 && r <= 0xE0FFF && !isVariationSelector(r))
}

func isVariationSelector(r rune) bool {
	return (r >= 0xFE00 && r <= 0xFE0F) || (r >= 0xE0100 && r <= 0xE01EF)
}

func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

const (
	zwnj      = 0x200C
	zwj       = 0x200D
	blackFlag = 0x1F3F4
	cancelTag = 0xE007F
)

// sanitizer builds the output of SafeText. While the output is a prefix of
// the input it only counts bytes (n); it copies into buf at the first
// difference, so text that needs no change, or only trimming, costs no
// allocation.
type sanitizer struct {
	policy  TextPolicy
	max     int
	src     string
	n       int // bytes of src the output equals, until copying
	buf     []byte
	copying bool
	runes   int
	pending bool   // white space seen since the last unit
	prev    rune   // last rune written as text, or -1 after an escape
	escapes []span // byte ranges of escapes in the output, kept whole by truncation
}

type span struct{ start, end int }

// full reports whether the output holds more than max runes: enough to know
// it must be cut and where.
func (t *sanitizer) full() bool { return t.runes > t.max }

func (t *sanitizer) run() {
	s := t.src
	t.prev = -1
	for i := 0; i < len(s) && !t.full(); {
		if c := s[i]; c > ' ' && c < 0x7f {
			// A run of printable ASCII, at most as long as the output
			// still needs.
			j, end := i+1, min(len(s), i+t.max-t.runes+2)
			for j < end && s[j] > ' ' && s[j] < 0x7f {
				j++
			}
			t.space()
			t.write(s[i:j])
			t.runes += j - i
			t.prev = rune(s[j-1])
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			t.text(utf8.RuneError, "\uFFFD")
			i++
			continue
		}
		switch {
		case r == ' ' || r == '\t':
			t.pending = true
		case isLineBreak(r):
			t.lineBreak(r)
			if r == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				if t.policy == Reveal {
					t.escape(`\n`)
				}
				size++
			}
		case r == 0x1B || isC1Introducer(r):
			if t.policy == Strip {
				i = skipEscapeSequence(s, i)
				continue
			}
			t.hidden(r)
		case r < 0x20 || (r >= 0x7F && r <= 0x9F):
			t.hidden(r)
		case unicode.IsSpace(r):
			t.pending = true
		case r == zwj || r == zwnj:
			if t.prev >= utf8.RuneSelf && t.prev != utf8.RuneError && !t.pending && i+size < len(s) && joinsNext(s[i+size:]) {
				t.text(r, s[i:i+size])
			} else {
				t.hidden(r)
			}
		case r == blackFlag:
			n := tagSequenceLen(s[i+size:])
			t.text(r, s[i:i+size+n])
			size += n
		case isVariationSelector(r):
			if t.prev > ' ' && !t.pending && !isVariationSelector(t.prev) {
				t.text(r, s[i:i+size])
			} else {
				t.hidden(r)
			}
		case isFormat(r) || isHiddenFiller(r):
			t.hidden(r)
		default:
			t.text(r, s[i:i+size])
		}
		i += size
	}
}

// joinsNext reports whether the text after a ZWJ or ZWNJ starts with a
// visible non-ASCII character, as in emoji sequences and the scripts that
// use joiners.
func joinsNext(rest string) bool {
	r, _ := utf8.DecodeRuneInString(rest)
	return r >= 0xA0 && r != utf8.RuneError && !unicode.IsSpace(r) &&
		!isFormat(r) && !isHiddenFiller(r) && !isVariationSelector(r)
}

// tagSequenceLen returns the byte length of a valid emoji tag sequence
// (a subdivision flag's 3 to 7 tag letters or digits and the cancel tag) at
// the start of rest, or 0.
func tagSequenceLen(rest string) int {
	n, count := 0, 0
	for n < len(rest) {
		r, size := utf8.DecodeRuneInString(rest[n:])
		switch {
		case (r >= 0xE0061 && r <= 0xE007A) || (r >= 0xE0030 && r <= 0xE0039):
			count++
			n += size
		case r == cancelTag && count >= 3 && count <= 7:
			return n + size
		default:
			return 0
		}
	}
	return 0
}

func isC1Introducer(r rune) bool {
	switch r {
	case 0x90, 0x98, 0x9B, 0x9D, 0x9E, 0x9F: // DCS, SOS, CSI, OSC, PM, APC
		return true
	}
	return false
}

func (t *sanitizer) lineBreak(r rune) {
	if t.policy == Strip {
		t.pending = true
		return
	}
	switch r {
	case '\n':
		t.escape(`\n`)
	case '\r':
		t.escape(`\r`)
	default:
		t.hidden(r)
	}
}

// hidden handles a character a reader cannot see.
func (t *sanitizer) hidden(r rune) {
	if t.policy == Strip {
		return
	}
	var b [16]byte
	e := append(b[:0], `\u{`...)
	e = strconv.AppendUint(e, uint64(r), 16)
	e = append(e, '}')
	for i := 3; i < len(e)-1; i++ {
		if e[i] >= 'a' {
			e[i] -= 'a' - 'A'
		}
	}
	t.escape(unsafeString(e)) // escape copies it
}

// write appends enc to the output.
func (t *sanitizer) write(enc string) {
	if !t.copying {
		if len(t.src)-t.n >= len(enc) && t.src[t.n:t.n+len(enc)] == enc {
			t.n += len(enc)
			return
		}
		t.copying = true
		t.buf = make([]byte, t.n, t.n+min(len(t.src)-t.n, 4*t.max)+16)
		copy(t.buf, t.src[:t.n])
	}
	t.buf = append(t.buf, enc...)
}

// size returns the output's length in bytes.
func (t *sanitizer) size() int {
	if t.copying {
		return len(t.buf)
	}
	return t.n
}

// output returns the output so far, without copying.
func (t *sanitizer) output() string {
	if t.copying {
		return unsafeString(t.buf)
	}
	return t.src[:t.n]
}

// escape writes a visible escape, which truncation keeps whole.
func (t *sanitizer) escape(e string) {
	t.space()
	t.escapes = append(t.escapes, span{t.size(), t.size() + len(e)})
	t.write(e)
	t.runes += len(e)
	t.prev = -1
}

// text writes a visible character (or a flag with its tag sequence) whose
// encoding is enc.
func (t *sanitizer) text(r rune, enc string) {
	t.space()
	t.write(enc)
	t.runes += utf8.RuneCountInString(enc)
	t.prev = r
}

func (t *sanitizer) space() {
	if t.pending && t.size() > 0 {
		t.write(" ")
		t.runes++
		t.prev = ' '
	}
	t.pending = false
}

// result returns the output, cut to max runes at a cluster or escape
// boundary when it is longer.
func (t *sanitizer) result() string {
	out := t.output()
	if !t.full() {
		return out // buf is not written again, or out is a prefix of the input
	}
	cut, runes, next := 0, 0, 0
	for cut < len(out) {
		var unit, unitRunes int // the next cluster or escape
		isEscape := next < len(t.escapes) && t.escapes[next].start == cut
		if isEscape {
			// Marks that followed the hidden character attach to the
			// escape's closing brace: keep them with it.
			end, segEnd := t.escapes[next].end, len(out)
			if next+1 < len(t.escapes) {
				segEnd = t.escapes[next+1].start
			}
			cluster, _, _, _ := uniseg.FirstGraphemeClusterInString(out[end-1:segEnd], -1)
			unit = end - 1 + len(cluster) - cut
			unitRunes = end - cut + utf8.RuneCountInString(cluster) - 1
		} else {
			end := len(out)
			if next < len(t.escapes) {
				end = t.escapes[next].start
			}
			cluster, _, _, _ := uniseg.FirstGraphemeClusterInString(out[cut:end], -1)
			unit = len(cluster)
			unitRunes = utf8.RuneCountInString(cluster)
		}
		if runes+unitRunes > t.max {
			break
		}
		if isEscape {
			next++
		}
		cut += unit
		runes += unitRunes
	}
	return strings.TrimRight(out[:cut], " ") + celfmt.Ellipsis
}

// skipEscapeSequence returns the index after the escape sequence that starts
// at s[i] with ESC or an 8-bit C1 introducer. A string sequence (OSC, DCS,
// SOS, PM, APC) without its terminator loses only its introducer: what
// follows is shown as text, since no terminal will read it as a sequence
// once the introducer is gone.
func skipEscapeSequence(s string, i int) int {
	var kind byte
	if s[i] == 0x1B {
		i++
		if i >= len(s) {
			return i
		}
		kind = s[i]
		switch {
		case kind == '[' || kind == ']' || kind == 'P' || kind == 'X' || kind == '^' || kind == '_':
			i++
		case kind >= 0x20 && kind <= 0x2F: // nF: intermediates, then a final byte
			for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2F {
				i++
			}
			if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7E {
				i++
			}
			return i
		case kind >= 0x30 && kind <= 0x7E: // two-byte sequence
			return i + 1
		default:
			return i // a lone ESC
		}
	} else {
		r, size := utf8.DecodeRuneInString(s[i:])
		kind = byte(r - 0x40) // 0x9B -> '[', 0x9D -> ']', …
		i += size
	}
	start := i
	switch kind {
	case '[': // CSI: parameters, intermediates, final byte
		for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3F {
			i++
		}
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2F {
			i++
		}
		if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7E {
			i++
		}
		return i
	default: // OSC, DCS, SOS, PM, APC: a string up to its terminator
		for i < len(s) {
			switch {
			case s[i] == 0x07 && kind == ']':
				return i + 1
			case s[i] == 0x1B && i+1 < len(s) && s[i+1] == '\\':
				return i + 2
			case s[i] == 0xC2 && i+1 < len(s) && s[i+1] == 0x9C: // U+009C ST
				return i + 2
			}
			i++
		}
		return start
	}
}

// unsafeString views b as a string without copying. The string must not
// outlive b, and b must not change while the string is in use.
func unsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
