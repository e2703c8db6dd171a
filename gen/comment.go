package gen

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime"
)

// commentText returns catalog text (a title, a description, CEL source, an
// owner's name) as it may stand in one // comment line of generated Go:
// each character that is not printable on its own, or that safe text would
// reveal (a line break, a control or bidi character, one that renders as
// nothing), written as \u{XXXX}. A catalog that a plugin ships thus cannot
// end the comment and write code after it, nor make the reviewer of the
// generated file read something other than what the compiler reads.
func commentText(s string) string {
	if commentSafe(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x{%02X}`, s[i])
		case commentRune(r):
			b.WriteString(s[i : i+size])
		default:
			fmt.Fprintf(&b, `\u{%X}`, r)
		}
		i += size
	}
	return b.String()
}

// commentLine is commentText for a whole comment line: one that starts
// with // or /* would be written by jennifer as it is, and /* opens a
// block comment, so it is written after a space.
func commentLine(s string) string {
	s = commentText(s)
	if strings.HasPrefix(s, "/") {
		return " " + s
	}
	return s
}

// commentSafe reports whether s needs no escape in a comment line.
func commentSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' || c >= 0x7f {
			return strings.IndexFunc(s, func(r rune) bool { return !commentRune(r) }) < 0 && utf8.ValidString(s)
		}
	}
	return true
}

// commentRune reports whether r may stand in a comment line as it is.
func commentRune(r rune) bool {
	switch {
	case r == '\t' || r >= 0x20 && r < 0x7f:
		return true
	case r < 0xa0 || r == utf8.RuneError || !unicode.IsPrint(r):
		return false
	}
	// What safe text changes on its own (a Hangul filler, a lone
	// variation selector) renders as nothing or as something else.
	return runtime.SafeText(string(r), runtime.Reveal, 0) == string(r)
}
