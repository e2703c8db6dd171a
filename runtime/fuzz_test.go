package runtime

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
	"github.com/rivo/uniseg"
)

var hostileSeeds = []string{
	"plain text", "  spaced   out  ", "\x1b[31mred\x1b[0m", "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07",
	"\x1b]0;unterminated", "\x1bPdcs\x1b\\", "\u009b31m", "\u009d0;t\u009c", "a\rb\nc\r\nd\u2028e",
	"/tmp/\u202egnp.exe", "\u2066\u2069\u200e", "ss\u200bh\ufeff", "ok\U000E0049\U000E0067",
	"👨\u200d👩\u200d👧", "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", "e\u0301\u0301\u0301",
	"abx" + strings.Repeat("\u0301", 40),
	"😀\ufe0f\ufe0f\U000E0100", "\xff\xfe", "日本語 العربية עברית", "\u200d", "1\ufe0f\u20e3",
	"/home/dev/.ss\u034fh/id_rsa", "a\u1160b\u180b\u180fc", ".ss\ufe0fh", "🏴\U000E0072\U000E006D\U000E007F",
	`echo x\ntouch /tmp/pwned`, `/tmp/\u{202E}gnp.exe`, `a\x{FF}\ufffd\xff`, "\ufeff/etc/cron.d/job\ufeff",
	`C:\new\readme.txt`, "a\\\nb\\",
	"list files\U000E0020\U000E0049\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065\U000E0020\U000E0061\U000E006C\U000E006C",
	"\U000E007D\U000E005C\U000E0020\U000E0020\U000E0078", `\hidden{x}\U000E0078`, "a\\\U000E0078\U000E0001\U000E007F",
}

// revealable lists characters that Reveal must show as an escape.
func revealable(r rune) bool {
	switch r {
	case 0x1b, 0x202e, 0x202d, 0x2066, 0x200b, 0xfeff, 0x061c, 0x034f, 0x115f, 0x1160, 0x3164, 0xffa0:
		return true
	}
	return false
}

func FuzzSafeText(f *testing.F) {
	for _, s := range hostileSeeds {
		f.Add(s, 20)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		max = max % 300
		for _, p := range []TextPolicy{Reveal, Strip} {
			out := SafeText(s, p, max)
			checkSafeText(t, s, out, max)
			if again := SafeText(s, p, max); again != out {
				t.Fatalf("not deterministic: %q then %q", out, again)
			}
		}
		// Property 5: a cut keeps a prefix of the whole text that ends on
		// a grapheme cluster boundary, unless the cluster is longer than
		// textfmt.MaxClusterRunes runes, which is cut like plain text.
		for _, p := range []TextPolicy{Reveal, Strip} {
			out, full := SafeText(s, p, max), SafeText(s, p, 0)
			if out == full {
				continue
			}
			// A cut inside hidden text ends with "…}".
			body, ok := strings.CutSuffix(out, "…")
			if cut, inHidden := strings.CutSuffix(out, "…}"); inHidden {
				body, ok = cut, true
			}
			if !ok || !strings.HasPrefix(full, body) {
				t.Fatalf("cut %q is not a prefix of %q", out, full)
			}
			// The cut may drop spaces before the "…", which is not a split.
			spaces := len(full[len(body):]) - len(strings.TrimLeft(full[len(body):], " "))
			if rest := full[len(body):]; body != "" && rest != "" && rest[0] != '\\' &&
				!isClusterBoundary(full, len(body)) && !isClusterBoundary(full, len(body)+spaces) &&
				clusterRunesAt(full, len(body)) <= textfmt.MaxClusterRunes {
				t.Fatalf("cut %q splits a cluster of %q", out, full)
			}
		}
		// Property 6: text SafeText has nothing to rewrite in is cut as
		// textfmt.Truncate cuts it (less the spaces before the "…").
		if max > 0 && SafeText(s, Reveal, 0) == s {
			if got, want := SafeText(s, Reveal, max), truncated(s, max); got != want {
				t.Fatalf("SafeText(%q, %d) = %q, Truncate gives %q", s, max, got, want)
			}
		}
		// The fast path may only accept text the full sanitizer leaves
		// as it is.
		if max > 0 && isPlain(s, max, true) {
			for _, p := range []TextPolicy{Reveal, Strip} {
				full := sanitizer{policy: p, max: max, src: s}
				full.run()
				if got := full.result(); got != s {
					t.Fatalf("fast path kept %q, sanitizer gives %q", s, got)
				}
			}
		}
		// Property 4: with no bound, Reveal shows every hidden character,
		// and reads back as the input up to white-space folding.
		out := SafeText(s, Reveal, 0)
		for _, r := range s {
			if revealable(r) && !strings.Contains(out, `\u{`+strings.ToUpper(string(hexRune(r)))+`}`) {
				t.Fatalf("%U hidden in %q from %q", r, out, s)
			}
		}
		checkRoundTrip(t, s)
		// Injective: the input's escapes typed out, or typed escapes
		// in the input made real, read differently unless the texts
		// only differ in white space.
		others := []string{out}
		if real, err := unreveal(s); err == nil {
			others = append(others, real)
		}
		for _, o := range others {
			if SafeText(o, Reveal, 0) == out && fold(o) != fold(s) {
				t.Fatalf("%q and %q both reveal as %q", s, o, out)
			}
		}
	})
}

