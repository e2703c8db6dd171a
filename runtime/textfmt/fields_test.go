package textfmt

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/runtime/value"
)

func decoded(t testing.TB, js string) any {
	t.Helper()
	v, err := value.DecodeJSON([]byte(js))
	require.NoError(t, err, js)
	return v
}

// manyFields is an object of n fields, each a string of size bytes.
func manyFields(n, size int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"field_%d":"%s"`, i, strings.Repeat("v", size))
	}
	b.WriteString("}")
	return b.String()
}

func TestFields(t *testing.T) {
	x := strings.Repeat
	tests := []struct {
		name, input string
		n           int
		want        string
	}{
		// What reads as the reference's MCP summary, when nothing is cut.
		{"scalars", `{"query":"test","numResults":5}`, 500, `query: "test", numResults: 5`},
		{"numbers as written", `{"issue":9007199254740993,"ratio":1.50,"e":1E+2}`, 500, `issue: 9007199254740993, ratio: 1.50, e: 1E+2`},
		{"booleans and null", `{"verbose":true,"dry":false,"nothing":null}`, 500, `verbose: true, dry: false, nothing: null`},
		// Lists and objects show what they hold.
		{"list of scalars inline", `{"ids":[1,2,3]}`, 500, `ids: [1, 2, 3]`},
		{"command", `{"command":["psql","-c","DROP DATABASE orders"]}`, 500, `command: ["psql", "-c", "DROP DATABASE orders"]`},
		{"nested object as key paths", `{"volumes":{"/":{"bind":"/hostfs","mode":"rw"}}}`, 500, `volumes./.bind: "/hostfs", volumes./.mode: "rw"`},
		{"empty object and list", `{"filter":{},"tags":[],"inner":{"a":{}}}`, 500, `filter: {}, tags: [], inner.a: {}`},
		{"list of objects", `{"containers":[{"name":"app","ports":[80,443]},{"name":"side"}]}`, 500,
			`containers[0].name: "app", containers[0].ports: [80, 443], containers[1].name: "side"`},
		{"mixed list", `{"m":[1,{"a":2},[3,[4]]]}`, 500, `m[0]: 1, m[1].a: 2, m[2][0]: 3, m[2][1]: [4]`},
		{"list of empties inline", `{"m":[{},[],null]}`, 500, `m: [{}, [], null]`},
		// The whole value need not be an object.
		{"top-level list", `[1,"a",true]`, 500, `[1, "a", true]`},
		{"top-level list of objects", `[{"a":1},{"a":2}]`, 500, `[0].a: 1, [1].a: 2`},
		{"top-level string", `"hello"`, 500, `"hello"`},
		{"top-level number", `42`, 500, `42`},
		{"top-level null", `null`, 500, `null`},
		{"empty object", `{}`, 500, `{}`},
		// Keys that would read another way are quoted.
		{"dotted key", `{"a.b":1,"a":{"b":2}}`, 500, `"a.b": 1, a.b: 2`},
		{"spaces, quotes, punctuation", `{"my key":1,"it's":2,"x: 1, y":3,"a[0]":4,"":5}`, 500,
			`"my key": 1, "it's": 2, "x: 1, y": 3, "a[0]": 4, "": 5`},
		{"bare keys", `{"$ref":1,"@type":2,"x-request-id":3,"ключ":4,"/":5,"a_b+c":6}`, 500,
			`$ref: 1, @type: 2, x-request-id: 3, ключ: 4, /: 5, a_b+c: 6`},
		// Credentials are shown by their size, whatever the depth.
		{"secret name", `{"url":"https://api.example/v1","auth_token":"tok_0123456789abcdefghij"}`, 500,
			`url: "https://api.example/v1", auth_token: "‹secret, 24 characters›"`},
		{"secret header", `{"headers":{"Authorization":"Bearer abcdefghijklmnop0123","Accept":"*/*"}}`, 500,
			`headers.Authorization: "‹secret, 27 characters›", headers.Accept: "*/*"`},
		{"secret under a secret name", `{"credentials":{"user":"ci","key":"k3y-0123456789"}}`, 500,
			`credentials.user: "‹secret, 2 characters›", credentials.key: "‹secret, 14 characters›"`},
		{"sensitive value", `{"variables":[{"name":"db","value":"hunter2hunter2","sensitive":true}]}`, 500,
			`variables[0].name: "db", variables[0].value: "‹secret, 14 characters›", variables[0].sensitive: true`},
		{"secret shape", `{"note":"use ghp_0123456789abcdefghijABCDEFGHIJ012345 here"}`, 500,
			`note: "use ‹secret, 40 characters› here"`},
		{"hidden character in a key", `{"\u202ekey":1}`, 500, "\"\u202ekey\": 1"},
		{"long key", `{"` + x("k", 70) + `":1}`, 500, `"` + x("k", 63) + `…": 1`},
		// Strings are quoted as the reference quotes them, but for quotes.
		{"quote inside", `{"cmd":"ls\", force: true"}`, 500, `cmd: "ls\", force: true"`},
		{"trailing backslash", `{"cmd":"ls \\","force":true}`, 500, `cmd: "ls \\", force: true`},
		{"backslash before a quote", `{"s":"a\\\"b"}`, 500, `s: "a\\\"b"`},
		{"backslashes elsewhere", `{"path":"C:\\Users\\dev"}`, 500, `path: "C:\Users\dev"`},
		{"white space folded, line breaks kept", `{"s":"a  \t b\n\nc"}`, 500, "s: \"a b\n\nc\""},
		// Cuts say what they cut.
		{"cut string", `{"q":"` + x("x", 100) + `"}`, 40, `q: "` + x("x", 22) + `…" (78 B more)`},
		{"cut number", `{"n":` + x("9", 60) + `}`, 40, `n: ` + x("9", 24) + `… (36 B more)`},
		{"cut SQL is led by its kinds", `{"sql":"SELECT 1; ` + x(" ", 10) + `SELECT ` + x("c, ", 100) + `c FROM t; DELETE FROM audit_log"}`, 80,
			`sql: (DELETE, SELECT) "SELECT 1; SELECT c, c, c, c, c, c, c, c, c…" (306 B more)`},
		{"SQL kinds after a comment", `{"sql":"-- cleanup\nDROP TABLE t; ` + x("x", 200) + `"}`, 60, "sql: (DROP, SQL) \"-- cleanup\nDROP TABLE t; x…\" (199 B more)"},
		{"more kinds than three", `{"sql":"DROP TABLE a; DELETE FROM b; UPDATE c SET x = 1; SELECT ` + x("x", 200) + `"}`, 80,
			`sql: (DROP, DELETE, UPDATE, …) "DROP TABLE a; DELETE FROM b; UPDA…" (223 B more)`},
		{"text that is not SQL is not led", `{"msg":"` + x("Updated the docs. ", 10) + `"}`, 60, `msg: "Updated the docs. Updated the docs. Upd…" (141 B more)`},
		{"a whole SQL string is not led", `{"sql":"DELETE FROM t"}`, 60, `sql: "DELETE FROM t"`},
		{"cut key path of a nested value", `{"a":{"b":"` + x("y", 100) + `"}}`, 40, `a.b: "` + x("y", 20) + `…" (80 B more)`},
		{"cut inline list", `{"ids":[` + strings.TrimSuffix(x("1234, ", 40), ", ") + `]}`, 60,
			`ids: [1234, 1234, 1234, 1234, 1234, … 35 more items, 175 B]`},
		// Fair shares.
		{"a long field does not crowd out a short one", `{"content":"` + x("x", 1<<20) + `","path":"/etc/passwd"}`, 100,
			`content: "` + x("x", 52) + `…" (1.00 MB more), path: "/etc/passwd"`},
		{"long fields share equally", `{"a":"` + x("a", 200) + `","b":"` + x("b", 200) + `","c":"short"}`, 100,
			`a: "` + x("a", 24) + `…" (176 B more), b: "` + x("b", 24) + `…" (176 B more), c: "short"`},
		{"nested fields share their room", `{"spec":{"a":"` + x("a", 300) + `","b":true},"ns":"prod"}`, 80,
			`spec.a: "` + x("a", 30) + `…" (270 B more), spec.b: true, ns: "prod"`},
		// When not every entry fits, the shortest are shown.
		{"too many fields", manyFields(100, 20), 120,
			`field_0: "vvvvvvvvvvvvvvvvvvvv", field_1: "vvvvvvvvvvvvvvvvvvvv", … 98 more fields, 3.25 KB`},
		{"a short field among long ones", `{` + strings.TrimPrefix(strings.TrimSuffix(manyFields(20, 300), "}"), "{") + `,"allNamespaces":true}`, 160,
			`field_0: "` + x("v", 29) + `…" (271 B more), field_1: "` + x("v", 28) + `…" (272 B more), …, allNamespaces: true, … 18 more fields, 5.51 KB`},
		{"list items show their first entry, not their summary", `{"calls":[` + strings.TrimSuffix(x(`{"tool":"ls","path":"/home/dev/src/orders-api/internal/pkg"},`, 12), ",") + `]}`, 160,
			`calls[0].tool: "ls", calls[0]: … 1 more field, 47 B, calls[1].tool: "ls", calls[1]: … 1 more field, 47 B, calls: … 10 more items, 610 B`},
		{"nested summary", `{"spec":` + manyFields(50, 40) + `,"ns":"prod"}`, 60, `spec: … 50 fields, 2.63 KB, ns: "prod"`},
		{"no room at all", `{"k":"` + x("x", 50) + `"}`, 10, `… 1 field, 57 B`},
		{"top-level string cut", `"` + x("x", 3000) + `"`, 40, `"` + x("x", 22) + `…" (2.91 KB more)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Fields(decoded(t, tc.input), tc.n)
			assert.Equal(t, tc.want, got)
			if utf8.RuneCountInString(tc.want) <= tc.n || tc.name != "no room at all" {
				assert.LessOrEqual(t, utf8.RuneCountInString(got), tc.n)
			}
		})
	}
}

