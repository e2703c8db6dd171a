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

// sqlRank is each keyword's place in sqlKeywords.
var sqlRank = func() map[string]int {
	m := make(map[string]int, len(sqlKeywords))
	for i, k := range sqlKeywords {
		m[k] = i
	}
	return m
}()

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
// a quote in MySQL but not in standard SQL; PostgreSQL nests block comments,
// MySQL runs the text of /*! … */ and starts a -- comment only before white
// space, so that 1--1 is arithmetic), and a query may be written to read as
// harmless in one of them: SQLKinds reads the text both ways and reports
// the kinds of both readings.
//
// It reads text twice, however long (the names and numbers right before a
// $ once more), and returns at most len(sqlKeywords) kinds, so padding
// cannot hide a statement nor make the list long.
func SQLKinds(text string) []string {
	seen := map[string]bool{}
	readings := []bool{false}
	if mayReadOtherwise(text) {
		readings = append(readings, true) // where MySQL may read it otherwise
	}
	for _, mysql := range readings {
		s := sqlScanner{text: text, mysql: mysql}
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
	slices.SortFunc(kinds, func(a, b string) int { return sqlRank[a] - sqlRank[b] })
	return kinds
}

// mayReadOtherwise reports whether MySQL may read text otherwise than
// standard SQL: it has a backslash, a # or /* comment, a dollar sign
// (PostgreSQL's dollar quotes are no quotes to MySQL), a back quote (a
// quote only to MySQL) or a -- that is no comment to MySQL. Each byte is
// searched for on its own because the standard library's vectorized
// IndexByte is many times faster than ContainsAny over a long query.
func mayReadOtherwise(text string) bool {
	for _, c := range []byte("\\#$`") {
		if strings.IndexByte(text, c) >= 0 {
			return true
		}
	}
	if strings.Contains(text, "/*") {
		return true
	}
	for i := 0; ; {
		j := strings.Index(text[i:], "--")
		if j < 0 {
			return false
		}
		if i += j + 2; !mysqlCommentAfterDashes(text, i) {
			return true
		}
	}
}

// mysqlCommentAfterDashes reports whether MySQL reads the -- that ends
// before text[i] as a comment: only when white space, a control character
// or the end of the text follows it.
func mysqlCommentAfterDashes(text string, i int) bool {
	return i >= len(text) || text[i] <= ' ' || text[i] == 0x7f
}

type sqlScanner struct {
	text  string
	i     int
	mysql bool // MySQL's reading of strings and comments, else standard SQL's
	// tok is where a token starts at or before i with no quote, comment or
	// $ between: where afterName starts reading names.
	tok int
}

// statement reads one statement up to and including its semicolon and
// returns its kinds.
func (s *sqlScanner) statement() []string {
	var kinds []string
	depth := 0
	first := true       // the next word is the statement's first
	with := false       // the statement starts with WITH
	afterParen := false // the last token was an opening parenthesis
	mainFound := false  // a WITH statement's own kind is known
	for s.i < len(s.text) {
		if !first && !with {
			// Only a statement's end, a string or a comment matter now:
			// skip the rest fast.
			if s.i = skipBytes(s.text, s.i, &sqlQuiet); s.i >= len(s.text) {
				break
			}
		}
		c := s.text[s.i]
		switch {
		case c == ';':
			s.i++
			if with && !mainFound {
				kinds = append(kinds, "WITH")
			}
			return kinds
		case c == '(':
			depth++
			afterParen = true
			s.i++
			continue
		case c == ')':
			depth--
		case asciiSpace[c]:
			s.i = skipBytes(s.text, s.i+1, &asciiSpace)
			continue
		case c == '-' && strings.HasPrefix(s.text[s.i:], "--") && (!s.mysql || mysqlCommentAfterDashes(s.text, s.i+2)):
			s.skipLine()
			s.tok = s.i
			continue
		case c == '#' && s.mysql:
			s.skipLine()
			continue
		case c == '/' && strings.HasPrefix(s.text[s.i:], "/*!") && s.mysql:
			s.i += 3 // MySQL runs what this "comment" holds, after a version
			for s.i < len(s.text) && s.text[s.i] >= '0' && s.text[s.i] <= '9' {
				s.i++
			}
			continue
		case c == '/' && strings.HasPrefix(s.text[s.i:], "/*"):
			s.skipBlockComment()
			s.tok = s.i
			continue
		case c == '\'' || c == '"' || (c == '`' && s.mysql):
			s.skipQuoted(c)
			s.tok = s.i
			afterParen = false
			first = false
			continue
		case c == '$' && !s.mysql:
			switch {
			case s.afterName():
				s.i = skipBytes(s.text, s.i, &pgNameByte) // the rest of the name
			case s.skipDollarQuoted():
			default: // a parameter ($1) or a $ on its own
				if first {
					kinds = append(kinds, "SQL")
				}
				s.i = skipBytes(s.text, s.i+1, &asciiDigit)
			}
			s.tok = s.i
			afterParen = false
			first = false
			continue
		case isSQLWordStart(c):
			word := s.word()
			upper := strings.ToUpper(word)
			_, keyword := sqlRank[upper]
			switch {
			case first && upper == "WITH":
				with = true
			case first && keyword:
				kinds = append(kinds, upper)
			case first:
				kinds = append(kinds, "SQL")
			case with && depth == 0 && !mainFound && isWithBody(upper):
				kinds = append(kinds, upper)
				mainFound = true
			case with && afterParen && isDataModifying(upper):
				kinds = append(kinds, upper)
			}
			first, afterParen = false, false
			continue
		}
		if first && c != ')' {
			kinds = append(kinds, "SQL")
		}
		first, afterParen = false, false
		s.i++
	}
	if with && !mainFound {
		kinds = append(kinds, "WITH")
	}
	return kinds
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

func (s *sqlScanner) word() string {
	start := s.i
	for s.i < len(s.text) && isSQLWordByte(s.text[s.i]) {
		s.i++
	}
	return s.text[start:s.i]
}

func (s *sqlScanner) skipLine() {
	if j := strings.IndexByte(s.text[s.i:], '\n'); j >= 0 {
		s.i += j + 1
	} else {
		s.i = len(s.text)
	}
}

// skipBlockComment skips a /* */ comment, nested ones included as
// PostgreSQL reads them (MySQL ends it at the first */).
func (s *sqlScanner) skipBlockComment() {
	depth := 0
	for s.i < len(s.text) {
		switch {
		case strings.HasPrefix(s.text[s.i:], "/*") && (depth == 0 || !s.mysql):
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
			if s.mysql && q != '`' {
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

// afterName reports whether the $ at s.i goes on with a name (an
// identifier or keyword) that ends right before it, as PostgreSQL reads
// the text: a$$ is a name, not a name and a dollar quote.
func (s *sqlScanner) afterName() bool {
	return s.i > s.tok && pgNameByte[s.text[s.i-1]] && endsInName(s.text[s.tok:s.i])
}

// endsInName reports whether PostgreSQL reads code, text with no quote,
// comment or $ in it, as ending in a name. A name starts with a letter, an
// underscore or a byte of a non-ASCII character; a number starts with a
// digit and takes a fraction and an exponent (1.5e3), but no letter. What
// follows a number is a name, as PostgreSQL 14 reads 1e$$; later versions
// reject a name glued to a number, so that reading is the only one that
// runs.
func endsInName(code string) bool {
	name := false
	for j := 0; j < len(code); {
		switch c := code[j]; {
		case pgNameStart[c]:
			j = skipBytes(code, j+1, &pgNameByte)
			name = true
		case asciiDigit[c]:
			j = numberEnd(code, j)
			name = false
		default:
			j++
			name = false
		}
	}
	return name
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

// pgNameStart marks the bytes that start a name in PostgreSQL, pgNameByte
// those that go on with one, pgTagByte those that go on with the tag of a
// dollar quote, and asciiDigit the digits.
var pgNameStart, pgNameByte, pgTagByte, asciiDigit = func() (start, name, tag, digit [256]bool) {
	for c := range 256 {
		start[c] = c == '_' || c >= 0x80 || (c|0x20 >= 'a' && c|0x20 <= 'z')
		digit[c] = c >= '0' && c <= '9'
		tag[c] = start[c] || digit[c]
		name[c] = tag[c] || c == '$'
	}
	return
}()

// skipDollarQuoted skips a PostgreSQL dollar-quoted string ($$…$$ or
// $tag$…$tag$) and reports whether one starts here.
func (s *sqlScanner) skipDollarQuoted() bool {
	j := s.i + 1
	if j < len(s.text) && pgNameStart[s.text[j]] {
		j = skipBytes(s.text, j+1, &pgTagByte)
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
// once.
var MaxSQLKinds = len(sqlKeywords)
