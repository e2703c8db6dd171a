package textfmt

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/runtime/value"
)

// referenceInputText is the JSON of the default preview cut at n, as the
// dispatcher worked it out before InputJSON.
func referenceInputText(v any, n int) string { return TruncateJSON(v, n) }

// checkInputJSON compares every cut of input's JSON, made for several
// larger limits, with referenceInputText.
func checkInputJSON(t *testing.T, input string) {
	t.Helper()
	v, err := value.DecodeJSON([]byte(input))
	require.NoError(t, err)
	full := CompactJSON(v)
	top := len(full) + 2
	for n := 0; n <= top; n++ {
		want := referenceInputText(v, n)
		for _, limit := range []int{n, n + 1, 2*n + 7, top, 1000} {
			if limit < n {
				continue
			}
			j := NewInputJSON(v, limit)
			got := j.Cut("with input ", n)
			if want == "" {
				require.Empty(t, got, "input %.80s, n=%d, made for %d", input, n, limit)
			} else {
				require.Equal(t, "with input "+want, got, "input %.80s, n=%d, made for %d", input, n, limit)
			}
			require.Equal(t, want, j.Cut("", n))
		}
	}
}

func TestInputJSONCutsAsTheReferenceDoes(t *testing.T) {
	long := strings.Repeat("x", 1025)
	inputs := []string{
		`null`, `{}`, `[]`, `"hello"`, `42`, `true`, `[1,"a",{"b":null}]`,
		`{"k":"v"}`,
		`{"content":"hi","path":"/a"}`,
		`{"content":"` + long + `","path":"/home/dev/.ssh/authorized_keys","mode":420}`,
		`{"content":"` + strings.Repeat("y", 1024) + `","path":"/a"}`,
		`{"edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}],"path":"~/.ssh/authorized_keys"}`,
		`{"a":[1],"b":"…"}`,
		`{"opts":{},"path":"/x","list":[],"n":1.50,"t":true,"z":null}`,
		`{"a":{"deep":{"er":[1,2,3]}},"b":"` + strings.Repeat("w ", 40) + `"}`,
		`{"s":"  a   b  ","l":[" x "],"p":"  spaced   path  "}`,
		`{"e":["👨‍👩‍👧 family"],"f":"🇫🇷🇩🇪 flags","g":"e` + strings.Repeat(`\u0301`, 40) + `x"}`,
		`{"long":"` + strings.Repeat("é", 600) + `","short":"日本語"}`,
		`{"t":["run.` + strings.Repeat(`\udb40\udc41`, 60) + `"],"u":"` + strings.Repeat(`\u2028`, 10) + `q"}`,
		`{"ctl":["\u0001\u001f\"\\"],"k":"\n\t"}`,
		`{"a":[],"b":[],"c":"last"}`,
	}
	for _, in := range inputs {
		checkInputJSON(t, in)
	}
}

