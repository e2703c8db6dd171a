package textfmt

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// The side effects SQLKinds reports besides statement kinds. A query whose
// statements all read may still run a program, reach a file on the
// database server or change the server's state, and that is what a person
// approving it must see first.
const (
	// SQLProgram is COPY … TO PROGRAM or FROM PROGRAM: the database server
	// runs a shell command.
	SQLProgram = "PROGRAM"
	// SQLServerFile is a statement that reads or writes a file on the
	// database server (for SQLite, on the machine that opens the
	// database): COPY … TO or FROM a file, LOAD DATA INFILE without LOCAL,
	// SQLite's ATTACH and VACUUM INTO.
	SQLServerFile = "SERVER FILE"
	// SQLIntoOutfile is MySQL's SELECT … INTO OUTFILE, which writes a file
	// on the database server.
	SQLIntoOutfile = "INTO OUTFILE"
	// SQLIntoDumpfile is MySQL's SELECT … INTO DUMPFILE, which writes a
	// file on the database server.
	SQLIntoDumpfile = "INTO DUMPFILE"
)

// sqlFunction is a function that gives a query a side effect however it is
// called: its name as the dialects spell it, the tier a call raises the
// query to and why.
type sqlFunction struct {
	name, tier, why string
}

// sqlFunctions are the side-effecting functions SQLKinds reports, by the
// effect they have; docs/stock-catalog.md lists them with their tiers (a
// test holds the two together). A function is found wherever a name can
// stand, called or not, quoted or schema-qualified, because a model that
// wants one past the reader can call it in many ways; a column that bears
// the name only costs a higher tier.
var sqlFunctions = []sqlFunction{
	// Run programs or native code.
	{"sys_exec", "execute", "runs a shell command (MySQL/MariaDB lib_mysqludf_sys)"},
	{"sys_eval", "execute", "runs a shell command and returns its output (lib_mysqludf_sys)"},
	{"sys_bineval", "execute", "runs machine code (lib_mysqludf_sys)"},
	{"xp_cmdshell", "execute", "runs a shell command (SQL Server)"},
	{"load_extension", "execute", "loads a shared library into the process (SQLite)"},
	// Run SQL held in a string, which the reader does not see as SQL.
	{"query_to_xml", "execute", "runs the query held in a string (PostgreSQL)"},
	{"query_to_xmlschema", "execute", "runs the query held in a string (PostgreSQL)"},
	{"query_to_xml_and_xmlschema", "execute", "runs the query held in a string (PostgreSQL)"},
	{"ts_stat", "execute", "runs the query held in a string (PostgreSQL)"},
	// Reach another server.
	{"dblink", "execute", "runs a query on another server over the network (PostgreSQL dblink)"},
	{"dblink_exec", "execute", "runs a statement on another server over the network (dblink)"},
	{"dblink_connect", "execute", "opens a connection to another server (dblink)"},
	{"dblink_connect_u", "execute", "opens a connection to another server (dblink)"},
	{"dblink_open", "execute", "opens a cursor on another server (dblink)"},
	{"dblink_fetch", "execute", "fetches from a cursor on another server (dblink)"},
	{"dblink_send_query", "execute", "sends a query to another server (dblink)"},
	{"dblink_get_result", "execute", "reads a result from another server (dblink)"},
	{"http_get", "execute", "sends an HTTP request from the database server (pgsql-http)"},
	{"http_post", "execute", "sends an HTTP request from the database server (pgsql-http)"},
	{"http_put", "execute", "sends an HTTP request from the database server (pgsql-http)"},
	{"http_patch", "execute", "sends an HTTP request from the database server (pgsql-http)"},
	{"http_delete", "execute", "sends an HTTP request from the database server (pgsql-http)"},
	{"http_head", "execute", "sends an HTTP request from the database server (pgsql-http)"},
	{"openrowset", "execute", "reads a file or another server's data (SQL Server)"},
	{"opendatasource", "execute", "connects to another server (SQL Server)"},
	// Write files on the server.
	{"lo_export", "execute", "writes a large object to a file on the server (PostgreSQL)"},
	{"pg_file_write", "execute", "writes a file on the server (PostgreSQL adminpack)"},
	{"pg_file_rename", "execute", "renames a file on the server (adminpack)"},
	{"pg_file_unlink", "execute", "deletes a file on the server (adminpack)"},
	{"pg_file_sync", "execute", "flushes a file on the server (adminpack)"},
	{"writefile", "execute", "writes a file (SQLite fileio)"},
	// Read files on the server.
	{"lo_import", "execute", "reads a file on the server into a large object (PostgreSQL)"},
	{"pg_read_file", "execute", "reads a file on the server (PostgreSQL)"},
	{"pg_read_binary_file", "execute", "reads a file on the server (PostgreSQL)"},
	{"pg_ls_dir", "execute", "lists a directory on the server (PostgreSQL)"},
	{"pg_stat_file", "execute", "reads a file's metadata on the server (PostgreSQL)"},
	{"pg_ls_logdir", "execute", "lists the server's log directory (PostgreSQL)"},
	{"pg_ls_waldir", "execute", "lists the server's WAL directory (PostgreSQL)"},
	{"pg_ls_tmpdir", "execute", "lists the server's temporary directory (PostgreSQL)"},
	{"pg_ls_archive_statusdir", "execute", "lists a server directory (PostgreSQL)"},
	{"pg_ls_logicalsnapdir", "execute", "lists a server directory (PostgreSQL)"},
	{"pg_ls_logicalmapdir", "execute", "lists a server directory (PostgreSQL)"},
	{"pg_ls_replslotdir", "execute", "lists a server directory (PostgreSQL)"},
	{"pg_logdir_ls", "execute", "lists the server's log directory (adminpack)"},
	{"load_file", "execute", "reads a file on the server (MySQL/MariaDB)"},
	{"readfile", "execute", "reads a file (SQLite fileio)"},
	{"fsdir", "execute", "lists a directory (SQLite fileio)"},
	{"zipfile", "execute", "reads a ZIP archive from a file (SQLite zipfile)"},
	// Change the database or the server, and run nothing.
	{"nextval", "write", "advances a sequence"},
	{"setval", "write", "sets a sequence"},
	{"set_config", "write", "changes a setting"},
	{"pg_terminate_backend", "write", "ends another connection"},
	{"pg_cancel_backend", "write", "cancels another connection's query"},
	{"pg_reload_conf", "write", "reloads the server's configuration"},
	{"pg_rotate_logfile", "write", "rotates the server's log file"},
	{"pg_switch_wal", "write", "switches the write-ahead log file"},
	{"pg_switch_xlog", "write", "switches the write-ahead log file (before PostgreSQL 10)"},
	{"pg_create_restore_point", "write", "writes a restore point into the log"},
	{"pg_backup_start", "write", "starts a backup"},
	{"pg_backup_stop", "write", "stops a backup"},
	{"pg_start_backup", "write", "starts a backup (before PostgreSQL 15)"},
	{"pg_stop_backup", "write", "stops a backup (before PostgreSQL 15)"},
	{"pg_promote", "write", "promotes a standby server"},
	{"pg_wal_replay_pause", "write", "pauses recovery"},
	{"pg_wal_replay_resume", "write", "resumes recovery"},
	{"pg_create_physical_replication_slot", "write", "creates a replication slot"},
	{"pg_create_logical_replication_slot", "write", "creates a replication slot"},
	{"pg_copy_physical_replication_slot", "write", "creates a replication slot"},
	{"pg_copy_logical_replication_slot", "write", "creates a replication slot"},
	{"pg_drop_replication_slot", "write", "drops a replication slot"},
	{"pg_replication_slot_advance", "write", "advances a replication slot"},
	{"pg_logical_slot_get_changes", "write", "consumes a replication slot's changes"},
	{"pg_logical_slot_get_binary_changes", "write", "consumes a replication slot's changes"},
	{"pg_logical_emit_message", "write", "writes a message into the log"},
	{"pg_notify", "write", "sends a notification to other connections"},
	{"pg_stat_reset", "write", "resets statistics"},
	{"pg_stat_reset_shared", "write", "resets statistics"},
	{"pg_stat_reset_single_table_counters", "write", "resets statistics"},
	{"pg_stat_reset_single_function_counters", "write", "resets statistics"},
	{"pg_stat_reset_slru", "write", "resets statistics"},
	{"pg_stat_reset_replication_slot", "write", "resets statistics"},
	{"pg_log_backend_memory_contexts", "write", "writes to the server's log"},
	{"pg_import_system_collations", "write", "adds collations to the catalog"},
	{"lo_create", "write", "creates a large object"},
	{"lo_creat", "write", "creates a large object"},
	{"lo_from_bytea", "write", "creates a large object"},
	{"lo_put", "write", "writes a large object"},
	{"lo_unlink", "write", "deletes a large object"},
	{"lowrite", "write", "writes a large object"},
	{"lo_truncate", "write", "truncates a large object"},
}

