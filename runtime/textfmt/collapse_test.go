package textfmt

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// slowCollapse and slowInline are Collapse and InlineText without the fast
// path for text that is already collapsed.
func slowCollapse(text string) string {
	w := collapser{limit: -1}
	w.writeString(text)
	return w.result()
}

func slowInline(text string, n int) string {
	w := collapser{limit: n}
	w.writeString(text)
	if len(w.buf) == 0 {
		return "empty text"
	}
	return w.result()
}

// TestCollapsedFastPath: returning collapsed text as it is gives what
// collapsing it would, for text made of spaces, tabs, line breaks, JS
// white space, invisible characters, combining marks and emoji.
func TestCollapsedFastPath(t *testing.T) {
	pieces := []string{"a", "b", " ", "  ", "\t", "\n", "\u00a0", "\u2028", "\ufeff", "e\u0301", "👩‍👩‍👧", "\xff", "é"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		if got, want := Collapse(text), slowCollapse(text); got != want {
			t.Fatalf("Collapse(%q) = %q, want %q", text, got, want)
		}
		n := r.IntN(8)
		if got, want := InlineText(text, n), slowInline(text, n); got != want {
			t.Fatalf("InlineText(%q, %d) = %q, want %q", text, n, got, want)
		}
	}
}

func TestCollapseOfCollapsedTextDoesNotAllocate(t *testing.T) {
	text := "The billing service's tests need TZ=Europe/London."
	if n := testing.AllocsPerRun(100, func() { Collapse(text) }); n != 0 {
		t.Errorf("Collapse of collapsed text allocates %v times", n)
	}
}
