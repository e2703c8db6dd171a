package generated_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/generated"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// stockPair is one stock formatter in both forms: interpreted from
// formatters.yaml, and the native function generated from it.
type stockPair struct {
	interp *celfmt.Formatter
	native runtime.Formatter
	tools  []string // tool names its calls may carry
	keys   []string // field names worth filling in a random input
}

// stockChecked loads formatters.yaml once for the tests that read the
// checked catalog: loading it, examples and all, is the expensive part of
// each.
var stockChecked = sync.OnceValues(func() (*celfmt.Checked, error) {
	src, err := os.ReadFile(filepath.Join("..", "formatters.yaml"))
	if err != nil {
		return nil, err
	}
	return celfmt.LoadFiles("formatters.yaml", src, celfmt.DirFiles(".."), celfmt.Options{})
})

// stockPairs pairs each entry of formatters.yaml with its native
// registration, once, and gathers the names a random input draws on.
var stockPairs = sync.OnceValues(func() ([]stockPair, error) {
	checked, err := stockChecked()
	if err != nil {
		return nil, err
	}
	native := map[string]runtime.Formatter{}
	for _, e := range generated.Entries() {
		native[e.Key] = e.Formatter
	}
	pairs := make([]stockPair, 0, len(checked.Formatters))
	for _, f := range checked.Formatters {
		nf, ok := native[f.Entry.Tool]
		if !ok {
			return nil, fmt.Errorf("no native registration for %q", f.Entry.Tool)
		}
		p := stockPair{interp: f, native: nf}
		for _, tool := range append([]string{f.Entry.Tool}, f.Entry.Aliases...) {
			if server, ok := strings.CutSuffix(tool, ":*"); ok {
				tool = server + ":some_tool"
			}
			p.tools = append(p.tools, tool)
		}
		for _, ex := range f.Entry.Examples {
			if ex.Tool != "" && !slices.Contains(p.tools, ex.Tool) {
				p.tools = append(p.tools, ex.Tool)
			}
		}
		for _, fl := range f.Entry.Input {
			p.keys = append(p.keys, fl.Name)
		}
		texts := []string{f.Entry.Preview.Text}
		for _, l := range f.Entry.Lets {
			texts = append(texts, l.Expr.Text)
		}
		for _, text := range texts {
			for _, m := range fieldName.FindAllStringSubmatch(text, -1) {
				name := m[1] + m[2]
				if !slices.Contains(p.keys, name) {
					p.keys = append(p.keys, name)
				}
			}
		}
		pairs = append(pairs, p)
	}
	return pairs, nil
})

// fieldName finds the names an expression reads: selections (.name) and
// short quoted strings ("name" in input, input[?"name"]).
var fieldName = regexp.MustCompile(`\.([A-Za-z_][A-Za-z0-9_]{0,30})\b|"([A-Za-z_][A-Za-z0-9_ -]{0,30})"`)

// hostile are strings that have broken text handling before.
var hostile = []string{
	"", " ", "a", "src/main.go", "/etc/passwd", "~/.ssh/id_rsa", "line1\nline2", "\r\n", "\n",
	"tab\there", "\x00", "\x1b[31mred\x1b[0m", "\x1b]0;title\x07", "\u202eevil\u202c", "\u2066x\u2069",
	"\u200b", "\u200d", "\ufeff", "e\u0301", "👩\u200d👩\u200d👧", "🇫🇷", "\U000E0041", "\u2028", "\u2029",
	"\x7f", "\u0085", "\xff\xfe", "日本語", "SELECT 1; DROP TABLE users", "*.go", "**/*", "  padded  ",
	"a\\nb", "%s", "{}", "[]", "null", "123", "-0", "1e21", "https://example.com/a?b=c#d",
	"*** Begin Patch\n*** Add File: a.go\n+x\n*** End Patch\n",
	`[{"oldText":"a","newText":"b"}]`, "completed", "in_progress", "pending", "true",
	strings.Repeat("x", 301), strings.Repeat("é", 90), strings.Repeat("\n", 20) + "tail",
}

