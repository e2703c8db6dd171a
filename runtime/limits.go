package runtime

import "fmt"

// Default limits, in characters (runes).
const (
	DefaultPreviewLimit = 200  // JSON the default preview shows as written
	DefaultSummaryLimit = 80   // a pattern or glob in a search preview
	DefaultLogLimit     = 1000 // a log preview
	DefaultOutputLimit  = 500  // any text the dispatcher returns, after sanitizing
)

// MinOutputBytes is the smallest byte cap (Limits.OutputBytes) there is
// room in for what a prompt sentence must say: one character of the tool
// or target it names, four bytes at most, and the three of the ellipsis
// that says it was cut. A smaller cap would leave the name empty, or an
// ellipsis alone.
const MinOutputBytes = 7

// Limits bound the text the dispatcher produces, in characters (runes).
// A zero field means its default; a negative one is an error.
type Limits struct {
	// Preview is the longest JSON the default preview shows as written
	// (200); an input whose JSON is longer is shown by its fields within
	// Output (see textfmt.Fields).
	Preview int
	Summary int // a pattern or glob in a search preview (80)
	Log     int // a log preview (1000)
	// Output caps the preview and each piece of the prompt sentence (the
	// agent, tool, target, command and pattern) after sanitizing (500); log
	// values are capped by Log instead. Formatters see it as limits.output:
	// the room a preview has. It keeps hostile input from
	// producing an unbounded prompt, even where a formatter forgets to
	// truncate or revealed escapes make text longer.
	Output int
	// OutputBytes, when positive, also caps those texts in bytes of UTF-8,
	// for hosts that store or send them under a byte limit (a character
	// takes up to four bytes, so a character limit is not one): a cut
	// lands on a grapheme cluster boundary, and its ellipsis counts against
	// the budget. 0 means no byte cap; a cap below MinOutputBytes is an
	// error. A name the sentence needs (the tool, the MCP target) keeps
	// its first character whatever the cap: see MinOutputBytes.
	OutputBytes int
}

// WithDefaults returns l with every zero field set to its default, or an
// error naming the first field that is negative.
func (l Limits) WithDefaults() (Limits, error) {
	fields := []struct {
		name string
		v    *int
		def  int
	}{
		{"preview", &l.Preview, DefaultPreviewLimit},
		{"summary", &l.Summary, DefaultSummaryLimit},
		{"log", &l.Log, DefaultLogLimit},
		{"output", &l.Output, DefaultOutputLimit},
	}
	if l.OutputBytes < 0 {
		return Limits{}, fmt.Errorf("limits: output bytes must be a positive integer or 0 (no byte cap), got %d", l.OutputBytes)
	}
	if l.OutputBytes > 0 && l.OutputBytes < MinOutputBytes {
		return Limits{}, fmt.Errorf("limits: output bytes must be 0 (no byte cap) or at least %d, room for a character of the tool's name and the ellipsis, got %d",
			MinOutputBytes, l.OutputBytes)
	}
	for _, f := range fields {
		switch {
		case *f.v < 0:
			return Limits{}, fmt.Errorf("limits: %s must be a positive integer, got %d", f.name, *f.v)
		case *f.v == 0:
			*f.v = f.def
		}
	}
	return l, nil
}
