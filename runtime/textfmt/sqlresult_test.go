package textfmt

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSQLResult(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"JSON rows", "[\n  {\"id\": 7},\n  {\"id\": 9}\n]", "2 rows"},
		{"one JSON row", `[{"id": 7}]`, "1 row"},
		{"no rows", " [] ", "0 rows"},
		{"wrapped rows", `{"data": [{"id": 1}, {"id": 2}, {"id": 3}], "metadata": {"ms": 4}}`, "3 rows"},
		{"Python rows", "[{'name': 'Ana', 'total': 120}, {'name': 'Bo', 'total': 300}]", "2 rows"},
		{"Python affected rows", "[{'affected_rows': 3}]", "3 rows affected"},
		{"one affected row", "[{'affected_rows': 1}]", "1 row affected"},
		{"rows affected", "Query executed successfully. Rows affected: 12", "12 rows affected"},
		{"rows affected in capitals", "ROWS AFFECTED: 1", "1 row affected"},
		{"a marker without a count", "Rows affected: unknown\nsecond line", "2 lines"},
		{"a count too long to be one", "Rows affected: " + strings.Repeat("9", 21), "1 line"},
		{"a count followed by words", "Rows affected: 0 (and the audit log is gone)", "0 rows affected"},
		{"lines", "Tables_in_shop\norders\nsessions", "3 lines"},
		{"a JSON object", `{"ok": true}`, "1 line"},
	} {
		got, ok := SQLResult(tc.text)
		assert.True(t, ok, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
	}
	_, ok := SQLResult(" \n\t")
	assert.False(t, ok, "blank text has no summary")
}

// Markers without a count, however many, are text like any other.
func TestSQLResultOfMarkersOnly(t *testing.T) {
	got, ok := SQLResult(strings.Repeat("rows affected:", 1<<16))
	assert.True(t, ok)
	assert.Equal(t, "1 line", got)
}