// isClusterBoundary reports whether byte offset i of s lies between two
// grapheme clusters.
func isClusterBoundary(s string, i int) bool {
	at, state := 0, -1
	for rest := s; rest != "" && at < i; {
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		at += len(cluster)
	}
	return at == i
}

// clusterRunesAt returns the runes of the grapheme cluster of s that byte
// offset i falls in.
func clusterRunesAt(s string, i int) int {
	at, state := 0, -1
	for rest := s; rest != ""; {
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if at+len(cluster) > i {
			return utf8.RuneCountInString(cluster)
		}
		at += len(cluster)
	}
	return 0
}

func hexRune(r rune) []byte {
	const digits = "0123456789abcdef"
	var b []byte
	for ; r > 0; r >>= 4 {
		b = append([]byte{digits[r&0xf]}, b...)
	}
	return b
}

// echoRows renders rows and results that repeat what they receive, or
// panic on some inputs.
var echoRows = rowFormatter{
	present: Presentation{Title: "Echo\u202e\n", NerdIcon: "\x1b[31m", PlainIcon: "e"},
	row: func(req Request) (string, bool, error) {
		if req.Input.Len()%3 == 2 {
			panic("three")
		}
		return textfmt.CompactJSON(req.Input), req.Input.Len() > 0, nil
	},
	result: func(req Request) (string, bool, error) { return textfmt.CompactJSON(req.Result), true, nil },
	error:  func(req Request) (string, bool, error) { return "", false, errors.New("no error line") },
	expand: func(req Request) ([]string, bool, error) {
		return strings.Split(textfmt.CompactJSON(req.Result), ","), true, nil
	},
}

