package textfmt

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/permgen/permgen/runtime/value"
	"github.com/rivo/uniseg"
)

// Fields renders the leaves of a value of package value's model (an
// *value.Object, []any, string, value.Number, bool or nil) as "path: value"
// entries joined by ", ", in input order, fitted to n characters: the
// generic previews (the default preview and the MCP argument summary)
// write a call's input with it when its JSON does not fit, so that no part
// of the input is hidden without saying so.
//
// How it reads:
//
//   - a path joins keys with "." (spec.template.image) and list indexes
//     with [i] (containers[0].name); a key that is empty, longer than 64
//     characters, or holds anything but letters, marks, digits and
//     _ - $ @ / + # ~ % & * ! ? = < > | ^ is quoted ("a.b", "my key", ""),
//     so that every path reads one way only;
//   - a list of scalars is one entry, its items inline
//     (command: ["psql", "-c", "DROP DATABASE orders"]); a list that holds
//     an object or a list has an entry per leaf (containers[0].name: "app");
//     an empty object or list is {} or [];
//   - a string is quoted as the reference quotes MCP arguments, " + text +
//     ", with one exception: a quote inside it is written \" (and a run of
//     backslashes right before a quote, the closing one included, is
//     doubled, as Windows command lines write them), so that a string
//     cannot end early and fake entries after it (cmd: "ls\", force: true"
//     is one entry, not two). Other characters are written as they are:
//     the dispatcher's safe-text step reveals control and hidden
//     characters later. Runs of white space other than line breaks are
//     folded into one space, as that step would fold them;
//   - numbers are written with the digits the call wrote, booleans and null
//     as JSON writes them.
//
// Fitting: every entry is sure of its path and a least part of its value
// (for a cut string or number, its first few characters and what the cut
// leaves out); entries that need less than an equal share of what is left
// get what they need, and the longer ones share the rest equally (max-min
// fairness), so that no field, however long or deeply nested, crowds out
// the others. Nested objects and lists share their entry's room the same
// way, but for two rules of what an entry is sure of: an object that is a
// field is summarized rather than cut when its summary saves half its
// width (spec: … 50 fields, 2.56 KB names the key at least), and an item
// of a list is shown whole when it takes at most a quarter of the room
// (whole items and a count of the others say more than parts of each),
// otherwise it is sure of its first entry. A cut value ends with … and says how much it cut:
// "SELECT id, …" (3.10 KB more); a cut string that starts with an SQL
// statement keyword is led by the kinds of all its statements (SQLKinds), at
// most three of them and … for more: (DELETE, SELECT) "SELECT 1; …". When
// not every entry can have its least, the shortest entries are shown (a
// flag or a path is not pushed out by long fields around it), a gap
// between shown entries is marked …, and the last entry says how many
// entries were left out and how large they are, as JSON without its
// escapes: … 9950 more fields, 1.00 MB (under a nested path:
// spec: … 3 more fields, 120 B; in an inline list: [1, 2, … 98 more items,
// 294 B]). An object or list with no room for any entry reads as that last
// entry alone (… 3 fields, 120 B).
//
// Widths are counted as the dispatcher's safe-text step will show the
// text, at most: a character it reveals as an escape (a line feed as \n, a
// bidi control as \u{202E}) counts as long as that escape can be, so
// revealing never pushes the end of the text past the limit. The text has
// at most n characters, and so does its revealed form, unless n is too
// small for the least the value can show (a summary such as
// … 3 fields, 120 B, or a cut string's note), which it then is. Cuts fall
// between grapheme clusters, as Truncate's do.
//
// It takes time linear in the number of the value's parts and reads no
// more of a long string than it shows (but all of a cut string that starts
// with an SQL keyword, for its statement kinds); it allocates in proportion
// to n, not to the value.
func Fields(v any, n int) string {
	out := AppendFields(nil, v, n)
	return unsafe.String(unsafe.SliceData(out), len(out))
}

// AppendFields appends Fields(v, n) to dst and returns the extended
// buffer.
func AppendFields(dst []byte, v any, n int) []byte {
	n = max(n, 0)
	var f fielder
	fits := unknown
	if dst == nil {
		// Room for n characters of up to four bytes, or, for a value that
		// fits whole (most calls), for its width of mostly one byte.
		size := 4*n + 64
		if w := f.need(f.view(nil, "", v), 0, n); w <= n {
			size, fits = 2*w+16, whole
		}
		dst = make([]byte, 0, min(size, 1<<20))
	}
	f.out = dst
	f.root(v, n, fits)
	return f.out
}

// Bounds of the rendering, in characters.
const (
	// maxKeyWidth is the longest key a path shows whole.
	maxKeyWidth = 64
	// leastText is how much of a cut string or number an entry is sure to
	// show.
	leastText = 8
	// sizeWidth bounds the width of a FileSize of a byte count.
	sizeWidth = 10
	// noteWidth bounds a cut's note: " (" + size + " more)".
	noteWidth = 2 + sizeWidth + 6
	// leastString is the least of a cut string: its quotes, leastText
	// characters, the ellipsis and the note.
	leastString = 2 + leastText + 1 + noteWidth
	// maxKinds is how many SQL statement kinds lead a cut string at most.
	maxKinds = 3
	// leadWidth is the least lead of SQL kinds: "(" + a kind of at most
	// 10 letters + ", …" + ") ".
	leadWidth = 1 + 10 + 3 + 2
	// gapWidth is what a gap marker costs: ", …".
	gapWidth = 3
)

