package runtime

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rowFormatter renders rows with functions, as a catalog entry with row,
// result, error and expand keys does.
type rowFormatter struct {
	present            Presentation
	row, result, error func(Request) (string, bool, error)
	expand             func(Request) ([]string, bool, error)
}

func (f rowFormatter) Format(Request) (string, bool, error) { return "", false, nil }
func (f rowFormatter) Presentation() Presentation           { return f.present }

func call(fn func(Request) (string, bool, error), req Request) (string, bool, error) {
	if fn == nil {
		return "", false, nil
	}
	return fn(req)
}

func (f rowFormatter) Row(req Request) (string, bool, error)       { return call(f.row, req) }
func (f rowFormatter) Result(req Request) (string, bool, error)    { return call(f.result, req) }
func (f rowFormatter) ErrorLine(req Request) (string, bool, error) { return call(f.error, req) }
func (f rowFormatter) Expand(req Request) ([]string, bool, error) {
	if f.expand == nil {
		return nil, false, nil
	}
	return f.expand(req)
}

// shot is a screenshot tool: its row needs the path, its result counts
// the bytes it wrote.
var shot = rowFormatter{
	present: Presentation{Title: "Screenshot", Category: "desktop", NerdIcon: "\uf030", PlainIcon: "📷"},
	row: func(req Request) (string, bool, error) {
		path, ok := field(req.Input, "path").(string)
		if !ok {
			return "", false, nil // not yet
		}
		return "to " + path, true, nil
	},
	result: func(req Request) (string, bool, error) {
		content, _ := field(req.Result, "content").([]any)
		return fmt.Sprintf("saved (%d items)", len(content)), true, nil
	},
	error: func(req Request) (string, bool, error) {
		return "could not capture the screen", true, nil
	},
	expand: func(req Request) ([]string, bool, error) {
		return []string{"first", "\tsecond " + strings.Repeat("x", 200)}, true, nil
	},
}

func TestRows(t *testing.T) {
	d := newDispatcher(t, Limits{}, map[string]Formatter{"screenshot": shot, "read": readFormatter})
	tests := []struct {
		name string
		call Call
		mode Mode
		want string
	}{
		{"a row of a formatter", Call{Tool: "screenshot", Input: `{"path":"/tmp/a.png"}`}, ModeDefault, "\uf030 Screenshot to /tmp/a.png"},
		{"minimal has no icon", Call{Tool: "screenshot", Input: `{"path":"/tmp/a.png"}`}, ModeMinimal, "Screenshot to /tmp/a.png"},
		{"a row that declines shows the preview", Call{Tool: "screenshot", Input: `{"x":1}`}, ModeMinimal, `Screenshot with input {"x":1}`},
		{"without a row, the preview", Call{Tool: "read", Input: `{"path":"/etc/hosts"}`}, ModeDefault, "Read for path '/etc/hosts'"},
		{"a derived display name", Call{Tool: "launch_app", Input: `{"name":"Safari"}`}, ModeDefault, `Launch App with input {"name":"Safari"}`},
		{"MCP: the annotations' title, after the server's name", Call{Tool: "srv:get_issue", Source: "mcp", Annotations: &Annotations{Title: "Get an issue"}}, ModeDefault, "srv: Get an issue"},
		{"an annotations' title cannot pass for a stock row", Call{Tool: "evil:x", Source: "mcp", Input: `{}`, Annotations: &Annotations{Title: "📄 Read /etc/passwd"}}, ModeDefault, "evil: 📄 Read /etc/passwd"},
		{"the server of an umbrella call's title", Call{Tool: "mcp", Input: `{"tool":"fs:cat","arguments":{}}`, Annotations: &Annotations{Title: "Read"}}, ModeMinimal, "fs: Read"},
		{"MCP: the tool's name", Call{Tool: "srv:get_issue", Source: "mcp"}, ModeDefault, "Get Issue"},
		{"hidden text is stripped in rows", Call{Tool: "screenshot", Input: `{"path":"/tmp/\u202egnp.exe\u001b[2K"}`}, ModeMinimal, "Screenshot to /tmp/gnp.exe"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, d.Row(tc.call, tc.mode).Line())
		})
	}

	plain, err := NewDispatcher(d.reg, Options{Icons: IconsPlain})
	require.NoError(t, err)
	assert.Equal(t, "📷 Screenshot to /tmp/a.png", plain.Row(Call{Tool: "screenshot", Input: `{"path":"/tmp/a.png"}`}, ModeDefault).Line())
}

