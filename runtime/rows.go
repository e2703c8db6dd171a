package runtime

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/value"
)

// Mode is how much a tool row or a result line shows.
type Mode uint8

// The modes.
const (
	ModeDefault Mode = iota // icon, display name and one line of text
	ModeMinimal             // no icon: plain text, for CI logs and pipes
	ModeVerbose             // as default, then the call's full arguments as indented JSON
)

var modeNames = [...]string{ModeDefault: "default", ModeMinimal: "minimal", ModeVerbose: "verbose"}

// String returns the mode's name.
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode returns the mode named s: minimal, default or verbose.
func ParseMode(s string) (Mode, error) {
	for m, name := range modeNames {
		if name == s {
			return Mode(m), nil
		}
	}
	return ModeDefault, fmt.Errorf("unknown mode %q: want minimal, default or verbose", s)
}

// Icons selects the icons of rows in the default and verbose modes.
type Icons uint8

// The icon sets.
const (
	IconsNerd  Icons = iota // Nerd Font glyphs
	IconsPlain              // plain Unicode symbols, for terminals without a Nerd Font
)

// Presentation is how rows name and draw a tool: what a catalog entry
// declares once for all its calls.
type Presentation struct {
	Title     string // display name; "" derives one from the tool name (launch_app: Launch App)
	Category  string // a kind of tool, such as file, search, web, shell, desktop
	NerdIcon  string // a Nerd Font glyph; "" shows PlainIcon in the Nerd set too
	PlainIcon string // a plain Unicode symbol; "" shows NerdIcon in the plain set when it is not a Nerd Font glyph
	// NoTitle is set by an entry that declares its title empty: its rows
	// show no display name at all, rather than one derived from the tool
	// name.
	NoTitle bool
	// Communication marks a tool that talks to the person rather than
	// acting (Peekaboo's task_completed, need_info): its rows and result
	// lines are suppressed in the minimal and default modes, and shown in
	// verbose mode only.
	Communication bool
}

// IsNerdGlyph reports whether an icon has a character of a Private Use
// Area, where Nerd Fonts put their glyphs: a terminal without a Nerd Font
// draws it as a box, or not at all.
func IsNerdGlyph(icon string) bool {
	for _, r := range icon {
		if r >= 0xE000 && r <= 0xF8FF || r >= 0xF0000 && r <= 0xFFFFD || r >= 0x100000 && r <= 0x10FFFD {
			return true
		}
	}
	return false
}

// Presenter is implemented by a formatter that declares its tool's
// presentation.
type Presenter interface {
	Presentation() Presentation
}

// Renderer is implemented by a formatter that renders its tool's rows and
// results beside its preview. Each method returns ok false to decline, and
// the dispatcher then renders the default; an error (or a panic) is a
// failure, rendered as the default too.
//
// Row receives the call's input, partial while the arguments stream
// (Request.Partial). Result, ErrorLine and Expand receive the finished
// input and the result (Request.Result); ErrorLine is used instead of
// Result when the result is an error.
type Renderer interface {
	Row(req Request) (text string, ok bool, err error)
	Result(req Request) (text string, ok bool, err error)
	ErrorLine(req Request) (text string, ok bool, err error)
	Expand(req Request) (lines []string, ok bool, err error)
}

// Titler is implemented by a formatter that computes the display name of
// one call from its input, as Peekaboo's formatForTitle does ("App Launch:
// Safari"). ok false declines, and rows show the presentation's title; so
// does an error or a panic, which is a failure reported as a slot's: a
// title the model can make fail must not blank the row.
type Titler interface {
	Title(req Request) (text string, ok bool, err error)
}

// Result is what a finished tool call returned, as agents report it.
type Result struct {
	Content []Content `json:"content"`
	Details any       `json:"details,omitempty"`
	IsError bool      `json:"isError"`
	// Duration is how long the call ran, as the host measured it; zero
	// when unknown. Result lines show it after their text ("(1.2s)").
	// Slots do not see it: a summary is the same whatever the call took.
	Duration time.Duration `json:"-"`
}

// Text returns the result's text: the text of its text items (Type "text"
// or empty) in order, each on lines of its own. Images and other items
// have none. Slots read it as result.text, and the default summary and
// expanded view read its lines.
func (r Result) Text() string {
	// Most results have one text item: its text is returned as it is.
	var b strings.Builder
	first, n := "", 0
	for _, c := range r.Content {
		if c.Type != "text" && c.Type != "" {
			continue
		}
		if n++; n == 1 {
			first = c.Text
			continue
		}
		if n == 2 {
			b.WriteString(first)
		}
		b.WriteByte('\n')
		b.WriteString(c.Text)
	}
	if n < 2 {
		return first
	}
	return b.String()
}

// Object returns the result as the slots of a Renderer see it
// (Request.Result): {"content": [{"type", "text"}, …], "details": …,
// "isError": bool, "text": r.Text()}.
func (r Result) Object() *value.Object {
	content := make([]any, len(r.Content))
	for i, c := range r.Content {
		content[i] = value.NewObject("type", c.Type, "text", c.Text)
	}
	details, err := value.FromGo(r.Details)
	if err != nil {
		details = nil
	}
	return value.NewObject("content", content, "details", details, "isError", r.IsError, "text", r.Text())
}

// Content is one item of a result's content.
type Content struct {
	Type string `json:"type"` // "text", "image", …
	Text string `json:"text,omitempty"`
}

// DisplayName derives a display name from a tool name: words split at
// underscores, hyphens, dots and spaces, each capitalized (launch_app:
// Launch App). An MCP name "server:tool" gives the tool's words, and
// "server:*" the server's.
func DisplayName(tool string) string {
	if server, t, ok := strings.Cut(tool, ":"); ok {
		tool = t
		if t == "" || t == "*" {
			tool = server
		}
	}
	words := strings.FieldsFunc(tool, func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' })
	for i, w := range words {
		r, n := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToUpper(r)) + w[n:]
	}
	return strings.Join(words, " ")
}
