package textfmt

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/value"
	"github.com/rivo/uniseg"
)

// Ellipsis is appended to text that was truncated.
const Ellipsis = "…"

// Truncate returns text unchanged when it has at most n characters (runes);
// otherwise it keeps the longest prefix of whole units that has at most n
// characters (see FitPrefix) and appends Ellipsis. A grapheme cluster (a
// flag, an emoji with a skin tone, a letter with combining marks) is not
// split, so the kept prefix may be shorter than n; only a cluster longer
// than MaxClusterRunes runes, which no real text has, is cut like plain
// text so that what it hides is not dropped. n <= 0 gives Ellipsis for any
// non-empty text.
func Truncate(text string, n int) string {
	if n < 0 {
		n = 0
	}
	if len(text) <= n {
		return text // no more bytes than n, so no more runes
	}
	end, _, cut := fitPrefix(text, n)
	if !cut {
		return text
	}
	return text[:end] + Ellipsis
}

// FitPrefix returns the byte length end of the longest prefix of text that
// has at most n runes and is made of whole units, and the number of runes
// in that prefix. A unit is a grapheme cluster of at most MaxClusterRunes
// runes, or a single rune of a longer cluster: a cluster that long is a run
// of combining marks or tag characters hiding something, and is cut like
// plain text so that what it hides is kept up to the limit instead of being
// dropped with the cluster. When text has at most n runes, end is
// len(text). n <= 0 gives 0, 0.
//
// FitPrefix is the truncation rule of the module: Truncate and the cut of
// runtime.SafeText both use it. The text after the cut matters only to find
// the cluster the cut falls in, so text may itself be a prefix of a longer
// text provided it holds at least MaxClusterRunes runes past rune n (or all
// of the longer text): the result is then the same as for the longer text.
func FitPrefix(text string, n int) (end, runes int) {
	end, runes, _ = fitPrefix(text, n)
	return end, runes
}

// fitPrefix is FitPrefix that also reports whether text has more than n
// runes, so that the prefix is a cut.
func fitPrefix(text string, n int) (end, runes int, cut bool) {
	if n <= 0 {
		return 0, 0, text != ""
	}
	// Find the byte offset of rune n; if there is none, nothing to cut.
	at := 0
	for runes < n && at < len(text) {
		if text[at] < utf8.RuneSelf {
			at++
		} else {
			_, size := utf8.DecodeRuneInString(text[at:])
			at += size
		}
		runes++
	}
	if at >= len(text) {
		return len(text), runes, false
	}
	if asciiBoundary(text, at) {
		return at, n, true
	}
	// Keep whole clusters only. Segmentation needs the runes around the
	// cut, so walk clusters from the start of the text.
	end, runes, state := 0, 0, -1
	for rest := text; rest != ""; {
		cluster, next, _, st := uniseg.FirstGraphemeClusterInString(rest, state)
		c := utf8.RuneCountInString(cluster)
		if runes+c > n {
			if c > MaxClusterRunes {
				return at, n, true // rune n lies in this cluster
			}
			break
		}
		end += len(cluster)
		runes += c
		rest, state = next, st
	}
	return end, runes, true
}

// MaxClusterRunes is the longest grapheme cluster that truncation keeps
// whole. No script or emoji needs more (a family emoji has 11 runes);
// longer clusters are runs of combining marks or tag characters, which can
// carry hidden text. Such a cluster is cut at the limit like plain text, so
// what it hides reaches the sanitizer, which reveals it, instead of
// vanishing with the cluster.
const MaxClusterRunes = 32

// maxClusterRunes is MaxClusterRunes.
const maxClusterRunes = MaxClusterRunes

// asciiBoundary reports whether cut lies between two ASCII characters that
// cannot form one cluster, the common case that needs no segmentation.
func asciiBoundary(text string, cut int) bool {
	if text[cut] >= utf8.RuneSelf || text[cut-1] >= utf8.RuneSelf {
		return false
	}
	if text[cut-1] == '\r' && text[cut] == '\n' {
		return false
	}
	// A cluster may start before cut with non-ASCII runes (an emoji,
	// Hangul jamo); an ASCII rune right before cut ends any such cluster
	// except the CR LF case above.
	return true
}