func TestResultRows(t *testing.T) {
	d := newDispatcher(t, Limits{Summary: 20}, map[string]Formatter{"screenshot": shot})
	c := Call{Tool: "screenshot", Input: `{"path":"/tmp/a.png"}`}
	ok := Result{Content: []Content{{Type: "image"}, {Type: "text", Text: "saved"}}}
	assert.Equal(t, "\uf030 Screenshot ✅ saved (2 items)", d.ResultRow(c, ok, ModeDefault).Line())
	assert.Equal(t, "Screenshot could not capture the screen", d.ResultRow(c, Result{IsError: true}, ModeMinimal).Line())

	other := Call{Tool: "grep", Input: `{}`}
	tests := []struct {
		name string
		res  Result
		want string
	}{
		{"the first line and a count", Result{Content: []Content{{Type: "text", Text: "\n a.go:1: x\nb.go:2: y\n\nc.go:3: z"}}}, "Grep a.go:1: x (+2 lines)"},
		{"cut at the summary limit", Result{Content: []Content{{Type: "text", Text: strings.Repeat("y", 30)}}}, "Grep " + strings.Repeat("y", 20) + "…"},
		{"no text", Result{Content: []Content{{Type: "image"}}}, "Grep done"},
		{"an error", Result{Content: []Content{{Type: "text", Text: "permission denied\nat /x"}}, IsError: true}, "Grep failed: permission denied (+1 line)"},
		{"an error without text", Result{IsError: true}, "Grep failed"},
		{"hidden text", Result{Content: []Content{{Type: "text", Text: "ok\u001b]0;pwned\u0007 \u202edone"}}}, "Grep ok done"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, d.ResultRow(other, tc.res, ModeMinimal).Line())
		})
	}
}

func TestExpand(t *testing.T) {
	d := newDispatcher(t, Limits{}, map[string]Formatter{"screenshot": shot})
	lines := d.Expand(Call{Tool: "screenshot", Input: `{}`}, Result{})
	require.Len(t, lines, 2)
	assert.Equal(t, Line{Text: "first"}, lines[0])
	assert.Equal(t, 4, lines[1].Indent)
	assert.Equal(t, "second "+strings.Repeat("x", 113)+"…", lines[1].Text)

	var text []string
	for i := range 100 {
		text = append(text, fmt.Sprintf("line %d\x1b[31m", i))
	}
	lines = d.Expand(Call{Tool: "grep"}, Result{Content: []Content{{Type: "text", Text: strings.Join(text, "\n") + "\n\n"}}})
	require.Len(t, lines, MaxLines)
	assert.Equal(t, Line{Text: "line 0"}, lines[0])
	assert.Equal(t, Line{Text: "… 61 more lines"}, lines[MaxLines-1])
}

func TestVerboseRows(t *testing.T) {
	d := newDispatcher(t, Limits{}, nil)
	row := d.Row(Call{Tool: "deploy", Input: `{"service":"api","opts":{"replicas":3,"tags":["a","b"],"empty":{}},"note":"x\ny"}`}, ModeVerbose)
	var got []string
	for _, l := range row.Lines {
		got = append(got, l.String())
	}
	assert.Equal(t, []string{
		`{`,
		`  "service": "api",`,
		`  "opts": {`,
		`    "replicas": 3,`,
		`    "tags": [`,
		`      "a",`,
		`      "b"`,
		`    ],`,
		`    "empty": {}`,
		`  },`,
		`  "note": "x\ny"`,
		`}`,
	}, got)

	big := `{"items":[` + strings.Repeat(`1,`, 100000) + `1]}`
	row = d.Row(Call{Tool: "deploy", Input: big}, ModeVerbose)
	require.Len(t, row.Lines, MaxLines)
	assert.Equal(t, Line{Text: "… 99966 more lines"}, row.Lines[MaxLines-1], "100005 lines in all, 39 shown")
}

