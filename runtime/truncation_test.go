package runtime

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/textfmt"
)

// truncated is textfmt.Truncate(s, n) with the white space before the "…"
// dropped, as SafeText drops it: for text SafeText has nothing to rewrite
// in, that is its whole effect.
func truncated(s string, n int) string {
	out := textfmt.Truncate(s, n)
	if body, ok := strings.CutSuffix(out, textfmt.Ellipsis); ok && out != s {
		return strings.TrimRight(body, " ") + textfmt.Ellipsis
	}
	return out
}

// plainPieces are pieces of text SafeText leaves as they are: letters,
// CJK, emoji with ZWJ, skin tones and variation selectors, flags, and
// letters with combining marks.
var plainPieces = []string{
	"a", "Zq", "run", "x7", "é", "日本語", "テキスト", "한국어", "עברית", "العربية", "क्ष",
	"😀", "👍🏽", "👨\u200d👩\u200d👧", "👩🏾\u200d💻", "❤\ufe0f", "🇫🇷", "🇯🇵🇩🇪",
	"🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F",
	"e\u0301", "a\u0308\u0323", "n\u0303",
}

// plainText returns random text that SafeText has nothing to rewrite in:
// pieces, runs of combining marks of any length (a long run is a cluster
// truncation cuts like plain text), separated by nothing or one space.
func plainText(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(12) + 1 {
		if b.Len() > 0 && rng.IntN(3) == 0 {
			b.WriteByte(' ')
		}
		if rng.IntN(4) == 0 {
			b.WriteString(string(rune('a' + rng.IntN(26))))
			marks := []rune{0x0301, 0x0308, 0x0323, 0x036F}
			for range rng.IntN(70) {
				b.WriteRune(marks[rng.IntN(len(marks))])
			}
			continue
		}
		b.WriteString(plainPieces[rng.IntN(len(plainPieces))])
	}
	return b.String()
}

// checkAgrees fails unless SafeText cuts s to n runes as Truncate does.
func checkAgrees(t *testing.T, s string, n int) {
	t.Helper()
	want := truncated(s, n)
	for _, p := range []TextPolicy{Reveal, Strip} {
		if got := SafeText(s, p, n); got != want {
			t.Fatalf("SafeText(%+q, %v, %d) = %+q, Truncate gives %+q", s, p, n, got, want)
		}
	}
}

// SafeText and textfmt.Truncate cut with one engine: on text SafeText has
// nothing to rewrite in, they agree at every limit.
func TestSafeTextCutsAsTruncate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		s := plainText(rng)
		if got := SafeText(s, Reveal, 0); got != s {
			t.Fatalf("generated text %+q is not plain: %+q", s, got)
		}
		runes := utf8.RuneCountInString(s)
		for range 8 {
			checkAgrees(t, s, rng.IntN(runes+3)+1)
		}
	}
}

// The case of the layering issue: a cluster too long to keep whole is cut
// like plain text by both, not cut by one and dropped by the other.
func TestLongClusterCutAlike(t *testing.T) {
	for marks := 25; marks <= 45; marks++ {
		s := "abx" + strings.Repeat("\u0301", marks)
		for n := 1; n <= marks+5; n++ {
			checkAgrees(t, s, n)
		}
		checkAgrees(t, s+" yz", marks+3)
		checkAgrees(t, "日"+s+"🇫🇷", marks+4)
	}
	s := "abx" + strings.Repeat("\u0301", 40)
	want := "abx" + strings.Repeat("\u0301", 7) + "…"
	if got := SafeText(s, Reveal, 10); got != want {
		t.Fatalf("SafeText = %+q, want %+q", got, want)
	}
	if got := textfmt.Truncate(s, 10); got != want {
		t.Fatalf("Truncate = %+q, want %+q", got, want)
	}
	// A cluster of MaxClusterRunes runes is still kept whole or dropped.
	s = "ab" + "x" + strings.Repeat("\u0301", textfmt.MaxClusterRunes-1)
	if got := SafeText(s, Reveal, 10); got != "ab…" {
		t.Fatalf("SafeText = %+q, want ab…", got)
	}
}

// Marks after an escape go with it by the same rule: a few are kept with
// the escape or dropped with it, a long run is cut like plain text.
func TestMarksAfterEscapeCut(t *testing.T) {
	assert := func(in string, max int, want string) {
		t.Helper()
		got := SafeText(in, Reveal, max)
		if got != want {
			t.Fatalf("SafeText(%+q, %d) = %+q, want %+q", in, max, got, want)
		}
		checkSafeText(t, in, got, max)
	}
	assert("ab\u202e\u0301\u0301c", 11, "ab…")
	assert("ab\u202e\u0301\u0301c", 12, "ab\\u{202E}\u0301\u0301…")
	long := "ab\u202e" + strings.Repeat("\u0301", 40)
	assert(long, 12, "ab\\u{202E}\u0301\u0301…")
	assert(long, 10, "ab\\u{202E}…")
	assert(long, 9, "ab…")
}

// FitPrefix on a prefix of a text that holds MaxClusterRunes runes past
// the limit gives what it gives on the whole text, which is what lets
// SafeText stop reading there.
func TestFitPrefixOfPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		s := plainText(rng)
		rs := []rune(s)
		n := rng.IntN(len(rs)+2) + 1
		if n+textfmt.MaxClusterRunes+1 >= len(rs) {
			continue
		}
		prefix := string(rs[:n+textfmt.MaxClusterRunes+1])
		e1, r1 := textfmt.FitPrefix(s, n)
		e2, r2 := textfmt.FitPrefix(prefix, n)
		if e1 != e2 || r1 != r2 {
			t.Fatalf("FitPrefix(%+q, %d) = %d, %d; of its prefix %d, %d", s, n, e1, r1, e2, r2)
		}
	}
}
