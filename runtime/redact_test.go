package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Credentials of the leak tests: random-looking, so that an output that
// holds a piece of one holds it by a leak.
const (
	leakPassword = "Qx7v-Lm2p_Zr9tWk4sHd"
	leakGitHub   = "ghp_R8fKq2ZtW7mXb4NcY1vLp9sHd3JgA6eUo0Ti"
	leakOpenAI   = "sk-proj-Vb3nQ8rT2xLm7pZk4WcY9dHs1fJgA6eU"
	leakPEMLine1 = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj"
	leakPEMLine2 = "MZMwXyYs3WdWk1hQvJ6nPp9CrTtUu2EeFfGgHhIiJjKkLlMmNnOoPpQqRrSsTtUu"
	leakPEM      = "-----BEGIN PRIVATE KEY-----\n" + leakPEMLine1 + "\n" + leakPEMLine2 + "\n-----END PRIVATE KEY-----"
)

// leakOutputs is what one case of TestRedactionLeaks shows, by name.
type leakOutputs map[string]string

// noLeak fails when an output holds a credential or a piece of one of
// leakWindow characters.
func noLeak(t *testing.T, outputs leakOutputs, secrets ...string) {
	t.Helper()
	finder := newLeakFinder(secrets, nil)
	for name, text := range outputs {
		if leak := finder.find(text); leak != "" {
			t.Errorf("%s shows %q: %s", name, leak, text)
		}
	}
}

// echoField shows the given field of its input as it is, as a
// formatter that forgets the rule does.
func echoField(key string, cut int) FormatterFunc {
	return func(req Request) (string, bool, error) {
		s := fmt.Sprint(field(req.Input, key))
		if cut > 0 {
			s = textfmt.Truncate(s, cut)
		}
		return "shows " + s, true, nil
	}
}

