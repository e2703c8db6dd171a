package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// The redaction property: no output of the dispatcher ever contains a value
// the one redaction rule (textfmt) classifies as a credential, whatever
// path the output takes. A planter builds calls that carry credentials in
// every way the rule covers, each made of random characters so that it
// cannot appear in an output by chance, and with the tricks a model may
// play to slip one past the rule; every output of the call (its
// description, rows in every mode, its result line and expanded result,
// the failures it causes and what they log) is then searched for them.

// planter builds a call and remembers the credentials it plants.
type planter struct {
	r       *rand.Rand
	filler  string   // harmless text of the fuzzer's choosing
	planted []string // the credentials, as the rule finds them once hidden characters are removed
}

func newPlanter(seed uint64, filler string) *planter {
	return &planter{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), filler: filler}
}

const (
	lowerChars = "abcdefghijklmnopqrstuvwxyz"
	upperChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digitChars = "0123456789"
	alnumChars = lowerChars + upperChars + digitChars
)

// chars returns n random characters of set, at least one of them a digit
// when set has digits.
func (p *planter) chars(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[p.r.IntN(len(set))]
	}
	if strings.ContainsAny(set, digitChars) {
		b[p.r.IntN(n)] = digitChars[p.r.IntN(10)]
	}
	return string(b)
}

// plant records a credential.
func (p *planter) plant(secret string) string {
	p.planted = append(p.planted, secret)
	return secret
}

// value returns a random credential value to put under a credential's
// name: letters, digits and the punctuation passwords have.
func (p *planter) value() string {
	return p.plant(p.chars(alnumChars+"-_.~+/=!#%*", 16+p.r.IntN(32)))
}

// Characters of credentials in text, where the rule reads a credential up
// to a character that ends it: a bearer token's (token68), a URL
// password's and a query parameter's.
const (
	tokenChars    = alnumChars + "-._~+/="
	passwordChars = alnumChars + "-._~!*"
	paramChars    = alnumChars + "-._~%+/="
)

// valueOf returns a random credential of the given characters, planted.
func (p *planter) valueOf(set string) string { return p.plant(p.chars(set, 16+p.r.IntN(32))) }

// shaped returns a credential of a well-known shape, planted, and the text
// that carries it.
func (p *planter) shaped() string {
	var s string
	switch p.r.IntN(11) {
	case 0:
		s = "ghp_" + p.chars(alnumChars, 36)
	case 1:
		s = "github_pat_" + p.chars(alnumChars, 22) + "_" + p.chars(alnumChars, 59)
	case 2:
		s = "xoxb-" + p.chars(digitChars, 12) + "-" + p.chars(digitChars, 13) + "-" + p.chars(alnumChars, 24)
	case 3:
		s = "sk-proj-" + p.chars(alnumChars+"-_", 48)
	case 4:
		s = "sk-ant-api03-" + p.chars(alnumChars+"-_", 80)
	case 5:
		s = "AKIA" + p.chars(upperChars+digitChars, 16)
	case 6:
		s = "ASIA" + p.chars(upperChars+digitChars, 16)
	case 7:
		s = "eyJ" + p.chars(alnumChars, 20) + ".eyJ" + p.chars(alnumChars+"-_", 40) + "." + p.chars(alnumChars+"-_", 43)
	case 8:
		s = "glpat-" + p.chars(alnumChars, 20)
	case 9:
		s = "npm_" + p.chars(alnumChars, 36)
	default:
		var body []string
		for range 1 + p.r.IntN(3) {
			body = append(body, p.chars(alnumChars+"+/", 64))
		}
		secret := strings.Join(body, "\n")
		p.plant(secret)
		return "-----BEGIN PRIVATE KEY-----\n" + secret + "\n-----END PRIVATE KEY-----"
	}
	p.plant(s)
	return p.split(s)
}

// hidden are characters the Strip policy removes: a model may split a
// credential with them so that the rule, reading the text as it was
// written, does not see it.
var hidden = []string{"\u200b", "\u202e", "\u00ad", "\u2066", "\ufeff", "\u2060", "\x1b[0m"}

