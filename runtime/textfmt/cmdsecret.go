package textfmt

import (
	"slices"
	"strings"
)

// Command lines carry credentials in the flags of the programs that take
// them, where no name says so: mysql -pS3cret, sshpass -p 'Winter2024!',
// curl -u admin:Hunter2x, docker login -p …, redis-cli -a …. When the
// scanner meets such a program's name as a command, it reads the words of
// that simple command (to the next unquoted ;, |, &, ), backquote or line
// break) once, as a shell splits them, and keeps the values of those
// flags as spans that are added as the scan reaches them.

// commandKinds is a set of programs whose credential flags a simple
// command is read for.
type commandKinds uint32

const (
	cmdMySQL     commandKinds = 1 << iota // -pPASS, attached only: -p alone prompts
	cmdSSHPass                            // -p PASS
	cmdRedis                              // -a PASS, --pass PASS
	cmdMongo                              // -p PASS
	cmdLogin                              // … login -p PASS, --password PASS
	cmdCurl                               // -u USER:PASS, --user, -U, --proxy-user
	cmdSMB                                // -U USER%PASS, --user
	cmdOpenSSL                            // -k PASS, -K KEY, -pass pass:PASS, -passin, -passout
	cmdHtpasswd                           // -b FILE USER PASS, -nb USER PASS
	cmdLDAP                               // -w PASS
	cmdZip                                // -P PASS
	cmd7z                                 // -pPASS
	cmdSQLCmd                             // -P PASS
	cmdSSHKeygen                          // -N PASS, -P PASS
	cmdGPG                                // --passphrase PASS
	cmdKeytool                            // -storepass PASS, -keypass, -srcstorepass, -deststorepass
	cmdSQLPlus                            // USER/PASS@DB, the first word that is no flag
)

// commandNames are the programs read for credential flags and their
// kinds, sorted by name: commandKindsOf searches them, and their first
// two bytes mark the pairs that may start one (see triggerPair). An
// array of constants, so that it costs a process nothing to start.
var commandNames = [...]commandName{
	{"7z", cmd7z}, {"7za", cmd7z}, {"7zr", cmd7z}, {"7zz", cmd7z},
	{"bcp", cmdSQLCmd},
	{"curl", cmdCurl},
	{"gpg", cmdGPG}, {"gpg2", cmdGPG},
	{"htpasswd", cmdHtpasswd},
	{"keytool", cmdKeytool},
	{"ldapadd", cmdLDAP}, {"ldapcompare", cmdLDAP}, {"ldapdelete", cmdLDAP}, {"ldapexop", cmdLDAP},
	{"ldapmodify", cmdLDAP}, {"ldapmodrdn", cmdLDAP}, {"ldappasswd", cmdLDAP}, {"ldapsearch", cmdLDAP},
	{"ldapwhoami", cmdLDAP},
	{"login", cmdLogin},
	{"mariadb", cmdMySQL}, {"mariadb-admin", cmdMySQL}, {"mariadb-dump", cmdMySQL},
	{"mongo", cmdMongo}, {"mongodump", cmdMongo}, {"mongoexport", cmdMongo}, {"mongofiles", cmdMongo},
	{"mongoimport", cmdMongo}, {"mongorestore", cmdMongo}, {"mongosh", cmdMongo}, {"mongostat", cmdMongo},
	{"mongotop", cmdMongo},
	{"mysql", cmdMySQL}, {"mysqladmin", cmdMySQL}, {"mysqlbinlog", cmdMySQL}, {"mysqlcheck", cmdMySQL},
	{"mysqldump", cmdMySQL}, {"mysqlimport", cmdMySQL}, {"mysqlpump", cmdMySQL}, {"mysqlshow", cmdMySQL},
	{"openssl", cmdOpenSSL},
	{"redis-cli", cmdRedis},
	{"smbclient", cmdSMB},
	{"sqlcmd", cmdSQLCmd},
	{"sqlplus", cmdSQLPlus},
	{"ssh-keygen", cmdSSHKeygen},
	{"sshpass", cmdSSHPass},
	{"unzip", cmdZip},
	{"valkey-cli", cmdRedis},
	{"zip", cmdZip},
}

