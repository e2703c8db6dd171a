package value_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeJSONValues(t *testing.T) {
	v, err := value.DecodeJSON([]byte(` {"z": [1, -2.5e3, true, false, null], "a": {"é": "\u00e9\ud83d\ude00\n"}, "s": ""} `))
	require.NoError(t, err)
	o := v.(*value.Object)
	require.Equal(t, 3, o.Len())
	k, z := o.At(0)
	assert.Equal(t, "z", k)
	assert.Equal(t, []any{num("1"), num("-2.5e3"), true, false, nil}, z)
	a, _ := o.Get("a")
	e, ok := a.(*value.Object).Get("é")
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
		v, err := value.DecodeJSON([]byte(in))
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
		_, err := value.DecodeJSON([]byte(in))
		var syntax *value.SyntaxError
		require.True(t, errors.As(err, &syntax), "%q: %v", in, err)
		assert.Contains(t, err.Error(), want, "%q", in)
	}
}

func TestDecodeJSONDepth(t *testing.T) {
	ok := strings.Repeat("[", value.MaxDepth) + strings.Repeat("]", value.MaxDepth)
	_, err := value.DecodeJSON([]byte(ok))
	require.NoError(t, err)
	deep := strings.Repeat("[", value.MaxDepth+1) + strings.Repeat("]", value.MaxDepth+1)
	_, err = value.DecodeJSON([]byte(deep))
	assert.ErrorContains(t, err, "nesting deeper than")
}

func TestDecodeInput(t *testing.T) {
	in := value.DecodeInput(`{"b":1,"a":2}`)
	require.NoError(t, in.Err)
	assert.Equal(t, 2, in.Object().Len())

	in = value.DecodeInput(`[1]`)
	assert.Equal(t, 0, in.Object().Len(), "non-object input is an empty object")
	assert.Equal(t, `[1]`, textfmt.CompactJSON(in.Value))

	in = value.DecodeInput(`{"a":`)
	assert.Error(t, in.Err)
	assert.Equal(t, `{"a":`, in.Raw)
	assert.Equal(t, 0, in.Object().Len())

	in = value.DecodeInput(map[string]any{"b": 1, "a": []int{1, 2}})
	require.NoError(t, in.Err)
	assert.Equal(t, `{"a":[1,2],"b":1}`, textfmt.CompactJSON(in.Value))

	in = value.DecodeInput(json.Number("12.50"))
	assert.Equal(t, num("12.50"), in.Value)

	in = value.DecodeInput(func() {})
	assert.ErrorIs(t, in.Err, value.ErrUnsupported)
}

// FuzzDecodeJSON checks the decoder against encoding/json on arbitrary bytes
// and that bounded serialization agrees with full serialization.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[true,null,"x"]}`, `[]`, `"\ud83d\ude00"`, `1e400`, `{"a":{"a":{"a":{}}}}`,
		`{"k":"  spaced \u2028 out  "}`, `"\u001b[31m"`, `{"a":1,"a":2}`, "\"\xff\"", `-0.0e-0`,
		`"0123456789\\\"\n\t\u00e9abcdefgh\ud83d\ude00é\""`,
		`"a\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\nb\t\t\t\t\t\t\t\t\t\\\\\\\\\\\\\\\\\\"`,
	} {
		f.Add([]byte(s), 10)
	}
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		v, err := value.DecodeJSON(data)
		if json.Valid(data) != (err == nil) {
			t.Fatalf("json.Valid=%v but value.DecodeJSON err=%v for %q", json.Valid(data), err, data)
		}
		if err != nil {
			return
		}
		if s, ok := v.(string); ok {
			var want string
			if err := json.Unmarshal(data, &want); err != nil || s != want {
				t.Fatalf("value.DecodeJSON(%q) = %q, encoding/json gives %q (%v)", data, s, want, err)
			}
		}
		full := textfmt.CompactJSON(v)
		n = n % (len(full) + 2)
		if n < 0 {
			n = -n
		}
		if got, want := textfmt.TruncateJSON(v, n), textfmt.Truncate(full, n); got != want {
			t.Fatalf("textfmt.TruncateJSON(%q, %d) = %q, want %q", full, n, got, want)
		}
		if full != "" && !json.Valid([]byte(full)) && !strings.ContainsAny(string(data), " \u00a0\u2028\u2029\u3000\ufeff") {
			// Folding white space inside strings is the only rewrite.
			t.Fatalf("textfmt.CompactJSON(%q) = %q is not JSON", data, full)
		}
	})
}