// split puts a hidden character inside s, sometimes.
func (p *planter) split(s string) string {
	if p.r.IntN(3) != 0 || len(s) < 2 {
		return s
	}
	i := 1 + p.r.IntN(len(s)-1)
	return s[:i] + hidden[p.r.IntN(len(hidden))] + s[i:]
}

// credentialNames are names the rule reads as a credential's.
var credentialNames = []string{
	"token", "secret", "password", "passwd", "api_key", "apikey", "authorization", "cookie",
	"private_key", "client_secret", "access_key", "credentials", "session_token", "Authorization",
	"X-Api-Key", "accessToken", "refresh_token", "db_password", "AWS_SECRET_ACCESS_KEY", "Set-Cookie",
}

func (p *planter) name() string { return credentialNames[p.r.IntN(len(credentialNames))] }

// harmless returns a harmless word. The fuzzer's filler is not one: in
// the text around a credential it could change what the rule reads (an
// open quote before it), so it goes in fields of its own.
func (p *planter) harmless() string {
	words := []string{"/src/main.go", "status", "typescript generics", "make the tests pass", "42", "main"}
	return words[p.r.IntN(len(words))]
}

// text returns free text that carries a credential: a well-known shape, a
// URL's password or query parameter, a header, an assignment with a
// password's symbols, a command line's password flag, JSON in a string.
func (p *planter) text() string {
	around := func(s string) string { return p.harmless() + " " + s + " " + p.harmless() }
	switch p.r.IntN(13) {
	case 9:
		return around("DB_PASSWORD=" + p.valueOf(passwordChars+"@#$%^?:"))
	case 10:
		return around("mysql -u root -p" + p.valueOf(passwordChars+"@#%^") + " shop")
	case 11:
		return around("sshpass -p '" + p.valueOf(passwordChars+"@#$%^&;| ") + "' ssh root@10.0.0.5")
	case 12:
		return around("curl -u admin:" + p.valueOf(passwordChars+"@#%^") + " https://api.example.com")
	case 0, 1:
		return around(p.shaped())
	case 2:
		return around("https://deploy:" + p.valueOf(passwordChars) + "@ci.example.com/x")
	case 3:
		name := []string{"token", "access_token", "sig", "X-Amz-Signature", "access%5Ftoken", "api_key"}[p.r.IntN(6)]
		return around("https://api.example.com/v1?page=2&" + name + "=" + p.valueOf(paramChars) + "&x=1")
	case 4:
		return around("curl -H 'Authorization: Bearer " + p.valueOf(tokenChars) + "' https://api.example.com")
	case 5:
		return around("export API_KEY=" + p.plant(p.chars(alnumChars, 24)))
	case 6:
		return around(`{"api_key": "` + p.plant(p.chars(alnumChars, 24)) + `", "n": 1}`)
	case 7:
		return around("git clone https://" + p.plant("ghp_"+p.chars(alnumChars, 36)) + "@github.com/acme/api")
	default:
		return around("--password " + p.plant(p.chars(alnumChars, 20)))
	}
}

// secretValue returns a value to put under a credential's name: a string,
// a number, a list or an object of them.
func (p *planter) secretValue(depth int) any {
	switch p.r.IntN(6) {
	case 0:
		return value.NumberOf(float64(1e12 + p.r.Int64N(8e12)))
	case 1:
		return []any{p.value(), p.value()}
	case 2:
		if depth < 3 {
			return value.ObjectOf([]string{"type", "material"}, []any{"service_account", p.secretValue(depth + 1)})
		}
	}
	return p.value()
}

