package runtime

import (
	"bytes"
	"encoding/json"
	"iter"
	"path"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// Row is what a transcript shows for a call: its row while it runs, or its
// result line once it has run. Every text is safe text under Strip: one
// line, nothing hidden or escaped.
type Row struct {
	Icon  string // "" in minimal mode, or when the tool has none
	Title string // the tool's display name
	Text  string // the row's text; "" when there is nothing to add
	// Spans are the runs of Text its formatter asks to emphasize (see
	// Span), nil for plain text. Text reads the same without them.
	Spans []Span
	// Lines are the lines below the row: in verbose mode the call's
	// arguments as indented JSON. Each is cut at MaxLineChars characters,
	// and at most MaxLines are kept, the last then counting the others.
	Lines []Line
	// Formatter is the owner of the registration whose slot rendered Text,
	// or "" for the default rendering.
	Formatter string
	// Mark is a result line's status in the default and verbose modes:
	// MarkSuccess or MarkError, as Peekaboo's agent shows them; "" in
	// minimal mode and on a call's row.
	Mark string
	// Duration is a result line's Result.Duration as text ("1.2s",
	// "250ms"), or "" when the host gave none.
	Duration string
	// Suppressed is set on the rows and result lines of a communication
	// tool (Presentation.Communication) in the minimal and default modes:
	// a transcript does not print them. Verbose mode shows them.
	Suppressed bool
}

// The marks of result lines.
const (
	MarkSuccess = "✅"
	MarkError   = "❌"
)

// Line is a line below a row or of an expanded result: safe text, and the
// columns it is indented by (a number, so that indentation survives the
// trimming of safe text and cannot hide anything).
type Line struct {
	Indent int
	Text   string
	// Spans are the runs of Text its formatter asks to emphasize, as a
	// row's are.
	Spans []Span
}

// String returns the line with its indentation as spaces.
func (l Line) String() string { return strings.Repeat(" ", l.Indent) + l.Text }

// maxIndent bounds the indentation of a line.
const maxIndent = 40

// Line returns the row on one line: its icon, title, mark and text, and
// the duration in parentheses.
func (r Row) Line() string {
	parts := make([]string, 0, 5)
	for _, p := range []string{r.Icon, r.Title, r.Mark, r.Text} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if r.Duration != "" {
		parts = append(parts, "("+r.Duration+")")
	}
	return strings.Join(parts, " ")
}

// Bounds of the lines below a row and of expanded results.
const (
	MaxLineChars = 120 // characters of one line
	MaxLines     = 40  // lines shown; the last of them then counts the others
)

// Row returns a call's transcript row: its icon and display name, and the
// text of its formatter's row, else of its preview. While the arguments
// stream (Call.Partial) the host may render a row on every frame: a row
// that declines or fails then has no text, and a failure is retried on the
// next frame without being reported. While an oh-my-pi write streams, its
// row is the zero Row, which draws nothing, until its path cannot be a
// device's, and then the device's own row (see streamingWrite).
func (d *Dispatcher) Row(c Call, mode Mode) Row {
	in := d.decodeArgs(c)
	if inner, hold := d.streamingWrite(c, in); hold {
		return Row{}
	} else if inner != nil {
		return d.Row(*inner, mode)
	}
	row := d.rowHead(c, in, mode)
	// Once the arguments are complete, a wrapper's row shows the calls it
	// carries, whatever its own row says: a row must not hide what runs
	// either. Other calls are inspected only for the default.
	var n node
	inspected := false
	s := d.subject(c, in, d.limits.Preview)
	if !c.Partial && s.unwraps() {
		n, inspected = d.inspect(&s, false), true
		d.renderTree(&n, &s)
	}
	text, owner, ok := "", "", false
	var segs []textfmt.EmphSegment
	if !n.unwrapped() {
		text, owner, segs, ok = d.render(c, in, slotRow, nil)
	}
	switch {
	case ok:
		row.Text, row.Formatter = text, owner
	case !c.Partial:
		if !inspected {
			n = d.inspect(&s, false)
			d.renderTree(&n, &s)
		}
		p := n.preview(d)
		row.Text, row.Formatter = outputText(p.Text, Strip, d.limits.Output), p.Formatter
	}
	row.Text = relativeTo(c.Cwd, row.Text)
	if ok && mode != ModeMinimal {
		for i := range segs {
			segs[i].Text = relativeTo(c.Cwd, segs[i].Text)
		}
		row.Spans = alignSpans(row.Text, segs)
	}
	if mode == ModeVerbose {
		row.Lines = jsonLines(in, callSecrets(&c, in, nil))
	}
	return row
}

// relativeTo returns text with each absolute path inside the directory
// cwd written relative to it. Only a path that starts where a path can
// start (the text's start, after white space, a quote or a parenthesis)
// is rewritten: /etc/..CWD/x is not a path inside cwd and stays whole.
// A cwd that is not a clean absolute path, or is the root, changes
// nothing.
func relativeTo(cwd, text string) string {
	if cwd == "" || cwd == "/" || !strings.HasPrefix(cwd, "/") || path.Clean(cwd) != cwd {
		return text
	}
	prefix := cwd + "/"
	if !strings.Contains(text, prefix) {
		return text
	}
	var b strings.Builder
	i := 0
	for {
		j := strings.Index(text[i:], prefix)
		if j < 0 {
			break
		}
		at := i + j
		rest := text[at+len(prefix):]
		start := at == 0 || strings.IndexByte(" \t'\"`(", text[at-1]) >= 0
		// What follows must be a name within cwd: not empty, another
		// slash, a parent or a space.
		inside := rest != "" && !strings.HasPrefix(rest, "/") && !strings.HasPrefix(rest, " ") &&
			rest != ".." && !strings.HasPrefix(rest, "../")
		if start && inside {
			b.WriteString(text[i:at])
		} else {
			b.WriteString(text[i : at+len(prefix)])
		}
		i = at + len(prefix)
	}
	b.WriteString(text[i:])
	return b.String()
}

// resultJSON is a result as the JSON an agent reports it in: its content,
// details (when it has any) and isError, in that order (not the text
// slots derive from it).
func resultJSON(res *Result) value.Input {
	content := make([]any, len(res.Content))
	for i, c := range res.Content {
		content[i] = value.NewObject("type", c.Type, "text", c.Text)
	}
	details, err := value.FromGo(res.Details)
	if err != nil || details == nil {
		return value.Input{Value: value.NewObject("content", content, "isError", res.IsError)}
	}
	return value.Input{Value: value.NewObject("content", content, "details", details, "isError", res.IsError)}
}

// ResultRow returns the line a transcript shows once a call has run: its
// formatter's result (or error, when the result is an error) line, else a
// summary of the result's text. A call that carries one device call has
// the device's result row.
func (d *Dispatcher) ResultRow(c Call, res Result, mode Mode) Row {
	c.Partial = false
	in := d.decodeArgs(c)
	if inner, ok := d.finishedDevice(c, in); ok {
		return d.ResultRow(*inner, res, mode)
	}
	row := d.rowHead(c, in, mode)
	slot := slotResult
	if res.IsError {
		slot = slotError
	}
	if text, owner, segs, ok := d.render(c, in, slot, &res); ok {
		row.Text, row.Formatter = text, owner
		if mode != ModeMinimal {
			row.Spans = alignSpans(row.Text, segs)
		}
	} else {
		row.Text = scrubbedText(callSecrets(&c, in, nil), defaultResult(res, d.limits.Summary), Strip, d.limits.Output)
	}
	if mode != ModeMinimal {
		row.Mark = MarkSuccess
		if res.IsError {
			row.Mark = MarkError
		}
	}
	if res.Duration > 0 {
		row.Duration = textfmt.DurationText(res.Duration.Seconds())
	}
	if mode == ModeVerbose {
		// Peekaboo's verbose mode shows the result as it came, as JSON,
		// redacted as the call's arguments are.
		robj := res.Object()
		row.Lines = jsonLines(resultJSON(&res), callSecrets(&c, in, robj))
	}
	return row
}

// Expand returns the lines a transcript shows when a person expands a
// call's result: its formatter's expand lines, else the result's text,
// each cut at MaxLineChars characters, at most MaxLines of them.
func (d *Dispatcher) Expand(c Call, res Result) []Line {
	c.Partial = false
	in := d.decodeArgs(c)
	if inner, ok := d.finishedDevice(c, in); ok {
		return d.Expand(*inner, res)
	}
	if lines, sc, emph, ok := d.expand(c, in, &res); ok {
		return boundEmphLines(lines, len(lines), sc, emph)
	}
	// Blank lines at the end are not worth a line of their own.
	sc := callSecrets(&c, in, nil)
	kept, total := redactedLines(sc, strings.TrimRight(res.Text(), " \t\r\n"), MaxLines)
	return boundLines(kept, total, sc)
}

// redactedLines is firstLines of text redacted (see scrub): the lines kept
// are redacted as one text, so that a credential of several lines (the
// body of a PEM private key) is found whole, and the total counts the
// lines of text once redacted.
func redactedLines(sc *textfmt.Scrubber, text string, keep int) (kept []string, total int) {
	prefix := linesPrefix(text, keep)
	redacted := scrub(sc, prefix)
	kept, _ = firstLines(redacted, keep)
	return kept, textfmt.LineCount(text) - (textfmt.LineCount(prefix) - textfmt.LineCount(redacted))
}

// linesPrefix returns the first n lines of text, with the line break that
// ends the last of them when there is one.
func linesPrefix(text string, n int) string {
	end := 0
	for range n {
		i := strings.IndexAny(text[end:], "\r\n")
		if i < 0 {
			return text
		}
		end += i + 1
		if text[end-1] == '\r' && end < len(text) && text[end] == '\n' {
			end++
		}
	}
	return text[:end]
}

// rowHead returns the icon and display name of a call's row.
func (d *Dispatcher) rowHead(c Call, in value.Input, mode Mode) Row {
	var p Presentation
	if reg := d.renderer(c, in); reg != nil {
		if pr, ok := reg.formatter.(Presenter); ok {
			p = pr.Presentation()
		}
	}
	if text, ok := d.title(c, in); ok {
		row := Row{Title: text, Suppressed: p.Communication && mode != ModeVerbose}
		if mode != ModeMinimal {
			row.Icon = outputText(d.icon(p), Strip, maxLabelKind)
		}
		return row
	}
	if p.NoTitle && p.Title == "" {
		row := Row{Suppressed: p.Communication && mode != ModeVerbose}
		if mode != ModeMinimal {
			row.Icon = outputText(d.icon(p), Strip, maxLabelKind)
		}
		return row
	}
	title := p.Title
	name := c.Tool
	if isMCP(c) {
		if t := mcpTarget(c, in.Object()); t != "" {
			name = t
		}
	}
	if title == "" && c.Annotations != nil && c.Annotations.Title != "" {
		// A server titles its tools as it likes, "📄 Read /etc/passwd"
		// too: its title is shown after its name, so that it cannot pass
		// for the row of another tool.
		server, _, _ := strings.Cut(name, ":")
		title = server + ": " + c.Annotations.Title
	}
	// The name and the titles are not the input, but a credential the
	// input names is replaced in them as in the input.
	sc := callSecrets(&c, in, nil)
	if title == "" {
		// A name that carries a credential is shown as it is, redacted:
		// the display name's words would hide the credential from the
		// rule and from the scrubber (sk-proj-… reads Sk Proj …).
		title = DisplayName(name)
		if r := scrub(sc, name); r != name {
			title = r
		}
	}
	row := Row{Title: scrubbedText(sc, title, Strip, maxLabelName), Suppressed: p.Communication && mode != ModeVerbose}
	if mode != ModeMinimal {
		row.Icon = outputText(d.icon(p), Strip, maxLabelKind)
	}
	return row
}

// title runs a call's title expression (Titler): its text as safe text,
// redacted and bounded as a display name is, or ok false when there is
// none, it declines, it fails or it comes to nothing once made safe. The
// caller then shows the entry's static title, so that a model cannot
// blank a row's name through what it writes.
func (d *Dispatcher) title(c Call, in value.Input) (string, bool) {
	reg, req, _ := d.slotOf(c, in, slotTitle, nil)
	if reg == nil {
		return "", false
	}
	t, ok := reg.formatter.(Titler)
	if !ok {
		return "", false
	}
	out, err := guard(func() (formatted, error) {
		var f formatted
		var err error
		f.text, f.ok, err = t.Title(req)
		return f, err
	})
	if err != nil {
		d.slotFailed(c, in, req, reg, slotTitle, err)
		return "", false
	}
	if !out.ok {
		return "", false
	}
	// A title has no spans: its emphasis is the host's (permgen rows
	// shows it bold).
	text := scrubbedText(callSecrets(&c, in, nil), textfmt.StripEmph(out.text), Strip, maxLabelName)
	return text, text != ""
}

// icon returns the icon of a presentation in the dispatcher's set. An
// entry that declares an icon for one set only is shown with it in the
// other where that set can draw it: a plain symbol draws in a Nerd Font
// too, a Nerd Font glyph (in a Private Use Area) draws nowhere else.
func (d *Dispatcher) icon(p Presentation) string {
	if d.icons == IconsPlain {
		if p.PlainIcon == "" && !IsNerdGlyph(p.NerdIcon) {
			return p.NerdIcon
		}
		return p.PlainIcon
	}
	if p.NerdIcon == "" {
		return p.PlainIcon
	}
	return p.NerdIcon
}

// renderer returns the registration that renders a call's rows, from the
// topmost layer that has one: its tool's, or for an MCP call the first of
// server:tool and server:* (the umbrella mcp renders no rows of its own),
// or nil.
//
// A call with an ID keeps the registration that first rendered it for as
// long as the dispatcher remembers the call (latchSize calls): a row on
// screen does not change its icon, title or wording, nor lose them, when
// its entry is removed or replaced while the call runs.
func (d *Dispatcher) renderer(c Call, in value.Input) *registration {
	if d.reg == nil {
		return nil
	}
	// Only a finished call's renderer is kept: while the arguments stream,
	// an MCP umbrella call's target may still be growing.
	key := keptKey{tool: c.Tool, target: c.Target}
	if !c.Partial {
		key.id = c.ID
	}
	if reg := d.latch.kept(key); reg != nil {
		return reg
	}
	s := d.subject(c, in, 0)
	// The topmost layer that has a registration for the call renders it.
	for j := 0; j < s.depth(); j++ {
		for i, k := range s.lookups() {
			if k.umbrella && c.Tool != "mcp" {
				continue
			}
			if reg := s.layerReg(j, i); reg != nil {
				d.latch.keep(key, reg)
				return reg
			}
		}
	}
	return nil
}

// slot names what a Renderer renders.
type slot uint8

const (
	slotRow slot = iota + 1
	slotResult
	slotError
	slotExpand
	slotTitle
)

func (s slot) String() string {
	return [...]string{slotRow: "row", slotResult: "result", slotError: "error", slotExpand: "expand", slotTitle: "title"}[s]
}

// render runs a call's Renderer slot: the text it returns, sanitized, its
// owner and the segments of emphasis it asks for (see emphasis), or ok
// false when there is none, it declines or it fails.
func (d *Dispatcher) render(c Call, in value.Input, s slot, res *Result) (text, owner string, segs []textfmt.EmphSegment, ok bool) {
	reg, req, r := d.slotOf(c, in, s, res)
	if r == nil {
		return "", "", nil, false
	}
	out, err := guard(func() (formatted, error) {
		var f formatted
		var err error
		switch s {
		case slotRow:
			f.text, f.ok, err = r.Row(req)
		case slotResult:
			f.text, f.ok, err = r.Result(req)
		default:
			f.text, f.ok, err = r.ErrorLine(req)
		}
		return f, err
	})
	if err != nil {
		d.slotFailed(c, in, req, reg, s, err)
		return "", "", nil, false
	}
	if !out.ok {
		return "", "", nil, false
	}
	text, segs = emphasis(out.text, &req)
	return scrubbedText(callSecrets(&c, in, req.Result), text, Strip, d.limits.Output), reg.owner, segs, true
}

// expand runs a call's expand slot: its lines, the credentials of the
// call and its result they were written from, and whether their emphasis
// is honoured (see emphasis).
func (d *Dispatcher) expand(c Call, in value.Input, res *Result) ([]string, *textfmt.Scrubber, bool, bool) {
	reg, req, r := d.slotOf(c, in, slotExpand, res)
	if r == nil {
		return nil, nil, false, false
	}
	type expanded struct {
		lines []string
		ok    bool
	}
	out, err := guard(func() (expanded, error) {
		lines, ok, err := r.Expand(req)
		return expanded{lines, ok}, err
	})
	if err != nil {
		d.slotFailed(c, in, req, reg, slotExpand, err)
		return nil, nil, false, false
	}
	if !out.ok {
		return nil, nil, false, false
	}
	emph := !textfmt.HasEmph(req.Tool) && !hasEmph(req.Input) && !hasEmph(req.Result)
	return out.lines, callSecrets(&c, in, req.Result), emph, true
}

// slotOf returns the registration, request and Renderer of a call's slot,
// or a nil Renderer when there is none or the slot is latched for the call.
// The request holds the result, if any, as Result.Object makes it.
func (d *Dispatcher) slotOf(c Call, in value.Input, s slot, res *Result) (*registration, Request, Renderer) {
	reg := d.renderer(c, in)
	if reg == nil {
		return nil, Request{}, nil
	}
	r, ok := reg.formatter.(Renderer)
	if s == slotTitle {
		// A title needs no other slot of rows: r may be nil.
		_, ok = reg.formatter.(Titler)
	}
	if !ok || d.latch.has(c.ID, reg, s) {
		return nil, Request{}, nil
	}
	tool, input := c.Tool, in.Object()
	if isMCP(c) {
		target, args, umbrella := mcpInput(c, in)
		tool, input = target, args
		if reg.key == "mcp" {
			input = umbrella
		}
	}
	var result *value.Object
	if res != nil {
		result = res.Object()
	}
	return reg, Request{Tool: tool, Input: input, Limits: d.limits, Result: result, Partial: c.Partial}, r
}

// slotFailed handles a slot's failure. While the arguments stream, a
// failure is expected of input cut short: it is neither reported nor
// remembered, and the next frame runs the slot again. On a finished call it
// is reported, and the slot is latched for that call: its later renders
// use the default without running the slot again. Other calls still run
// it: a model's input must not switch a slot off.
func (d *Dispatcher) slotFailed(c Call, in value.Input, req Request, reg *registration, s slot, err error) {
	if c.Partial {
		return
	}
	sc := callSecrets(&c, in, req.Result)
	d.fail(reg, c.Tool, &SlotError{Slot: s.String(), Err: redactError(sc, err)}, sc)
	d.latch.add(c.ID, reg, s)
}

// SlotError is the error of a Failure whose formatter failed in a slot
// other than the preview.
type SlotError struct {
	Slot string // row, result, error or expand
	Err  error
}

// Error names the slot.
func (e *SlotError) Error() string { return e.Slot + ": " + e.Err.Error() }

// Unwrap returns the slot's error.
func (e *SlotError) Unwrap() error { return e.Err }

// latch remembers the slots that failed on finished calls, by call ID, up
// to latchSize of them, and the registration that rendered each call with
// an ID, up to latchSize calls; the oldest are forgotten first.
type latch struct {
	mu    sync.Mutex
	set   map[latchKey]bool
	order []latchKey

	renderers map[keptKey]*registration
	rendered  []keptKey
}

// keptKey is a call whose renderer is kept: its ID with its tool and
// target, so that two calls sharing an ID by mistake do not share a
// renderer.
type keptKey struct{ id, tool, target string }

func (l *latch) kept(k keptKey) *registration {
	if k.id == "" {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.renderers[k]
}

func (l *latch) keep(k keptKey, reg *registration) {
	if k.id == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.renderers == nil {
		l.renderers = map[keptKey]*registration{}
	}
	if _, ok := l.renderers[k]; ok {
		return
	}
	if len(l.rendered) == latchSize {
		delete(l.renderers, l.rendered[0])
		l.rendered = l.rendered[1:]
	}
	l.renderers[k] = reg
	l.rendered = append(l.rendered, k)
}

type latchKey struct {
	id  string
	reg *registration
	s   slot
}

const latchSize = 4096

func (l *latch) has(id string, reg *registration, s slot) bool {
	if id == "" {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.set[latchKey{id, reg, s}]
}

func (l *latch) add(id string, reg *registration, s slot) {
	if id == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.set == nil {
		l.set = map[latchKey]bool{}
	}
	k := latchKey{id, reg, s}
	if l.set[k] {
		return
	}
	if len(l.order) == latchSize {
		delete(l.set, l.order[0])
		l.order = l.order[1:]
	}
	l.set[k] = true
	l.order = append(l.order, k)
}

// defaultResult summarizes a result without a formatter: its first line of
// text, cut at n characters, and how many more lines there are; "done" or
// "failed" when it has no text. A line counts when it shows something once
// hidden characters are stripped: invisible padding cannot use up the
// summary, nor a line of escapes stand for the first line.
func defaultResult(res Result, n int) string {
	first, more := "", 0
	for l := range lines(res.Text()) {
		if s := outputText(strings.TrimSpace(l), Strip, n); s == "" {
			continue
		} else if first == "" {
			first = s
		} else {
			more++
		}
	}
	prefix := ""
	if res.IsError {
		prefix = "failed: "
	}
	switch {
	case first == "" && res.IsError:
		return "failed"
	case first == "":
		return "done"
	case more == 0:
		return prefix + first
	}
	return prefix + first + " (+" + textfmt.CountPhrase(more, "line", "lines") + ")"
}

// lines yields the lines of text, broken where textfmt.LineCount counts a
// break: at "\n", "\r\n" and a lone "\r". Empty text has none.
func lines(text string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for text != "" {
			i := strings.IndexAny(text, "\r\n")
			if i < 0 {
				yield(text)
				return
			}
			if !yield(text[:i]) {
				return
			}
			next := i + 1
			if text[i] == '\r' && next < len(text) && text[next] == '\n' {
				next++
			}
			text = text[next:]
			if text == "" {
				yield("") // the text ends with a line break
			}
		}
	}
}

// firstLines returns at most keep of the lines of text, and how many there
// are: a text of millions of lines costs no more than the lines shown.
func firstLines(text string, keep int) (kept []string, total int) {
	for l := range lines(text) {
		if len(kept) == keep {
			break
		}
		kept = append(kept, l)
	}
	return kept, textfmt.LineCount(text)
}

// boundLines makes lines safe, each cut at MaxLineChars characters, at most
// MaxLines of them, the last then counting the others: lines holds the
// first of total lines (all of them, or at least MaxLines), written from a
// call whose credentials sc holds.
func boundLines(lines []string, total int, sc *textfmt.Scrubber) []Line {
	return boundLinesOf(lines, total, sc, false, false)
}

// boundEmphLines is boundLines of a catalog's lines, whose emphasis marks
// are markup: removed, and when emph is set kept as the lines' spans.
func boundEmphLines(lines []string, total int, sc *textfmt.Scrubber, emph bool) []Line {
	return boundLinesOf(lines, total, sc, true, emph)
}

func boundLinesOf(lines []string, total int, sc *textfmt.Scrubber, markup, emph bool) []Line {
	if total == 0 {
		return nil
	}
	keep := min(len(lines), total)
	if total > MaxLines {
		keep = MaxLines - 1
	}
	out := make([]Line, 0, keep+1)
	for _, l := range lines[:keep] {
		trimmed := strings.TrimLeft(l, " \t")
		indent := 0
		for _, r := range l[:len(l)-len(trimmed)] {
			if r == '\t' {
				indent += 4
			} else {
				indent++
			}
		}
		var segs []textfmt.EmphSegment
		if markup && textfmt.HasEmph(trimmed) {
			if emph {
				segs = textfmt.EmphSegments(trimmed)
			}
			trimmed = textfmt.StripEmph(trimmed)
		}
		line := Line{Indent: min(indent, maxIndent), Text: scrubbedText(sc, trimmed, Strip, MaxLineChars)}
		line.Spans = alignSpans(line.Text, segs)
		out = append(out, line)
	}
	if keep < total {
		out = append(out, Line{Text: textfmt.Ellipsis + " " + textfmt.CountPhrase(total-keep, "more line", "more lines")})
	}
	return out
}

// jsonLines returns the arguments as indented JSON, in input order, cut as
// boundLines cuts, with their credentials redacted (textfmt.RedactValue,
// and the credentials sc holds): a value is redacted whole before a line
// cuts it. It writes no more lines than it keeps, however large the
// arguments.
func jsonLines(in value.Input, sc *textfmt.Scrubber) []Line {
	if in.Err != nil {
		kept, total := redactedLines(sc, in.Raw, MaxLines)
		return boundLines(kept, total, sc)
	}
	var lines []string
	var b strings.Builder
	full := func() bool { return len(lines) >= MaxLines }
	emit := func() {
		if !full() {
			lines = append(lines, b.String())
		}
		b.Reset()
	}
	// The value is walked beside its redaction (RedactValue keeps its
	// shape): a string shows as redacted, or, when it hides characters,
	// redacted as a person reads it, from the string as it is.
	show := func(orig string, red any) string {
		r, _ := red.(string)
		switch {
		case r == orig:
			return redactHidden(orig)
		case hasHidden(orig) && r != textfmt.SecretPlaceholder(utf8.RuneCountInString(orig)):
			return redactText(orig)
		}
		return r
	}
	var walk func(v, red any, depth int)
	walk = func(v, red any, depth int) {
		indent := strings.Repeat("  ", depth+1)
		if r, ok := red.(string); ok {
			if _, text := v.(string); !text {
				// A number that is a credential shows as its
				// placeholder, and a value nested too deep as
				// RedactValue cut it.
				b.WriteString(quoteJSON(r))
				return
			}
		}
		switch v := v.(type) {
		case *value.Object:
			if v.Len() == 0 {
				b.WriteString("{}")
				return
			}
			r, _ := red.(*value.Object)
			b.WriteString("{")
			for i := range v.Len() {
				if full() {
					return
				}
				emit()
				k, x := v.At(i)
				rk, rx := r.At(i)
				b.WriteString(indent + quoteJSON(visiblePrefix(show(k, rk), MaxLineChars)) + ": ")
				walk(x, rx, depth+1)
				if i < v.Len()-1 {
					b.WriteString(",")
				}
			}
			emit()
			b.WriteString(indent[2:] + "}")
		case []any:
			if len(v) == 0 {
				b.WriteString("[]")
				return
			}
			r, _ := red.([]any)
			b.WriteString("[")
			for i, x := range v {
				if full() {
					return
				}
				emit()
				b.WriteString(indent)
				walk(x, r[i], depth+1)
				if i < len(v)-1 {
					b.WriteString(",")
				}
			}
			emit()
			b.WriteString(indent[2:] + "]")
		case string:
			b.WriteString(quoteJSON(visiblePrefix(show(v, red), MaxLineChars)))
		case value.Number:
			b.WriteString(v.String())
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case nil:
			b.WriteString("null")
		}
	}
	walk(in.Value, textfmt.RedactValue(in.Value), 0)
	emit()
	return boundLines(lines, 1+extraLines(in.Value), sc)
}

// visiblePrefix returns the start of s that shows more than n characters
// once hidden characters are stripped and runs of white space folded, as
// boundLines does before it cuts a line, or all of s. A string is cut
// there before it is quoted: invisible padding cannot push out what
// follows it, and a long string costs no more than the line shows.
func visiblePrefix(s string, n int) string {
	seen, space := 0, false
	for i, r := range s {
		if seen > n {
			return s[:i]
		}
		switch {
		case isHidden(r):
			continue
		case unicode.IsSpace(r):
			if !space {
				seen++
			}
			space = true
			continue
		}
		seen++
		space = false
	}
	return s
}

// extraLines counts the lines indented JSON of v takes beyond the one it
// starts on.
func extraLines(v any) int {
	n := 0
	switch v := v.(type) {
	case *value.Object:
		if v.Len() == 0 {
			return 0
		}
		for _, x := range v.All() {
			n += 1 + extraLines(x)
		}
		return n + 1
	case []any:
		if len(v) == 0 {
			return 0
		}
		for _, x := range v {
			n += 1 + extraLines(x)
		}
		return n + 1
	}
	return 0
}

// quoteJSON is s as a JSON string, with <, > and & as they are.
func quoteJSON(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
