package textfmt

import (
	"slices"
	"strings"
)

// sqlKeywords are the statement kinds SQLKinds reports, the most
// consequential first: that is the order SQLKinds returns them in, so that
// a query cut for length still shows what it destroys or changes. "SQL"
// stands for a statement whose first word is not one of them.
var sqlKeywords = []string{
	"DROP", "TRUNCATE", "DELETE", "ALTER", "GRANT", "REVOKE", "UPDATE", "INSERT", "MERGE", "REPLACE",
	"UPSERT", "CREATE", "RENAME", "COPY", "LOAD", "IMPORT", "ATTACH", "DETACH", "CALL", "DO", "EXECUTE",
	"EXEC", "PREPARE", "DEALLOCATE", "SQL", "SET", "RESET", "PRAGMA", "LOCK", "UNLOCK", "VACUUM",
	"ANALYZE", "OPTIMIZE", "REPAIR", "REINDEX", "CLUSTER", "REFRESH", "CHECKPOINT", "DISCARD",
	"COMMENT", "SECURITY", "REASSIGN", "NOTIFY", "LISTEN", "UNLISTEN", "USE", "BEGIN", "START",
	"SAVEPOINT", "RELEASE", "COMMIT", "END", "ROLLBACK", "ABORT", "DECLARE", "FETCH", "MOVE", "CLOSE",
	"HANDLER", "SELECT", "WITH", "VALUES", "TABLE", "SHOW", "DESCRIBE", "DESC", "EXPLAIN",
}

// SQLKinds returns the kinds of the statements in text, each once, the
// most consequential first (DROP before DELETE before UPDATE … before
// SELECT). A statement's kind is its first word, uppercased, when that is a
// statement keyword, and "SQL" otherwise; for a WITH statement it is the
// kind of the statement the common table expressions lead to, and a
// data-modifying expression inside one (WITH d AS (DELETE …)) adds its own
// kind. Comments, quoted strings and identifiers (single, double and back
// quotes, PostgreSQL dollar quotes) are skipped, so a semicolon or keyword
// inside them starts nothing. A $ right after a name goes on with the name,
// as in PostgreSQL (and MySQL): a$$ starts no dollar quote. Empty
// statements have no kind.
//
// Dialects disagree on where a string or comment ends (a backslash escapes
// a quote in MySQL and in PostgreSQL's E'…' strings but not in standard SQL;
// PostgreSQL nests block comments and ends a -- comment at a carriage
// return too, MySQL runs the text of /*! … */ and starts a -- comment only
// before white space, so that 1--1 is arithmetic; MySQL reads dollar quotes
// from version 8.1 on), and a query may be written to read as harmless in
// one of them: SQLKinds reads the text in each way it may be read otherwise
// (see sqlDialect) and reports the kinds of all the readings.
//
// It reads text at most four times, however long (the names and numbers
// right before a $ or E' once more), and returns at most len(sqlKeywords)
// kinds, so padding cannot hide a statement nor make the list long.
func SQLKinds(text string) []string {
	seen := map[string]bool{}
	for _, d := range sqlDialects(text) {
		s := sqlScanner{text: text, dialect: d}
		for s.i < len(s.text) {
			for _, k := range s.statement() {
				seen[k] = true
			}
		}
	}
	kinds := make([]string, 0, len(seen))
	for k := range seen {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b string) int { return sqlTables().kindRank[a] - sqlTables().kindRank[b] })
	return kinds
}

// sqlDialect is a way to read SQL: where its strings, quoted names and
// comments start and end.
type sqlDialect uint8

const (
	// standardSQL is SQL as the standard and SQLite write it, with
	// PostgreSQL's dollar quotes and nested block comments.
	standardSQL sqlDialect = iota
	// postgreSQL is PostgreSQL's SQL: standard SQL, with E'…' strings in
	// which a backslash escapes, and -- comments that end at a carriage
	// return too.
	postgreSQL
	// mySQL is MySQL's SQL before version 8.1, and MariaDB's: a backslash
	// escapes in strings, back quotes quote names, # starts a comment and
	// so does -- before white space, /*! … */ holds code, block comments do
	// not nest, and $ quotes nothing.
	mySQL
	// mySQLDollar is MySQL's SQL from version 8.1 on, which also reads
	// dollar quotes; their tags may start with a digit ($1$ … $1$).
	mySQLDollar
)