// object returns an object whose fields carry credentials, depth levels
// deep at most.
func (p *planter) object(depth int) *value.Object {
	var keys []string
	var values []any
	add := func(k string, v any) { keys, values = append(keys, k), append(values, v) }
	if p.r.IntN(3) == 0 {
		// Padding: long harmless fields before the credentials.
		add("content", strings.Repeat("lorem ipsum dolor sit amet ", 10+p.r.IntN(200)))
		add("path", "/src/app/main.go")
	}
	for range 1 + p.r.IntN(4) {
		switch p.r.IntN(9) {
		case 0, 1:
			add(p.name(), p.secretValue(depth))
		case 2:
			add("headers", value.ObjectOf([]string{"Accept", "Authorization", "Cookie"},
				[]any{"application/json", "Bearer " + p.value(), "sid=" + p.value()}))
		case 3:
			add("env", []any{
				value.ObjectOf([]string{"name", "value"}, []any{"DB_PASSWORD", p.value()}),
				value.ObjectOf([]string{"name", "sensitive", "value"}, []any{"SEED", true, p.value()}),
			})
		case 4:
			add("data", value.ObjectOf([]string{"sensitive", "value"}, []any{true, p.value()}))
			switch p.r.IntN(3) {
			case 0:
				add("args", []any{"--db-password", p.valueOf(passwordChars), "--verbose"})
			case 1:
				add("command", []any{"docker", "login", "-u", "bob", "-p", p.valueOf(passwordChars + " ;|&")})
			default:
				add("login", value.ObjectOf([]string{"user", "pass"}, []any{"admin", p.valueOf(passwordChars)}))
			}
		case 5, 6:
			add("note", p.text())
		case 7:
			if depth < 3 {
				add("nested", []any{p.object(depth + 1)})
			} else {
				add("url", p.text())
			}
		default:
			add("query", p.harmless())
		}
	}
	if p.filler != "" {
		add("f_"+p.filler, p.filler)
		if p.r.IntN(2) == 0 {
			// The filler first, as padding.
			keys = append([]string{"title"}, keys...)
			values = append([]any{strings.Repeat(p.filler, 1+p.r.IntN(64))}, values...)
		}
	}
	return value.ObjectOf(keys, values)
}

// result returns a tool result whose text carries credentials on lines of
// their own and among other text.
func (p *planter) result() Result {
	var lines []string
	for range 1 + p.r.IntN(4) {
		switch p.r.IntN(3) {
		case 0:
			lines = append(lines, p.text())
		case 1:
			lines = append(lines, p.harmless())
		default:
			lines = append(lines, p.shaped())
		}
	}
	content := []Content{{Type: "text", Text: strings.Join(lines, "\n")}}
	if p.r.IntN(2) == 0 {
		content = append(content, Content{Type: "text", Text: p.text()})
	}
	return Result{Content: content, IsError: p.r.IntN(3) == 0}
}

// The tools of the property's registry: each shows what it reads as a
// careless formatter would, and each of the paths a call can take has one.
const (
	toolEcho    = "echo"    // the values it reads, cut short, without their names
	toolRender  = "render"  // a row, a result line and expanded lines from the input and the result
	toolFail    = "fail"    // fails with an error that quotes the input
	toolPanic   = "panic"   // panics with the input
	toolWrap    = "wrap"    // carries the calls in input.calls
	toolBadWrap = "badwrap" // fails to read the calls it carries, quoting them
)

// echo writes the values v holds, each cut at 30 characters: what a
// formatter that forgets the rule shows.
func echo(v any) string {
	var parts []string
	for _, l := range leaves(v) {
		parts = append(parts, textfmt.Truncate(l, 30))
	}
	return strings.Join(parts, " ")
}

