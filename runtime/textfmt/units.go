package textfmt

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/permgen/permgen/runtime/value"
)

// The wording of quantities and names a GUI automation tool's calls carry
// (Peekaboo's, among others): file sizes, durations, keyboard shortcuts,
// file names, menu paths, dimensions and the value a tool result wraps.
// Each function is pure, takes time linear in its input and never panics.

// sizeUnits are the units of FileSize, 1024 apart.
var sizeUnits = [...]string{"B", "KB", "MB", "GB", "TB"}

// FileSize returns a byte count as people read it: whole bytes below
// 1 KB ("0 B", "1023 B"), then KB, MB, GB and TB, 1024 apart, with three
// significant digits: two decimals below 10 ("1.50 KB"), one below 100
// ("10.0 KB"), none from 100 on ("100 KB", "1000 KB"). A size moves to the
// next unit when its digits would round up to 1024, so no unit ever shows
// 1024: 1048575 bytes is "1.00 MB", not "1024 KB". TB is the last unit
// (1048576 TB for 2^60 bytes; from 1e21 TB on, in exponent notation as
// JavaScript prints numbers). Fractions of a byte are rounded to the
// nearest byte, half to even.
//
// A negative size is printed with a minus sign ("-1.50 KB"), except that a
// size that rounds to zero is "0 B". NaN is "NaN B" and the infinities are
// "Infinity B" and "-Infinity B".
func FileSize(n float64) string {
	var scratch [32]byte
	return string(AppendFileSize(scratch[:0], n))
}

// AppendFileSize appends FileSize(n) to dst, without allocating when dst
// has room.
func AppendFileSize(dst []byte, n float64) []byte {
	switch {
	case math.IsNaN(n):
		return append(dst, "NaN B"...)
	case math.IsInf(n, 0):
		return append(value.AppendNumber(dst, n), " B"...)
	case n < 0:
		start := len(dst)
		dst = AppendFileSize(append(dst, '-'), -n)
		if string(dst[start+1:]) == "0 B" {
			return append(dst[:start], "0 B"...)
		}
		return dst
	}
	if b := math.RoundToEven(n); b < 1024 {
		return append(strconv.AppendFloat(dst, b+0, 'f', 0, 64), " B"...) // +0 turns -0 into 0
	}
	v := n
	for i := 1; ; i++ {
		v /= 1024
		last := i == len(sizeUnits)-1
		if digits, ok := appendThreeDigits(dst, v, last); ok {
			return append(append(digits, ' '), sizeUnits[i]...)
		}
	}
}

// FileSizeInt is FileSize of an int.
func FileSizeInt(n int64) string { return FileSize(float64(n)) }

// appendThreeDigits appends v, at least 0.9995 or so, with three
// significant digits, and reports false when the digits would reach 1024
// in a unit that is not the last (dst is then as it was).
func appendThreeDigits(dst []byte, v float64, last bool) ([]byte, bool) {
	start := len(dst)
	if v < 10 {
		if dst = strconv.AppendFloat(dst, v, 'f', 2, 64); string(dst[start:]) != "10.00" {
			return dst, true
		}
		dst = dst[:start]
	}
	if v < 100 {
		if dst = strconv.AppendFloat(dst, v, 'f', 1, 64); string(dst[start:]) != "100.0" {
			return dst, true
		}
		dst = dst[:start]
	}
	r := math.RoundToEven(v)
	if r >= 1024 && !last {
		return dst, false
	}
	return value.AppendNumber(dst, r), true
}