func (d sqlDialect) mysql() bool { return d >= mySQL }

// sqlDialects returns the dialects to read text in: standard SQL, and each
// other dialect where it may read text otherwise. PostgreSQL may only read
// otherwise a text with a carriage return after a --, or with a backslash
// and an E' or e'; MySQL a text with a backslash or one that
// mayReadOtherwise accepts, and MySQL from 8.1 on only such a text with a
// $. Each byte is searched for on its own because the standard library's
// vectorized IndexByte is many times faster than ContainsAny over a long
// query.
func sqlDialects(text string) []sqlDialect {
	dialects := []sqlDialect{standardSQL}
	backslash := strings.IndexByte(text, '\\') >= 0
	dashes := strings.Index(text, "--")
	if dashes >= 0 && strings.IndexByte(text[dashes:], '\r') >= 0 ||
		backslash && (strings.Contains(text, "E'") || strings.Contains(text, "e'")) {
		dialects = append(dialects, postgreSQL)
	}
	if backslash || mayReadOtherwise(text, dashes) {
		dialects = append(dialects, mySQL)
		if strings.IndexByte(text, '$') >= 0 {
			dialects = append(dialects, mySQLDollar)
		}
	}
	return dialects
}

// mayReadOtherwise reports whether MySQL may read text otherwise than
// standard SQL: it has a # or /* comment, a dollar sign (PostgreSQL's
// dollar quotes are not MySQL's), a back quote (a quote only to MySQL) or a
// -- that is no comment to MySQL, the first -- at dashes (-1 for none).
// (So does a backslash, which sqlDialects looks for.)
func mayReadOtherwise(text string, dashes int) bool {
	for _, c := range []byte("#$`") {
		if strings.IndexByte(text, c) >= 0 {
			return true
		}
	}
	if strings.Contains(text, "/*") {
		return true
	}
	for i := dashes; i >= 0; {
		if i += 2; !mysqlCommentAfterDashes(text, i) {
			return true
		}
		j := strings.Index(text[i:], "--")
		if j < 0 {
			return false
		}
		i += j
	}
	return false
}

// mysqlCommentAfterDashes reports whether MySQL reads the -- that ends
// before text[i] as a comment: only when white space, a control character
// or the end of the text follows it.
func mysqlCommentAfterDashes(text string, i int) bool {
	return i >= len(text) || text[i] <= ' ' || text[i] == 0x7f
}

type sqlScanner struct {
	text    string
	i       int
	dialect sqlDialect
	// tok is where a token starts at or before i with no quote, comment or
	// $ between: where afterName and afterE start reading names.
	tok int
}

