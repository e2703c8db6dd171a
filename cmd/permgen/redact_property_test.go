package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// The redaction property of the CLI: nothing permgen preview (text and
// json) and permgen rows (every mode) print, on standard output or
// standard error, holds a credential a call carries, with the stock
// catalog and a catalog loaded at run time whose formatters fail with
// errors that quote the input. The calls are built as the runtime's
// property builds them, for the tools of the stock catalog: each
// credential random, so that an output holds a piece of one only by a
// leak.

// cliPlanter builds JSON Lines calls and remembers the credentials it
// plants.
type cliPlanter struct {
	r       *rand.Rand
	filler  string
	planted []string
}

const (
	cliAlnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	cliUpper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)

func (p *cliPlanter) chars(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[p.r.IntN(len(set))]
	}
	b[p.r.IntN(n)] = "0123456789"[p.r.IntN(10)]
	return string(b)
}

func (p *cliPlanter) plant(s string) string {
	p.planted = append(p.planted, s)
	return s
}

// value is a credential of the given characters to put under a
// credential's name or in a URL.
func (p *cliPlanter) value(set string) string { return p.plant(p.chars(set, 16+p.r.IntN(24))) }

// shaped is a credential of a well-known shape, sometimes split by a
// character a reader cannot see.
func (p *cliPlanter) shaped() string {
	var s string
	switch p.r.IntN(9) {
	case 0:
		s = "ghp_" + p.chars(cliAlnum, 36)
	case 1:
		s = "github_pat_" + p.chars(cliAlnum, 22) + "_" + p.chars(cliAlnum, 59)
	case 2:
		s = "xoxb-" + p.chars("0123456789", 12) + "-" + p.chars(cliAlnum, 24)
	case 3:
		s = "sk-ant-api03-" + p.chars(cliAlnum+"-_", 60)
	case 4:
		s = "AKIA" + p.chars(cliUpper, 16)
	case 5:
		s = "eyJ" + p.chars(cliAlnum, 20) + ".eyJ" + p.chars(cliAlnum, 30) + "." + p.chars(cliAlnum, 43)
	case 6:
		s = "glpat-" + p.chars(cliAlnum, 20)
	case 7:
		s = "npm_" + p.chars(cliAlnum, 36)
	default:
		body := p.chars(cliAlnum+"+/", 64) + "\n" + p.chars(cliAlnum+"+/", 64)
		p.plant(body)
		return "-----BEGIN RSA PRIVATE KEY-----\n" + body + "\n-----END RSA PRIVATE KEY-----"
	}
	p.plant(s)
	if p.r.IntN(3) == 0 {
		i := 1 + p.r.IntN(len(s)-1)
		s = s[:i] + []string{"\u200b", "\u202e", "\u00ad", "\u2060", "\x1b[0m"}[p.r.IntN(5)] + s[i:]
	}
	return s
}

// text is free text that carries a credential.
func (p *cliPlanter) text() string {
	words := []string{"deploy", "make test", "/srv/app", "status"}
	around := func(s string) string { return words[p.r.IntN(4)] + " " + s + " " + words[p.r.IntN(4)] }
	switch p.r.IntN(6) {
	case 0, 1:
		return around(p.shaped())
	case 2:
		return around("https://ci:" + p.value(cliAlnum+"-._~") + "@git.example.com/x.git")
	case 3:
		return around("https://api.example.com/v1?page=2&access_token=" + p.value(cliAlnum+"-._~") + "&x=1")
	case 4:
		return around("curl -H 'Authorization: Bearer " + p.value(cliAlnum+"-._~+/") + "' https://api.example.com")
	}
	return around(`{"client_secret": "` + p.value(cliAlnum) + `"}`)
}

func (p *cliPlanter) url() string {
	return "https://bot:" + p.value(cliAlnum+"-._~") + "@api.example.com/x?sig=" + p.value(cliAlnum) + "&page=2"
}

// args returns an object of arguments that carry credentials.
func (p *cliPlanter) args() *value.Object {
	var keys []string
	var values []any
	add := func(k string, v any) { keys, values = append(keys, k), append(values, v) }
	if p.r.IntN(3) == 0 {
		add("content", strings.Repeat("lorem ipsum dolor sit amet ", 5+p.r.IntN(80)))
	}
	for range 1 + p.r.IntN(3) {
		switch p.r.IntN(6) {
		case 0:
			add([]string{"token", "password", "api_key", "client_secret", "session_token", "X-Api-Key"}[p.r.IntN(6)], p.value(cliAlnum+"!#%*-_"))
		case 1:
			add("headers", value.ObjectOf([]string{"Authorization", "Cookie"}, []any{"Bearer " + p.value(cliAlnum), "sid=" + p.value(cliAlnum)}))
		case 2:
			add("env", []any{value.ObjectOf([]string{"name", "value"}, []any{"DB_PASSWORD", p.value(cliAlnum + "!#")})})
		case 3:
			add("secret", value.ObjectOf([]string{"sensitive", "value"}, []any{true, p.value(cliAlnum)}))
		default:
			add("note", p.text())
		}
	}
	if p.filler != "" {
		add("title", p.filler)
	}
	return value.ObjectOf(keys, values)
}