func propertyRegistry(t testing.TB) *Registry {
	reg := NewRegistry()
	echoFormatter := FormatterFunc(func(req Request) (string, bool, error) { return echo(req.Input), true, nil })
	resultText := func(req Request) string { s, _ := field(req.Result, "text").(string); return s }
	entries := []Entry{
		{Key: toolEcho, Owner: "property", Formatter: echoFormatter},
		{Key: "read", Owner: "property", Formatter: echoFormatter},
		{Key: "srv:*", Owner: "property", Formatter: echoFormatter},
		{Key: "mcp", Owner: "property", Formatter: echoFormatter},
		{Key: toolRender, Owner: "property", Formatter: rowFormatter{
			present: Presentation{Title: "Render"},
			row:     func(req Request) (string, bool, error) { return echo(req.Input), true, nil },
			result: func(req Request) (string, bool, error) {
				return textfmt.Truncate(resultText(req), 40), true, nil
			},
			error: func(req Request) (string, bool, error) { return "failed: " + echo(req.Result), true, nil },
			expand: func(req Request) ([]string, bool, error) {
				return strings.Split(resultText(req), "\n"), true, nil
			},
		}},
		{Key: toolFail, Owner: "property", Formatter: rowFormatter{
			row: func(req Request) (string, bool, error) {
				return "", false, fmt.Errorf("row of %s", textfmt.CompactJSON(req.Input))
			},
			result: func(req Request) (string, bool, error) {
				return "", false, fmt.Errorf("cannot read %q", resultText(req))
			},
			error: func(req Request) (string, bool, error) { return "", false, errors.New(resultText(req)) },
			expand: func(req Request) ([]string, bool, error) {
				return nil, false, fmt.Errorf("expand %v", leaves(req.Result))
			},
		}},
		{Key: toolPanic, Owner: "property", Formatter: FormatterFunc(func(req Request) (string, bool, error) {
			panic(strings.Join(leaves(req.Input), " "))
		})},
		{Key: toolWrap, Owner: "property", Formatter: wrapperFormatter{
			unwrap: func(req Request) ([]InnerCall, error) {
				calls, _ := field(req.Input, "calls").([]any)
				var out []InnerCall
				for _, c := range calls {
					o, _ := c.(*value.Object)
					tool, _ := field(o, "tool").(string)
					in := field(o, "input")
					if s, ok := in.(string); ok {
						out = append(out, InnerCall{Tool: tool, Input: s, Kind: "device"})
						continue
					}
					out = append(out, InnerCall{Tool: tool, Input: in})
				}
				return out, nil
			},
			tier: func(req Request) (Tier, error) { return TierUnknown, fmt.Errorf("tier of %v", leaves(req.Input)) },
		}},
		{Key: toolBadWrap, Owner: "property", Formatter: wrapperFormatter{
			unwrap: func(req Request) ([]InnerCall, error) {
				return nil, fmt.Errorf("cannot read %s", textfmt.CompactJSON(req.Input))
			},
		}},
	}
	if _, err := reg.RegisterAll(entries); err != nil {
		t.Fatal(err)
	}
	return reg
}

// call returns a call that carries credentials in its input and its
// fields, and the result it returned.
func (p *planter) call() (Call, Result) {
	tools := []string{toolEcho, toolRender, toolFail, toolPanic, toolWrap, toolBadWrap, "read", "write", "task", "bash", "mcp", "srv:run"}
	c := Call{Tool: tools[p.r.IntN(len(tools))]}
	in := p.object(0)
	switch c.Tool {
	case toolWrap:
		var calls []any
		for range 1 + p.r.IntN(3) {
			inner := tools[p.r.IntN(len(tools))]
			var input any = p.object(1)
			if p.r.IntN(3) == 0 {
				input = textfmt.CompactJSON(input) // JSON in a string, as a device write carries it
			}
			calls = append(calls, value.ObjectOf([]string{"tool", "input"}, []any{inner, input}))
		}
		in = value.ObjectOf(append(in.Keys(), "calls"), append(leafValues(in), calls))
	case "mcp":
		in = value.ObjectOf([]string{"tool", "arguments"}, []any{"srv:run", in})
		c.Target = "srv:run"
	case "srv:run":
		c.Source = "mcp"
	case "bash":
		c.Command = p.text()
	}
	switch p.r.IntN(8) {
	case 0:
		c.Tool = "deploy-" + p.shaped()
	case 1:
		c.Target, c.Source = "srv:"+p.shaped(), "mcp"
	case 2:
		c.Command = p.text()
	case 3:
		c.Agent, c.MatchedPattern, c.Origin = p.text(), p.text(), p.text()
	}
	switch p.r.IntN(3) {
	case 0:
		c.Input = in
	case 1:
		c.Input = textfmt.CompactJSON(in)
	default:
		c.Input = []byte(textfmt.CompactJSON(in))
	}
	if p.r.IntN(8) == 0 {
		// Text that is not JSON, as a freeform tool sends it.
		c.Input = p.text() + " {"
	}
	return c, p.result()
}