// statement reads one statement up to and including its semicolon and
// returns its kinds.
func (s *sqlScanner) statement() []string {
	st := sqlStatement{}
	depth := 0
	first := true       // the next word is the statement's first
	with := false       // the statement starts with WITH
	afterParen := false // the last token was an opening parenthesis
	mainFound := false  // a WITH statement's own kind is known
	for s.i < len(s.text) {
		c := s.text[s.i]
		switch {
		case c == ';':
			s.i++
			st.end()
			if with && !mainFound {
				st.add("WITH")
			}
			return st.kinds
		case c == '(':
			st.other(c)
			depth++
			afterParen = true
			s.i++
			continue
		case c == ')':
			depth--
		case asciiSpace[c]:
			s.i = skipBytes(s.text, s.i+1, &asciiSpace)
			continue
		case c == '-' && strings.HasPrefix(s.text[s.i:], "--") && (!s.dialect.mysql() || mysqlCommentAfterDashes(s.text, s.i+2)):
			s.skipLine()
			s.tok = s.i
			continue
		case c == '#' && s.dialect.mysql():
			s.skipLine()
			s.tok = s.i
			continue
		case c == '/' && s.dialect.mysql() && (strings.HasPrefix(s.text[s.i:], "/*!") || strings.HasPrefix(s.text[s.i:], "/*M!")):
			// MySQL runs what this "comment" holds, after a version, and
			// MariaDB what /*M! … */ holds.
			s.i += 3
			if s.text[s.i-1] == 'M' {
				s.i++
			}
			s.i = skipBytes(s.text, s.i, &asciiDigit)
			s.tok = s.i
			continue
		case c == '*' && s.dialect.mysql() && strings.HasPrefix(s.text[s.i:], "*/"):
			// The end of an executable comment is no token (elsewhere
			// MySQL rejects it).
			s.i += 2
			s.tok = s.i
			continue
		case c == '/' && strings.HasPrefix(s.text[s.i:], "/*"):
			s.skipBlockComment()
			s.tok = s.i
			continue
		case c == '\'' && s.dialect == postgreSQL && s.afterE():
			st.other(c)
			s.skipEscapeString()
			s.tok = s.i
			afterParen = false
			first = false
			continue
		case c == '"' && !s.dialect.mysql() && s.afterUAmp():
			start := s.i
			s.skipQuoted(c)
			st.other(c)
			st.function(s.unicodeName(start))
			s.tok = s.i
			afterParen = false
			first = false
			continue
		case c == '\'' || c == '"' || (c == '`' && s.dialect.mysql()):
			start := s.i
			s.skipQuoted(c)
			st.other(c)
			if c != '\'' {
				st.function(quotedName(s.text[start:s.i], c))
			}
			s.tok = s.i
			afterParen = false
			first = false
			continue
		case c == '$' && s.dialect != mySQL:
			// In PostgreSQL a tag starts with a letter and $1 is a
			// parameter; in MySQL $1$ is a tag and $x a name.
			tagStart, tagByte, rest := &pgNameStartByte, &pgTagByte, &asciiDigit
			if s.dialect == mySQLDollar {
				tagStart, tagByte, rest = &mysqlTagByte, &mysqlTagByte, &pgNameByte
			}
			switch {
			case s.afterName():
				s.i = skipBytes(s.text, s.i, &pgNameByte) // the rest of the name
			case s.skipDollarQuoted(tagStart, tagByte):
				st.other(c)
			default: // a parameter, a name or a $ on its own
				if first {
					st.add("SQL")
				}
				st.other(c)
				s.i = skipBytes(s.text, s.i+1, rest)
			}
			s.tok = s.i
			afterParen = false
			first = false
			continue
		case isSQLWordStart(c) || c >= 0x80:
			word := s.word()
			if first {
				upper := strings.ToUpper(word)
				_, keyword := sqlTables().rank[upper]
				switch {
				case upper == "WITH":
					with = true
				case keyword:
					st.add(upper)
				default:
					st.add("SQL")
				}
				st.begin(word, upper)
				first, afterParen = false, false
				continue
			}
			if st.word(word, depth) {
				with = true // the statement EXPLAIN ANALYZE runs starts with WITH
			}
			if with {
				switch upper := strings.ToUpper(word); {
				case depth == 0 && !mainFound && isWithBody(upper):
					st.add(upper)
					mainFound = true
				case afterParen && isDataModifying(upper):
					st.add(upper)
				}
			}
			afterParen = false
			continue
		}
		if first && c != ')' {
			st.add("SQL")
		}
		st.other(c)
		first, afterParen = false, false
		s.i++
	}
	st.end()
	if with && !mainFound {
		st.add("WITH")
	}
	return st.kinds
}