// call returns a call of a tool of the stock catalog, or of the failing
// catalog, as one JSON object.
func (p *cliPlanter) call() *value.Object {
	var keys []string
	var values []any
	add := func(k string, v any) { keys, values = append(keys, k), append(values, v) }
	switch p.r.IntN(11) {
	case 0:
		cmd := p.text()
		add("tool", "bash")
		add("input", value.ObjectOf([]string{"command"}, []any{cmd}))
		add("command", cmd)
	case 1:
		add("tool", "read")
		add("input", value.ObjectOf([]string{"path"}, []any{p.url()}))
	case 2:
		add("tool", "write")
		add("input", value.ObjectOf([]string{"path", "content"}, []any{"/srv/.env", "API_KEY=" + p.value(cliAlnum) + "\n" + p.text()}))
	case 3:
		device := value.ObjectOf([]string{"url", "headers"}, []any{p.url(),
			value.ObjectOf([]string{"Authorization"}, []any{"Bearer " + p.value(cliAlnum)})})
		add("tool", "write")
		add("input", value.ObjectOf([]string{"path", "content"}, []any{"xd://web_fetch", textfmt.CompactJSON(device)}))
	case 4:
		add("tool", "web_fetch")
		add("input", value.ObjectOf([]string{"url", "headers"}, []any{p.url(),
			value.ObjectOf([]string{"Authorization"}, []any{"token " + p.value(cliAlnum)})}))
	case 5:
		add("tool", "mcp")
		add("target", "srv:run")
		add("input", value.ObjectOf([]string{"tool", "arguments"}, []any{"srv:run", p.args()}))
	case 6:
		add("tool", "github:create_issue")
		add("source", "mcp")
		add("input", p.args())
	case 7:
		uses := []any{
			value.ObjectOf([]string{"recipient_name", "parameters"}, []any{"functions.bash",
				value.ObjectOf([]string{"command"}, []any{p.text()})}),
			value.ObjectOf([]string{"recipient_name", "parameters"}, []any{"functions.web_fetch",
				value.ObjectOf([]string{"url"}, []any{p.url()})}),
		}
		add("tool", "multi_tool_use.parallel")
		add("input", value.ObjectOf([]string{"tool_uses"}, []any{uses}))
	case 8:
		add("tool", "leaky")
		add("input", value.ObjectOf([]string{"token", "note"}, []any{p.value(cliAlnum), p.text()}))
	case 9:
		add("tool", "deploy-"+p.shaped())
		add("input", p.args())
	default:
		add("tool", "mcp")
		add("target", "srv:"+p.shaped())
		add("input", p.args())
	}
	if p.r.IntN(4) == 0 {
		add("agent", p.text())
		add("matchedPattern", p.text())
		add("origin", p.text())
	}
	return value.ObjectOf(keys, values)
}

// result returns a call's result, whose text and details carry
// credentials.
func (p *cliPlanter) result() *value.Object {
	text := p.text() + "\n" + p.shaped() + "\nok"
	content := []any{value.ObjectOf([]string{"type", "text"}, []any{"text", text})}
	details := value.ObjectOf([]string{"name", "value"}, []any{"API_TOKEN", p.value(cliAlnum)})
	return value.ObjectOf([]string{"content", "details", "isError"}, []any{content, details, p.r.IntN(3) == 0})
}

// lines returns n calls as JSON Lines, without and with their results.
func (p *cliPlanter) lines(n int) (calls, withResults string) {
	var a, b strings.Builder
	for range n {
		c := p.call()
		a.WriteString(textfmt.CompactJSON(c) + "\n")
		r := value.ObjectOf(append(c.Keys(), "result"), append(objectValues(c), p.result()))
		b.WriteString(textfmt.CompactJSON(r) + "\n")
	}
	return a.String(), b.String()
}

func objectValues(o *value.Object) []any {
	out := make([]any, 0, o.Len())
	for _, v := range o.All() {
		out = append(out, v)
	}
	return out
}

// leakyCatalog is a catalog whose formatters fail on their input with
// errors that quote it (an RFC 3339 timestamp error quotes the text), in
// every slot.
const leakyCatalog = `version: 1
formatters:
  - tool: leaky
    preview: 'string(timestamp(input.token))'
    row: 'string(timestamp(input.note))'
    result: 'string(timestamp(result.text))'
    error: 'string(timestamp(result.text))'
    expand: '[string(timestamp(result.text))]'
`