// A commandName is a program's name and its kinds.
type commandName struct {
	name  string
	kinds commandKinds
}

// commandKindsOf returns the kinds of the program invoked as name, or 0.
func commandKindsOf(name string) commandKinds {
	if !commandPairAt(name, 0) {
		return 0
	}
	i, found := slices.BinarySearchFunc(commandNames[:], name, func(e commandName, name string) int {
		return strings.Compare(e.name, name)
	})
	if !found {
		return 0
	}
	return commandNames[i].kinds
}

// maxCommandName is the length of the longest of commandNames.
const maxCommandName = len("mariadb-admin")

// commandNameAt returns the kinds of the program named by the word that
// starts at s[i] when it is invoked as a command there (the word starts
// the text or follows white space or what starts a command, and white
// space follows it), and the end of the name.
func commandNameAt(s string, i int) (commandKinds, int) {
	if !commandPairAt(s, i) || i > 0 && !commandStart[s[i-1]] {
		return 0, i
	}
	end := i
	for end < len(s) && end-i <= maxCommandName && (alnum[s[end]] || s[end] == '-') {
		end++
	}
	if end-i > maxCommandName || end >= len(s) || s[end] != ' ' && s[end] != '\t' {
		return 0, i
	}
	kinds := commandKindsOf(s[i:end])
	if kinds == cmdLogin && (i == 0 || s[i-1] != ' ' && s[i-1] != '\t') {
		return 0, i // login is a subcommand: docker login, az login
	}
	return kinds, end
}

// quotedCommandAt reports whether s[i:] starts a JSON string that holds
// just the name of a program of commandKindsOf ("mysql", "login"): an item
// of an argument vector (see argvSecrets), where a trigger must be found
// as in text.
func quotedCommandAt(s string, i int) bool {
	if i == 0 || s[i-1] != '"' {
		return false
	}
	end := i
	for end < len(s) && end-i <= maxCommandName && (alnum[s[end]] || s[end] == '-') {
		end++
	}
	return end < len(s) && s[end] == '"' && commandKindsOf(s[i:end]) != 0
}

var (
	// commandStart holds what a command's name follows: white space, what
	// ends or opens a command, a quote (sh -c "…") and the / of a path.
	commandStart = byteClass(" \t\n\r;|&(`\"'/")
	// commandEnd ends a simple command outside quotes.
	commandEnd = byteClass(";|&)`\n\r")
	// wordEndShell ends an unquoted word.
	wordEndShell = byteClass(" \t;|&()`<>\n\r")
)

// maxCommandWords bounds how many of a command's words are read: a
// credential flag further from its program's name is not looked for. It
// counts words, not bytes, so that text redacted once (where a value of
// any length reads ‹secret, N characters›) is read as it was.
const maxCommandWords = 256

// shellWord is a word of a command line: s[start:end] as written, and
// value, what it says: the inside of its quotes when one quoted part is
// the whole word, or the word.
type shellWord struct {
	start, end int
	value      Span
}

// nextShellWord returns the word that starts at or after i, before lim,
// and whether there is one: none when a simple command's end comes first.
func nextShellWord(s string, i, lim int) (shellWord, bool) {
	for i < lim {
		if s[i] == ' ' || s[i] == '\t' {
			i++
		} else if s[i] == '\\' && i+1 < lim && s[i+1] == '\n' {
			i += 2 // a line continued
		} else {
			break
		}
	}
	if i >= lim || commandEnd[s[i]] {
		return shellWord{}, false
	}
	start, quoted := i, 0
	for i < lim && !wordEndShell[s[i]] {
		switch s[i] {
		case '\'', '"':
			close := closingQuote(s, i, min(lim, i+1+maxNamedValue))
			if close < 0 {
				// A quote left open is the text's around the command
				// (to run 'htpasswd … pw'): it ends the word.
				lim = i
				continue
			}
			i = close + 1
			quoted++
		default:
			if s[i] == placeholderOpen[0] {
				if n := placeholderAt(s, i); n > 0 {
					i += n
					quoted += 2
					continue
				}
			}
			quoted += 2 // more than one part
			i++
		}
	}
	if i == start {
		return shellWord{}, false
	}
	w := shellWord{start: start, end: i, value: Span{start, i}}
	if q := s[start]; quoted == 1 && (q == '"' || q == '\'') && i-start >= 2 && s[i-1] == q {
		w.value = Span{start + 1, i - 1}
	}
	return w, true
}