// TestRedactionLeaks holds each path a credential took out of an output
// before the dispatcher redacted it there.
func TestRedactionLeaks(t *testing.T) {
	resultOf := func(text string) Result { return Result{Content: []Content{{Type: "text", Text: text}}} }
	failing := func(f func(Request) error) rowFormatter {
		fail := func(req Request) (string, bool, error) { return "", false, f(req) }
		return rowFormatter{row: fail, result: fail, error: fail, expand: func(req Request) ([]string, bool, error) {
			return nil, false, f(req)
		}}
	}
	tests := []struct {
		name    string
		secrets []string
		outputs func(t *testing.T) leakOutputs
	}{
		{
			// A formatter's text is scrubbed of the credentials its
			// call carries, which the text alone does not name.
			name:    "a formatter shows a password without its name",
			secrets: []string{leakPassword},
			outputs: func(t *testing.T) leakOutputs {
				d := newDispatcher(t, Limits{}, map[string]Formatter{"login": echoField("password", 0)})
				c := Call{Tool: "login", Input: `{"user":"bob","password":"` + leakPassword + `"}`}
				desc := d.Describe(c)
				return leakOutputs{"preview": desc.Preview.Text, "prompt": desc.Prompt, "log": *desc.Log.ToolInputPreview,
					"row": d.Row(c, ModeMinimal).Text}
			},
		},
		{
			// The host writes the command, agent and pattern beside the
			// input; a token the input names is replaced there too, in
			// the prompt with and without tiers and in the log.
			name:    "the host's command spells a token the input names",
			secrets: []string{leakPassword},
			outputs: func(t *testing.T) leakOutputs {
				d := newDispatcher(t, Limits{}, map[string]Formatter{})
				tiers, err := NewDispatcher(NewRegistry(), Options{ShowTier: true})
				require.NoError(t, err)
				c := Call{Tool: "bash", Command: "deploy --as " + leakPassword, Agent: "ops " + leakPassword,
					MatchedPattern: "deploy " + leakPassword, Origin: "cron " + leakPassword,
					Input: `{"command":"deploy","env":{"DEPLOY_TOKEN":"` + leakPassword + `"}}`}
				desc := d.Describe(c)
				named := Call{Tool: "ops_" + leakPassword, Input: `{"env":{"DEPLOY_TOKEN":"` + leakPassword + `"}}`}
				return leakOutputs{"prompt": d.Prompt(c), "tier prompt": tiers.Prompt(c), "describe": desc.Prompt,
					"log command": *desc.Log.Command, "log origin": *desc.Log.Origin, "log": *d.Log(c).Command,
					"tool name in the prompt": d.Prompt(named), "row title": d.Row(named, ModeDefault).Title}
			},
		},
		{
			name:    "a formatter truncates a credential",
			secrets: []string{leakGitHub},
			outputs: func(t *testing.T) leakOutputs {
				d := newDispatcher(t, Limits{}, map[string]Formatter{"clone": echoField("note", 30)})
				c := Call{Tool: "clone", Input: `{"note":"` + leakGitHub + `"}`}
				return leakOutputs{"preview": d.Preview(c).Text}
			},
		},
		{
			// The default preview shows short input as its JSON, which
			// the text rule reads by its quoted pairs alone.
			name:    "the default preview's JSON of a sensitive value, a number and a nested value",
			secrets: []string{leakPassword, "739218465120", "Zk4WcY9dHs1fJ"},
			outputs: func(t *testing.T) leakOutputs {
				d := newDispatcher(t, Limits{}, map[string]Formatter{})
				c := Call{Tool: "deploy", Input: `{"db":{"sensitive":true,"value":"` + leakPassword +
					`"},"api_key":739218465120,"credentials":{"kind":"sa","material":"Zk4WcY9dHs1fJ"}}`}
				desc := d.Describe(c)
				return leakOutputs{"preview": desc.Preview.Text, "log": *desc.Log.ToolInputPreview,
					"row": d.Row(c, ModeMinimal).Text}
			},
		},
		{
			name:    "JSON in a string with a name-value credential",
			secrets: []string{leakPassword},
			outputs: func(t *testing.T) leakOutputs {
				d := newDispatcher(t, Limits{}, map[string]Formatter{})
				body := `{\"env\":[{\"name\":\"DB_PASSWORD\",\"value\":\"` + leakPassword + `\"}]}`
				c := Call{Tool: "http", Input: `{"method":"POST","body":"` + body + `"}`}
				return leakOutputs{"preview": d.Preview(c).Text, "lines": linesText(d.Row(c, ModeVerbose).Lines)}
			},
		},
		{
			name:    "verbose lines of a sensitive value",
			secrets: []string{leakPassword},
			outputs: func(t *testing.T) leakOutputs {
				d := newDispatcher(t, Limits{}, map[string]Formatter{})
				c := Call{Tool: "set", Input: `{"entry":{"sensitive":true,"value":"` + leakPassword + `"}}`}
				return leakOutputs{"lines": linesText(d.Row(c, ModeVerbose).Lines)}
			},
		},
		{
			// Expanded results are cut into lines before the rule reads
			// them: a key's body lines read as no credential alone.
			name:    "an expanded result with a private key",
			secrets: []string{leakPEMLine1, leakPEMLine2},
			outputs: func(t *testing.T) leakOutputs {
				d := newDispatcher(t, Limits{}, map[string]Formatter{"cat": rowFormatter{
					expand: func(req Request) ([]string, bool, error) {
						text, _ := field(req.Result, "text").(string)
						return strings.Split(text, "\n"), true, nil
					},
				}})
				res := resultOf("key:\n" + leakPEM + "\nok")
				return leakOutputs{
					"default": linesText(d.Expand(Call{Tool: "read_file"}, res)),
					"expand":  linesText(d.Expand(Call{Tool: "cat"}, res)),
				}
			},
		},
		{
			name:    "a result line written from the result",
			secrets: []string{leakPassword},
			outputs: func(t *testing.T) leakOutputs {
				d := newDispatcher(t, Limits{}, map[string]Formatter{"get": rowFormatter{
					result: func(req Request) (string, bool, error) {
						details, _ := field(req.Result, "details").(*value.Object)
						return "got " + fmt.Sprint(field(details, "value")), true, nil
					},
				}})
				res := Result{Content: []Content{{Type: "text", Text: "ok"}},
					Details: map[string]any{"name": "API_TOKEN", "value": leakPassword}}
				return leakOutputs{"result": d.ResultRow(Call{Tool: "get"}, res, ModeMinimal).Text}
			},
		},
		{
			// A model splits a credential with characters a reader
			// cannot see, so that the rule does not read it as one.
			name:    "a credential split by a zero-width space, revealed",
			secrets: []string{leakGitHub},
			outputs: func(t *testing.T) leakOutputs {
				d := newDispatcher(t, Limits{}, map[string]Formatter{})
				split := leakGitHub[:18] + "\u200b" + leakGitHub[18:]
				c := Call{Tool: "note", Agent: "a " + split, Input: `{"text":"` + split + `"}`}
				return leakOutputs{"preview": d.Preview(c).Text, "prompt": d.Prompt(c)}
			},
		},
		{
			name:    "a credential whose start has its shape, split by a bidi control",
			secrets: []string{leakOpenAI},
			outputs: func(t *testing.T) leakOutputs {
				d := newDispatcher(t, Limits{}, map[string]Formatter{"srv:*": echoField("q", 0)})
				split := leakOpenAI[:24] + "\u202e" + leakOpenAI[24:]
				c := Call{Tool: "srv:run", Source: "mcp", Target: "srv:" + split, Input: `{"q":"` + split + `"}`}
				desc := d.Describe(c)
				return leakOutputs{"preview": desc.Preview.Text, "prompt": desc.Prompt, "target": *desc.Log.Target}
			},
		},
		{
			name:    "a split credential among fields the default preview redacts",
			secrets: []string{leakOpenAI},
			outputs: func(t *testing.T) leakOutputs {
				d := newDispatcher(t, Limits{}, map[string]Formatter{})
				split := leakOpenAI[:24] + "\u00ad" + leakOpenAI[24:]
				c := Call{Tool: "task", Input: `{"content":"` + strings.Repeat("lorem ipsum ", 40) + `","note":"key ` + split + `"}`}
				return leakOutputs{"preview": d.Preview(c).Text}
			},
		},
		{
			name:    "a tool name with a credential names the row",
			secrets: []string{leakOpenAI},
			outputs: func(t *testing.T) leakOutputs {
				d := newDispatcher(t, Limits{}, map[string]Formatter{})
				c := Call{Tool: "run-" + leakOpenAI}
				return leakOutputs{"title": d.Row(c, ModeMinimal).Title}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			noLeak(t, tc.outputs(t), tc.secrets...)
		})
	}

	// A failure is an output too: its message may quote the input, or
	// the result, the formatter failed on, and the host logs it.
	t.Run("failure reports", func(t *testing.T) {
		var failures []Failure
		var log bytes.Buffer
		reg := NewRegistry()
		quote := func(req Request) error {
			return fmt.Errorf("bad input %v, result %q", leaves(req.Input), leaves(req.Result))
		}
		_, err := reg.RegisterAll([]Entry{
			{Key: "fail", Owner: "test", Formatter: failing(quote)},
			{Key: "panic", Owner: "test", Formatter: FormatterFunc(func(req Request) (string, bool, error) {
				panic(strings.Join(leaves(req.Input), " "))
			})},
			{Key: "badwrap", Owner: "test", Formatter: wrapperFormatter{
				unwrap: func(req Request) ([]InnerCall, error) { return nil, quote(req) },
				tier:   func(req Request) (Tier, error) { return TierUnknown, quote(req) },
			}},
		})
		require.NoError(t, err)
		d, err := NewDispatcher(reg, Options{Logger: slog.New(slog.NewTextHandler(&log, nil)), ShowTier: true,
			OnFailure: func(f Failure) { failures = append(failures, f) }})
		require.NoError(t, err)
		input := `{"password":"` + leakPassword + `","note":"\u001b[0m` + leakGitHub + `"}`
		res := resultOf("key " + leakOpenAI)
		for _, tool := range []string{"fail", "panic", "badwrap"} {
			c := Call{Tool: tool, Input: input, ID: tool}
			d.Describe(c)
			d.Row(c, ModeMinimal)
			d.ResultRow(c, res, ModeMinimal)
			d.Expand(c, res)
		}
		d.Describe(Call{Tool: "fail-" + leakOpenAI, Input: input})
		d.Describe(Call{Tool: "multi", Input: input}) // no formatter: no failure
		require.NotEmpty(t, failures)
		outputs := leakOutputs{"slog": log.String()}
		for i, f := range failures {
			outputs[fmt.Sprintf("failure %d tool", i)] = f.Tool
			outputs[fmt.Sprintf("failure %d error", i)] = f.Err.Error()
			var se *SlotError
			if errors.As(f.Err, &se) {
				outputs[fmt.Sprintf("failure %d slot error", i)] = se.Err.Error()
			}
		}
		noLeak(t, outputs, leakPassword, leakGitHub, leakOpenAI)
		// The errors stay what they were for errors.Is and errors.As.
		assert.True(t, slicesAny(failures, func(f Failure) bool { return errors.Is(f.Err, ErrPanic) }))
		assert.True(t, slicesAny(failures, func(f Failure) bool {
			var se *SlotError
			return errors.As(f.Err, &se) && se.Slot == "row"
		}))
		assert.Contains(t, failures[0].Err.Error(), "bad input", "the rest of the message stays")
	})
}