// DurationText returns a duration in seconds as people read it, in the
// unit that suits its length:
//
//   - below a millisecond, whole microseconds: "500µs" (0.0005); a
//     duration that rounds to no microsecond, 0 included, is "0µs";
//   - below a second, whole milliseconds: "1ms", "250ms";
//   - below a minute, seconds with one decimal: "1.0s", "59.9s";
//   - below an hour, minutes and whole seconds: "1min 0s", "2min 5s";
//   - from an hour on, hours and whole minutes: "1h 0min", "1h 2min"
//     (hours from 1e21 on in exponent notation, as JavaScript prints
//     numbers; beyond 2^53 seconds a double's digits, which
//     DurationTextInt avoids for ints).
//
// Each unit's digits are rounded to the nearest (half to even), and a
// duration whose digits would round up to the next unit moves to it
// (0.9996 is "1.0s", not "1000ms"; 59.96 is "1min 0s", not "60.0s").
// Minutes and hours are whole units of the duration and the seconds or
// minutes left over, cut, not rounded (125.9 is "2min 5s").
//
// A negative duration is printed with a minus sign ("-1.5s"), except that
// one that rounds to zero is "0µs". NaN is "NaN s" and the infinities
// are "Infinity s" and "-Infinity s".
func DurationText(seconds float64) string {
	switch {
	case math.IsNaN(seconds):
		return "NaN s"
	case math.IsInf(seconds, 0):
		return value.FormatNumber(seconds) + " s"
	case seconds < 0:
		if s := DurationText(-seconds); s != "0µs" {
			return "-" + s
		}
		return "0µs"
	}
	if us := math.RoundToEven(seconds * 1e6); us < 1000 {
		return strconv.FormatFloat(us+0, 'f', 0, 64) + "µs" // +0 turns -0 into 0
	}
	if ms := math.RoundToEven(seconds * 1e3); ms < 1000 {
		return strconv.FormatFloat(ms, 'f', 0, 64) + "ms"
	}
	if tenths := math.RoundToEven(seconds * 10); tenths < 600 {
		return strconv.FormatFloat(tenths/10, 'f', 1, 64) + "s"
	}
	whole := max(math.Floor(seconds), 60) // 59.95 and up is a minute
	if whole < 3600 {
		return strconv.Itoa(int(whole)/60) + "min " + strconv.Itoa(int(whole)%60) + "s"
	}
	hours := math.Floor(whole / 3600)
	minutes := math.Floor(math.Mod(whole, 3600) / 60)
	return value.FormatNumber(hours) + "h " + strconv.Itoa(int(minutes)) + "min"
}

// DurationTextInt is DurationText of an int number of seconds, exact
// whatever its size.
func DurationTextInt(seconds int64) string {
	const exact = 1 << 53 // the ints a double holds exactly
	if seconds >= -exact && seconds <= exact {
		return DurationText(float64(seconds))
	}
	sign, u := "", uint64(seconds)
	if seconds < 0 {
		sign, u = "-", -u
	}
	return sign + strconv.FormatUint(u/3600, 10) + "h " + strconv.FormatUint(u%3600/60, 10) + "min"
}

// Shortcut returns a keyboard shortcut written as text ("cmd+shift+a",
// "cmd, shift, t", "Ctrl Alt Delete") in the symbols macOS shows in menus
// ("⌘⇧a", "⌘⇧t", "⌃⌥⌫"), one after another in the order written.
//
// The keys are separated by "+", "," or white space. A "+" or "," where a
// key is expected (first, or right after another "+" or ",", white space
// between them aside) is that key: "cmd++" is "⌘+", "cmd+," is "⌘,".
// Empty keys are dropped ("cmd+shift+" is "⌘⇧"). Each key is looked up in
// shortcutSymbols, its ASCII letters without regard to case; a key that is
// not there is kept as written ("f5", "A", "ä").
func Shortcut(keys string) string {
	var b strings.Builder
	b.Grow(len(keys))
	keyExpected := true
	for i := 0; i < len(keys); {
		switch c := keys[i]; {
		case c == '+' || c == ',':
			if keyExpected {
				b.WriteByte(c)
			}
			keyExpected = !keyExpected
			i++
		case isSpaceAt(keys, i) > 0:
			i += isSpaceAt(keys, i)
		default:
			end := i + 1
			for end < len(keys) && keys[end] != '+' && keys[end] != ',' && isSpaceAt(keys, end) == 0 {
				end++
			}
			key := keys[i:end]
			if symbol, ok := shortcutSymbol(key); ok {
				key = symbol
			}
			b.WriteString(key)
			keyExpected = false
			i = end
		}
	}
	return b.String()
}

// isSpaceAt returns the length of the white space character (as
// JavaScript's trim sees it) at text[i], or 0 when there is none there.
func isSpaceAt(text string, i int) int {
	c := text[i]
	if c < utf8.RuneSelf {
		if c == ' ' || '\t' <= c && c <= '\r' {
			return 1
		}
		return 0
	}
	if c != 0xc2 && c != 0xe1 && c != 0xe2 && c != 0xe3 {
		return 0 // no white space starts with another byte
	}
	r, size := utf8.DecodeRuneInString(text[i:])
	if isJSSpace(r) {
		return size
	}
	return 0
}