// leafValues returns the values of an object's fields, in order.
func leafValues(o *value.Object) []any {
	out := make([]any, 0, o.Len())
	for _, v := range o.All() {
		out = append(out, v)
	}
	return out
}

// outputs collects every output of a call, each named by its path.
type outputs struct {
	list []namedOutput
}

type namedOutput struct{ path, text string }

func (o *outputs) add(path, text string) {
	if text != "" {
		o.list = append(o.list, namedOutput{path, text})
	}
}

func (o *outputs) addLog(path string, l LogContext) {
	for _, f := range []struct {
		name string
		v    *string
	}{{"command", l.Command}, {"target", l.Target}, {"toolInputPreview", l.ToolInputPreview}, {"origin", l.Origin}} {
		if f.v != nil {
			o.add(path+".Log."+f.name, *f.v)
		}
	}
}

func (o *outputs) addCalls(path string, calls []WrappedCall) {
	for i, c := range calls {
		p := fmt.Sprintf("%s.Calls[%d]", path, i)
		o.add(p+".Label", c.Label)
		o.add(p+".Preview", c.Preview.Text)
		o.addCalls(p, c.Calls)
	}
}

func (o *outputs) addRow(path string, r Row) {
	o.add(path+".Icon", r.Icon)
	o.add(path+".Title", r.Title)
	o.add(path+".Text", r.Text)
	for i, l := range r.Lines {
		o.add(fmt.Sprintf("%s.Lines[%d]", path, i), l.Text)
	}
}

// propertyDispatcher is a dispatcher a call is shown by, with the
// failures it reported and what it logged.
type propertyDispatcher struct {
	name     string
	d        *Dispatcher
	failures *[]Failure
	log      *bytes.Buffer
}

// newPropertyDispatchers returns the dispatchers a call is shown by: with
// the default limits, logging as text, and with limits so tight that every
// output is cut, logging as JSON.
func newPropertyDispatchers(t testing.TB) []propertyDispatcher {
	reg := propertyRegistry(t)
	var out []propertyDispatcher
	for _, l := range []struct {
		name   string
		limits Limits
		json   bool
	}{
		{"default", Limits{}, false},
		{"tight", Limits{Preview: 40, Summary: 20, Log: 60, Output: 70, OutputBytes: 120}, true},
	} {
		failures := new([]Failure)
		log := new(bytes.Buffer)
		var h slog.Handler = slog.NewTextHandler(log, nil)
		if l.json {
			h = slog.NewJSONHandler(log, nil)
		}
		d, err := NewDispatcher(reg, Options{
			Limits: l.limits, Logger: slog.New(h), ShowTier: true,
			OnFailure: func(f Failure) { *failures = append(*failures, f) },
		})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, propertyDispatcher{l.name, d, failures, log})
	}
	return out
}

// collect returns every output of a call and its result.
func (pd propertyDispatcher) collect(c Call, res Result) []namedOutput {
	*pd.failures = (*pd.failures)[:0]
	pd.log.Reset()
	var o outputs
	d := pd.d
	desc := d.Describe(c)
	o.add("Describe.Preview", desc.Preview.Text)
	o.add("Describe.Prompt", desc.Prompt)
	o.addLog("Describe", desc.Log)
	o.addCalls("Describe", desc.Calls)
	o.add("Preview", d.Preview(c).Text)
	o.add("Prompt", d.Prompt(c))
	o.addLog("Log", d.Log(c))
	for _, m := range []Mode{ModeMinimal, ModeDefault, ModeVerbose} {
		o.addRow("Row."+m.String(), d.Row(c, m))
		o.addRow("ResultRow."+m.String(), d.ResultRow(c, res, m))
	}
	for i, l := range d.Expand(c, res) {
		o.add(fmt.Sprintf("Expand[%d]", i), l.Text)
	}
	for i, f := range *pd.failures {
		p := fmt.Sprintf("Failure[%d]", i)
		o.add(p+".Tool", f.Tool)
		o.add(p+".Key", f.Key)
		o.add(p+".Owner", f.Owner)
		o.add(p+".Err", f.Err.Error())
	}
	o.add("slog", pd.log.String())
	return o.list
}

