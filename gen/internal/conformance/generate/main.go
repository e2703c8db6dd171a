// Command generate writes the conformance test tables of package
// conformance: it reads the CEL conformance test files that ship with
// cel.dev/expr, checks and translates every test in scope with gen's native
// translation, and writes one <file>_gen.go table per test file, the index
// files_gen.go, and skipped_gen.go, which lists every test that is not run
// with its reason. Tests listed in skip.txt are left out with the reason
// given there. Run it with go generate in the package directory.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"cel.dev/expr/conformance/test"
	"google.golang.org/protobuf/encoding/prototext"
)

// testFiles are the conformance files translated, by base name.
var testFiles = []string{
	"basic",
	"bindings_ext",
	"comparisons",
	"conversions",
	"fp_math",
	"integer_math",
	"lists",
	"logic",
	"macros",
	"macros2",
	"optionals",
	"parse",
	"plumbing",
	"string",
	"string_ext",
}

// genSuffix ends the name of every file the generator writes.
const genSuffix = "_gen.go"

func main() {
	log.SetFlags(0)
	log.SetPrefix("conformance generate: ")
	if err := run("."); err != nil {
		log.Fatal(err)
	}
}

// run generates the tables into dir, which holds skip.txt.
func run(dir string) error {
	data, err := testdataDir()
	if err != nil {
		return err
	}
	skips, err := readSkipList(filepath.Join(dir, "skip.txt"))
	if err != nil {
		return err
	}
	g, err := newGenerator(skips)
	if err != nil {
		return err
	}
	out := map[string][]byte{}
	var results []fileResult
	for _, name := range testFiles {
		file, err := loadFile(filepath.Join(data, name+".textproto"))
		if err != nil {
			return err
		}
		r := g.generateFile(name, file)
		src, err := render(emitFile(r))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		out[name+genSuffix] = src
		results = append(results, r)
	}
	if unused := g.unusedSkips(); len(unused) > 0 {
		return fmt.Errorf("skip.txt names tests that do not exist: %s", strings.Join(unused, ", "))
	}
	for name, f := range map[string]func([]fileResult) fileOut{"files" + genSuffix: emitIndex, "skipped" + genSuffix: emitSkipped} {
		src, err := render(f(results))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		out[name] = src
	}
	return writeFiles(dir, out)
}

// testdataDir returns the directory of the simple conformance tests in the
// module cache, where the go command finds cel.dev/expr for this module.
func testdataDir() (string, error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "cel.dev/expr")
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("finding cel.dev/expr: %w", err)
	}
	dir := strings.TrimSpace(string(b))
	if dir == "" {
		return "", errors.New("finding cel.dev/expr: the module is not downloaded (run go mod download)")
	}
	return filepath.Join(dir, "tests", "simple", "testdata"), nil
}

// loadFile reads a SimpleTestFile in text format.
func loadFile(path string) (*test.SimpleTestFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f := &test.SimpleTestFile{}
	if err := prototext.Unmarshal(b, f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// readSkipList reads skip.txt: one "file/section/test: reason" a line;
// blank lines and lines starting with # are ignored.
func readSkipList(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	skips := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, ok := strings.Cut(line, ": ")
		name, reason = strings.TrimSpace(name), strings.TrimSpace(reason)
		if !ok || reason == "" || strings.Count(name, "/") != 2 {
			return nil, fmt.Errorf("%s:%d: want \"file/section/test: reason\"", path, n)
		}
		if _, dup := skips[name]; dup {
			return nil, fmt.Errorf("%s:%d: %s is listed twice", path, n, name)
		}
		skips[name] = reason
	}
	return skips, sc.Err()
}

// render formats a generated file.
func render(f fileOut) ([]byte, error) {
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return format.Source(buf.Bytes())
}

// writeFiles writes the generated files into dir, leaving unchanged files
// alone, and removes generated files that are no longer produced.
func writeFiles(dir string, out map[string][]byte) error {
	old, err := filepath.Glob(filepath.Join(dir, "*"+genSuffix))
	if err != nil {
		return err
	}
	for _, path := range old {
		if _, keep := out[filepath.Base(path)]; !keep {
			if err := os.Remove(path); err != nil {
				return err
			}
		}
	}
	names := make([]string, 0, len(out))
	for name := range out {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		if cur, err := os.ReadFile(path); err == nil && bytes.Equal(cur, out[name]) {
			continue
		}
		if err := os.WriteFile(path, out[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}