// TestSlotLatch: a slot that fails while the arguments stream is retried
// on the next frame and not reported; one that fails on a finished call is
// reported once and not run for that call again. Other calls still run it:
// a model's input cannot switch a slot off.
func TestSlotLatch(t *testing.T) {
	var runs, failures int
	var mu sync.Mutex
	boom := errors.New("boom")
	flaky := rowFormatter{row: func(req Request) (string, bool, error) {
		mu.Lock()
		runs++
		mu.Unlock()
		if v, _ := field(req.Input, "fail").(bool); v {
			return "", false, boom
		}
		return "fine", true, nil
	}}
	reg := NewRegistry()
	_, err := reg.Register("flaky", "test", flaky)
	require.NoError(t, err)
	d, err := NewDispatcher(reg, Options{OnFailure: func(f Failure) {
		mu.Lock()
		failures++
		mu.Unlock()
		assert.ErrorIs(t, f.Err, boom)
		var se *SlotError
		assert.ErrorAs(t, f.Err, &se)
		assert.Equal(t, "row", se.Slot)
	}})
	require.NoError(t, err)

	streaming := Call{Tool: "flaky", ID: "call-1", Partial: true, Input: `{"fail":true,"x":`}
	for range 3 {
		assert.Equal(t, "Flaky", d.Row(streaming, ModeMinimal).Line(), "a failing frame shows no text")
	}
	assert.Equal(t, 3, runs, "retried on every frame")
	assert.Equal(t, 0, failures, "not reported while streaming")

	finished := Call{Tool: "flaky", ID: "call-1", Input: `{"fail":true}`}
	for range 3 {
		assert.Equal(t, `Flaky with input {"fail":true}`, d.Row(finished, ModeMinimal).Line())
	}
	assert.Equal(t, 4, runs, "latched after the first failure of the finished call")
	assert.Equal(t, 1, failures)

	other := Call{Tool: "flaky", ID: "call-2", Input: `{"fail":false}`}
	assert.Equal(t, "Flaky fine", d.Row(other, ModeMinimal).Line(), "other calls still run the slot")
	again := Call{Tool: "flaky", ID: "call-1", Input: `{"fail":false}`}
	assert.Equal(t, `Flaky with input {"fail":false}`, d.Row(again, ModeMinimal).Line(), "the latched call keeps its default")
	noID := Call{Tool: "flaky", Input: `{"fail":true}`}
	d.Row(noID, ModeMinimal)
	d.Row(noID, ModeMinimal)
	assert.Equal(t, 7, runs, "without an ID every render runs the slot")
}

func TestLatchIsBounded(t *testing.T) {
	var l latch
	reg := &registration{key: "k"}
	for i := range latchSize + 10 {
		l.add(fmt.Sprint(i), reg, slotRow)
	}
	assert.Len(t, l.set, latchSize)
	assert.False(t, l.has("0", reg, slotRow), "the oldest are forgotten first")
	assert.True(t, l.has(fmt.Sprint(latchSize+9), reg, slotRow))
}

func TestDisplayName(t *testing.T) {
	for in, want := range map[string]string{
		"launch_app": "Launch App", "read": "Read", "multi_tool_use.parallel": "Multi Tool Use Parallel",
		"github:create_pull_request": "Create Pull Request", "brave-search:*": "Brave Search", "ärger_app": "Ärger App", "": "",
	} {
		assert.Equal(t, want, DisplayName(in), in)
	}
}

func TestResultObject(t *testing.T) {
	o := (Result{Content: []Content{{Type: "text", Text: "hi"}}, Details: map[string]any{"n": 1}, IsError: true}).Object()
	assert.Equal(t, `{"content":[{"type":"text","text":"hi"}],"details":{"n":1},"isError":true,"text":"hi"}`, compact(o))
}

// TestResultText: a result's text is that of its text items, each on lines
// of its own, so that two items cannot run together into one line; an
// image's text, if a tool sends one, is not the result's text.
func TestResultText(t *testing.T) {
	for _, tc := range []struct {
		content []Content
		want    string
	}{
		{nil, ""},
		{[]Content{{Type: "image"}}, ""},
		{[]Content{{Type: "text", Text: "one"}}, "one"},
		{[]Content{{Type: "text", Text: "a"}, {Type: "image", Text: "ignore me"}, {Text: "b\n"}}, "a\nb\n"},
		{[]Content{{Type: "text"}, {Type: "text", Text: "x"}}, "\nx"},
	} {
		assert.Equal(t, tc.want, Result{Content: tc.content}.Text(), "%+v", tc.content)
	}
}

