package celfmt

import "path/filepath"

// CatalogVersion is the catalog file format version this package reads.
const CatalogVersion = 1

// Catalog is a formatter catalog as written in YAML: the result of Parse,
// before any expression is compiled. Every element knows its position.
type Catalog struct {
	File       string
	Version    int
	Formatters []*Entry
}

// Entry is one formatter of a catalog.
type Entry struct {
	Pos     Pos    // where the entry starts (its first key)
	Tool    string // the registry key
	ToolPos Pos
	// Aliases are other tool names of the same formatter, registered with
	// it; AliasPos holds their positions.
	Aliases     []string
	AliasPos    []Pos
	Title       string
	Description string
	// Input lists the declared input fields in the order written, or is nil
	// when the entry declares none (input is then a map of dyn).
	Input    []Field
	Lets     []Let
	Preview  Source
	Examples []Example
}

// Owner is the name a registration of the entry carries, in generated code
// and when the catalog is loaded at run time alike: the catalog file and the
// tool, "formatters.yaml#read". The tool is unique in a catalog, so a
// duplicate registration names the file and the entry. It holds no
// position: adding an entry or an example to a catalog changes nothing in
// the code generated for the other entries. Pos says where the entry is.
func (e *Entry) Owner() string { return filepath.ToSlash(e.Pos.File) + "#" + e.Tool }

// Field is a declared input field.
type Field struct {
	Name    string
	NamePos Pos
	Type    string // CEL type as written: string, int, list(string), map(string, dyn), …
	TypePos Pos
}

// Let is a named sub-expression.
type Let struct {
	Name    string
	NamePos Pos
	Expr    Source
}

// Example is an input with the expected preview, or with the expectation
// that the formatter declines.
type Example struct {
	Pos   Pos
	Input any // a model value (*value.Object for an object)
	// Extra is set when the input has fields the entry does not declare on
	// purpose (to show that they are ignored); otherwise such a field is an
	// error.
	Extra bool
	// Tool is the tool name the example's call uses; "" means the entry's
	// tool. An entry keyed "server:*" names one tool of the server here.
	Tool    string
	ToolPos Pos
	// Limits are the limits the example runs with; a zero field means the
	// default.
	Limits     Limits
	Preview    string
	PreviewPos Pos
	Declines   bool
}

// Source is the text of a CEL expression and where each of its characters
// stands in the catalog file.
type Source struct {
	Text string
	Pos  Pos   // the position of the scalar that holds the text
	at   []Pos // position of each rune of Text, when known
	// tooLong is set when Text is longer than MaxExpressionChars: it was
	// reported, and is not compiled.
	tooLong bool
}

// PosAt returns the file position of a location in the expression: line is
// 1-based and col a 0-based rune offset, as cel-go reports them.
func (s Source) PosAt(line, col int) Pos {
	if line < 1 || col < 0 {
		return s.Pos
	}
	offset := 0 // runes before the line
	for l := 1; l < line; l++ {
		i := indexRuneFrom(s.Text, '\n', offset)
		if i < 0 {
			return s.Pos
		}
		offset = i + 1
	}
	offset += col
	if offset >= len(s.at) {
		if len(s.at) == 0 {
			return s.Pos
		}
		last := s.at[len(s.at)-1]
		last.Col += offset - len(s.at) + 1
		return last
	}
	return s.at[offset]
}

// indexRuneFrom returns the rune index of the first r at or after rune
// index from in s, or -1.
func indexRuneFrom(s string, r rune, from int) int {
	i := 0
	for _, c := range s {
		if i >= from && c == r {
			return i
		}
		i++
	}
	return -1
}

// NewSource returns a Source for an expression that does not come from a
// catalog file, such as one a host application registers at run time:
// positions are the expression's own lines and columns, in file.
func NewSource(file, text string) Source {
	if tooLong(text) {
		return Source{Text: text, Pos: Pos{File: file, Line: 1, Col: 1}}
	}
	at := make([]Pos, 0, len(text))
	line, col := 1, 1
	for _, r := range text {
		at = append(at, Pos{File: file, Line: line, Col: col})
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return Source{Text: text, Pos: Pos{File: file, Line: 1, Col: 1}, at: at}
}
