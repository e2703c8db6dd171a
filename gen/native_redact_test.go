package gen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/value"
)

// redactStrings are texts for redact: each part of the rule, look-alikes,
// placeholders and text that is not ASCII (input text is valid UTF-8:
// the decoder replaces what is not).
var redactStrings = []string{
	"", " ", "git status", "https://deploy:hunter22@ci.example.com/x?access_token=abc&page=2#top",
	"git clone https://ghp_aB3aB3aB3aB3aB3aB3aB3aB3aB3aB3aB3aB3@github.com/a/b", "ssh://git@github.com/a",
	"curl -H 'Authorization: Bearer abc.def' https://x", "Authorization: Digest a=\"1\", b=\"2\"\nHost: x",
	`{"password": "hunter2", "max_tokens": "100"}`, `{'client_secret': 'x'}`, "AKIAIOSFODNN7EXAMPLE",
	"task-runner sk-learn sk-proj-Ab1Ab1Ab1Ab1Ab1Ab1Ab1Ab1", "xoxb-1234567890-abcdef", "eyJhbGciOi.eyJzdWIiOi.c2ln",
	"-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----", "-----BEGIN RSA PRIVATE KEY-----\nunterminated",
	"?sig=x&sig=y;token=z", "token: ‹secret, 40 characters›", "日本 https://u:pä@h", "\ufffd?token=\ufffd",
	strings.Repeat("&sig=x", 50), "Bearer abcdef0123456789xyz",
}

// redactNames are field names for redact(name, text).
var redactNames = []string{"token", "api_key", "x-api-key", "Authorization", "max_tokens", "secret_name", "key", "path", "", "ſecret"}

// TestRedactAgreesWithCEL: redact gives the same text through the CEL
// bindings as through the celrt functions translated code calls.
func TestRedactAgreesWithCEL(t *testing.T) {
	for _, s := range redactStrings {
		in := value.NewObject("s", s)
		agreeText(t, "redact(input.s)", in, celrt.Redact(s), nil)
		for _, name := range redactNames {
			in := value.NewObject("s", s, "n", name)
			agreeText(t, "redact(input.n, input.s)", in, celrt.RedactField(name, s), nil)
		}
	}
	// A value of another type fails in both.
	in := value.NewObject("n", 1.0)
	_, err := evalText(t, "redact(input.n)", in)
	assert.Error(t, err)
}