// fielder writes one rendering.
type fielder struct {
	out  []byte
	path []byte // the path of the entries being written, as shown
	pw   int    // the width of path
	// parts holds the entries of the groups being fitted, the innermost
	// last; heap is the scratch of a group's choice of entries.
	parts   []part
	heap    []part
	scratch []int
	// sizing is set while a group weighs all its children to choose the
	// ones it shows (choose): they are then weighed as they are, and
	// redacted once chosen, so that the rendering's cost follows what it
	// shows, not the input; the sizes of what it leaves out count the
	// values as they are.
	sizing bool
}

// part is one entry of a group being fitted.
type part struct {
	index      int // the child's index in its container
	least      int // what the entry is sure of
	need       int // its width written whole, or more than the group's room
	room       int // its share
	gap        bool
	wholeValue bool
}

// viewScan is how much of a long string the rendering redacts: more than
// any share of the output it may be shown in, and than the credentials
// it may start with.
const viewScan = 16 << 10

// view returns what the rendering shows for the value v found under key
// of the object in (the last key of its path, "" for a list's items and
// the whole value, whose in is nil; f.path holds the path of its
// container): v as the redaction rule shows
// it (see RedactValue): a credential by its name and size. Every value enters
// the rendering here, before it is measured, fitted or sized, so that a
// step that replaces a credential by its name and size does it in this one
// place, for the preview, its fitting and the sizes of what is left out
// alike.
func (f *fielder) view(in *value.Object, key string, v any) any {
	if f.sizing {
		return v
	}
	secret := key != "" && fieldSecret(in, key)
	switch x := v.(type) {
	case string:
		switch {
		case secret:
			r, _ := redactValue(v, true, 0)
			return r
		case len(x) > viewScan:
			// No more of a long string is shown than viewScan holds:
			// its start is redacted, the rest counts as it is.
			end := viewScan
			for end > 0 && !utf8.RuneStart(x[end]) {
				end--
			}
			if r, changed := secretText(x[:end]); changed {
				return r + x[end:]
			}
			return v
		}
		r, _ := redactValue(v, false, 0)
		return r
	case value.Number, float64:
		r, _ := redactValue(v, secret, 0)
		return r
	case []any:
		if secret {
			r, _ := redactValue(v, true, 0)
			return r
		}
	case *value.Object:
		// An object under a credential's name is redacted whole; one
		// marked sensitive has its value redacted, and the other
		// values come here in turn.
		if secret || sensitive(x) {
			r, _ := redactValue(v, secret, 0)
			return r
		}
	}
	return v
}

// root renders the whole value within n.
func (f *fielder) root(v any, n, fits int) {
	v = f.view(nil, "", v)
	o, l := containerOf(v)
	switch {
	case o != nil:
		f.group(o, nil, n, false, fits)
	case l != nil && f.inline(l):
		f.out = append(f.out, '[')
		f.group(nil, l, n-2, true, fits)
		f.out = append(f.out, ']')
	case l != nil:
		f.group(nil, l, n, false, fits)
	default:
		f.value(v, n, fits)
	}
}

// What the caller of entry, value or text knows of a value: whether it
// fits whole in the room it is given.
const (
	unknown = iota
	whole
	cut
)

// containerOf returns v as a non-empty object or list, or nil, nil.
func containerOf(v any) (*value.Object, []any) {
	switch x := v.(type) {
	case *value.Object:
		if x.Len() > 0 {
			return x, nil
		}
	case []any:
		if len(x) > 0 {
			return nil, x
		}
	}
	return nil, nil
}

// isContainer reports whether v is a non-empty object or list.
func isContainer(v any) bool {
	o, l := containerOf(v)
	return o != nil || l != nil
}

// inline reports whether a list is written inline: none of its items is a
// non-empty object or list.
func (f *fielder) inline(l []any) bool {
	for _, e := range l {
		if isContainer(f.view(nil, "", e)) {
			return false
		}
	}
	return true
}

// child returns the i-th child of a container and its key ("" for a
// list's items), as view shows it.
func (f *fielder) child(o *value.Object, l []any, i int) (string, any) {
	if o != nil {
		k, e := o.At(i)
		return k, f.view(o, k, e)
	}
	return "", f.view(nil, "", l[i])
}

// childPath returns the width of the path of a container's i-th child, at
// a container path of width pw; 0 for the items of an inline list.
func childPath(o *value.Object, i, pw int, inline bool) int {
	switch {
	case inline:
		return 0
	case o != nil:
		k, _ := o.At(i)
		dot := 0
		if pw > 0 {
			dot = 1
		}
		return pw + dot + keyWidth(k)
	}
	return pw + 2 + digits(i)
}

// colon is the width of ": " after a path of width pw, if any.
func colon(pw int) int {
	if pw > 0 {
		return 2
	}
	return 0
}