// numberLiterals are JSON numbers as a model may write them.
var numberLiterals = []string{
	"0", "-0", "1", "-1", "2", "3", "10", "1.5", "-2.5", "0.1", "1e21", "1E+2", "1e-7", "2.0", "100",
	"9007199254740993", "9007199254740992", "-9007199254740993", "9223372036854775807",
	"9223372036854775808", "-9223372036854775809", "18446744073709551616", "1e400", "-1e400",
	"123456789012345678901234567890", "4294967296", "0.000001", "1e-400", "5e-324", "300", "-300",
}

// chooser draws choices from the fuzzer's bytes; when they run out it
// draws zeros.
type chooser struct {
	b []byte
}

func (c *chooser) n(k int) int {
	if k <= 1 {
		return 0
	}
	if len(c.b) == 0 {
		return 0
	}
	v := int(c.b[0])
	c.b = c.b[1:]
	return v % k
}

// shaped writes a random input shaped like the tool's arguments as JSON
// text, drawing field names from keys and strings from the fuzzed ones.
type shaped struct {
	c       chooser
	keys    []string
	strs    []string
	n1      float64
	written int
}

func (s *shaped) str() string {
	switch s.c.n(4) {
	case 0, 1:
		return s.strs[s.c.n(len(s.strs))]
	case 2:
		return hostile[s.c.n(len(hostile))]
	default:
		return s.strs[s.c.n(len(s.strs))] + hostile[s.c.n(len(hostile))] + s.strs[s.c.n(len(s.strs))]
	}
}

func (s *shaped) number() string {
	switch s.c.n(3) {
	case 0, 1:
		return numberLiterals[s.c.n(len(numberLiterals))]
	default:
		if b, err := json.Marshal(s.n1); err == nil {
			return string(b)
		}
		return "0"
	}
}

func (s *shaped) key() string {
	if len(s.keys) == 0 || s.c.n(8) == 0 {
		return s.str()
	}
	return s.keys[s.c.n(len(s.keys))]
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// value writes one JSON value of the kind the next choice picks.
func (s *shaped) value(b *strings.Builder, depth int) {
	s.written++
	kind := s.c.n(11)
	if depth > 3 || s.written > 200 {
		kind %= 4
	}
	switch kind {
	case 0:
		b.WriteString(quote(s.str()))
	case 1:
		b.WriteString(s.number())
	case 2:
		b.WriteString([]string{"true", "false"}[s.c.n(2)])
	case 3:
		b.WriteString("null")
	case 4, 5: // a list of strings, numbers or edit-like objects
		n := s.c.n(5)
		elem := s.c.n(4)
		b.WriteByte('[')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			switch elem {
			case 0:
				b.WriteString(quote(s.str()))
			case 1:
				b.WriteString(s.number())
			case 2:
				b.WriteString(`{"oldText":` + quote(s.str()) + `,"newText":` + quote(s.str()) + `}`)
			default:
				s.value(b, depth+1)
			}
		}
		b.WriteByte(']')
	case 6, 7:
		s.object(b, depth+1, s.c.n(5))
	case 8: // a string that is itself JSON: a list of edits
		var inner strings.Builder
		inner.WriteByte('[')
		for i := range s.c.n(3) + 1 {
			if i > 0 {
				inner.WriteByte(',')
			}
			inner.WriteString(`{"oldText":` + quote(s.str()) + `,"newText":` + quote(s.str()) + `}`)
		}
		inner.WriteByte(']')
		b.WriteString(quote(inner.String()))
	default:
		b.WriteString(quote(s.str()))
	}
}

func (s *shaped) object(b *strings.Builder, depth, n int) {
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(quote(s.key()))
		b.WriteByte(':')
		s.value(b, depth)
	}
	b.WriteByte('}')
}

// fuzzLimit maps a fuzzed number to a limit between 1 and 300; 0 gives
// the default.
func fuzzLimit(v uint16, def int) int {
	if v == 0 {
		return def
	}
	return 1 + int(v-1)%300
}

