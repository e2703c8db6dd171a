package runtime

import (
	"slices"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// InputFields are the fields of its input that a formatter accounts for
// (see FieldReader).
type InputFields struct {
	// Read are the fields its preview reads, or its entry declares, each
	// as the path of keys that leads to it from the input: {"path"} is the
	// field path, {"options", "force"} the field force of the object
	// options. A path accounts for everything under it.
	Read [][]string
	// All is set when it reads its input as a whole (passes it to a
	// function, iterates it): every field is accounted for.
	All bool
	// Omitted are the top-level fields its entry declares as deliberately
	// not shown, such as a free-text description the model writes.
	Omitted []string
}

// FieldReader is implemented by a formatter that says which fields of its
// input it accounts for. The dispatcher shows the fields of a call that it
// neither reads nor omits after its preview ("; also prefix_rule: [...]"),
// so a field no formatter looks at is never dropped without a word; and
// when the formatter reads none of the top-level fields a call carries,
// the call is not one it understands, and the dispatcher takes it as a
// decline. A formatter that is not a FieldReader is taken to account for
// every field.
type FieldReader interface {
	InputFields() InputFields
}

// FieldPaths returns paths sorted, without repeats and without the paths
// that a shorter one of them accounts for: the form of InputFields.Read
// that generated code writes.
func FieldPaths(paths [][]string) [][]string {
	sorted := make([][]string, 0, len(paths))
	for _, p := range paths {
		if len(p) > 0 {
			sorted = append(sorted, slices.Clone(p))
		}
	}
	slices.SortFunc(sorted, slices.Compare)
	out := sorted[:0]
	for _, p := range sorted {
		if n := len(out); n > 0 && len(out[n-1]) <= len(p) && slices.Equal(out[n-1], p[:len(out[n-1])]) {
			continue // under a path kept already, or the same
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// fieldTree is the fields a formatter reads: a node read whole has no
// children.
type fieldTree map[string]fieldTree

// accounting is a registration's InputFields, ready for lookups.
type accounting struct {
	read    fieldTree
	omitted map[string]bool
}

// accountingOf returns how a formatter accounts for its input, nil when it
// accounts for every field.
func accountingOf(f Formatter) *accounting {
	r, ok := f.(FieldReader)
	if !ok {
		return nil
	}
	in := r.InputFields()
	if in.All {
		return nil
	}
	a := &accounting{read: fieldTree{}, omitted: map[string]bool{}}
	for _, p := range FieldPaths(in.Read) {
		// FieldPaths left out the paths under another, so a node read
		// whole is never extended.
		t := a.read
		for _, k := range p[:len(p)-1] {
			next, ok := t[k]
			if !ok {
				next = fieldTree{}
				t[k] = next
			}
			t = next
		}
		t[p[len(p)-1]] = nil
	}
	for _, k := range in.Omitted {
		a.omitted[k] = true
	}
	return a
}

// unread returns the fields of in that the formatter neither reads nor
// omits, nil when there are none; declines reports that in has such
// fields and the formatter reads none of its fields. shown are top-level
// fields that the text around the preview shows.
func (a *accounting) unread(in *value.Object, shown ...string) (unread *value.Object, declines bool) {
	if a == nil || in.Len() == 0 {
		return nil, false
	}
	read := false
	for k := range in.All() {
		if _, ok := a.read[k]; ok {
			read = true
			break
		}
	}
	unread = a.read.unread(in, func(k string) bool { return a.omitted[k] || slices.Contains(shown, k) })
	if !read && unread != nil {
		return nil, true
	}
	return unread, false
}

// unread returns the fields of o that t does not read, nil when there are
// none.
func (t fieldTree) unread(o *value.Object, skip func(string) bool) *value.Object {
	var keys []string
	var values []any
	for k, v := range o.All() {
		sub, read := t[k]
		switch {
		case read && sub == nil:
			continue
		case read:
			// A field read in part: its other fields, when it is an
			// object; any other value was read as far as it goes.
			obj, ok := v.(*value.Object)
			if !ok {
				continue
			}
			rest := sub.unread(obj, func(string) bool { return false })
			if rest == nil {
				continue
			}
			v = rest
		case skip(k):
			continue
		}
		keys, values = append(keys, k), append(values, v)
	}
	if len(keys) == 0 {
		return nil
	}
	return value.ObjectOf(keys, values)
}

// alsoSeparator leads the fields a formatter did not read.
const alsoSeparator = "; also "

// withUnread returns a sanitized preview followed by the fields its
// formatter did not read, within Limits.Output: when both do not fit,
// each keeps at least half of the room, and the preview gives up what
// the fields do not need.
func (d *Dispatcher) withUnread(text string, unread *value.Object, sc *textfmt.Scrubber) string {
	lead, room := alsoSeparator, d.limits.Output-len(alsoSeparator)
	if text == "" {
		lead, room = "with ", d.limits.Output-len("with ")
	}
	if room < 2 {
		return text
	}
	also := d.unreadText(unread, room, sc)
	tw, aw := utf8.RuneCountInString(text), utf8.RuneCountInString(also)
	if tw+aw > room {
		alsoRoom := max(room-tw, min(aw, room/2))
		if alsoRoom < aw {
			also = d.unreadText(unread, alsoRoom, sc)
			aw = utf8.RuneCountInString(also)
		}
		if tw+aw > room {
			// Truncate appends its ellipsis after n characters.
			text = textfmt.Truncate(text, room-aw-1)
		}
	}
	if text == "" {
		return lead + also
	}
	return text + lead + also
}

// unreadText is fields as a generic preview shows them, sanitized and
// scrubbed of the call's credentials (sc), within n characters.
func (d *Dispatcher) unreadText(fields *value.Object, n int, sc *textfmt.Scrubber) string {
	return scrubbedText(sc, textfmt.Fields(fields, n), Reveal, n)
}
