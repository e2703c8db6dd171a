package textfmt

import (
	"strings"
	"unicode/utf8"
)

// XDDevice returns the device that oh-my-pi's write tool runs for a write
// to path, and whether it runs one: the write's content is then the
// device's JSON arguments, not a file's text. The path is read the way
// oh-my-pi reads it before it routes the write, so that no spelling the
// agent accepts can hide a device call behind what reads as a file:
//
//  1. a hashline header around the path, "[PATH]" or "[PATH#XXXX]" with a
//     tag of four hexadecimal digits, is unwrapped (white space may follow
//     the "]", none may come before the "[");
//  2. white space is trimmed from both ends as JavaScript's trim does,
//     U+FEFF included;
//  3. the scheme "xd://" is matched in any case ("XD://", "Xd://");
//  4. the name after it has no "/", "?" or "#" (oh-my-pi refuses those
//     writes), and is percent-decoded as decodeURIComponent decodes it
//     ("%62ash" is "bash"; a malformed escape or one that decodes to
//     invalid UTF-8 is refused);
//  5. an empty name ("xd://", the list of devices) runs none.
//
// Any other path is a file write: "xd:/bash", "xdx://bash", "xd:bash",
// " [xd://bash]".
func XDDevice(path string) (string, bool) {
	route := trimJS(unwrapHashlineHeader(path))
	// JavaScript lower-cases the whole path before it compares, but only
	// "X" and "D" lower-case to what the scheme holds.
	if len(route) < len(xdScheme) || lowerASCII(route[:len(xdScheme)]) != xdScheme {
		return "", false
	}
	route = route[len(xdScheme):]
	if strings.ContainsAny(route, "/?#") {
		return "", false
	}
	name, ok := decodeURIComponent(route)
	if !ok || name == "" {
		return "", false
	}
	return name, true
}

// xdScheme is the prefix of oh-my-pi's device URLs, in lower case.
const xdScheme = "xd://"

// hashTagLen is the length of the tag of a hashline header: "#" and four
// hexadecimal digits.
const hashTagLen = 5

// unwrapHashlineHeader returns the path inside a hashline header, "[PATH]"
// or "[PATH#XXXX]", or path itself when it is not one. As oh-my-pi's
// unwrapHashlineHeaderPath, only the end is trimmed before the brackets
// are looked for, and a path that is empty or holds a "#" of its own is
// left wrapped: the header is then not a header, and the write goes to the
// file of that name.
func unwrapHashlineHeader(path string) string {
	t := strings.TrimRightFunc(path, isTrimmedByJS)
	if len(t) < 2 || t[0] != '[' || t[len(t)-1] != ']' {
		return path
	}
	inner := t[1 : len(t)-1]
	if n := len(inner); n >= hashTagLen && inner[n-hashTagLen] == '#' && allHex(inner[n-hashTagLen+1:]) {
		inner = inner[:n-hashTagLen]
	}
	if inner == "" || strings.Contains(inner, "#") {
		return path
	}
	return inner
}

// lowerASCII lower-cases the ASCII letters of s.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// allHex reports whether s is made of hexadecimal digits, in either case.
func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// trimJS trims s as JavaScript's String.prototype.trim does.
func trimJS(s string) string { return strings.TrimFunc(s, isTrimmedByJS) }

// isTrimmedByJS reports whether JavaScript's trim removes r: its white
// space and line terminators, which, unlike isJSSpace, include U+FEFF.
// Here the text is not shown but routed, and what oh-my-pi ignores must be
// ignored too.
func isTrimmedByJS(r rune) bool { return r == 0xFEFF || isJSSpace(r) }

// decodeURIComponent decodes the percent escapes of s as JavaScript's
// decodeURIComponent does: every "%" starts an escape of two hexadecimal
// digits, and the bytes the escapes stand for must be UTF-8. It reports
// false where decodeURIComponent throws.
func decodeURIComponent(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	// A JavaScript string holds no invalid UTF-8; what the model sent as
	// such reached the agent as U+FFFD.
	s = strings.ToValidUTF8(s, "\uFFFD")
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		if !isHex(s[i+1]) || !isHex(s[i+2]) {
			return "", false
		}
		b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
		i += 2
	}
	// The text between escapes is valid, so invalid UTF-8 here comes from
	// the escapes: a lone continuation byte, a sequence cut short, an
	// overlong form or a surrogate, all of which decodeURIComponent
	// refuses.
	if !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}

// CouldBeXDDevice reports whether a path still arriving (a prefix of the
// path a write will have) could yet be one that XDDevice routes to a
// device: whether, read as XDDevice reads it, it is a prefix of "xd://" in
// some case, or starts with it. A row drawn before that is known would
// show a file write that never happens. It is stricter than oh-my-pi's
// couldBecomeXdUrl, which does not look past white space or a hashline
// header: whatever XDDevice may route, it holds back.
func CouldBeXDDevice(prefix string) bool {
	t := prefix
	if strings.HasPrefix(t, "[") {
		t = t[1:] // a hashline header that may still close
	}
	t = strings.TrimLeftFunc(t, isTrimmedByJS)
	n := min(len(t), len(xdScheme))
	return lowerASCII(t[:n]) == xdScheme[:n]
}