// checkRedacted fails the test for every output of the call that shows a
// credential.
func checkRedacted(t *testing.T, pd propertyDispatcher, c Call, res Result, planted []string) {
	t.Helper()
	finder := newLeakFinder(planted, carriedSecrets(c, res))
	for _, out := range pd.collect(c, res) {
		if leak := finder.find(out.text); leak != "" {
			t.Errorf("%s: %s shows %q of a credential:\n%s\ncall: %+v", pd.name, out.path, leak, out.text, c)
		}
	}
	// A frame while the arguments stream shows a prefix of their JSON,
	// which carries what the rule finds in it: a credential the stream
	// cut before the rule can tell it is one is not one yet.
	if raw, ok := c.Input.(string); ok && len(raw) > 8 {
		partial := c
		partial.Partial, partial.Input = true, raw[:len(raw)*2/3]
		var o outputs
		o.addRow("Row.partial", pd.d.Row(partial, ModeDefault))
		finder := newLeakFinder(nil, carriedSecrets(partial, Result{}))
		for _, out := range o.list {
			if leak := finder.find(out.text); leak != "" {
				t.Errorf("%s: %s shows %q of a credential:\n%s\ncall: %+v", pd.name, out.path, leak, out.text, partial)
			}
		}
	}
}

// carriedSecrets returns the credentials the rule finds in a call and its
// result, beside those planted: too long to appear in an output by chance.
func carriedSecrets(c Call, res Result) []string {
	in := value.DecodeInput(c.Input)
	if c.Partial {
		in = value.DecodePartialInput(c.Input)
	}
	var out []string
	for _, v := range []any{in.Value, in.Raw, res.Object(), c.Tool, c.Target, c.Command, c.Agent, c.MatchedPattern, c.Origin} {
		out = append(out, longSecrets(textfmt.Secrets(v))...)
	}
	return out
}

// longSecrets keeps the credentials Secrets finds that are too long to
// appear in an output by chance.
func longSecrets(secrets []string) []string {
	var out []string
	for _, s := range secrets {
		if utf8.RuneCountInString(s) >= leakWindow {
			out = append(out, s)
		}
	}
	return out
}

// redactionCases is how many seeded calls TestRedactionProperty checks.
func redactionCases() int {
	if raceEnabled || testing.Short() {
		return 30
	}
	return 150
}

// TestRedactionProperty checks every output of seeded calls for the
// credentials they carry.
func TestRedactionProperty(t *testing.T) {
	dispatchers := newPropertyDispatchers(t)
	for seed := range uint64(redactionCases()) {
		p := newPlanter(seed, "")
		c, res := p.call()
		for _, pd := range dispatchers {
			checkRedacted(t, pd, c, res, p.planted)
		}
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
}

// FuzzRedaction checks every output of a call built from the seed, with the
// fuzzer's filler in fields of its own (harmless text before and beside
// the credentials, padding, keys).
func FuzzRedaction(f *testing.F) {
	for seed, filler := range []string{"", "main", "\u200b", "Bearer", "?token=", `"password": "`, `"password":'0`,
		"-----BEGIN PRIVATE KEY-----", "\x1b[", "https://x:", strings.Repeat("\u202e", 40)} {
		f.Add(uint64(seed), filler)
	}
	dispatchers := newPropertyDispatchers(f)
	f.Fuzz(func(t *testing.T, seed uint64, filler string) {
		if !utf8.ValidString(filler) || len(filler) > 200 {
			return
		}
		p := newPlanter(seed, filler)
		c, res := p.call()
		for _, pd := range dispatchers {
			checkRedacted(t, pd, c, res, p.planted)
		}
	})
}