// FuzzNativeAgainstInterpreter runs a stock formatter, chosen by index,
// natively and through the interpreter on random input, and requires the
// same preview, the same decline and the same failure class. Mode bit 0
// picks the input: 0 shapes one like the tool's arguments from the choice
// bytes in data, 1 decodes data as the call's raw arguments (non-object
// input becomes the object the dispatcher gives).
func FuzzNativeAgainstInterpreter(f *testing.F) {
	pairs, err := stockPairs()
	if err != nil {
		f.Fatal(err)
	}
	for i, p := range pairs {
		for _, ex := range p.interp.Entry.Examples {
			js := textfmt.CompactJSON(ex.Input)
			toolChoice := 0
			if ex.Tool != "" {
				toolChoice = slices.Index(p.tools, ex.Tool)
			}
			f.Add(uint16(i), uint8(1), uint8(toolChoice), []byte(js), "", "", 0.0,
				uint16(ex.Limits.Preview), uint16(ex.Limits.Summary), uint16(ex.Limits.Log))
		}
		// A shaped input drawn from a few fixed choice bytes.
		f.Add(uint16(i), uint8(0), uint8(0), []byte{3, 1, 0, 7, 2, 5, 4, 9, 1, 6, 8, 2, 0, 3}, "src/a.go", "x\ny", 1.5,
			uint16(0), uint16(0), uint16(0))
	}
	f.Fuzz(func(t *testing.T, idx uint16, mode, toolChoice uint8, data []byte, s1, s2 string, n1 float64, lp, ls, ll uint16) {
		if len(data) > 1<<16 {
			return
		}
		p := pairs[int(idx)%len(pairs)]
		tool := p.tools[int(toolChoice)%len(p.tools)]
		limits := runtime.Limits{
			Preview: fuzzLimit(lp, celfmt.DefaultLimits.Preview),
			Summary: fuzzLimit(ls, celfmt.DefaultLimits.Summary),
			Log:     fuzzLimit(ll, celfmt.DefaultLimits.Log),
			Output:  celfmt.DefaultLimits.Output,
		}
		var in *value.Object
		if mode&1 == 1 {
			in = value.DecodeInput(data).Object()
		} else {
			s := &shaped{c: chooser{b: data}, keys: p.keys, strs: []string{s1, s2}, n1: n1}
			var b strings.Builder
			s.object(&b, 0, 1+s.c.n(len(p.keys)+3))
			v, err := value.DecodeJSON([]byte(b.String()))
			if err != nil {
				t.Fatalf("shaped input is not JSON: %v\n%s", err, b.String())
			}
			in = value.Input{Value: v}.Object()
		}
		var interp, nat outcome
		interp.Text, interp.OK, interp.Err = p.interp.Run(in, tool, limits)
		if errors.Is(interp.Err, celfmt.ErrCostLimit) {
			return // the interpreter's cost units, which native code does not count
		}
		req := runtime.Request{Tool: tool, Input: in, Limits: limits}
		nat.Text, nat.OK, nat.Err = p.native.Format(req)
		if !agree(nat, interp) {
			t.Fatalf("native and interpreted %s disagree\ntool:        %s\nlimits:      %+v\ninput:       %s\nnative:      %s\ninterpreted: %s",
				p.interp.Entry.Tool, tool, limits, textfmt.CompactJSON(in), nat, interp)
		}
		if u, ok := p.native.(runtime.Unwrapper); ok {
			icalls, ierr := p.interp.Unwrap(req)
			ncalls, nerr := u.Unwrap(req)
			if !errors.Is(ierr, celfmt.ErrCostLimit) &&
				((ierr != nil) != (nerr != nil) || ierr != nil && !sameFailure(nerr, ierr) || ierr == nil && callsText(icalls) != callsText(ncalls)) {
				t.Fatalf("native and interpreted unwrap of %s disagree\ninput:       %s\nnative:      %s %v\ninterpreted: %s %v",
					tool, textfmt.CompactJSON(in), callsText(ncalls), nerr, callsText(icalls), ierr)
			}
		}
		if r, ok := p.native.(runtime.Renderer); ok {
			// The row on this input, and the result and error lines and the
			// expanded lines of a result made of the fuzzed strings with
			// the input as its details.
			res := runtime.Result{Content: []runtime.Content{{Type: "text", Text: s1}, {Type: s2, Text: s2}},
				Details: in, IsError: n1 > 0}.Object()
			rreq := req
			rreq.Result = res
			type slot struct {
				name   string
				native func() (string, bool, error)
				interp func() (string, bool, error)
			}
			join := func(f func(runtime.Request) ([]string, bool, error), req runtime.Request) func() (string, bool, error) {
				return func() (string, bool, error) {
					lines, ok, err := f(req)
					return strings.Join(lines, "\n"), ok, err
				}
			}
			for _, sl := range []slot{
				{"row", func() (string, bool, error) { return r.Row(req) }, func() (string, bool, error) { return p.interp.Row(req) }},
				{"result", func() (string, bool, error) { return r.Result(rreq) }, func() (string, bool, error) { return p.interp.Result(rreq) }},
				{"error", func() (string, bool, error) { return r.ErrorLine(rreq) }, func() (string, bool, error) { return p.interp.ErrorLine(rreq) }},
				{"expand", join(r.Expand, rreq), join(p.interp.Expand, rreq)},
			} {
				var a, b outcome
				a.Text, a.OK, a.Err = sl.native()
				b.Text, b.OK, b.Err = sl.interp()
				if errors.Is(b.Err, celfmt.ErrCostLimit) {
					continue
				}
				if !agree(a, b) {
					t.Fatalf("native and interpreted %s of %s disagree\ninput:       %s\nnative:      %s\ninterpreted: %s",
						sl.name, tool, textfmt.CompactJSON(in), a, b)
				}
			}
		}
		if f, ok := p.native.(runtime.Tierer); ok {
			itier, ierr := p.interp.Tier(req)
			ntier, nerr := f.Tier(req)
			if !errors.Is(ierr, celfmt.ErrCostLimit) &&
				((ierr != nil) != (nerr != nil) || ierr != nil && !sameFailure(nerr, ierr) || itier != ntier) {
				t.Fatalf("native and interpreted tier of %s disagree\ninput:       %s\nnative:      %v %v\ninterpreted: %v %v",
					tool, textfmt.CompactJSON(in), ntier, nerr, itier, ierr)
			}
		}
	})
}

