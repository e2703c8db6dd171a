package main

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkHookStart measures the start-to-answer time of one process per
// call, as an agent runs a hook: each op starts a built binary, writes
// the payload on its standard input and waits for it to exit. Beside
// `permgen hook claude-code` (a call it asks about, and a read it leaves
// to the agent) it runs `permgen preview` of the same one call and a Go
// hello world (testdata/hello), the least a Go process takes, so that
// the figures of one run compare under the same load; and the same with
// the lean build (-tags permgen_lean), which links no CEL.
func BenchmarkHookStart(b *testing.B) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("needs the go command to build the binaries")
	}
	dir := b.TempDir()
	build := func(out, pkg string, flags ...string) string { return buildBinary(b, goTool, dir, out, pkg, flags...) }
	permgen := build("permgen", ".")
	lean := build("permgen-lean", ".", "-tags", "permgen_lean")
	hello := build("hello", "./testdata/hello")
	const (
		ask  = `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf build/ && make release"},"tool_use_id":"toolu_1"}`
		read = `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/w/go.mod"},"tool_use_id":"toolu_2"}`
		call = `{"tool":"Bash","input":{"command":"rm -rf build/ && make release"}}`
	)
	runs := []struct {
		name  string
		bin   string
		args  []string
		stdin string
	}{
		{"hello", hello, nil, ""},
		{"hook-ask", permgen, []string{"hook", "claude-code"}, ask},
		{"hook-read", permgen, []string{"hook", "claude-code"}, read},
		{"preview-one", permgen, []string{"preview"}, call},
	}
	// With GODEBUG=inittrace=1 the Go runtime reports each package's
	// initialization; the sums per op say where the start goes: the CEL
	// stack (cel-go, protobuf and what they import for CEL), this module's
	// packages, and the rest (the standard library, yaml, uniseg, …).
	b.Run("hook-inittrace", func(b *testing.B) {
		var cel, module, rest float64
		for b.Loop() {
			cmd := exec.Command(permgen, "hook", "claude-code")
			cmd.Stdin = bytes.NewReader([]byte(ask))
			cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			require.NoError(b, cmd.Run())
			c, m, r := initClock(b, stderr.String())
			cel, module, rest = cel+c, module+m, rest+r
		}
		n := float64(b.N)
		b.ReportMetric(cel/n, "ms-init-cel/op")
		b.ReportMetric(module/n, "ms-init-module/op")
		b.ReportMetric(rest/n, "ms-init-other/op")
	})
	start := func(bin string, args []string, stdin string) time.Duration {
		cmd := exec.Command(bin, args...)
		cmd.Stdin = bytes.NewReader([]byte(stdin))
		var out bytes.Buffer
		cmd.Stdout = &out
		t0 := time.Now()
		require.NoError(b, cmd.Run())
		d := time.Since(t0)
		require.NotZero(b, out.Len())
		return d
	}
	for _, r := range runs {
		b.Run(r.name, func(b *testing.B) {
			for b.Loop() {
				start(r.bin, r.args, r.stdin)
			}
		})
	}
	// The machine's load changes from one run to the next: "interleaved"
	// starts, in every op, the hello world and the full and lean builds
	// answering the same input, so that its figures, per start, compare
	// starts made under the same load.
	for _, job := range []struct {
		name, stdin string
		args        []string
	}{
		{"hook-ask", ask, []string{"hook", "claude-code"}},
		{"hook-read", read, []string{"hook", "claude-code"}},
		{"preview-one", call, []string{"preview"}},
	} {
		b.Run("interleaved/"+job.name, func(b *testing.B) {
			var hi, full, thin time.Duration
			for b.Loop() {
				hi += start(hello, nil, "")
				full += start(permgen, job.args, job.stdin)
				thin += start(lean, job.args, job.stdin)
			}
			n := float64(b.N)
			b.ReportMetric(float64(hi.Microseconds())/1000/n, "hello-ms")
			b.ReportMetric(float64(full.Microseconds())/1000/n, "full-ms")
			b.ReportMetric(float64(thin.Microseconds())/1000/n, "lean-ms")
			b.ReportMetric(float64(full)/float64(hi), "x-hello-full")
			b.ReportMetric(float64(thin)/float64(hi), "x-hello-lean")
		})
	}
}

// celStack are the import paths of the CEL interpreter and what it
// brings: the packages the compiled stock catalog does not need.
var celStack = []string{"github.com/google/cel-go/", "google.golang.org/protobuf/", "google.golang.org/genproto/", "cel.dev/", "github.com/antlr4-go/", "golang.org/x/text/"}

// initClock sums the clock times, in milliseconds, of the package
// initializations an inittrace reports ("init PKG @T ms, D ms clock, …"):
// of the CEL stack, of this module's packages and of the others.
func initClock(tb testing.TB, trace string) (cel, module, rest float64) {
	tb.Helper()
	for _, line := range strings.Split(trace, "\n") {
		f := strings.Fields(line)
		if len(f) < 7 || f[0] != "init" || f[6] != "clock," {
			continue
		}
		d, err := strconv.ParseFloat(f[4], 64)
		require.NoError(tb, err, line)
		switch pkg := f[1]; {
		case strings.HasPrefix(pkg, "github.com/permgen/permgen"):
			module += d
		case hasAnyPrefix(pkg, celStack):
			cel += d
		default:
			rest += d
		}
	}
	return cel, module, rest
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func TestInitClock(t *testing.T) {
	trace := "init internal/bytealg @0.003 ms, 0 ms clock, 0 bytes, 0 allocs\n" +
		"init google.golang.org/protobuf/internal/detrand @5.5 ms, 4.4 ms clock, 472 bytes, 7 allocs\n" +
		"init github.com/google/cel-go/common/stdlib @26 ms, 0.69 ms clock, 56456 bytes, 850 allocs\n" +
		"init github.com/permgen/permgen/runtime/textfmt @15 ms, 1.3 ms clock, 138392 bytes, 476 allocs\n" +
		"init go.yaml.in/yaml/v3 @23 ms, 0.26 ms clock, 25720 bytes, 276 allocs\n" +
		"permgen hook claude-code: something else\n"
	cel, module, rest := initClock(t, trace)
	require.InDelta(t, 5.09, cel, 1e-9)
	require.InDelta(t, 1.3, module, 1e-9)
	require.InDelta(t, 0.26, rest, 1e-9)
}
