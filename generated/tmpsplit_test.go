package generated_test

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/textfmt"
)

func isPlainTmp(c runtime.Call) bool {
	raw := string(c.Input.([]byte))
	return strings.IndexFunc(raw, func(r rune) bool { return r >= utf8.RuneSelf }) < 0 && !strings.Contains(raw, `\`) && !textfmt.HasTrigger(raw)
}

func TestWriteIdx(t *testing.T) {
	var b []byte
	for _, c := range corpusCalls(&testing.B{}) {
		if isPlainTmp(c) {
			b = append(b, '1')
		} else {
			b = append(b, '0')
		}
	}
	os.WriteFile("/tmp/plainidx", b, 0o644)
}

func BenchmarkSplit(b *testing.B) {
	var calls []runtime.Call
	idx, _ := os.ReadFile("/tmp/plainidx")
	for i, c := range corpusCalls(b) {
		if (idx[i] == '1') == (os.Getenv("PLAIN") == "1") {
			calls = append(calls, c)
		}
	}
	d, _ := stockDispatcher(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range calls {
			d.Describe(c)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(calls)), "ns/call")
	b.ReportMetric(float64(len(calls)), "calls")
}
