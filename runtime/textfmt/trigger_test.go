package textfmt

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// everywhereShape is SecretShape with every rule tried at every position:
// the scanner without its jumps between triggers.
func everywhereShape(s string) []Span {
	sc := secretScanner{s: s, everywhere: true}
	sc.scan()
	return sc.spans
}

// triggerCases hold a credential of each rule, each with its trigger as
// far from where the rule starts as the rule allows.
var triggerCases = []string{
	"https://" + ghp + "@github.com/a", "https://deploy:hunter22@ci.example.com/x",
	"ssh://" + strings.Repeat("u", 200) + ":pw@host", strings.Repeat("s", 31) + "://user:pw@h",
	"?" + strings.Repeat("a_", 28) + "token=abc", "&x%5Ftoken=1", "?%C5%BFig=x", "?X-Amz-Signature=abc",
	`"` + strings.Repeat("x_", 28) + `password": "abc"`, "SECRET_KEY = 'dj-abc'", "--password Qx2Wz9Kp1",
	strings.Repeat("a", 59) + "Token: abc", "githubPATValue: abc", "patHex = abc", "PATHex = abc",
	"Authorization: Digest a=\"1\"", "authorization: Basic dXNlcjpwYXNz", "Bearer abcdef0123456789xyz",
	"-----BEGIN " + strings.Repeat("X", 50) + " PRIVATE KEY-----\n" + pemBody + "-----END PRIVATE KEY-----",
	"-----BEGIN ENCRYPTED PRIVATE KEY BLOCK-----\nabc",
	ghp, pat, openai, akia, google, slack, jwt, "glpat-" + strings.Repeat("a1", 12), "npm_" + strings.Repeat("a1", 18),
	"hf_" + strings.Repeat("a1", 16), "lin_api_" + strings.Repeat("a1", 17), "sk_live_" + strings.Repeat("a1", 9),
	"rk_test_" + strings.Repeat("a1", 9), "ASIA" + strings.Repeat("A1", 8),
	"mysql " + strings.Repeat("-v ", 100) + "-pX1", "curl -u a:b", "7z a -ppw x.7z", "docker login -p pw",
	"htpasswd -nb admin pw", "keytool -storepass changeit", "redis-cli -a pw", "openssl enc -k pw",
}

// TestTriggerJumps: the scanner finds what it finds when it tries every
// rule everywhere, however much text without a trigger comes before,
// after or between the credentials.
func TestTriggerJumps(t *testing.T) {
	pads := []string{"", " ", "path/to/file.go ", strings.Repeat("the quick brown fox ", 20), strings.Repeat("x", 300)}
	for _, c := range triggerCases {
		require.NotEmpty(t, everywhereShape(c), "%q has no credential", c)
		for _, before := range pads {
			for _, after := range pads {
				s := before + c + after + c + before
				assert.Equal(t, everywhereShape(s), SecretShape(s), "%.80q", s)
			}
		}
	}
}

// TestTriggerPassesOver: text with no trigger is not read by the rules,
// and "path" is no trigger.
func TestTriggerPassesOver(t *testing.T) {
	for _, s := range []string{"", "a", "/src/app/main.go", `{"file_path": "/tmp/Path/path"}`, "the quick brown fox"} {
		assert.Equal(t, -1, nextTrigger(s, 0), "%q", s)
	}
	for _, s := range []string{"pat", "pat_", "patH", "PAT2", "x://", "%4", "SiG", "eyJ", "task-runner sk-"} {
		assert.NotEqual(t, -1, nextTrigger(s, 0), "%q", s)
	}
}

func FuzzSecretTrigger(f *testing.F) {
	for _, c := range triggerCases {
		f.Add(c)
		f.Add("x " + c + " path " + c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := SecretShape(s), everywhereShape(s); !assert.ObjectsAreEqual(want, got) {
			t.Fatalf("SecretShape(%q) = %v, but trying every rule everywhere finds %v", s, got, want)
		}
	})
}