// need returns the width of v's entries written whole at a path of width
// pw, or a number more than limit when that is wider than limit. It reads
// no further than limit.
func (f *fielder) need(v any, pw, limit int) int {
	if pw > limit {
		return pw
	}
	o, l := containerOf(v)
	switch {
	case o != nil:
		total := -2
		for i := range o.Len() {
			_, e := f.child(o, nil, i)
			total += 2 + f.need(e, childPath(o, i, pw, false), limit-total-2)
			if total > limit {
				return total
			}
		}
		return total
	case l != nil:
		// Written inline, the items take less room than as entries of
		// their own, so a list too wide inline is too wide either way.
		total := pw + colon(pw) + 2 - 2
		for i := range l {
			_, e := f.child(nil, l, i)
			if isContainer(e) {
				return f.entriesNeed(l, pw, limit)
			}
			total += 2 + f.need(e, 0, limit-total-2)
			if total > limit {
				return total
			}
		}
		return total
	}
	return pw + colon(pw) + f.valueWidth(v, limit-pw-colon(pw))
}

// entriesNeed is need of a list whose items are entries of their own.
func (f *fielder) entriesNeed(l []any, pw, limit int) int {
	total := -2
	for i := range l {
		_, e := f.child(nil, l, i)
		total += 2 + f.need(e, childPath(nil, i, pw, false), limit-total-2)
		if total > limit {
			return total
		}
	}
	return total
}

// valueWidth returns the width of a scalar written whole, or more than
// limit when it is wider.
func (f *fielder) valueWidth(v any, limit int) int {
	switch x := v.(type) {
	case string:
		w, end := textWidth(x, limit-2)
		if end < len(x) {
			return limit + 1
		}
		return 2 + w
	case value.Number:
		var scratch [32]byte
		return len(x.AppendJSON(scratch[:0]))
	case float64:
		var scratch [32]byte
		return len(value.NumberOf(x).AppendJSON(scratch[:0]))
	case bool:
		if x {
			return 4
		}
		return 5
	case nil:
		return 4
	case *value.Object, []any:
		return 2 // {} or []
	}
	return 1 // a value with no JSON form, written ?
}

// least returns what v's entry at a path of width pw is sure of: its
// width whole, when that is less than the least it can be cut to.
func (f *fielder) least(v any, pw int) int {
	cut := pw + colon(pw)
	switch x := v.(type) {
	case string:
		cut += leastString
		// Most long strings start with more plain characters than the
		// least shows: they are cut, and need no closer look.
		if !plainBeyond(x, leastString-2) {
			if need := f.need(v, pw, cut); need <= cut {
				return need
			}
		}
		if !startsSQL(x) {
			return cut
		}
		cut += leadWidth // a cut SQL string is led by its kinds
	case value.Number, float64:
		cut += leastText + 1 + noteWidth
	case *value.Object:
		if x.Len() == 0 {
			return cut + 2
		}
		return f.summarized(v, pw, cut+summaryWidth(x.Len()))
	case []any:
		if len(x) == 0 {
			return cut + 2
		}
		return f.summarized(v, pw, cut+2+summaryWidth(len(x)))
	default:
		return cut + f.valueWidth(v, 1<<30) // bool, null: never cut
	}
	return min(cut, f.need(v, pw, cut))
}

// childLeast is least of a container's i-th child e, in a group of room.
// An item of a list is shown whole when it is small, at most a quarter of
// the room: the parts of an item cut to an equal share say less than
// whole items and a count of the others (what a list of calls or of
// paths is read for). A larger item, which could crowd out the others,
// has its fair share; if it is not inline, it is sure of its first entry
// rather than of its summary: its index says nothing of what it holds
// (tool_uses[3]: … 2 fields, 96 B), while a field's summary names its key.
func (f *fielder) childLeast(o *value.Object, l []any, i int, e any, inline bool, room int) int {
	pw := childPath(o, i, f.pw, inline)
	if o != nil {
		return f.least(e, pw)
	}
	if need := f.need(e, pw, room/4); need <= room/4 {
		return need
	}
	if inline {
		return f.least(e, pw)
	}
	co, cl := containerOf(e)
	switch {
	case co != nil:
		return f.firstLeast(e, co, nil, pw, false)
	case cl != nil && f.inline(cl):
		return f.firstLeast(e, nil, cl, pw, true)
	case cl != nil:
		return f.firstLeast(e, nil, cl, pw, false)
	}
	return f.least(e, pw)
}

// firstLeast is the least of a container v at a path of width pw that is
// sure of its first entry (its first item, inline) and of the last entry
// that counts the others: what its group needs to show one entry, since
// a group shows its smallest first.
func (f *fielder) firstLeast(v any, o *value.Object, l []any, pw int, inline bool) int {
	k := len(l)
	if o != nil {
		k = o.Len()
	}
	_, e := f.child(o, l, 0)
	least := 0
	if inline {
		least = pw + 2 + 2 + f.least(e, 0) // path: [first]
	} else {
		least = f.least(e, childPath(o, 0, pw, false))
	}
	if k > 1 {
		least += 2 + 2 + digits(k-1) + len(" more fields, ") + sizeWidth
		if !inline {
			least += pw + 2 // path: … k more fields
		}
	}
	return min(least, f.need(v, pw, least))
}

// summarized is the least of a container whose summary takes summary: its
// width whole unless that is more than twice the summary. A summary that
// saves less than that is not worth what it hides (edits[0]: … 2 fields,
// 28 B for edits[0].oldText: "a", edits[0].newText: "b").
func (f *fielder) summarized(v any, pw, summary int) int {
	if need := f.need(v, pw, 2*summary); need <= 2*summary {
		return need
	}
	return summary
}