// Random objects of short and long fields, cut at every limit.
func TestInputJSONRandomObjects(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", " ", "  ", "é", "日", "👍", "🇫🇷", "\u0301", "\\n", "\u00a0", "…", "\\\"", "<&>"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	for range 300 {
		var b strings.Builder
		b.WriteString("{")
		fields := 1 + rng.IntN(6)
		for i := range fields {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"k` + strconv.Itoa(i) + text(rng.IntN(3)) + `":`)
			switch rng.IntN(6) {
			case 0:
				b.WriteString(strconv.Itoa(rng.IntN(1000)))
			case 1:
				b.WriteString(`[` + `"` + text(rng.IntN(20)) + `"]`)
			case 2:
				b.WriteString(`{"x":"` + text(rng.IntN(20)) + `"}`)
			case 3:
				b.WriteString(`"` + strings.Repeat("p", 1022+rng.IntN(4)) + `"`)
			default:
				b.WriteString(`"` + text(rng.IntN(40)) + `"`)
			}
		}
		b.WriteString("}")
		in := b.String()
		v, err := value.DecodeJSON([]byte(in))
		require.NoError(t, err, in)
		full := CompactJSON(v)
		for _, n := range []int{0, 1, 5, 20, 50, 100, 200, len(full) - 1, len(full), len(full) + 1} {
			if n < 0 {
				continue
			}
			want := referenceInputText(v, n)
			for _, limit := range []int{n, max(n, 1000)} {
				j := NewInputJSON(v, limit)
				require.Equal(t, want, j.Cut("", n), "input %.120q, n=%d, made for %d", in, n, limit)
			}
		}
	}
}

// A value with no JSON form gives the empty cut when the cut reaches it,
// as TruncateJSON does.
func TestInputJSONUnserializable(t *testing.T) {
	v := []any{strings.Repeat("x", 300), func() {}}
	j := NewInputJSON(v, 1000)
	assert.Empty(t, j.Cut("with input ", 1000))
	assert.Equal(t, TruncateJSON(v, 100), j.Cut("", 100))
	assert.Empty(t, NewInputJSON(map[string]any{"a": 1}, 10).Cut("p", 10))
}

// A cut asks for no more than the limit the text was made for.
func TestInputJSONCutBeyondMax(t *testing.T) {
	v, err := value.DecodeJSON([]byte(`{"k":"` + strings.Repeat("x", 50) + `"}`))
	require.NoError(t, err)
	j := NewInputJSON(v, 10)
	assert.Equal(t, 10, j.Max())
	assert.Equal(t, `{"k":"xxxx…`, j.Cut("", 500))
}

// TestInputJSONFits: the JSON fits a limit when all of it has at most
// that many characters.
func TestInputJSONFits(t *testing.T) {
	for _, tc := range []struct {
		input string
		n     int
		fits  bool
	}{
		{`{"k":"v"}`, 9, true},
		{`{"k":"v"}`, 8, false},
		{`{}`, 0, true},
		{`null`, 0, true},
		{`{"k":"` + strings.Repeat("x", 300) + `"}`, 200, false},
		{`{"k":"  a   b  "}`, 13, true}, // white space folded
	} {
		v, err := value.DecodeJSON([]byte(tc.input))
		require.NoError(t, err)
		for _, limit := range []int{tc.n, tc.n + 50, 1000} {
			assert.Equal(t, tc.fits, NewInputJSON(v, limit).Fits(tc.n), "%s at %d, made for %d", tc.input, tc.n, limit)
		}
	}
	assert.False(t, NewInputJSON([]any{func() {}}, 100).Fits(100), "a value with no JSON form fits nothing")
}

// One pass: a padded preview allocates its buffer and its result.
func TestInputJSONAllocations(t *testing.T) {
	padded, err := value.DecodeJSON([]byte(`{"content":"` + strings.Repeat("x", 4<<10) + `","path":"/etc/passwd","mode":420}`))
	require.NoError(t, err)
	assert.Equal(t, 2.0, testing.AllocsPerRun(100, func() {
		j := NewInputJSON(padded, previewLimit)
		_ = j.Cut("with input ", previewLimit)
	}))
}

// previewLimit is the default preview limit.
const previewLimit = 200

// redactNames is v with every value that a name marks as a credential
// redacted (redactNamed at every field), as NewInputJSON writes it.
func redactNames(in *value.Object, key string, v any) any {
	v = redactNamed(in, key, v)
	switch x := v.(type) {
	case *value.Object:
		keys, values := make([]string, x.Len()), make([]any, x.Len())
		for i := range x.Len() {
			k, e := x.At(i)
			keys[i], values[i] = k, redactNames(x, k, e)
		}
		return value.ObjectOf(keys, values)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = redactNames(nil, "", e)
		}
		return out
	}
	return v
}

func FuzzInputJSON(f *testing.F) {
	for _, seed := range []string{
		`{"content":"xxxxxxxxxxxxxxxxxxxxxxxx","path":"/a"}`, `{"a":[1],"b":"…"}`, `[1,2]`, `"s"`,
		`{"e":["👨‍👩‍👧"],"f":"🇫🇷"}`, `{"s":"  a  ","t":{"u":"  "}}`,
	} {
		f.Add(seed, 10, 20)
	}
	f.Fuzz(func(t *testing.T, input string, n, extra int) {
		v, err := value.DecodeJSON([]byte(input))
		if err != nil {
			return
		}
		n, extra = n&0x3ff, extra&0x3ff
		want := referenceInputText(redactNames(nil, "", v), n)
		j := NewInputJSON(v, n+extra)
		if got := j.Cut("", n); got != want {
			t.Fatalf("input %q, n=%d, made for %d: got %q, want %q", input, n, n+extra, got, want)
		}
	})
}
