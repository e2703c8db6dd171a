package celrt_test

import (
	"errors"
	"math"
	"testing"

	"github.com/permgen/permgen/runtime/celrt"
)

// hostileStrings are inputs where counting bytes, code points or
// graphemes would give different answers, or that a careless decoder
// would mangle.
var hostileStrings = []string{
	"",
	"a",
	"hello mellow",
	"TacoCÆt Xii",
	"\xff",           // a lone invalid byte
	"a\xffb\xfe",     // invalid bytes inside text
	"\xc3",           // a truncated two-byte sequence
	"\xed\xa0\x80",   // an encoded surrogate
	"\uFFFD",         // the replacement character itself
	"e\u0301e\u0301", // combining accents
	"👍🏽👍",            // an emoji with a skin tone modifier
	"👨‍👩‍👧",          // a ZWJ sequence
	"İıK\u212aſ",     // letters whose Unicode case mappings are ASCII
	"\u00a0 x \u2003\u3000",
	"\u200bx\u200b", // zero-width spaces, which are not white space
	"\t\n\v\f\r\x85 y",
	"a\x00b\x7f",
	`"quoted" \back\slash`,
	"\a\b\f\n\r\t\v",
	"ll",
}

var hostileInts = []int64{
	math.MinInt64, -1 << 32, -2, -1, 0, 1, 2, 3, 4, 5, 7, 12, 20, 1 << 32, math.MaxInt64,
}