// sqlStatement is what statement has learnt of the statement it reads
// beyond its first word: its kinds so far, and what the last tokens leave
// open.
type sqlStatement struct {
	kinds []string
	seen  [4]uint64 // the ranks of kinds, so that each is listed once however often it recurs
	verb  string    // the first word, upper case
	prev  sqlWord   // the last token, when it was a word; sqlNoWord otherwise
	into  bool      // the last word was an INTO that a SELECT, TABLE or VALUES has
	copy  bool      // the last word was a COPY statement's own TO or FROM
	// explain is set until the statement that an EXPLAIN, DESC,
	// DESCRIBE or MariaDB's ANALYZE statement is about starts; analyze
	// when that statement runs.
	explain, analyze bool
}

// add adds a kind, unless the statement has it already.
func (st *sqlStatement) add(kind string) {
	r := sqlTables().kindRank[kind]
	if bit := uint64(1) << (r % 64); st.seen[r/64]&bit == 0 {
		st.seen[r/64] |= bit
		st.kinds = append(st.kinds, kind)
	}
}

// begin starts a statement whose first word is word, verb in upper case.
func (st *sqlStatement) begin(word, verb string) {
	st.verb = verb
	var kind string
	st.prev, kind = sqlWordOf(word)
	if kind != "" { // a call no dialect takes as a statement, but a call all the same
		st.add(kind)
	}
	switch verb {
	case "ATTACH": // SQLite opens or creates the database file it names
		st.add(SQLServerFile)
	case "EXPLAIN", "DESC", "DESCRIBE":
		st.explain = true
	case "ANALYZE", "ANALYSE": // MariaDB's ANALYZE SELECT … runs it
		st.explain, st.analyze = true, true
	}
}

// word reads a word after the first at paren depth depth, and reports
// whether it is the WITH that starts the statement an EXPLAIN ANALYZE
// runs.
func (st *sqlStatement) word(word string, depth int) bool {
	w, kind := sqlWordOf(word)
	switch {
	case st.into:
		st.into = false
		switch w {
		case sqlOutfile:
			st.add(SQLIntoOutfile)
		case sqlDumpfile:
			st.add(SQLIntoDumpfile)
		default:
			st.add("CREATE") // SELECT … INTO t creates the table t
		}
	case st.copy:
		st.copy = false
		switch w {
		case sqlProgram:
			st.add(SQLProgram)
		case sqlStdin, sqlStdout:
		default:
			st.add(SQLServerFile)
		}
	}
	if kind != "" {
		st.add(kind)
	}
	with := false
	switch {
	case w == sqlInto && st.verb == "VACUUM": // SQLite's VACUUM INTO 'file'
		st.add(SQLServerFile)
	case w == sqlInto:
		// LOAD DATA … INTO TABLE t and INSERT … INTO t write to t.
		st.into = !st.prev.beforeInto() && st.verb != "LOAD"
	case (w == sqlTo || w == sqlFrom) && st.verb == "COPY" && depth == 0:
		st.copy = true
	case w == sqlInfile && st.verb == "LOAD" && st.prev != sqlLocal:
		st.add(SQLServerFile)
	case w == sqlAnalyze && st.explain:
		st.analyze = true
	case w.starts() && st.explain:
		st.explain = false
		upper := strings.ToUpper(word)
		switch {
		case !st.analyze || st.verb == "ANALYZE" && upper == "TABLE":
		case upper == "WITH":
			with = true
		default:
			st.add(upper)
		}
	}
	st.prev = w
	return with
}

// function reads a quoted name, "" for one that cannot be read.
func (st *sqlStatement) function(name string) {
	if kind, ok := sqlFunctionNamed(name); ok {
		st.add(kind)
	}
}

// other reads a token that is no word: c is its first byte.
func (st *sqlStatement) other(c byte) {
	switch {
	case st.into && c == '@': // MySQL's SELECT … INTO @v sets a variable
		st.add("SET")
	case st.into:
		st.add("CREATE")
	case st.copy: // a file name, or what stands for one
		st.add(SQLServerFile)
	}
	st.into, st.copy = false, false
	st.prev = sqlNoWord
}

// end ends the statement.
func (st *sqlStatement) end() { st.other(';') }

// sqlWord is a word that matters after a statement's first: the words that
// change what the next one means, then those that lead to an INTO that
// creates nothing, then those that start a statement.
type sqlWord uint8

