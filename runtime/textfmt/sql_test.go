package textfmt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSQLKinds(t *testing.T) {
	tests := []struct {
		name, sql string
		want      []string
	}{
		{"select", "SELECT id FROM invoices", []string{"SELECT"}},
		{"lower case, leading comments", "-- report\n/* read only */ update t set a = 1", []string{"UPDATE"}},
		{"padded second statement", "SELECT 1;" + strings.Repeat("\n", 100000) + "DROP TABLE users; --", []string{"DROP", "SELECT"}},
		{"most consequential first", "select 1; insert into t values (1); delete from t", []string{"DELETE", "INSERT", "SELECT"}},
		{"each kind once", "SELECT 1; SELECT 2; select 3", []string{"SELECT"}},
		{"semicolon in a string", "SELECT ';DROP TABLE x' AS s", []string{"SELECT"}},
		{"semicolon in an identifier", `SELECT 1 AS "a;drop table x"`, []string{"SELECT"}},
		// Standard SQL reads a dollar-quoted body; MySQL, to which $ quotes
		// nothing, reads a second statement of no known kind.
		{"dollar quoted body", "CREATE FUNCTION f() RETURNS int AS $body$ DELETE FROM t; $body$ LANGUAGE sql", []string{"CREATE", "SQL"}},
		{"parameter is not a dollar quote", "SELECT $1; DROP TABLE t", []string{"DROP", "SELECT"}},
		{"parenthesised select", "(select 1)", []string{"SELECT"}},
		{"unknown first word", "frobnicate everything", []string{"SQL"}},
		{"not a word", "1 + 1", []string{"SQL"}},
		{"with leads to delete", "WITH old AS (SELECT id FROM t) DELETE FROM t USING old", []string{"DELETE"}},
		{"with data-modifying cte", "WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", []string{"DELETE", "SELECT"}},
		{"with alone", "WITH x AS (SELECT 1)", []string{"WITH"}},
		{"empty statements", " ;;; ", []string{}},
		{"only comments", "-- nothing\n/* at all */", []string{}},
		// Each dialect's reading counts.
		{"backslash before quote (standard SQL ends the string)", `SELECT 'C:\'; DROP TABLE x; --'`, []string{"DROP", "SELECT"}},
		{"backslash before quote (MySQL escapes it)", `SELECT 'a\'; DROP TABLE x; --'; SELECT 1`, []string{"DROP", "SELECT"}},
		{"nested comment (MySQL ends it early)", "SELECT 1 /* /* */ ; DROP TABLE x; /* */", []string{"DROP", "SELECT"}},
		{"MySQL executable comment", "SELECT 1; /*!50000 DROP TABLE x */", []string{"DROP", "SELECT"}},
		{"hash comment in MySQL only", "SELECT 1 # ; DELETE FROM t", []string{"DELETE", "SELECT"}},
		{"dollar quotes are no quotes to MySQL", "SELECT $x$; DROP TABLE t; $x$", []string{"DROP", "SQL", "SELECT"}},
		{"back quotes are no quotes to standard SQL", "SELECT 1 AS `a; DROP TABLE t; --`", []string{"DROP", "SELECT"}},
		// A $ right after a name goes on with the name (a$$ is a name in
		// PostgreSQL), so it starts no dollar quote; in MySQL the backslash
		// keeps the rest in one string.
		{"dollar after a name", `SELECT '\' AS a$$; DROP TABLE invoices; -- $$ '`, []string{"DROP", "SELECT"}},
		{"dollar quote tag of non-ASCII letters", "SELECT $é$ ' $é$; DROP TABLE t; -- '", []string{"DROP", "SELECT"}},
		// In MySQL -- starts a comment only before white space or a control
		// character: 1--1 is one minus minus one.
		{"MySQL double dash before a digit", "SELECT 1--1; DROP TABLE invoices", []string{"DROP", "SELECT"}},
		{"double dash and space comment in both", "SELECT 1 -- ; DROP TABLE t", []string{"SELECT"}},
		// In PostgreSQL a backslash escapes in E'…' strings, and a carriage
		// return ends a -- comment.
		{"PostgreSQL escape string", `SELECT E'\'', $$ ' $$; DROP TABLE t; -- '`, []string{"DROP", "SELECT"}},
		{"PostgreSQL escape string continued", "SELECT E'a'\n'\\'', $$#$$; DROP TABLE t; -- '", []string{"DROP", "SELECT"}},
		{"PostgreSQL carriage return ends a comment", "SELECT 1 --\r; DROP TABLE t", []string{"DROP", "SELECT"}},
		// MySQL reads dollar quotes from 8.1 on, and not after @.
		{"MySQL dollar quote", `SELECT '\'', $a$ ' $a$; DROP TABLE t; -- '`, []string{"DROP", "SELECT"}},
		{"MySQL dollar quote tag of a digit", "SELECT $1$ '$1$; DROP TABLE t; -- '", []string{"DROP", "SELECT"}},
		{"MySQL no dollar quote after @", "SELECT $a$ ' $a$, @$$; DROP TABLE t; -- $$ '", []string{"DROP", "SELECT"}},
		{"unterminated string", "SELECT 'abc", []string{"SELECT"}},
		{"unterminated comment", "DELETE FROM t /* x", []string{"DELETE"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, SQLKinds(tc.sql))
		})
	}
}