// sqlExecuteKinds are the statement kinds and side effects at tier
// execute, beyond the functions: those that run a program, reach a file on
// the server, or run code or SQL that the reader cannot see (a DO block,
// a statement prepared from a string or a variable, or earlier).
var sqlExecuteKinds = map[string]bool{
	SQLProgram: true, SQLServerFile: true, SQLIntoOutfile: true, SQLIntoDumpfile: true,
	"DO": true, "PREPARE": true, "EXECUTE": true, "EXEC": true,
}

// sqlReadKinds are the statement kinds that only read.
var sqlReadKinds = map[string]bool{"SELECT": true, "VALUES": true, "TABLE": true, "SHOW": true, "DESCRIBE": true, "DESC": true}

// sqlFunctionKind is the kind SQLKinds reports for a call of f.
func sqlFunctionKind(f sqlFunction) string { return f.name + "()" }

// maxSQLFunctionName is the length of the longest listed name: a longer
// word is none of them.
var maxSQLFunctionName = func() int {
	n := 0
	for _, f := range sqlFunctions {
		n = max(n, len(f.name))
	}
	return n
}()

// sqlSideEffects are the side effects SQLKinds reports beyond the
// statements and the functions.
var sqlSideEffects = []string{SQLProgram, SQLServerFile, SQLIntoOutfile, SQLIntoDumpfile}

