package runtime

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/permgen/permgen/runtime/textfmt"
)

// TextPolicy says what SafeText does with content a reader cannot see:
// control characters, terminal escape sequences, bidi controls and invisible
// format characters.
type TextPolicy uint8

const (
	// Reveal makes hidden content visible, for text a person approves: a
	// bidi override shows as \u{202E}, an escape sequence as \u{1B}[31m, a
	// line feed as \n, an invalid byte as \x{FF}, text hidden in tag
	// characters as \hidden{what it says}, and a typed backslash that would
	// read as one of these is doubled. The person sees that the input hides
	// something, and no two inputs read the same.
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
//   - valid UTF-8, one line, trimmed, every run of white space other than a
//     line break folded into one space (U+00A0 NO-BREAK SPACE and the other
//     Unicode spaces fold too: they look like a space);
//   - no C0 or C1 control character, DEL or terminal escape sequence;
//   - no bidi control and no character that renders as nothing: every
//     Default_Ignorable_Code_Point (taken from Unicode's own property
//     tables, so the Hangul fillers, U+034F COMBINING GRAPHEME JOINER,
//     U+FEFF and the variation selectors are included) and every other
//     format character (category Cf) except the prepended concatenation
//     marks, which are visible;
//   - except what real text needs: ZWJ and ZWNJ between non-ASCII
//     characters (emoji, Indic and Arabic scripts); valid variation
//     sequences, that is VS15 or VS16 after an emoji or in a keycap (0-9, #
//     or *, the selector, U+20E3), U+FE00–U+FE0D after a character of a
//     block with standardized variants (CJK ideographs and punctuation,
//     fullwidth forms, mathematical operators, Myanmar, Phags-pa,
//     Manichaean), an ideographic variation selector after a CJK unified
//     ideograph, and the Mongolian free variation selectors after a
//     Mongolian letter; and the recommended flag tag sequences, the flags of
//     England, Scotland and Wales;
//   - truncation counts runes, keeps whole grapheme clusters and whole
//     escapes, and drops trailing white space before the "…"; it cuts text
//     as textfmt.Truncate does, so a cluster longer than
//     textfmt.MaxClusterRunes runes (a run of combining marks, no real
//     text) is cut like plain text, and only hidden text (below) is cut
//     inside its escape, which then ends in "…}".
//
// Under Strip hidden content, tag characters included, is dropped, line
// breaks become spaces and invalid bytes become U+FFFD. Under Reveal it is
// shown as escapes, and the output, read back, gives the input again up to
// white-space folding, so no two inputs that differ otherwise read the
// same:
//
//   - a line feed shows as \n and a carriage return as \r;
//   - any other hidden character, control or line break shows as \u{…}, its
//     code point in upper-case hexadecimal without leading zeros (\u{1B},
//     \u{202E});
//   - an invalid UTF-8 byte shows as \x{XX} (\x{FF}), so it differs from a
//     real U+FFFD;
//   - a run of tag characters U+E0020–U+E007E outside a recommended flag
//     sequence, which mirror ASCII 0x20–0x7E and render as nothing, shows
//     decoded as \hidden{…}: a prompt injection hidden in tags reads
//     \hidden{Ignore previous instructions}, not as hundreds of \u{…}
//     escapes the length bound would cut. Inside the braces a } or \ of
//     the hidden text is written \} or \\, and a space right after another
//     space as a backslash and a space, so the escape ends at the first
//     bare } and the line never shows two spaces in a row. One tag character or
//     a run of any length takes the same form; U+E0001 LANGUAGE TAG,
//     U+E007F CANCEL TAG and the unassigned tag code points show as \u{…}.
//     The name is not \tags{…} because \t is JSON's escape for a tab: in a
//     JSON preview, whose backslashes are not doubled, "\tags{x}" would
//     also be the JSON of a tab followed by ags{x}. A cut inside the braces
//     ends them with "…}" ("…" cannot be hidden text, which is ASCII), so
//     the output is at most max+1 runes like any other cut, the escape is
//     never left open, and a run too long for the bound still shows its
//     start;
//   - a backslash in the input is written twice when what follows it in the
//     output would otherwise read as an escape: another backslash, n, r,
//     u{, x{ or hidden{. So a typed \n shows as \\n, a typed \u{202E} as
//     \\u{202E} and C:\new\readme.txt as C:\\new\\readme.txt, while a
//     backslash before anything else (C:\Users) shows as it is.
//
// Revealed text is for reading, once: revealing it again shows its escapes
// as typed text (\u{1B} becomes \\u{1B}).
//
// The same input always gives the same output, and text that needs no change
// is returned as it is, without allocating. max < 1 means no bound.
func SafeText(s string, policy TextPolicy, max int) string {
	if max < 1 {
		max = int(^uint(0) >> 1)
	}
	if isPlain(s, max, policy == Reveal) {
		return s
	}
	t := sanitizer{policy: policy, max: max, src: s}
	t.run()
	return t.result()
}

// revealJSON is SafeText under Reveal for compact JSON text (the default
// preview), whose backslashes need no doubling: in JSON text every literal
// backslash of the data is already written \\, and JSON's own escapes (\n,
// \", \u00XX) have no braces, so they cannot be mistaken for revealed
// ones (\u{202E}), and the text, read as JSON, still gives the data back.
// A line feed in a JSON preview thus shows as \n, as in the reference,
// instead of \\n.
func revealJSON(s string, max int) string {
	if max < 1 {
		max = int(^uint(0) >> 1)
	}
	if isPlain(s, max, false) {
		return s
	}
	t := sanitizer{policy: Reveal, max: max, src: s, jsonText: true}
	t.run()
	return t.result()
}

// isPlain reports whether s needs no change: valid UTF-8 of at most max
// runes with nothing SafeText would rewrite.
func isPlain(s string, max int, slashes bool) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' {
		return false
	}
	// Reveal doubles a backslash before an escape or what reads as one.
	for k := strings.IndexByte(s, '\\'); slashes && k >= 0; {
		rest := s[k+1:]
		if startsEscape(rest) || (rest != "" && (rest[0] < ' ' || rest[0] >= 0x7f)) {
			return false
		}
		n := strings.IndexByte(rest, '\\')
		if n < 0 {
			break
		}
		k += 1 + n
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
	case r <= 0x00A0:
		return true
	}
	return unicode.Is(careTable(), r)
}

