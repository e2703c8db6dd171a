package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/celrt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoRoot is the repository root, seen from this package's directory.
const repoRoot = "../.."

// docFiles returns the documents whose commands TestDocs runs: the README,
// every page under docs/, and the README of any package (celfmt/README.md
// was the language reference before docs/language.md, and a package page
// that comes back must not hold examples nobody runs).
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, pages, "docs/ holds the documentation")
	packages, err := filepath.Glob(filepath.Join(repoRoot, "*", "README.md"))
	require.NoError(t, err)
	for _, p := range packages {
		if !strings.HasPrefix(p, filepath.Join(repoRoot, "testdata")) {
			pages = append(pages, p)
		}
	}
	return append([]string{filepath.Join(repoRoot, "README.md")}, pages...)
}

// docBlock is a fenced block of a document.
type docBlock struct {
	file string
	line int    // of the opening fence, 1-based
	info string // the fence's info string: sh, yaml, …
	name string // from a preceding <!-- file: NAME --> comment: the block is that file's text
	from string // from a preceding <!-- from: PATH --> comment: the block is quoted from PATH
	body []string
}

// blockComment says, before a fenced block, what the block is: the text
// of a file the document's commands use (file), or text quoted from a file
// of the repository (from).
var blockComment = regexp.MustCompile(`^<!-- (file|from): (\S+) -->$`)

// parseBlocks returns the fenced blocks of a markdown document.
func parseBlocks(file string, text string) ([]docBlock, error) {
	var blocks []docBlock
	var open *docBlock
	var name, from string
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if open != nil {
			if trimmed == "```" {
				blocks = append(blocks, *open)
				open = nil
				continue
			}
			// A block indented under a list item is indented as a whole.
			open.body = append(open.body, strings.TrimPrefix(line, open.indent()))
			continue
		}
		if m := blockComment.FindStringSubmatch(trimmed); m != nil {
			if m[1] == "file" {
				name = m[2]
			} else {
				from = m[2]
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") {
			indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
			open = &docBlock{file: file, line: i + 1, info: strings.TrimPrefix(trimmed, "```"), name: name, from: from}
			open.body = []string{indent} // the block's indentation, removed below
			name, from = "", ""
			continue
		}
		if trimmed != "" {
			name, from = "", ""
		}
	}
	if open != nil {
		return nil, fmt.Errorf("%s:%d: a fenced block that never closes", file, open.line)
	}
	for i := range blocks {
		blocks[i].body = blocks[i].body[1:]
	}
	return blocks, nil
}

// indent is the indentation of the block's fence, kept as its first body
// line until the block is parsed.
func (b *docBlock) indent() string { return b.body[0] }

// transcript reports whether the block is a terminal session: commands
// after "$ " and their output.
func (b docBlock) transcript() bool {
	return len(b.body) > 0 && strings.HasPrefix(b.body[0], "$ ")
}

// where names the block's place for a failure message.
func (b docBlock) where() string {
	return fmt.Sprintf("%s:%d", strings.TrimPrefix(b.file, repoRoot+"/"), b.line)
}

// elsewhere lists the commands of the documents that are not run by
// TestDocs itself, since they run the tests, CI or another module's build:
// each names a file, and a text in it, that shows where the command is run
// or what it relies on, so a command cannot stay in the docs after what
// runs it is gone.
var elsewhere = map[string][2]string{
	"go test ./...":            {".ci/run", "\ngo test ./...\n"},
	"bash .ci/run":             {".ci/run", "go test -race -short -vet=off ./..."},
	"go generate ./...":        {".ci/run", "\ngo generate ./...\n"},
	"go mod tidy":              {"gen/module_test.go", "What go mod tidy would add"},
	"go install ./cmd/permgen": {"cmd/permgen/docs_test.go", `"install", "./cmd/permgen"`},
	`go build -tags permgen_lean -o "$(go env GOPATH)/bin/permgen-hook" ./cmd/permgen`:                      {"cmd/permgen/hook_bench_test.go", `"-tags", "permgen_lean"`},
	"go test ./celfmt ./gen ./generated ./cmd/permgen -update":                                              {"celfmt/catalog_test.go", `flag.Bool("update"`},
	"go test ./cmd/permgen -run '^TestBenchmarkDocs$' -update-benchmarks -timeout 0":                        {"cmd/permgen/benchdoc_test.go", `"update-benchmarks"`},
	"go generate ./gen/internal/conformance":                                                                {"gen/internal/conformance/doc.go", "//go:generate go run ./generate"},
	"go test ./gen/internal/conformance -v -run Conformance":                                                {"gen/internal/conformance/conformance_test.go", "func TestConformance("},
	"go test ./gen/internal/conformance -run Table -update":                                                 {"gen/internal/conformance/conformance_test.go", "func TestTable("},
	"go mod edit -require=github.com/permgen/permgen@v0.0.0 -replace=github.com/permgen/permgen=../permgen": {"gen/module_test.go", "-replace=github.com/permgen/permgen="},
	"go mod edit -tool=github.com/permgen/permgen/cmd/permgen":                                              {"gen/module_test.go", "-tool=github.com/permgen/permgen/cmd/permgen"},
}