// TestSQLKindsReadings checks each reading on its own: what one reading
// gets wrong another must not hide. want lists the kinds of each reading,
// in the order of the dialects: standard SQL | PostgreSQL | MySQL | MySQL
// from 8.1 on.
func TestSQLKindsReadings(t *testing.T) {
	tests := []struct{ name, sql, want string }{
		{"dollar after a name", `SELECT '\' AS a$$; DROP TABLE invoices; -- $$ '`, "DROP SELECT | DROP SELECT | SELECT | SELECT"},
		{"dollar after a name ending in a digit", "SELECT x1$$; DROP TABLE t; -- $$", "DROP SELECT | DROP SELECT | DROP SELECT | DROP SELECT"},
		{"dollar after a non-ASCII name", "SELECT \u00e9$$; DROP TABLE t; -- $$", "DROP SELECT | DROP SELECT | DROP SELECT | DROP SELECT"},
		{"dollar after a number and a name", "SELECT 1e$$; DROP TABLE t; -- $$", "DROP SELECT | DROP SELECT | DROP SELECT | DROP SELECT"},
		{"dollar after a hexadecimal number", "SELECT 0x1F$$; DROP TABLE t; -- $$", "DROP SELECT | DROP SELECT | DROP SELECT | DROP SELECT"},
		{"dollar after a parameter and a name", "SELECT $1e$$; DROP TABLE t; -- $$", "DROP SELECT | DROP SELECT | DROP SELECT | SELECT"},
		{"dollar quote after a space", "SELECT $$a;b$$", "SELECT | SELECT | SQL SELECT | SELECT"},
		{"dollar quote after a number", "SELECT 1$$; DROP TABLE t; -- $$", "SELECT | SELECT | DROP SELECT | DROP SELECT"},
		{"dollar quote after a real", "SELECT 1.e5$$; DROP TABLE t; -- $$", "SELECT | SELECT | DROP SELECT | SELECT"},
		{"dollar quote after a decimal", "SELECT 1.5$$; DROP TABLE t; -- $$", "SELECT | SELECT | DROP SELECT | SELECT"},
		{"dollar quote after a quoted name", `SELECT "a"$$; DROP TABLE t; -- $$`, "SELECT | SELECT | DROP SELECT | SELECT"},
		{"dollar quote after a string", "SELECT 'a'$$; DROP TABLE t; -- $$", "SELECT | SELECT | DROP SELECT | SELECT"},
		{"dollar quote tag of non-ASCII letters", "SELECT $\u00e9$ ' $\u00e9$; DROP TABLE t; -- '", "DROP SELECT | DROP SELECT | SELECT | DROP SELECT"},
		{"dollar quote tag of a digit", "SELECT $1$ '$1$; DROP TABLE t; -- '", "SELECT | SELECT | SELECT | DROP SELECT"},
		{"dollar after a dot", "SELECT t.$$; DROP TABLE t; -- $$", "SELECT | SELECT | DROP SELECT | DROP SELECT"},
		{"dollar after @", "SELECT @$$; DROP TABLE t; -- $$", "SELECT | SELECT | DROP SELECT | DROP SELECT"},
		{"dollar after a name, a dot and a digit", "SELECT t.5$$; DROP TABLE t; -- $$", "SELECT | SELECT | DROP SELECT | DROP SELECT"},
		{"dollar quote after a quoted name, a dot and a digit", "SELECT `t`.5$$; DROP TABLE t; -- $$", "SELECT | SELECT | DROP SELECT | SELECT"},
		{"parameter", "SELECT $1; DROP TABLE t", "DROP SELECT | DROP SELECT | DROP SELECT | DROP SELECT"},
		{"double dash before a digit", "SELECT 1--1; DROP TABLE invoices", "SELECT | SELECT | DROP SELECT | DROP SELECT"},
		{"double dash before a dash", "SELECT 1 ---1; DROP TABLE t", "SELECT | SELECT | DROP SELECT | DROP SELECT"},
		{"double dash before a space", "SELECT 1 -- ; DROP TABLE t", "SELECT | SELECT | SELECT | SELECT"},
		{"double dash before a tab", "SELECT 1 --\t; DROP TABLE t", "SELECT | SELECT | SELECT | SELECT"},
		{"double dash before a control character", "SELECT 1 --\x01; DROP TABLE t", "SELECT | SELECT | SELECT | SELECT"},
		{"double dash at the end", "DELETE FROM t --", "DELETE | DELETE | DELETE | DELETE"},
		{"carriage return after a double dash", "SELECT 1 --\r; DROP TABLE t", "SELECT | DROP SELECT | SELECT | SELECT"},
		{"escape string", `SELECT E'\'', $$ ' $$; DROP TABLE t; -- '`, "SELECT | DROP SELECT | SELECT | DROP SELECT"},
		{"escape string after a number", `SELECT 1E'\'', $$ ' $$; DROP TABLE t; -- '`, "SELECT | DROP SELECT | SELECT | DROP SELECT"},
		{"escape string continued", "SELECT E'a'\n'\\'', $$#$$; DROP TABLE t; -- '", "SELECT | DROP SELECT | SELECT | DROP SELECT"},
		{"escape string continued after a comment", "SELECT E'a' -- b\n  '\\'', $$#$$; DROP TABLE t; -- '", "SELECT | DROP SELECT | SELECT | DROP SELECT"},
		{"escape string not continued on its line", `SELECT E'a' '\'', $$ ' $$; DROP TABLE t; -- '`, "SELECT | SELECT | SELECT | DROP SELECT"},
		{"E at the end of a name", `SELECT xE'\'', $$ ' $$; DROP TABLE t; -- '`, "SELECT | SELECT | SELECT | DROP SELECT"},
		{"dollar quote behind a backslash", `SELECT '\'', $a$ ' $a$; DROP TABLE t; -- '`, "SELECT | SELECT | SELECT | DROP SELECT"},
	}
	dialects := []sqlDialect{standardSQL, postgreSQL, mySQL, mySQLDollar}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := strings.Split(tc.want, " | ")
			for i, d := range dialects {
				assert.Equal(t, want[i], strings.Join(readingKinds(tc.sql, d), " "), "dialect %d", d)
			}
		})
	}
}

