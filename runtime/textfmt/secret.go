package textfmt

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/value"
)

// SecretName reports whether a field name means a credential, so that its
// value is a credential: the rule that decides it is below, and tests hold
// it to every name it lists.
//
// The name is split into words at every character that is not a letter or
// a digit ("_", "-", ".", spaces), between a lower-case letter or digit and
// an upper-case letter (accessToken), and before the last upper-case letter
// of a run followed by a lower-case one (APIKey); case is ignored, words of
// digits are dropped and trailing digits of a word are ignored (token2).
// The name means a credential when its last word
//
//  1. ends with token, secret, secrets, password, passwords, passwd,
//     passphrase, credential, credentials, cookie, cookies or authorization
//     (token, refresh_token, authtoken, clientSecret, db_password, Set-Cookie,
//     Proxy-Authorization), except token after or joined to max, min, num,
//     total, next, page, continuation, pagination or sync (a count or a page
//     cursor: max_token, nextPageToken);
//  2. is pat or bearer, or pass after what a password opens or whose it
//     is (db, mysql, redis, smtp, ssh, admin, root, user… : DB_PASS,
//     SMTP_PASS, redisPass);
//  3. is key or keys after api, access, secret, private, client, auth,
//     signing, encryption, master, session or subscription, or one word of
//     them (api_key, x-api-key, APIKEY, privateKey, aws_secret_access_key);
//  4. or is value, string, data, text, binary, bytes, plaintext, base64,
//     b64, hex, confirm or confirmation, and the words before it mean a
//     credential (secret_value, SecretString, password_confirmation).
//
// So these are not credentials: tokens, max_tokens, prompt_tokens,
// token_count, tokenizer, token_limit, key, keys, primary_key, public_key,
// author, authority, and the names, ids and settings of a credential rather
// than its value: secret_name, secretArn, secret_id, cookie_name,
// password_policy, token_type, private_key_id. Nor are pwd (a working
// directory) and pass alone (beside a field that names a user they hold
// a password: fieldSecret), pin, auth, session, sid, signature and sig (the last two
// are credentials in URL parameters only: a field named signature holds a
// function signature as often as not).
func SecretName(name string) bool {
	if !mayNameCredential(name) {
		return false // most names: one pass, no words split
	}
	w, n := lastWords(name)
	return secretWords(w[:n], false)
}

// secretWords applies the rule of SecretName to the last words of a name,
// the last one last. In URL parameters (param), sig and signature are
// credentials too.
func secretWords(w []string, param bool) bool {
	n := len(w)
	if n == 0 {
		return false
	}
	if n > 1 && (wordIn(w[n-1], valueWords) || wordIn(stem(w[n-1]), valueWords)) && credentialWords(w[:n-1], param) {
		return true
	}
	return credentialWords(w, param)
}

// credentialWords is rules 1 to 3 of SecretName.
func credentialWords(w []string, param bool) bool {
	n := len(w)
	last := stem(w[n-1])
	prev := ""
	if n > 1 {
		prev = stem(w[n-2])
	}
	if param && (strings.EqualFold(last, "sig") || strings.EqualFold(last, "signature")) {
		return true
	}
	if strings.EqualFold(last, "pat") || strings.EqualFold(last, "bearer") {
		return true
	}
	if strings.EqualFold(last, "pass") && wordIn(prev, passOwners) {
		return true // DB_PASS, SMTP_PASS, redisPass
	}
	for _, key := range []string{"key", "keys"} {
		if rest, ok := cutSuffixFold(last, key); ok {
			if rest == "" {
				return wordIn(prev, keyQualifiers)
			}
			return wordIn(rest, keyQualifiers)
		}
	}
	for _, head := range credentialHeads {
		rest, ok := cutSuffixFold(last, head)
		if !ok {
			continue
		}
		if strings.EqualFold(rest, "no") || rest == "" && strings.EqualFold(prev, "no") {
			// NOPASSWD:ALL in sudoers, no_password: true: what follows
			// says a credential is not needed, and is no credential.
			return false
		}
		if head == "token" {
			before := rest
			if before == "" {
				before = prev
			}
			return !wordIn(before, tokenNotCredential)
		}
		return true
	}
	return false
}

var (
	// credentialHeads are the words a credential's name ends with.
	credentialHeads = []string{"token", "secret", "secrets", "password", "passwords", "passwd",
		"passphrase", "credential", "credentials", "cookie", "cookies", "authorization"}
	// tokenNotCredential make token a count or a page cursor.
	tokenNotCredential = []string{"max", "min", "num", "total", "next", "page", "continuation", "pagination", "sync"}
	// passOwners make pass, alone as often a count or a test's outcome, a
	// password: what the password opens, or whose it is.
	passOwners = []string{"db", "database", "mysql", "mariadb", "postgres", "postgresql", "pg", "redis",
		"mongo", "mongodb", "smtp", "mail", "email", "imap", "ftp", "sftp", "ssh", "ldap", "admin", "root",
		"user", "login", "app", "api", "proxy", "sql", "amqp", "rabbitmq", "rabbit", "broker", "registry",
		"docker", "keystore", "truststore", "jks", "vnc", "wifi", "bind"}
	// keyQualifiers make key a credential.
	keyQualifiers = []string{"api", "access", "secret", "private", "client", "auth", "signing",
		"encryption", "master", "session", "subscription"}
	// valueWords name the value of what the words before them name.
	valueWords = []string{"value", "string", "data", "text", "binary", "bytes", "plaintext",
		"base64", "b64", "hex", "confirm", "confirmation"}
)

// wordIn reports whether w is one of words, ignoring case.
func wordIn(w string, words []string) bool {
	for _, x := range words {
		if strings.EqualFold(w, x) {
			return true
		}
	}
	return false
}

// cutSuffixFold is strings.CutSuffix ignoring case, for a lower-case
// ASCII suffix.
func cutSuffixFold(s, suffix string) (string, bool) {
	// Most words end otherwise: compare the last byte first.
	if len(s) < len(suffix) || s[len(s)-1]|0x20 != suffix[len(suffix)-1] ||
		!strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s, false
	}
	return s[:len(s)-len(suffix)], true
}

// stem is a word without its trailing digits.
func stem(w string) string {
	return strings.TrimRightFunc(w, func(r rune) bool { return r >= '0' && r <= '9' })
}

// maxNameWords is how many words of a name the rule reads: the last one,
// and two before it when the last is a value word (api_key_value).
const maxNameWords = 3

// lastWords splits a name into words as SecretName says and returns the
// last maxNameWords of them, in order, without allocating.
func lastWords(name string) (words [maxNameWords]string, n int) {
	start := -1 // start of the current word
	var prev rune
	for i := 0; i < len(name); {
		r, size := rune(name[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(name[i:])
		}
		if !isWordRune(r) {
			if start >= 0 {
				words, n = pushWord(words, n, name[start:i])
				start = -1
			}
			i += size
			prev = r
			continue
		}
		if start < 0 {
			start = i
		} else if isUpper(r) {
			switch {
			case isLower(prev) || prev >= '0' && prev <= '9' || prev >= utf8.RuneSelf && unicode.IsDigit(prev):
				// accessToken, oauth2Token
				words, n = pushWord(words, n, name[start:i])
				start = i
			case isUpper(prev):
				// APIKey: the last upper-case letter before a lower-case
				// one starts a word.
				if next, _ := utf8.DecodeRuneInString(name[i+size:]); isLower(next) {
					words, n = pushWord(words, n, name[start:i])
					start = i
				}
			}
		}
		i += size
		prev = r
	}
	if start >= 0 {
		words, n = pushWord(words, n, name[start:])
	}
	return words, n
}

// pushWord adds w to the n last words, dropping the first when there are
// maxNameWords already, unless w is a word of digits.
func pushWord(words [maxNameWords]string, n int, w string) ([maxNameWords]string, int) {
	digits := 0
	for digits < len(w) && w[digits] >= '0' && w[digits] <= '9' {
		digits++
	}
	if digits == len(w) {
		return words, n
	}
	if n == maxNameWords {
		// Not copy, through which escape analysis loses w.
		words[0], words[1] = words[1], words[2]
		n--
	}
	words[n] = w
	return words, n + 1
}

func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'A' && r <= 'Z'
	}
	return unicode.IsUpper(r)
}

