package celfmt

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pos is a position in a catalog file. Line and Col are 1-based; Col counts
// characters (runes).
type Pos struct {
	File string
	Line int
	Col  int
}

// String returns "file:line:col".
func (p Pos) String() string {
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

func (p Pos) compare(q Pos) int {
	if c := strings.Compare(p.File, q.File); c != 0 {
		return c
	}
	if p.Line != q.Line {
		return p.Line - q.Line
	}
	return p.Col - q.Col
}

// Error is one diagnostic at a position.
type Error struct {
	Pos Pos
	Msg string
}

// Error returns "file:line:col: message".
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is every diagnostic of a load, sorted by position. It implements
// error; Error prints one line per diagnostic, and Snippets adds the source
// line and a caret under each position.
type ErrorList []*Error

// Add appends a diagnostic.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Sort sorts the list by position and then message, dropping exact
// duplicates.
func (l *ErrorList) Sort() {
	slices.SortStableFunc(*l, func(a, b *Error) int {
		if c := a.Pos.compare(b.Pos); c != 0 {
			return c
		}
		return strings.Compare(a.Msg, b.Msg)
	})
	*l = slices.CompactFunc(*l, func(a, b *Error) bool { return *a == *b })
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Error returns one line per diagnostic.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Snippets returns the diagnostics with, under each, the line of src it
// points into and a caret under the column:
//
//	catalog.yaml:7:13: undeclared reference to 'inptu' (did you mean 'input'?)
//	    preview: inptu.path
//	             ^
//
// A catalog may come from untrusted configuration, so control and format
// characters of the source are shown as '?' (one for one, so the caret
// still lines up) rather than sent to a terminal.
func (l ErrorList) Snippets(src []byte) string {
	return l.SnippetsOf(func(string) []byte { return src })
}

// SnippetsOf is Snippets for a catalog of several files: src returns the
// text of the file a position names (nil when it has none).
func (l ErrorList) SnippetsOf(src func(file string) []byte) string {
	var b strings.Builder
	split := map[string][]string{}
	for _, e := range l {
		b.WriteString(printable(e.Error()))
		b.WriteByte('\n')
		lines, ok := split[e.Pos.File]
		if !ok {
			lines = strings.Split(string(src(e.Pos.File)), "\n")
			split[e.Pos.File] = lines
		}
		if e.Pos.Line < 1 || e.Pos.Line > len(lines) {
			continue
		}
		line := strings.TrimRight(lines[e.Pos.Line-1], "\r")
		b.WriteString("    ")
		b.WriteString(printable(line))
		b.WriteString("\n    ")
		caret := min(max(e.Pos.Col-1, 0), utf8.RuneCountInString(line))
		b.WriteString(strings.Repeat(" ", caret))
		b.WriteString("^\n")
	}
	return b.String()
}

// printable replaces tabs with spaces, and control, format and invalid
// characters with '?', rune for rune.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r == utf8.RuneError, unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == 0x2028, r == 0x2029:
			return '?'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}
