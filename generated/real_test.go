package generated_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/runtime"
)

var update = flag.Bool("update", false, "rewrite golden files")

// realCall is one line of a corpus under testdata/real: a call built from
// a real agent's or MCP server's published argument schema, and where that
// schema comes from.
type realCall struct {
	Schema string `json:"schema"` // "claude-code Read (sdk-tools.d.ts)"
	Call   struct {
		Tool           string          `json:"tool"`
		Input          json.RawMessage `json:"input"`
		Agent          string          `json:"agent"`
		Source         string          `json:"source"`
		Target         string          `json:"target"`
		Command        string          `json:"command"`
		MatchedPattern string          `json:"matchedPattern"`
		Origin         string          `json:"origin"`
	} `json:"call"`
}

// TestRealCalls previews every call of the real-schema corpora with the
// stock catalog and compares the prompts with their golden files, which an
// approver has read (go test ./generated -run RealCalls -update rewrites
// them). No stock formatter may fail on a real call.
func TestRealCalls(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "real", "*.jsonl"))
	require.NoError(t, err)
	total := 0
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			d, failures := stockDispatcher(t)
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			var out bytes.Buffer
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(nil, 1<<20)
			for line := 1; sc.Scan(); line++ {
				var rc realCall
				dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
				dec.DisallowUnknownFields()
				require.NoError(t, dec.Decode(&rc), "%s:%d", file, line)
				require.NotEmpty(t, rc.Schema, "%s:%d: say which schema the call follows", file, line)
				require.NotEmpty(t, rc.Call.Tool, "%s:%d", file, line)
				c := rc.Call
				desc := d.Describe(runtime.Call{Tool: c.Tool, Input: []byte(c.Input), Agent: c.Agent, Source: c.Source,
					Target: c.Target, Command: c.Command, MatchedPattern: c.MatchedPattern, Origin: c.Origin})
				out.WriteString("# " + rc.Schema + "\n" + desc.Prompt + "\n")
				for _, f := range failures() {
					t.Errorf("%s:%d: formatter %s failed: %v", file, line, f.Owner, f.Err)
				}
				total++
			}
			require.NoError(t, sc.Err())
			golden := strings.TrimSuffix(file, ".jsonl") + ".golden"
			if *update {
				require.NoError(t, os.WriteFile(golden, out.Bytes(), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test ./generated -run RealCalls -update to create it")
			assert.Equal(t, string(want), out.String())
		})
	}
	assert.GreaterOrEqual(t, total, 100, "the corpora hold at least 100 real calls")
}

// stockSchemas lists, per stock catalog entry, each input field it declares
// (and so may read) and the published schemas that send that field. The
// tables live next to this file, one per family of tools.
func stockSchemas() map[string]map[string][]string {
	all := map[string]map[string][]string{}
	for _, part := range []map[string]map[string][]string{agentSchemas, mcpSchemas, desktopSchemas, serverSchemas,
		editorSchemas, ideSchemas, otherAgentSchemas} {
		for key, fields := range part {
			all[key] = fields
		}
	}
	return all
}

// undeclaredInput are the stock entries that declare no input: Azure's
// server names its options with dashes (resource-group), which a declared
// field cannot, so its entry reads each by its JSON name.
var undeclaredInput = map[string]bool{"azure:*": true}

// TestStockFieldsComeFromRealSchemas holds the stock catalog to the real
// schemas: every field an entry declares is sent by at least one named
// schema, and the table names no field the entry does not declare.
func TestStockFieldsComeFromRealSchemas(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "formatters.yaml"))
	require.NoError(t, err)
	cat, errs := celfmt.ParseFiles("formatters.yaml", src, celfmt.DirFiles(".."))
	require.Empty(t, errs)
	schemas := stockSchemas()
	seen := map[string]bool{}
	for _, e := range cat.Formatters {
		seen[e.Tool] = true
		table, ok := schemas[e.Tool]
		if !assert.True(t, ok, "%s: no schema table for the entry", e.Tool) {
			continue
		}
		if e.Input == nil && len(table) == 0 && undeclaredInput[e.Tool] {
			continue
		}
		require.NotNil(t, e.Input, "%s: stock entries declare their input", e.Tool)
		declared := map[string]bool{}
		for _, f := range e.Input {
			declared[f.Name] = true
			assert.NotEmpty(t, table[f.Name], "%s: field %q is sent by no listed schema", e.Tool, f.Name)
		}
		for _, name := range slices.Sorted(maps.Keys(table)) {
			assert.True(t, declared[name], "%s: the table lists %q, which the entry does not declare", e.Tool, name)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(schemas)) {
		assert.True(t, seen[key], "the table lists %q, which the catalog has no entry for", key)
	}
}
