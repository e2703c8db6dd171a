package textfmt

import (
	"slices"
	"unsafe"

	"github.com/permgen/permgen/runtime/value"
)

// InputJSON is the compact JSON of a tool's input as the default previews
// show it, serialized once and cut at any limit up to the one it was made
// for: the preview and the log context of one call cut the same text at
// their own limits.
//
// A cut is the JSON as written (CompactJSON) when it fits, and otherwise
// Truncate of it at the limit, except for an object that has a short
// field (null, a boolean, a number, or a string of at most MaxShortField
// bytes) after a long one: its short fields then come first, each group in
// input order, so that a megabyte of content sent before a path cannot push
// the path out of sight. Only the order of the object's own fields changes;
// the text of each field is the same, and so is the length of the whole.
//
// The text is serialized once, with the short fields first when there are
// any to move: a cut that fits is put back in input order from the pieces,
// without serializing again.
type InputJSON struct {
	buf   []byte // the serialized text: short fields first when moved
	runes int    // characters in buf
	max   int    // the largest limit a cut may have
	// whole is set when buf holds all of the text, so that a cut of at
	// least runes characters is the text itself.
	whole bool
	// broken is set when a value with no JSON form was met within buf:
	// a cut that reaches it is empty, as CompactJSON is.
	broken bool
	// moved is the object whose short fields come first in buf, and
	// starts the offsets in buf of its fields there, when buf is whole.
	moved  *value.Object
	starts []int
	shorts int // fields of moved that are short
}

// MaxShortField is the longest string, in bytes, that counts as a short
// field of an input: room for any real path or name.
const MaxShortField = 1024

// isShortField reports whether a field's value is short: a scalar, or a
// string of at most MaxShortField bytes.
func isShortField(v any) bool {
	switch v := v.(type) {
	case string:
		return len(v) <= MaxShortField
	case []any, *value.Object:
		return false
	}
	return true
}

// NewInputJSON serializes v for cuts of at most limit characters. It reads
// no more of v than such a cut shows, and the kind of every field of a
// top-level object, so its cost does not grow with the size of v beyond the
// first limit characters and the number of the object's fields.
func NewInputJSON(v any, limit int) InputJSON {
	limit = max(limit, 0)
	if o, ok := v.(*value.Object); ok {
		if o.Len() == 0 {
			return InputJSON{max: limit} // "", as CompactJSON
		}
		if shortAfterLong(o) {
			return serializeMoved(o, limit)
		}
	}
	if v == nil {
		return InputJSON{max: limit}
	}
	w := collapser{limit: limit, buf: make([]byte, 0, bufferSize(v, limit))}
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

// shortAfterLong reports whether some short field of o follows a long one.
func shortAfterLong(o *value.Object) bool {
	long := false
	for i := range o.Len() {
		_, v := o.At(i)
		switch short := isShortField(v); {
		case !short:
			long = true
		case long:
			return true
		}
	}
	return false
}

// serializeMoved serializes o with its short fields first.
func serializeMoved(o *value.Object, limit int) InputJSON {
	j := InputJSON{max: limit}
	w := collapser{limit: limit, buf: make([]byte, 0, bufferSize(o, limit))}
	var room [16]int // for the starts, kept only when the text is whole
	starts := room[:0]
	w.writeByte('{')
	ok, first := true, true
	for pass := range 2 {
		for i := range o.Len() {
			if w.full() || !ok {
				break
			}
			k, v := o.At(i)
			if isShortField(v) != (pass == 0) {
				continue
			}
			if pass == 0 {
				j.shorts++
			}
			if !first {
				w.writeByte(',')
			}
			first = false
			starts = append(starts, len(w.buf))
			w.quoted(k)
			w.writeByte(':')
			ok = w.value(v)
		}
	}
	if ok {
		w.writeByte('}')
	}
	j.broken = !ok
	j.buf, j.runes, j.whole = w.buf, w.runes, ok && !w.full()
	if j.whole {
		j.moved, j.starts = o, slices.Clone(starts)
	}
	return j
}

// Cut returns prefix and the JSON cut at n characters (see InputJSON), or
// "" when the JSON is empty (null, an empty object, a value with no JSON
// form). n is at most Max; a larger n is taken as Max.
func (j InputJSON) Cut(prefix string, n int) string {
	n = min(max(n, 0), j.max)
	if len(j.buf) == 0 || j.broken && j.runes <= n+maxClusterRunes {
		// A cut that reaches a value with no JSON form is empty, as
		// TruncateJSON is: the collapser had not filled up before it.
		return ""
	}
	if j.whole && j.runes <= n {
		if j.moved != nil {
			return j.inputOrder(prefix)
		}
		return concat(prefix, j.buf, "")
	}
	text := unsafe.String(unsafe.SliceData(j.buf), len(j.buf))
	end, _, cut := fitPrefix(text, n)
	if !cut {
		return concat(prefix, j.buf, "")
	}
	return concat(prefix, j.buf[:end], Ellipsis)
}

// inputOrder returns prefix and the whole text with the moved object's
// fields back in input order.
func (j InputJSON) inputOrder(prefix string) string {
	out := make([]byte, 0, len(prefix)+len(j.buf))
	out = append(out, prefix...)
	out = append(out, '{')
	short, long := 0, j.shorts
	for i := range j.moved.Len() {
		_, v := j.moved.At(i)
		at := long
		if isShortField(v) {
			at, short = short, short+1
		} else {
			long++
		}
		end := len(j.buf) - 1 // the closing brace
		if at+1 < len(j.starts) {
			end = j.starts[at+1] - 1 // the comma
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, j.buf[j.starts[at]:end]...)
	}
	out = append(out, '}')
	return unsafe.String(unsafe.SliceData(out), len(out))
}

// concat returns a+b+c in one allocation.
func concat(a string, b []byte, c string) string {
	out := make([]byte, 0, len(a)+len(b)+len(c))
	out = append(append(append(out, a...), b...), c...)
	return unsafe.String(unsafe.SliceData(out), len(out))
}
