package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// floorProgram is the least a command that answers JSONL calls can do:
// decode each line with encoding/json and encode a small object. It is the
// floor `permgen preview` is measured against; testdata/floor/main.go is
// the same program, built on its own for BenchmarkCLIProcess.
func floorProgram(in io.Reader, out io.Writer) error {
	lines := bufio.NewScanner(in)
	lines.Buffer(nil, maxLineBytes)
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	for lines.Scan() {
		var call struct {
			Tool  string `json:"tool"`
			Input any    `json:"input"`
		}
		if json.Unmarshal(lines.Bytes(), &call) != nil {
			continue
		}
		fields, _ := call.Input.(map[string]any)
		if err := enc.Encode(struct {
			Tool   string `json:"tool"`
			Fields int    `json:"fields"`
		}{call.Tool, len(fields)}); err != nil {
			return err
		}
	}
	if err := lines.Err(); err != nil {
		return err
	}
	return w.Flush()
}

// cliCorpus returns the realistic corpus, repeated times: the calls of
// testdata/calls.jsonl and the calls of testdata/real/*.jsonl (their
// "call" objects, as written), one per line, and the number of calls.
func cliCorpus(tb testing.TB, times int) ([]byte, int) {
	tb.Helper()
	root := filepath.Join("..", "..", "testdata")
	var one bytes.Buffer
	calls := 0
	add := func(line []byte) {
		one.Write(line)
		one.WriteByte('\n')
		calls++
	}
	data, err := os.ReadFile(filepath.Join(root, "calls.jsonl"))
	require.NoError(tb, err)
	for line := range bytes.Lines(data) {
		if line = bytes.TrimSpace(line); len(line) > 0 {
			add(line)
		}
	}
	files, err := filepath.Glob(filepath.Join(root, "real", "*.jsonl"))
	require.NoError(tb, err)
	require.NotEmpty(tb, files)
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(tb, err)
		for line := range bytes.Lines(data) {
			if line = bytes.TrimSpace(line); len(line) == 0 {
				continue
			}
			var rc struct {
				Call json.RawMessage `json:"call"`
			}
			require.NoError(tb, json.Unmarshal(line, &rc), file)
			add(rc.Call)
		}
	}
	return bytes.Repeat(one.Bytes(), times), calls * times
}

// cliRepeat is how many times one pass of BenchmarkCLI reads the corpus:
// enough calls that building the registry, which the command does once,
// weighs as it does on a file of a few thousand calls.
const cliRepeat = 10