// shortcutSymbols returns the symbol of Shortcut for a key name in lower
// case: the modifiers and the keys whose names macOS shows as a symbol. A
// switch, not a map: the package's initialization builds nothing.
func shortcutSymbols(name string) (string, bool) {
	switch name {
	case "cmd", "command":
		return "⌘", true
	case "shift":
		return "⇧", true
	case "ctrl", "control":
		return "⌃", true
	case "alt", "option", "opt":
		return "⌥", true
	case "fn", "function", "globe":
		return "🌐", true
	case "capslock":
		return "⇪", true
	case "delete", "backspace", "del":
		return "⌫", true
	case "forwarddelete", "forward_delete":
		return "⌦", true
	case "tab":
		return "⇥", true
	case "return", "enter":
		return "↩", true
	case "escape", "esc":
		return "⎋", true
	case "space":
		return "␣", true
	case "up", "arrowup":
		return "↑", true
	case "down", "arrowdown":
		return "↓", true
	case "left", "arrowleft":
		return "←", true
	case "right", "arrowright":
		return "→", true
	case "home":
		return "↖", true
	case "end":
		return "↘", true
	case "pageup", "page_up":
		return "⇞", true
	case "pagedown", "page_down":
		return "⇟", true
	}
	return "", false
}

// maxKeyName is the length of the longest name in shortcutSymbols.
const maxKeyName = len("forward_delete")

