package textfmt

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestXDDevice holds XDDevice to oh-my-pi's own reading of a write's path
// (github.com/can1357/oh-my-pi): WriteTool.approval and WriteTool.execute
// in packages/coding-agent/src/tools/write.ts at commit
// 854f383ea0ab4ad660e8046249c74fc822476673 unwrap a hashline header
// (unwrapHashlineHeaderPath: trimEnd, "[PATH]" or "[PATH#XXXX]",
// HL_FILE_HASH_LENGTH 4 in packages/tui/src/tools/hashline-format.ts at
// 05a82239f494e159bf16e52d7c5169d1048ca6e0) and route by parseXdUrl in
// packages/coding-agent/src/internal-urls/xd-protocol.ts at commit
// 501bb847409158d8bcdce181c5250bbfb53e3740 (trim, a case-insensitive
// "xd://", no "#" and no "/" in the name, decodeURIComponent); its write
// refuses a query and an empty name.
func TestXDDevice(t *testing.T) {
	tests := []struct {
		name, path string
		want       string // "" when the write runs no device
	}{
		{"plain", "xd://bash", "bash"},
		{"upper-case scheme", "XD://bash", "bash"},
		{"mixed-case scheme", "xD://web_fetch", "web_fetch"},
		{"the name keeps its case", "xd://Bash", "Bash"},
		{"leading space", " xd://bash", "bash"},
		{"trailing line break", "xd://bash\n", "bash"},
		{"byte order mark", "\uFEFFxd://bash", "bash"},
		{"byte order mark at the end", "xd://bash\uFEFF", "bash"},
		{"no-break and ideographic spaces", "\u00A0xd://bash\u3000", "bash"},
		{"line separator and tab", "\u2028\txd://bash", "bash"},
		{"hashline header", "[xd://bash#ABCD]", "bash"},
		{"hashline header, lower-case tag", "[xd://bash#0f9e]", "bash"},
		{"hashline header without a tag", "[xd://bash]", "bash"},
		{"hashline header, space after", "[xd://bash#ABCD] \n", "bash"},
		{"hashline header, spaces inside", "[ XD://bash #ABCD]", "bash"},
		{"percent-encoded name", "xd://%62ash", "bash"},
		{"percent-encoded underscore", "xd://web%5Ffetch", "web_fetch"},
		{"percent-encoded UTF-8", "xd://caf%C3%A9", "café"},
		{"an encoded slash is part of the name", "xd://%2Fbin", "/bin"},
		{"an encoded space is a name", "xd://%20", " "},

		{"one slash", "xd:/bash", ""},
		{"no slash", "xd:bash", ""},
		{"another scheme", "xdx://bash", ""},
		{"a scheme that ends in xd", "axd://bash", ""},
		{"slashes only", "xd//bash", ""},
		{"a path that holds the URL", "/tmp/xd://bash", ""},
		{"zero-width space is not trimmed", "\u200Bxd://bash", ""},
		{"next line is not trimmed", "\u0085xd://bash", ""},
		{"space inside the scheme", "xd ://bash", ""},
		{"the list of devices", "xd://", ""},
		{"the list of devices, spaced", " XD:// ", ""},
		{"a path after the name", "xd://bash/run", ""},
		{"a query", "xd://bash?q=x", ""},
		{"an empty query", "xd://bash?", ""},
		{"a fragment", "xd://bash#ABCD", ""},
		{"space before the header", " [xd://bash#ABCD]", ""},
		{"a tag of three digits", "[xd://bash#ABC]", ""},
		{"a tag of five digits", "[xd://bash#ABCDE]", ""},
		{"a tag that is not hexadecimal", "[xd://bash#WXYZ]", ""},
		{"a header in a header", "[[xd://bash#ABCD]#ABCD]", ""},
		{"an empty header", "[#ABCD]", ""},
		{"an unclosed header", "[xd://bash#ABCD", ""},
		{"a lone percent", "xd://%", ""},
		{"a short escape", "xd://ba%6", ""},
		{"not hexadecimal", "xd://%zzbash", ""},
		{"a lone continuation byte", "xd://%80", ""},
		{"an overlong slash", "xd://%C0%AF", ""},
		{"a surrogate", "xd://%ED%A0%80", ""},
		{"a sequence cut short", "xd://%E2%82", ""},
		{"a file", "/home/dev/.bashrc", ""},
		{"empty", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := XDDevice(tc.path)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.want != "", ok)
		})
	}
}

// FuzzXDDevice: a device name is never empty, and a path is routed to a
// device only when, trimmed and unwrapped, it starts with the scheme in
// some case.
func FuzzXDDevice(f *testing.F) {
	for _, s := range []string{"xd://bash", "[XD://b%61sh#ABCD] ", "\uFEFFxd://x", "xd://%E2%82", "[xd://a#b#ABCD]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		name, ok := XDDevice(path)
		if !ok {
			assert.Empty(t, name)
			return
		}
		assert.NotEmpty(t, name)
		route := trimJS(unwrapHashlineHeader(path))
		assert.Equal(t, xdScheme, lowerASCII(route[:len(xdScheme)]))
		assert.NotContains(t, route[len(xdScheme):], "/")
	})
}

// TestCouldBeXDDevice: a path still arriving is held back while it may
// grow into one XDDevice routes, read as XDDevice reads it; oh-my-pi's
// couldBecomeXdUrl (packages/coding-agent/src/internal-urls/xd-protocol.ts
// at commit 501bb847409158d8bcdce181c5250bbfb53e3740) compares the raw
// prefix with "xd://" in lower case, and holds back no path that opens with
// white space or a hashline header, which its write still routes.
func TestCouldBeXDDevice(t *testing.T) {
	tests := []struct {
		prefix string
		want   bool
	}{
		{"", true},
		{"x", true},
		{"X", true},
		{"xD:", true},
		{"xd:/", true},
		{"xd://", true},
		{"xd://web_fe", true},
		{"XD://bash", true},
		{" ", true},
		{" \txd:", true},
		{"\uFEFFxd", true},
		{"[", true},
		{"[ XD:/", true},
		{"[xd://bash#AB", true},

		{"/", false},
		{"/tmp/x", false},
		{"xd:/b", false},
		{"xdx", false},
		{"xd:b", false},
		{" [xd:", false},
		{"[[", false},
		{"\u200Bxd", false},
		{"a", false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, CouldBeXDDevice(tc.prefix), "%q", tc.prefix)
	}
}

// FuzzCouldBeXDDevice: every prefix of a path XDDevice routes to a device
// is held back, so no frame of a streaming row shows a device write as a
// file write.
func FuzzCouldBeXDDevice(f *testing.F) {
	for _, s := range []string{"xd://bash", "[ XD://b%61sh #ABCD] ", "\uFEFF xd://web_fetch\n", "/tmp/x", "[xd://a]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		if _, ok := XDDevice(path); !ok {
			return
		}
		for i := range path {
			assert.True(t, CouldBeXDDevice(path[:i]), "%q, a prefix of %q", path[:i], path)
		}
		assert.True(t, CouldBeXDDevice(path))
	})
}
