// Command floor is the least a command that answers JSONL calls can do:
// decode each line with encoding/json and encode a small object. It is
// floorProgram of cmd/permgen's benchmarks, built on its own so that
// BenchmarkCLIProcess can measure it as a process.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := floorProgram(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func floorProgram(in io.Reader, out io.Writer) error {
	lines := bufio.NewScanner(in)
	lines.Buffer(nil, 64<<20)
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
