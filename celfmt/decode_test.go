package celfmt

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeJSONValues(t *testing.T) {
	v, err := DecodeJSON([]byte(` {"z": [1, -2.5e3, true, false, null], "a": {"é": "\u00e9\ud83d\ude00\n"}, "s": ""} `))
	require.NoError(t, err)
	o := v.(*Object)
	require.Equal(t, 3, o.Len())
	k, z := o.At(0)
	assert.Equal(t, "z", k)
	assert.Equal(t, []any{1.0, -2500.0, true, false, nil}, z)
	a, _ := o.Get("a")
	e, ok := a.(*Object).Get("é")
	require.True(t, ok)
	assert.Equal(t, "é😀\n", e)
	var keys []string
	for k := range o.All() {
		keys = append(keys, k)
	}
	assert.Equal(t, []string{"z", "a", "s"}, keys)
}

func TestDecodeJSONStrings(t *testing.T) {
	tests := map[string]string{
		`"plain"`:                      "plain",
		`"esc \" \\ \/ \b\f\n\r\t"`:    "esc \" \\ / \b\f\n\r\t",
		`"\u0041\u00e9"`:               "Aé",
		`"\ud83d\ude00"`:               "😀",
		`"lone \ud83d x"`:              "lone \uFFFD x",
		`"lone \ude00"`:                "lone \uFFFD",
		`"high then bad \ud83d\u0041"`: "high then bad \uFFFDA",
		"\"bad \xff utf8\"":            "bad \uFFFD utf8",
	}
	for in, want := range tests {
		v, err := DecodeJSON([]byte(in))
		require.NoError(t, err, in)
		assert.Equal(t, want, v, in)
	}
}

func TestDecodeJSONErrors(t *testing.T) {
	tests := map[string]string{
		``:          "offset 0: unexpected end of input",
		`{`:         "offset 1: unexpected end of input looking for an object key",
		`{"a" 1}`:   `offset 5: unexpected '1' after object key`,
		`{"a":1,}`:  `offset 7: unexpected '}' looking for an object key`,
		`[1,]`:      `offset 3: unexpected ']' looking for a value`,
		`[1 2]`:     `offset 3: unexpected '2' after array element`,
		`01`:        `offset 1: unexpected '1' after top-level value`,
		`1.`:        "no digits after decimal point",
		`1e`:        "no digits in exponent",
		`-`:         "invalid number",
		`tru`:       "invalid literal, want true",
		`"a`:        "unexpected end of input in string",
		"\"a\nb\"":  "control character 0x0a in string",
		`"\x"`:      `invalid escape 'x' in string`,
		`"\u12"`:    `invalid \u escape`,
		`{"a":1} x`: `unexpected 'x' after top-level value`,
		"\x00":      "unexpected byte 0x00 looking for a value",
		`NaN`:       "unexpected 'N' looking for a value",
	}
	for in, want := range tests {
		_, err := DecodeJSON([]byte(in))
		var syntax *SyntaxError
		require.True(t, errors.As(err, &syntax), "%q: %v", in, err)
		assert.Contains(t, err.Error(), want, "%q", in)
	}
}

func TestDecodeJSONDepth(t *testing.T) {
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	_, err := DecodeJSON([]byte(ok))
	require.NoError(t, err)
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	_, err = DecodeJSON([]byte(deep))
	assert.ErrorContains(t, err, "nesting deeper than")
}

func TestDecodeInput(t *testing.T) {
	in := DecodeInput(`{"b":1,"a":2}`)
	require.NoError(t, in.Err)
	assert.Equal(t, 2, in.Object().Len())

	in = DecodeInput(`[1]`)
	assert.Equal(t, 0, in.Object().Len(), "non-object input is an empty object")
	assert.Equal(t, []any{1.0}, in.Value)

	in = DecodeInput(`{"a":`)
	assert.Error(t, in.Err)
	assert.Equal(t, `{"a":`, in.Raw)
	assert.Equal(t, 0, in.Object().Len())

	in = DecodeInput(map[string]any{"b": 1, "a": []int{1, 2}})
	require.NoError(t, in.Err)
	assert.Equal(t, `{"a":[1,2],"b":1}`, CompactJSON(in.Value))

	in = DecodeInput(json.Number("12.50"))
	assert.Equal(t, 12.5, in.Value)

	in = DecodeInput(func() {})
	assert.ErrorIs(t, in.Err, ErrUnsupported)
}

func TestObjectIndex(t *testing.T) {
	o := NewObject()
	for i := range 50 {
		o.set(string(rune('a'+i%26))+strings.Repeat("x", i/26), float64(i))
	}
	o.set("a", "again")
	require.Equal(t, 50, o.Len())
	v, ok := o.Get("a")
	require.True(t, ok)
	assert.Equal(t, "again", v)
	v, ok = o.Get("xx")
	require.True(t, ok)
	assert.Equal(t, 49.0, v)
	_, ok = o.Get("nope")
	assert.False(t, ok)
}

// FuzzDecodeJSON checks the decoder against encoding/json on arbitrary bytes
// and that bounded serialization agrees with full serialization.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[true,null,"x"]}`, `[]`, `"\ud83d\ude00"`, `1e400`, `{"a":{"a":{"a":{}}}}`,
		`{"k":"  spaced \u2028 out  "}`, `"\u001b[31m"`, `{"a":1,"a":2}`, "\"\xff\"", `-0.0e-0`,
	} {
		f.Add([]byte(s), 10)
	}
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		v, err := DecodeJSON(data)
		if json.Valid(data) != (err == nil) {
			t.Fatalf("json.Valid=%v but DecodeJSON err=%v for %q", json.Valid(data), err, data)
		}
		if err != nil {
			return
		}
		full := CompactJSON(v)
		n = n % (len(full) + 2)
		if n < 0 {
			n = -n
		}
		if got, want := TruncateJSON(v, n), Truncate(full, n); got != want {
			t.Fatalf("TruncateJSON(%q, %d) = %q, want %q", full, n, got, want)
		}
		if full != "" && !json.Valid([]byte(full)) && !strings.ContainsAny(string(data), " \u00a0\u2028\u2029\u3000\ufeff") {
			// Folding white space inside strings is the only rewrite.
			t.Fatalf("CompactJSON(%q) = %q is not JSON", data, full)
		}
	})
}
