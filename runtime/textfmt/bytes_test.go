package textfmt

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

func TestTruncateBytes(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		n          int
		want       string
	}{
		{"fits", "héllo", 6, "héllo"},
		{"ascii", "hello world", 8, "hello…"},
		{"no split of a two-byte rune", "ééé", 5, "é…"},
		{"no split of a two-byte rune at the budget", "ééé", 4, "…"},
		{"two-byte runes", "éééé", 7, "éé…"},
		{"CJK", "漢字漢字", 10, "漢字…"},
		{"emoji cluster kept whole", "a👩‍👩‍👧b", 15, "a…"},
		{"combining mark stays with its letter", "ée\u0301x", 7, "ée\u0301x"},
		{"combining mark cut with its letter", "ée\u0301x", 5, "é…"},
		{"too small for the ellipsis", "hello", 2, ""},
		{"just the ellipsis", "hello", 3, "…"},
		{"empty", "", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := TruncateBytes(tc.text, tc.n); got != tc.want {
				t.Errorf("TruncateBytes(%q, %d) = %q, want %q", tc.text, tc.n, got, tc.want)
			}
		})
	}
}

// TestTruncateBytesProperties: whatever the script and the budget, the
// result fits the budget, is valid UTF-8 when the text is, and is a prefix
// of the text that ends on a grapheme cluster boundary, followed by the
// ellipsis when it was cut.
func TestTruncateBytesProperties(t *testing.T) {
	pieces := []string{"a", " ", "é", "e\u0301", "漢", "字", "👍", "👩‍👩‍👧", "🇫🇷", "ب", "\u0915\u094d\u0937", "\r\n", "x\u0300\u0301\u0302"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100_000 {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		n := r.IntN(len(text) + 5)
		got := TruncateBytes(text, n)
		if len(got) > n {
			t.Fatalf("TruncateBytes(%q, %d) = %q: %d bytes", text, n, got, len(got))
		}
		if !utf8.ValidString(got) {
			t.Fatalf("TruncateBytes(%q, %d) = %q: invalid UTF-8", text, n, got)
		}
		if got == text {
			continue
		}
		if got == "" {
			if n >= len(Ellipsis) {
				t.Fatalf("TruncateBytes(%q, %d) = \"\" although the ellipsis fits", text, n)
			}
			continue
		}
		kept, ok := strings.CutSuffix(got, Ellipsis)
		if !ok || !strings.HasPrefix(text, kept) {
			t.Fatalf("TruncateBytes(%q, %d) = %q: not a prefix and an ellipsis", text, n, got)
		}
		if !onClusterBoundary(text, len(kept)) {
			t.Fatalf("TruncateBytes(%q, %d) = %q: splits a grapheme cluster", text, n, got)
		}
	}
}

func onClusterBoundary(text string, at int) bool {
	end, state := 0, -1
	for rest := text; ; {
		if end == at {
			return true
		}
		if end > at || rest == "" {
			return false
		}
		cluster, next, _, st := uniseg.FirstGraphemeClusterInString(rest, state)
		end += len(cluster)
		rest, state = next, st
	}
}

// FuzzTruncateBytes holds TruncateBytes to its properties on any text,
// invalid UTF-8 included: within the budget, a prefix of the text on a
// cluster boundary followed by the ellipsis, or the text itself.
func FuzzTruncateBytes(f *testing.F) {
	for _, s := range []string{"hello world", "漢字のメモ", "a👩‍👩‍👧b", "e\u0301\u0302\u0303", "\xff\xfe", "🇫🇷🇩🇪"} {
		f.Add(s, 7)
	}
	f.Fuzz(func(t *testing.T, text string, n int) {
		n %= 256
		if n < 0 {
			n = -n
		}
		got := TruncateBytes(text, n)
		if len(got) > n && got != text {
			t.Fatalf("TruncateBytes(%q, %d) = %q: %d bytes", text, n, got, len(got))
		}
		if got == text || got == "" {
			return
		}
		kept, ok := strings.CutSuffix(got, Ellipsis)
		if !ok || !strings.HasPrefix(text, kept) {
			t.Fatalf("TruncateBytes(%q, %d) = %q: not a prefix and an ellipsis", text, n, got)
		}
		if utf8.ValidString(text) && !utf8.ValidString(got) {
			t.Fatalf("TruncateBytes(%q, %d) = %q: splits a character", text, n, got)
		}
	})
}