func isLower(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z'
	}
	return unicode.IsLower(r)
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return alnum[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// SecretPlaceholder is what a credential of n characters is shown as:
// ‹secret, 1 character›, ‹secret, 40 characters›. It names no part of the
// value, and its size tells a person which credential it is when a call
// carries several.
func SecretPlaceholder(n int) string {
	return placeholderOpen + CountPhrase(n, "character", "characters") + placeholderClose
}

const (
	placeholderOpen  = "‹secret, "
	placeholderClose = "›"
)

// placeholderAt returns the length of the placeholder that starts at s[i],
// or 0. Redaction leaves placeholders as they are, so that redacting
// redacted text changes nothing.
func placeholderAt(s string, i int) int {
	if !strings.HasPrefix(s[i:], placeholderOpen) {
		return 0
	}
	j := i + len(placeholderOpen)
	d := j
	for d < len(s) && d-j < 20 && s[d] >= '0' && s[d] <= '9' {
		d++
	}
	if d == j {
		return 0
	}
	for _, tail := range []string{" characters" + placeholderClose, " character" + placeholderClose} {
		if strings.HasPrefix(s[d:], tail) {
			return d + len(tail) - i
		}
	}
	return 0
}

// isPlaceholder reports whether s is one placeholder.
func isPlaceholder(s string) bool {
	return s != "" && placeholderAt(s, 0) == len(s)
}

// Span is the byte range s[Start:End] of a text.
type Span struct{ Start, End int }

// SecretShape returns the byte ranges of the credentials in a text, in
// order and apart: what SecretText replaces. It allocates nothing for text
// that has none, and takes time linear in the text's length.
//
// A credential is found:
//
//   - in a URL (scheme://…): the password of the userinfo
//     (https://user:‹password›@host), the whole userinfo of an http or https
//     URL that has no password (https://‹token›@host), and a user name
//     shaped like a credential;
//   - in a query or form parameter (after ?, & or ;) whose name means a
//     credential (SecretName, percent escapes decoded) or whose last word is
//     sig or signature (X-Amz-Signature): the value, up to &, #, white space,
//     a quote, < or >;
//   - after "Authorization:" or "Proxy-Authorization:" (any case): the
//     credentials after a Bearer, Basic or Token scheme (the scheme is
//     shown), the rest of the line (or of the header, when it is in quotes)
//     after another scheme (Digest …), or the value itself; and after the
//     word Bearer, a token of 16 or more characters with a digit;
//   - in a quoted pair "name": "value" or 'name': 'value' whose name means a
//     credential: the value, to the closing quote (JSON inside a string, a
//     Python dictionary); in a variable or tag written as two pairs,
//     "name": "DB_PASSWORD", "value": "…" (or "key": …), whose name means
//     one: the value; also with the quotes escaped (\"password\": \"…\",
//     JSON in a JSON string), and to the end of the text when it was cut
//     before the closing quote;
//   - after a name that means a credential and "=" or ":" (SECRET_KEY =
//     'dj-…', DB_PASSWORD=P@ssw0rd!x, --password=…): the value, quoted or
//     up to white space, a quote, a comma, a bracket, ; or |, and an & that
//     reads as a separator (&&, & curl, &user=bob); after the name and
//     white space alone, a value that looks like a credential (8 or more
//     characters, letters and digits among them); not a reference to where
//     the credential is (process.env.TOKEN, getToken(), $DB_PASS);
//   - on a command line, the flags that carry a credential for the
//     program the simple command invokes (mysql -p…, sshpass -p …, curl
//     -u user:…, docker login -p …, redis-cli -a …: commandKindsOf);
//   - shaped like a well-known credential, starting a word: GitHub tokens
//     (ghp_, gho_, ghu_, ghs_ and ghr_ and 36 or more letters and digits,
//     github_pat_ and 22 or more), GitLab (glpat- and 20 or more), Slack
//     (xoxa-, xoxb-, xoxp-, xoxo-, xoxs-, xoxr- and 10 or more), OpenAI and
//     Anthropic keys (sk-, sk-proj-, sk-ant- and 20 or more letters,
//     digits, - and _, with an upper-case letter or a digit among them, so
//     that a kebab-case word is not a key), Stripe (sk_live_, sk_test_,
//     rk_live_, rk_test_ and 16 or more), AWS access key ids (AKIA or ASIA
//     and exactly 16 upper-case letters and digits), Google API keys (AIza
//     and exactly 35), npm (npm_ and 36 or more), Hugging Face (hf_ and 30
//     or more), JWTs (three base64url segments, the first two starting
//     with eyJ), and the body of a PEM private key (between -----BEGIN …
//     PRIVATE KEY----- and its -----END line, or to the end of the text
//     when it has none; the two lines are shown).
//
// A shape starts a word: the character before it is no ASCII letter or
// digit, so sk- in task-runner is no key. A placeholder is no credential.
func SecretShape(s string) []Span {
	sc := secretScanner{s: s}
	sc.scan()
	return sc.spans
}

// SecretText returns s with every credential SecretShape finds replaced by
// SecretPlaceholder of its length in characters, keeping what is around it:
// https://user:‹secret, 12 characters›@host/, ?access_token=‹secret, 40
// characters›&x=1, Bearer ‹secret, 40 characters›. It returns s itself,
// allocating nothing, when s has none. Text that was redacted is redacted
// already: SecretText(SecretText(s)) is SecretText(s).
//
// The result is at most five times as long as s (&sig=x becomes
// &sig=‹secret, 1 character›), and valid UTF-8 when s is: every credential
// lies between ASCII characters or the ends of s.
func SecretText(s string) string {
	t, _ := secretText(s)
	return t
}

// secretText is SecretText that also reports whether it replaced anything.
// It writes the result as it scans, without listing the spans.
func secretText(s string) (string, bool) {
	sc := secretScanner{s: s, replace: true}
	sc.scan()
	if sc.found == 0 {
		return s, false
	}
	sc.b.WriteString(s[sc.written:])
	return sc.b.String(), true
}

// replaceSpans returns s with each span replaced by its placeholder.
func replaceSpans(s string, spans []Span) string {
	var b strings.Builder
	b.Grow(len(s) + 24*len(spans))
	at := 0
	for _, sp := range spans {
		b.WriteString(s[at:sp.Start])
		writePlaceholder(&b, utf8.RuneCountInString(s[sp.Start:sp.End]))
		at = sp.End
	}
	b.WriteString(s[at:])
	return b.String()
}

// writePlaceholder writes SecretPlaceholder(n) to b.
func writePlaceholder(b *strings.Builder, n int) {
	var digits [20]byte
	b.WriteString(placeholderOpen)
	b.Write(strconv.AppendInt(digits[:0], int64(n), 10))
	if n == 1 {
		b.WriteString(" character" + placeholderClose)
	} else {
		b.WriteString(" characters" + placeholderClose)
	}
}

// RedactField returns a field's text as the rule shows it: the placeholder
// of text when name means a credential (SecretName) and text is not empty,
// and SecretText(text) otherwise. It is the language's redact(name, text).
func RedactField(name, text string) string {
	if text != "" && !isPlaceholder(text) && SecretName(name) {
		return SecretPlaceholder(utf8.RuneCountInString(text))
	}
	return SecretText(text)
}

// Character classes of the shapes.
var (
	alnum      = byteClass("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
	upperDigit = byteClass("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
	word       = byteClass("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
	base64URL  = byteClass("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-")
	slackChars = byteClass("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-")
	token68    = byteClass("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-._~+/=")
	schemeChar = byteClass("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+-.")
	// nameChar are the characters of a parameter or key name.
	nameChar = byteClass("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.-%")
	// authorityEnd ends a URL's authority; valueEnd a parameter's value;
	// wordEnd a credential written as a value on its own.
	authorityEnd = stopClass("/?#\\\"'<>` ")
	valueEnd     = stopClass("&#\"'<>` ")
	wordEnd      = stopClass("\"'`<> ,;")
)

func byteClass(chars string) (t [256]bool) {
	for i := range len(chars) {
		t[chars[i]] = true
	}
	return t
}

// stopClass holds chars, the ASCII control characters and DEL.
func stopClass(chars string) (t [256]bool) {
	t = byteClass(chars)
	for c := range 0x20 {
		t[c] = true
	}
	t[0x7f] = true
	return t
}

// run returns the end of the run of class characters that starts at i.
func run(s string, i int, class *[256]bool) int {
	for i < len(s) && class[s[i]] {
		i++
	}
	return i
}

// runUntil returns the end of the run of characters that starts at i and
// holds none of stop; a placeholder counts as one character of the run, so
// that redacted text reads as the text it was redacted from.
func runUntil(s string, i int, stop *[256]bool) int {
	for i < len(s) {
		c := s[i]
		if stop[c] {
			break
		}
		if c == placeholderOpen[0] {
			if n := placeholderAt(s, i); n > 0 {
				i += n
				continue
			}
		}
		i++
	}
	return i
}

// runCache remembers the last run of a class it measured: attempts that
// start inside one run (sk-sk-sk-…) measure it once, so that scanning stays
// linear.
type runCache struct {
	start, end int
	upper      int // the first upper-case letter or digit at or after start, or end
}

// runEnd returns the end of the run of class characters that starts at i,
// for i at or after the start of the last run measured.
func (c *runCache) runEnd(s string, i int, class *[256]bool) int {
	if c.end > 0 && i >= c.start && i <= c.end {
		return c.end
	}
	c.start, c.end, c.upper = i, run(s, i, class), -1
	return c.end
}

// hasUpperOrDigit reports whether s[i:c.end], inside the last run
// measured, has an upper-case letter or a digit.
func (c *runCache) hasUpperOrDigit(s string, i int) bool {
	if c.upper < i {
		c.upper = i
		for c.upper < c.end && !upperDigit[s[c.upper]] {
			c.upper++
		}
	}
	return c.upper < c.end
}

// secretScanner finds the credentials of a text in one pass, and lists
// them or, with replace, writes the text with each replaced by its
// placeholder.
type secretScanner struct {
	s       string
	spans   []Span
	replace bool
	b       strings.Builder
	written int // what of s b holds
	found   int
	// last is the end of the last span: what comes before it is not read
	// again.
	last int
	// runs of the classes whose attempts can start inside a run; the
	// second segment of a JWT has a cache of its own, as attempts that
	// share it start inside the first.
	b64, jwt2, words, slack runCache
	// everywhere tries every rule at every position, without jumping
	// between triggers: what the jumps are tested against.
	everywhere bool
	// pending are the credentials of a command line's flags, found when
	// the scan met the program's name and added as it reaches them;
	// cmdEnd is where that simple command ends (commandSecrets).
	pending []Span
	cmdEnd  int
}

// add records s[start:end] as a credential, unless it is empty, a
// placeholder already (one a cut ends in too: ‹secret, 8167 characters›…),
// or the Ellipsis a formatter shows in place of a credential it hid.
//
// A placeholder followed by punctuation alone (", body …" after a redacted
// URL) is left too: the first redaction took every character of the value
// up to where the rule stops, so what follows is the text around it.
func (sc *secretScanner) add(start, end int) {
	if sc.hidden(start, end) {
		return
	}
	// A command line's credential before this one is added first; one
	// that overlaps it joins it.
	for len(sc.pending) > 0 && sc.pending[0].Start < end {
		p := sc.pending[0]
		sc.pending = sc.pending[1:]
		if p.End <= start {
			sc.addPending(p)
			continue
		}
		start, end = min(start, p.Start), max(end, p.End)
	}
	sc.emit(max(start, sc.last), end)
}

// addPending adds a command line's credential, but for what of it an
// earlier credential took.
func (sc *secretScanner) addPending(p Span) {
	if start := max(p.Start, sc.last); !sc.hidden(start, p.End) {
		sc.emit(start, p.End)
	}
}

// hidden reports whether s[start:end] holds no credential to add: it is
// empty, or hidden already.
func (sc *secretScanner) hidden(start, end int) bool {
	if start >= end || isPlaceholder(strings.TrimSuffix(sc.s[start:end], Ellipsis)) || sc.s[start:end] == Ellipsis {
		return true
	}
	n := placeholderAt(sc.s, start)
	return n > 0 && strings.Trim(sc.s[start+n:end], ",.;:!?)]}") == ""
}

// emit records or replaces the credential s[start:end].
func (sc *secretScanner) emit(start, end int) {
	if start >= end {
		return
	}
	sc.found++
	sc.last = end
	if !sc.replace {
		sc.spans = append(sc.spans, Span{start, end})
		return
	}
	if sc.written == 0 {
		sc.b.Grow(len(sc.s) + len(sc.s)/8 + 32)
	}
	sc.b.WriteString(sc.s[sc.written:start])
	writePlaceholder(&sc.b, utf8.RuneCountInString(sc.s[start:end]))
	sc.written = end
}

func (sc *secretScanner) scan() {
	sc.scanRules()
	for _, p := range sc.pending {
		sc.addPending(p)
	}
	sc.pending = nil
}

// scanRules tries the rules over the text, jumping between triggers.
func (sc *secretScanner) scanRules() {
	s := sc.s
	next := 0
	if !sc.everywhere {
		next = nextTrigger(s, 0)
	}
	for i := 0; i < len(s); {
		// No rule matches far before a trigger (see triggerReach): the
		// text up to there is passed over as every rule would turn it
		// down.
		if next < i && !sc.everywhere {
			if next = nextTrigger(s, i); next < 0 {
				return
			}
		}
		if i < next-triggerReach {
			i = next - triggerReach
		}
		c := s[i]
		switch {
		case alnum[c]:
			if i == 0 || !alnum[s[i-1]] {
				if next := sc.word(i); next > i {
					i = next
					continue
				}
			}
			// No shape starts inside a word.
			i = run(s, i+1, &alnum)
		case c == ':':
			i = sc.url(i)
		case c == '?' || c == '&' || c == ';':
			i = sc.param(i)
		case c == '"' || c == '\'':
			i = sc.pair(i)
		case c == '-':
			i = sc.pem(i)
		case c == placeholderOpen[0]:
			i += max(1, placeholderAt(s, i))
		default:
			i++
		}
	}
}

// word looks for a credential that starts the word at s[i] and returns
// where scanning goes on after it, or i.
func (sc *secretScanner) word(i int) int {
	s := sc.s
	rest := s[i:]
	if i >= sc.cmdEnd {
		if kinds, end := commandNameAt(s, i); kinds != 0 {
			sc.pending, sc.cmdEnd = commandSecrets(s, kinds, end, sc.pending)
		}
	}
	switch s[i] {
	case 'g':
		if len(rest) > 4 && rest[1] == 'h' && strings.IndexByte("pousr", rest[2]) >= 0 && rest[3] == '_' {
			return sc.atLeast(i, i+4, 36, &alnum, nil)
		}
		if strings.HasPrefix(rest, "github_pat_") {
			return sc.atLeast(i, i+11, 22, &word, &sc.words)
		}
		if strings.HasPrefix(rest, "glpat-") {
			return sc.atLeast(i, i+6, 20, &base64URL, &sc.b64)
		}
	case 'x':
		if len(rest) > 5 && strings.HasPrefix(rest, "xox") && strings.IndexByte("abposr", rest[3]) >= 0 && rest[4] == '-' {
			return sc.atLeast(i, i+5, 10, &slackChars, &sc.slack)
		}
	case 's', 'r':
		for _, p := range []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_"} {
			if strings.HasPrefix(rest, p) {
				return sc.atLeast(i, i+len(p), 16, &alnum, nil)
			}
		}
		if strings.HasPrefix(rest, "sk-") {
			end := sc.b64.runEnd(s, i+3, &base64URL)
			if end-(i+3) >= 20 && sc.b64.hasUpperOrDigit(s, i+3) {
				sc.add(i, end)
				return end
			}
		}
	case 'A':
		if strings.HasPrefix(rest, "AKIA") || strings.HasPrefix(rest, "ASIA") {
			return sc.exactly(i, 20, &upperDigit, &alnum)
		}
		if strings.HasPrefix(rest, "AIza") {
			return sc.exactly(i, 39, &base64URL, &base64URL)
		}
	case 'e':
		if strings.HasPrefix(rest, "eyJ") {
			return sc.jwt(i)
		}
	case 'l':
		if strings.HasPrefix(rest, "lin_api_") {
			return sc.atLeast(i, i+8, 32, &alnum, nil)
		}
	case 'n':
		if strings.HasPrefix(rest, "npm_") {
			return sc.atLeast(i, i+4, 36, &alnum, nil)
		}
	case 'h':
		if strings.HasPrefix(rest, "hf_") {
			return sc.atLeast(i, i+3, 30, &alnum, nil)
		}
	}
	switch s[i] {
	case 'A', 'a':
		if len(rest) > len("authorization") && strings.EqualFold(rest[:len("authorization")], "authorization") {
			// The quote a header is written in (curl -H 'Authorization:
			// …') ends its value.
			open, p := byte(0), i
			for p > 0 && p > i-32 && slackChars[s[p-1]] {
				p--
			}
			if p > 0 && (s[p-1] == '"' || s[p-1] == '\'' || s[p-1] == '`') {
				open = s[p-1]
			}
			return sc.authorization(i+len("authorization"), open)
		}
	case 'B', 'b':
		if len(rest) > 7 && strings.EqualFold(rest[:7], "bearer ") {
			return sc.bearer(i + len("Bearer"))
		}
	}
	return sc.named(i)
}

// maxNamedValue bounds how far a quoted value after a credential's name is
// looked for, so text full of unclosed quotes stays linear.
const maxNamedValue = 1024

// named reads the value after a name that means a credential, as
// assignments, configuration files and command lines write it:
// SECRET_KEY = 'dj-…', aws_secret_access_key = …, password: …,
// "set aws_secret_access_key VALUE", "password Qx2W…", --password X. After
// "=" or ":" any value counts; after white space alone only one that looks
// like a credential (8 or more characters, letters and digits among them),
// so prose such as "password policy" is left alone. It returns where
// scanning goes on, or i.
func (sc *secretScanner) named(i int) int {
	s := sc.s
	// A name starts where its word does: after a flag's dashes or a run
	// of underscores (npm's _authToken), not inside x-api-key or
	// db_password.
	start := i
	for start > 0 && s[start-1] == '_' {
		start--
	}
	if start > 0 && (word[s[start-1]] || s[start-1] == '-' && start > 1 && alnum[s[start-2]]) {
		return i
	}
	// A name has at most 64 characters: the run is read no further, so
	// that a long token is not read here once more to be turned down; and
	// it holds a stem of credentialStems, looked for as the run is read.
	end, lim, stem := i, min(len(s), i+65), false
	for end < lim && base64URL[s[end]] {
		if !stem && end+1 < lim && startsStem(s[end], s[end+1]) {
			for _, w := range credentialStems[s[end]|0x20-'a'] {
				stem = stem || hasLowerPrefix(s[end:lim], w)
			}
		}
		end++
	}
	name := s[i:end]
	// Authorization headers have a reading of their own (authorization);
	// a plural ("credentials: 'token'") names kinds of credentials in
	// prose, not one credential.
	if !stem || end-i > 64 || hasSuffixFold(name, "authorization") || hasSuffixFold(name, "s") && !hasSuffixFold(name, "pass") || !SecretName(name) {
		return i
	}
	j := skipBlanks(s, end)
	assigned := j < len(s) && (s[j] == '=' || s[j] == ':')
	switch {
	case assigned:
		j = skipBlanks(s, j+1)
	case j == end:
		return i
	}
	if j >= len(s) {
		return i
	}
	if q := s[j]; q == '"' || q == '\'' || q == '`' {
		k := strings.IndexByte(s[j+1:min(len(s), j+1+maxNamedValue)], q)
		if k <= 0 || !assigned && !credentialLike(s[j+1:j+1+k]) {
			return i
		}
		sc.add(j+1, j+1+k)
		return j + 2 + k
	}
	k := run(s, j, &token68)
	for k > j && s[k-1] == '.' {
		k-- // the full stop that ends a sentence
	}
	if k == j && assigned && passwordSymbol[s[j]] && !variableAt(s, j) {
		// A password that starts with a symbol (@dm1n!, $^5j…), not a
		// variable ($DB_PASS) nor a comment's # alone.
		if end := passwordEnd(s, j); hasAlnum(s[j:end]) {
			sc.add(j, end)
			return end
		}
	}
	if k == j || !assigned && !credentialLike(s[j:k]) {
		return i
	}
	// A password's symbols after a dotted run (lMN2g.V*elxo) make it no
	// path in code.
	if end := passwordEnd(s, k); assigned && end > k {
		k = end
	} else if codeReference(s[j:k], s[k:]) {
		return i
	}
	sc.add(j, k)
	return k
}

// variableAt reports whether a shell or template variable starts at s[i]:
// $NAME, ${…}, $(…).
func variableAt(s string, i int) bool {
	if s[i] != '$' || i+1 >= len(s) {
		return false
	}
	c := s[i+1]
	return c == '{' || c == '(' || c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// hasAlnum reports whether s holds an ASCII letter or digit.
func hasAlnum(s string) bool {
	for i := range len(s) {
		if alnum[s[i]] {
			return true
		}
	}
	return false
}

// passwordSymbol holds the characters besides token68's that an assigned
// value written without quotes goes on over: the symbols passwords are
// made to hold (DB_PASSWORD=P@ssw0rd!x, s3cr3t#12$x). Left out are what
// ends a value in the languages such text is written in: white space and
// quotes, ; and | (shell), a comma (key=v,key=v), brackets and a
// backslash (an escaped quote in JSON).
var passwordSymbol = byteClass("!@#$%^*?:")

// passwordEnd returns where an assigned value that holds token68
// characters up to k ends: k, or further over passwordSymbol characters
// and over an & that joins two parts of one value (Tr0ub4dor&3xyz in an
// env file). An & stays a separator where it reads as one: before
// another & (a shell's &&), before a lower-case letter (a shell's next
// command, & curl …; a query's next parameter, &user=bob), and before a
// name and "=" (&User=bob).
func passwordEnd(s string, k int) int {
	start := k
	for k < len(s) {
		switch c := s[k]; {
		case token68[c] || passwordSymbol[c]:
			k++
			continue
		case c == '\\' && k+1 < len(s) && (passwordSymbol[s[k+1]] || s[k+1] == '&'):
			k += 2 // a symbol the shell would read, escaped: Sup3r\$ecret
			continue
		case c == '&' && k+1 < len(s):
			next := s[k+1]
			if !token68[next] && !passwordSymbol[next] || next >= 'a' && next <= 'z' {
				break
			}
			name := run(s, k+1, &nameChar)
			if name < len(s) && s[name] == '=' {
				break
			}
			k++
			continue
		}
		break
	}
	// What ends a sentence is not the value's, but what passwordEnd was
	// given stays: a value that is nothing but such marks ends where it
	// started.
	for k > start && (s[k-1] == '.' || s[k-1] == ':' || s[k-1] == '?') {
		k--
	}
	return k
}

// codeReference reports whether v, the value after a credential's name and
// followed by rest, is code that names where the credential is rather
// than the credential itself: a dotted path of identifiers
// (document.cookie, process.env.API_TOKEN) or a call or an index
// (getToken(), env["TOKEN"]).
func codeReference(v, rest string) bool {
	if rest != "" && (rest[0] == '(' || rest[0] == '[') {
		return true
	}
	dots := 0
	for seg := range strings.SplitSeq(v, ".") {
		if seg == "" || !(seg[0] == '_' || seg[0] >= 'a' && seg[0] <= 'z' || seg[0] >= 'A' && seg[0] <= 'Z') {
			return false
		}
		for i := range len(seg) {
			if c := seg[i]; !(alnum[c] || c == '_') {
				return false
			}
		}
		dots++
	}
	return dots > 1
}

// credentialLike reports whether v, found after a credential's name with
// nothing but white space between, looks like the credential rather than
// a word of prose: 8 or more characters with a letter and a digit. The
// placeholders in v count for nothing: one holds a digit and letters of
// its own, and text that was redacted must read as it did before.
func credentialLike(v string) bool {
	n := 0
	letter, digit := false, false
	for i := 0; i < len(v); {
		if p := placeholderAt(v, i); p > 0 {
			i += p
			continue
		}
		c := v[i]
		letter = letter || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		digit = digit || c >= '0' && c <= '9'
		n++
		i++
	}
	return n >= 8 && letter && digit
}

// credentialStems are the pieces every name SecretName accepts contains,
// lower-cased: a cheap test before the whole rule runs on each word. They
// are listed by their first letter, so that a word is read once.
var credentialStems = [26][]string{
	'a' - 'a': {"auth"}, 'b' - 'a': {"bearer"}, 'c' - 'a': {"cookie", "credential"}, 'k' - 'a': {"key"},
	'p' - 'a': {"pass", "pat"}, 's' - 'a': {"secret"}, 't' - 'a': {"token"},
}

// stemStart marks the pairs of bytes a stem of credentialStems starts
// with, in any case: one load per byte of a word that starts none. A bit
// for each pair, 8 KiB in all: a table of bools would be 64 KiB to build
// and page in when a process starts; it is stemStartBits, zero memory
// of the binary's, as triggerPair is.
var stemStart = markStemStarts(&stemStartBits)

var stemStartBits [1 << 10]uint64

func markStemStarts(t *[1 << 10]uint64) *[1 << 10]uint64 {
	for _, stems := range credentialStems {
		for _, stem := range stems {
			for _, a := range []byte{stem[0], stem[0] - 'a' + 'A'} {
				for _, b := range []byte{stem[1], stem[1] - 'a' + 'A'} {
					p := uint16(a)<<8 | uint16(b)
					t[p>>6] |= 1 << (p & 63)
				}
			}
		}
	}
	return t
}

// startsStem reports whether a stem of credentialStems may start at the
// pair of bytes a, b.
func startsStem(a, b byte) bool {
	p := uint16(a)<<8 | uint16(b)
	return stemStart[p>>6]&(1<<(p&63)) != 0
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// mayNameCredential reports whether name contains one of credentialStems,
// ignoring case.
func mayNameCredential(name string) bool {
	for i := 0; i+1 < len(name); i++ {
		if !startsStem(name[i], name[i+1]) {
			continue
		}
		for _, stem := range credentialStems[name[i]|0x20-'a'] {
			if hasLowerPrefix(name[i:], stem) {
				return true
			}
		}
	}
	return false
}

// hasLowerPrefix reports whether s starts with the lower-case ASCII word
// w, ignoring the case of ASCII letters only.
func hasLowerPrefix(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for i := range len(w) {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// atLeast records s[start:end] when the run of class characters from body
// to end holds at least n of them, and returns end; otherwise it returns
// start.
func (sc *secretScanner) atLeast(start, body, n int, class *[256]bool, cache *runCache) int {
	var end int
	if cache != nil {
		end = cache.runEnd(sc.s, body, class)
	} else {
		end = run(sc.s, body, class)
	}
	if end-body < n {
		return start
	}
	sc.add(start, end)
	return end
}

// exactly records the n characters from start when they are class
// characters (after the four of the prefix) and the next one is not an
// after character.
func (sc *secretScanner) exactly(start, n int, class, after *[256]bool) int {
	s := sc.s
	end := start + n
	if end > len(s) || run(s, start+4, class) < end || (end < len(s) && after[s[end]]) {
		return start
	}
	sc.add(start, end)
	return end
}

// jwt records a JSON Web Token that starts at i.
func (sc *secretScanner) jwt(i int) int {
	s := sc.s
	end1 := sc.b64.runEnd(s, i, &base64URL)
	if end1-i < 8 || end1 >= len(s) || s[end1] != '.' || !strings.HasPrefix(s[end1+1:], "eyJ") {
		return i
	}
	end2 := sc.jwt2.runEnd(s, end1+1, &base64URL)
	if end2-(end1+1) < 8 || end2 >= len(s) || s[end2] != '.' {
		return i
	}
	end3 := run(s, end2+1, &base64URL)
	sc.add(i, end3)
	return end3
}

// skipBlanks returns the index of the first byte at or after i that is no
// space or tab.
func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// authorization reads the value of an Authorization header whose name ends
// at i, written in the quote open when it is not 0.
func (sc *secretScanner) authorization(i int, open byte) int {
	s := sc.s
	if alnum[s[i]] {
		return i // a longer word
	}
	v := skipBlanks(s, i)
	if v >= len(s) || s[v] != ':' {
		return i
	}
	v = skipBlanks(s, v+1)
	if v >= len(s) {
		return v
	}
	if n := placeholderAt(s, v); n > 0 {
		return v + n
	}
	scheme := run(s, v, &slackChars)
	after := skipBlanks(s, scheme)
	if scheme > v && after > scheme && after < len(s) && !wordEnd[s[after]] {
		name := s[v:scheme]
		if wordIn(name, []string{"bearer", "basic", "token"}) {
			end := run(s, after, &token68)
			sc.add(after, end)
			return max(end, after)
		}
		// Another scheme's parameters (Digest username="…", …): the rest
		// of the line, or of the quoted header.
		end := after
		for end < len(s) && s[end] != '\n' && s[end] != '\r' && (open == 0 || s[end] != open) {
			end++
		}
		for end > after && (s[end-1] == ' ' || s[end-1] == '\t') {
			end--
		}
		sc.add(after, end)
		return end
	}
	end := runUntil(s, v, &wordEnd)
	sc.add(v, end)
	return max(end, v)
}

// bearer reads a bearer token after the word Bearer, which ends at i: 16
// or more token characters with a digit among them.
func (sc *secretScanner) bearer(i int) int {
	s := sc.s
	v := skipBlanks(s, i)
	end := run(s, v, &token68)
	if end-v < 16 || strings.IndexAny(s[v:end], "0123456789") < 0 {
		return i
	}
	sc.add(v, end)
	return end
}

// url reads the authority of a URL whose scheme ends with the colon at i.
func (sc *secretScanner) url(i int) int {
	s := sc.s
	if !strings.HasPrefix(s[i+1:], "//") {
		return i + 1
	}
	start := i
	for start > sc.last && start > i-32 && schemeChar[s[start-1]] {
		start--
	}
	for start < i && !(s[start]|0x20 >= 'a' && s[start]|0x20 <= 'z') {
		start++ // a scheme starts with a letter
	}
	if start == i {
		return i + 1
	}
	scheme := s[start:i]
	j := i + 3
	end := runUntil(s, j, &authorityEnd)
	at := strings.LastIndexByte(s[j:end], '@')
	if at < 0 {
		return j
	}
	at += j
	user, pass := j, at
	if colon := strings.IndexByte(s[j:at], ':'); colon >= 0 {
		pass = j + colon
		sc.user(user, pass)
		sc.add(pass+1, at)
	} else if strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https") {
		sc.add(user, at)
	} else {
		sc.user(user, at)
	}
	return at + 1
}

// user records the credentials shaped like one in the user name
// s[start:end] of a URL (https://ghp_…:x-oauth-basic@github.com).
func (sc *secretScanner) user(start, end int) {
	for _, sp := range SecretShape(sc.s[start:end]) {
		sc.add(start+sp.Start, start+sp.End)
	}
}

// param reads a query or form parameter after the separator at i.
func (sc *secretScanner) param(i int) int {
	s := sc.s
	j := i + 1
	k := j
	for k < len(s) && k-j < 64 && nameChar[s[k]] {
		k++
	}
	if k == j || k >= len(s) || s[k] != '=' || !secretParam(s[j:k]) {
		return i + 1
	}
	end := runUntil(s, k+1, &valueEnd)
	sc.add(k+1, end)
	return max(end, k+1)
}

// secretParam reports whether a URL parameter's name means a credential:
// SecretName with sig and signature, after decoding percent escapes.
func secretParam(name string) bool {
	var buf [64]byte
	if strings.IndexByte(name, '%') >= 0 {
		n := 0
		for i := 0; i < len(name); i++ {
			c := name[i]
			if c == '%' && i+2 < len(name) && isHex(name[i+1]) && isHex(name[i+2]) {
				c = unhex(name[i+1])<<4 | unhex(name[i+2])
				i += 2
			}
			buf[n] = c
			n++
		}
		name = string(buf[:n])
	}
	w, n := lastWords(name)
	return secretWords(w[:n], true)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}

// pair reads a quoted pair "name": "value" whose name starts after the
// quote at i, and the pair of pairs "name": "DB_PASSWORD", "value": "…"
// (see envPair). The quotes may be escaped, as JSON in a JSON string
// writes them: \"password\": \"…\".
func (sc *secretScanner) pair(i int) int {
	s := sc.s
	q := s[i]
	esc := q == '"' && i > 0 && s[i-1] == '\\'
	j := i + 1
	k := j
	for k < len(s) && k-j < 64 && nameChar[s[k]] {
		k++
	}
	if esc && !closesAt(s, k, q, true) {
		esc = false // a quote after an escaped backslash (\\"name")
	}
	if k == j || !closesAt(s, k, q, esc) {
		return i + 1
	}
	m := skipBlanks(s, k+quoteLen(esc))
	if m >= len(s) || s[m] != ':' {
		return i + 1
	}
	vq, open := valueQuote(s, skipBlanks(s, m+1), esc)
	if vq == 0 {
		return i + 1
	}
	name := s[j:k]
	if !SecretName(name) {
		if strings.EqualFold(name, "name") || strings.EqualFold(name, "key") {
			return sc.envPair(i, open, vq, esc)
		}
		if strings.EqualFold(name, "auth") {
			if end := quotedEnd(s, open, vq, esc); end < len(s) && basicCredentials(s[open:end]) {
				sc.add(open, end)
				return min(end+1, len(s))
			}
		}
		return i + 1
	}
	end := quotedEnd(s, open, vq, esc)
	sc.add(open, end)
	return min(end+1, len(s))
}

// envPair reads the value of a variable or a tag written as two pairs,
// {"name": "DB_PASSWORD", "value": "…"} (Kubernetes and ECS environments,
// AWS tags and parameters with "Key"), whose name means a credential: the
// pair at i names it, and its quoted value starts at open.
func (sc *secretScanner) envPair(i, open int, q byte, esc bool) int {
	s := sc.s
	// The name is read as far as the scanner's trigger reach, which the
	// stem it holds must lie within, and no further: a pair that is
	// turned down leaves its text to be read again, so that reading must
	// stay short for the scan to stay linear.
	lim := min(len(s), i+triggerReach-8)
	end := quotedEnd(s[:lim], open, q, esc)
	if end >= lim || !closesAt(s, end, q, esc) {
		return i + 1
	}
	name := s[open:end]
	for k := range len(name) {
		if !nameChar[name[k]] {
			return i + 1
		}
	}
	if !SecretName(name) {
		return i + 1
	}
	m := skipBlanks(s, end+quoteLen(esc))
	if m >= len(s) || s[m] != ',' {
		return i + 1
	}
	kq, key := valueQuote(s, skipBlanks(s, m+1), esc)
	if kq == 0 || len(s)-key < len("value") || !strings.EqualFold(s[key:key+len("value")], "value") ||
		!closesAt(s, key+len("value"), kq, esc) {
		return i + 1
	}
	m = skipBlanks(s, key+len("value")+quoteLen(esc))
	if m >= len(s) || s[m] != ':' {
		return i + 1
	}
	vq, v := valueQuote(s, skipBlanks(s, m+1), esc)
	if vq == 0 {
		return i + 1
	}
	end = quotedEnd(s, v, vq, esc)
	sc.add(v, end)
	return min(end+1, len(s))
}

// quoteLen is the length of a quote, escaped or not.
func quoteLen(esc bool) int {
	if esc {
		return 2
	}
	return 1
}

// closesAt reports whether the quote q, escaped when esc is set, is at
// s[k].
func closesAt(s string, k int, q byte, esc bool) bool {
	if esc {
		return k+1 < len(s) && s[k] == '\\' && s[k+1] == q
	}
	return k < len(s) && s[k] == q
}

// valueQuote returns the quote that opens a value at s[m] (escaped when
// esc is set) and where the value starts after it, or 0.
func valueQuote(s string, m int, esc bool) (byte, int) {
	switch {
	case esc && closesAt(s, m, '"', true):
		return '"', m + 2
	case !esc && m < len(s) && (s[m] == '"' || s[m] == '\''):
		return s[m], m + 1
	}
	return 0, 0
}

// quotedEnd returns where the quoted value that starts at p ends: at its
// closing quote q (escaped when esc is set), or at the end of s when the
// text was cut before it. Escapes inside the value are passed over: \"
// in a value, and, when the value is itself escaped, \\\" (its escaped
// quote) and a quote that is not escaped, which ends the string the value
// is written in.
func quotedEnd(s string, p int, q byte, esc bool) int {
	for p < len(s) {
		c := s[p]
		switch {
		case !esc && c == q:
			return p
		case !esc && c == '\\':
			p += 2
		case esc && c == '"':
			return p
		case esc && c == '\\' && p+1 < len(s) && s[p+1] == q:
			return p
		case esc && c == '\\' && p+1 < len(s) && s[p+1] == '\\':
			// The value's own escape: the character after it is
			// escaped too, and written escaped (\\\" is its quote).
			p += 2
			if p+1 < len(s) && s[p] == '\\' {
				p += 2
			} else {
				p++
			}
		case esc && c == '\\':
			p += 2
		default:
			p++
		}
	}
	return len(s)
}

// pem reads the body of a PEM private key whose header starts at i.
func (sc *secretScanner) pem(i int) int {
	s := sc.s
	const begin, dashes = "-----BEGIN ", "-----"
	if !strings.HasPrefix(s[i:], begin) {
		return i + 1
	}
	l := i + len(begin)
	e := l
	for e < len(s) && e-l < 64 && (upperDigit[s[e]] || s[e] == ' ') {
		e++
	}
	label := s[l:e]
	if !strings.HasPrefix(s[e:], dashes) || !(strings.HasSuffix(label, "PRIVATE KEY") || strings.HasSuffix(label, "PRIVATE KEY BLOCK")) {
		return i + 1
	}
	body := e + len(dashes)
	for body < len(s) && asciiSpace[s[body]] {
		body++
	}
	end, next := len(s), len(s)
	if f := strings.Index(s[body:], "-----END "); f >= 0 {
		end = body + f
		next = end + len("-----END ")
		if d := strings.Index(s[next:min(len(s), next+64+len(dashes))], dashes); d >= 0 {
			next += d + len(dashes)
		}
	}
	for end > body && asciiSpace[s[end-1]] {
		end--
	}
	sc.add(body, end)
	return next
}

// RedactValue returns a JSON value of the value model (nil, bool,
// value.Number, float64, string, []any, *value.Object) with every
// credential replaced by its placeholder, as the rule says:
//
//   - the value of a key that means a credential (SecretName), at any
//     depth: a string or a number becomes the placeholder of its length (of
//     its digits for a number); in a list or an object, each string and
//     number does, so that the shape stays readable (credentials: {"type":
//     "service_account", "private_key": ‹…›} shows which parts travel);
//     true, false and null stay, as they carry no credential; an empty
//     string stays empty;
//   - likewise the "value" of an object that has "sensitive": true, or
//     whose "name" or "key" is a string that means a credential (keys
//     matched without regard to case: {"name": "DB_PASSWORD", "value": …},
//     {"Key": "api_key", "Value": …});
//   - every other string, keys included, goes through SecretText.
//
// It returns v itself, copying and allocating nothing, when nothing in it
// is a credential; otherwise it copies only the lists and objects on the
// way to a credential. Its time is linear in the size of v. Decoded input
// nests at most value.MaxDepth deep (DecodeJSON and FromGo refuse deeper
// input), which bounds its recursion; a value built by Go code that nests
// deeper is cut there, and shows as Ellipsis. Other Go types are returned
// as they are, and so is the text a non-object input carries
// (Object.Text): redact that with SecretText.
func RedactValue(v any) any {
	r, _ := redactValue(v, false, 0)
	return r
}

// redactNamed returns v as the value of the field called name of the
// object in shows it (in is nil for a list's item or the whole value), by
// the names alone, one level deep: RedactValue of v when name means a
// credential (see fieldSecret), v with its "value" hidden when it is an
// object that marks its value as a credential (sensitive: true, a name or
// a key that means one), and otherwise v itself. It reads no more of v
// than that, so a writer that walks a large value shows each field
// through it as far as it writes, and leaves the shapes in its strings to
// SecretText.
func redactNamed(in *value.Object, name string, v any) any {
	if name != "" && (fieldSecret(in, name) || authField(name, v)) {
		r, _ := redactValue(v, true, 0)
		return r
	}
	if o, ok := v.(*value.Object); ok && sensitive(o) {
		r, _ := redactValue(o, false, 0)
		return r
	}
	return v
}

// fieldSecret reports whether the field called name of the object in
// holds a credential by its name: SecretName, but for the "secret" of an
// object that has a "value" too, which names the secret whose value it
// is ({"secret": "db-password", "value": …}, Azure Key Vault's set).
func fieldSecret(in *value.Object, name string) bool {
	if !SecretName(name) {
		return in != nil && (len(name) == 4 && strings.EqualFold(name, "pass") || len(name) == 3 && strings.EqualFold(name, "pwd")) && hasUserField(in)
	}
	if in != nil && strings.EqualFold(name, "secret") {
		for k := range in.All() {
			if strings.EqualFold(k, "value") {
				return false
			}
		}
	}
	return true
}

// basicCredentials reports whether v is user:password in base64, as HTTP
// Basic authentication and Docker's config.json ("auth": "…") write it.
func basicCredentials(v string) bool {
	if len(v) < 8 || len(v) > 1024 || len(v)%4 != 0 {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return false
	}
	colon := -1
	for i, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
		if c == ':' && colon < 0 {
			colon = i
		}
	}
	return colon > 0 && colon < len(b)-1
}

// authField reports whether the field called name holds v, user and
// password in base64 under "auth" (Docker's config.json): auth alone names
// a kind of authentication as often as a credential.
func authField(name string, v any) bool {
	if len(name) != len("auth") || !strings.EqualFold(name, "auth") {
		return false
	}
	t, ok := v.(string)
	return ok && basicCredentials(t)
}

// hasUserField reports whether an object names a user: beside it, pass
// and pwd are a password ({"user": "admin", "pass": "…"}), where alone
// they are as often a count or a working directory.
func hasUserField(o *value.Object) bool {
	for k := range o.All() {
		switch strings.ToLower(k) {
		case "user", "username", "user_name", "userid", "user_id", "login", "email", "uid":
			return true
		}
	}
	return false
}

// redactValue is RedactValue of v, where every string and number is a
// credential when secret is set; it reports whether anything changed.
func redactValue(v any, secret bool, depth int) (any, bool) {
	if depth > value.MaxDepth {
		return Ellipsis, true
	}
	switch x := v.(type) {
	case string:
		// v, not x, when nothing changes: a string put in an interface
		// is a new allocation.
		if secret {
			if x == "" || isPlaceholder(x) {
				return v, false
			}
			return SecretPlaceholder(utf8.RuneCountInString(x)), true
		}
		if t, changed := secretText(x); changed {
			return t, true
		}
	case value.Number:
		if secret {
			return SecretPlaceholder(utf8.RuneCountInString(x.String())), true
		}
	case float64:
		if secret {
			return SecretPlaceholder(len(value.FormatNumber(x))), true
		}
	case []any:
		var out []any
		args := argvSecrets(x)
		for i, e := range x {
			r, changed := redactValue(e, secret, depth+1)
			if len(args) > 0 && args[0].index == i {
				r, changed = redactArg(e.(string), args[0].Span), true
				args = args[1:]
			}
			if changed && out == nil {
				out = make([]any, len(x))
				copy(out, x[:i])
			}
			if out != nil {
				out[i] = r
			}
		}
		if out != nil {
			return out, true
		}
	case *value.Object:
		if r, changed := redactObject(x, secret, depth); changed {
			return r, true
		}
	}
	return v, false
}

// redactArg returns the argument s with its credential sp, and any the
// text rule finds, replaced by placeholders.
func redactArg(s string, sp Span) string {
	return SecretText(s[:sp.Start] + SecretPlaceholder(utf8.RuneCountInString(s[sp.Start:sp.End])) + s[sp.End:])
}

func redactObject(o *value.Object, secret bool, depth int) (*value.Object, bool) {
	secretValue := secret || sensitive(o)
	var keys []string
	var values []any
	for i := range o.Len() {
		k, e := o.At(i)
		nk, keyChanged := secretText(k)
		child := secret || fieldSecret(o, k) || (secretValue && strings.EqualFold(k, "value")) || authField(k, e)
		r, changed := redactValue(e, child, depth+1)
		if (changed || keyChanged) && keys == nil {
			keys = make([]string, o.Len())
			values = make([]any, o.Len())
			for j := range i {
				keys[j], values[j] = o.At(j)
			}
		}
		if keys != nil {
			keys[i], values[i] = nk, r
		}
	}
	if keys == nil {
		return o, false
	}
	return value.ObjectOf(keys, values), true
}

// sensitive reports whether an object's "value" is a credential: it has
// "sensitive": true, a "name" or "key" that means a credential, or a
// "secret" (Azure Key Vault names the secret it sets so).
func sensitive(o *value.Object) bool {
	for i := range o.Len() {
		k, e := o.At(i)
		// Keys are read without case; their lengths tell most apart
		// before any is compared, as a megabyte of fields is read here.
		switch len(k) {
		case len("sensitive"):
			if e == true && strings.EqualFold(k, "sensitive") {
				return true
			}
		case len("name"), len("key"):
			if n, ok := e.(string); ok && (strings.EqualFold(k, "name") || strings.EqualFold(k, "key")) && SecretName(n) {
				return true
			}
		case len("secret"):
			// {"secret": "db-password", "value": …}: the value of the
			// secret the object names (Azure Key Vault's set).
			if strings.EqualFold(k, "secret") {
				return true
			}
		}
	}
	return false
}

// MinSecretRunes is the length below which Secrets leaves a credential
// out: replacing every occurrence of a shorter text in an output would
// redact common text by accident (a password "abc" in "abcdef"). Such
// credentials are still redacted where the rule finds them.
const MinSecretRunes = 4

// Secrets returns the distinct credentials a JSON value carries by the rule
// of RedactValue: strings and numbers under names that mean a credential,
// sensitive values, and the spans SecretShape finds in every other string
// and key; each also as the text folds it (white space runs folded, as
// collapse and the sanitizer write it) and as compact JSON escapes it,
// where those differ, and each line of one that has several. It leaves out those shorter than MinSecretRunes
// characters, and lists the longest first (ties in byte order), for
// ScrubText to replace in an output that a formatter wrote from the value.
// It is nil when there are none; like RedactValue, it does not look deeper
// than value.MaxDepth.
func Secrets(v any) []string { return SecretsWithin(v, -1) }

// SecretsWithin is Secrets that looks for shapes in at most n bytes of
// the text of v in all (the first strings and keys it meets, and the start
// of the one it stops in); n < 0 is no bound. The credentials that names
// and sensitive objects mark are all listed, however large v is: finding
// them reads keys, not text. A host that scrubs the output of every call
// bounds so the cost of a call whose input is a megabyte of text, and
// leaves the shapes past the bound to SecretText, which finds them in the
// output.
func SecretsWithin(v any, n int) []string {
	c := secretCollector{budget: n}
	c.walk(v, false, 0)
	return c.list()
}

// list returns the credentials collected, longest first.
func (c *secretCollector) list() []string {
	if len(c.seen) == 0 {
		return nil
	}
	out := make([]string, 0, len(c.seen))
	for s := range c.seen {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return out
}

type secretCollector struct {
	seen   map[string]struct{}
	budget int // bytes of text left to read for shapes; < 0 is no bound
}

// add records a credential and the forms an output may show it in. A
// credential of several lines (the body of a PEM private key) is recorded
// line by line too, for outputs that show a text's lines one by one.
func (c *secretCollector) add(s string) {
	if isPlaceholder(s) {
		return
	}
	if strings.ContainsAny(s, "\n\r") {
		for _, line := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
			c.add(strings.TrimSpace(line))
		}
	}
	quoted := CompactJSON(s)
	for _, form := range []string{s, Collapse(s), quoted[1 : len(quoted)-1]} {
		if utf8.RuneCountInString(form) < MinSecretRunes {
			continue
		}
		if c.seen == nil {
			c.seen = map[string]struct{}{}
		}
		c.seen[form] = struct{}{}
	}
}

// text records the credentials SecretShape finds in s.
func (c *secretCollector) text(s string) {
	if c.budget >= 0 {
		if c.budget == 0 {
			return
		}
		if len(s) > c.budget {
			end := c.budget
			for end > 0 && !utf8.RuneStart(s[end]) {
				end--
			}
			s = s[:end]
		}
		c.budget -= max(len(s), 1)
	}
	for _, sp := range SecretShape(s) {
		c.add(s[sp.Start:sp.End])
	}
}

func (c *secretCollector) walk(v any, secret bool, depth int) {
	if depth > value.MaxDepth {
		return
	}
	switch v := v.(type) {
	case string:
		if secret {
			c.add(v)
		} else {
			c.text(v)
		}
	case value.Number:
		if secret {
			c.add(v.String())
		}
	case float64:
		if secret {
			c.add(value.FormatNumber(v))
		}
	case []any:
		for _, e := range v {
			c.walk(e, secret, depth+1)
		}
		for _, a := range argvSecrets(v) {
			c.add(v[a.index].(string)[a.Start:a.End])
		}
	case *value.Object:
		secretValue := secret || sensitive(v)
		for i := range v.Len() {
			k, e := v.At(i)
			c.text(k)
			c.walk(e, secret || fieldSecret(v, k) || (secretValue && strings.EqualFold(k, "value")) || authField(k, e), depth+1)
		}
	}
}

// ScrubText replaces every occurrence in s of any of secrets (Secrets of
// the value an output was written from) by the placeholder of its length,
// and what SecretText replaces, both read on s. The start of a secret that a cut left right
// before an Ellipsis (a formatter that truncated a credential: ghp_aB3…) is
// replaced too, when it has MinSecretRunes characters or more. Occurrences
// that overlap become one placeholder; placeholders in s are left as they
// are; secrets shorter than MinSecretRunes characters are ignored. It
// returns s itself when there is nothing to replace.
//
// There is no limit on the number of secrets, and none is dropped: the
// search is one pass of an Aho-Corasick automaton, in time linear in the
// length of s and of the secrets together. An output pass that scrubs
// several texts with the same secrets builds the automaton once with
// NewScrubber.
func ScrubText(s string, secrets []string) string {
	return NewScrubber(secrets).Scrub(s)
}

// Scrubber replaces the occurrences of a set of secrets in texts (see
// ScrubText). It is immutable, so safe for concurrent use.
type Scrubber struct {
	// The automaton's nodes are numbered from 0, the root. The children
	// of node n are the edges first[n]:first[n+1], in byte order, with
	// labels label and targets to; the root's are also in root, by byte.
	root  [256]int32
	first []int32
	label []byte
	to    []int32
	fail  []int32
	// out is the length of the longest secret that ends at a node, or 0.
	out []int32
	// depth is the length of the start of a secret a node stands for.
	depth []int32
}

// NewScrubber builds the automaton that finds secrets, in time linear in
// their total length (after sorting them).
func NewScrubber(secrets []string) *Scrubber {
	keep := make([]string, 0, len(secrets))
	for _, s := range secrets {
		if utf8.RuneCountInString(s) >= MinSecretRunes {
			keep = append(keep, s)
		}
	}
	slices.Sort(keep)
	keep = slices.Compact(keep)
	sc := &Scrubber{}
	if len(keep) == 0 {
		return sc
	}
	// The trie, built in byte order: a child that a secret shares with the
	// one before it is always its parent's last child.
	var parent []int32
	var edgeLabel []byte
	lastChild := []int32{0}
	lastLabel := []byte{0}
	out := []int32{0}
	depth := []int32{0}
	for _, s := range keep {
		node := int32(0)
		for i := range len(s) {
			c := s[i]
			if lc := lastChild[node]; lc != 0 && lastLabel[node] == c {
				node = lc
				continue
			}
			child := int32(len(out))
			parent = append(parent, node)
			edgeLabel = append(edgeLabel, c)
			lastChild[node], lastLabel[node] = child, c
			lastChild = append(lastChild, 0)
			lastLabel = append(lastLabel, 0)
			out = append(out, 0)
			depth = append(depth, int32(i+1))
			node = child
		}
		out[node] = int32(len(s))
	}
	nodes := len(out)
	// Edges by parent (node k+1 is the target of edge k, in creation
	// order, which is byte order for each parent).
	sc.first = make([]int32, nodes+1)
	for _, p := range parent {
		sc.first[p+1]++
	}
	for n := range nodes {
		sc.first[n+1] += sc.first[n]
	}
	sc.label = make([]byte, len(parent))
	sc.to = make([]int32, len(parent))
	fill := slices.Clone(sc.first[:nodes])
	for k, p := range parent {
		at := fill[p]
		fill[p]++
		sc.label[at], sc.to[at] = edgeLabel[k], int32(k+1)
	}
	for e := sc.first[0]; e < sc.first[1]; e++ {
		sc.root[sc.label[e]] = sc.to[e]
	}
	// Failure links, breadth first.
	sc.fail = make([]int32, nodes)
	queue := make([]int32, 0, nodes)
	for e := sc.first[0]; e < sc.first[1]; e++ {
		queue = append(queue, sc.to[e])
	}
	for q := 0; q < len(queue); q++ {
		u := queue[q]
		for e := sc.first[u]; e < sc.first[u+1]; e++ {
			c, v := sc.label[e], sc.to[e]
			f := sc.fail[u]
			for {
				if g := sc.child(f, c); g != 0 {
					sc.fail[v] = g
					break
				}
				if f == 0 {
					break
				}
				f = sc.fail[f]
			}
			if out[v] == 0 {
				out[v] = out[sc.fail[v]]
			}
			queue = append(queue, v)
		}
	}
	sc.out, sc.depth = out, depth
	return sc
}

// child returns the child of node n by byte c, or 0.
func (sc *Scrubber) child(n int32, c byte) int32 {
	if n == 0 {
		return sc.root[c]
	}
	lo, hi := sc.first[n], sc.first[n+1]
	for lo < hi {
		mid := int32(uint32(lo+hi) >> 1)
		switch l := sc.label[mid]; {
		case l == c:
			return sc.to[mid]
		case l < c:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0
}

// Scrub is ScrubText with the scrubber's secrets.
func (sc *Scrubber) Scrub(s string) string { return sc.ScrubWith(s, nil) }

// ScrubWith is Scrub that also replaces the spans also of s (in any
// order; overlapping ones are merged), which a reading of s this package
// does not make has found: the runtime's, of text as a person sees it.
// The secrets, the credentials SecretShape finds and also are all found
// in s itself, so that replacing one cannot hide another from the rule: a
// secret that holds a credential of a well-known shape, or that ends
// inside one, is replaced whole. A nil Scrubber has no secrets.
func (sc *Scrubber) ScrubWith(s string, also []Span) string {
	var found []Span
	if sc != nil && sc.out != nil {
		found = sc.find(s)
	}
	if found == nil && also == nil {
		return SecretText(s)
	}
	spans := append(append(found, SecretShape(s)...), also...)
	slices.SortFunc(spans, func(a, b Span) int { return a.Start - b.Start })
	merged := spans[:0]
	for _, sp := range spans {
		if n := len(merged); n > 0 && merged[n-1].End > sp.Start {
			merged[n-1].End = max(merged[n-1].End, sp.End)
			continue
		}
		merged = append(merged, sp)
	}
	out := replaceSpans(s, merged)
	// Every credential of s is replaced; a placeholder can only bring
	// forth another where it cut a word, whose rest now starts one.
	for _, sp := range merged {
		if sp.End < len(s) && alnum[s[sp.End]] {
			return SecretText(out)
		}
	}
	return out
}

// find returns the spans of the secrets in s, and of the starts of secrets
// cut before an ellipsis, in order, overlapping ones merged.
func (sc *Scrubber) find(s string) []Span {
	var found []Span
	// record adds the span of a secret, or of its start, merged with
	// those it overlaps.
	record := func(sp Span) {
		for len(found) > 0 && found[len(found)-1].End > sp.Start {
			sp.Start = min(sp.Start, found[len(found)-1].Start)
			found = found[:len(found)-1]
		}
		found = append(found, sp)
	}
	state := int32(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == placeholderOpen[0] {
			if n := placeholderAt(s, i); n > 0 {
				i += n - 1
				state = 0
				continue
			}
		}
		if c == Ellipsis[0] && state != 0 && strings.HasPrefix(s[i:], Ellipsis) {
			// The text before the ellipsis ends with the start of a
			// secret (the longest, as the automaton's state says):
			// a cut credential.
			if d := int(sc.depth[state]); utf8.RuneCountInString(s[i-d:i]) >= MinSecretRunes {
				record(Span{i - d, i})
			}
		}
		for {
			if g := sc.child(state, c); g != 0 {
				state = g
				break
			}
			if state == 0 {
				break
			}
			state = sc.fail[state]
		}
		if l := int(sc.out[state]); l > 0 {
			// The longest secret ending here covers every other one
			// that ends here.
			record(Span{i + 1 - l, i + 1})
		}
	}
	return found
}