// hiddenTable holds the characters a reader cannot see, which SafeText
// reveals or strips unless a sequence real text uses needs them. It is
// Default_Ignorable_Code_Point derived as DerivedCoreProperties.txt derives
// it (Other_Default_Ignorable_Code_Point, category Cf and
// Variation_Selector, less White_Space and Prepended_Concatenation_Mark),
// together with the rest of category Cf (U+FFF9–U+FFFB and the Egyptian
// hieroglyph format controls, which are not default ignorable but
// invisible or reordering all the same). The prepended concatenation marks
// (U+0600 ARABIC NUMBER SIGN and others) are visible and stay text.
//
// Both tables are built on first use rather than at package initialization
// (about half a millisecond), so that a host importing runtime pays
// nothing until it sanitizes text that needs a look.
var hiddenTable = sync.OnceValue(func() *unicode.RangeTable {
	return mergeTables(func(r rune) bool {
		return !unicode.Is(unicode.White_Space, r) && !unicode.Is(unicode.Prepended_Concatenation_Mark, r)
	}, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
})

// careTable holds the non-ASCII characters the fast path must not accept:
// the hidden ones and white space.
var careTable = sync.OnceValue(func() *unicode.RangeTable {
	return mergeTables(nil, hiddenTable(), unicode.White_Space)
})

// mergeTables returns the union of tables, less the characters keep
// rejects (keep nil keeps all). It runs once, over a few thousand code
// points.
func mergeTables(keep func(rune) bool, tables ...*unicode.RangeTable) *unicode.RangeTable {
	var runes []rune
	for _, tab := range tables {
		for _, rg := range tab.R16 {
			for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
				runes = append(runes, r)
			}
		}
		for _, rg := range tab.R32 {
			for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
				runes = append(runes, r)
			}
		}
	}
	if keep != nil {
		runes = slices.DeleteFunc(runes, func(r rune) bool { return !keep(r) })
	}
	slices.Sort(runes)
	runes = slices.Compact(runes)
	t := &unicode.RangeTable{}
	for i := 0; i < len(runes); {
		j := i + 1
		for j < len(runes) && runes[j] == runes[j-1]+1 && (runes[j] > 0xFFFF) == (runes[i] > 0xFFFF) {
			j++
		}
		lo, hi := runes[i], runes[j-1]
		if hi <= 0xFFFF {
			t.R16 = append(t.R16, unicode.Range16{Lo: uint16(lo), Hi: uint16(hi), Stride: 1})
			if hi <= unicode.MaxLatin1 {
				t.LatinOffset++
			}
		} else {
			t.R32 = append(t.R32, unicode.Range32{Lo: uint32(lo), Hi: uint32(hi), Stride: 1})
		}
		i = j
	}
	return t
}

