package runtime

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// titledFormatter is a rowFormatter with a title of its own per call, as
// a catalog entry with title.expr is.
type titledFormatter struct {
	rowFormatter
	title func(Request) (string, bool, error)
}

func (f titledFormatter) Title(req Request) (string, bool, error) { return call(f.title, req) }

// onlyTitle computes titles and renders nothing else: a Titler needs no
// other slot of rows.
type onlyTitle struct {
	present Presentation
	title   func(Request) (string, bool, error)
}

func (f onlyTitle) Format(Request) (string, bool, error)    { return "", false, nil }
func (f onlyTitle) Presentation() Presentation              { return f.present }
func (f onlyTitle) Title(req Request) (string, bool, error) { return call(f.title, req) }

// appTitle titles a call as Peekaboo's app tool does: "App Launch:
// Safari" (formatForTitle, which the base formatter answers with the
// compact summary of the arguments: Core/PeekabooCore/Sources/
// PeekabooAgentRuntime/ToolFormatting/ToolFormatter.swift at
// steipete/Peekaboo@1491b36c519b53142826ef2cf568dc7c74cb4522).
func appTitle(req Request) (string, bool, error) {
	action, _ := field(req.Input, "action").(string)
	name, _ := field(req.Input, "name").(string)
	switch {
	case action == "fail":
		return "", false, errors.New("title failed")
	case action == "panic":
		panic("title panicked")
	case action == "" || name == "":
		return "", false, nil
	}
	return "App " + strings.ToUpper(action[:1]) + action[1:] + ": " + name, true, nil
}

var appPresentation = Presentation{Title: "App", Category: "app", PlainIcon: "📱"}

func TestRowTitles(t *testing.T) {
	app := titledFormatter{rowFormatter: rowFormatter{present: appPresentation}, title: appTitle}
	untitled := titledFormatter{rowFormatter: rowFormatter{present: Presentation{NoTitle: true}}, title: appTitle}
	d := newDispatcher(t, Limits{}, map[string]Formatter{
		"app":      app,
		"untitled": untitled,
		"bare":     onlyTitle{present: appPresentation, title: appTitle},
		"empty":    onlyTitle{present: appPresentation, title: func(Request) (string, bool, error) { return " \u200b\x1b[0m ", true, nil }},
		"derived":  onlyTitle{title: func(Request) (string, bool, error) { return "", false, nil }},
	})
	tests := []struct {
		name string
		call Call
		want string
	}{
		{"the call's title", Call{Tool: "app", Input: `{"action":"launch","name":"Safari"}`}, "App Launch: Safari"},
		{"a decline falls back to the static title", Call{Tool: "app", Input: `{"action":"list"}`}, "App"},
		{"a failure falls back to the static title", Call{Tool: "app", Input: `{"action":"fail","name":"x"}`}, "App"},
		{"a panic falls back to the static title", Call{Tool: "app", Input: `{"action":"panic","name":"x"}`}, "App"},
		{"a title only an expression gives", Call{Tool: "untitled", Input: `{"action":"quit","name":"Mail"}`}, "App Quit: Mail"},
		{"no title when the entry has none and the expression declines", Call{Tool: "untitled", Input: `{}`}, ""},
		{"a Titler that renders nothing else", Call{Tool: "bare", Input: `{"action":"hide","name":"Finder"}`}, "App Hide: Finder"},
		{"a title that comes to nothing once safe is not shown", Call{Tool: "empty", Input: `{}`}, "App"},
		{"a declining title with no static one is derived from the tool", Call{Tool: "derived", Input: `{}`}, "Derived"},
		{"while the arguments stream", Call{Tool: "app", Input: `{"action":"launch","name":"Saf`, Partial: true}, "App Launch: Saf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, d.Row(tc.call, ModeMinimal).Title)
			if !tc.call.Partial {
				assert.Equal(t, tc.want, d.ResultRow(tc.call, Result{}, ModeMinimal).Title, "result lines have the call's title too")
			}
		})
	}
}

// A model writes the arguments a title is made of: it must not get an
// escape, a line break or a hidden character onto the screen through
// them, nor a title so long that it pushes the row's text away, nor a
// credential.
func TestRowTitlesAreSafeText(t *testing.T) {
	d := newDispatcher(t, Limits{}, map[string]Formatter{"app": titledFormatter{rowFormatter: rowFormatter{present: appPresentation}, title: appTitle}})
	tests := []struct {
		name, appName, want string
	}{
		{"an escape sequence", "Safari\x1b[2J\x1b]0;pwned\x07", "App Launch: Safari"},
		{"line breaks", "Safari\nApp Quit: Terminal\r\u2028x", "App Launch: Safari App Quit: Terminal x"},
		{"a bidi override", "Safari\u202etxt.exe", "App Launch: Safaritxt.exe"},
		{"C1 controls", "Safari\u009b31m", "App Launch: Safari"},
		{"a credential", "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789", "App Launch: ‹secret, 44 characters›"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			row := d.Row(Call{Tool: "app", Input: map[string]any{"action": "launch", "name": tc.appName}}, ModeDefault)
			assert.Equal(t, tc.want, row.Title)
			checkSafeText(t, tc.appName, row.Title, maxLabelName)
			assert.NotContains(t, row.Line(), "\x1b")
			assert.NotContains(t, row.Line(), "\n")
		})
	}
	long := d.Row(Call{Tool: "app", Input: map[string]any{"action": "launch", "name": strings.Repeat("S", 500)}}, ModeDefault)
	assert.LessOrEqual(t, len([]rune(long.Title)), maxLabelName+1, "bounded as a display name is")
	assert.True(t, strings.HasSuffix(long.Title, "…"))
}

// A title that fails on a finished call is reported once, as a slot's
// failure, and its later renders show the static title without running
// it again; another call still runs it.
func TestRowTitleFailureIsReported(t *testing.T) {
	runs := 0
	f := titledFormatter{rowFormatter: rowFormatter{present: appPresentation}, title: func(req Request) (string, bool, error) {
		runs++
		return appTitle(req)
	}}
	reg := NewRegistry()
	_, err := reg.Register("app", "test", f)
	require.NoError(t, err)
	var failures []Failure
	d, err := NewDispatcher(reg, Options{OnFailure: func(f Failure) { failures = append(failures, f) }})
	require.NoError(t, err)
	bad := Call{ID: "c1", Tool: "app", Input: `{"action":"fail","name":"x"}`}
	assert.Equal(t, "App", d.Row(bad, ModeMinimal).Title)
	assert.Equal(t, "App", d.Row(bad, ModeMinimal).Title)
	require.Len(t, failures, 1)
	var se *SlotError
	require.ErrorAs(t, failures[0].Err, &se)
	assert.Equal(t, "title", se.Slot)
	assert.Equal(t, 1, runs, "latched for the call")
	good := Call{ID: "c2", Tool: "app", Input: `{"action":"launch","name":"Safari"}`}
	assert.Equal(t, "App Launch: Safari", d.Row(good, ModeMinimal).Title)
}
