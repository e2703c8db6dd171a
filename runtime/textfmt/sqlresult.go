package textfmt

import (
	"strings"

	"github.com/permgen/permgen/runtime/value"
)

// SQLResult summarizes the text an SQL tool returned, as the servers write
// it: "N rows" for the rows of a query (a JSON list, inside the wrappers
// ResultValue removes, or the [{'a': 1}, {'a': 2}] text of Python
// servers), "N rows affected" for a count of changed rows ('affected_rows':
// N in a Python dict, "Rows affected: N" in any case), and "N lines" for
// any other text. A count is the digits the server wrote; a marker
// followed by anything else is no count. ok is false for blank text.
func SQLResult(text string) (summary string, ok bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", false
	}
	if v, err := value.DecodeJSON([]byte(text)); err == nil {
		if rows, ok := ResultValue(v).([]any); ok {
			return CountPhrase(len(rows), "row", "rows"), true
		}
	}
	if n, ok := countAfter(text, "'affected_rows': "); ok {
		return affected(n), true
	}
	if strings.HasPrefix(text, "[{") {
		return CountPhrase(strings.Count(text, "}, {")+1, "row", "rows"), true
	}
	if n, ok := countAfter(text, "rows affected: "); ok {
		return affected(n), true
	}
	return CountPhrase(LineCount(text), "line", "lines"), true
}

// affected is "1 row affected" or "<n> rows affected".
func affected(n string) string {
	if n == "1" {
		return "1 row affected"
	}
	return n + " rows affected"
}

// maxCountDigits bounds the digits of a count: more is no count a server
// sends, and the summary stays short.
const maxCountDigits = 20

// countAfter returns the digits that follow the first occurrence of marker
// in text, matched without regard to the case of ASCII letters, after
// spaces and tabs; ok is false when there is no marker or no digit after
// it, or more than maxCountDigits of them.
func countAfter(text, marker string) (digits string, ok bool) {
	i := indexFoldASCII(text, marker)
	if i < 0 {
		return "", false
	}
	rest := strings.TrimLeft(text[i+len(marker):], " \t")
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n > maxCountDigits {
		return "", false
	}
	return rest[:n], true
}

// indexFoldASCII is strings.Index with the ASCII letters of both matched
// without regard to case; other bytes match only themselves, so that
// offsets are those of text.
func indexFoldASCII(text, sub string) int {
	for i := 0; i+len(sub) <= len(text); i++ {
		j := 0
		for j < len(sub) && foldByte(text[i+j]) == foldByte(sub[j]) {
			j++
		}
		if j == len(sub) {
			return i
		}
	}
	return -1
}

// foldByte is c with an ASCII capital letter lowered.
func foldByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