// isHidden reports whether r renders as nothing or changes how other text
// renders; see hiddenTable.
func isHidden(r rune) bool { return unicode.Is(hiddenTable(), r) }

func isVariationSelector(r rune) bool {
	return (r >= 0xFE00 && r <= 0xFE0F) || (r >= 0xE0100 && r <= 0xE01EF) ||
		(r >= 0x180B && r <= 0x180F && r != 0x180E)
}

// validVariation reports whether base followed by the variation selector vs
// is a variation sequence real text uses, as StandardizedVariants.txt,
// emoji-variation-sequences.txt and the Ideographic Variation Database
// define them; rest is the text after vs.
func validVariation(base, vs rune, rest string) bool {
	switch {
	case vs == 0xFE0E || vs == 0xFE0F: // text and emoji presentation
		if base == '#' || base == '*' || (base >= '0' && base <= '9') {
			// A digit with VS16 is a valid sequence, but it looks like
			// the bare digit unless a keycap follows.
			return strings.HasPrefix(rest, "\u20E3")
		}
		return isEmojiBase(base)
	case vs >= 0xFE00 && vs <= 0xFE0D:
		return hasStandardizedVariants(base)
	case vs >= 0xE0100: // ideographic variation selectors
		return unicode.Is(unicode.Unified_Ideograph, base)
	default: // Mongolian free variation selectors
		return unicode.Is(unicode.Mongolian, base) && unicode.IsLetter(base)
	}
}

// isEmojiBase reports whether r, not a keycap base, may take VS15 or VS16:
// an Extended_Pictographic character, which every other emoji variation
// sequence has as its base.
func isEmojiBase(r rune) bool {
	return r >= 0xA9 && unicode.Is(extendedPictographic, r)
}

// hasStandardizedVariants approximates, by block, the characters that take
// U+FE00–U+FE0D in StandardizedVariants.txt: CJK ideographs (the
// compatibility variants), CJK punctuation and fullwidth forms, mathematical
// operators, and the Myanmar, Phags-pa and Manichaean letters. The blocks
// hold characters without variants too, but a variation selector after a
// visible character of these blocks at most changes the glyph's shape. The
// few other bases (U+0030 DIGIT ZERO, the quotation marks) are left out:
// after them the selector is revealed, which is the safe side to err on.
func hasStandardizedVariants(r rune) bool {
	switch {
	case r >= 0x1000 && r <= 0x109F, // Myanmar
		r >= 0x2200 && r <= 0x22FF,   // Mathematical Operators
		r >= 0x2A00 && r <= 0x2AFF,   // Supplemental Mathematical Operators
		r >= 0x3000 && r <= 0x303F,   // CJK Symbols and Punctuation
		r >= 0xA840 && r <= 0xA87F,   // Phags-pa
		r >= 0xA9E0 && r <= 0xA9FF,   // Myanmar Extended-B
		r >= 0xAA60 && r <= 0xAA7F,   // Myanmar Extended-A
		r >= 0xF900 && r <= 0xFAFF,   // CJK Compatibility Ideographs
		r >= 0xFF00 && r <= 0xFFEF,   // Halfwidth and Fullwidth Forms
		r >= 0x10AC0 && r <= 0x10AFF, // Manichaean
		r >= 0x2F800 && r <= 0x2FA1F: // CJK Compatibility Ideographs Supplement
		return true
	}
	return unicode.Is(unicode.Unified_Ideograph, r)
}

