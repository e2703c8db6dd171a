package generated_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/runtime"
)

// longTailCall is one line of testdata/longtail/calls.jsonl (see its
// README): a real tool's call, the facts an approver needs, and the
// credentials it carries.
type longTailCall struct {
	Call struct {
		Tool   string          `json:"tool"`
		Input  json.RawMessage `json:"input"`
		Source string          `json:"source"`
		Target string          `json:"target"`
	} `json:"call"`
	Needs   []string `json:"needs"`
	Secrets []string `json:"secrets"`
	Schema  string   `json:"schema"`
}

func readLongTail(t testing.TB) []longTailCall {
	t.Helper()
	f, err := os.Open("../testdata/longtail/calls.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var calls []longTailCall
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var c longTailCall
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), "calls.jsonl:%d", line)
		calls = append(calls, c)
	}
	require.NoError(t, sc.Err())
	return calls
}

// minShown is how many calls of the long-tail corpus show every fact their
// approver needs in the prompt or the preview. It only goes up.
const minShown = 167

// TestLongTail holds the stock catalog to the long-tail corpus: real calls
// of tools it has no entry for, or whose names other agents use with other
// fields. Every output (prompt, preview, log context, rows in every mode)
// is free of the credentials the calls carry, and at least minShown calls
// show what their approver needs.
func TestLongTail(t *testing.T) {
	calls := readLongTail(t)
	require.NotEmpty(t, calls)
	d, failures := stockDispatcher(t)
	shown := 0
	var missed []string
	for _, lc := range calls {
		c := runtime.Call{Tool: lc.Call.Tool, Input: []byte(lc.Call.Input), Source: lc.Call.Source, Target: lc.Call.Target, State: "ask"}
		desc := d.Describe(c)
		outputs := map[string]string{"prompt": desc.Prompt, "preview": desc.Preview.Text}
		for name, p := range map[string]*string{"log command": desc.Log.Command, "log target": desc.Log.Target, "log input": desc.Log.ToolInputPreview} {
			if p != nil {
				outputs[name] = *p
			}
		}
		for _, mode := range []runtime.Mode{runtime.ModeMinimal, runtime.ModeDefault, runtime.ModeVerbose} {
			outputs["row "+mode.String()] = d.Row(c, mode).Line()
		}
		for _, secret := range lc.Secrets {
			for name, text := range outputs {
				assert.NotContains(t, text, secret, "%s: %s carries a credential", lc.Call.Tool, name)
			}
		}
		all := true
		for _, need := range lc.Needs {
			if !strings.Contains(desc.Prompt, need) && !strings.Contains(desc.Preview.Text, need) {
				all = false
				missed = append(missed, lc.Call.Tool+": "+need)
			}
		}
		if all {
			shown++
		}
	}
	assert.Empty(t, failures())
	assert.GreaterOrEqual(t, shown, minShown, "%d of %d calls show what their approver needs; missed:\n%s", shown, len(calls), strings.Join(missed, "\n"))
	t.Logf("%d of %d calls show what their approver needs", shown, len(calls))
}