const (
	sqlNoWord    sqlWord = iota // not a word
	sqlOtherWord                // a word of no meaning here
	sqlInto
	sqlTo
	sqlFrom
	sqlOutfile
	sqlDumpfile
	sqlProgram
	sqlStdin
	sqlStdout
	sqlInfile
	sqlLocal
	sqlAnalyze
	sqlBeforeInto       // a word after which INTO names the table a statement writes to: IGNORE, COPY …
	sqlStartsBeforeInto // INSERT, REPLACE, MERGE, UPSERT: such a word that starts a statement too
	sqlStarts           // a word that starts a statement EXPLAIN ANALYZE may run
)

// beforeInto reports whether INTO after w names the table a statement
// writes to (INSERT INTO, INSERT IGNORE INTO, INSERT OR ROLLBACK INTO,
// MERGE INTO, COPY INTO …) rather than one a SELECT creates.
func (w sqlWord) beforeInto() bool { return w == sqlBeforeInto || w == sqlStartsBeforeInto }

// starts reports whether w starts a statement that EXPLAIN ANALYZE may run.
func (w sqlWord) starts() bool { return w == sqlStarts || w == sqlStartsBeforeInto }

// sqlName is what a word in lower case means after a statement's first,
// and the kind of the listed function it names, if any.
type sqlName struct {
	word sqlWord
	kind string
}

// sqlWordOf returns what word means after a statement's first word, and
// the kind of the listed function it names, if any.
func sqlWordOf(word string) (sqlWord, string) {
	if len(word) < 2 { // no word in the tables is shorter
		return sqlOtherWord, ""
	}
	if !isASCII(word) { // keywords are ASCII
		return sqlOtherWord, sqlFunctionLike(word)
	}
	// A letter's low five bits are the same in either case, so the hint
	// ignores case; a digit or _ may share them with a letter, which only
	// costs a lookup.
	if len(word) >= len(sqlTables().nameHint) || sqlTables().nameHint[len(word)][word[0]&31]&(1<<(word[1]&31)) == 0 {
		return sqlOtherWord, ""
	}
	var buf [64]byte
	lower := lowerName(buf[:], word)
	if lower == nil {
		return sqlOtherWord, ""
	}
	n, ok := sqlTables().names[string(lower)]
	if !ok {
		return sqlOtherWord, ""
	}
	return n.word, n.kind
}

// quotedName returns the name a quoted identifier q…q stands for.
func quotedName(quoted string, q byte) string {
	body := quoted[1:]
	if len(body) > 0 && body[len(body)-1] == q {
		body = body[:len(body)-1]
	}
	if strings.IndexByte(body, q) >= 0 {
		body = strings.ReplaceAll(body, string([]byte{q, q}), string(q))
	}
	return body
}

// afterUAmp reports whether the quote at s.i starts a PostgreSQL U&"…"
// name: whether U& comes right before it, the U a name of its own.
func (s *sqlScanner) afterUAmp() bool {
	i := s.i
	return i-2 >= s.tok && s.text[i-1] == '&' && s.text[i-2]|0x20 == 'u' && pgTrailingName(s.text[s.tok:i-1]) == i-2-s.tok
}

// unicodeName returns the name that the U&"…" name from start to s.i
// stands for: its escapes decoded with \ or with the character a UESCAPE
// clause after it names. It returns "" for a name it cannot decode.
func (s *sqlScanner) unicodeName(start int) string {
	body := quotedName(s.text[start:s.i], '"')
	esc := byte('\\')
	j := skipBytes(s.text, s.i, &asciiSpace)
	if j+len("uescape") <= len(s.text) && strings.EqualFold(s.text[j:j+len("uescape")], "uescape") {
		k := skipBytes(s.text, j+len("uescape"), &asciiSpace)
		if k+3 <= len(s.text) && s.text[k] == '\'' && s.text[k+2] == '\'' {
			esc = s.text[k+1]
		}
	}
	name, ok := unescapeUnicodeName(body, esc)
	if !ok {
		return ""
	}
	return name
}