func slicesAny[T any](list []T, f func(T) bool) bool {
	for _, x := range list {
		if f(x) {
			return true
		}
	}
	return false
}

// linesText joins lines, one per line.
func linesText(lines []Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.String() + "\n")
	}
	return b.String()
}

// leaves returns the strings and numbers of v, depth first.
func leaves(v any) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case value.Number:
			out = append(out, x.String())
		case []any:
			for _, e := range x {
				walk(e)
			}
		case *value.Object:
			if t, ok := x.Text(); ok {
				out = append(out, t)
			}
			for _, e := range x.All() {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// leakWindow is the length of the pieces of a credential an output must not
// contain: a credential of at least this many characters must not show in
// part either.
const leakWindow = 12

// leakFinder finds pieces of credentials in text.
type leakFinder struct {
	whole   []string          // credentials to find whole
	windows map[string]string // each leakWindow-rune piece of a planted one, to the credential
}

// newLeakFinder finds the planted credentials, whole and in part (one that
// spans lines, a PEM body, line by line: outputs are one line each), and
// the others, which the rule finds in a call, whole: an other one may be
// made of the fuzzer's text, pieces of which may show elsewhere as
// harmless text.
func newLeakFinder(planted, others []string) *leakFinder {
	f := &leakFinder{windows: map[string]string{}}
	for _, s := range planted {
		for _, piece := range strings.Fields(s) {
			runes := []rune(piece)
			if len(runes) < leakWindow {
				if len(runes) >= textfmt.MinSecretRunes {
					f.whole = append(f.whole, piece)
				}
				continue
			}
			for i := 0; i+leakWindow <= len(runes); i++ {
				f.windows[string(runes[i:i+leakWindow])] = s
			}
		}
	}
	for _, s := range others {
		// Secrets lists each credential also as one line would show
		// it (folded, each of its lines).
		if !strings.ContainsAny(s, "\n\r") && utf8.RuneCountInString(s) >= leakWindow {
			f.whole = append(f.whole, s)
		}
	}
	return f
}

// find returns the first piece of a credential in text, or "".
func (f *leakFinder) find(text string) string {
	for _, w := range f.whole {
		if strings.Contains(text, w) {
			return w
		}
	}
	var starts []int
	for i := range text {
		starts = append(starts, i)
	}
	starts = append(starts, len(text))
	for i := 0; i+leakWindow < len(starts); i++ {
		if _, ok := f.windows[text[starts[i]:starts[i+leakWindow]]]; ok {
			return text[starts[i]:starts[i+leakWindow]]
		}
	}
	return ""
}

// TestRowTitleHidesANamedCredential: a tool name that spells a credential
// the input names is shown as it is, redacted: its display name's words
// (Ops Qx7v Lm2p …) would carry the credential past the scrubber.
func TestRowTitleHidesANamedCredential(t *testing.T) {
	d := newDispatcher(t, Limits{}, nil)
	c := Call{Tool: "ops_" + leakPassword, Input: `{"env":{"DEPLOY_TOKEN":"` + leakPassword + `"}}`}
	for _, m := range []Mode{ModeMinimal, ModeDefault, ModeVerbose} {
		assert.Equal(t, "ops_‹secret, 20 characters›", d.Row(c, m).Title, m.String())
	}
}
