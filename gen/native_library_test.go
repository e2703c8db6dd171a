package gen

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/celfmt"
)

// languageFunctions are the functions of the formatter language, beyond
// CEL and its pinned libraries.
var languageFunctions = []string{
	"truncate", "lines", "plural", "inline", "collapse", "json", "nonEmpty", "promptPath",
	"mcpValue", "numberText", "sqlKinds", "sqlTier", "parseJSON", "rawText", "fileSize", "durationText", "shortcut",
	"baseName", "menuPath", "dimensions", "resultValue", "redact", "fields", "xdDevice", "oneLine", "toolPart",
	"minorUnits", "alternatives", "sqlResult", "commandError", "outputLines", "resultObject",
}

// TestEveryLanguageFunctionIsTranslated: each overload of each function of
// the formatter language, as the environment listing names it, has its Go
// counterpart in celrt, and a formatter calling them all is translated.
func TestEveryLanguageFunctionIsTranslated(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "env", "functions.golden"))
	require.NoError(t, err)
	defer f.Close()
	overloads := map[string][]string{}
	var current string
	for s := bufio.NewScanner(f); s.Scan(); {
		line := s.Text()
		switch {
		case strings.HasPrefix(line, "    "):
			if current != "" {
				overloads[current] = append(overloads[current], strings.Fields(line)[0])
			}
		case strings.HasPrefix(line, "  "):
			current = strings.TrimSpace(line)
		default:
			current = ""
		}
	}
	for _, fn := range languageFunctions {
		require.NotEmpty(t, overloads[fn], "%s is not in the environment listing", fn)
		for _, id := range overloads[fn] {
			_, ok := libraryCalls[id]
			assert.True(t, ok, "%s has no Go counterpart in libraryCalls", id)
		}
	}

	checked, err := celfmt.Load("all.yaml", []byte(`version: 1
formatters:
  - tool: all
    let:
      parts: >-
        [truncate("abc", 2), plural(lines("a"), "x", "xs"), inline(" a ", 5), collapse(" b "),
        json({"k": 1}), nonEmpty(" c ").orValue(""), promptPath(input).orValue(""), mcpValue(input),
        mcpValue(input, "k"), numberText(1.5), numberText(2), numberText(input, "n"),
        sqlKinds("select 1").join(","), sqlTier(["SELECT"]), string(parseJSON("[1]").hasValue()), rawText(input).orValue(""),
        numberText(dyn(input.n)), fileSize(1536), fileSize(2.0), fileSize(input.n), durationText(60),
        durationText(0.5), durationText(input.n), shortcut("cmd+s"), baseName("/a/b"), menuPath("A>B"),
        dimensions(8, 6), dimensions(1.5, 2.0), dimensions(input.n, input.n), string(resultValue({"data": 1})),
        redact("?token=abc"), redact("password", "pw"), fields(input, limits.output), fields({"b": [1], "a": {}}, 20),
        xdDevice(" XD://b%61sh").orValue(""), xdDevice(input.n).orValue("none"), oneLine(" x\n y ", 10).orValue(""),
        toolPart("s:t"), minorUnits(1999, "usd").orValue(""), alternatives(input, ["p", "q"]).map(p, p[0] + "=" + p[1]).join("|"),
        alternatives({"p": " v ", "q": "v"}, ["p", "q"]).map(p, p[0] + "=" + p[1]).join("|"), sqlResult("Rows affected: 2").orValue(""),
        commandError({"exitCode": 3}, "no\nmore", 10).orValue(""), commandError(input, "", 5).orValue("-"),
        outputLines("a\nb\n").orValue([]).join("+"), resultObject({"data": {"z": "y"}}).?z.orValue(""), resultObject(3).?z.orValue("0")]
    preview: parts.join(" ")
    examples:
      - input: {k: 1, n: 2, p: " /a ", q: /b}
        preview: 'ab… 1 x a b {"k":1} c  {…} 1 1.5 2 2 SELECT read true  2 1.50 KB 2 B 2 B 1min 0s 500ms 2.0s ⌘s b A → B 8×6 1.5×2 2×2 1 ?token=‹secret, 3 characters› ‹secret, 2 characters› k: 1, n: 2, p: " /a ", q: "/b" a: {}, b: [1] bash none x y t 19.99 USD p=/a|q=/b p=v 2 rows affected exit 3: no - a+b y 0'
`), celfmt.Options{})
	require.NoError(t, err)
	plans := Translate(checked)
	require.Len(t, plans, 1)
	assert.True(t, plans[0].Native(), plans[0].Reason)
}
