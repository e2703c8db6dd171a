package textfmt

import (
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// TruncateBytes keeps text within n bytes of UTF-8, for hosts that store or
// send text under a byte limit (a character limit is not one: a character
// takes up to four bytes, a grapheme cluster many more). Text of at most n
// bytes is returned as it is; longer text is cut on a grapheme cluster
// boundary and ends with one … (U+2026), whose three bytes count against
// n. A cluster of more than MaxClusterRunes runes is cut like plain text,
// between runes, as Truncate does. A budget too small for the ellipsis
// gives "".
func TruncateBytes(text string, n int) string {
	if len(text) <= n {
		return text
	}
	budget := n - len(Ellipsis)
	if budget < 0 {
		return ""
	}
	return text[:fitBytes(text, budget)] + Ellipsis
}

// fitBytes returns the length of the longest prefix of text of at most
// budget bytes that ends on a grapheme cluster boundary, or on a rune
// boundary inside a cluster longer than MaxClusterRunes runes.
func fitBytes(text string, budget int) int {
	if budget < len(text) && budget > 0 && asciiBoundary(text, budget) {
		return budget
	}
	end, state := 0, -1
	for rest := text; rest != ""; {
		cluster, next, _, st := uniseg.FirstGraphemeClusterInString(rest, state)
		if end+len(cluster) > budget {
			if utf8.RuneCountInString(cluster) > MaxClusterRunes {
				// keep the runes of a cluster this long that fit
				for _, r := range cluster {
					if size := utf8.RuneLen(r); end+size <= budget && r != utf8.RuneError {
						end += size
						continue
					}
					break
				}
			}
			return end
		}
		end += len(cluster)
		rest, state = next, st
	}
	return end
}