// extendedPictographic is Unicode 15.0's Extended_Pictographic property.
// Neither the unicode package nor uniseg exports it, so the table was
// derived from uniseg's grapheme clustering, which uses it: r is
// Extended_Pictographic exactly when r, ZWJ, U+2764 form one grapheme
// cluster (rule GB11). TestExtendedPictographicMatchesUniseg checks every
// code point the same way.
var extendedPictographic = &unicode.RangeTable{
	R16: []unicode.Range16{
		{0x00a9, 0x00a9, 1}, {0x00ae, 0x00ae, 1}, {0x203c, 0x203c, 1}, {0x2049, 0x2049, 1},
		{0x2122, 0x2122, 1}, {0x2139, 0x2139, 1}, {0x2194, 0x2199, 1}, {0x21a9, 0x21aa, 1},
		{0x231a, 0x231b, 1}, {0x2328, 0x2328, 1}, {0x2388, 0x2388, 1}, {0x23cf, 0x23cf, 1},
		{0x23e9, 0x23f3, 1}, {0x23f8, 0x23fa, 1}, {0x24c2, 0x24c2, 1}, {0x25aa, 0x25ab, 1},
		{0x25b6, 0x25b6, 1}, {0x25c0, 0x25c0, 1}, {0x25fb, 0x25fe, 1}, {0x2600, 0x2605, 1},
		{0x2607, 0x2612, 1}, {0x2614, 0x2685, 1}, {0x2690, 0x2705, 1}, {0x2708, 0x2712, 1},
		{0x2714, 0x2714, 1}, {0x2716, 0x2716, 1}, {0x271d, 0x271d, 1}, {0x2721, 0x2721, 1},
		{0x2728, 0x2728, 1}, {0x2733, 0x2734, 1}, {0x2744, 0x2744, 1}, {0x2747, 0x2747, 1},
		{0x274c, 0x274c, 1}, {0x274e, 0x274e, 1}, {0x2753, 0x2755, 1}, {0x2757, 0x2757, 1},
		{0x2763, 0x2767, 1}, {0x2795, 0x2797, 1}, {0x27a1, 0x27a1, 1}, {0x27b0, 0x27b0, 1},
		{0x27bf, 0x27bf, 1}, {0x2934, 0x2935, 1}, {0x2b05, 0x2b07, 1}, {0x2b1b, 0x2b1c, 1},
		{0x2b50, 0x2b50, 1}, {0x2b55, 0x2b55, 1}, {0x3030, 0x3030, 1}, {0x303d, 0x303d, 1},
		{0x3297, 0x3297, 1}, {0x3299, 0x3299, 1},
	},
	R32: []unicode.Range32{
		{0x1f000, 0x1f0ff, 1}, {0x1f10d, 0x1f10f, 1}, {0x1f12f, 0x1f12f, 1}, {0x1f16c, 0x1f171, 1},
		{0x1f17e, 0x1f17f, 1}, {0x1f18e, 0x1f18e, 1}, {0x1f191, 0x1f19a, 1}, {0x1f1ad, 0x1f1e5, 1},
		{0x1f201, 0x1f20f, 1}, {0x1f21a, 0x1f21a, 1}, {0x1f22f, 0x1f22f, 1}, {0x1f232, 0x1f23a, 1},
		{0x1f23c, 0x1f23f, 1}, {0x1f249, 0x1f3fa, 1}, {0x1f400, 0x1f53d, 1}, {0x1f546, 0x1f64f, 1},
		{0x1f680, 0x1f6ff, 1}, {0x1f774, 0x1f77f, 1}, {0x1f7d5, 0x1f7ff, 1}, {0x1f80c, 0x1f80f, 1},
		{0x1f848, 0x1f84f, 1}, {0x1f85a, 0x1f85f, 1}, {0x1f888, 0x1f88f, 1}, {0x1f8ae, 0x1f8ff, 1},
		{0x1f90c, 0x1f93a, 1}, {0x1f93c, 0x1f945, 1}, {0x1f947, 0x1faff, 1}, {0x1fc00, 0x1fffd, 1},
	},
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
	escapes []span // byte ranges of escapes in the output, kept whole by truncation (but see tags)
	// bareSlash says the output ends with a backslash of the input written
	// once: an escape written next must double it first.
	bareSlash bool
	// jsonText says the input is JSON text, whose backslashes need no
	// doubling (see revealJSON).
	jsonText bool
}