// FuzzDispatcher feeds arbitrary bytes as a call's input and arbitrary text
// as its other fields. Nothing panics, and everything returned is safe text.
func FuzzDispatcher(f *testing.F) {
	f.Add("read", []byte(`{"path":"/src/x.ts"}`), "agent", "git status", "srv:tool", "tool")
	f.Add("mcp", []byte(`{"tool":"exa:search","arguments":{"query":"\u001b[31m"}}`), "", "", "exa:search", "tool")
	f.Add("x", []byte(`[1,"two",{"3":null}]`), "\u202e", "\n", "", "mcp")
	f.Add("bash", []byte(`not json`), "", "rm -rf /\x1b[2K", "", "bash")
	f.Add("echo", []byte(`{"a":"\u001b[2J","b":[1,2,{"c":"\u202e"}]}`), "x\ny", "\x1b]0;t", "t", "tool")
	f.Add("screenshot", []byte(`{"path":"/tmp/a.png"}`), "", "", "", "tool")
	for _, s := range hostileSeeds {
		f.Add(s, []byte(`{"k":"`+s+`"}`), s, s, s, "tool")
	}
	long := strings.Repeat("\U000E0049\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065\U000E007D\U000E005C\U000E0020", 40)
	f.Add("bash", []byte(`{"command":"`+long+`"}`), long, long, long, "tool")
	reg := NewRegistry()
	echo := FormatterFunc(func(req Request) (string, bool, error) {
		return textfmt.CompactJSON(req.Input), true, nil
	})
	explode := FormatterFunc(func(req Request) (string, bool, error) {
		if req.Input.Len()%2 == 1 {
			panic("odd")
		}
		return "", false, nil
	})
	f.Add("write", []byte(`{"path":"xd://web_fetch","content":"{\"url\":\"https://e.example/\u202e\"}"}`), "", "", "", "tool")
	f.Add("multi_tool_use.parallel", []byte(parallelInput("read", `{"path":"/a"}`, "multi_tool_use.parallel",
		parallelInput("x", `{"a":1}`, "write", `{"path":"xd://read","content":"{\"path\":\"/b\"}"}`))), "", "", "", "tool")
	formatters := map[string]Formatter{"read": echo, "mcp": echo, "srv:*": explode, "x": explode,
		"write": deviceWrite, "multi_tool_use.parallel": parallel, "web_fetch": webFetch,
		"screenshot": shot, "echo": echoRows}
	for key, fm := range formatters {
		if _, err := reg.Register(key, "fuzz", fm); err != nil {
			f.Fatal(err)
		}
	}
	limits := Limits{Preview: 50, Summary: 20, Log: 60, Output: 100}
	d, err := NewDispatcher(reg, Options{Limits: limits})
	if err != nil {
		f.Fatal(err)
	}
	f.Add("srv:execute_sql", []byte(`{"sql":"DROP TABLE users","arguments":{"sql":"SELECT 1"}}`), "", "", "srv:execute_sql", "mcp")
	f.Add("srv:write_file", []byte(`{"path":"/root/.bashrc","arguments":{"path":"/tmp/notes.txt"},"_meta":{}}`), "ab", "", "srv:read", "mcp")
	f.Add("mcp", []byte(`{"tool":"srv:delete","arguments":{}}`), "abc", "", "srv:get_me", "tool")
	f.Add("mcp", []byte(`{"tool":"srv:x","_meta":{"fail":1},"arguments":{"fail":true,"path":"/a"}}`), "abcd", "", "", "mcp")
	f.Add("mcp", []byte(`{"tool":"srv:*","arguments":{"path":"/a"}}`), "a", "", "srv:*", "mcp")
	accounted := newAccountedMCP(f)
	f.Fuzz(func(t *testing.T, tool string, input []byte, agent, command, target, source string) {
		c := Call{Tool: tool, Input: input, Agent: agent, Command: command, Target: target, Source: source, MatchedPattern: agent, Origin: source}
		accounted.check(t, input, target, len(agent))
		desc := d.Describe(c)
		checkSafeText(t, string(input), desc.Preview.Text, limits.Output)
		var walk func([]WrappedCall)
		walk = func(calls []WrappedCall) {
			for _, w := range calls {
				checkSafeText(t, string(input), w.Label, 0)
				checkSafeText(t, string(input), w.Preview.Text, limits.Output)
				walk(w.Calls)
			}
		}
		walk(desc.Calls)
		if prompt := d.Prompt(c); prompt != desc.Prompt {
			t.Fatalf("Prompt %q, Describe's prompt %q", prompt, desc.Prompt)
		}
		if !utf8.ValidString(desc.Prompt) || strings.ContainsAny(desc.Prompt, "\x1b\n\r\u202e\u009b") {
			t.Fatalf("unsafe prompt %q", desc.Prompt)
		}
		// The prompt's parts are revealed text: the sentence reads back
		// without a malformed escape, and the command is in it as typed.
		if _, err := unreveal(desc.Prompt); err != nil {
			t.Fatalf("prompt %q: %v", desc.Prompt, err)
		}
		if cmd := SafeText(command, Reveal, 0); tool == "bash" && utf8.RuneCountInString(cmd) <= limits.Output &&
			!strings.Contains(desc.Prompt, "'"+cmd+"'") {
			t.Fatalf("prompt %q does not show the command %q as %q", desc.Prompt, command, cmd)
		}
		if !strings.HasSuffix(desc.Prompt, ". Allow this call?") && !strings.HasSuffix(desc.Prompt, ". Allow this command?") {
			t.Fatalf("prompt is not a sentence: %q", desc.Prompt)
		}
		for _, s := range []*string{desc.Log.Command, desc.Log.Target, desc.Log.ToolInputPreview, desc.Log.Origin} {
			if s != nil {
				checkSafeText(t, string(input), *s, len("input ")+limits.Log+1)
			}
		}
		if again := d.Describe(c); !sameDescription(again, desc) {
			t.Fatalf("not deterministic: %+v then %+v", desc, again)
		}
		// Rows and results of the same call, finished and streaming (the
		// input cut at every tenth byte), in every mode.
		res := Result{Content: []Content{{Type: "text", Text: agent + "\n" + command}}, Details: target, IsError: len(input)%2 == 1}
		for cut := 0; cut <= len(input); cut += 1 + len(input)/10 {
			for _, mode := range []Mode{ModeMinimal, ModeDefault, ModeVerbose} {
				streaming := c
				streaming.Input, streaming.Partial = input[:cut], true
				for _, row := range []Row{d.Row(streaming, mode), d.Row(c, mode), d.ResultRow(c, res, mode)} {
					for _, s := range []string{row.Icon, row.Title, row.Text} {
						checkSafeText(t, string(input), s, limits.Output)
					}
					for _, l := range row.Lines {
						checkSafeText(t, string(input), l.Text, MaxLineChars)
					}
					if len(row.Lines) > MaxLines {
						t.Fatalf("%d lines", len(row.Lines))
					}
				}
			}
		}
		for _, l := range d.Expand(c, res) {
			checkSafeText(t, string(input), l.Text, MaxLineChars)
		}
	})
}