// plainBeyond reports whether text starts with more than n characters
// that are written as they are, one each.
func plainBeyond(text string, n int) bool {
	if len(text) <= n {
		return false
	}
	for _, c := range []byte(text[:n+1]) {
		if !plainText[c] {
			return false
		}
	}
	return true
}

// summaryWidth bounds the width of "… <n> more fields, <size>" (see
// appendTail).
func summaryWidth(n int) int { return 2 + digits(n) + len(" more fields, ") + sizeWidth }

// group writes the children of a container (o or l) at the current path
// within room: each as an entry of its own with its path, or, inline, as
// the items of a list without paths (the caller writes the brackets).
func (f *fielder) group(o *value.Object, l []any, room int, inline bool, fits int) {
	room = max(room, 0)
	k := len(l)
	if o != nil {
		k = o.Len()
	}
	// Fast path: everything fits whole, as the caller may know.
	if fits == whole || f.needGroup(o, l, room, inline) <= room {
		for i := range k {
			if i > 0 {
				f.out = append(f.out, ", "...)
			}
			f.entry(o, l, i, 1<<30, inline, whole)
		}
		return
	}
	if f.parts == nil {
		// One allocation for the scratch of a value with a few fields,
		// and for its paths when none is written yet.
		room := new(struct {
			parts [16]part
			path  [128]byte
		})
		f.parts = room.parts[:0]
		if f.path == nil {
			f.path = room.path[:0]
		}
	}
	base := len(f.parts)
	defer func() { f.parts = f.parts[:base] }()

	// The least of every entry, and what they come to.
	total := -2
	for i := range k {
		_, e := f.child(o, l, i)
		total += 2 + f.childLeast(o, l, i, e, inline, room)
		if total > room {
			break
		}
	}
	omitted, omittedSize := 0, 0
	if total <= room {
		for i := range k {
			_, e := f.child(o, l, i)
			pw := childPath(o, i, f.pw, inline)
			f.parts = append(f.parts, part{index: i, least: f.childLeast(o, l, i, e, inline, room), need: f.need(e, pw, room)})
		}
	} else {
		omitted, omittedSize = f.choose(o, l, k, room, inline)
	}
	shown := f.parts[base:]
	if len(shown) == 0 {
		f.summary(inline, o != nil, k, omittedSize, false)
		return
	}

	// What the entries share: the room less the separators, the gap
	// markers and the last entry that counts what was left out.
	var room64 [64]byte
	var tail []byte
	pieces := len(shown)
	spare := room
	for j := range shown {
		if shown[j].gap {
			pieces++
			spare -= 1
		}
	}
	if omitted > 0 {
		tail = appendTail(room64[:0], o != nil, omitted, omittedSize, true)
		pieces++
		spare -= f.tailPrefix(inline) + utf8.RuneCount(tail)
	}
	spare -= 2 * (pieces - 1)
	share(shown, spare)

	for j := range shown {
		p := f.parts[base+j]
		if j > 0 {
			f.out = append(f.out, ", "...)
		}
		if p.gap {
			f.out = append(f.out, "…, "...)
		}
		fits := cut
		if p.room >= p.need {
			fits = whole
		}
		f.entry(o, l, p.index, p.room, inline, fits)
	}
	if tail != nil {
		f.out = append(f.out, ", "...)
		f.writeTailPrefix(inline)
		f.out = append(f.out, tail...)
	}
}

// needGroup is need of a container's children written whole at the
// current path, or more than limit.
func (f *fielder) needGroup(o *value.Object, l []any, limit int, inline bool) int {
	k := len(l)
	if o != nil {
		k = o.Len()
	}
	total := -2
	for i := range k {
		_, e := f.child(o, l, i)
		total += 2 + f.need(e, childPath(o, i, f.pw, inline), limit-total-2)
		if total > limit {
			return total
		}
	}
	return total
}

// choose picks the entries of a group whose leasts do not all fit: the
// smallest first, and of those alike the first, as many as fit with the
// separators, a gap marker where entries are left out between them, and
// the last entry that counts the others. It appends them to f.parts in
// input order, and returns how many it left out and their size.
//
// It reads the children once, keeping the chosen so far in a max-heap by
// least and index: a child that beats the largest takes its place while
// they do not fit. With costs that grow with the least, what is left is
// always the longest run of the children seen, smallest first, that fits;
// the heap holds no more than the room has entries. The gaps are known
// once the choice is made: the largest make way until they fit too.
func (f *fielder) choose(o *value.Object, l []any, k, room int, inline bool) (omitted, size int) {
	outer := f.sizing
	f.sizing = true
	defer func() { f.sizing = outer }()
	total := 0
	for i := range k {
		total += f.childSize(o, l, i)
	}
	// Each chosen entry costs its least and a separator, before it or, for
	// the last, before the tail.
	noun := len(" more items, ")
	if o != nil {
		noun = len(" more fields, ")
	}
	budget := room - f.tailPrefix(inline) - (2 + digits(k) + noun + sizeBound(total))
	if cap(f.heap) == 0 {
		f.heap = make([]part, 0, min(max(0, budget)/3+1, k))
		f.scratch = make([]int, 0, cap(f.heap))
	}
	heap, spent := f.heap[:0], 0
	for i := range k {
		_, e := f.child(o, l, i)
		m := f.childLeast(o, l, i, e, inline, room)
		if m > room || spent+m+2 > budget && (len(heap) == 0 || m >= heap[0].least) {
			continue // no smaller than any chosen, and later
		}
		heap = pushPart(heap, part{index: i, least: m})
		spent += m + 2
		for spent > budget && len(heap) > 0 {
			var top part
			heap, top = popPart(heap)
			spent -= top.least + 2
		}
	}
	for len(heap) > 0 && spent+gapWidth*gaps(heap, &f.scratch) > budget {
		var top part
		heap, top = popPart(heap)
		spent -= top.least + 2
	}
	slices.SortFunc(heap, func(a, b part) int { return a.index - b.index })
	prev := -1
	for _, p := range heap {
		f.sizing = outer
		_, e := f.child(o, l, p.index)
		p.need, p.gap = f.need(e, childPath(o, p.index, f.pw, inline), room), p.index > prev+1
		f.sizing = true
		f.parts = append(f.parts, p)
		for i := prev + 1; i < p.index; i++ {
			size += f.childSize(o, l, i)
		}
		omitted += p.index - prev - 1
		prev = p.index
	}
	for i := prev + 1; i < k; i++ {
		size += f.childSize(o, l, i)
	}
	omitted += k - prev - 1
	f.heap = heap[:0]
	return omitted, size
}