// isWithBody reports whether word starts the statement a WITH clause leads to.
func isWithBody(word string) bool {
	switch word {
	case "SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "VALUES", "TABLE", "REPLACE":
		return true
	}
	return false
}

func isDataModifying(word string) bool {
	switch word {
	case "INSERT", "UPDATE", "DELETE", "MERGE":
		return true
	}
	return false
}

// sqlQuiet marks the bytes that cannot end a statement or start a string or
// comment.
var sqlQuiet = func() (t [256]bool) {
	for i := range t {
		t[i] = true
	}
	for _, c := range []byte(";'\"`$-/#") {
		t[c] = false
	}
	return t
}()

// word reads a name or keyword: ASCII letters, digits and underscores,
// and the bytes of non-ASCII characters, which PostgreSQL and MySQL take
// into names.
func (s *sqlScanner) word() string {
	start := s.i
	for s.i < len(s.text) && (isSQLWordByte(s.text[s.i]) || s.text[s.i] >= 0x80) {
		s.i++
	}
	return s.text[start:s.i]
}

// skipLine skips a -- or # comment: to the end of the line, which in
// PostgreSQL a carriage return ends too.
func (s *sqlScanner) skipLine() {
	// The search stops at the line's end: searching on to a line feed
	// that is not there for each of many comments ended by carriage
	// returns would read the text once per comment.
	j := -1
	if s.dialect == postgreSQL {
		j = strings.IndexAny(s.text[s.i:], "\r\n")
	} else {
		j = strings.IndexByte(s.text[s.i:], '\n')
	}
	if j < 0 {
		s.i = len(s.text)
		return
	}
	s.i += j + 1
}

// skipBlockComment skips a /* */ comment, nested ones included as
// PostgreSQL reads them (MySQL ends it at the first */).
func (s *sqlScanner) skipBlockComment() {
	depth := 0
	for s.i < len(s.text) {
		switch {
		case strings.HasPrefix(s.text[s.i:], "/*") && (depth == 0 || !s.dialect.mysql()):
			depth++
			s.i += 2
		case strings.HasPrefix(s.text[s.i:], "*/"):
			depth--
			s.i += 2
			if depth == 0 {
				return
			}
		default:
			s.i++
		}
	}
}

// skipQuoted skips a string or quoted identifier. A doubled quote stands
// for the quote; in MySQL strings a backslash escapes the next character.
func (s *sqlScanner) skipQuoted(q byte) {
	s.i++
	for s.i < len(s.text) {
		switch s.text[s.i] {
		case '\\':
			if s.dialect.mysql() && q != '`' {
				s.i += 2
				continue
			}
		case q:
			if s.i+1 < len(s.text) && s.text[s.i+1] == q {
				s.i += 2
				continue
			}
			s.i++
			return
		}
		s.i++
	}
	s.i = min(s.i, len(s.text))
}

// skipEscapeString skips a PostgreSQL E'…' string, in which a backslash
// escapes the next character, and the strings that go on with it: a string
// that follows it after white space holding a line break (and -- comments)
// is part of it, read the same way.
func (s *sqlScanner) skipEscapeString() {
	for s.i < len(s.text) && s.text[s.i] == '\'' {
		s.i++
		for s.i < len(s.text) {
			if c := s.text[s.i]; c == '\\' {
				s.i += 2
				continue
			} else if c == '\'' {
				if s.i+1 < len(s.text) && s.text[s.i+1] == '\'' {
					s.i += 2
					continue
				}
				break
			}
			s.i++
		}
		if s.i >= len(s.text) {
			s.i = len(s.text)
			return
		}
		s.i++ // the closing quote
		// Look for white space with a line break, then a quote.
		j, lineBreak := s.i, false
		for j < len(s.text) {
			if c := s.text[j]; asciiSpace[c] {
				lineBreak = lineBreak || c == '\n' || c == '\r'
				j++
			} else if strings.HasPrefix(s.text[j:], "--") {
				k := strings.IndexAny(s.text[j:], "\r\n")
				if k < 0 {
					return
				}
				j += k
			} else {
				break
			}
		}
		if !lineBreak || j >= len(s.text) || s.text[j] != '\'' {
			return
		}
		s.i = j
	}
}