// shortcutSymbol returns the symbol of a key name, matching ASCII letters
// without regard to case (and nothing else: "ſhift" is not "shift").
func shortcutSymbol(key string) (string, bool) {
	if len(key) < 2 || len(key) > maxKeyName {
		return "", false // every name has two letters at least
	}
	var buf [maxKeyName]byte
	lower := buf[:len(key)]
	for i := range len(key) {
		c := key[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	return shortcutSymbols(string(lower))
}

// BaseName returns the last element of a path whose elements are
// separated by "/" or "\" (a POSIX or a Windows path), trailing separators
// ignored: "/a/b/" is "b", "C:\\dir\\file.txt" is "file.txt", "name" is
// "name". A path of separators only is its first character ("/" for "/"
// or "//"), and "" is "".
func BaseName(path string) string {
	end := len(path)
	for end > 0 && isPathSeparator(path[end-1]) {
		end--
	}
	if end == 0 {
		return path[:min(len(path), 1)]
	}
	start := end
	for start > 0 && !isPathSeparator(path[start-1]) {
		start--
	}
	return path[start:end]
}

func isPathSeparator(c byte) bool { return c == '/' || c == '\\' }

// MenuPath returns a menu path written with ">" ("File > Save As") with
// arrows: its parts split at ">", each trimmed of white space, empty parts
// dropped, joined with " → " ("File → Save As"). Text without ">" is only
// trimmed; text of separators and white space only is "".
func MenuPath(text string) string {
	// Two passes: the first measures the result, so the second writes it
	// into one allocation.
	const arrow = " → "
	size := -len(arrow)
	for start, i := 0, 0; i <= len(text); i++ {
		if i == len(text) || text[i] == '>' {
			if part := strings.TrimFunc(text[start:i], isJSSpace); part != "" {
				size += len(arrow) + len(part)
			}
			start = i + 1
		}
	}
	if size <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(size)
	for start, i := 0, 0; i <= len(text); i++ {
		if i == len(text) || text[i] == '>' {
			if part := strings.TrimFunc(text[start:i], isJSSpace); part != "" {
				if b.Len() > 0 {
					b.WriteString(arrow)
				}
				b.WriteString(part)
			}
			start = i + 1
		}
	}
	return b.String()
}

// Dimensions returns a width and a height as "<w>×<h>" (U+00D7), each
// number as JavaScript prints it: "800×600", "1.5×2", "NaN×Infinity".
func Dimensions(w, h float64) string {
	return value.FormatNumber(w) + "×" + value.FormatNumber(h)
}

// DimensionsInt is Dimensions of ints, printed exactly.
func DimensionsInt(w, h int64) string {
	return strconv.FormatInt(w, 10) + "×" + strconv.FormatInt(h, 10)
}

// MaxResultUnwrap is how many wrappers ResultValue removes at most.
const MaxResultUnwrap = 8

// ResultFields is how UnwrapResult reads values of type V: whether a value
// is an object (a map), its number of keys, and the value of a string key.
type ResultFields[V any] interface {
	// Object returns the number of keys of v, and false when v is not an
	// object.
	Object(v V) (keys int, ok bool)
	// Field returns v[key], and false when v has no such key.
	Field(v V, key string) (V, bool)
}

// UnwrapResult returns the value a tool result wraps, removing at most
// MaxResultUnwrap wrappers, outermost first. A wrapper is an object of one
// of these shapes, and stands for the value of one of its keys:
//
//   - {"type": t, "value": v}, exactly these two keys (a typed value, as
//     Peekaboo's results carry them): v;
//   - {"data": d}, its only key: d;
//   - {"data": d, "metadata": m}, exactly these two keys: d.
//
// Any other value, an object with other keys included, is the result
// itself and is returned as it is, as is what is left after the last
// wrapper removed. Each step reads at most three keys of an object of at
// most two, so the time does not grow with the value.
func UnwrapResult[V any, F ResultFields[V]](v V, f F) V {
	for range MaxResultUnwrap {
		n, ok := f.Object(v)
		if !ok || n < 1 || n > 2 {
			return v
		}
		if n == 2 {
			if _, ok := f.Field(v, "type"); ok {
				if inner, ok := f.Field(v, "value"); ok {
					v = inner
					continue
				}
				return v
			}
			if _, ok := f.Field(v, "metadata"); !ok {
				return v
			}
		}
		inner, ok := f.Field(v, "data")
		if !ok {
			return v
		}
		v = inner
	}
	return v
}

// ResultValue is UnwrapResult of a value of package value's model (an
// object is a *value.Object).
func ResultValue(v any) any { return UnwrapResult(v, modelFields{}) }

// modelFields reads the objects of package value's model.
type modelFields struct{}

func (modelFields) Object(v any) (int, bool) {
	o, ok := v.(*value.Object)
	if !ok || o == nil {
		return 0, false
	}
	return o.Len(), true
}

func (modelFields) Field(v any, key string) (any, bool) {
	return v.(*value.Object).Get(key)
}

// minorDigits are the currencies whose minor unit is not a hundredth of the
// major one, as Stripe lists them: zero-decimal (an amount of 500 JPY is
// 500 yen) and three-decimal (505 KWD is 0.505 dinar).
var minorDigits = map[string]int{
	"bif": 0, "clp": 0, "djf": 0, "gnf": 0, "jpy": 0, "kmf": 0, "krw": 0, "mga": 0, "pyg": 0, "rwf": 0,
	"ugx": 0, "vnd": 0, "vuv": 0, "xaf": 0, "xof": 0, "xpf": 0,
	"bhd": 3, "jod": 3, "kwd": 3, "omr": 3, "tnd": 3,
}

// MinorUnits is an amount in a currency's minor units in its major units,
// with the currency's code: 1999 "usd" gives "19.99 USD", 500 "jpy" "500
// JPY", 505 "kwd" "0.505 KWD". An empty currency reads as one of two
// decimals, without a code ("19.99"). ok is false for a negative amount or
// a currency that is not three ASCII letters.
func MinorUnits(amount int64, currency string) (text string, ok bool) {
	if amount < 0 {
		return "", false
	}
	code := strings.ToLower(currency)
	if code != "" && (len(code) != 3 || strings.Trim(code, "abcdefghijklmnopqrstuvwxyz") != "") {
		return "", false
	}
	digits, listed := minorDigits[code]
	if !listed {
		digits = 2
	}
	major := strconv.FormatInt(amount, 10)
	if digits > 0 {
		if len(major) <= digits {
			major = strings.Repeat("0", digits-len(major)+1) + major
		}
		major = major[:len(major)-digits] + "." + major[len(major)-digits:]
	}
	if code == "" {
		return major, true
	}
	return major + " " + strings.ToUpper(code), true
}
