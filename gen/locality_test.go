package gen

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pmezard/go-difflib/difflib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// span is a half-open range of lines of a generated file.
type span struct{ from, to int }

// layout is a generated file split by entry: the lines of each entry's
// function (with the blank line before it), of its registrations in
// Entries, and of its record in the catalog variable when it runs in the
// interpreter, keyed by tool.
type layout struct {
	lines  []string
	spans  map[string][]span
	blocks map[string][]string // the entry's lines, function then record
	rest   []string            // every line that belongs to no entry
}

var (
	funcDoc = regexp.MustCompile(`^// (?:Preview\w* formats calls to|Unwrap\w* returns the calls that a call to|` +
		`Tier\w* returns the tier of a call to|Row\w* renders the row of a call to|` +
		`Result\w* summarizes the result of a call to|Error\w* summarizes the failure of a call to|` +
		`Expand\w* returns the lines of the result of a call to|Title\w* returns the title of a call to|` +
		`lets\w* holds the lets of|lets\w*Of computes the lets of) ("(?:[^"\\]|\\.)*")`)
	slotsDoc  = regexp.MustCompile(`^// formatter\w* registers the functions of ("(?:[^"\\]|\\.)*")`)
	recordTop = regexp.MustCompile(`^\t\tTool:\s+("(?:[^"\\]|\\.)*"),$`)
	// a registration in Entries: the tool is the one of its owner
	entryLine = regexp.MustCompile(`^\t\t\{Key: .*Owner: "[^#"]*#((?:[^"\\]|\\.)*)"`)
)

func splitEntries(t *testing.T, src []byte) layout {
	t.Helper()
	l := layout{lines: strings.Split(string(src), "\n"), spans: map[string][]span{}, blocks: map[string][]string{}}
	owned := make([]bool, len(l.lines))
	add := func(tool string, s span) {
		if n := len(l.spans[tool]); n > 0 && l.spans[tool][n-1].to == s.from {
			l.spans[tool][n-1].to = s.to // one block: a registration and its aliases
		} else {
			l.spans[tool] = append(l.spans[tool], s)
		}
		l.blocks[tool] = append(l.blocks[tool], l.lines[s.from:s.to]...)
		for i := s.from; i < s.to; i++ {
			owned[i] = true
		}
	}
	end := func(from int, last string) int {
		for i := from; i < len(l.lines); i++ {
			if l.lines[i] == last {
				return i + 1
			}
		}
		t.Fatalf("no %q after line %d", last, from+1)
		return 0
	}
	for i, line := range l.lines {
		if m := funcDoc.FindStringSubmatch(line); m != nil {
			tool, err := strconv.Unquote(m[1])
			require.NoError(t, err)
			require.Equal(t, "", l.lines[i-1], "a blank line before the function of %q", tool)
			add(tool, span{i - 1, end(i, "}")})
		}
		if m := slotsDoc.FindStringSubmatch(line); m != nil {
			tool, err := strconv.Unquote(m[1])
			require.NoError(t, err)
			to := i + 2
			if i+1 < len(l.lines) && strings.HasSuffix(l.lines[i+1], "{") {
				to = end(i+1, "}") // one field per line
			}
			add(tool, span{i - 1, to})
		}
		if m := entryLine.FindStringSubmatch(line); m != nil {
			tool, err := strconv.Unquote(`"` + m[1] + `"`)
			require.NoError(t, err)
			add(tool, span{i, i + 1})
		}
		if i+1 < len(l.lines) && line == "\t{" {
			if m := recordTop.FindStringSubmatch(l.lines[i+1]); m != nil {
				tool, err := strconv.Unquote(m[1])
				require.NoError(t, err)
				add(tool, span{i, end(i, "\t},")})
			}
		}
	}
	for i, line := range l.lines {
		if !owned[i] {
			l.rest = append(l.rest, line)
		}
	}
	return l
}

func (l layout) within(tool string, from, to int) bool {
	for _, s := range l.spans[tool] {
		if s.from <= from && to <= s.to {
			return true
		}
	}
	return false
}