// afterName reports whether the $ at s.i goes on with a name (an
// identifier or keyword) that ends right before it, as the dialect reads
// the text: a$$ is a name, not a name and a dollar quote.
func (s *sqlScanner) afterName() bool {
	if s.i <= s.tok {
		return false
	}
	if s.dialect.mysql() {
		c := s.text[s.i-1]
		return (pgNameByte[c] || c == '.' || c == '@') && mysqlInName(s.text[s.tok:s.i])
	}
	return pgNameByte[s.text[s.i-1]] && pgTrailingName(s.text[s.tok:s.i]) >= 0
}

// afterE reports whether the quote at s.i starts an E'…' string: whether
// an E that is a name of its own comes right before it.
func (s *sqlScanner) afterE() bool {
	return s.i > s.tok && s.text[s.i-1]|0x20 == 'e' && pgTrailingName(s.text[s.tok:s.i]) == s.i-1-s.tok
}

// pgTrailingName returns where the name that code ends in starts, as
// PostgreSQL reads code (text with no quote, comment or $ in it), or -1
// when code does not end in a name. A name starts with a letter, an
// underscore or a byte of a non-ASCII character; a number starts with a
// digit and takes a fraction and an exponent (1.5e3), but no letter. What
// follows a number is a name, as PostgreSQL 14 reads 1e$$; later versions
// reject a name glued to a number, so that reading is the only one that
// runs.
func pgTrailingName(code string) int {
	start := -1
	for j := 0; j < len(code); {
		switch c := code[j]; {
		case pgNameStartByte[c]:
			start = j
			j = skipBytes(code, j+1, &pgNameByte)
		case asciiDigit[c]:
			j = numberEnd(code, j)
			start = -1
		default:
			j++
			start = -1
		}
	}
	return start
}

// mysqlInName reports whether MySQL reads a $ right after code (text with
// no quote, comment or $ in it) as part of a name rather than as the start
// of a token: after a name or after a number that the $ makes a name (1$
// and 0x1F$ are names, 1.5 and 1e5 are numbers), after a dot that is no
// decimal point (t.$x, t.5$x), and after @ (a variable or host name).
func mysqlInName(code string) bool {
	in := false // the last token is a name
	for j := 0; j < len(code); {
		switch c := code[j]; {
		case asciiDigit[c]:
			j, in = mysqlNumber(code, j)
		case c == '.':
			next := byte('$') // what follows code
			if j+1 < len(code) {
				next = code[j+1]
			}
			switch {
			case !pgNameByte[next]:
				j, in = j+1, false
			case in || !asciiDigit[next]: // a name follows, even one that starts with a digit
				j, in = skipBytes(code, j+1, &pgNameByte), true
			default: // .5
				j, in = mysqlRealEnd(code, j+1), false
			}
		case c == '@':
			for j < len(code) && code[j] == '@' {
				j++
			}
			j, in = skipBytes(code, j, &mysqlHostByte), true
		case pgNameByte[c]:
			j, in = skipBytes(code, j+1, &pgNameByte), true
		default:
			j, in = j+1, false
		}
	}
	return in
}

// mysqlNumber reads the number or name that starts at code[j], a digit, as
// MySQL reads it, and returns where it ends and whether it is a name. A $
// comes right after code.
func mysqlNumber(code string, j int) (int, bool) {
	if code[j] == '0' && j+1 < len(code) && (code[j+1] == 'x' || code[j+1] == 'b') {
		digits := &hexDigit
		if code[j+1] == 'b' {
			digits = &binaryDigit
		}
		if k := skipBytes(code, j+2, digits); k-j >= 3 && k < len(code) && !pgNameByte[code[k]] {
			return k, false // 0x1F, 0b101
		}
		return skipBytes(code, j, &pgNameByte), true // 0x1Fg, 0x
	}
	k := skipBytes(code, j, &asciiDigit)
	if k == len(code) {
		return k, true // the $ makes it a name
	}
	switch c := code[k]; {
	case c == '.':
		return mysqlRealEnd(code, k+1), false
	case !pgNameByte[c]:
		return k, false
	case c|0x20 == 'e':
		e := k + 1
		if e+1 < len(code) && (code[e] == '+' || code[e] == '-') && asciiDigit[code[e+1]] {
			e++
		}
		if e < len(code) && asciiDigit[code[e]] {
			return skipBytes(code, e, &asciiDigit), false // 1e5
		}
	}
	return skipBytes(code, k, &pgNameByte), true // 1a, 1e
}