// readingKinds returns the kinds of sql in one reading, ordered as
// SQLKinds orders them.
func readingKinds(sql string, d sqlDialect) []string {
	seen := map[string]bool{}
	s := sqlScanner{text: sql, dialect: d}
	for s.i < len(s.text) {
		for _, k := range s.statement() {
			seen[k] = true
		}
	}
	kinds := []string{}
	for _, k := range sqlKeywords {
		if seen[k] {
			kinds = append(kinds, k)
		}
	}
	return kinds
}

func TestSQLKindsAreBounded(t *testing.T) {
	var b strings.Builder
	for _, k := range sqlKeywords {
		b.WriteString(k + " x;")
	}
	b.WriteString(strings.Repeat("junk words here;", 10000))
	kinds := SQLKinds(b.String())
	assert.Len(t, kinds, len(sqlKeywords), "each keyword once, junk as SQL")
	assert.Equal(t, "DROP", kinds[0])
}

// BenchmarkSQLKinds reads padded queries of two sizes: the time per byte
// stays the same. The hostile padding, thousands of comments ended by
// carriage returns and escapes that call for every reading, took time in
// the square of its length when each comment was searched to the end of
// the text for a line feed.
func BenchmarkSQLKinds(b *testing.B) {
	for _, pad := range []struct{ name, text string }{{"newlines", "\n"}, {"hostile", "$\\'E'--\r"}} {
		for _, size := range []int{60 << 10, 1 << 20} {
			sql := "SELECT 1;" + strings.Repeat(pad.text, size/len(pad.text)) + "DROP TABLE users; --"
			b.Run(fmt.Sprintf("%s/%dKiB", pad.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(sql)))
				for b.Loop() {
					SQLKinds(sql)
				}
			})
		}
	}
}

func FuzzSQLKinds(f *testing.F) {
	for _, s := range []string{"SELECT 1; DROP TABLE x", "WITH d AS (DELETE FROM t) SELECT 1", `SELECT 'a\'; DROP`, "/* /* */ */ x", "$a$ $a$; $$", "/*!5 DROP */ #",
		`SELECT '\' AS a$$; DROP TABLE invoices; -- $$ '`, "SELECT 1--1; DROP TABLE invoices",
		`SELECT E'\'', $$ ' $$; DROP TABLE t; -- '`, "SELECT 1 --\r; DROP TABLE t", `SELECT '\'', $a$ ' $a$; DROP TABLE t; -- '`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		kinds := SQLKinds(sql)
		for i, k := range kinds {
			rank, ok := sqlRank[k]
			if !ok {
				t.Fatalf("kind %q is not a keyword", k)
			}
			if i > 0 && sqlRank[kinds[i-1]] >= rank {
				t.Fatalf("kinds %q not in order of consequence, or repeated", kinds)
			}
		}
	})
}
