package runtime

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// The one redaction rule is textfmt's (SecretName, SecretShape, RedactValue,
// Secrets). The dispatcher applies it to every text it returns, in two
// ways:
//
//   - to the text itself (redactText): the credentials the rule finds in
//     it, read as a person reads it;
//   - to a text written from a call (a formatter's preview, row, result or
//     expanded lines, the default preview, a failure's message): the
//     credentials the call carries, by name, by a sensitive flag or by
//     shape in its input, its tool name and target, and its result, found
//     once (callSecrets) and replaced wherever the text shows them, whole
//     or cut (textfmt.Scrubber): a formatter that shows a password without
//     its name, or a JSON-in-a-string whose quotes are escaped, hides
//     nothing from the rule.

// redactText returns s with every credential the rule finds in it replaced
// by its size (textfmt.SecretText), the text read as a person reads it:
// also a credential that only shows once the characters SafeText reveals
// or strips (a zero-width space, a bidi control, a soft hyphen, an escape
// sequence) are taken out, so that a model cannot split one past the rule
// with them. Such a credential is replaced with the hidden characters
// inside it.
func redactText(s string) string { return scrub(nil, s) }

// scrub returns s with the credentials sc holds replaced (nil holds none),
// and those the rule finds in s (see redactText): all of them found in s
// as it is, so that replacing one cannot hide another.
func scrub(sc *textfmt.Scrubber, s string) string { return sc.ScrubWith(s, hiddenSpans(s)) }

// redactHidden replaces the credentials of s that only show once its
// hidden characters are taken out, for text that SecretText has redacted
// already (a value of textfmt.RedactValue).
func redactHidden(s string) string {
	if spans := hiddenSpans(s); spans != nil {
		return (*textfmt.Scrubber)(nil).ScrubWith(s, spans)
	}
	return s
}

// hiddenSpans returns the spans of s that hold a credential the rule finds
// once the hidden characters are taken out (see visible), or nil.
func hiddenSpans(s string) []textfmt.Span {
	if !hasHidden(s) {
		return nil
	}
	view, at := visible(s)
	spans := textfmt.SecretShape(view)
	for i, sp := range spans {
		spans[i] = textfmt.Span{Start: at[sp.Start], End: at[sp.End-1] + 1}
	}
	return spans
}

// hasHidden reports whether s holds a character that visible drops.
func hasHidden(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if hiddenByte(c) {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if hiddenRune(r) {
			return true
		}
		i += size
	}
	return false
}

// hiddenByte reports whether the ASCII byte c is hidden: ESC, DEL and the
// control characters that are neither white space nor a line break.
func hiddenByte(c byte) bool {
	return c == 0x1B || c == 0x7F || c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r'
}

// hiddenRune reports whether the non-ASCII rune r is hidden: a C1 control
// (escape sequence introducers included) other than U+0085, a line break,
// or a character that renders as nothing (isHidden).
func hiddenRune(r rune) bool { return r >= 0x80 && r <= 0x9F && r != 0x85 || isHidden(r) }

// visible returns s without its hidden characters, as the Strip policy
// drops them (an escape sequence whole), and at, the index in s of each of
// its bytes. White space and line breaks stay: they end a credential as
// the space Strip makes of them does.
func visible(s string) (view string, at []int) {
	b := make([]byte, 0, len(s))
	at = make([]int, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == 0x1B:
				i = skipEscapeSequence(s, i)
			case hiddenByte(c):
				i++
			default:
				b, at = append(b, c), append(at, i)
				i++
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case isC1Introducer(r):
			i = skipEscapeSequence(s, i)
			continue
		case hiddenRune(r):
		default:
			for k := range size {
				b, at = append(b, s[i+k]), append(at, i+k)
			}
		}
		i += size
	}
	return string(b), at
}

// callSecrets returns the scrubber of the credentials a call carries (see
// textfmt.Secrets): in its input (its value, or its text when it is not
// JSON), its tool name and target and, when res is not nil, its result;
// also those that hidden characters split (see redactText), as written and
// as read, and those of the JSON a string holds (see extraSecrets); each
// also as Go quotes it. It is nil when there are none, which costs no
// allocation.
func callSecrets(c *Call, in value.Input, res *value.Object) *textfmt.Scrubber {
	if res == nil && secretShortcuts && plainCall(c) {
		return nil
	}
	return readSecrets(c, in, res)
}