// accountedMCP holds two properties of MCP calls to FuzzDispatcher: every
// top-level field of a direct call's input is shown or counted, whatever
// "arguments" object the model adds; and a call's tier never drops when
// another registration for a key it matches is added.
type accountedMCP struct {
	d    *Dispatcher
	seen *value.Object // the arguments the last formatter to run received
}

func newAccountedMCP(f *testing.F) *accountedMCP {
	a := &accountedMCP{}
	reg := NewRegistry()
	if _, err := reg.RegisterAll(a.entries()); err != nil {
		f.Fatal(err)
	}
	d, err := NewDispatcher(reg, Options{Limits: Limits{Output: 4000}})
	if err != nil {
		f.Fatal(err)
	}
	a.d = d
	return a
}

// entries are the stock catalog's shape: a server's entry that reads its
// "path" and declares a tier from the input (failing on a "fail" field),
// and the umbrella, which shows every argument, as the stock one does.
func (a *accountedMCP) entries() []Entry {
	server := accountedFormatter{
		fields: InputFields{Read: [][]string{{"path"}}},
		preview: func(req Request) (string, bool, error) {
			a.seen = req.Input
			p, ok := field(req.Input, "path").(string)
			return "at " + p, ok, nil
		},
		tier: func(req Request) (Tier, error) {
			if _, ok := req.Input.Get("fail"); ok {
				return TierUnknown, errors.New("fail")
			}
			return []Tier{TierRead, TierNetwork}[req.Input.Len()%2], nil
		},
	}
	umbrella := accountedFormatter{
		preview: func(req Request) (string, bool, error) {
			args, _ := field(req.Input, "arguments").(*value.Object)
			a.seen = args
			if args.Len() == 0 {
				return "", true, nil
			}
			return "with " + textfmt.Fields(args, req.Limits.Output-5), true, nil
		},
		tier: func(req Request) (Tier, error) {
			args, _ := field(req.Input, "arguments").(*value.Object)
			return []Tier{TierRead, TierWrite}[args.Len()%2], nil
		},
	}
	return []Entry{{Key: "srv:*", Owner: "stock", Formatter: server}, {Key: "mcp", Owner: "stock", Formatter: umbrella}}
}