func writeLeakyCatalog(t testing.TB) string {
	path := filepath.Join(t.TempDir(), "leaky.yaml")
	if err := os.WriteFile(path, []byte(leakyCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// cliLeak returns the first piece of a planted credential, of leakWindow
// characters or the whole of a shorter one, that text holds, or "".
func cliLeak(text string, planted []string) string {
	const window = 12
	pieces := map[string]bool{}
	for _, s := range planted {
		for _, piece := range strings.Fields(s) {
			runes := []rune(piece)
			for i := 0; i+window <= len(runes); i++ {
				pieces[string(runes[i:i+window])] = true
			}
		}
	}
	for _, line := range strings.Split(text, "\n") {
		runes := []rune(line)
		for i := 0; i+window <= len(runes); i++ {
			if w := string(runes[i : i+window]); pieces[w] {
				return w
			}
		}
	}
	return ""
}

// redactionCalls is how many calls TestCLIRedactionProperty checks.
func redactionCalls() int {
	if raceEnabled || testing.Short() {
		return 20
	}
	return 120
}

// TestCLIRedactionProperty runs the commands on seeded calls, each with
// what it prints checked for the credentials the calls carry.
func TestCLIRedactionProperty(t *testing.T) {
	catalog := writeLeakyCatalog(t)
	p := &cliPlanter{r: rand.New(rand.NewPCG(18, 3))}
	calls, withResults := p.lines(redactionCalls())
	for _, run := range []struct {
		stdin string
		args  []string
	}{
		{calls, []string{"preview", "--format", "json"}},
		{calls, []string{"preview", "--format", "text", "--show-tier"}},
		{calls, []string{"preview", "--format", "json", "--preview-max", "60", "--log-max", "80"}},
		{withResults, []string{"rows", "--mode", "minimal"}},
		{withResults, []string{"rows", "--mode", "default", "--color", "always"}},
		{withResults, []string{"rows", "--mode", "verbose", "--summary-max", "20"}},
	} {
		t.Run(strings.Join(run.args, " "), func(t *testing.T) {
			stdout, stderr, code := runCLI(t, run.stdin, append(run.args, "--catalog", catalog)...)
			if code != 0 {
				t.Fatalf("exit code %d: %s", code, stderr)
			}
			for name, out := range map[string]string{"stdout": stdout, "stderr": stderr} {
				if leak := cliLeak(out, p.planted); leak != "" {
					t.Errorf("%s shows %q of a credential:\n%s", name, leak, lineWith(out, leak))
				}
			}
		})
	}
}

// lineWith returns the line of text that holds s.
func lineWith(text, s string) string {
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, s) {
			return line
		}
	}
	return ""
}

// FuzzCLIRedaction previews and renders one call, built from the seed with
// the filler as a field of its own, in every format and mode; the
// dispatcher is built once, as the commands build it.
func FuzzCLIRedaction(f *testing.F) {
	for seed, filler := range []string{"", "Bearer", "\u202e", `"password": "`, strings.Repeat("x", 300)} {
		f.Add(uint64(seed), filler)
	}
	catalog := writeLeakyCatalog(f)
	reg, ok := newRegistry("preview", false, false, []string{catalog}, nil, io.Discard)
	if !ok {
		f.Fatal("the catalogs do not load")
	}
	var failures failureLog
	d, err := runtime.NewDispatcher(reg, runtime.Options{OnFailure: failures.add, ShowTier: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, seed uint64, filler string) {
		if !utf8.ValidString(filler) || len(filler) > 1000 {
			return
		}
		p := &cliPlanter{r: rand.New(rand.NewPCG(seed, 3)), filler: filler}
		calls, withResults := p.lines(1)
		var out, errOut bytes.Buffer
		for _, format := range []string{"json", "text"} {
			previewCalls(d, &failures, format, "<stdin>", strings.NewReader(calls), &out, &errOut)
		}
		for _, mode := range []runtime.Mode{runtime.ModeMinimal, runtime.ModeDefault, runtime.ModeVerbose} {
			renderRows(d, &failures, mode, true, defaultWidth, "", "<stdin>", strings.NewReader(withResults), &out, &errOut)
		}
		for name, text := range map[string]string{"stdout": out.String(), "stderr": errOut.String()} {
			if leak := cliLeak(text, p.planted); leak != "" {
				t.Fatalf("%s shows %q of a credential:\n%s\ncalls: %s", name, leak, lineWith(text, leak), fmt.Sprint(calls))
			}
		}
	})
}