// secretShortcuts lets callSecrets pass over what cannot hold a
// credential (plainCall, and the clean strings extraSecrets reads); the
// tests turn it off to hold the shortcuts to the full reading.
var secretShortcuts = true

// readSecrets is callSecrets without its shortcut for plain calls: it
// reads every string and key.
func readSecrets(c *Call, in value.Input, res *value.Object) *textfmt.Scrubber {
	secrets := textfmt.SecretsWithin(in.Value, maxSecretText)
	if in.Err != nil {
		secrets = append(secrets, textfmt.SecretsWithin(in.Raw, maxSecretText)...)
	}
	for _, s := range [2]string{c.Tool, c.Target} {
		if s != "" {
			secrets = append(secrets, textfmt.Secrets(s)...)
		}
	}
	if res != nil {
		secrets = append(secrets, textfmt.Secrets(res)...)
	}
	x := extraSecrets{budget: maxSecretText}
	x.walk(in.Value, 0, 0)
	if in.Err != nil {
		x.text(in.Raw, 0)
	}
	x.text(c.Tool, 0)
	x.text(c.Target, 0)
	if res != nil {
		x.walk(res, 0, 0)
	}
	for _, s := range secrets {
		// A credential by name that hidden characters split is shown
		// so by an output that strips them as it reads.
		if hasHidden(s) {
			x.add(visibleText(s))
		}
	}
	secrets = append(secrets, x.list...)
	if secrets == nil {
		return nil
	}
	// A formatter's error quotes what it read as Go quotes it (%q).
	for _, s := range secrets {
		if q := strconv.Quote(s); q[1:len(q)-1] != s {
			secrets = append(secrets, q[1:len(q)-1])
		}
	}
	return textfmt.NewScrubber(secrets)
}

// plainCall reports whether callSecrets finds nothing in a call, by one
// pass over the JSON text of its input, tool name and target, which hold
// none of what the rules start from. Every credential the rules find, by
// shape, by name or in the JSON of a string, has a trigger (see
// textfmt.HasTrigger) in the text the value decodes to, except a sensitive
// object's value; and decoded text has no trigger that its JSON lacks
// unless an escape writes a letter, a slash or a backslash (\u0065, \/,
// and \\ in JSON that a string holds), hidden characters split one, or a
// letter folds to another only outside ASCII. Most calls hold none of
// these, and are so spared reading every string and key of their value
// for credentials.
func plainCall(c *Call) bool {
	if !cleanText(c.Tool, false) || !cleanText(c.Target, false) {
		return false
	}
	switch v := c.Input.(type) {
	case []byte:
		return cleanText(unsafe.String(unsafe.SliceData(v), len(v)), true)
	case json.RawMessage:
		return cleanText(unsafe.String(unsafe.SliceData(v), len(v)), true)
	case string:
		return cleanText(v, true)
	case value.Input:
		// The JSON text the host decoded the value from, or one that
		// holds it (see value.Input).
		return v.Err == nil && v.Raw != "" && cleanText(v.Raw, true)
	}
	// Without the text, a decoded value is read by readSecrets, which
	// passes over its clean strings at about the cost of a walk that
	// looks for them.
	return false
}

// cleanText reports whether s is plainASCII without a trigger.
func cleanText(s string, escaped bool) bool { return plainASCII(s, escaped) && !textfmt.HasTrigger(s) }

// plainASCII reports whether s is printable ASCII (white space included)
// without the word sensitive in any case. In JSON text (escaped), \", \n,
// \t and \r are the only escapes it may hold; in decoded text, no
// backslash, as a string's text may be JSON with escapes of its own.
func plainASCII(s string, escaped bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf || hiddenByte(c):
			return false
		case c == '\\':
			// \" and the white space escapes write no letter, slash or
			// backslash: the JSON a string holds has no escape then.
			if !escaped || i+1 == len(s) || s[i+1] != '"' && s[i+1] != 'n' && s[i+1] != 't' && s[i+1] != 'r' {
				return false
			}
			i++
		case (c == 's' || c == 'S') && len(s)-i >= len("sensitive") && strings.EqualFold(s[i:i+len("sensitive")], "sensitive"):
			return false
		}
	}
	return true
}