// check holds the properties on one input; target and n choose the
// target of an umbrella call and the tier of the added registration.
func (a *accountedMCP) check(t *testing.T, input []byte, target string, n int) {
	in := value.DecodeInput(input).Object()
	args, isArgs := field(in, "arguments").(*value.Object)
	envelope := isArgs && isEnvelope(in)
	// Every field of a direct call is shown or counted.
	a.seen = nil
	desc := a.d.Describe(Call{Tool: "srv:x", Source: "mcp", Input: input})
	want := in
	if envelope {
		want = args
	}
	if a.seen == nil {
		t.Fatalf("no formatter answered %q: %q", input, desc.Prompt)
	}
	if a.seen.Len() != want.Len() {
		t.Fatalf("the formatters of %q received %d fields, want %d", input, a.seen.Len(), want.Len())
	}
	for k := range want.All() {
		if _, ok := a.seen.Get(k); !ok {
			t.Fatalf("the formatters of %q did not receive field %q", input, k)
		}
		if k == "path" || !plainKey(k) || strings.Contains(desc.Preview.Text, "more field") {
			continue
		}
		if !strings.Contains(desc.Preview.Text, k+":") && !strings.Contains(desc.Preview.Text, k+".") &&
			!strings.Contains(desc.Preview.Text, k+"[") {
			t.Fatalf("preview %q of %q neither shows nor counts field %q", desc.Preview.Text, input, k)
		}
	}

	// Adding a registration for a key a call matches never lowers its
	// tier, whatever the new one declares (or fails to).
	tiers := []Tier{TierRead, TierWrite, TierNetwork, TierExecute, TierUnknown}
	added := Entry{Key: "srv:x", Owner: "plugin", Override: true, Formatter: accountedFormatter{
		preview: func(Request) (string, bool, error) { return "harmless", true, nil },
		tier:    func(Request) (Tier, error) { return tiers[n%len(tiers)], nil },
	}}
	if !strings.HasPrefix(target, "srv:") || ValidateKey(target) != nil {
		target = "srv:x"
	}
	calls := []Call{
		{Tool: "srv:x", Source: "mcp", Input: input},
		{Tool: "mcp", Target: target, Input: input},
		{Tool: "mcp", Input: input},
	}
	for _, key := range []string{"srv:x", target} {
		reg := NewRegistry()
		added.Key = key
		if _, err := reg.RegisterAll(append(a.entries(), added)); errors.Is(err, ErrDuplicate) {
			continue // the target is a key the base holds ("srv:*")
		} else if err != nil {
			t.Fatal(err)
		}
		more, err := NewDispatcher(reg, Options{Limits: Limits{Output: 4000}})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range calls {
			before, after := a.d.Describe(c).Tier, more.Describe(c).Tier
			if !after.AtLeast(before) {
				t.Fatalf("registering %s lowered the tier of %+v from %v to %v", key, c, before, after)
			}
		}
	}
}

// plainKey reports whether a key reads the same in a generic preview.
func plainKey(k string) bool {
	if k == "" || len(k) > 16 {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// accountedFormatter is a formatter that declares a tier and, when fields
// is set, the fields it reads.
type accountedFormatter struct {
	fields  InputFields
	preview func(Request) (string, bool, error)
	tier    func(Request) (Tier, error)
}

func (f accountedFormatter) Format(req Request) (string, bool, error) { return f.preview(req) }
func (f accountedFormatter) Tier(req Request) (Tier, error)           { return f.tier(req) }
func (f accountedFormatter) InputFields() InputFields {
	if f.fields.Read == nil {
		return InputFields{All: true}
	}
	return f.fields
}

func sameDescription(a, b Description) bool {
	eq := func(x, y *string) bool { return (x == nil && y == nil) || (x != nil && y != nil && *x == *y) }
	return a.Preview == b.Preview && a.Prompt == b.Prompt &&
		eq(a.Log.Command, b.Log.Command) && eq(a.Log.Target, b.Log.Target) &&
		eq(a.Log.ToolInputPreview, b.Log.ToolInputPreview) && eq(a.Log.Origin, b.Log.Origin) &&
		a.Tier == b.Tier && reflect.DeepEqual(a.Calls, b.Calls) && a.Hidden == b.Hidden
}

// FuzzFieldsReveal holds the renderer of the default preview to its width
// bound as the sanitizer reveals it: a preview whose JSON does not fit
// shows, sanitized, every field that the renderer fitted, however many
// hidden and control characters the fields hold, so revealing them never
// cuts the end of the preview (its last field or the count of those left
// out).
func FuzzFieldsReveal(f *testing.F) {
	for _, s := range hostileSeeds {
		f.Add(`{"a":"`+strings.Repeat(s, 30)+`","b":[`+strconv.Quote(s)+`],"c":{"`+s+`":"end"}}`, 120)
	}
	f.Add(`{"t":"`+strings.Repeat(`\udb40\udc41`, 100)+`","u":"\u2028\u0085\u00ad"}`, 60)
	f.Fuzz(func(t *testing.T, js string, n int) {
		v, err := value.DecodeJSON([]byte(js))
		if err != nil {
			return
		}
		n = 40 + abs(n)%1000
		raw := textfmt.Fields(v, n)
		if utf8.RuneCountInString(raw) > n {
			return // no room for any entry: one summary, checked in textfmt
		}
		for _, p := range []TextPolicy{Reveal, Strip} {
			if got := utf8.RuneCountInString(SafeText(raw, p, 0)); got > n {
				t.Fatalf("%s: %d characters for %d: %q", p, got, n, SafeText(raw, p, 0))
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