// span is the byte range of an escape in the output. tags marks a
// \hidden{…} escape, which truncation may cut inside.
type span struct {
	start, end int
	tags       bool
}

// full reports whether the output holds more than max runes, so that it
// must be cut.
func (t *sanitizer) full() bool { return t.runes > t.max }

// done reports whether the output holds all that result needs to cut it:
// more than max+textfmt.MaxClusterRunes runes, so that the whole cluster
// the cut falls in is seen, or enough of it to know it is too long to keep
// whole. Only then is the cut the one textfmt.Truncate makes.
func (t *sanitizer) done() bool { return t.runes-textfmt.MaxClusterRunes > t.max }

func (t *sanitizer) run() {
	s := t.src
	t.prev = -1
	for i := 0; i < len(s) && !t.done(); {
		if c := s[i]; c > ' ' && c < 0x7f {
			// A run of printable ASCII, at most as long as the output
			// still needs.
			j, end := i+1, len(s)
			if room := t.max - t.runes; room < len(s)-i-textfmt.MaxClusterRunes-2 {
				end = i + room + textfmt.MaxClusterRunes + 2
			}
			for j < end && s[j] > ' ' && s[j] < 0x7f {
				j++
			}
			t.space()
			if t.policy == Reveal && !t.jsonText {
				t.writeASCII(s, i, j)
			} else {
				t.write(s[i:j])
				t.runes += j - i
			}
			t.prev = rune(s[j-1])
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			if t.policy == Reveal {
				t.invalidByte(s[i])
			} else {
				t.text(utf8.RuneError, "\uFFFD")
			}
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
			if n := flagTagsLen(s[i+size:]); n > 0 {
				t.text(cancelTag, s[i:i+size+n])
				size += n
			} else {
				t.text(r, s[i:i+size])
			}
		case isTagText(r) && t.policy == Reveal:
			size = t.tagRun(s, i) - i
		case isVariationSelector(r):
			if !t.pending && validVariation(t.prev, r, s[i+size:]) {
				t.text(r, s[i:i+size])
			} else {
				t.hidden(r)
			}
		case isHidden(r):
			t.hidden(r)
		default:
			t.text(r, s[i:i+size])
		}
		i += size
	}
}

// tagRun reveals the run of tag characters at s[i:] as \hidden{…} (see
// SafeText) and returns the index after it. It decodes no more of the run
// than the output can show: a longer run stops the sanitizer, and the
// escape is left open for result to cut.
func (t *sanitizer) tagRun(s string, i int) int {
	room := t.max - t.runes // content bytes beyond which the output is cut
	var b [64]byte
	e := append(b[:0], hiddenOpen...)
	afterSpace, closed := false, true
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isTagText(r) {
			break
		}
		if len(e)-len(hiddenOpen) > room {
			closed = false
			break
		}
		c := byte(r - tagBase)
		switch {
		case c == '\\' || c == '}', c == ' ' && afterSpace:
			e = append(e, '\\', c)
		default:
			e = append(e, c)
		}
		afterSpace = c == ' '
		i += size
	}
	if closed {
		e = append(e, '}')
	}
	t.writeEscape(unsafeString(e), true) // writeEscape copies it
	return i
}

// joinsNext reports whether the text after a ZWJ or ZWNJ starts with a
// visible non-ASCII character, as in emoji sequences and the scripts that
// use joiners.
func joinsNext(rest string) bool {
	r, _ := utf8.DecodeRuneInString(rest)
	return r >= 0xA0 && r != utf8.RuneError && !unicode.IsSpace(r) && !isHidden(r)
}

// The tag sequences of the recommended (RGI) flags: the tag letters of
// gbeng, gbsct and gbwls and the cancel tag.
const (
	tagsEngland  = "\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F"
	tagsScotland = "\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
	tagsWales    = "\U000E0067\U000E0062\U000E0077\U000E006C\U000E0073\U000E007F"
)