// LineCount returns the number of lines of text: 0 for the empty string,
// otherwise the number of pieces when splitting on "\r\n", "\r" or "\n"
// (so "a\n" has 2 lines).
func LineCount(text string) int {
	if text == "" {
		return 0
	}
	// Each break is a "\n" or a "\r", except that "\r\n" is one break:
	// counted this way the standard library's vectorized search does the
	// work, which matters for a megabyte of content.
	breaks := strings.Count(text, "\n")
	if cr := strings.Count(text, "\r"); cr > 0 {
		breaks += cr - strings.Count(text, "\r\n")
	}
	return 1 + breaks
}

// CountPhrase returns "<n> <singular>" when n is 1 and "<n> <plural>"
// otherwise (0 is plural).
func CountPhrase(n int, singular, plural string) string {
	word := plural
	if n == 1 {
		word = singular
	}
	return strconv.Itoa(n) + " " + word
}

// NonEmptyString returns a string value with white space trimmed from both
// ends, and false when v is not a string or is blank. Only white space is
// trimmed: an invisible character such as U+FEFF at either end stays, for
// the sanitizer to reveal.
func NonEmptyString(v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		return "", false
	}
	s = strings.TrimFunc(s, isJSSpace)
	return s, s != ""
}

// PromptPath returns the non-empty string of input's "path", else of its
// "file_path"; a blank "path" falls back to "file_path".
func PromptPath(input *value.Object) (string, bool) {
	if v, ok := input.Get("path"); ok {
		if s, ok := NonEmptyString(v); ok {
			return s, true
		}
	}
	if v, ok := input.Get("file_path"); ok {
		return NonEmptyString(v)
	}
	return "", false
}

// Alternatives reads a value that agents send under different names (a
// path as path, file_path or filePath): the name and trimmed text of each
// of names, in order, whose field holds a string that is not blank. When
// they all hold the same text only the first is kept; when they differ
// each is kept, so that a decoy beside the field the agent reads is shown
// rather than silently passed over.
func Alternatives(names []string, field func(name string) (any, bool)) [][]string {
	out := [][]string{}
	same := true
	for _, name := range names {
		v, ok := field(name)
		if !ok {
			continue
		}
		s, ok := NonEmptyString(v)
		if !ok {
			continue
		}
		if len(out) > 0 && s != out[0][1] {
			same = false
		}
		out = append(out, []string{name, s})
	}
	if same && len(out) > 1 {
		out = out[:1]
	}
	return out
}

// InlineText prepares a pattern or glob for a one-line preview: runs of
// white space become one space, the ends are trimmed, empty text becomes
// "empty text", and the result is truncated to n characters.
func InlineText(text string, n int) string {
	if text != "" && collapsed(text) {
		return Truncate(text, n)
	}
	w := collapser{limit: cutLimit(n)}
	w.writeString(text)
	if len(w.buf) == 0 {
		return "empty text"
	}
	return w.result()
}

// Collapse folds every run of white space (line breaks included) into one
// space and trims the ends.
func Collapse(text string) string {
	if collapsed(text) {
		return text
	}
	w := collapser{limit: -1}
	w.writeString(text)
	return w.result()
}

// collapsed reports whether Collapse would return text as it is: no white
// space at either end, and none inside but single ASCII spaces. Most text
// is like that, and then needs no copy.
func collapsed(text string) bool {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] && (c != ' ' || i == 0 || i == len(text)-1 || text[i+1] == ' ' || asciiSpace[text[i+1]]) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if isJSSpace(r) {
			return false
		}
		i += size
	}
	return true
}

// isJSSpace reports whether r is white space or a line terminator as
// JavaScript's \s and String.prototype.trim define them, less U+FEFF: it is
// not White_Space in Unicode but an invisible format character, and
// trimming it would hide it from the sanitizer that reveals it. Every
// character here is White_Space, so trimming and folding only ever remove
// or merge white space.
func isJSSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x00A0, 0x1680, 0x2028, 0x2029,
		0x202F, 0x205F, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// collapser accumulates text with every run of white space folded into one
// space and leading and trailing white space dropped. With a limit it stops
// accepting text once it holds maxClusterRunes+1 characters more than the
// limit: enough to know the text must be truncated and where (Truncate looks
// that far past the cut to see whether a cluster is too long to keep
// whole), without reading the rest.
type collapser struct {
	buf     []byte
	limit   int // characters to keep; < 0 means no limit
	runes   int
	pending bool // white space seen since the last character
	// redact writes credentials, known by their field's name or a
	// sensitive object, as their size (see NewInputJSON).
	redact bool
}