// shellComment is a comment at the end of a command line in a sh block.
var shellComment = regexp.MustCompile(`\s+#\s.*$`)

// docShell runs documented commands the way a reader would: with bash, in
// a directory that looks like the repository (its top-level entries are
// links into it, beside the files the document writes), with permgen on
// the PATH, installed as the README installs it.
type docShell struct {
	dir string
	env []string
}

var installDocPermgen = sync.OnceValues(func() (string, error) {
	bin, err := os.MkdirTemp("", "permgen-docs-bin-")
	if err != nil {
		return "", err
	}
	cmd := exec.Command("go", "install", "./cmd/permgen")
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), "GOBIN="+bin)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go install ./cmd/permgen: %v\n%s", err, out)
	}
	return bin, nil
})

func newDocShell(t *testing.T) *docShell {
	t.Helper()
	bin, err := installDocPermgen()
	require.NoError(t, err)
	dir := t.TempDir()
	root, err := filepath.Abs(repoRoot)
	require.NoError(t, err)
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	for _, e := range entries {
		if e.Name() == ".git" {
			continue
		}
		require.NoError(t, os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())))
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1")
	return &docShell{dir: dir, env: env}
}

// write puts a block's text in the file it names, in place of any link.
func (s *docShell) write(t *testing.T, b docBlock) {
	t.Helper()
	path := filepath.Join(s.dir, b.name)
	_ = os.Remove(path)
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(b.body, "\n")), 0o644), b.where())
}

// run runs one command line with bash and returns what it printed on
// standard output and standard error, in the order it printed it.
func (s *docShell) run(command string) (string, error) {
	command = strings.ReplaceAll(command, "go run ./cmd/permgen ", "permgen ")
	cmd := exec.Command("bash", "-c", command+" 2>&1")
	cmd.Dir = s.dir
	cmd.Env = s.env
	out, err := cmd.Output()
	return string(out), err
}

// runs reports whether TestDocs runs a command itself.
func runs(command string) bool {
	for _, prefix := range []string{"permgen ", "go run ./cmd/permgen ", "echo "} {
		if strings.HasPrefix(command, prefix) {
			return prefix != "echo " || strings.Contains(command, "| permgen ")
		}
	}
	return command == "go run ./cmd/permgen"
}

// TestDocs runs every command block of the README and of docs/: commands
// of a sh block must succeed; each command of a terminal session ("$ "
// lines) must print exactly the lines that follow it. A command that
// TestDocs does not run must say where it is run instead (elsewhere). A
// block quoted from a file of the repository must still stand in it.
func TestDocs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the docs' commands with bash and a permgen built by go install")
	}
	for _, file := range docFiles(t) {
		text, err := os.ReadFile(file)
		require.NoError(t, err)
		blocks, err := parseBlocks(file, string(text))
		require.NoError(t, err)
		t.Run(filepath.Base(file), func(t *testing.T) {
			var shell *docShell
			sh := func() *docShell {
				if shell == nil {
					shell = newDocShell(t)
				}
				return shell
			}
			for _, b := range blocks {
				switch {
				case b.name != "":
					sh().write(t, b)
				case b.from != "":
					quoted, err := os.ReadFile(filepath.Join(repoRoot, b.from))
					if assert.NoError(t, err, b.where()) {
						assert.True(t, quotes(string(quoted), b.body), "%s: the block no longer stands in %s", b.where(), b.from)
					}
				case b.transcript():
					for _, step := range transcriptSteps(b) {
						if !runs(step.command) {
							checkElsewhere(t, b, step.command)
							continue
						}
						got, _ := sh().run(step.command)
						assert.Equal(t, step.output, got, "%s: %s", b.where(), step.command)
					}
				case b.info == "sh":
					for _, command := range commandLines(b) {
						if !runs(command) {
							checkElsewhere(t, b, command)
							continue
						}
						out, err := sh().run(command)
						assert.NoError(t, err, "%s: %s\n%s", b.where(), command, out)
					}
				}
			}
		})
	}
}