// flagTagsLen returns the byte length of the tag sequence of a recommended
// flag at the start of rest, or 0. Other tag sequences are valid Unicode
// but no font draws them as flags: they would show a black flag and hide
// the tags.
func flagTagsLen(rest string) int {
	if strings.HasPrefix(rest, tagsEngland) || strings.HasPrefix(rest, tagsScotland) ||
		strings.HasPrefix(rest, tagsWales) {
		return len(tagsEngland)
	}
	return 0
}

// Tag characters: U+E0020–U+E007E mirror printable ASCII (SafeText
// reveals them decoded, in hiddenOpen and "}").
const (
	tagBase    = 0xE0000
	hiddenOpen = `\hidden{`
)

// isTagText reports whether r is a tag character that mirrors printable
// ASCII.
func isTagText(r rune) bool { return r >= tagBase+0x20 && r <= tagBase+0x7E }

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
	t.hexEscape(`\u{`, uint64(r))
}

// invalidByte reveals a byte that is not part of valid UTF-8.
func (t *sanitizer) invalidByte(b byte) {
	t.hexEscape(`\x{`, uint64(b))
}

// hexEscape writes the escape prefix, v in upper-case hexadecimal, "}".
func (t *sanitizer) hexEscape(prefix string, v uint64) {
	var b [16]byte
	e := append(b[:0], prefix...)
	e = strconv.AppendUint(e, v, 16)
	e = append(e, '}')
	for i := len(prefix); i < len(e)-1; i++ {
		if e[i] >= 'a' {
			e[i] -= 'a' - 'A'
		}
	}
	t.escape(unsafeString(e)) // escape copies it
}

// writeASCII writes the printable ASCII s[i:j] under Reveal, doubling each
// backslash that the output would otherwise read as the start of an escape.
// A backslash that ends the run is doubled later if an escape follows it.
func (t *sanitizer) writeASCII(s string, i, j int) {
	t.bareSlash = false
	for i < j {
		k := strings.IndexByte(s[i:j], '\\')
		if k < 0 {
			t.write(s[i:j])
			t.runes += j - i
			return
		}
		k += i + 1 // just after the backslash
		t.write(s[i:k])
		t.runes += k - i
		i = k
		if startsEscape(s[i:]) {
			t.doubleSlash()
		} else if i == j {
			t.bareSlash = true
		}
	}
}

// startsEscape reports whether rest, following a backslash, would make it
// read as an escape.
func startsEscape(rest string) bool {
	if rest == "" {
		return false
	}
	switch rest[0] {
	case '\\', 'n', 'r':
		return true
	case 'u', 'x':
		return len(rest) > 1 && rest[1] == '{'
	case 'h':
		return strings.HasPrefix(rest, hiddenOpen[1:])
	}
	return false
}

// addEscape records the byte range of an escape in the output.
func (t *sanitizer) addEscape(start, end int) {
	if t.escapes == nil {
		t.escapes = make([]span, 0, 16) // one allocation for most texts
	}
	t.escapes = append(t.escapes, span{start: start, end: end})
}

