package textfmt

import (
	"unsafe"

	"github.com/permgen/permgen/runtime/value"
)

// InputJSON is the compact JSON of a tool's input as the default previews
// show it, serialized once for cuts at any limit up to the one it was made
// for: the preview and the log context of one call ask about the same
// text at their own limits. A default preview shows the JSON when it fits
// (Fits), and otherwise the input's fields (see Fields), unless the room is
// too small for them: then it shows a cut of the JSON (Cut), as the
// reference does.
type InputJSON struct {
	buf   []byte // the serialized text, or as much of it as a cut reads
	runes int    // characters in buf
	max   int    // the largest limit a cut may have
	// whole is set when buf holds all of the text, so that a cut of at
	// least runes characters is the text itself.
	whole bool
	// broken is set when a value with no JSON form was met within buf:
	// a cut that reaches it is empty, as CompactJSON is.
	broken bool
}

// NewInputJSON serializes v for cuts of at most limit characters. It reads
// no more of v than such a cut shows, so its cost does not grow with the
// size of v beyond the first limit characters. The value of a field whose
// name means a credential, and that of an object marked sensitive, are
// written as their size (see RedactValue); credentials in other strings
// are left to SecretText, which the dispatcher applies to the text.
func NewInputJSON(v any, limit int) InputJSON {
	limit = cutLimit(max(limit, 0))
	if o, ok := v.(*value.Object); ok && o.Len() == 0 || v == nil {
		return InputJSON{max: limit, whole: true} // "", as CompactJSON
	}
	w := collapser{limit: limit, buf: make([]byte, 0, bufferSize(v, limit)), redact: true}
	ok := w.value(v)
	return InputJSON{buf: w.buf, runes: w.runes, max: limit, whole: ok && !w.full(), broken: !ok}
}

// Max returns the largest limit a cut of j may have.
func (j InputJSON) Max() int { return j.max }

// bufferSize is room for the text of v that a cut at limit reads, when it
// is mostly ASCII, the common case: one allocation, no larger than a small
// input needs.
func bufferSize(v any, limit int) int {
	room := min(limit+maxClusterRunes+16, 4<<10)
	return min(sizeHint(v, room), room)
}

// sizeHint estimates the bytes of v's compact JSON, counting no further
// than budget.
func sizeHint(v any, budget int) int {
	switch v := v.(type) {
	case string:
		return len(v) + 2
	case value.Number:
		lit, _ := v.Literal()
		return max(len(lit), 8)
	case []any:
		n := 2
		for _, e := range v {
			if n > budget {
				break
			}
			n += 1 + sizeHint(e, budget-n)
		}
		return n
	case *value.Object:
		n := 2
		for i := range v.Len() {
			if n > budget {
				break
			}
			k, e := v.At(i)
			n += len(k) + 4 + sizeHint(e, budget-n)
		}
		return n
	}
	return 5 // null, true, false
}

// Fits reports whether the JSON has at most n characters (n at most Max),
// so that a preview shows it whole. Empty JSON fits any limit; JSON with a
// value that has no JSON form fits none.
func (j InputJSON) Fits(n int) bool {
	return j.whole && !j.broken && j.runes <= min(max(n, 0), j.max)
}

// Cut returns prefix and the JSON cut at n characters (Truncate of
// CompactJSON), or "" when the JSON is empty (null, an empty object, a
// value with no JSON form). n is at most Max; a larger n is taken as Max.
func (j InputJSON) Cut(prefix string, n int) string {
	n = min(max(n, 0), j.max)
	if len(j.buf) == 0 || j.broken && j.runes <= n+maxClusterRunes {
		// A cut that reaches a value with no JSON form is empty, as
		// TruncateJSON is: the collapser had not filled up before it.
		return ""
	}
	if j.whole && j.runes <= n {
		return concat(prefix, j.buf, "")
	}
	text := unsafe.String(unsafe.SliceData(j.buf), len(j.buf))
	end, _, cut := fitPrefix(text, n)
	if !cut {
		return concat(prefix, j.buf, "")
	}
	return concat(prefix, j.buf[:end], Ellipsis)
}

// concat returns a+b+c in one allocation.
func concat(a string, b []byte, c string) string {
	out := make([]byte, 0, len(a)+len(b)+len(c))
	out = append(append(append(out, a...), b...), c...)
	return unsafe.String(unsafe.SliceData(out), len(out))
}
