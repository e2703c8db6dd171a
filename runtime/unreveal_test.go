package runtime

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
	"github.com/rivo/uniseg"
	"github.com/stretchr/testify/assert"
)

// unreveal reads the output of SafeText(_, Reveal, 0) back into the text it
// came from, up to white-space folding: it undoes the escapes SafeText's
// doc comment lists. It fails on an escape SafeText never writes.
func unreveal(out string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(out); {
		c := out[i]
		if c != '\\' || i+1 == len(out) {
			b.WriteByte(c)
			i++
			continue
		}
		switch out[i+1] {
		case '\\':
			b.WriteByte('\\')
			i += 2
		case 'n':
			b.WriteByte('\n')
			i += 2
		case 'r':
			b.WriteByte('\r')
			i += 2
		case 'h':
			if !strings.HasPrefix(out[i:], `\hidden{`) {
				b.WriteByte(c)
				i++
				continue
			}
			n, err := unrevealHidden(&b, out[i:])
			if err != nil {
				return "", fmt.Errorf("%v at %d of %q", err, i, out)
			}
			i += n
		case 'u', 'x':
			if i+2 == len(out) || out[i+2] != '{' {
				b.WriteByte(c)
				i++
				continue
			}
			end := strings.IndexByte(out[i:], '}')
			if end < 0 {
				return "", fmt.Errorf("unterminated escape at %d of %q", i, out)
			}
			hex := out[i+3 : i+end]
			v, err := strconv.ParseUint(hex, 16, 32)
			if err != nil || hex != strings.ToUpper(hex) || (len(hex) > 1 && hex[0] == '0') {
				return "", fmt.Errorf("bad escape %q at %d of %q", out[i:i+end+1], i, out)
			}
			if out[i+1] == 'x' {
				if v < 0x80 || len(hex) != 2 {
					return "", fmt.Errorf("bad byte escape %q in %q", out[i:i+end+1], out)
				}
				b.WriteByte(byte(v))
			} else {
				if !utf8.ValidRune(rune(v)) {
					return "", fmt.Errorf("bad rune escape %q in %q", out[i:i+end+1], out)
				}
				b.WriteRune(rune(v))
			}
			i += end + 1
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// unrevealHidden reads the \hidden{…} escape at the start of out as the tag
// characters it came from and returns its length. It accepts only what
// SafeText writes: a non-empty text of printable ASCII in which }, \ and
// a space after a space are escaped with a backslash, and nothing else is,
// or, in text SafeText cut, such a text (maybe empty) and "…}", read as
// the tag characters and "…".
func unrevealHidden(b *strings.Builder, out string) (int, error) {
	afterSpace := false
	for i := len(`\hidden{`); i < len(out); i++ {
		c := out[i]
		switch {
		case strings.HasPrefix(out[i:], "…}"):
			b.WriteString("…")
			return i + len("…}"), nil
		case c == '}':
			if i == len(`\hidden{`) {
				return 0, fmt.Errorf("empty hidden text")
			}
			return i + 1, nil
		case c == '\\':
			if i+1 == len(out) {
				return 0, fmt.Errorf("unterminated hidden text")
			}
			i++
			c = out[i]
			if c != '\\' && c != '}' && (c != ' ' || !afterSpace) {
				return 0, fmt.Errorf("bad escape \\%c in hidden text", c)
			}
		case c < ' ' || c > '~' || c == ' ' && afterSpace:
			return 0, fmt.Errorf("%q in hidden text", c)
		}
		b.WriteRune(0xE0000 + rune(c))
		afterSpace = c == ' '
	}
	return 0, fmt.Errorf("unterminated hidden text")
}

// fold applies the white-space folding SafeText does by design: every run
// of white space other than a line break becomes one space, and the ends
// are trimmed. Invalid bytes stay as they are.
func fold(s string) string {
	var b strings.Builder
	pending := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if size == 1 && r == utf8.RuneError {
			r = -1
		}
		if r >= 0 && unicode.Is(unicode.White_Space, r) && !strings.ContainsRune("\n\r\v\f\u0085\u2028\u2029", r) {
			pending = true
		} else {
			if pending && b.Len() > 0 {
				b.WriteByte(' ')
			}
			pending = false
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// checkRoundTrip asserts that Reveal's output reads back as the input.
func checkRoundTrip(t testing.TB, s string) {
	t.Helper()
	out := SafeText(s, Reveal, 0)
	back, err := unreveal(out)
	if err != nil {
		t.Fatalf("%v (from %q)", err, s)
	}
	if back != fold(s) {
		t.Fatalf("%q reveals as %q, which reads back as %q, not %q", s, out, back, fold(s))
	}
}

// revealPieces are the pieces random test strings are made of: characters
// that escape, characters that look like escapes, and the sequences that
// legitimately keep invisible characters.
var revealPieces = []string{
	"a", "n", "r", "u", "x", "{", "}", "F", "2", "0", "1", "#", "\\", "\\", " ", "  ", "\t", "\n", "\r",
	"\v", "\u0085", "\u2028", "\u00a0", "\u3000", "\u202e", "\u200b", "\u200d", "\u200c", "\ufeff",
	"\ufe0f", "\ufe0e", "\ufe00", "\U000E0100", "\u180b", "\u034f", "\u1160", "\u3164", "\x1b", "[",
	"\x00", "\x7f", "\u009b", "\xff", "\xc3", "\xe6\x97", "\ufffd", "❤", "😀", "漢", "ᠭ", "≩", "é",
	"\u0301", "\u20e3", "🏴", "\U000E0067", "\U000E0062", "\U000E0065", "\U000E006E", "\U000E007F",
	tagsEngland, "…", "\u0600", "\\u{", "\\x{", "\\n",
	// Tag characters outside a flag, revealed decoded as \hidden{…}: the
	// ones written escaped inside it (}, \, space), {, letters, and the
	// escape typed out.
	"\U000E0078", "\U000E007D", "\U000E005C", "\U000E0020", "\U000E0020", "\U000E007B",
	"\U000E0068", "\U000E0001", "\\hidden{", "hidden{", "}", "\\}", "\\ ",
}

func randomRevealText(rng *rand.Rand) string {
	var b strings.Builder
	for n := rng.IntN(10); n > 0; n-- {
		b.WriteString(revealPieces[rng.IntN(len(revealPieces))])
	}
	return b.String()
}

func TestRevealRoundTrip(t *testing.T) {
	for _, s := range append(hostileSeeds, revealPieces...) {
		checkRoundTrip(t, s)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		checkRoundTrip(t, randomRevealText(rng))
	}
}

func TestRevealIsInjective(t *testing.T) {
	pairs := [][2]string{
		{`echo x\ntouch /tmp/pwned`, "echo x\ntouch /tmp/pwned"},
		{`a\rb`, "a\rb"},
		{`/tmp/\u{202E}gnp.exe`, "/tmp/\u202egnp.exe"},
		{`a\x{FF}`, "a\xff"},
		{"a\ufffd", "a\xff"},
		{`\u{FEFF}/etc/cron.d/job`, "\ufeff/etc/cron.d/job"},
		{"a\\\nb", `a\\nb`},
		{"a\\\u202e", `a\\u{202E}`},
		{`C:\new`, "C:\new"},
		{"\\", `\\`},
		{"x\\", "x\\\\"},
		{"ss\u034fh", `ss\u{34F}h`},
		{`\hidden{x}`, tags("x")},
		{`\hidden{\}}`, tags("}")},
		{"\\" + tags("x"), `\\hidden{x}`},
		{tags("a  b"), tags("a b")},
		{tags(`\`), tags(`\\`)},
	}
	for _, p := range pairs {
		a, b := SafeText(p[0], Reveal, 0), SafeText(p[1], Reveal, 0)
		assert.NotEqual(t, a, b, "%q and %q both reveal as %q", p[0], p[1], a)
	}
	// Random strings over a small alphabet collide often if the
	// revealing is not injective.
	seen := map[string]string{}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300000 {
		s := randomRevealText(rng)
		out, f := SafeText(s, Reveal, 0), fold(s)
		if prev, ok := seen[out]; ok && prev != f {
			t.Fatalf("%q and %q both reveal as %q", prev, f, out)
		}
		seen[out] = f
	}
}

// TestFastPathNeedsCare checks every non-ASCII rune the fast path accepts
// without looking at it closely: the full sanitizer must leave it as it
// is, whatever precedes it.
func TestFastPathNeedsCare(t *testing.T) {
	if testing.Short() {
		t.Skip("walks every code point")
	}
	// Ten sanitizer runs for each of a million code points took most of
	// a minute on a busy machine under the race detector, for nothing it
	// can find (one goroutine runs them): there every 61st code point is
	// walked, and the normal run walks them all.
	step := rune(1)
	if raceEnabled {
		step = 61
	}
	for r := rune(0x80); r <= unicode.MaxRune; r += step {
		if r >= 0xD800 && r <= 0xDFFF || needsCare(r) && r != utf8.RuneError {
			continue
		}
		c := string(r)
		for _, s := range []string{"a" + c + "a", "é" + c, "😀" + c, "漢" + c, "ᠭ" + c} {
			for _, p := range []TextPolicy{Reveal, Strip} {
				full := sanitizer{policy: p, max: 100, src: s}
				full.run()
				if got := full.result(); got != s {
					t.Fatalf("needsCare(%U) is false, but %v rewrites %q as %q", r, p, s, got)
				}
			}
		}
	}
}

func TestHiddenTable(t *testing.T) {
	hidden := []rune{0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D,
		0x180E, 0x180F, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202E, 0x2060, 0x2064, 0x2065,
		0x2066, 0x2069, 0x206F, 0x3164, 0xFE00, 0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0, 0xFFF8, 0xFFF9, 0xFFFB,
		0x1BCA0, 0x1D173, 0xE0000, 0xE0001, 0xE0020, 0xE007F, 0xE0100, 0xE01EF, 0xE0FFF}
	for _, r := range hidden {
		assert.True(t, isHidden(r), "%U", r)
		assert.True(t, needsCare(r), "%U", r)
	}
	visible := []rune{' ', 'a', 0x00A0, 0x0600, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2,
		0x110BD, 0x110CD, 0x1680, 0x3000, 0x2028, 0xFFFD, 0x1F3F4, 0xE1000}
	for _, r := range visible {
		assert.False(t, isHidden(r), "%U", r)
	}
	// Every default-ignorable code point, derived independently.
	for r := rune(0); r <= unicode.MaxRune; r++ {
		di := unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Cf, unicode.Variation_Selector) &&
			!unicode.In(r, unicode.White_Space, unicode.Prepended_Concatenation_Mark)
		if di != isHidden(r) {
			t.Fatalf("%U: default ignorable or format %v, hidden %v", r, di, isHidden(r))
		}
	}
}

func TestExtendedPictographicMatchesUniseg(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		s := string(r) + "\u200d\u2764"
		cluster, _, _, _ := uniseg.FirstGraphemeClusterInString(s, -1)
		if want := cluster == s; want != unicode.Is(extendedPictographic, r) {
			t.Fatalf("%U: uniseg says Extended_Pictographic is %v", r, want)
		}
	}
}

// The default preview is JSON text, revealed without doubling backslashes:
// JSON already writes each of the data's backslashes twice, so two
// different JSON texts still never read the same, and a line feed in a
// value shows as \n, as in the reference.
func TestRevealJSONIsInjective(t *testing.T) {
	jsonOf := func(s string) string { return textfmt.CompactJSON(value.NewObject("k", s)) }
	tests := []struct{ in, want string }{
		{"a\nb", `{"k":"a\nb"}`},
		{`C:\new`, `{"k":"C:\\new"}`},
		{"/tmp/\u202egnp.exe", `{"k":"/tmp/\u{202E}gnp.exe"}`},
		{`/tmp/\u{202E}gnp.exe`, `{"k":"/tmp/\\u{202E}gnp.exe"}`},
		{"\x1b[31m", `{"k":"\u001b[31m"}`},
		{"\u009b2J", `{"k":"\u{9B}2J"}`},
		// Tag text is revealed decoded, and its escape cannot be read as
		// JSON's: \t is a tab in JSON, so it is not \tags{x}.
		{tags("x"), `{"k":"\hidden{x}"}`},
		{"\tags{x}", `{"k":"\tags{x}"}`},
		{`\hidden{x}`, `{"k":"\\hidden{x}"}`},
		{`\` + tags("x"), `{"k":"\\\hidden{x}"}`},
		{tags(`a"}\`), `{"k":"\hidden{a"\}\\}"}`},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, revealJSON(jsonOf(tc.in), 0), "%q", tc.in)
	}
	seen := map[string]string{}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		js := jsonOf(randomRevealText(rng))
		out := revealJSON(js, 0)
		if prev, ok := seen[out]; ok && prev != js {
			t.Fatalf("%q and %q both reveal as %q", prev, js, out)
		}
		seen[out] = js
	}
}
