package textfmt

import (
	"math"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
)

func TestFileSize(t *testing.T) {
	tests := []struct {
		name string
		n    float64
		want string
	}{
		// reference examples
		{"zero", 0, "0 B"},
		{"bytes", 1023, "1023 B"},
		{"one KB", 1024, "1.00 KB"},
		{"two decimals", 1536, "1.50 KB"},
		{"one decimal", 10240, "10.0 KB"},
		{"no decimal", 102400, "100 KB"},
		{"four digits", 1024000, "1000 KB"},
		{"one MB", 1 << 20, "1.00 MB"},
		{"one GB", 1 << 30, "1.00 GB"},
		{"one TB", 1 << 40, "1.00 TB"},
		{"1.5 GB", 1.5 * (1 << 30), "1.50 GB"},
		// boundaries: digits that would round up move on
		{"just below 10 KB", 10239, "10.0 KB"},
		{"just below 100 KB", 102399, "100 KB"},
		{"1023.4 KB", 1023.4 * 1024, "1023 KB"},
		{"1023.5 KB rounds to 1024: MB", 1023.5 * 1024, "1.00 MB"},
		{"one byte short of a MB", 1<<20 - 1, "1.00 MB"},
		{"one byte short of a GB", 1<<30 - 1, "1.00 GB"},
		{"one byte short of a TB", 1<<40 - 1, "1.00 TB"},
		{"1023.5 bytes", 1023.5, "1.00 KB"},
		{"1023.4 bytes", 1023.4, "1023 B"},
		// TB is the last unit
		{"1024 TB", 1 << 50, "1024 TB"},
		{"2^60", 1 << 60, "1048576 TB"},
		{"huge", 1e300, "9.094947017729283e+287 TB"},
		{"max", math.MaxFloat64, "1.6349923815708423e+296 TB"},
		// fractions of a byte round to even
		{"half a byte", 0.5, "0 B"},
		{"one and a half", 1.5, "2 B"},
		{"tiny", 1e-300, "0 B"},
		// negative, NaN, infinities
		{"negative", -1536, "-1.50 KB"},
		{"negative bytes", -1, "-1 B"},
		{"negative zero", math.Copysign(0, -1), "0 B"},
		{"negative rounding to zero", -0.3, "0 B"},
		{"NaN", math.NaN(), "NaN B"},
		{"infinity", math.Inf(1), "Infinity B"},
		{"negative infinity", math.Inf(-1), "-Infinity B"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, FileSize(tc.n))
		})
	}
	assert.Equal(t, "1.00 KB", FileSizeInt(1024))
	assert.Equal(t, "-8388608 TB", FileSizeInt(math.MinInt64))
	assert.Equal(t, "8388608 TB", FileSizeInt(math.MaxInt64))
}

// No unit but the last ever shows 1024 or more, and the digits are three
// significant ones (four from 1000 to 1023), whatever the size.
func TestFileSizeNeverShows1024(t *testing.T) {
	// Compiled once: assert.Regexp compiles a pattern given as a string at
	// each of the 132,000 calls, which took most of a minute under -race.
	shown := regexp.MustCompile(`^([1-9]\.\d\d|[1-9]\d\.\d|[1-9]\d\d|10[01]\d|102[0-3])$`)
	for e := 0.0; e < 44; e += 0.001 {
		n := math.Floor(math.Pow(2, e))
		for _, m := range []float64{n - 1, n, n + 1} {
			s := FileSize(m)
			digits, unit, _ := strings.Cut(s, " ")
			if unit != "B" && unit != "TB" {
				assert.Regexp(t, shown, digits, "%v bytes: %s", m, s)
			}
		}
	}
}

