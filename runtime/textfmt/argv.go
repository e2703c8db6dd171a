package textfmt

import (
	"cmp"
	"slices"
	"strings"
)

// A list of strings is often a command's argument vector (a tool's
// command: ["mysql", "-uroot", "-pS3cret"], args: ["--db-password", "…"]):
// there the flag and its value are items of their own, which the text rule,
// reading each item alone, cannot pair. argvSecrets pairs them.

// argSpan is the credential a list's item carries: item[Start:End] of the
// item at index.
type argSpan struct {
	index int
	Span
}

// maxArgvItems bounds how many items of a list are read as arguments.
const maxArgvItems = maxCommandWords

// argvSecrets returns the credentials the items of list carry as a
// command's arguments, in order: the item after a flag whose name means a
// credential (--db-password VALUE, -api-token VALUE), and what the
// command-line rule finds when an item names a program it reads
// (["docker", "login", "-p", "…"], ["mysql", "-pS3cret"]). It allocates
// nothing for a list without either.
func argvSecrets(list []any) []argSpan {
	if len(list) < 2 {
		return nil
	}
	var found []argSpan
	command := -1
	n := min(len(list), maxArgvItems)
	for i := range n {
		s, ok := list[i].(string)
		if !ok {
			return nil // not an argument vector
		}
		if command < 0 {
			// login is a subcommand: docker login, az login.
			if kinds := commandKindsOf(programName(s)); kinds != 0 && (kinds != cmdLogin || i > 0) {
				command = i
			}
		}
		if i+1 < n && credentialFlag(s) {
			if v, ok := list[i+1].(string); ok && v != "" && !strings.HasPrefix(v, "-") && !variableAt(v, 0) && !isPlaceholder(v) {
				found = append(found, argSpan{i + 1, Span{0, len(v)}})
			}
		}
	}
	if command >= 0 {
		found = mergeArgSpans(found, commandArgSecrets(list[command:n], command))
	}
	return found
}

// programName returns the name a command's first word invokes: the last
// element of a path.
func programName(s string) string {
	return s[strings.LastIndexByte(s, '/')+1:]
}

// credentialFlag reports whether s is a flag, without a value attached,
// whose name means a credential: --password, --db-password, -api-token.
func credentialFlag(s string) bool {
	name := strings.TrimLeft(s, "-")
	if len(name) == len(s) || len(s)-len(name) > 2 || name == "" || strings.IndexByte(name, '=') >= 0 {
		return false
	}
	return HasTrigger(name) && SecretName(name) && !hasSuffixFold(name, "-stdin") && !hasSuffixFold(name, "-file")
}

// commandArgSecrets reads items, whose first names a program, as the
// words of its command line, and returns the credentials its flags carry;
// first is the index of items[0] in the list.
func commandArgSecrets(items []any, first int) []argSpan {
	var b strings.Builder
	starts := make([]int, len(items))
	for i, e := range items {
		s := e.(string)
		if i > 0 {
			b.WriteByte(' ')
		}
		starts[i] = b.Len()
		// An item is one word whatever it holds: the characters a shell
		// would split or quote at are written as _, which keeps every
		// offset.
		for j := range len(s) {
			if c := s[j]; wordEndShell[c] || c == '\'' || c == '"' || c == '\\' {
				b.WriteByte('_')
			} else {
				b.WriteByte(c)
			}
		}
	}
	line := b.String()
	kinds := commandKindsOf(programName(items[0].(string)))
	spans, _ := commandSecrets(line, kinds, starts[0]+len(items[0].(string)), nil)
	var found []argSpan
	for _, sp := range spans {
		// The item the span lies in: a span never crosses a space.
		k := len(starts) - 1
		for k > 0 && starts[k] > sp.Start {
			k--
		}
		item := items[k].(string)
		start, stop := sp.Start-starts[k], min(sp.End-starts[k], len(item))
		if start >= 0 && start < stop && !isPlaceholder(item[start:stop]) {
			found = append(found, argSpan{first + k, Span{start, stop}})
		}
	}
	return found
}

// mergeArgSpans merges two lists of credentials in order, one per item:
// where both name an item, the wider span is kept.
func mergeArgSpans(a, b []argSpan) []argSpan {
	if len(b) == 0 {
		return a
	}
	byItem := map[int]Span{}
	for _, l := range [][]argSpan{a, b} {
		for _, s := range l {
			if old, ok := byItem[s.index]; ok {
				s.Span = Span{min(old.Start, s.Start), max(old.End, s.End)}
			}
			byItem[s.index] = s.Span
		}
	}
	out := make([]argSpan, 0, len(byItem))
	for i, sp := range byItem {
		out = append(out, argSpan{i, sp})
	}
	slices.SortFunc(out, func(x, y argSpan) int { return cmp.Compare(x.index, y.index) })
	return out
}
