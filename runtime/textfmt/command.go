package textfmt

import (
	"strconv"
	"strings"

	"github.com/permgen/permgen/runtime/value"
)

// exitMarker is how pi ends the output of a command that failed:
// "Command exited with code 2".
const exitMarker = "exited with code "

// maxExitCode bounds an exit code read from a command's output.
const maxExitCode = 12

// CommandError sums up a failed command: "exit N" and the first line of
// its output, inlined to n characters. The exit code is the first of the
// result details' exitCode, exit_code and code that is a number, read
// with details (a field of the details object, or nothing); without one,
// the code that follows the output's last "exited with code ", as pi
// writes it. ok is false when there is neither code nor output.
func CommandError(details func(key string) (any, bool), text string, n int) (line string, ok bool) {
	out := strings.TrimSpace(text)
	code, coded := "", false
	for _, key := range []string{"exitCode", "exit_code", "code"} {
		v, _ := details(key)
		if code, coded = numberText(v); coded {
			break
		}
	}
	if i := strings.LastIndex(out, exitMarker); !coded && i >= 0 {
		first, _, _ := strings.Cut(out[i+len(exitMarker):], "\n")
		code = Truncate(strings.TrimSpace(first), maxExitCode)
		coded = code != ""
	}
	switch {
	case !coded && out == "":
		return "", false
	case out == "":
		return "exit " + code, true
	}
	first, _, _ := strings.Cut(out, "\n")
	if coded {
		return "exit " + code + ": " + InlineText(first, n), true
	}
	return InlineText(first, n), true
}

// numberText is the text of a number of the value model or of CEL (a
// double as JavaScript prints it); ok is false for any other value.
func numberText(v any) (string, bool) {
	switch n := v.(type) {
	case float64:
		return value.FormatNumber(n), true
	case value.Number:
		return value.FormatNumber(n.Float64()), true
	case int64:
		return strconv.FormatInt(n, 10), true
	}
	return "", false
}

// OutputLines are the lines of a command's output or of a file's text,
// for a transcript to expand: the text split at "\n", without the empty
// line that a final line break would leave. ok is false for blank text.
func OutputLines(text string) (lines []string, ok bool) {
	if strings.TrimSpace(text) == "" {
		return nil, false
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n"), true
}