// closingQuote returns the index of the quote that closes the one at
// s[i], before lim, or -1. In double quotes a backslash escapes.
func closingQuote(s string, i, lim int) int {
	q := s[i]
	for j := i + 1; j < lim; j++ {
		switch s[j] {
		case q:
			return j
		case '\\':
			if q == '"' {
				j++
			}
		}
	}
	return -1
}

// unquoted returns the span s[sp.Start:sp.End] without the quotes around
// it, when one pair of quotes is all around it.
func unquoted(s string, sp Span) Span {
	if sp.End-sp.Start >= 2 {
		if q := s[sp.Start]; (q == '"' || q == '\'') && s[sp.End-1] == q && strings.IndexByte(s[sp.Start+1:sp.End-1], q) < 0 {
			return Span{sp.Start + 1, sp.End - 1}
		}
	}
	return sp
}

// commandSecrets reads the words of the simple command whose program,
// of kinds, is named by s[from:nameEnd], and appends the spans of the
// credentials its flags carry. It returns the spans and where the simple
// command ends.
func commandSecrets(s string, kinds commandKinds, nameEnd int, spans []Span) ([]Span, int) {
	lim := len(s)
	// takesValue is the kind of value the next word is when the word
	// before was a flag that takes one.
	takesValue := valueNone
	positional, htpasswdBatch, htpasswdNoFile := 0, false, false
	i := nameEnd
	for range maxCommandWords {
		w, ok := nextShellWord(s, i, lim)
		if !ok {
			break
		}
		i = w.end
		word := s[w.start:w.end]
		if takesValue != valueNone {
			kind := takesValue
			takesValue = valueNone
			if !strings.HasPrefix(word, "-") || kind == valueWhole {
				spans = appendValue(s, spans, w.value, kind)
				continue
			}
		}
		if !strings.HasPrefix(word, "-") || word == "-" {
			positional++
			if kinds&cmdHtpasswd != 0 && htpasswdBatch && (positional == 3 || htpasswdNoFile && positional == 2) {
				spans = appendValue(s, spans, w.value, valueWhole)
			}
			if kinds&cmdSQLPlus != 0 && positional == 1 {
				spans = appendValue(s, spans, w.value, valueLogon)
			}
			continue
		}
		if word == "--" {
			continue
		}
		if kind := wholeFlagValue(kinds, word); kind != valueNone {
			takesValue = kind
			continue
		}
		flag, value, attached := splitFlag(word)
		kind := flagValue(kinds, flag, attached)
		if kinds&cmdHtpasswd != 0 && !strings.HasPrefix(word, "--") {
			htpasswdBatch = htpasswdBatch || strings.IndexByte(word, 'b') > 0
			htpasswdNoFile = htpasswdNoFile || strings.IndexByte(word, 'n') > 0
		}
		if kind == valueNone && attached && !strings.HasPrefix(word, "--") && lettersOnly(word[1:]) {
			// A cluster of flags (curl -su USER:PASS) whose last takes
			// the next word.
			kind, attached = flagValue(kinds, "-"+word[len(word)-1:], false), false
		}
		switch {
		case kind == valueNone:
		case attached:
			start := w.start + len(word) - len(value)
			spans = appendValue(s, spans, unquoted(s, Span{start, w.end}), kind)
		default:
			takesValue = kind
		}
	}
	return spans, i
}

