package runtime

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxKeyLen bounds a registry key's length in bytes.
const MaxKeyLen = 256

// KeyError reports a key that cannot name a formatter. It matches
// ErrInvalidKey.
type KeyError struct {
	Key    string
	Reason string // why, such as "empty" or "contains U+0020"
}

// Error says which key and why.
func (e *KeyError) Error() string { return fmt.Sprintf("%v %q: %s", ErrInvalidKey, e.Key, e.Reason) }

// Unwrap returns ErrInvalidKey.
func (e *KeyError) Unwrap() error { return ErrInvalidKey }

// ValidateKey reports why key cannot name a formatter (a *KeyError), or
// nil. A key is a tool name, an MCP key "server:tool" or "server:*", or the
// umbrella "mcp": non-empty, at most MaxKeyLen bytes of printable UTF-8
// without white space, with "*" only standing for a whole MCP tool name.
func ValidateKey(key string) error {
	if reason := keyProblem(key); reason != "" {
		return &KeyError{Key: key, Reason: reason}
	}
	return nil
}

func keyProblem(key string) string {
	switch {
	case key == "":
		return "empty"
	case len(key) > MaxKeyLen:
		return fmt.Sprintf("longer than %d bytes", MaxKeyLen)
	case !utf8.ValidString(key):
		return "not valid UTF-8"
	}
	for _, r := range key {
		if ' ' < r && r < 0x7F {
			continue // printable ASCII, the bytes of almost every key
		}
		if !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return fmt.Sprintf("contains %U", r)
		}
	}
	server, tool, mcp := strings.Cut(key, ":")
	const wildcard = `"*" is only allowed as "server:*"`
	switch {
	case !mcp && strings.Contains(key, "*"):
		return wildcard
	case mcp && server == "":
		return "no server before ':'"
	case mcp && tool == "":
		return `no tool after ':' (use "server:*" for every tool of a server)`
	case mcp && strings.Contains(server, "*"):
		return wildcard
	case mcp && tool != "*" && strings.Contains(tool, "*"):
		return wildcard
	}
	return ""
}