func TestStringFunctionsTable(t *testing.T) {
	str := func(s string, err error) any {
		if err != nil {
			return err
		}
		return s
	}
	num := func(i int64, err error) any {
		if err != nil {
			return err
		}
		return i
	}
	for _, tc := range []struct {
		name string
		got  any
		want any // a value, or the sentinel error
	}{
		{"charAt", str(celrt.CharAt("hello", 4)), "o"},
		{"charAt at the end", str(celrt.CharAt("hello", 5)), ""},
		{"charAt past the end", str(celrt.CharAt("hello", 6)), celrt.ErrIndex},
		{"charAt negative", str(celrt.CharAt("hello", -1)), celrt.ErrIndex},
		{"charAt of empty", str(celrt.CharAt("", 0)), ""},
		{"charAt code points", str(celrt.CharAt("👍🏽x", 1)), "🏽"},
		{"charAt invalid byte", str(celrt.CharAt("a\xffb", 1)), "\uFFFD"},
		{"indexOf", num(celrt.IndexOf("hello mellow", "ello")), int64(1)},
		{"indexOf empty", num(celrt.IndexOf("hello mellow", "")), int64(0)},
		{"indexOf missing", num(celrt.IndexOf("hello mellow", "jello")), int64(-1)},
		{"indexOf code points", num(celrt.IndexOf("ééx", "x")), int64(2)},
		{"indexOf from", num(celrt.IndexOfFrom("hello mellow", "ello", 2)), int64(7)},
		{"indexOf empty from", num(celrt.IndexOfFrom("hello mellow", "", 2)), int64(2)},
		{"indexOf empty past the end", num(celrt.IndexOfFrom("hello", "", 20)), int64(5)},
		{"indexOf past the end", num(celrt.IndexOfFrom("hello mellow", "ello", 20)), int64(-1)},
		{"indexOf negative", num(celrt.IndexOfFrom("hello mellow", "ello", -1)), celrt.ErrIndex},
		{"indexOf negative empty", num(celrt.IndexOfFrom("hello", "", -1)), celrt.ErrIndex},
		{"indexOf invalid matches U+FFFD", num(celrt.IndexOf("a\xff", "\uFFFD")), int64(1)},
		{"lastIndexOf", num(celrt.LastIndexOf("hello mellow", "ello")), int64(7)},
		{"lastIndexOf empty", num(celrt.LastIndexOf("hello mellow", "")), int64(12)},
		{"lastIndexOf missing", num(celrt.LastIndexOf("hello mellow", "jello")), int64(-1)},
		{"lastIndexOf from", num(celrt.LastIndexOfFrom("hello mellow", "ello", 6)), int64(1)},
		{"lastIndexOf past the end", num(celrt.LastIndexOfFrom("hello mellow", "ello", 20)), int64(-1)},
		{"lastIndexOf at the end", num(celrt.LastIndexOfFrom("hello", "o", 5)), int64(-1)},
		{"lastIndexOf empty past the end", num(celrt.LastIndexOfFrom("hello", "", 20)), int64(5)},
		{"lastIndexOf negative", num(celrt.LastIndexOfFrom("hello mellow", "ello", -1)), celrt.ErrIndex},
		{"lastIndexOf byte lengths", num(celrt.LastIndexOf("\xff", "\uFFFD")), int64(-1)},
		{"lastIndexOf from decodes", num(celrt.LastIndexOfFrom("\xff", "\uFFFD", 0)), int64(0)},
		{"lowerAscii", celrt.LowerASCII("TacoCÆt Xii"), "tacocÆt xii"},
		{"lowerAscii Kelvin", celrt.LowerASCII("K\u212a"), "k\u212a"},
		{"lowerAscii invalid", celrt.LowerASCII("A\xff"), "a\uFFFD"},
		{"upperAscii", celrt.UpperASCII("TacoCÆt Xii"), "TACOCÆT XII"},
		{"upperAscii dotless i", celrt.UpperASCII("iıſ"), "Iıſ"},
		{"replace", celrt.Replace("hello hello", "he", "we"), "wello wello"},
		{"replace empty", celrt.Replace("héllo", "", "_"), "_h_é_l_l_o_"},
		{"replace keeps invalid", celrt.Replace("a\xffb", "b", "c"), "a\xffc"},
		{"replaceN 1", celrt.ReplaceN("hello hello", "he", "we", 1), "wello hello"},
		{"replaceN 0", celrt.ReplaceN("hello hello", "he", "we", 0), "hello hello"},
		{"replaceN negative", celrt.ReplaceN("hello hello", "he", "we", math.MinInt64), "wello wello"},
		{"replaceN huge", celrt.ReplaceN("hello hello", "he", "we", math.MaxInt64), "wello wello"},
		{"split", celrt.Split("a b c", " "), []string{"a", "b", "c"}},
		{"split empty sep", celrt.Split("aé", ""), []string{"a", "é"}},
		{"split empty", celrt.Split("", ","), []string{""}},
		{"split empty by empty", celrt.Split("", ""), []string{}},
		{"splitN 0", celrt.SplitN("a b c", " ", 0), []string{}},
		{"splitN 1", celrt.SplitN("a b c", " ", 1), []string{"a b c"}},
		{"splitN 2", celrt.SplitN("a b c", " ", 2), []string{"a", "b c"}},
		{"splitN negative", celrt.SplitN("a b c", " ", -1), []string{"a", "b", "c"}},
		{"splitN huge", celrt.SplitN("a b c", " ", math.MaxInt64), []string{"a", "b", "c"}},
		{"substring", str(celrt.Substring("tacocat", 4)), "cat"},
		{"substring at the end", str(celrt.Substring("tacocat", 7)), ""},
		{"substring past the end", str(celrt.Substring("tacocat", 8)), celrt.ErrIndex},
		{"substring negative", str(celrt.Substring("tacocat", -1)), celrt.ErrIndex},
		{"substring range", str(celrt.SubstringRange("tacocat", 0, 4)), "taco"},
		{"substring empty range", str(celrt.SubstringRange("tacocat", 7, 7)), ""},
		{"substring reversed range", str(celrt.SubstringRange("tacocat", 2, 1)), celrt.ErrInvalid},
		{"substring range past the end", str(celrt.SubstringRange("tacocat", 0, 8)), celrt.ErrIndex},
		{"substring code points", str(celrt.SubstringRange("e\u0301e\u0301", 1, 3)), "\u0301e"},
		{"trim", celrt.Trim("  \ttrim\n    "), "trim"},
		{"trim Unicode space", celrt.Trim("\u00a0\u3000x\u2003\u0085"), "x"},
		{"trim not zero-width", celrt.Trim("\u200bx"), "\u200bx"},
		{"join", celrt.Join([]string{"hello", "mellow"}), "hellomellow"},
		{"join empty", celrt.Join(nil), ""},
		{"join separator", celrt.JoinSep([]string{"hello", "mellow"}, " "), "hello mellow"},
		{"join separator empty", celrt.JoinSep([]string{}, "/"), ""},
		{"quote", celrt.Quote(`single-quote with "double quote"`), `"single-quote with \"double quote\""`},
		{"quote escapes", celrt.Quote("two escape sequences \a\n"), `"two escape sequences \a\n"`},
		{"quote backslash", celrt.Quote(`\`), `"\\"`},
		{"quote keeps other controls", celrt.Quote("\x00\x1b"), "\"\x00\x1b\""},
		{"quote invalid", celrt.Quote("a\xff"), "\"a\uFFFD\""},
		{"reverse", celrt.Reverse("gums"), "smug"},
		{"reverse code points", celrt.Reverse("e\u0301x"), "x\u0301e"},
		{"reverse invalid", celrt.Reverse("\xffa"), "a\uFFFD"},
	} {
		if want, isErr := tc.want.(error); isErr {
			if err, ok := tc.got.(error); !ok || !errors.Is(err, want) {
				t.Errorf("%s: got %#v, want an error wrapping %v", tc.name, tc.got, want)
			}
			continue
		}
		if !same(tc.got, tc.want) {
			t.Errorf("%s: got %#v, want %#v", tc.name, tc.got, tc.want)
		}
	}
}

// checkStrings compares each string function with cel-go on s, a, b and
// the ints i and j.
func checkStrings(t testing.TB, s, a, b string, i, j int64) {
	t.Helper()
	v := map[string]any{"s": s, "a": a, "b": b, "i": i, "j": j}
	got, err := celrt.CharAt(s, i)
	agree(t, "s.charAt(i)", v, got, err)
	n, err := celrt.IndexOf(s, a)
	agree(t, "s.indexOf(a)", v, n, err)
	n, err = celrt.IndexOfFrom(s, a, i)
	agree(t, "s.indexOf(a, i)", v, n, err)
	n, err = celrt.LastIndexOf(s, a)
	agree(t, "s.lastIndexOf(a)", v, n, err)
	n, err = celrt.LastIndexOfFrom(s, a, i)
	agree(t, "s.lastIndexOf(a, i)", v, n, err)
	agree(t, "s.lowerAscii()", v, celrt.LowerASCII(s), nil)
	agree(t, "s.upperAscii()", v, celrt.UpperASCII(s), nil)
	agree(t, "s.replace(a, b)", v, celrt.Replace(s, a, b), nil)
	agree(t, "s.replace(a, b, i)", v, celrt.ReplaceN(s, a, b, i), nil)
	agree(t, "s.split(a)", v, celrt.Split(s, a), nil)
	agree(t, "s.split(a, i)", v, celrt.SplitN(s, a, i), nil)
	got, err = celrt.Substring(s, i)
	agree(t, "s.substring(i)", v, got, err)
	got, err = celrt.SubstringRange(s, i, j)
	agree(t, "s.substring(i, j)", v, got, err)
	agree(t, "s.trim()", v, celrt.Trim(s), nil)
	agree(t, "[s, a, b].join()", v, celrt.Join([]string{s, a, b}), nil)
	agree(t, "[s, a].join(b)", v, celrt.JoinSep([]string{s, a}, b), nil)
	agree(t, "strings.quote(s)", v, celrt.Quote(s), nil)
	agree(t, "s.reverse()", v, celrt.Reverse(s), nil)
	l := []any{a, i, j, b, 1.5, []any{s, j}}
	got, err = celrt.Format(s, l)
	agree(t, "s.format(l)", map[string]any{"s": s, "l": l}, got, err)
}

func TestStringFunctionsAgainstCEL(t *testing.T) {
	for _, s := range hostileStrings {
		for _, a := range hostileStrings {
			for k, i := range hostileInts {
				// j walks the ints in another order, so that every pair
				// of positions comes up across the strings.
				j := hostileInts[(k*7+len(s))%len(hostileInts)]
				checkStrings(t, s, a, "_", i, j)
			}
		}
	}
	// Every pair of small positions on a few strings.
	for _, s := range []string{"", "abc", "a\xffé👍🏽"} {
		for i := int64(-1); i <= 6; i++ {
			for j := int64(-1); j <= 6; j++ {
				checkStrings(t, s, "", "", i, j)
			}
		}
	}
}

func FuzzStringsAgainstCEL(f *testing.F) {
	for k, s := range hostileStrings {
		f.Add(s, hostileStrings[(k+3)%len(hostileStrings)], "_", hostileInts[k%len(hostileInts)], int64(k%4))
	}
	f.Add("hello mellow", "ello", "", int64(2), int64(-1))
	f.Add("\xff\xff", "\xff", "\uFFFD", int64(1), int64(1))
	f.Fuzz(func(t *testing.T, s, a, b string, i, j int64) {
		if len(s)*(len(b)+1) > 1<<16 {
			t.Skip("replacement output too large")
		}
		checkStrings(t, s, a, b, i, j)
	})
}

func TestFormatTable(t *testing.T) {
	m, err := celrt.NewMap([]any{"b", "a", int64(10)}, []any{int64(1), []any{"x", 2.5}, nil})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		format string
		args   []any
		want   any // a string, or the sentinel error
	}{
		{"this is a string: %s\nand an integer: %d", []any{"str", int64(42)}, "this is a string: str\nand an integer: 42"},
		{"a double substituted with %%s: %s", []any{64.2}, "a double substituted with %s: 64.2"},
		{"string type: %s", []any{celrt.StringType}, "string type: string"},
		{"%f", []any{3.14}, "3.140000"},
		{"%.2f %.0f %.f", []any{3.14159, 2.5, 1.0}, celrt.ErrInvalid},
		{"%.2f %.0f", []any{3.14159, 2.5}, "3.14 2"},
		{"%e", []any{2.71828}, "2.718280e+00"},
		{"%.1e", []any{int64(12345)}, "1.2e+04"},
		{"%b %b %b", []any{int64(5), uint64(2), true}, "101 10 1"},
		{"%x %X %x", []any{int64(26), int64(-26), "hé"}, "1a -1A 68c3a9"},
		{"%o", []any{uint64(30)}, "36"},
		{"%d", []any{1.5}, "1.5"},
		{"%d %s %f", []any{math.NaN(), math.Inf(1), math.Inf(-1)}, "NaN Infinity -Infinity"},
		{"%s", []any{1e21}, "1000000000000000000000"},
		{"%s", []any{m}, "{10: null, a: [x, 2.5], b: 1}"},
		{"%s", []any{[]any{"a", []byte("b"), nil, []any{}}}, "[a, b, null, []]"},
		{"%s", []any{celrt.Of[any](1)}, celrt.ErrNoSuchOverload},
		{"%d", []any{"1"}, celrt.ErrNoSuchOverload},
		{"%x", []any{1.0}, celrt.ErrNoSuchOverload},
		{"%s %s", []any{"a"}, celrt.ErrIndex},
		{"%s", []any{"a", "b"}, "a"},
		{"%y", []any{"a"}, celrt.ErrInvalid},
		{"abc%", []any{"a"}, celrt.ErrInvalid},
		{"%.3", []any{1.0}, celrt.ErrInvalid},
		{"%.99999999999999999999f", []any{1.0}, celrt.ErrInvalid},
		{"100%%", nil, "100%"},
		{"%.3s", []any{"abcdef"}, "abcdef"},
	} {
		got, err := celrt.Format(tc.format, tc.args)
		if want, isErr := tc.want.(error); isErr {
			if !errors.Is(err, want) {
				t.Errorf("%q.format(%v): got %q, %v, want an error wrapping %v", tc.format, tc.args, got, err, want)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q.format(%v): got %q, %v, want %q", tc.format, tc.args, got, err, tc.want)
		}
	}
}

func TestFormatAgainstCEL(t *testing.T) {
	formats := []string{
		"", "plain", "%s", "%d", "%f", "%e", "%b", "%x", "%X", "%o", "%%", "%", "%q", "%.", "%.2",
		"%.2f|%.0e|%.12f", "%.3d", "%.99999999999999999999f", "%.1000001f", "%.0000002e", "%s %s", "%s%%%d", "%x\xff%s", "é%sé", "%.0f", "%.20e",
	}
	args := [][]any{
		{},
		{"a\xffé"},
		{int64(-26)},
		{uint64(math.MaxUint64)},
		{0.1},
		{math.Copysign(0, -1)},
		{1e300},
		{5e-324},
		{math.NaN()},
		{math.Inf(-1)},
		{true},
		{nil},
		{[]byte("\x00\xff")},
		{[]any{"a", int64(1), 2.5, []any{nil, true}}},
		{map[string]any{"b": int64(1), "a": []any{"x"}, "": "e"}},
		{int64(7), "x", 1.5},
		{"x", int64(7), 1.5, uint64(3)},
	}
	for _, f := range formats {
		for _, l := range args {
			got, err := celrt.Format(f, toRT(l).([]any))
			agree(t, "s.format(l)", map[string]any{"s": f, "l": l}, got, err)
		}
	}
}

// toRT converts a value for cel-go into celrt's dynamic form: a
// map[string]any becomes a *celrt.Map.
func toRT(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = toRT(e)
		}
		return out
	case map[string]any:
		var keys, values []any
		for k, e := range x {
			keys = append(keys, k)
			values = append(values, toRT(e))
		}
		m, err := celrt.NewMap(keys, values)
		if err != nil {
			panic(err)
		}
		return m
	}
	return v
}