// lettersOnly reports whether s is ASCII letters only.
func lettersOnly(s string) bool {
	for i := range len(s) {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// A flag's value is a credential whole, or the part after a user name.
const (
	valueNone = iota
	valueWhole
	valueAfterColon   // curl -u user:password
	valueAfterPercent // smbclient -U user%password
	valueAfterPass    // openssl -passin pass:password
	valueLogon        // sqlplus user/password@db
)

// splitFlag splits a flag word into the flag and what is attached to it:
// --user=bob:pw is --user and bob:pw, -pS3cret is -p and S3cret, -u is -u
// and nothing.
func splitFlag(word string) (flag, value string, attached bool) {
	if strings.HasPrefix(word, "--") {
		if eq := strings.IndexByte(word, '='); eq > 0 {
			return word[:eq], word[eq+1:], true
		}
		return word, "", false
	}
	if len(word) > 2 && word[1] != '-' {
		return word[:2], word[2:], true
	}
	return word, "", false
}

// flagValue returns the kind of credential the flag of a program of kinds
// carries, or valueNone. attached says the value is written onto the flag
// (-pS3cret, --user=bob:pw); a single-dash word that is no flag of kinds
// taken whole (-storepass, -passin) is looked up whole.
func flagValue(kinds commandKinds, flag string, attached bool) int {
	has := func(k commandKinds) bool { return kinds&k != 0 }
	switch flag {
	case "-p":
		switch {
		case has(cmdMySQL) || has(cmd7z):
			if attached {
				return valueWhole
			}
		case has(cmdSSHPass) || has(cmdMongo) || has(cmdLogin):
			return valueWhole
		}
	case "--password":
		if has(cmdMongo) || has(cmdLogin) || has(cmdMySQL) && attached {
			return valueWhole
		}
	case "-a":
		if has(cmdRedis) {
			return valueWhole
		}
	case "--pass":
		if has(cmdRedis) {
			return valueWhole
		}
	case "-u", "-U", "--user", "--proxy-user":
		switch {
		case has(cmdCurl):
			return valueAfterColon
		case has(cmdSMB) && (flag == "-U" || flag == "--user"):
			return valueAfterPercent
		}
	case "-k", "-K":
		if has(cmdOpenSSL) {
			return valueWhole
		}
	case "-w":
		if has(cmdLDAP) {
			return valueWhole
		}
	case "-P":
		if has(cmdZip) || has(cmdSQLCmd) || has(cmdSSHKeygen) {
			return valueWhole
		}
	case "-N":
		if has(cmdSSHKeygen) {
			return valueWhole
		}
	case "--passphrase":
		if has(cmdGPG) {
			return valueWhole
		}
	}
	return valueNone
}

// wholeFlagValue is flagValue for a single-dash word read whole: openssl's
// and keytool's long flags.
func wholeFlagValue(kinds commandKinds, word string) int {
	switch {
	case kinds&cmdOpenSSL != 0 && (word == "-pass" || word == "-passin" || word == "-passout"):
		return valueAfterPass
	case kinds&cmdKeytool != 0 && (word == "-storepass" || word == "-keypass" || word == "-srcstorepass" || word == "-deststorepass" || word == "-srckeypass" || word == "-destkeypass"):
		return valueWhole
	}
	return valueNone
}

// appendValue appends the credential of kind that the value sp holds.
func appendValue(s string, spans []Span, sp Span, kind int) []Span {
	v := s[sp.Start:sp.End]
	switch kind {
	case valueAfterColon:
		c := strings.IndexByte(v, ':')
		if c < 0 {
			return spans // curl asks for the password
		}
		sp.Start += c + 1
	case valueAfterPercent:
		c := strings.IndexByte(v, '%')
		if c < 0 {
			return spans
		}
		sp.Start += c + 1
	case valueLogon:
		slash := strings.IndexByte(v, '/')
		if slash <= 0 {
			return spans // /nolog, / as sysdba: no password
		}
		if at := strings.LastIndexByte(v, '@'); at > slash {
			sp.End = sp.Start + at
		}
		sp.Start += slash + 1
	case valueAfterPass:
		if !strings.HasPrefix(v, "pass:") {
			return spans // env:VAR, file:PATH, fd:N, stdin name where it is
		}
		sp.Start += len("pass:")
	}
	literal := sp.Start > 0 && s[sp.Start-1] == '\''
	if sp.Start >= sp.End || variableAt(s[:sp.End], sp.Start) && !literal {
		return spans // a variable names where the credential is
	}
	return append(spans, sp)
}
