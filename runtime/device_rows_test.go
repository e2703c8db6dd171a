package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A carried call may carry annotations: an Unwrapper attaches what it
// knows of the tool that runs, and a device call that carries none gets
// what the host knows of the mounted tool (Options.DeviceAnnotations).
// They raise the carried call's tier, as a call's own annotations do, and
// never lower what its entry declares.
func TestCarriedCallAnnotations(t *testing.T) {
	no, yes := false, true
	readOnly := &Annotations{ReadOnlyHint: &yes, OpenWorldHint: &no}
	destructive := &Annotations{ReadOnlyHint: &no, OpenWorldHint: &no}
	openWorld := &Annotations{}
	carrying := func(a *Annotations) Formatter {
		return wrapperFormatter{unwrap: func(Request) ([]InnerCall, error) {
			return []InnerCall{{Tool: "github_delete", Input: `{"repo":"prod"}`, Kind: "device", Annotations: a}}, nil
		}}
	}
	tests := []struct {
		name    string
		wrapper Formatter
		host    func(string) *Annotations
		inner   Formatter // the carried tool's registration, if any
		want    Tier
	}{
		{"nothing known", carrying(nil), nil, nil, TierUnknown},
		{"the unwrapper's annotations", carrying(destructive), nil, nil, TierWrite},
		{"an open world by default", carrying(openWorld), nil, nil, TierNetwork},
		{"the host's, for a device", carrying(nil), func(string) *Annotations { return destructive }, nil, TierWrite},
		{"the unwrapper's come first", carrying(readOnly), func(string) *Annotations { return openWorld }, nil, TierRead},
		{"they raise a declared tier", carrying(openWorld), nil, wrapperFormatter{preview: text("x"), tier: static(TierRead)}, TierNetwork},
		{"and never lower one", carrying(readOnly), nil, wrapperFormatter{preview: text("x"), tier: static(TierExecute)}, TierExecute},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := NewRegistry()
			_, err := reg.Register("write", "test", tc.wrapper)
			require.NoError(t, err)
			if tc.inner != nil {
				_, err := reg.Register("github_delete", "test", tc.inner)
				require.NoError(t, err)
			}
			var asked []string
			host := tc.host
			if host != nil {
				host = func(name string) *Annotations { asked = append(asked, name); return tc.host(name) }
			}
			d, err := NewDispatcher(reg, Options{DeviceAnnotations: host})
			require.NoError(t, err)
			desc := d.Describe(Call{Tool: "write", Input: `{}`})
			require.Len(t, desc.Calls, 1)
			assert.Equal(t, tc.want, desc.Calls[0].Tier)
			assert.Equal(t, tc.want, desc.Tier)
			for _, name := range asked {
				assert.Equal(t, "github_delete", name)
			}
		})
	}
}

// A tool call that is not a device's is not given the host's annotations.
func TestDeviceAnnotationsOnlyForDevices(t *testing.T) {
	no := false
	reg := NewRegistry()
	_, err := reg.Register("multi", "test", wrapperFormatter{unwrap: func(Request) ([]InnerCall, error) {
		return []InnerCall{{Tool: "drop", Input: `{}`}}, nil
	}})
	require.NoError(t, err)
	d, err := NewDispatcher(reg, Options{DeviceAnnotations: func(string) *Annotations {
		return &Annotations{ReadOnlyHint: &no, OpenWorldHint: &no}
	}})
	require.NoError(t, err)
	assert.Equal(t, TierUnknown, d.Describe(Call{Tool: "multi", Input: `{}`}).Tier)
}

// The rows of a device write follow oh-my-pi's: while the arguments
// stream, nothing is drawn until the path cannot be a device's; then the
// device's row, from the content so far; a finished device call's result
// is the device's. A write to a file keeps its own rows.
func TestDeviceWriteRows(t *testing.T) {
	fetchRows := rowFormatter{
		row:    func(req Request) (string, bool, error) { return "fetching " + str(req.Input, "url"), true, nil },
		result: func(req Request) (string, bool, error) { return "fetched", true, nil },
	}
	writeRows := rowFormatter{
		row:    func(req Request) (string, bool, error) { return "file " + str(req.Input, "path"), true, nil },
		result: func(req Request) (string, bool, error) { return "wrote", true, nil },
	}
	reg := NewRegistry()
	_, err := reg.RegisterAll([]Entry{
		{Key: "write", Owner: "stock", Formatter: withRows{deviceWrite, writeRows}},
		{Key: "web_fetch", Owner: "stock", Formatter: withRows{webFetch, fetchRows}},
	})
	require.NoError(t, err)
	d, err := NewDispatcher(reg, Options{})
	require.NoError(t, err)
	tests := []struct {
		name, input string
		partial     bool
		want        string
	}{
		{"no path yet", `{"content": "x`, true, ""},
		{"a path that may be a device's", `{"path": "xd:/`, true, ""},
		{"a device path not yet closed", `{"path": "xd://web_fetch`, true, ""},
		{"a device's content not begun", `{"path": "xd://web_fetch", "con`, true, ""},
		{"the device's row", `{"path": "xd://web_fetch", "content": "{\"url\": \"https://ex`, true, "Web Fetch fetching https://ex"},
		{"a file path at once", `{"path": "/tmp/a`, true, "Write file /tmp/a"},
		{"finished, a wrapper's row shows what it carries", `{"path": "xd://web_fetch", "content": "{\"url\": \"https://ex.example\"}"}`, false,
			"Write → device 'web_fetch' to fetch 'https://ex.example'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			row := d.Row(Call{Tool: "write", Input: tc.input, Partial: tc.partial}, ModeMinimal)
			assert.Equal(t, tc.want, row.Line())
		})
	}
	device := Call{Tool: "write", Input: `{"path": "xd://web_fetch", "content": "{\"url\": \"https://ex.example\"}"}`}
	assert.Equal(t, "Web Fetch fetched", d.ResultRow(device, Result{}, ModeMinimal).Line())
	file := Call{Tool: "write", Input: `{"path": "/tmp/a", "content": "x"}`}
	assert.Equal(t, "Write wrote", d.ResultRow(file, Result{}, ModeMinimal).Line())
}

// withRows is a wrapper formatter that renders rows too, as a catalog
// entry with unwrap and row keys does.
type withRows struct {
	wrapperFormatter
	rows rowFormatter
}

func (f withRows) Row(req Request) (string, bool, error)       { return f.rows.Row(req) }
func (f withRows) Result(req Request) (string, bool, error)    { return f.rows.Result(req) }
func (f withRows) ErrorLine(req Request) (string, bool, error) { return f.rows.ErrorLine(req) }
func (f withRows) Expand(req Request) ([]string, bool, error)  { return f.rows.Expand(req) }
