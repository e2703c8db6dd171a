package textfmt

import (
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTruncate(t *testing.T) {
	tests := []struct {
		name string
		text string
		n    int
		want string
	}{
		// reference examples
		{"short", "hello", 10, "hello"},
		{"exactly at limit", strings.Repeat("a", 200), 200, strings.Repeat("a", 200)},
		{"one over", strings.Repeat("a", 201), 200, strings.Repeat("a", 200) + "…"},
		{"cut", "abcdef", 3, "abc…"},
		// edges
		{"zero keeps nothing", "abc", 0, "…"},
		{"zero of empty", "", 0, ""},
		{"negative is zero", "abc", -4, "…"},
		{"counts runes not bytes", "日本語テキスト", 3, "日本語…"},
		{"multi-byte at limit", "日本語", 3, "日本語"},
		{"keeps trailing space", "hello world", 6, "hello …"},
		{"crlf is one cluster", "ab\r\ncd", 3, "ab…"},
		// grapheme clusters are never split
		{"combining mark", "cafe\u0301s", 4, "caf…"},
		{"combining mark kept whole", "cafe\u0301s", 5, "cafe\u0301…"},
		{"flag", "ab🇫🇷", 3, "ab…"},
		{"flag whole", "ab🇫🇷c", 4, "ab🇫🇷…"},
		{"zwj family", "x👨\u200d👩\u200d👧y", 4, "x…"},
		{"skin tone", "👍🏽👍🏽", 3, "👍🏽…"},
		{"subdivision flag", "a🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", 4, "a…"},
		// a cluster no real text has is cut like plain text, so the tag
		// characters hidden in it are kept for the sanitizer to reveal
		{"tag smuggling", "run." + strings.Repeat("\U000E0041", 40), 6, "run.\U000E0041\U000E0041…"},
		{"zalgo", "e" + strings.Repeat("\u0301", 40), 3, "e\u0301\u0301…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Truncate(tc.text, tc.n))
		})
	}
}

func TestLineCount(t *testing.T) {
	tests := map[string]int{
		"":                    0,
		"hello":               1,
		"line1\nline2\nline3": 3,
		"line1\r\nline2":      2,
		"line1\rline2":        2,
		"a\n":                 2,
		"\r\r\n\n":            4,
	}
	for text, want := range tests {
		assert.Equal(t, want, LineCount(text), "LineCount(%q)", text)
	}
}

func TestCountPhrase(t *testing.T) {
	assert.Equal(t, "1 line", CountPhrase(1, "line", "lines"))
	assert.Equal(t, "0 lines", CountPhrase(0, "line", "lines"))
	assert.Equal(t, "3 lines", CountPhrase(3, "line", "lines"))
	assert.Equal(t, "-1 lines", CountPhrase(-1, "line", "lines"))
}

func TestNonEmptyString(t *testing.T) {
	s, ok := NonEmptyString("  /a b \n")
	assert.True(t, ok)
	assert.Equal(t, "/a b", s)
	for _, v := range []any{"", "   ", "\u00a0\u2003\u3000", 1.0, nil, true, []any{"x"}} {
		_, ok := NonEmptyString(v)
		assert.False(t, ok, "%#v", v)
	}
}

// Trimming removes white space only: U+FEFF is an invisible format
// character, not white space, and must reach the sanitizer.
func TestTrimmingKeepsByteOrderMark(t *testing.T) {
	s, ok := NonEmptyString("\ufeff/etc/cron.d/job")
	assert.True(t, ok)
	assert.Equal(t, "\ufeff/etc/cron.d/job", s)
	s, ok = NonEmptyString(" /etc/cron.d/job\ufeff ")
	assert.True(t, ok)
	assert.Equal(t, "/etc/cron.d/job\ufeff", s)
	s, ok = NonEmptyString("\ufeff")
	assert.True(t, ok)
	assert.Equal(t, "\ufeff", s)
	assert.Equal(t, "\ufeffa b\ufeff", InlineText(" \ufeffa \u00a0b\ufeff ", 80))
	assert.Equal(t, "\ufeff", InlineText("\ufeff", 80))
	assert.Equal(t, "\ufeff/x \ufeff", Collapse("\n\ufeff/x\t\ufeff\n"))
	for r := rune(0); r <= 0x10FFFF; r++ {
		if isJSSpace(r) && !unicode.Is(unicode.White_Space, r) {
			t.Errorf("%U is trimmed but is not White_Space", r)
		}
	}
}