func TestDurationText(t *testing.T) {
	tests := []struct {
		name    string
		seconds float64
		want    string
	}{
		// reference examples
		{"microseconds", 0.0005, "500µs"},
		{"one millisecond", 0.001, "1ms"},
		{"milliseconds", 0.25, "250ms"},
		{"one second", 1, "1.0s"},
		{"seconds", 59.9, "59.9s"},
		{"a minute", 60, "1min 0s"},
		{"minutes", 125, "2min 5s"},
		// below a microsecond
		{"zero", 0, "0µs"},
		{"under half a microsecond", 4e-7, "0µs"},
		{"half a microsecond", 5e-7, "0µs"}, // half to even
		{"0.6 microseconds", 6e-7, "1µs"},
		{"smallest double", 5e-324, "0µs"},
		// boundaries: digits that would round up move on
		{"999.6 microseconds", 0.0009996, "1ms"},
		{"999.4 microseconds", 0.0009994, "999µs"},
		{"999.6 milliseconds", 0.9996, "1.0s"},
		{"59.94 seconds", 59.94, "59.9s"},
		{"59.96 seconds", 59.96, "1min 0s"},
		{"seconds are cut", 125.9, "2min 5s"},
		{"just under an hour", 3599.9, "59min 59s"},
		// hours
		{"an hour", 3600, "1h 0min"},
		{"hours", 3720, "1h 2min"},
		{"minutes are cut", 3600 + 179.9, "1h 2min"},
		{"a day", 86400, "24h 0min"},
		{"a long time", 1e20, "27777777777777776h 46min"},
		{"huge", 1e300, "2.777777777777778e+296h 36min"},
		{"max", math.MaxFloat64, "4.99359204128421e+304h 26min"},
		// negative, NaN, infinities
		{"negative", -1.5, "-1.5s"},
		{"negative minutes", -125, "-2min 5s"},
		{"negative zero", math.Copysign(0, -1), "0µs"},
		{"negative rounding to zero", -1e-9, "0µs"},
		{"NaN", math.NaN(), "NaN s"},
		{"infinity", math.Inf(1), "Infinity s"},
		{"negative infinity", math.Inf(-1), "-Infinity s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, DurationText(tc.seconds))
		})
	}
}

func TestDurationTextInt(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0µs", 1: "1.0s", 59: "59.0s", 60: "1min 0s", 125: "2min 5s", 3720: "1h 2min", -3720: "-1h 2min",
		1 << 53:         "2501999792983h 36min",
		1<<53 + 1:       "2501999792983h 36min",
		math.MaxInt64:   "2562047788015215h 30min",
		math.MinInt64:   "-2562047788015215h 30min",
		-(1 << 53) - 60: "-2501999792983h 37min",
	} {
		assert.Equal(t, want, DurationTextInt(n), "%d", n)
	}
}

func TestShortcut(t *testing.T) {
	tests := []struct{ keys, want string }{
		// reference examples
		{"cmd+shift+a", "⌘⇧a"},
		{"ctrl+alt+delete", "⌃⌥⌫"},
		{"cmd + shift + t", "⌘⇧t"},
		{"shift+tab", "⇧⇥"},
		// names without regard to case, keys as written
		{"Cmd+Shift+A", "⌘⇧A"},
		{"COMMAND+OPTION+Escape", "⌘⌥⎋"},
		{"control+opt+Return", "⌃⌥↩"},
		{"fn+f5", "🌐f5"},
		{"cmd+space", "⌘␣"},
		{"cmd+enter", "⌘↩"},
		{"esc", "⎋"},
		{"up+down+left+right", "↑↓←→"},
		{"ArrowUp", "↑"},
		{"home+end+pageup+pagedown", "↖↘⇞⇟"},
		{"page_up+page_down", "⇞⇟"},
		{"forwarddelete+forward_delete+del+backspace", "⌦⌦⌫⌫"},
		{"capslock", "⇪"},
		// Peekaboo's hotkey tool separates keys with commas or spaces
		{"cmd,shift,t", "⌘⇧t"},
		{"cmd, c", "⌘c"},
		{"cmd shift p", "⌘⇧p"},
		// + and , as keys
		{"cmd++", "⌘+"},
		{"cmd + +", "⌘+"},
		{"cmd+,", "⌘,"},
		{"cmd,+", "⌘+"},
		{"+", "+"},
		{",", ","},
		{"++", "+"},
		{"+++", "++"},
		// empty parts
		{"", ""},
		{"   ", ""},
		{"cmd+shift+", "⌘⇧"},
		{"cmd+ +shift", "⌘+⇧"}, // the second + is where a key is expected
		// no look-alikes: only ASCII letters fold
		{"ſhift", "ſhift"},
		{"\u212aey", "\u212aey"},
		{"shift\u00a0a", "⇧a"},
		{"a\xffb+cmd", "a\xffb⌘"},
		{"ä+ß", "äß"},
		{"forward_deletes", "forward_deletes"},
	}
	for _, tc := range tests {
		t.Run(tc.keys, func(t *testing.T) {
			assert.Equal(t, tc.want, Shortcut(tc.keys))
		})
	}
}

