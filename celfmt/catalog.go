package celfmt

import (
	"path/filepath"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

// CatalogVersion is the catalog file format version this package reads.
const CatalogVersion = 1

// Catalog is a formatter catalog as written in YAML: the result of Parse,
// before any expression is compiled. Every element knows its position.
type Catalog struct {
	File    string
	Version int
	// Lets are the lets the catalog shares among its formatters (the
	// top-level let). Parse gives each formatter the ones it uses, in
	// its Lets with Shared set.
	Lets       []Let
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
	Input []Field
	// Omits are input fields the entry deliberately does not show (a
	// free-text description, say), in the order written, with their
	// positions: the dispatcher shows every other field that no expression
	// reads after the preview (see runtime.FieldReader), and permgen list
	// shows these to a reviewer.
	Omits    []string
	OmitsPos []Pos
	Lets     []Let
	// Preview formats the call; its Text is "" when the entry has none.
	Preview Source
	// Unwrap returns the calls a wrapper call carries; its Text is "" when
	// the entry has none.
	Unwrap Source
	// Tier is the entry's approval tier as written: a tier's name, then
	// held in StaticTier too, or a CEL expression of type string. Its Text
	// is "" when the entry declares no tier.
	Tier       Source
	StaticTier runtime.Tier
	// Category and Icon are how rows present the tool (see
	// runtime.Presentation); Title is its display name.
	Category string
	Icon     Icon
	// NoTitle is set when the entry declares its title empty (title: ""):
	// its rows show no display name.
	NoTitle bool
	// Communication marks a tool that talks to the person rather than
	// acting (communication: true): rows suppress it outside verbose mode.
	Communication bool
	// Row renders the one-line transcript row of a call, while its
	// arguments arrive; Result and Error the one-line summary of a finished
	// or a failed call; Expand the lines shown on demand. Their Text is ""
	// when the entry does not have them. Result, Error and Expand see the
	// variable result.
	Row, Result, Error, Expand Source
	// TitleExpr computes the display name of one call (title: {expr: …}),
	// of type string or optional_type(string); its Text is "" when the
	// entry has none. Title is its fallback when it declines or fails.
	TitleExpr Source
	Examples  []Example
}

// Icon is an entry's icons: a Nerd Font glyph and a plain Unicode symbol,
// either "" when not declared.
type Icon struct {
	Nerd, Plain string
}

// HasRow reports whether the entry renders rows.
func (e *Entry) HasRow() bool { return e.Row.Text != "" }

// HasResult reports whether the entry summarizes results.
func (e *Entry) HasResult() bool { return e.Result.Text != "" }

// HasError reports whether the entry summarizes errors.
func (e *Entry) HasError() bool { return e.Error.Text != "" }

// HasExpand reports whether the entry has an expanded view.
func (e *Entry) HasExpand() bool { return e.Expand.Text != "" }

// HasTitleExpr reports whether the entry computes a title per call.
func (e *Entry) HasTitleExpr() bool { return e.TitleExpr.Text != "" }

// Presentation is how rows name and draw the entry's tool: its title,
// category and icons. Title is "" when the entry has none: the dispatcher
// derives one from the tool name.
func (e *Entry) Presentation() runtime.Presentation {
	return runtime.Presentation{Title: e.Title, Category: e.Category, NerdIcon: e.Icon.Nerd, PlainIcon: e.Icon.Plain,
		NoTitle: e.NoTitle, Communication: e.Communication}
}

// HasPreview reports whether the entry has a preview.
func (e *Entry) HasPreview() bool { return e.Preview.Text != "" }

// HasUnwrap reports whether the entry has an unwrap expression.
func (e *Entry) HasUnwrap() bool { return e.Unwrap.Text != "" }

// HasTier reports whether the entry declares a tier, by name or by an
// expression.
func (e *Entry) HasTier() bool { return e.Tier.Text != "" }

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
	// Shared is set on a let of the catalog's (Catalog.Lets) among the
	// lets of a formatter that uses it.
	Shared bool
}

// Example is an input with what the formatter must make of it: the
// expected preview or a decline, the calls it carries, its tier (at least
// one of them).
type Example struct {
	Pos Pos
	// mistyped is set when a declared field's value has another type:
	// that is reported where the value is, and the example is not run.
	mistyped bool
	Input    any // a model value (*value.Object for an object)
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
	PreviewPos Pos // zero when the example expects no preview
	Declines   bool
	// Calls are the calls the formatter's Unwrap must return when HasCalls
	// is set: an empty list means the call carries none.
	Calls    []ExampleCall
	HasCalls bool
	CallsPos Pos
	// Tier is the tier the formatter must return; TierUnknown when the
	// example does not say.
	Tier    runtime.Tier
	TierPos Pos
	// Output is the call's result that the result, error and expand slots
	// of the example see: an object with content, details and isError, or
	// nil when the example has none (those slots are then not run).
	Output    *value.Object
	OutputPos Pos
	// Row is the row the formatter must render when RowPos is set (the
	// position of row or rowDeclines), or RowDeclines says it must decline.
	Row         string
	RowPos      Pos
	RowDeclines bool
	// Title is the title of the call the title expression must compute,
	// when TitlePos is set.
	Title    string
	TitlePos Pos
	// Result and Error are the summaries the formatter must render for
	// Output, when ResultPos and ErrorPos are set.
	Result    string
	ResultPos Pos
	Error     string
	ErrorPos  Pos
	// Expand is the expanded view the formatter must render for Output,
	// when ExpandPos is set.
	Expand    []string
	ExpandPos Pos
}

// ChecksRow reports whether the example states a row or its decline.
func (ex Example) ChecksRow() bool { return ex.RowPos != (Pos{}) }

// ChecksPreview reports whether the example states a preview or a
// decline.
func (ex Example) ChecksPreview() bool { return ex.Declines || ex.PreviewPos != (Pos{}) }

// ExampleCall is a call an example expects Unwrap to return.
type ExampleCall struct {
	Pos  Pos
	Tool string
	// Input is a model value: *value.Object, a list, a number, a string
	// (JSON text, compared as a string) or nil.
	Input any
	Kind  string
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