func generateStock(t *testing.T, src []byte) layout {
	t.Helper()
	files, err := Generate(load(t, "formatters.yaml", src, ".."), Config{Package: "generated"})
	require.NoError(t, err)
	require.Len(t, files, 1)
	out := files["formatters_gen.go"]
	for _, pos := range regexp.MustCompile(`formatters\.yaml:\d+`).FindAll(out, -1) {
		t.Errorf("generated code holds a position: %s", pos)
	}
	return splitEntries(t, out)
}

// insertBefore returns src with text inserted before the first line that is
// exactly line.
func insertBefore(t *testing.T, src []byte, line, text string) []byte {
	t.Helper()
	s := string(src)
	i := strings.Index(s, "\n"+line+"\n")
	require.GreaterOrEqual(t, i, 0, "no line %q", line)
	return []byte(s[:i+1] + text + s[i+1:])
}

// catalogPrefix returns a catalog of the first n entries of src, a catalog
// whose formatters list is its last key, with the shared lets they use.
func catalogPrefix(t *testing.T, src []byte, n int) []byte {
	t.Helper()
	// The included files are left out, and so are the shared lets the
	// first entries do not use: a shared let no entry uses is an error.
	var lines []string
	var lets [][]string // the shared lets, each with the comment before it
	var pending []string
	section := ""
	for _, line := range strings.SplitAfter(string(src), "\n") {
		if line != "" && line[0] != ' ' && line[0] != '#' && line[0] != '\n' {
			section, _, _ = strings.Cut(line, ":")
		}
		switch {
		case section == "include":
		case section != "let" || strings.HasPrefix(line, "let:"):
			lines = append(lines, line)
		case strings.HasPrefix(line, "  #"):
			pending = append(pending, line)
		case strings.HasPrefix(line, "  ") && line[2] != ' ':
			lets = append(lets, append(pending, line))
			pending = nil
		default:
			lets[len(lets)-1] = append(lets[len(lets)-1], line)
		}
	}
	entries, end := 0, len(lines)
	for i, line := range lines {
		if strings.HasPrefix(line, "  - tool: ") {
			if entries++; entries > n {
				end = i
				break
			}
		}
	}
	require.Greater(t, entries, n, "the catalog has %d entries, not more than %d", entries, n)
	prefix := strings.Join(lines[:end], "")
	used := map[int]bool{}
	for text := prefix; ; {
		added := ""
		for i, let := range lets {
			name, _, _ := strings.Cut(strings.TrimSpace(let[len(commentLines(let))]), ":")
			if !used[i] && regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`\b`).MatchString(text) {
				used[i] = true
				added += strings.Join(let, "")
			}
		}
		if added == "" {
			break
		}
		text = added
	}
	var shared []string
	for i, let := range lets {
		if used[i] {
			shared = append(shared, let...)
		}
	}
	if len(shared) == 0 {
		return []byte(strings.Replace(prefix, "let:\n", "", 1))
	}
	return []byte(strings.Replace(prefix, "let:\n", "let:\n"+strings.Join(shared, ""), 1))
}

// commentLines are the comment lines that lead a shared let's lines.
func commentLines(let []string) []string {
	n := 0
	for n < len(let) && strings.HasPrefix(let[n], "  #") {
		n++
	}
	return let[:n]
}