// TestFieldsPathsReadOneWay: inputs that differ give texts that differ,
// however their keys and strings are made to look like other entries.
func TestFieldsPathsReadOneWay(t *testing.T) {
	inputs := []string{
		`{"a.b":1}`, `{"a":{"b":1}}`, `{"a":{"b":{}}}`, `{"\"a.b\"":1}`,
		`{"a[0]":1}`, `{"a":[1]}`, `{"a":[{"x":1}]}`, `{"a[0]":{"x":1}}`, `{"a[0].x":1}`,
		`{"a: 1, b":2}`, `{"a":1,"b":2}`, `{"a":"1, b: 2"}`, `{"a":"1\", b: \"2"}`, `{"a":"1","b":"2"}`,
		`{"cmd":"ls \\","force":true}`, `{"cmd":"ls \\\", force: true"}`, `{"cmd":"ls \\\\\", force: true"}`,
		`{"":1}`, `{"\"\"":1}`, `{" ":1}`, `{"a b":1}`, `{"a":{"":1}}`, `{"a.":1}`,
		`{"a":[]}`, `{"a":{}}`, `{"a":"[]"}`, `{"a":"{}"}`, `{"a":null}`, `{"a":"null"}`, `{"a":true}`, `{"a":"true"}`,
		`{"a":1}`, `{"a":"1"}`, `["a"]`, `{"0":"a"}`, `[{"0":"a"}]`,
	}
	seen := map[string]string{}
	for _, in := range inputs {
		got := Fields(decoded(t, in), 500)
		if other, ok := seen[got]; ok {
			t.Errorf("%s and %s both read %s", in, other, got)
		}
		seen[got] = in
	}
}

