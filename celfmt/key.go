package celfmt

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxKeyLen bounds a registry key's length in bytes.
const MaxKeyLen = 256

// ValidateKey reports why key cannot name a formatter, or nil. A key is a
// tool name, an MCP key "server:tool" or "server:*", or the umbrella "mcp":
// non-empty, at most MaxKeyLen bytes of printable UTF-8 without white
// space, with "*" only standing for a whole MCP tool name.
func ValidateKey(key string) error {
	switch {
	case key == "":
		return errors.New("empty")
	case len(key) > MaxKeyLen:
		return fmt.Errorf("longer than %d bytes", MaxKeyLen)
	case !utf8.ValidString(key):
		return errors.New("not valid UTF-8")
	}
	for _, r := range key {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return fmt.Errorf("contains %U", r)
		}
	}
	server, tool, mcp := strings.Cut(key, ":")
	wildcard := errors.New(`"*" is only allowed as "server:*"`)
	switch {
	case !mcp && strings.Contains(key, "*"):
		return wildcard
	case mcp && server == "":
		return errors.New("no server before ':'")
	case mcp && tool == "":
		return errors.New(`no tool after ':' (use "server:*" for every tool of a server)`)
	case mcp && strings.Contains(server, "*"):
		return wildcard
	case mcp && tool != "*" && strings.Contains(tool, "*"):
		return wildcard
	}
	return nil
}