// jsonStart reports whether s starts, after white space, as a JSON object
// or array does: the strings extraSecrets reads as JSON.
func jsonStart(s string) bool {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i < len(s) && (s[i] == '{' || s[i] == '[')
}

// visibleText is s without its hidden characters (see visible).
func visibleText(s string) string {
	view, _ := visible(s)
	return view
}

// maxSecretText bounds the text of a call that callSecrets reads for
// credentials by their shape (and for those that hidden characters split
// or a string's JSON holds): the first 16 KiB, more than the outputs of a
// call show together. The credentials that names and sensitive objects
// mark are all found, whatever the input's size, and SecretText finds the
// shapes past the bound in the output itself, so that a megabyte of input
// costs what its first 16 KiB do.
const maxSecretText = 16 << 10

// Bounds of the JSON that extraSecrets reads in strings: the first
// maxStringJSON bytes of a string, in strings nested maxStringJSONDepth
// deep (JSON in a string of JSON in a string).
const (
	maxStringJSON      = 64 << 10
	maxStringJSONDepth = 2
)

// extraSecrets collects the credentials of a value that textfmt.Secrets,
// which reads each string as text, does not list:
//
//   - those that hidden characters split, in its strings and keys;
//   - those of the JSON object or array a string holds, read as a value
//     (a call that a wrapper carries as JSON text, the body of a request):
//     its sensitive values and name-value pairs too. The JSON is read from
//     the start of the string (a prefix of maxStringJSON bytes), so that
//     padding after a credential does not hide it.
type extraSecrets struct {
	list   []string
	budget int // bytes of text left to read
}

// add records a credential and the forms an output may show it in, as
// textfmt.Secrets does: folded as collapse folds white space, and escaped
// as compact JSON escapes it.
func (x *extraSecrets) add(s string) {
	if s == "" {
		return
	}
	quoted := textfmt.CompactJSON(s)
	x.list = append(x.list, s, textfmt.Collapse(s), quoted[1:len(quoted)-1])
}

// walk reads v, found in strings nested nesting deep.
func (x *extraSecrets) walk(v any, depth, nesting int) {
	if depth > value.MaxDepth {
		return
	}
	switch v := v.(type) {
	case string:
		x.text(v, nesting)
	case []any:
		for _, e := range v {
			x.walk(e, depth+1, nesting)
		}
	case *value.Object:
		for k, e := range v.All() {
			x.text(k, nesting)
			x.walk(e, depth+1, nesting)
		}
	}
}

// text reads a string found nesting deep in strings.
func (x *extraSecrets) text(s string, nesting int) {
	if x.budget <= 0 {
		return
	}
	// Hidden characters are looked for as far as the bound, which a
	// single long string would otherwise overrun.
	head := s[:min(len(s), x.budget)]
	x.budget -= max(len(s), 1)
	if secretShortcuts && len(head) == len(s) && plainASCII(s, false) && (!jsonStart(s) || !textfmt.HasTrigger(s)) {
		// No hidden characters, and no JSON with a credential in it: the
		// JSON a plain string holds has no escapes, so its text has no
		// trigger the string lacks.
		return
	}
	if hasHidden(head) {
		view, at := visible(head)
		for _, sp := range textfmt.SecretShape(view) {
			written := head[at[sp.Start] : at[sp.End-1]+1]
			x.add(written)
			x.add(view[sp.Start:sp.End])
			// What the rule, reading the credential as written, leaves
			// of it (the end of a key whose start alone has its
			// shape): a formatter that redacts the text it shows
			// shows that.
			last := 0
			for _, part := range textfmt.SecretShape(written) {
				x.add(written[last:part.Start])
				last = part.End
			}
			if last > 0 {
				x.add(written[last:])
			}
		}
	}
	if nesting == maxStringJSONDepth {
		return
	}
	if !jsonStart(s) {
		return
	}
	i := len(s) - len(strings.TrimLeft(s, " \t\n\r"))
	in := value.DecodePartialInput(s[i:min(len(s), i+maxStringJSON)])
	if in.Err != nil || in.Value == nil {
		return
	}
	x.list = append(x.list, textfmt.Secrets(in.Value)...)
	x.walk(in.Value, 0, nesting+1)
}