// gaps counts the runs of children left out before a chosen child (the
// chosen are a heap, in no order), using scratch.
func gaps(chosen []part, scratch *[]int) int {
	idx := (*scratch)[:0]
	for _, p := range chosen {
		idx = append(idx, p.index)
	}
	slices.Sort(idx)
	n, prev := 0, -1
	for _, i := range idx {
		if i > prev+1 {
			n++
		}
		prev = i
	}
	*scratch = idx
	return n
}

// childSize is the size of a container's i-th child as a tail counts it:
// its value and comma, and its key.
func (f *fielder) childSize(o *value.Object, l []any, i int) int {
	key, e := f.child(o, l, i)
	size := f.size(e) + 1
	if o != nil {
		size += len(key) + 3 // "key":
	}
	return size
}

// sizeBound bounds the width of FileSize of any size up to total.
func sizeBound(total int) int {
	switch {
	case total < 1024:
		return digits(total) + 2
	case total < 1<<50:
		return 7 // 1.50 KB, 10.0 MB, 1023 GB
	}
	return sizeWidth
}

// larger orders parts by least, then index.
func larger(a, b part) bool { return a.least > b.least || a.least == b.least && a.index > b.index }

// pushPart adds p to a max-heap of parts (see larger).
func pushPart(h []part, p part) []part {
	h = append(h, p)
	for i := len(h) - 1; i > 0; {
		up := (i - 1) / 2
		if !larger(h[i], h[up]) {
			break
		}
		h[i], h[up] = h[up], h[i]
		i = up
	}
	return h
}

// popPart removes the largest part of a max-heap.
func popPart(h []part) ([]part, part) {
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		big, left, right := i, 2*i+1, 2*i+2
		if left < len(h) && larger(h[left], h[big]) {
			big = left
		}
		if right < len(h) && larger(h[right], h[big]) {
			big = right
		}
		if big == i {
			break
		}
		h[i], h[big] = h[big], h[i]
		i = big
	}
	return h, top
}