// Shortcut is never longer than its input, in characters.
func TestShortcutIsNoLonger(t *testing.T) {
	names := []string{"fn", "up", "cmd", "a", "+", ",", " ", "shift", "é"}
	for i := range 5000 {
		var b strings.Builder
		for j := i; j > 0; j /= len(names) {
			b.WriteString(names[j%len(names)])
		}
		in := b.String()
		assert.LessOrEqual(t, utf8.RuneCountInString(Shortcut(in)), utf8.RuneCountInString(in), "%q", in)
		assert.LessOrEqual(t, len(Shortcut(in)), 2*len(in), "%q", in)
	}
}

func TestBaseName(t *testing.T) {
	for path, want := range map[string]string{
		// reference examples
		"/a/b/": "b",
		"/":     "/",
		"":      "",
		// others
		"/a/b":              "b",
		"name":              "name",
		"dir/":              "dir",
		"//":                "/",
		`\`:                 `\`,
		`\\`:                `\`,
		`C:\dir\file.txt`:   "file.txt",
		`C:\dir\sub\`:       "sub",
		`C:\`:               "C:",
		"mixed/dir\\file":   "file",
		"/path/to/ファイル.txt": "ファイル.txt",
		"a//b//":            "b",
	} {
		assert.Equal(t, want, BaseName(path), "%q", path)
	}
}

func TestMenuPath(t *testing.T) {
	for text, want := range map[string]string{
		// reference examples
		"File > Save As": "File → Save As",
		// others
		"File>Save As…":           "File → Save As…",
		"  View > > Zoom >  ":     "View → Zoom",
		"Edit":                    "Edit",
		"  Edit  ":                "Edit",
		"":                        "",
		">":                       "",
		" > > ":                   "",
		"a>b>c":                   "a → b → c",
		"Format >\tFont > Bold":   "Format → Font → Bold",
		"Help\u00a0>\u3000Search": "Help → Search",
	} {
		assert.Equal(t, want, MenuPath(text), "%q", text)
	}
	long := strings.Repeat("a>", 1000)
	assert.Len(t, MenuPath(long), 1000+999*len(" → "))
}

func TestDimensions(t *testing.T) {
	assert.Equal(t, "800×600", DimensionsInt(800, 600))
	assert.Equal(t, "-1×9223372036854775807", DimensionsInt(-1, math.MaxInt64))
	assert.Equal(t, "800×600", Dimensions(800, 600))
	assert.Equal(t, "1.5×2", Dimensions(1.5, 2))
	assert.Equal(t, "1e+21×0", Dimensions(1e21, math.Copysign(0, -1)))
	assert.Equal(t, "NaN×Infinity", Dimensions(math.NaN(), math.Inf(1)))
}

func TestResultValue(t *testing.T) {
	obj := func(js string) any {
		v, err := value.DecodeJSON([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct{ name, in, want string }{
		{"typed value", `{"type": "number", "value": 5}`, `5`},
		{"type and value in another order", `{"value": "x", "type": "string"}`, `"x"`},
		{"data", `{"data": {"app": "Safari"}}`, `{"app":"Safari"}`},
		{"data and metadata", `{"data": [1, 2], "metadata": {"ms": 3}}`, `[1,2]`},
		{"nested", `{"data": {"type": "object", "value": {"data": {"x": 1}, "metadata": null}}}`, `{"x":1}`},
		{"null inside", `{"data": null}`, `null`},
		// not wrappers
		{"a plain object", `{"app": "Safari"}`, `{"app":"Safari"}`},
		{"type and value and more", `{"type": "t", "value": 1, "unit": "px"}`, `{"type":"t","value":1,"unit":"px"}`},
		{"type without value", `{"type": "t", "data": 1}`, `{"type":"t","data":1}`},
		{"data with another key", `{"data": 1, "error": "x"}`, `{"data":1,"error":"x"}`},
		{"metadata alone", `{"metadata": 1}`, `{"metadata":1}`},
		{"value alone", `{"value": 1}`, `{"value":1}`},
		{"empty object", `{}`, `{}`},
		{"a list", `[{"data": 1}]`, `[{"data":1}]`},
		{"a string", `"data"`, `"data"`},
		{"a number", `1.50`, `1.50`},
		{"null", `null`, `null`},
		// at most MaxResultUnwrap wrappers
		{"eight wrappers", strings.Repeat(`{"data": `, 8) + `1` + strings.Repeat(`}`, 8), `1`},
		{"nine wrappers", strings.Repeat(`{"data": `, 9) + `1` + strings.Repeat(`}`, 9), `{"data":1}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ResultValue(obj(tc.in))
			js := "null"
			if got != nil {
				js = CompactJSON(got)
				if o, ok := got.(*value.Object); ok && o.Len() == 0 {
					js = "{}"
				}
			}
			assert.Equal(t, tc.want, js)
		})
	}
	var nilObject *value.Object
	assert.Equal(t, nilObject, ResultValue(nilObject))
}

