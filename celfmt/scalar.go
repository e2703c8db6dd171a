package celfmt

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// scalarPositions returns the file position of each rune of a scalar's
// value, so that a diagnostic inside a CEL expression can point at the exact
// character in the YAML file whatever the scalar's style. It returns nil when
// the layout cannot be followed; callers then use the scalar's position.
func scalarPositions(lines []string, runeLines func() [][]rune, file string, n *yaml.Node) []Pos {
	if n.Line < 1 || n.Line > len(lines) {
		return nil
	}
	if n.Style&yaml.LiteralStyle != 0 {
		return literalPositions(lines, file, n)
	}
	line, col := n.Line-1, n.Column-1 // 0-based; col in runes
	switch {
	case n.Style&yaml.FoldedStyle != 0:
		indent, first := blockIndent(lines, n.Line)
		if first < 0 {
			return nil
		}
		line, col = first, indent
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		col++ // the opening quote
	}
	return matchPositions(runeLines(), file, n, line, col)
}

// blockIndent returns the indentation of a block scalar's content whose
// header is on 1-based line header, and the 0-based index of its first
// non-blank line.
func blockIndent(lines []string, header int) (indent, first int) {
	for i := header; i < len(lines); i++ {
		text := strings.TrimRight(lines[i], "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		return len(text) - len(strings.TrimLeft(text, " ")), i
	}
	return 0, -1
}

func literalPositions(lines []string, file string, n *yaml.Node) []Pos {
	indent, first := blockIndent(lines, n.Line)
	if first < 0 {
		return nil
	}
	var at []Pos
	for k, text := range strings.Split(n.Value, "\n") {
		i := n.Line + k // 0-based index of the file line holding value line k
		if i >= len(lines) {
			if text == "" {
				break // the final newline
			}
			return nil
		}
		src := strings.TrimRight(lines[i], "\r")
		if text != "" && (len(src) < indent || src[indent:] != text) {
			return nil
		}
		col := indent + 1
		for range text {
			at = append(at, Pos{File: file, Line: i + 1, Col: col})
			col++
		}
		at = append(at, Pos{File: file, Line: i + 1, Col: col}) // the newline
	}
	return at
}

// matchPositions follows a plain, quoted or folded scalar through the
// source from 0-based line and rune column, pairing each rune of the value
// with the source character it came from: folding turns line breaks and
// indentation into spaces, and quoting adds escapes.
func matchPositions(src [][]rune, file string, n *yaml.Node, line, col int) []Pos {
	at := make([]Pos, 0, utf8.RuneCountInString(n.Value))
	peek := func() (rune, bool) {
		for line < len(src) {
			if col < len(src[line]) {
				return src[line][col], true
			}
			if col == len(src[line]) {
				return '\n', true
			}
			line, col = line+1, 0
		}
		return 0, false
	}
	advance := func(k int) {
		for ; k > 0; k-- {
			if col >= len(src[line]) {
				line, col = line+1, 0
			} else {
				col++
			}
		}
	}
	double := n.Style&yaml.DoubleQuotedStyle != 0
	single := n.Style&yaml.SingleQuotedStyle != 0
	for _, v := range n.Value {
		for {
			c, ok := peek()
			if !ok {
				return nil
			}
			here := Pos{File: file, Line: line + 1, Col: col + 1}
			if double && c == '\\' {
				r, size := yamlEscape(src[line][col:])
				if size == 0 {
					return nil
				}
				if r == '\n' && size == 1 { // an escaped line break: nothing in the value
					advance(1)
					continue
				}
				if r == v {
					at = append(at, here)
					advance(size)
					break
				}
				return nil
			}
			if single && c == '\'' && v == '\'' {
				at = append(at, here)
				advance(2)
				break
			}
			if c == v || (v == ' ' && c == '\n') {
				at = append(at, here)
				advance(1)
				break
			}
			if c == ' ' || c == '\t' || c == '\n' {
				advance(1) // indentation or folded white space
				continue
			}
			return nil
		}
	}
	return at
}

// yamlEscape decodes the double-quoted escape at the start of s, returning
// the rune it stands for and its length in runes, or size 0 when it is not
// an escape this package follows. A backslash at the end of a line (a line
// continuation) returns '\n' with size 1.
func yamlEscape(s []rune) (rune, int) {
	if len(s) < 2 {
		return '\n', 1
	}
	simple := map[rune]rune{
		'0': 0, 'a': 7, 'b': 8, 't': 9, '\t': 9, 'n': 10, 'v': 11, 'f': 12, 'r': 13, 'e': 0x1b,
		' ': ' ', '"': '"', '/': '/', '\\': '\\', 'N': 0x85, '_': 0xa0, 'L': 0x2028, 'P': 0x2029,
	}
	if r, ok := simple[s[1]]; ok {
		return r, 2
	}
	width := map[rune]int{'x': 2, 'u': 4, 'U': 8}[s[1]]
	if width == 0 || len(s) < 2+width {
		return 0, 0
	}
	v, err := strconv.ParseUint(string(s[2:2+width]), 16, 32)
	if err != nil {
		return 0, 0
	}
	return rune(v), 2 + width
}