// maxCut is the largest limit a collapser takes: no text is longer, and
// the sizes computed from a limit (UTFMax bytes a character, and a
// cluster's worth past it) do not overflow. A larger limit, which a
// formatter may compute from a model's input, is taken as maxCut.
const maxCut = 1 << 40

// cutLimit is a collapser's limit for a cut at n characters: -1 (no cut)
// stays -1.
func cutLimit(n int) int { return min(n, maxCut) }

// full reports whether the collapser has all it needs.
func (w *collapser) full() bool { return w.limit >= 0 && w.runes > w.limit+maxClusterRunes }

func (w *collapser) writeString(s string) {
	if w.buf == nil {
		// one allocation for what is kept: the text, or the part of it
		// the limit lets through
		n := len(s)
		if w.limit >= 0 {
			n = min(n, utf8.UTFMax*(w.limit+maxClusterRunes+1))
		}
		w.buf = make([]byte, 0, n)
	}
	for i := 0; i < len(s) && !w.full(); {
		c := s[i]
		if asciiSpace[c] {
			// A run of white space adds at most one space, however long
			// a model made it.
			i = skipBytes(s, i+1, &asciiSpace)
			w.pending = true
			continue
		}
		if c < utf8.RuneSelf {
			w.writeByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		w.writeRune(r, s[i:i+size])
		i += size
	}
}

// writeByte writes one ASCII character.
func (w *collapser) writeByte(c byte) {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		w.pending = true
		return
	}
	w.flushSpace()
	w.buf = append(w.buf, c)
	w.runes++
}

// writeRune writes a non-ASCII rune whose encoding is enc.
func (w *collapser) writeRune(r rune, enc string) {
	if isJSSpace(r) {
		w.pending = true
		return
	}
	w.flushSpace()
	w.buf = append(w.buf, enc...)
	w.runes++
}

func (w *collapser) flushSpace() {
	if w.pending && len(w.buf) > 0 {
		w.buf = append(w.buf, ' ')
		w.runes++
	}
	w.pending = false
}

// result returns the collected text, truncated to the limit.
func (w *collapser) result() string {
	s := string(w.buf)
	if w.limit < 0 {
		return s
	}
	return Truncate(s, w.limit)
}

// MCPValue renders one MCP argument value as the reference argument summary
// does: a string quoted and truncated to 60 characters (no escaping), a
// boolean as JavaScript prints it, a number as the call wrote it (a
// computed one as JavaScript prints it), null as null, a list as
// "[<n> items]" (also "[1 items]") and an object as "{…}".
func MCPValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return `"` + Truncate(v, 60) + `"`
	case value.Number:
		return v.String()
	case float64:
		return value.FormatNumber(v)
	case bool:
		return strconv.FormatBool(v)
	case []any:
		return "[" + strconv.Itoa(len(v)) + " items]"
	case *value.Object:
		return "{…}"
	}
	return ""
}

// asciiSpace marks ASCII white space: space, tab, line feed, vertical
// tab, form feed and carriage return.
var asciiSpace = func() (t [256]bool) {
	for _, c := range []byte(" \t\n\r\f\v") {
		t[c] = true
	}
	return t
}()

// skipBytes returns the index of the first byte of text at or after i that
// set does not hold.
func skipBytes(text string, i int, set *[256]bool) int {
	for i < len(text) && set[text[i]] {
		// Padding repeats one byte: skip a run of it eight at a time.
		c := text[i]
		for run := uint64(c) * 0x0101010101010101; i+8 <= len(text) && load64(text[i:]) == run; {
			i += 8
		}
		for i < len(text) && text[i] == c {
			i++
		}
	}
	return i
}

// load64 returns the first eight bytes of s as a little-endian word (the
// compiler turns it into one load).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func isSQLWordStart(c byte) bool {
	return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isSQLWordByte(c byte) bool { return isSQLWordStart(c) || (c >= '0' && c <= '9') }

// OneLine is the one-line summary of a text: InlineText of it, cut to n
// characters, or ok false when it is empty or only white space, so that a
// result with nothing to say declines rather than reads "empty text".
func OneLine(text string, n int) (line string, ok bool) {
	if strings.TrimSpace(text) == "" {
		return "", false
	}
	return InlineText(text, n), true
}

// ToolPart is the tool of an MCP key "server:tool": what follows the first
// ":", or the whole name when it has none ("github:create_issue" gives
// "create_issue", "read" gives "read", "srv:*" gives "*").
func ToolPart(name string) string {
	if i := strings.IndexByte(name, ':'); i >= 0 {
		return name[i+1:]
	}
	return name
}