// quotes reports whether lines stand in text one after another, whatever
// their indentation: a document quotes the body of a function without the
// function's own indentation.
func quotes(text string, lines []string) bool {
	var want, have []string
	for _, l := range lines {
		want = append(want, strings.TrimSpace(l))
	}
	for _, l := range strings.Split(text, "\n") {
		have = append(have, strings.TrimSpace(l))
	}
	for i := 0; i+len(want) <= len(have); i++ {
		if slices.Equal(have[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// checkElsewhere fails unless the command is one that runs elsewhere.
func checkElsewhere(t *testing.T, b docBlock, command string) {
	t.Helper()
	where, ok := elsewhere[command]
	if !assert.True(t, ok, "%s: the command %q is neither run by TestDocs nor listed in elsewhere", b.where(), command) {
		return
	}
	text, err := os.ReadFile(filepath.Join(repoRoot, where[0]))
	if assert.NoError(t, err, "%s: %q", b.where(), command) {
		assert.Contains(t, string(text), where[1], "%s: %q is said to be run by %s", b.where(), command, where[0])
	}
}

// commandLines returns the commands of a sh block, without their
// trailing comments.
func commandLines(b docBlock) []string {
	var commands []string
	for _, line := range b.body {
		line = strings.TrimSpace(shellComment.ReplaceAllString(line, ""))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		commands = append(commands, line)
	}
	return commands
}

// transcriptStep is a command of a terminal session and what it prints.
type transcriptStep struct {
	command, output string
}

func transcriptSteps(b docBlock) []transcriptStep {
	var steps []transcriptStep
	for _, line := range b.body {
		if command, ok := strings.CutPrefix(line, "$ "); ok {
			steps = append(steps, transcriptStep{command: command})
			continue
		}
		steps[len(steps)-1].output += line + "\n"
	}
	return steps
}

// docFigure is a count the docs state, with the way to compute it.
type docFigure struct {
	file    string         // relative to the repository root
	pattern *regexp.Regexp // its one group is the number
	count   func(t *testing.T) int
}

func lineCount(paths ...string) func(t *testing.T) int {
	return func(t *testing.T) int {
		n := 0
		for _, p := range paths {
			matches, err := filepath.Glob(filepath.Join(repoRoot, p))
			require.NoError(t, err)
			require.NotEmpty(t, matches, p)
			for _, m := range matches {
				data, err := os.ReadFile(m)
				require.NoError(t, err)
				n += bytes.Count(data, []byte("\n"))
			}
		}
		return n
	}
}

func fileCount(pattern string) func(t *testing.T) int {
	return func(t *testing.T) int {
		matches, err := filepath.Glob(filepath.Join(repoRoot, pattern))
		require.NoError(t, err)
		return len(matches)
	}
}

// stockExamples counts the examples `permgen test` runs on the stock
// catalog.
func stockExamples(t *testing.T) int {
	var stdout, stderr bytes.Buffer
	code := run([]string{"test", filepath.Join(repoRoot, "formatters.yaml")}, nil, &stdout, &stderr)
	require.Equal(t, exitOK, code, stderr.String())
	m := regexp.MustCompile(`(?m)^(\d+) passed, 0 failed$`).FindStringSubmatch(stdout.String())
	require.NotNil(t, m, stdout.String())
	n, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	return n
}

// constant returns a figure that the code defines.
func constant(n int) func(t *testing.T) int {
	return func(*testing.T) int { return n }
}

// docFigures are the counts and limits the docs state. A limit is written
// with thousands separators, or in MiB where the pattern says so.
var docFigures = []docFigure{
	{"docs/generate.md", regexp.MustCompile(`row and\s+result of (\d+) random`), func(t *testing.T) int {
		src, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "catalogs", "good", "random.yaml"))
		require.NoError(t, err)
		return strings.Count(string(src), "\n  - tool: ")
	}},
	{"docs/catalogs.md", regexp.MustCompile(`a catalog file is at most (\d+) MiB`), constant(celfmt.MaxCatalogBytes >> 20)},
	{"docs/catalogs.md", regexp.MustCompile(`an\s+expression ([\d,]+) characters`), constant(celfmt.MaxExpressionChars)},
	{"docs/catalogs.md", regexp.MustCompile(`a formatter (\d+) lets`), constant(celfmt.MaxLets)},
	{"docs/catalogs.md", regexp.MustCompile(`shared lets, each checked again where it is used, at most ([\d,]+)`), constant(celfmt.MaxSharedLetUses)},
	{"docs/catalogs.md", regexp.MustCompile(`at most [\d,]+\s+of at most ([\d,]+) characters`), constant(celfmt.MaxSharedLetChars)},
	{"docs/language.md", regexp.MustCompile(`use its shared lets at most ([\d,]+) times`), constant(celfmt.MaxSharedLetUses)},
	{"docs/language.md", regexp.MustCompile(`times, of at most ([\d,]+) characters`), constant(celfmt.MaxSharedLetChars)},
	{"docs/language.md", regexp.MustCompile(`a catalog spans\s+at\s+most (\d+) files`), constant(celfmt.MaxCatalogFiles)},
	{"docs/language.md", regexp.MustCompile(`most \d+ files of (\d+) MiB in all`), constant(celfmt.MaxCatalogBytes >> 20)},
	{"docs/catalogs.md", regexp.MustCompile(`after ([\d,]+) units`), constant(celfmt.DefaultCostLimit)},
	{"docs/catalogs.md", regexp.MustCompile(`allocates more than (\d+) MiB`), constant(celfmt.DefaultMemoryBudget >> 20)},
	{"docs/generate.md", regexp.MustCompile("`celrt.MaxSteps`\\s+\\(([\\d,]+)\\)"), constant(celrt.MaxSteps)},
	{"docs/generate.md", regexp.MustCompile("`celrt.MemoryBudget` \\((\\d+) MiB\\)"), constant(celrt.MemoryBudget >> 20)},
	{"docs/cli.md", regexp.MustCompile(`A line's content may be up to (\d+) MiB`), constant(maxLineBytes >> 20)},
	{"docs/cli.md", regexp.MustCompile(`runs the garbage collector at GOGC=(\d+)`), constant(gcPercent)},
	{"docs/differences.md", regexp.MustCompile(`capped at (\d+) characters \(` + "`--output-max`"), constant(runtime.DefaultOutputLimit)},
	{"README.md", regexp.MustCompile(`a realistic transcript of (\d+) tool calls`), lineCount("testdata/calls.jsonl")},
	{"docs/stock-catalog.md", regexp.MustCompile("`permgen test` runs all (\\d+)"), stockExamples},
	{"docs/stock-catalog.md", regexp.MustCompile("`testdata/real/` holds (\\d+) calls"), lineCount("testdata/real/*.jsonl")},
	{"docs/safe-text.md", regexp.MustCompile(`The corpus holds (\d+) calls`), lineCount("testdata/longtail/calls.jsonl")},
	{"docs/safe-text.md", regexp.MustCompile(`JSON does not fit the preview limit \((\d+)\)`), constant(runtime.DefaultPreviewLimit)},
	{"docs/safe-text.md", regexp.MustCompile(`when it does not fit the log limit \((\d+)\)`), constant(runtime.DefaultLogLimit)},
	{"docs/catalogs.md", regexp.MustCompile(`a broken catalog per kind of mistake \((\d+)\)`), fileCount("testdata/catalogs/bad/*.yaml")},
}

// TestDocFigures checks the counts the docs state against what they count,
// and the limits they state against the code's.
func TestDocFigures(t *testing.T) {
	for _, f := range docFigures {
		t.Run(f.file+"/"+f.pattern.String(), func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join(repoRoot, f.file))
			require.NoError(t, err)
			m := f.pattern.FindSubmatch(text)
			require.NotNil(t, m, "%s no longer states %s: update docFigures", f.file, f.pattern)
			assert.Equal(t, strconv.Itoa(f.count(t)), strings.ReplaceAll(string(m[1]), ",", ""), "%s: %s", f.file, f.pattern)
		})
	}
}

// TestDocsParse checks that the block parser sees what a reader sees.
func TestDocsParse(t *testing.T) {
	doc := "text\n<!-- file: a.yaml -->\n```yaml\nversion: 1\n```\n\n- item\n\n  ```sh\n  permgen check a.yaml   # check it\n  ```\n```\n$ permgen version\nout\n```\n"
	blocks, err := parseBlocks("doc.md", doc)
	require.NoError(t, err)
	require.Len(t, blocks, 3)
	assert.Equal(t, docBlock{file: "doc.md", line: 3, info: "yaml", name: "a.yaml", body: []string{"version: 1"}}, blocks[0])
	assert.Equal(t, []string{"permgen check a.yaml"}, commandLines(blocks[1]))
	assert.Equal(t, []transcriptStep{{"permgen version", "out\n"}}, transcriptSteps(blocks[2]))

	_, err = parseBlocks("doc.md", "a\n```sh\nx\n")
	assert.EqualError(t, err, "doc.md:2: a fenced block that never closes")

	assert.True(t, runs(`echo '{}' | permgen preview`))
	assert.False(t, runs(`echo hi`))
	assert.False(t, runs(`go test ./...`))
}