// mysqlRealEnd returns where the number whose fraction starts at code[j]
// ends.
func mysqlRealEnd(code string, j int) int {
	j = skipBytes(code, j, &asciiDigit)
	if j < len(code) && code[j]|0x20 == 'e' {
		e := j + 1
		if e < len(code) && (code[e] == '+' || code[e] == '-') {
			e++
		}
		if e < len(code) && asciiDigit[code[e]] {
			return skipBytes(code, e, &asciiDigit)
		}
	}
	return j
}

// numberEnd returns where the number that starts at code[j], a digit,
// ends.
func numberEnd(code string, j int) int {
	j = skipBytes(code, j, &asciiDigit)
	if j < len(code) && code[j] == '.' {
		j = skipBytes(code, j+1, &asciiDigit)
	}
	if j < len(code) && code[j]|0x20 == 'e' {
		k := j + 1
		if k < len(code) && (code[k] == '+' || code[k] == '-') {
			k++
		}
		if k < len(code) && asciiDigit[code[k]] {
			j = skipBytes(code, k, &asciiDigit)
		}
	}
	return j
}

// pgNameStartByte marks the bytes that start a name in PostgreSQL,
// pgNameByte those that go on with one (in MySQL too), pgTagByte those that
// go on with the tag of a dollar quote, mysqlTagByte those of a tag in
// MySQL, and mysqlHostByte those of a host or variable name after @.
var pgNameStartByte, pgNameByte, pgTagByte, mysqlTagByte, mysqlHostByte = func() (start, name, tag, mysqlTag, host [256]bool) {
	for c := range 256 {
		start[c] = c == '_' || c >= 0x80 || (c|0x20 >= 'a' && c|0x20 <= 'z')
		tag[c] = start[c] || asciiDigit[c]
		name[c] = tag[c] || c == '$'
		host[c] = name[c] || c == '.'
	}
	return start, name, tag, tag, host
}()

// asciiDigit, hexDigit and binaryDigit mark the digits of each base.
var asciiDigit, hexDigit, binaryDigit = func() (dec, hex, bin [256]bool) {
	for c := range 256 {
		dec[c] = c >= '0' && c <= '9'
		hex[c] = dec[c] || (c|0x20 >= 'a' && c|0x20 <= 'f')
		bin[c] = c == '0' || c == '1'
	}
	return
}()

// skipDollarQuoted skips a dollar-quoted string ($$…$$ or $tag$…$tag$) and
// reports whether one starts here. The tag starts with a byte of tagStart
// and goes on with bytes of tagByte.
func (s *sqlScanner) skipDollarQuoted(tagStart, tagByte *[256]bool) bool {
	j := s.i + 1
	if j < len(s.text) && tagStart[s.text[j]] {
		j = skipBytes(s.text, j+1, tagByte)
	}
	if j >= len(s.text) || s.text[j] != '$' {
		return false
	}
	tag := s.text[s.i : j+1]
	if end := strings.Index(s.text[j+1:], tag); end >= 0 {
		s.i = j + 1 + end + len(tag)
	} else {
		s.i = len(s.text)
	}
	return true
}

// MaxSQLKinds is the most kinds SQLKinds returns: each statement keyword
// and each side effect once.
var MaxSQLKinds = len(sqlSideEffects) + len(sqlFunctions) + len(sqlKeywords)