// The functions never panic and take time linear in their input: a long
// or deep input is read once.
func TestUnitsOnLongInput(t *testing.T) {
	long := strings.Repeat("cmd+", 1<<16) + "a"
	assert.Equal(t, strings.Repeat("⌘", 1<<16)+"a", Shortcut(long))
	assert.Equal(t, "a", BaseName(strings.Repeat("/", 1<<16)+"a"+strings.Repeat(`\`, 1<<16)))
	assert.Equal(t, "a → b", MenuPath("a"+strings.Repeat(" > ", 1<<16)+"b"))
	deep := strings.Repeat(`{"data": `, 10_000) + `1` + strings.Repeat(`}`, 10_000)
	if v, err := value.DecodeJSON([]byte(deep)); err == nil {
		assert.NotNil(t, ResultValue(v))
	}
}

// FuzzUnits: the functions never panic and stay within the lengths the
// cost estimate of package celfmt assumes for their results: 32
// characters for FileSize, 40 for DurationText, 64 for Dimensions, the
// input's characters for Shortcut and BaseName, three times its bytes for
// MenuPath.
func FuzzUnits(f *testing.F) {
	f.Add("cmd+shift+a", 1536.0, int64(1536))
	f.Add("File > Save As", 0.0005, int64(-1))
	f.Add("/a/b/", math.MaxFloat64, int64(math.MinInt64))
	f.Add("fn+,++", -5e-324, int64(math.MaxInt64))
	f.Fuzz(func(t *testing.T, s string, d float64, n int64) {
		for _, text := range []string{FileSize(d), FileSize(-d), FileSizeInt(n)} {
			if utf8.RuneCountInString(text) > 32 {
				t.Errorf("FileSize: %q", text)
			}
		}
		for _, text := range []string{DurationText(d), DurationText(-d), DurationTextInt(n)} {
			if utf8.RuneCountInString(text) > 40 {
				t.Errorf("DurationText: %q", text)
			}
		}
		if text := Dimensions(-d, d); utf8.RuneCountInString(text) > 64 {
			t.Errorf("Dimensions: %q", text)
		}
		if got := Shortcut(s); utf8.RuneCountInString(got) > utf8.RuneCountInString(s) || len(got) > 2*len(s) {
			t.Errorf("Shortcut(%q) = %q", s, got)
		}
		if got := BaseName(s); !strings.Contains(s, got) {
			t.Errorf("BaseName(%q) = %q", s, got)
		}
		if got := MenuPath(s); len(got) > 3*len(s) {
			t.Errorf("MenuPath(%q) = %q", s, got)
		}
	})
}

func TestMinorUnits(t *testing.T) {
	for _, tc := range []struct {
		amount   int64
		currency string
		want     string
		ok       bool
	}{
		{1999, "usd", "19.99 USD", true},
		{5, "EUR", "0.05 EUR", true},
		{0, "usd", "0.00 USD", true},
		{500, "jpy", "500 JPY", true},
		{505, "kwd", "0.505 KWD", true},
		{7, "bhd", "0.007 BHD", true},
		{1250000, "", "12500.00", true},
		{-1, "usd", "", false},
		{100, "us", "", false},
		{100, "usd\u202e", "", false},
		{100, "u$d", "", false},
	} {
		got, ok := MinorUnits(tc.amount, tc.currency)
		assert.Equal(t, tc.ok, ok, "%d %q", tc.amount, tc.currency)
		assert.Equal(t, tc.want, got, "%d %q", tc.amount, tc.currency)
	}
}

func TestOneLineAndToolPart(t *testing.T) {
	line, ok := OneLine(" a\n\n b ", 80)
	assert.True(t, ok)
	assert.Equal(t, "a b", line)
	_, ok = OneLine(" \t\n", 80)
	assert.False(t, ok, "blank text declines")
	assert.Equal(t, "create_issue", ToolPart("github:create_issue"))
	assert.Equal(t, "read", ToolPart("read"))
	assert.Equal(t, "b:c", ToolPart("a:b:c"))
}