// BenchmarkCLI measures `permgen preview` over the realistic corpus against
// its floor (floorProgram), in one process: each op is one pass over the
// corpus. The permgen benchmarks run the floor between their own passes,
// so that "x-floor", their time over the floor's, compares passes made
// under the same load, and "x-floor-cpu" the CPU time of the passes (the
// collector's on other threads included), which other processes on a
// busy machine disturb less; their passes run with the collector set as
// main sets it (setGC), the floor's with Go's default, as the floor
// program has. ns/call and allocs/call are per call of the corpus.
func BenchmarkCLI(b *testing.B) {
	corpus, calls := cliCorpus(b, cliRepeat)
	floor := func() {
		if err := floorProgram(bytes.NewReader(corpus), io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("floor", func(b *testing.B) {
		b.ReportAllocs()
		var m0, m1 goruntime.MemStats
		goruntime.ReadMemStats(&m0)
		for b.Loop() {
			floor()
		}
		goruntime.ReadMemStats(&m1)
		reportPerCall(b, calls, m1.Mallocs-m0.Mallocs)
	})
	for _, format := range []string{"text", "json"} {
		b.Run("permgen/"+format, func(b *testing.B) {
			var errOut bytes.Buffer
			args := []string{"preview", "--format", format}
			pass := func() {
				if code := run(args, bytes.NewReader(corpus), io.Discard, &errOut); code != exitOK {
					b.Fatalf("exit code %d: %s", code, errOut.String())
				}
			}
			b.ReportAllocs()
			var own, base, ownCPU, baseCPU time.Duration
			var mallocs uint64
			var m0, m1 goruntime.MemStats
			for b.Loop() {
				b.StopTimer()
				start, cpu := time.Now(), cpuTime()
				floor()
				base, baseCPU = base+time.Since(start), baseCPU+cpuTime()-cpu
				restore := setGC(os.Getenv)
				goruntime.ReadMemStats(&m0)
				b.StartTimer()
				start, cpu = time.Now(), cpuTime()
				pass()
				own, ownCPU = own+time.Since(start), ownCPU+cpuTime()-cpu
				b.StopTimer()
				goruntime.ReadMemStats(&m1)
				mallocs += m1.Mallocs - m0.Mallocs
				restore()
				b.StartTimer()
			}
			reportPerCall(b, calls, mallocs)
			b.ReportMetric(float64(own)/float64(base), "x-floor")
			if baseCPU > 0 {
				b.ReportMetric(float64(ownCPU)/float64(baseCPU), "x-floor-cpu")
			}
		})
	}
}

// reportPerCall reports ns/call and allocs/call of a benchmark whose every
// op handles calls calls, mallocs in all.
func reportPerCall(b *testing.B, calls int, mallocs uint64) {
	n := float64(b.N) * float64(calls)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/call")
	b.ReportMetric(float64(mallocs)/n, "allocs/call")
}

// processRepeat is how many times the corpus file of BenchmarkCLIProcess
// holds the realistic corpus: a file of about 30 MB.
const processRepeat = 300

// BenchmarkCLIProcess runs built binaries, `permgen preview` and the floor
// (testdata/floor/main.go), over a large file made of the realistic corpus,
// under GNU time, and reports per process:
//
//   - ns/call, the wall time a call, the process's start included, and
//     cpu-ns/call, its CPU time (user and system, the collector's too),
//     which other processes on a busy machine disturb less;
//   - peak-MiB, its peak resident memory, and start-MiB, that of the same
//     binary reading an empty file: what the binary holds before it reads
//     a call (its code and data, what package initialization makes);
//   - against the floor: x-floor-cpu, the ratio of CPU times, x-floor-peak,
//     of peak memories, and x-floor-work, of peak memories above start.
//
// The lean build (-tags permgen_lean, which links no CEL) runs as
// lean/text and lean/json. The binaries run with the environment of the
// benchmark, so GOGC there
// is what they see. When PERMGEN_BENCH_BEFORE names another permgen binary
// (one built from an earlier commit), it runs as before/text and
// before/json in the same run, for a comparison. Without /usr/bin/time
// only ns/call is reported.
func BenchmarkCLIProcess(b *testing.B) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("needs the go command to build the binaries")
	}
	corpus, calls := cliCorpus(b, processRepeat)
	dir := b.TempDir()
	file, empty := filepath.Join(dir, "corpus.jsonl"), filepath.Join(dir, "empty.jsonl")
	require.NoError(b, os.WriteFile(file, corpus, 0o644))
	require.NoError(b, os.WriteFile(empty, nil, 0o644))
	build := func(out, pkg string, flags ...string) string { return buildBinary(b, goTool, dir, out, pkg, flags...) }
	permgen := build("permgen", ".")
	lean := build("permgen-lean", ".", "-tags", "permgen_lean")
	floorBin := build("floor", "./testdata/floor")

	// The peak resident memory of a child that Go starts includes the
	// benchmark's own (Linux carries the parent's high-water mark over
	// when a child made with CLONE_VM runs exec), so GNU time, a small
	// process, starts the binaries and reports their peak and CPU time.
	timeTool, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		b.Log("no /usr/bin/time: memory and CPU time are not measured")
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(b, err)
	defer null.Close()
	// runOnce runs bin over input and returns its peak memory in MiB and
	// its CPU time, or zeros without GNU time.
	runOnce := func(b *testing.B, input, bin string, args ...string) (peak float64, cpu time.Duration) {
		usage := filepath.Join(dir, "usage")
		cmd := exec.Command(bin, args...)
		if timeTool != "" {
			cmd = exec.Command(timeTool, append([]string{"-f", "%M %U %S", "-o", usage, bin}, args...)...)
		}
		in, err := os.Open(input)
		require.NoError(b, err)
		defer in.Close()
		var errOut bytes.Buffer
		// Files, not pipes: the process reads and writes them itself.
		cmd.Stdin, cmd.Stdout, cmd.Stderr = in, null, &errOut
		require.NoError(b, cmd.Run(), errOut.String())
		if timeTool == "" {
			return 0, 0
		}
		text, err := os.ReadFile(usage)
		require.NoError(b, err)
		var kib int
		var user, sys float64
		_, err = fmt.Sscanf(string(text), "%d %f %f", &kib, &user, &sys)
		require.NoError(b, err, "GNU time wrote %q", text)
		return float64(kib) / 1024, time.Duration((user + sys) * float64(time.Second))
	}
	type figures struct{ cpu, peak, start float64 }
	var floor figures
	measure := func(b *testing.B, isFloor bool, bin string, args ...string) {
		var f figures
		var cpu time.Duration
		for b.Loop() {
			peak, c := runOnce(b, file, bin, args...)
			f.peak, cpu = max(f.peak, peak), cpu+c
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(calls), "ns/call")
		if timeTool == "" {
			return
		}
		f.start, _ = runOnce(b, empty, bin, args...)
		f.cpu = float64(cpu.Nanoseconds()) / float64(b.N) / float64(calls)
		b.ReportMetric(f.cpu, "cpu-ns/call")
		b.ReportMetric(f.peak, "peak-MiB")
		b.ReportMetric(f.start, "start-MiB")
		if isFloor {
			floor = f
			return
		}
		if floor.cpu > 0 {
			b.ReportMetric(f.cpu/floor.cpu, "x-floor-cpu")
			b.ReportMetric(f.peak/floor.peak, "x-floor-peak")
			b.ReportMetric((f.peak-f.start)/(floor.peak-floor.start), "x-floor-work")
		}
	}
	b.Run("floor", func(b *testing.B) { measure(b, true, floorBin) })
	for _, format := range []string{"text", "json"} {
		b.Run("permgen/"+format, func(b *testing.B) { measure(b, false, permgen, "preview", "--format", format) })
	}
	for _, format := range []string{"text", "json"} {
		b.Run("lean/"+format, func(b *testing.B) { measure(b, false, lean, "preview", "--format", format) })
	}
	if before := os.Getenv("PERMGEN_BENCH_BEFORE"); before != "" {
		for _, format := range []string{"text", "json"} {
			b.Run("before/"+format, func(b *testing.B) { measure(b, false, before, "preview", "--format", format) })
		}
	}
}

// buildBinary builds the package pkg with go build and flags into dir/out,
// for the benchmarks that run built binaries, and returns its path.
func buildBinary(b *testing.B, goTool, dir, out, pkg string, flags ...string) string {
	b.Helper()
	bin := filepath.Join(dir, out)
	cmd := exec.Command(goTool, append(append([]string{"build"}, flags...), "-o", bin, pkg)...)
	cmd.Stderr = os.Stderr
	require.NoError(b, cmd.Run(), "go build %s", pkg)
	return bin
}
