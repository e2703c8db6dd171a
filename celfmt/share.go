package celfmt

import (
	"slices"
	"strconv"

	"github.com/permgen/permgen/runtime"
)

// Bounds of a catalog's shared lets (the top-level let). Each formatter
// that uses a shared let checks it again in its own environment, so the
// work of checking grows with how often shared lets are used, not with
// the size of the file; these bounds keep it within a few times what a
// catalog of the largest size costs without them.
const (
	// MaxSharedLetUses is how many times, over all its formatters, a
	// catalog's formatters may use its shared lets.
	MaxSharedLetUses = 10_000
	// MaxSharedLetChars bounds the characters of those uses together.
	MaxSharedLetChars = 2 * MaxCatalogBytes
)

// letScope is the formatters of one file of a catalog with the shared
// lets they see: lets[own:] are the file's own, the others those of the
// files that include it.
type letScope struct {
	lets    []Let
	own     int
	entries []*Entry
}

// share gives each formatter the shared lets it uses (see Catalog.Lets):
// a shared let that a formatter's lets or slots name, directly or through
// another shared let, joins the formatter's lets just before the first of
// its own lets that needs it, or after all of them when only slots do. It
// then sees the formatter's lets before that point, and the shared lets
// written before it.
func (p *parser) share(scopes []letScope) {
	uses, chars := 0, 0
	// used holds the shared lets some formatter uses, by position: one
	// that none uses would never be checked, so it is reported.
	used, over := map[Pos]bool{}, false
	defer func() {
		for _, sc := range scopes {
			for _, l := range sc.lets[sc.own:] {
				if !used[l.NamePos] && !over {
					p.errs.Add(l.NamePos, "let %q is shared by the catalog, but no formatter uses it: remove it, or use it", l.Name)
				}
			}
		}
	}()
	for _, sc := range scopes {
		if over || len(sc.lets) == 0 {
			continue
		}
		var ok bool
		if uses, chars, ok = p.shareScope(sc, used, uses, chars); !ok {
			over = true
		}
	}
}

// shareScope gives the formatters of one scope the shared lets they use,
// counting the uses and their characters from uses and chars; it reports
// false when a bound is exceeded, having said so.
func (p *parser) shareScope(sc letScope, usedLets map[Pos]bool, uses, chars int) (int, int, bool) {
	shared := sc.lets
	index := make(map[string]int, len(shared))
	for j, l := range shared {
		index[l.Name] = j
	}
	// needs[j] are the shared lets written before shared let j that it
	// names. (One it names that is written after it is undeclared where
	// it is checked, as in a formatter's lets.)
	needs := make([][]int, len(shared))
	for j, l := range shared {
		for _, name := range mentions(l.Expr.Text) {
			if k, ok := index[name]; ok && k < j {
				needs[j] = append(needs[j], k)
			}
		}
	}
	for _, e := range sc.entries {
		own := map[string]bool{}
		for _, l := range e.Lets {
			own[l.Name] = true
			if j, ok := index[l.Name]; ok {
				p.errs.Add(l.NamePos, "let %q is also the name of a let the catalog shares, at %s: rename one", l.Name, shared[j].NamePos)
			}
		}
		// at[j] is where shared let j joins: before the formatter's own
		// let at[j], or after all of them; -1 when it is not used.
		at := make([]int, len(shared))
		for j := range at {
			at[j] = -1
		}
		need := func(j, where int) {
			if at[j] < 0 || where < at[j] {
				at[j] = where
			}
		}
		mark := func(text string, where int) {
			for _, name := range mentions(text) {
				if j, ok := index[name]; ok && !own[name] {
					need(j, where)
				}
			}
		}
		for i, l := range e.Lets {
			mark(l.Expr.Text, i)
		}
		for _, src := range e.slotSources() {
			mark(src.Text, len(e.Lets))
		}
		// A shared let names only the ones before it, so walking them
		// backwards settles each before the ones it names.
		var used []int
		for j := len(shared) - 1; j >= 0; j-- {
			if at[j] < 0 {
				continue
			}
			used = append(used, j)
			for _, k := range needs[j] {
				need(k, at[j])
			}
		}
		if len(used) == 0 {
			continue
		}
		for _, j := range used {
			usedLets[shared[j].NamePos] = true
			uses++
			chars += len(shared[j].Expr.Text)
		}
		if uses > MaxSharedLetUses || chars > MaxSharedLetChars {
			p.errs.Add(e.Pos, "the formatters up to this one use the catalog's shared lets %d times (%d characters), more than the %d times (%d characters) a catalog may: "+
				"move what only a few formatters use into their own lets", uses, chars, MaxSharedLetUses, MaxSharedLetChars)
			return uses, chars, false
		}
		if len(e.Lets)+len(used) > MaxLets {
			p.errs.Add(e.Pos, "the formatter has %d lets with the shared ones it uses, more than the %d a formatter may have: combine some with cel.bind, or split the formatter",
				len(e.Lets)+len(used), MaxLets)
			continue
		}
		slices.SortFunc(used, func(a, b int) int {
			if at[a] != at[b] {
				return at[a] - at[b]
			}
			return a - b
		})
		lets := make([]Let, 0, len(e.Lets)+len(used))
		next := 0
		for i := 0; i <= len(e.Lets); i++ {
			for next < len(used) && at[used[next]] == i {
				l := shared[used[next]]
				l.Shared = true
				lets = append(lets, l)
				next++
			}
			if i < len(e.Lets) {
				lets = append(lets, e.Lets[i])
			}
		}
		e.Lets = lets
	}
	return uses, chars, true
}

