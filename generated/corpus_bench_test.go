package generated_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/permgen/permgen/runtime"
)

// corpusCalls reads the calls of the realistic corpora: the real calls of
// agents and MCP servers (testdata/real, each line {"call": {...}, ...})
// and the long tail (see readLongTail).
func corpusCalls(b testing.TB) []runtime.Call {
	b.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "real", "*.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var calls []runtime.Call
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var line struct {
				Call struct {
					Tool    string          `json:"tool"`
					Input   json.RawMessage `json:"input"`
					Agent   string          `json:"agent"`
					Source  string          `json:"source"`
					Target  string          `json:"target"`
					Command string          `json:"command"`
				} `json:"call"`
			}
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				b.Fatalf("%s: %v", file, err)
			}
			c := line.Call
			calls = append(calls, runtime.Call{Tool: c.Tool, Input: []byte(c.Input), Agent: c.Agent, Source: c.Source,
				Target: c.Target, Command: c.Command, State: "ask"})
		}
		f.Close()
		if err := sc.Err(); err != nil {
			b.Fatal(err)
		}
	}
	for _, lc := range readLongTail(b) {
		c := lc.Call
		calls = append(calls, runtime.Call{Tool: c.Tool, Input: []byte(c.Input), Source: c.Source, Target: c.Target, State: "ask"})
	}
	return calls
}

// BenchmarkCorpus describes every call of the realistic corpora with the
// stock catalog, input decoding included: the cost per call that a host
// pays for an approval prompt. It reports ns/call.
func BenchmarkCorpus(b *testing.B) {
	calls := corpusCalls(b)
	d, _ := stockDispatcher(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range calls {
			d.Describe(c)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(calls)), "ns/call")
}