// Strings decode like encoding/json whatever the position of escapes and
// special bytes relative to the eight-byte words the decoder reads.
func TestDecodeJSONStringsAtEveryOffset(t *testing.T) {
	pieces := []string{`\n`, `\"`, `\\`, `\u00e9`, `\ud83d\ude00`, `é`, `日本`, "\xff", `\/`}
	for _, piece := range pieces {
		for pad := range 20 {
			for tail := range 10 {
				lit := `"` + strings.Repeat("a", pad) + piece + strings.Repeat("b", tail) + `"`
				got, err := value.DecodeJSON([]byte(lit))
				require.NoError(t, err, lit)
				var want string
				require.NoError(t, json.Unmarshal([]byte(lit), &want))
				assert.Equal(t, want, got, lit)
			}
		}
	}
	for pad := range 20 {
		lit := `"` + strings.Repeat("a", pad) + `\n` + "\x01" + `x"`
		_, err := value.DecodeJSON([]byte(lit))
		assert.ErrorContains(t, err, fmt.Sprintf("offset %d: control character 0x01", pad+3), lit)
		_, err = value.DecodeJSON([]byte(lit[:len(lit)-1]))
		assert.ErrorContains(t, err, "control character 0x01", lit)
		_, err = value.DecodeJSON([]byte(`"` + strings.Repeat("a", pad) + `\n`))
		assert.ErrorContains(t, err, "unexpected end of input in string", lit)
		_, err = value.DecodeJSON([]byte(`"` + strings.Repeat("a", pad) + `\`))
		assert.ErrorContains(t, err, "unexpected end of input in string escape", lit)
	}
}

// Large arrays and objects, nested or not, keep every element and key.
func TestDecodeJSONLargeContainers(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"list":[`)
	for i := range 300 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `[%d,"s,]}",{"k%d":%d}]`, i, i, i)
	}
	b.WriteString(`],"obj":{`)
	for i := range 300 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%d":[%d]`, i%250, i)
	}
	b.WriteString(`}}`)
	got, err := value.DecodeJSON([]byte(b.String()))
	require.NoError(t, err)
	var want any
	require.NoError(t, json.Unmarshal([]byte(b.String()), &want))
	list, _ := got.(*value.Object).Get("list")
	require.Len(t, list, 300)
	obj, _ := got.(*value.Object).Get("obj")
	require.Equal(t, 250, obj.(*value.Object).Len(), "duplicate keys keep one entry")
	k0, _ := obj.(*value.Object).Get("k0")
	assert.Equal(t, "[250]", textfmt.CompactJSON(k0), "the last value of a duplicate key")
	wantJSON, _ := json.Marshal(want.(map[string]any)["list"])
	assert.Equal(t, string(wantJSON), textfmt.CompactJSON(list))
}

// Empty objects and arrays are shared, so many of them cost little.
func TestDecodeJSONEmptyValuesShared(t *testing.T) {
	data := []byte("[" + strings.Repeat("{},[],", 1000) + "{}]")
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := value.DecodeJSON(data); err != nil {
			t.Fatal(err)
		}
	})
	assert.LessOrEqual(t, allocs, 12.0, "a few for the list, none per element")
	v, _ := value.DecodeJSON(data)
	assert.Equal(t, 2001, len(v.([]any)))
	assert.Equal(t, "[{},[],{}]", textfmt.CompactJSON(v.([]any)[1998:]))
}

// num decodes a JSON number literal.
func num(lit string) value.Number {
	v, err := value.DecodeJSON([]byte(lit))
	if err != nil {
		panic(err)
	}
	return v.(value.Number)
}