// callsText is the calls a wrapper carries, as text to compare. A number
// that is a call's whole input compares as a double: the interpreter holds
// it as one, while translated code keeps the input's digits (an input
// object keeps them in both).
func callsText(calls []runtime.InnerCall) string {
	var b strings.Builder
	for _, c := range calls {
		in := c.Input
		if n, ok := in.(value.Number); ok {
			in = value.NumberOf(n.Float64())
		}
		fmt.Fprintf(&b, "%q %q %T %s\n", c.Tool, c.Kind, in, textfmt.CompactJSON(in))
	}
	return b.String()
}

// outcome is what one run of a formatter gave.
type outcome struct {
	Text string
	OK   bool
	Err  error
}

func (o outcome) String() string {
	if o.Err != nil {
		return fmt.Sprintf("failure: %v", o.Err)
	}
	if !o.OK {
		return "decline"
	}
	return "preview " + strconv.Quote(o.Text)
}

// agree reports whether the native and interpreted outcomes agree: the
// same failure (see sameFailure), else the same decline, else the same
// text.
func agree(native, interp outcome) bool {
	if (native.Err != nil) != (interp.Err != nil) {
		return false
	}
	if native.Err != nil {
		return sameFailure(native.Err, interp.Err)
	}
	return native.OK == interp.OK && (!native.OK || native.Text == interp.Text)
}

// sameFailure reports whether two failures agree: the same message for
// the memory budget, which both backends share, and otherwise failures
// of the same let, or of no let. (The interpreter's other messages are
// cel-go's, which celrt's sentinel errors word otherwise.) It is gen's
// rule for the examples.
func sameFailure(native, interp error) bool {
	if errors.Is(native, celrt.ErrBudget) || errors.Is(interp, celfmt.ErrBudget) {
		return native.Error() == interp.Error()
	}
	return letOf(native) == letOf(interp)
}

// letOf is the let a failure names ("let count: …"), or "".
func letOf(err error) string {
	rest, ok := strings.CutPrefix(err.Error(), "let ")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, ":")
	return name
}