// TestDiffLocality edits the stock catalog as people do, adding an example
// to one entry and a formatter in the middle, and checks that the generated
// file changes only in the part of that entry: its function and its record.
func TestDiffLocality(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "formatters.yaml"))
	require.NoError(t, err)
	if raceEnabled {
		// Generating the whole catalog three times took half a minute
		// under the race detector, for nothing it can find: one goroutine
		// generates. Its first four entries (write, the edited one, is the
		// second) are edited the same way; the normal run edits it whole.
		src = catalogPrefix(t, src, 4)
	}
	before := generateStock(t, src)
	require.Contains(t, before.spans, "write")
	require.Len(t, before.spans["write"], 2, "a function and its registrations")

	t.Run("example", func(t *testing.T) {
		// Another example for write, the second formatter: every entry
		// after it moves down two lines in the catalog.
		edited := insertBefore(t, src, "      - input: {path: /out.ts}",
			"      - input: {path: /new.ts, content: \"a\"}\n        preview: for '/new.ts' (1 line, 1 character)\n")
		after := generateStock(t, edited)
		assert.Equal(t, before.rest, after.rest)
		for tool, block := range before.blocks {
			if tool != "write" {
				assert.Equal(t, block, after.blocks[tool], "entry %q", tool)
			}
		}
		for _, op := range difflib.NewMatcher(before.lines, after.lines).GetOpCodes() {
			if op.Tag == 'e' {
				continue
			}
			assert.True(t, before.within("write", op.I1, op.I2) && after.within("write", op.J1, op.J2),
				"change outside the entry of write: %c old %d-%d new %d-%d", op.Tag, op.I1+1, op.I2, op.J1+1, op.J2)
		}
	})

	t.Run("tier", func(t *testing.T) {
		// One line of write's tier expression changes: the diff is that
		// function's, a few lines.
		edited := []byte(strings.Replace(string(src), `    tier: 'docs ? "read" : "write"'`, `    tier: '!docs ? "write" : "read"'`, 1))
		require.NotEqual(t, src, edited)
		after := generateStock(t, edited)
		changed := 0
		for _, op := range difflib.NewMatcher(before.lines, after.lines).GetOpCodes() {
			if op.Tag == 'e' {
				continue
			}
			changed += max(op.I2-op.I1, op.J2-op.J1)
			assert.True(t, before.within("write", op.I1, op.I2) && after.within("write", op.J1, op.J2),
				"change outside the entry of write: %c old %d-%d new %d-%d", op.Tag, op.I1+1, op.I2, op.J1+1, op.J2)
		}
		t.Logf("a one-line tier change changes %d generated lines", changed)
		assert.Positive(t, changed)
		assert.Less(t, changed, 50, "generated lines a one-line tier change changes")
	})

	t.Run("formatter", func(t *testing.T) {
		const tool = "inserted:tool"
		edited := insertBefore(t, src, "  - tool: write", `  - tool: "inserted:tool"
    title: Inserted in the middle
    input:
      path: string
    preview: '"for " + input.path'
    examples:
      - input: {path: /x}
        preview: for /x

`)
		after := generateStock(t, edited)
		require.Contains(t, after.spans, tool)
		assert.Equal(t, before.rest, after.rest)
		assert.Equal(t, before.blocks, func() map[string][]string {
			others := map[string][]string{}
			for k, v := range after.blocks {
				if k != tool {
					others[k] = v
				}
			}
			return others
		}(), "the other entries are unchanged")
		// The diff only inserts, and only as many lines as the new entry
		// has: its function and its registration.
		inserted, want := 0, len(after.blocks[tool])
		for _, op := range difflib.NewMatcher(before.lines, after.lines).GetOpCodes() {
			switch op.Tag {
			case 'e':
			case 'i':
				inserted += op.J2 - op.J1
			default:
				t.Errorf("the diff %s old lines %d-%d", map[byte]string{'d': "deletes", 'r': "replaces"}[op.Tag], op.I1+1, op.I2)
			}
		}
		assert.Equal(t, want, inserted)
		doc := strings.Join(after.blocks[tool], "\n")
		assert.Contains(t, doc, `celrt.FieldOf(input, "path", "", celrt.InputString)`)
		assert.Contains(t, doc, `{Key: "inserted:tool", Owner: "formatters.yaml#inserted:tool", Formatter: formatterInsertedTool}`)
		assert.Contains(t, doc, "var formatterInsertedTool = &slots{\n\tpreview:      PreviewInsertedTool,\n\tpresentation: runtime.Presentation{Title: \"Inserted in the middle\"},\n")
	})
}