// doubleSlash writes a second backslash after the one the output ends with;
// truncation keeps the pair whole.
func (t *sanitizer) doubleSlash() {
	t.addEscape(t.size()-1, t.size()+1)
	t.write(`\`)
	t.runes++
	t.bareSlash = false
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
func (t *sanitizer) escape(e string) { t.writeEscape(e, false) }

// writeEscape writes the ASCII escape e; tags says it is hidden text,
// which truncation may cut inside.
func (t *sanitizer) writeEscape(e string, tags bool) {
	t.space()
	if t.bareSlash {
		t.doubleSlash()
	}
	t.addEscape(t.size(), t.size()+len(e))
	t.escapes[len(t.escapes)-1].tags = tags
	t.write(e)
	t.runes += len(e)
	t.prev = -1
}

// text writes a visible character (or a flag with its tag sequence) whose
// encoding is enc.
func (t *sanitizer) text(r rune, enc string) {
	t.space()
	t.bareSlash = false
	t.write(enc)
	t.runes += utf8.RuneCountInString(enc)
	t.prev = r
}

func (t *sanitizer) space() {
	if t.pending && t.size() > 0 {
		t.write(" ")
		t.runes++
		t.prev = ' '
		t.bareSlash = false
	}
	t.pending = false
}

// result returns the output, cut to max runes at a unit boundary when it is
// longer. Text between escapes is cut by textfmt.FitPrefix, as Truncate
// cuts, and each escape is one unit, kept whole or dropped, except that
// hidden text is cut inside its escape (see cutHidden). Marks that followed
// a hidden character attach to the escape's closing brace: the cluster they
// make with it goes with the escape, by the same rule as any cluster.
func (t *sanitizer) result() string {
	out := t.output()
	if !t.full() {
		return out // buf is not written again, or out is a prefix of the input
	}
	cut, runes := 0, 0
	for next := 0; ; next++ {
		// The text up to the next escape.
		end := len(out)
		if next < len(t.escapes) {
			end = t.escapes[next].start
		}
		if cut < end {
			n, r := textfmt.FitPrefix(out[cut:end], t.max-runes)
			cut += n
			runes += r
			if cut < end {
				break
			}
		}
		if next == len(t.escapes) {
			break
		}
		// The escape, less its last byte, then from that byte on the text
		// up to the escape after it, which starts with the cluster the
		// last byte begins.
		e := t.escapes[next]
		body := e.end - 1 - e.start // ASCII: bytes are runes
		end = len(out)
		if next+1 < len(t.escapes) {
			end = t.escapes[next+1].start
		}
		n, r := 0, 0
		if room := t.max - runes - body; room > 0 {
			n, r = textfmt.FitPrefix(out[e.end-1:end], room)
		}
		if n == 0 {
			if e.tags {
				if end, ok := t.cutHidden(out, e, runes); ok {
					return out[:end] + textfmt.Ellipsis + "}"
				}
			}
			break
		}
		cut = e.end - 1 + n
		runes += body + r
		if cut < end {
			break
		}
	}
	return strings.TrimRight(out[:cut], " ") + textfmt.Ellipsis
}

// cutHidden returns where to cut inside the \hidden{…} escape e, which
// does not fit after the runes of output before it: after the most whole
// characters of its text (\\, \} and \ count as one) that leave room for
// "…}" within max+1 runes. ok is false when not even \hidden{…} fits.
func (t *sanitizer) cutHidden(out string, e span, runes int) (end int, ok bool) {
	room := t.max - 1 - runes - len(hiddenOpen) // for the text, in bytes (ASCII)
	if room < 0 {
		return 0, false
	}
	end = e.start + len(hiddenOpen)
	for used := 0; end < e.end && out[end] != '}'; {
		n := 1
		if out[end] == '\\' {
			n = 2
		}
		if used+n > room {
			break
		}
		used += n
		end += n
	}
	return end, true
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

// OutputText returns s as every output of the dispatcher shows text: each
// credential the one redaction rule finds in it replaced by its size, the
// text read as a person reads it (a credential split by hidden characters
// included), then made safe by SafeText under policy within max
// characters. A host that shows a call's text beside the dispatcher's
// outputs (its tool name, a failure's owner) shows it so.
func OutputText(s string, policy TextPolicy, max int) string { return outputText(s, policy, max) }

// outputText is text as every output of the dispatcher shows it: each
// credential replaced by its size (redactText, the one redaction rule),
// then made safe under policy p within n characters. Redacting comes first
// so that a cut cannot leave a prefix of a credential that the rule no
// longer recognizes.
func outputText(s string, p TextPolicy, n int) string { return safeRedacted(redactText(s), p, n) }

// scrubbedText is outputText of a text written from a call, whose
// credentials sc holds (see callSecrets).
func scrubbedText(sc *textfmt.Scrubber, s string, p TextPolicy, n int) string {
	return safeRedacted(scrub(sc, s), p, n)
}

// printableASCII reports whether s holds only printable ASCII characters
// and spaces: text that Strip can only trim and fold, which joins nothing.
func printableASCII(s string) bool {
	for i := range len(s) {
		if c := s[i]; c < ' ' || c > '~' {
			return false
		}
	}
	return true
}

// safeRedacted makes redacted text safe. Stripped text is redacted once
// more, in case what Strip removes joined a credential that redactText did
// not read as one.
func safeRedacted(r string, p TextPolicy, n int) string {
	out := SafeText(r, p, n)
	if p == Strip && !printableASCII(r) {
		if again := textfmt.SecretText(out); again != out {
			out = SafeText(again, p, n)
		}
	}
	return out
}
