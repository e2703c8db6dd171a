package celfmt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMentions(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{`kind + ": " + inline(sql, 80)`, []string{"kind", "sql"}},
		{`input.server + server`, []string{"input", "server"}},
		{`input . server`, []string{"input"}},
		{`"server " + 'kind' + """a "kind" b""" + '''c'''`, nil},
		{`"a \" server" + kind`, []string{"kind"}},
		{`r"a\" + server`, []string{"server"}},
		{`b'\'' + server`, []string{"server"}},
		{`rb"x\" + server`, []string{"server"}},
		{"kind // server\n+ sql", []string{"kind", "sql"}},
		{"a.`server` + kind", []string{"a", "kind"}},
		{`size (x) + plural(n, "a", "b")`, []string{"x", "n"}},
		{`1e5 + 0x1F + 2u + kinds`, []string{"kinds"}},
		{`kinds.all(k, k == "SELECT") && kinds.size() > 0`, []string{"kinds", "k"}},
		{`s.?action.orValue("") + input . ? server`, []string{"s", "input"}},
		{`ok ? action : server`, []string{"ok", "action", "server"}},
		{`"unterminated`, nil},
	} {
		assert.Equal(t, tc.want, mentions(tc.text), tc.text)
	}
}

// TestSharedLetsJoinWhereNeeded checks where shared lets join a
// formatter's own: before the first let that needs them, after all of them
// for slots, in the catalog's order, and only those used.
func TestSharedLetsJoinWhereNeeded(t *testing.T) {
	src := `version: 1
let:
  a: '"a"'
  b: 'a + own1'
  c: '"c"'
  d: '"unused by the second"'
formatters:
  - tool: one
    let:
      own1: '"1"'
      own2: 'c + "2"'
    preview: 'b + own2 + d'
  - tool: two
    preview: 'c + "two"'
  - tool: three
    let:
      x: '"d is only in a string here"'
    preview: 'd + x'
`
	cat, errs := Parse("f.yaml", []byte(src))
	require.Empty(t, errs)
	names := func(e *Entry) string {
		var s []string
		for _, l := range e.Lets {
			name := l.Name
			if l.Shared {
				name += "*"
			}
			s = append(s, name)
		}
		return strings.Join(s, " ")
	}
	assert.Equal(t, "own1 c* own2 a* b* d*", names(cat.Formatters[0]))
	assert.Equal(t, "c*", names(cat.Formatters[1]))
	assert.Equal(t, "x d*", names(cat.Formatters[2]))
	_, errs = Check(cat, Options{})
	require.Empty(t, errs)
}

// TestSharedLetUsesAreBounded holds a catalog whose formatters use its
// shared lets more often than a catalog may to an error, before any of it
// is checked: each use is checked again, so without the bound a file of a
// megabyte could make loading take minutes.
func TestSharedLetUsesAreBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\nlet:\n  s: '\"x\"'\nformatters:\n")
	for i := range MaxSharedLetUses + 1 {
		fmt.Fprintf(&b, "  - {tool: t%d, preview: s}\n", i)
	}
	require.Less(t, b.Len(), MaxCatalogBytes)
	_, errs := Parse("f.yaml", []byte(b.String()))
	require.Len(t, errs, 1)
	assert.Equal(t, MaxSharedLetUses+5, errs[0].Pos.Line)
	assert.Contains(t, errs[0].Msg, fmt.Sprintf("use the catalog's shared lets %d times", MaxSharedLetUses+1))

	long := "'\"" + strings.Repeat("x", MaxExpressionChars-10) + "\"'"
	b.Reset()
	b.WriteString("version: 1\nlet:\n  s: " + long + "\nformatters:\n")
	n := MaxSharedLetChars/(MaxExpressionChars-8) + 1
	for i := range n {
		fmt.Fprintf(&b, "  - {tool: t%d, preview: s}\n", i)
	}
	_, errs = Parse("f.yaml", []byte(b.String()))
	require.Len(t, errs, 1)
	assert.Equal(t, n+4, errs[0].Pos.Line)
	assert.Contains(t, errs[0].Msg, "characters)")
}