func compact(v any) string {
	in := value.Input{Value: v}
	return inputText(in, 1000)
}

// TestWrapperRowShowsWhatRuns: a wrapper's row shows the calls it carries,
// whatever its own row says, once its arguments are complete.
func TestWrapperRowShowsWhatRuns(t *testing.T) {
	write := struct {
		wrapperFormatter
		rowFormatter
	}{deviceWrite, rowFormatter{row: func(req Request) (string, bool, error) { return "a harmless write", true, nil }}}
	d := newDispatcher(t, Limits{}, map[string]Formatter{"write": struct {
		Unwrapper
		Renderer
		Formatter
	}{write.wrapperFormatter, write.rowFormatter, write.wrapperFormatter}, "web_fetch": webFetch})
	c := Call{Tool: "write", Input: `{"path":"xd://web_fetch","content":"{\"url\":\"https://evil.example/x\"}"}`}
	assert.Equal(t, "Write → device 'web_fetch' to fetch 'https://evil.example/x'", d.Row(c, ModeMinimal).Line())
	c.Input, c.Partial = `{"path":"xd://web_fetch","content":"{\"url\":\"https://ev`, true
	assert.Equal(t, "Web Fetch", d.Row(c, ModeMinimal).Line(), "while streaming, the device's row (web_fetch has no row slot)")
	c.Input = `{"path":"/tmp/a","content":"{\"url\":\"https://ev`
	assert.Equal(t, "Write a harmless write", d.Row(c, ModeMinimal).Line(), "while streaming to a file, the row slot")
	file := Call{Tool: "write", Input: `{"path":"/tmp/a","content":"x"}`}
	assert.Equal(t, "Write a harmless write", d.Row(file, ModeMinimal).Line())
}

// TestResultTextIsLinear: a result of many text items costs time in
// proportion to its size, not its square; joining the items one by one
// took minutes for a million of them.
func TestResultTextIsLinear(t *testing.T) {
	res := Result{Content: make([]Content, 1_000_000)}
	for i := range res.Content {
		res.Content[i] = Content{Type: "text", Text: "a"}
	}
	allocs := testing.AllocsPerRun(1, func() { _ = res.Text() })
	assert.LessOrEqual(t, allocs, 64.0, "the text is built in one growing buffer")
	assert.Len(t, res.Text(), 2*len(res.Content)-1)
}

// Peekaboo's agent output marks a finished call ✅ and a failed one ❌ in
// its default mode, and shows how long it took in parentheses (1.2s):
// Apps/CLI/Sources/peekaboo/Commands/AI/AgentOutputDelegate.swift and
// Core/PeekabooCore/Sources/PeekabooCore/Utilities/TimeFormatting.swift at
// steipete/Peekaboo@b4132e1a1465d2416ae3a782adbf3dd6ed02b4eb.
func TestResultMarksAndDurations(t *testing.T) {
	d := newDispatcher(t, Limits{}, map[string]Formatter{"screenshot": shot})
	c := Call{Tool: "screenshot", Input: `{"path":"/tmp/a.png"}`}
	text := []Content{{Type: "text", Text: "saved"}}
	tests := []struct {
		name string
		call Call
		res  Result
		mode Mode
		want string
	}{
		{"success in default mode", c, Result{Content: text, Duration: 1200 * time.Millisecond}, ModeDefault, "\uf030 Screenshot ✅ saved (1 items) (1.2s)"},
		{"an error in default mode", c, Result{IsError: true, Duration: 250 * time.Millisecond}, ModeDefault, "\uf030 Screenshot ❌ could not capture the screen (250ms)"},
		{"minimal has no mark, but the duration", c, Result{Content: text, Duration: 2 * time.Minute}, ModeMinimal, "Screenshot saved (1 items) (2min 0s)"},
		{"no duration without one", Call{Tool: "grep"}, Result{Content: text}, ModeDefault, "Grep ✅ saved"},
		{"microseconds", Call{Tool: "grep"}, Result{Content: text, Duration: 500 * time.Microsecond}, ModeMinimal, "Grep saved (500µs)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, d.ResultRow(tc.call, tc.res, tc.mode).Line())
		})
	}
	row := d.ResultRow(c, Result{IsError: true}, ModeDefault)
	assert.Equal(t, MarkError, row.Mark)
	assert.Empty(t, row.Duration)
	assert.Empty(t, d.Row(c, ModeDefault).Mark, "a call's row has no mark")
}

