package generated_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/permgen/permgen/runtime"
)

// TestRuleHiddenValuesGiveTheirSize: a value the stock catalog hides by its
// own rule (a query parameter named like a credential, the user part of a
// URL) is shown as the redaction rule shows a credential, by its size, so
// that a 3 KB session parameter does not read like a short one.
func TestRuleHiddenValuesGiveTheirSize(t *testing.T) {
	d, _ := stockDispatcher(t)
	session := strings.Repeat("s3ss10n", 3000/7)
	long := strings.Repeat("x", 9000)
	tests := []struct {
		name, url, want string
	}{
		{"a session parameter of 3 KB", "https://x.example/a?session=" + session + "&page=2",
			"to fetch 'https://x.example/a?session=‹secret, 2996 characters›&page=2' (hidden credentials: 'session')"},
		{"a fragment is not part of the value", "https://x.example/a?q=1&sig=abc#top",
			"to fetch 'https://x.example/a?q=1&sig=‹secret, 3 characters›#top' (hidden credentials: 'sig')"},
		{"the user part of a URL", "https://deploy:hunter2@ci.example.com/",
			"to fetch 'https://‹secret, 14 characters›@ci.example.com/' (hidden credentials: a password)"},
		{"a value the cut of the URL ends in counts what was read", "https://x.example/?token=" + long,
			"to fetch 'https://x.example/?token=‹secret, 8167 characters›…' (hidden credentials: 'token')"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := d.Preview(runtime.Call{Tool: "web_fetch", Input: `{"url":` + quote(tc.url) + `}`})
			assert.Equal(t, tc.want, p.Text)
		})
	}
}