// TestFieldsStringsReadBack: a quoted string's text is found again by
// reading \" as a quote and a run of 2k backslashes before a quote as k
// backslashes, so no string can end early.
func TestFieldsStringsReadBack(t *testing.T) {
	for _, s := range []string{`plain`, `a"b`, `a\b`, `a\`, `a\\`, `\"`, `\\"x`, `"`, `""`, `a\"b\\`, `C:\dir\`, `\\\`} {
		got := Fields(s, 500)
		require.True(t, strings.HasPrefix(got, `"`) && strings.HasSuffix(got, `"`), got)
		assert.Equal(t, s, readQuoted(t, got[1:len(got)-1]), "%s reads back from %s", s, got)
	}
}

// readQuoted undoes the quoting of Fields: n backslashes then a quote are
// n/2 backslashes and, when n is odd, a quote of the text; at the end,
// n backslashes are n/2.
func readQuoted(t *testing.T, q string) string {
	var b strings.Builder
	for i := 0; i < len(q); {
		if q[i] != '\\' {
			require.NotEqual(t, byte('"'), q[i], "a bare quote inside %s", q)
			b.WriteByte(q[i])
			i++
			continue
		}
		j := i
		for j < len(q) && q[j] == '\\' {
			j++
		}
		n := j - i
		switch {
		case j == len(q):
			require.Zero(t, n%2, "an odd run before the closing quote in %s", q)
			b.WriteString(strings.Repeat(`\`, n/2))
		case q[j] == '"':
			require.Equal(t, 1, n%2, "an even run before a quote inside %s", q)
			b.WriteString(strings.Repeat(`\`, n/2) + `"`)
			j++
		default:
			b.WriteString(q[i:j])
		}
		i = j
	}
	return b.String()
}

// TestFieldsCutsKeepClusters: a cut lands between grapheme clusters, and a
// cluster too long to be real text is cut like plain text.
func TestFieldsCutsKeepClusters(t *testing.T) {
	flags := strings.Repeat("🇫🇷", 40)
	got := Fields(value.NewObject("f", flags), 40)
	text := strings.TrimPrefix(got[:strings.Index(got, "…")], `f: "`)
	assert.Equal(t, 0, len(strings.ReplaceAll(text, "🇫🇷", "")), "whole flags only: %s", got)
	marks := "a" + strings.Repeat("\u0301", 200)
	got = Fields(value.NewObject("m", marks), 40)
	assert.Contains(t, got, "a\u0301", "an overlong cluster shows its start: %s", got)
}

// TestFieldsRevealedWidth: characters the safe-text step reveals count as
// long as their escapes, so that revealing cannot push the end of the
// text out; here as a rough model, \u{XXXX} for each.
func TestFieldsRevealedWidth(t *testing.T) {
	hostile := strings.Repeat("\u202e\x1b\n", 200)
	got := Fields(value.NewObject("a", hostile, "b", "end"), 100)
	assert.True(t, strings.HasSuffix(got, `b: "end"`), got)
	revealed := 0
	for _, r := range got {
		switch {
		case r == '\n':
			revealed += 2
		case r == 0x1b:
			revealed += 6
		case r == 0x202e:
			revealed += 8
		default:
			revealed++
		}
	}
	assert.LessOrEqual(t, revealed, 100)
}

// TestFieldsLargeInput: a megabyte of ten thousand fields is shown by its
// first fields and the count of the others, with no more allocations than
// a hundred such fields take: they grow with what is shown, not with the
// input.
func TestFieldsLargeInput(t *testing.T) {
	v := decoded(t, manyFields(10000, 90))
	got := Fields(v, 489)
	assert.LessOrEqual(t, utf8.RuneCountInString(got), 489)
	assert.True(t, strings.HasPrefix(got, `field_0: "vvv`), got)
	assert.True(t, strings.HasSuffix(got, ", … 9989 more fields, 1.01 MB"), got)
	small := decoded(t, manyFields(100, 90))
	assert.Equal(t, testing.AllocsPerRun(5, func() { Fields(small, 489) }), testing.AllocsPerRun(5, func() { Fields(v, 489) }))
}

func FuzzFields(f *testing.F) {
	f.Add(`{"query":"test","numResults":5}`, 80)
	f.Add(`{"a":{"b":[1,{"c":"d"}]},"e":[]}`, 20)
	f.Add(`{"cmd":"ls \\\"","x.y":"\u202e\n"}`, 30)
	f.Add(`{"sql":"SELECT 1; DROP TABLE t; `+strings.Repeat("x", 300)+`"}`, 50)
	f.Add(`[1,2,3,[4,5],{"6":7}]`, 10)
	f.Add(`"`+strings.Repeat("🇫🇷", 50)+`"`, 25)
	f.Add(manyFields(40, 30), 200)
	f.Fuzz(func(t *testing.T, js string, n int) {
		v, err := value.DecodeJSON([]byte(js))
		if err != nil {
			return
		}
		n = n % 2000
		if n < 0 {
			n = -n
		}
		got := Fields(v, n)
		require.Equal(t, got, Fields(v, n), "deterministic")
		require.True(t, utf8.ValidString(got) || !utf8.ValidString(js))
		if w := utf8.RuneCountInString(got); w > n {
			// Only a value with no room for any entry may go over: it is
			// then one summary, one cut scalar, or an empty object or
			// list, which has nothing to cut.
			require.True(t, strings.HasPrefix(got, "… ") || strings.HasPrefix(got, "[… ") ||
				strings.Contains(got, " more)") || got == "{}" || got == "[]", "%d characters for %d: %s", w, n, got)
			require.LessOrEqual(t, w, 64, got)
		}
		// Every top-level key appears when there is room for the least of
		// every entry.
		o, ok := v.(*value.Object)
		if !ok || o.Len() == 0 {
			return
		}
		var r fielder
		total := -2
		for i := range o.Len() {
			k, e := o.At(i)
			total += 2 + r.least(e, keyWidth(k))
		}
		if total > n {
			return
		}
		for i := range o.Len() {
			k, _ := o.At(i)
			key, _ := appendKey(nil, k)
			require.Contains(t, got, string(key), "key %q in %s", k, got)
		}
	})
}

func BenchmarkFields(b *testing.B) {
	for _, c := range []struct{ name, input string }{
		{"small", `{"query":"typescript generics","numResults":5,"filter":{"lang":"en"}}`},
		{"1MiB-10000-fields", manyFields(10000, 90)},
		{"1MiB-one-field", `{"content":"` + strings.Repeat("x", 1<<20) + `","path":"/a"}`},
	} {
		v := decoded(b, c.input)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Fields(v, 489)
			}
		})
	}
}

// TestFieldsHiddenKeysQuoted: a key holding a character that the safe-text
// step reveals (a Hangul filler reads as a letter, a variation selector as
// a mark) is quoted and measured as revealed, never written bare at one
// column a character.
func TestFieldsHiddenKeysQuoted(t *testing.T) {
	for _, key := range []string{"a\u1160b", "a\u180bb", "a\u3164b", "a\u115fb"} {
		got := Fields(value.NewObject(key, "v"), 80)
		assert.True(t, strings.HasPrefix(got, `"`), "%q: %s", key, got)
	}
}