// Peekaboo's verbose mode prints the result as indented JSON below its
// line (AgentOutputDelegate.swift, formatJSON, at the commit above).
func TestVerboseResultJSON(t *testing.T) {
	d := newDispatcher(t, Limits{}, nil)
	c := Call{Tool: "deploy", Input: `{"token":"ghp_0123456789abcdefghijklmnopqrstuvwxyz01"}`}
	res := Result{Content: []Content{{Type: "text", Text: "ok"}}, Details: map[string]any{"count": 2, "password": "hunter2hunter2"}}
	var got []string
	for _, l := range d.ResultRow(c, res, ModeVerbose).Lines {
		got = append(got, l.String())
	}
	assert.Equal(t, []string{
		`{`,
		`  "content": [`,
		`    {`,
		`      "type": "text",`,
		`      "text": "ok"`,
		`    }`,
		`  ],`,
		`  "details": {`,
		`    "count": 2,`,
		`    "password": "‹secret, 14 characters›"`,
		`  },`,
		`  "isError": false`,
		`}`,
	}, got)
	assert.Empty(t, d.ResultRow(c, res, ModeDefault).Lines, "only verbose mode shows the JSON")
}

// Peekaboo suppresses the output of its communication tools
// (isCommunicationTool: task_completed, need_more_information, need_info;
// Core/PeekabooCore/Sources/PeekabooCore/ToolFormatting/ToolType.swift at
// the commit above) and shows them in verbose mode only.
func TestCommunicationRowsSuppressed(t *testing.T) {
	done := rowFormatter{present: Presentation{Title: "Task Completed", PlainIcon: "✅", Communication: true}}
	d := newDispatcher(t, Limits{}, map[string]Formatter{"done": done, "screenshot": shot})
	c := Call{Tool: "done", Input: `{"message":"all set"}`}
	for _, mode := range []Mode{ModeMinimal, ModeDefault} {
		assert.True(t, d.Row(c, mode).Suppressed, mode.String())
		assert.True(t, d.ResultRow(c, Result{}, mode).Suppressed, mode.String())
	}
	assert.False(t, d.Row(c, ModeVerbose).Suppressed)
	assert.False(t, d.ResultRow(c, Result{}, ModeVerbose).Suppressed)
	assert.False(t, d.Row(Call{Tool: "screenshot"}, ModeDefault).Suppressed)
	// The prompt is not a row: a communication tool is still asked about.
	assert.Contains(t, d.Prompt(c), "all set")
}

// An icon declared for one set only is drawn in the other where that set
// can draw it, and an entry whose title is declared empty has none.
func TestIconsForOneSetAndNoTitle(t *testing.T) {
	reg := NewRegistry()
	for key, p := range map[string]Presentation{
		"plainonly": {Title: "Plain", PlainIcon: "🖱"},
		"nerdonly":  {Title: "Nerd", NerdIcon: "\U000f057d"},
		"nerdemoji": {Title: "Emoji", NerdIcon: "👁"},
		"untitled":  {NoTitle: true, PlainIcon: "$"},
	} {
		_, err := reg.Register(key, "test", rowFormatter{present: p, row: func(Request) (string, bool, error) { return "x", true, nil }})
		require.NoError(t, err)
	}
	nerd, err := NewDispatcher(reg, Options{})
	require.NoError(t, err)
	plain, err := NewDispatcher(reg, Options{Icons: IconsPlain})
	require.NoError(t, err)
	tests := []struct {
		tool        string
		nerd, plain string
	}{
		{"plainonly", "🖱 Plain x", "🖱 Plain x"},
		{"nerdonly", "\U000f057d Nerd x", "Nerd x"},
		{"nerdemoji", "👁 Emoji x", "👁 Emoji x"},
		{"untitled", "$ x", "$ x"},
	}
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			assert.Equal(t, tc.nerd, nerd.Row(Call{Tool: tc.tool}, ModeDefault).Line())
			assert.Equal(t, tc.plain, plain.Row(Call{Tool: tc.tool}, ModeDefault).Line())
		})
	}
	assert.Equal(t, "x", nerd.Row(Call{Tool: "untitled"}, ModeMinimal).Line())
}