func TestPromptPath(t *testing.T) {
	tests := []struct {
		name  string
		input *value.Object
		want  string
		ok    bool
	}{
		{"path", value.NewObject("path", "/foo/bar"), "/foo/bar", true},
		{"file_path", value.NewObject("file_path", "/baz"), "/baz", true},
		{"none", value.NewObject(), "", false},
		{"empty path", value.NewObject("path", ""), "", false},
		{"blank path falls back", value.NewObject("path", "  ", "file_path", "/f"), "/f", true},
		{"non-string path falls back", value.NewObject("path", 3, "file_path", "/f"), "/f", true},
		{"path wins", value.NewObject("file_path", "/f", "path", "/p"), "/p", true},
		{"trimmed", value.NewObject("path", " /p "), "/p", true},
		{"nil object", nil, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := PromptPath(tc.input)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestInlineText(t *testing.T) {
	assert.Equal(t, "hello world", InlineText("  hello   world  ", 80))
	assert.Equal(t, "empty text", InlineText("", 80))
	assert.Equal(t, "empty text", InlineText("   ", 80))
	assert.Equal(t, "empty text", InlineText("\t\n\u3000", 80))
	assert.Equal(t, "hello…", InlineText("hello world", 5))
	assert.Equal(t, "a b c", InlineText("a\tb\r\n\u00a0c", 80))
	assert.Equal(t, "abcde…", InlineText("abcdefgh", 5))
}

func TestCompactJSON(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{"null", `null`, ``},
		{"empty object", `{}`, ``},
		{"empty array", `[]`, `[]`},
		{"object", `{"k": "v"}`, `{"k":"v"}`},
		{"key order kept", `{"b":1,"a":2}`, `{"b":1,"a":2}`},
		{"duplicate key keeps first position and last value", `{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{"html left alone", `{"h":"<a href=\"x\">&amp;</a>"}`, `{"h":"<a href=\"x\">&amp;</a>"}`},
		{"non-ascii left alone", `{"t":"日本 \u00e9"}`, `{"t":"日本 é"}`},
		{"numbers as written", `[1.5, 42, 1e21, 1.0, -0, 0.000001, 1e-7, 100]`, `[1.5,42,1e21,1.0,-0,0.000001,1e-7,100]`},
		{"overflow as written", `[1e400]`, `[1e400]`},
		{"escapes", `{"s":"a\nb\tc\u0001\"\\/"}`, `{"s":"a\nb\tc\u0001\"\\/"}`},
		{"whitespace in strings folds", `{"s":"  a   b  "}`, `{"s":" a b "}`},
		{"unicode spaces fold", `{"s":"a\u00a0\u2028\u3000b"}`, `{"s":"a b"}`},
		{"nested", `{"a":[true,false,null,{"x":{}}]}`, `{"a":[true,false,null,{"x":{}}]}`},
		{"string", `"hello"`, `"hello"`},
		{"number", `42`, `42`},
		{"trimmed", `" x "`, `" x "`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := value.DecodeJSON([]byte(tc.input))
			require.NoError(t, err)
			assert.Equal(t, tc.want, CompactJSON(v))
		})
	}
}

func TestCompactJSONUnserializable(t *testing.T) {
	assert.Equal(t, "", CompactJSON(map[string]any{"a": 1})) // not a model value
	assert.Equal(t, "", CompactJSON([]any{func() {}}))
}

func TestTruncateJSONMatchesTruncateOfCompactJSON(t *testing.T) {
	inputs := []string{
		`{"k":"` + strings.Repeat("x", 50) + `"}`,
		`{"a":"  spaced   out  ","b":[1,2,3]}`,
		`"` + strings.Repeat("x", 20) + `"`,
		`{"e":"👨‍👩‍👧 family","f":"🇫🇷"}`,
		`["a   ", "   b"]`,
		`{"t":"run.` + strings.Repeat(`\udb40\udc41`, 60) + `"}`,
		`{"z":"e` + strings.Repeat(`\u0301`, 20) + `x"}`,
		`{"k":"v"}`,
	}
	for _, in := range inputs {
		v, err := value.DecodeJSON([]byte(in))
		require.NoError(t, err)
		full := CompactJSON(v)
		for n := 0; n <= len(full)+2; n++ {
			require.Equal(t, Truncate(full, n), TruncateJSON(v, n), "input %s, n=%d", in, n)
		}
	}
}

func TestTruncateJSONReferenceExamples(t *testing.T) {
	v, err := value.DecodeJSON([]byte(`{"k":"` + strings.Repeat("x", 50) + `"}`))
	require.NoError(t, err)
	assert.Equal(t, `{"k":"xxxx…`, TruncateJSON(v, 10))
	assert.Equal(t, `"xxxxxxxxx…`, TruncateJSON(strings.Repeat("x", 20), 10))
}

func TestTruncateText(t *testing.T) {
	assert.Equal(t, "not json", TruncateText("  not \n json ", 100))
	assert.Equal(t, "abc…", TruncateText("abc   def", 3))
	assert.Equal(t, "abc …", TruncateText("abc   def", 4))
}

var lineBreak = regexp.MustCompile(`\r\n|\r|\n`)

// TestLineCountAgreesWithSplitting checks the counting LineCount does
// against the definition: the pieces between "\r\n", "\r" or "\n".
func TestLineCountAgreesWithSplitting(t *testing.T) {
	pieces := []string{"a", "\n", "\r", "\r\n", "\n\r", "é"}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		var b strings.Builder
		for n := rng.IntN(8); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		want := 0
		if s != "" {
			want = len(lineBreak.Split(s, -1))
		}
		require.Equal(t, want, LineCount(s), "%q", s)
	}
}

// TestHugeCutsDoNotOverflow: a cut a formatter computed from a model's
// number (inline(text, input.n) with n near the largest int) is no cut,
// not a panic of a size that overflowed.
func TestHugeCutsDoNotOverflow(t *testing.T) {
	for _, n := range []int{math.MaxInt, math.MaxInt - 1, math.MaxInt / 4, 1 << 62} {
		assert.Equal(t, "a b", InlineText(" a \n b ", n), "%d", n)
		assert.Equal(t, "a b", TruncateText(" a \n b ", n), "%d", n)
		assert.Equal(t, `{"a":"b c"}`, TruncateJSON(value.NewObject("a", "b c"), n), "%d", n)
		assert.Equal(t, "x", Truncate("x", n), "%d", n)
	}
}

func TestAlternatives(t *testing.T) {
	fields := map[string]any{"path": " /repo/a.go ", "file_path": "/repo/a.go", "filePath": "/etc/shadow", "blank": " \t", "count": 3.0}
	field := func(name string) (any, bool) { v, ok := fields[name]; return v, ok }
	for _, tc := range []struct {
		names []string
		want  [][]string
	}{
		{[]string{"path", "file_path"}, [][]string{{"path", "/repo/a.go"}}},
		{[]string{"file_path", "path"}, [][]string{{"file_path", "/repo/a.go"}}},
		{[]string{"path", "file_path", "filePath"}, [][]string{{"path", "/repo/a.go"}, {"file_path", "/repo/a.go"}, {"filePath", "/etc/shadow"}}},
		{[]string{"blank", "count", "missing", "filePath"}, [][]string{{"filePath", "/etc/shadow"}}},
		{[]string{"blank", "count", "missing"}, [][]string{}},
		{nil, [][]string{}},
	} {
		assert.Equal(t, tc.want, Alternatives(tc.names, field), "%q", tc.names)
	}
}