// sqlKindsTable is all the kinds SQLKinds reports, the most consequential
// first: what runs programs, reaches files or the network, then the
// statements that change things, then the functions that do, then the
// statements that read.
func sqlKindsTable() []string {
	kinds := slices.Clone(sqlSideEffects)
	for _, f := range sqlFunctions {
		if f.tier == "execute" {
			kinds = append(kinds, sqlFunctionKind(f))
		}
	}
	reads := slices.Index(sqlKeywords, "SELECT")
	kinds = append(kinds, sqlKeywords[:reads]...)
	for _, f := range sqlFunctions {
		if f.tier != "execute" {
			kinds = append(kinds, sqlFunctionKind(f))
		}
	}
	return append(kinds, sqlKeywords[reads:]...)
}

// SQLTier returns the approval tier of a query whose kinds SQLKinds
// returned: "read" when there is a statement and every kind only reads
// (SELECT, VALUES, TABLE, SHOW, DESCRIBE, DESC), "execute" when any kind
// runs a program, reaches a file on the server or another server, or runs
// what the reader cannot see (PROGRAM, SERVER FILE, INTO OUTFILE, INTO
// DUMPFILE, DO, PREPARE, EXECUTE, EXEC and the functions listed at execute
// in docs/stock-catalog.md), and "write" otherwise, for an unknown kind
// too: a text with no statement, a statement of no known kind, or a kind
// this version does not know.
func SQLTier(kinds []string) string {
	read := len(kinds) > 0
	for _, k := range kinds {
		if sqlExecuteKinds[k] || sqlTables().functionTier[k] == "execute" {
			return "execute"
		}
		read = read && sqlReadKinds[k]
	}
	if read {
		return "read"
	}
	return "write"
}

// lowerName returns name in ASCII lower case in buf, or "" when it is
// longer than buf: no listed function has such a name.
func lowerName(buf []byte, name string) []byte {
	if len(name) > len(buf) {
		return nil
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return buf[:len(name)]
}

// sqlFunctionNamed returns the kind of the listed function named name, in
// any case (or that it may stand for, see sqlFunctionLike), and whether
// there is one.
func sqlFunctionNamed(name string) (string, bool) {
	if !isASCII(name) {
		k := sqlFunctionLike(name)
		return k, k != ""
	}
	var buf [64]byte
	lower := lowerName(buf[:min(len(buf), maxSQLFunctionName)], name)
	if lower == nil {
		return "", false
	}
	k, ok := sqlTables().functionByName[string(lower)]
	return k, ok
}

// sqlFunctionLike returns the kind of a listed function that a name with
// non-ASCII characters may stand for, or "". MySQL finds a loadable
// function (sys_exec) by its name in a collation that ignores accents as
// well as case, so that sÿs_exec may call it: each non-ASCII character
// (each byte of invalid UTF-8) stands for any one character of the name.
func sqlFunctionLike(name string) string {
	n := utf8.RuneCountInString(name)
	if n > maxSQLFunctionName {
		return ""
	}
	for _, f := range sqlTables().functionsOfLength[n] {
		if likeName(name, f.name) {
			return sqlFunctionKind(f)
		}
	}
	return ""
}

// likeName reports whether name, of as many characters as listed has
// bytes, stands for listed: its ASCII characters are listed's in any case.
func likeName(name, listed string) bool {
	j := 0
	for _, r := range name {
		if c := byte(r); r < utf8.RuneSelf && c != listed[j] && !(c >= 'A' && c <= 'Z' && c+'a'-'A' == listed[j]) {
			return false
		}
		j++
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// unescapeUnicodeName decodes the body of a PostgreSQL U&"…" name, whose
// escape character is esc: esc and four hexadecimal digits, esc + and six,
// or esc twice for esc itself. It reports false for a body it cannot
// decode, which PostgreSQL rejects.
func unescapeUnicodeName(body string, esc byte) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(body); {
		c := body[i]
		if c != esc {
			b.WriteByte(c)
			i++
			continue
		}
		n, j := 4, i+1
		switch {
		case j < len(body) && body[j] == esc:
			b.WriteByte(esc)
			i = j + 1
			continue
		case j < len(body) && body[j] == '+':
			n, j = 6, j+1
		}
		if j+n > len(body) {
			return "", false
		}
		r := rune(0)
		for _, d := range []byte(body[j : j+n]) {
			if !hexDigit[d] {
				return "", false
			}
			r = r<<4 | rune(unhex(d))
		}
		b.WriteRune(r)
		i = j + n
	}
	return b.String(), true
}
