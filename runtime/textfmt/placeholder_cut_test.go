package textfmt

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPlaceholderACutEndsInIsKept: a formatter that hides a value by its
// own rule shows its size as a placeholder, followed by an ellipsis when
// the text it read was cut inside the value; redacting that text again
// leaves the placeholder as it is, as it does any placeholder, rather than
// hiding it as if it were the credential.
func TestPlaceholderACutEndsInIsKept(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"a placeholder", "https://x.example/?token=‹secret, 8167 characters›", "https://x.example/?token=‹secret, 8167 characters›"},
		{"a placeholder a cut ends in", "https://x.example/?token=‹secret, 8167 characters›…", "https://x.example/?token=‹secret, 8167 characters›…"},
		{"text after the placeholder is still read", "https://x.example/?token=‹secret, 1 character›abc", "https://x.example/?token=‹secret, 24 characters›"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, SecretText(tc.text))
		})
	}
}