// slotSources are the texts of an entry's slots that may name lets.
func (e *Entry) slotSources() []Source {
	srcs := []Source{e.Preview, e.Unwrap, e.Row, e.Result, e.Error, e.Expand, e.TitleExpr}
	if e.StaticTier == runtime.TierUnknown {
		srcs = append(srcs, e.Tier)
	}
	return srcs
}

// mentions returns the names a CEL expression may use as variables, in
// the order of their first use: its identifiers outside string and bytes
// literals and comments, except a field after "." or ".?" and a function before
// an opening parenthesis. It reads the text as CEL's lexer does, but it
// may name more than the expression uses (a comprehension's variable, a
// map key written bare); a name it adds only makes a shared let checked
// where it is not needed.
func mentions(text string) []string {
	var names []string
	// The last two characters outside literals and white space: a field
	// follows "." or ".?".
	last, beforeLast := byte(0), byte(0)
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '/' && i+1 < len(text) && text[i+1] == '/':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		case c == '"' || c == '\'':
			i = skipQuoted(text, i, false)
		case c == '`':
			// A quoted field name: a.`b-c`.
			i++
			for i < len(text) && text[i] != '`' {
				i++
			}
			i++
		case c >= '0' && c <= '9':
			for i < len(text) && isIdentByte(text[i]) {
				i++
			}
		case isIdentByte(c):
			start := i
			for i < len(text) && isIdentByte(text[i]) {
				i++
			}
			word := text[start:i]
			if i < len(text) && (text[i] == '"' || text[i] == '\'') && isStringPrefix(word) {
				i = skipQuoted(text, i, word != "b" && word != "B")
				break
			}
			field := last == '.' || last == '?' && beforeLast == '.'
			if !field && !calledAt(text, i) && !slices.Contains(names, word) {
				names = append(names, word)
			}
		default:
			i++
		}
		last, beforeLast = c, last
	}
	return names
}

// skipQuoted returns the index after the string literal that starts at i
// (single, double or triple quotes); raw literals have no escapes.
func skipQuoted(text string, i int, raw bool) int {
	q := text[i]
	triple := i+2 < len(text) && text[i+1] == q && text[i+2] == q
	if triple {
		i += 3
	} else {
		i++
	}
	for i < len(text) {
		switch {
		case text[i] == '\\' && !raw:
			i += 2
		case text[i] == q && !triple:
			return i + 1
		case text[i] == q && i+2 < len(text) && text[i+1] == q && text[i+2] == q:
			return i + 3
		case text[i] == '\n' && !triple:
			return i + 1 // not a literal CEL accepts; the check says so
		default:
			i++
		}
	}
	return i
}

// isStringPrefix reports whether word, written just before a quote, is a
// literal's prefix: r (raw), b (bytes) or both, in any case.
func isStringPrefix(word string) bool {
	if len(word) == 0 || len(word) > 2 {
		return false
	}
	raw, bytes := 0, 0
	for i := 0; i < len(word); i++ {
		switch word[i] {
		case 'r', 'R':
			raw++
		case 'b', 'B':
			bytes++
		default:
			return false
		}
	}
	return raw <= 1 && bytes <= 1
}

// calledAt reports whether the text after i, white space skipped, opens a
// call.
func calledAt(text string, i int) bool {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	return i < len(text) && text[i] == '('
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// sharedWhat is how diagnostics name a let: "let name", and for a shared
// let, the formatter that uses it.
func sharedWhat(l Let, e *Entry) string {
	if !l.Shared {
		return "let " + l.Name
	}
	return "let " + l.Name + " (shared, as the formatter for " + strconv.Quote(e.Tool) + " uses it)"
}