// share gives each part a room of at least its least and at most its
// need, the same room to all whose need is more (max-min fairness), within
// spare in all.
func share(parts []part, spare int) {
	rooms := func(level int) int {
		total := 0
		for _, p := range parts {
			total += max(p.least, min(p.need, level))
		}
		return total
	}
	lo, hi := 0, 0
	for _, p := range parts {
		hi = max(hi, p.need)
	}
	for lo < hi { // the highest level whose rooms fit
		mid := lo + (hi-lo+1)/2
		if rooms(mid) <= spare {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	left := spare - rooms(lo)
	for i := range parts {
		p := &parts[i]
		p.room = max(p.least, min(p.need, lo))
		if left > 0 && p.room < p.need {
			p.room++ // what the level leaves, one each, to the first
			left--
		}
	}
}

// entry writes the i-th child of a container within room: its entry or
// entries, or, inline, its value alone.
func (f *fielder) entry(o *value.Object, l []any, i, room int, inline bool, fits int) {
	key, v := f.child(o, l, i)
	if inline {
		f.value(v, room, fits)
		return
	}
	co, cl := containerOf(v)
	if co == nil && (cl == nil || f.inline(cl)) {
		// A leaf: its path is written where it is shown, and kept
		// nowhere else, since nothing is nested under it.
		var w int
		f.out = append(f.out, f.path...)
		f.out, w = appendSegment(f.out, o != nil, key, i, len(f.path) > 0)
		pw := f.pw + w
		if cl != nil {
			f.out = append(f.out, ": ["...)
			f.group(nil, cl, room-pw-2-2, true, fits)
			f.out = append(f.out, ']')
			return
		}
		f.out = append(f.out, ": "...)
		f.value(v, room-pw-2, fits)
		return
	}
	mark, markW := len(f.path), f.pw
	f.push(o != nil, key, i)
	defer func() { f.path, f.pw = f.path[:mark], markW }()
	if co != nil {
		f.group(co, nil, room, false, fits)
	} else {
		f.group(nil, cl, room, false, fits)
	}
}

// push adds a key, or the index i, to the path.
func (f *fielder) push(isKey bool, key string, i int) {
	if f.path == nil {
		f.path = make([]byte, 0, 64)
	}
	var w int
	f.path, w = appendSegment(f.path, isKey, key, i, len(f.path) > 0)
	f.pw += w
}

// appendSegment writes a key, or the index i, as the next part of a path
// (after a "." when a key follows other parts), and returns its width.
func appendSegment(dst []byte, isKey bool, key string, i int, dot bool) ([]byte, int) {
	if !isKey {
		return append(strconv.AppendInt(append(dst, '['), int64(i), 10), ']'), 2 + digits(i)
	}
	w := 0
	if dot {
		dst, w = append(dst, '.'), 1
	}
	dst, kw := appendKey(dst, key)
	return dst, w + kw
}

// tailPrefix is the width of what precedes the last entry of a group: the
// group's path and ": ", except inline and at the top.
func (f *fielder) tailPrefix(inline bool) int {
	if inline || f.pw == 0 {
		return 0
	}
	return f.pw + 2
}

func (f *fielder) writeTailPrefix(inline bool) {
	if !inline && f.pw > 0 {
		f.out = append(f.out, f.path...)
		f.out = append(f.out, ": "...)
	}
}

// summary writes a group that has no room for any entry: how many
// children it has and their size.
func (f *fielder) summary(inline, fields bool, k, size int, more bool) {
	f.writeTailPrefix(inline)
	f.out = appendTail(f.out, fields, k, size, more)
}

// appendTail writes how many fields or items were left out and how large
// they are, "… 3 more fields, 120 B", or without "more" when none is
// shown.
func appendTail(dst []byte, fields bool, n, size int, more bool) []byte {
	dst = append(dst, Ellipsis+" "...)
	dst = strconv.AppendInt(dst, int64(n), 10)
	if more {
		dst = append(dst, " more"...)
	}
	if fields {
		dst = append(dst, " field"...)
	} else {
		dst = append(dst, " item"...)
	}
	if n != 1 {
		dst = append(dst, 's')
	}
	dst = append(dst, ", "...)
	return AppendFileSize(dst, float64(size))
}

// size returns the size of v's JSON, escapes aside: the bytes of its text,
// keys and numbers, and of the punctuation around them.
func (f *fielder) size(v any) int {
	switch x := v.(type) {
	case string:
		return len(x) + 2
	case *value.Object:
		n := 2 + max(0, x.Len()-1)
		for i := range x.Len() {
			k, e := f.child(x, nil, i)
			n += len(k) + 3 + f.size(e)
		}
		return n
	case []any:
		n := 2 + max(0, len(x)-1)
		for i := range x {
			_, e := f.child(nil, x, i)
			n += f.size(e)
		}
		return n
	}
	return f.valueWidth(v, 1<<30)
}

// value writes a value that is not a non-empty container within room,
// cut when it is wider.
func (f *fielder) value(v any, room, fits int) {
	switch x := v.(type) {
	case string:
		f.text(x, room, fits)
	case value.Number:
		f.number(x, room)
	case float64:
		f.number(value.NumberOf(x), room)
	case bool:
		f.out = strconv.AppendBool(f.out, x)
	case nil:
		f.out = append(f.out, "null"...)
	case *value.Object:
		f.out = append(f.out, "{}"...)
	case []any:
		f.out = append(f.out, "[]"...)
	default:
		f.out = append(f.out, '?')
	}
}

// number writes a number's digits, cut when they are wider than room.
func (f *fielder) number(n value.Number, room int) {
	start := len(f.out)
	f.out = n.AppendJSON(f.out)
	digits := len(f.out) - start
	if digits <= room {
		return
	}
	keep := max(0, room-1-noteWidthOf(digits, room))
	f.out = f.out[:start+keep]
	f.out = append(f.out, Ellipsis...)
	f.note(digits - keep)
}

// text writes a string within room: quoted whole, or cut with what the cut
// leaves out, led by its SQL statement kinds when it starts as SQL.
func (f *fielder) text(s string, room, fits int) {
	if fits == unknown {
		if w, end := textWidth(s, room-2); end == len(s) && 2+w <= room {
			fits = whole
		}
	}
	if fits == whole {
		f.out = append(f.out, '"')
		f.out, _, _ = appendText(f.out, s, 0, len(s), room)
		f.out = append(f.out, '"')
		return
	}
	start := len(f.out)
	if startsSQL(s) {
		// The kinds lead, as many as leave the text its least.
		f.appendKinds(SQLKinds(s), room-(2+leastText+1+noteWidthOf(len(s), room)))
	}
	lead := utf8.RuneCount(f.out[start:])
	// The note's width depends on where the cut falls: cut for the widest
	// it can be, then once more for the width it has there, when that is
	// less and still fits.
	mark, end := len(f.out), 0
	cut := func(note int) (width, end int) {
		f.out = append(f.out[:mark], '"')
		f.out, width, end = appendText(f.out, s, 0, len(s), max(0, room-lead-2-1-note))
		return width, end
	}
	bound := noteWidthOf(len(s), room)
	_, end = cut(bound)
	if exact := noteLen(len(s) - end); exact < bound {
		width, further := cut(exact)
		if lead+2+width+1+noteLen(len(s)-further) <= room {
			end = further
		} else {
			_, end = cut(bound)
		}
	}
	f.out = append(f.out, Ellipsis+`"`...)
	f.note(len(s) - end)
}

// appendKinds writes the lead of a cut SQL string within room, "(DROP,
// SELECT) ": the most consequential kinds first, at most maxKinds of them,
// and at least one; "…" stands for those left out.
func (f *fielder) appendKinds(kinds []string, room int) {
	if len(kinds) == 0 {
		return
	}
	f.out = append(f.out, '(')
	used := 1 + 2 // "(" and ") "
	for i, k := range kinds {
		more := i+1 < len(kinds)
		tail := 0 // ", …" when some are left out after this one
		if more {
			tail = 3
		}
		if i > 0 && (i == maxKinds || used+2+len(k)+tail > room) {
			f.out = append(f.out, ", "+Ellipsis...)
			break
		}
		if i > 0 {
			f.out = append(f.out, ", "...)
			used += 2
		}
		f.out = append(f.out, k...)
		used += len(k)
	}
	f.out = append(f.out, ") "...)
}

// noteWidthOf bounds the width of the note of a cut of text of size bytes
// that keeps at most room characters (4·room bytes).
func noteWidthOf(size, room int) int {
	return max(noteLen(size), noteLen(max(0, size-4*room)))
}

// noteLen bounds the width of the note of a cut that leaves rest bytes
// out (see FileSize).
func noteLen(rest int) int { return 2 + sizeBound(rest) + 6 }

// note writes what a cut leaves out: " (3.10 KB more)".
func (f *fielder) note(rest int) {
	f.out = append(f.out, " ("...)
	f.out = AppendFileSize(f.out, float64(rest))
	f.out = append(f.out, " more)"...)
}

// startsSQL reports whether text starts as SQL does: its first word, after
// white space, comments and opening parentheses, is a statement keyword
// that SQLKinds reports.
func startsSQL(text string) bool {
	i := 0
	for i < len(text) {
		switch c := text[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(':
			i++
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return false
			}
			i += 2 + end + 2
		default:
			// The longest statement keyword has 10 letters.
			var word [10]byte
			n := 0
			for i < len(text) && isSQLWordByte(text[i]) {
				if n == len(word) || !isSQLWordStart(text[i]) {
					return false
				}
				word[n] = text[i] &^ 0x20 // upper case
				n++
				i++
			}
			rank, ok := sqlTables().rank[string(word[:n])]
			return ok && sqlKeywords[rank] != "SQL"
		}
	}
	return false
}

// digits returns the number of decimal digits of i >= 0.
func digits(i int) int {
	n := 1
	for i >= 10 {
		i /= 10
		n++
	}
	return n
}

// Keys.

// bareKey marks the ASCII bytes a key may hold and be written bare.
var bareKey = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for _, c := range []byte("_-$@/+#~%&*!?=<>|^") {
		t[c] = true
	}
	return t
}()

// isBare reports whether a key reads as itself without quotes in a path
// (see Fields), and its width when it does.
func isBare(key string) (int, bool) {
	if key == "" {
		return 0, false
	}
	runes := 0
	for i := 0; i < len(key); {
		c := key[i]
		runes++
		if runes > maxKeyWidth {
			return 0, false
		}
		if c < utf8.RuneSelf {
			if !bareKey[c] {
				return 0, false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(key[i:])
		// A filler reads as a letter and a variation selector as a mark,
		// but the safe-text step reveals both: such a key is quoted.
		if r == utf8.RuneError || !(unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r)) || hiddenWidth(r) != 1 {
			return 0, false
		}
		i += size
	}
	return runes, true
}

// keyWidth is the width of a key as a path shows it.
func keyWidth(key string) int {
	_, w := appendKeyTo(nil, key, false)
	return w
}

// appendKey writes a key as a path shows it, and returns its width.
func appendKey(dst []byte, key string) ([]byte, int) { return appendKeyTo(dst, key, true) }

func appendKeyTo(dst []byte, key string, emit bool) ([]byte, int) {
	if w, ok := isBare(key); ok {
		if emit {
			dst = append(dst, key...)
		}
		return dst, w
	}
	if emit {
		dst = append(dst, '"')
	}
	w, end := textWidth(key, maxKeyWidth)
	if end == len(key) {
		if emit {
			dst, _, _ = appendText(dst, key, 0, len(key), maxKeyWidth)
			dst = append(dst, '"')
		}
		return dst, 2 + w
	}
	// A key too long to show whole shows its start.
	if emit {
		dst, w, _ = appendText(dst, key, 0, len(key), maxKeyWidth-1)
		dst = append(dst, Ellipsis+`"`...)
	} else {
		w, _ = textWidth(key, maxKeyWidth-1)
	}
	return dst, 2 + w + 1
}

// Text inside quotes.

// plainText marks the ASCII bytes written as they are at width 1: the
// printable ones but the quote, the backslash and the space.
var plainText = func() (t [256]bool) {
	for c := 0x21; c < 0x7F; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// textWidth returns the width of text written inside quotes, as far as it
// fits in limit, and the byte of text it reached: len(text) when all of it
// fits.
func textWidth(text string, limit int) (width, end int) {
	_, width, end = appendTextTo(nil, false, text, 0, len(text), limit)
	return width, end
}

// appendText writes text[from:to] as the renderer shows text inside quotes
// (see Fields), as far as it fits in limit, cut between grapheme clusters.
// It returns the buffer, the width written and where in text it stopped.
func appendText(dst []byte, text string, from, to, limit int) ([]byte, int, int) {
	return appendTextTo(dst, true, text, from, to, limit)
}

// appendTextTo is appendText, writing only when emit is set: without it,
// the width is that of the text up to where it stops, not cut between
// clusters.
//
// Each unit of text has a width that bounds what the dispatcher's
// safe-text step makes of it: a printable character is one; a run of
// white space other than line breaks is folded into one space; a quote is
// written \" (two); a backslash may be doubled by that step (two), and
// here too when it is in a run right before a quote or the end of text
// (four); a line feed or carriage return is revealed as \n or \r (two);
// another control character, an invalid byte or a C1 control as \u{1B} or
// \x{FF} (six); a line or paragraph separator as \u{2028} (eight); a
// hidden character as \u{…} (ten); a tag character inside \hidden{…}
// (eleven, for a run of one).
func appendTextTo(dst []byte, emit bool, text string, from, to, limit int) ([]byte, int, int) {
	width, i := 0, from
	// A grapheme cluster boundary at or before i, what dst and the width
	// were there: a cut goes back to the last cluster boundary from there.
	safe, safeDst, safeW := from, len(dst), 0
	runEnd, double := -1, false // the current run of backslashes
	for i < to {
		c := text[i]
		if i == from || c < utf8.RuneSelf && text[i-1] < utf8.RuneSelf && (c != '\n' || text[i-1] != '\r') {
			safe, safeDst, safeW = i, len(dst), width
		}
		if plainText[c] {
			if width >= limit {
				break
			}
			j, stop := i+1, min(to, i+limit-width)
			for j < stop && plainText[text[j]] {
				j++
			}
			if emit {
				dst = append(dst, text[i:j]...)
			}
			width += j - i
			if j-i > 1 {
				safe, safeDst, safeW = j-1, len(dst)-1, width-1
			}
			i = j
			continue
		}
		unit, next, written := 1, i+1, text[i:i+1]
		switch {
		case c == ' ' || c == '\t':
			next, written = skipSpaces(text, i, to), " "
		case c == '"':
			unit, written = 2, `\"`
		case c == '\\':
			if i >= runEnd {
				runEnd = i
				for runEnd < len(text) && text[runEnd] == '\\' {
					runEnd++
				}
				double = runEnd == len(text) || text[runEnd] == '"'
			}
			unit = 2
			if double {
				unit, written = 4, `\\`
			}
		case c == '\n' || c == '\r':
			unit = 2
		case c < 0x20 || c == 0x7F:
			unit = 6
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(text[i:])
			next, written = i+size, text[i:i+size]
			switch {
			case r == utf8.RuneError && size == 1:
				unit = 6
			case isFoldedSpace(r):
				next, written = skipSpaces(text, i, to), " "
			default:
				unit = hiddenWidth(r)
			}
		}
		if width+unit > limit {
			break
		}
		if emit {
			dst = append(dst, written...)
		}
		width += unit
		i = next
	}
	if !emit || i >= to || i == from {
		return dst, width, i
	}
	// A cut: keep whole grapheme clusters, going back to the last cluster
	// boundary, unless the cut falls in a cluster longer than
	// MaxClusterRunes, which is cut like plain text (see FitPrefix).
	if text[i] < utf8.RuneSelf && text[i-1] < utf8.RuneSelf && (text[i] != '\n' || text[i-1] != '\r') {
		return dst, width, i
	}
	end, state := safe, -1
	for rest := text[safe:to]; rest != ""; {
		cluster, next, _, st := uniseg.FirstGraphemeClusterInString(rest, state)
		if end+len(cluster) > i {
			if utf8.RuneCountInString(cluster) > MaxClusterRunes {
				end = i
			}
			break
		}
		end += len(cluster)
		rest, state = next, st
	}
	if end == i {
		return dst, width, i
	}
	dst, w, _ := appendTextTo(dst[:safeDst], true, text, safe, end, limit-safeW)
	return dst, safeW + w, end
}

// skipSpaces returns the end of the run of white space other than line
// breaks that starts at i, at most to.
func skipSpaces(text string, i, to int) int {
	for i < to {
		c := text[i]
		if c == ' ' || c == '\t' {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return i
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isFoldedSpace(r) {
			return i
		}
		i += size
	}
	return to
}

// isFoldedSpace reports whether r is white space the safe-text step folds
// with its neighbours: any but a line break.
func isFoldedSpace(r rune) bool {
	switch r {
	case ' ', '\t', 0x00A0, 0x1680, 0x202F, 0x205F, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// hiddenWidth bounds the width of a non-ASCII rune once the safe-text step
// has revealed it: see appendTextTo.
func hiddenWidth(r rune) int {
	switch {
	case r < 0xA0: // C1 controls, U+0085 NEXT LINE included
		return 6
	case r >= 0x3040 && r <= 0xD7A3 && r != 0x3164: // kana, CJK, Hangul
		return 1
	case r == 0x2028 || r == 0x2029:
		return 8
	case r >= 0xE0000 && r <= 0xE007F:
		return 11
	case unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector):
		return 10
	}
	return 1
}