// A call on screen keeps the renderer it started with when its entry is
// removed while it runs; a call without an ID, or another call, does not.
func TestRendererKeptPerCall(t *testing.T) {
	reg := NewRegistry()
	dispose, err := reg.Register("screenshot", "test", shot)
	require.NoError(t, err)
	d, err := NewDispatcher(reg, Options{Icons: IconsPlain})
	require.NoError(t, err)
	c := Call{Tool: "screenshot", ID: "call_1", Input: `{"path":"/tmp/a.png"}`}
	streaming := c
	streaming.Partial, streaming.Input = true, `{"path":"/tm`
	assert.Equal(t, "📷 Screenshot to /tm", d.Row(streaming, ModeDefault).Line())
	assert.Equal(t, "📷 Screenshot to /tmp/a.png", d.Row(c, ModeDefault).Line())
	dispose()
	assert.Equal(t, "📷 Screenshot to /tmp/a.png", d.Row(c, ModeDefault).Line())
	assert.Equal(t, "📷 Screenshot ✅ saved (0 items)", d.ResultRow(c, Result{}, ModeDefault).Line())
	noID := c
	noID.ID = ""
	assert.Equal(t, `Screenshot with input {"path":"/tmp/a.png"}`, d.Row(noID, ModeDefault).Line())
	other := c
	other.ID = "call_2"
	assert.Equal(t, `Screenshot with input {"path":"/tmp/a.png"}`, d.Row(other, ModeDefault).Line())
	renamed := c
	renamed.Tool = "screenshot2"
	assert.Equal(t, `Screenshot2 with input {"path":"/tmp/a.png"}`, d.Row(renamed, ModeDefault).Line(), "a shared ID does not share a renderer")
}

// Rows show paths inside the working directory relative to it, as the
// transcripts of coding agents do; a path that merely contains the
// directory, or leaves it, stays whole, and prompts never change.
func TestRowsRelativeToCwd(t *testing.T) {
	d := newDispatcher(t, Limits{}, map[string]Formatter{"screenshot": shot})
	tests := []struct {
		name, cwd, path, want string
	}{
		{"inside", "/home/dev/app", "/home/dev/app/src/main.go", "Screenshot to src/main.go"},
		{"no cwd", "", "/home/dev/app/src/main.go", "Screenshot to /home/dev/app/src/main.go"},
		{"outside", "/home/dev/app", "/home/dev/application/x", "Screenshot to /home/dev/application/x"},
		{"not at a path's start", "/home/dev/app", "/etc/../home/dev/app/x", "Screenshot to /etc/../home/dev/app/x"},
		{"a parent", "/home/dev/app", "/home/dev/app/../../../etc/passwd", "Screenshot to /home/dev/app/../../../etc/passwd"},
		{"the directory itself", "/home/dev/app", "/home/dev/app/", "Screenshot to /home/dev/app/"},
		{"a double slash", "/home/dev/app", "/home/dev/app//etc/passwd", "Screenshot to /home/dev/app//etc/passwd"},
		{"a relative cwd", "dev/app", "dev/app/x", "Screenshot to dev/app/x"},
		{"an unclean cwd", "/home/dev/app/", "/home/dev/app/x", "Screenshot to /home/dev/app/x"},
		{"the root", "/", "/etc/passwd", "Screenshot to /etc/passwd"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Call{Tool: "screenshot", Cwd: tc.cwd, Input: fmt.Sprintf(`{"path":%q}`, tc.path)}
			assert.Equal(t, tc.want, d.Row(c, ModeMinimal).Line())
			assert.Contains(t, d.Prompt(c), tc.path, "the prompt shows the path whole")
		})
	}
	assert.Equal(t, "a.go and 'b.go' (c.go)", relativeTo("/w", "/w/a.go and '/w/b.go' (/w/c.go)"))
}
