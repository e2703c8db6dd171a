package value_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/permgen/permgen/runtime/value"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodePartial(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // the value as compact JSON; "" for nil
	}{
		{"empty", ``, ``},
		{"white space", " \n\t ", ``},
		{"whole object", `{"a":1,"b":[true,null,"x"]}`, `{"a":1,"b":[true,null,"x"]}`},
		{"open object", `{`, `{}`},
		{"open object and space", `{ `, `{}`},
		{"key cut", `{"a":1,"b`, `{"a":1}`},
		{"key cut empty", `{"a":1,"`, `{"a":1}`},
		{"key without colon", `{"a":1,"b"`, `{"a":1}`},
		{"key without value", `{"a":1,"b":`, `{"a":1}`},
		{"key without value and space", `{"a":1,"b": `, `{"a":1}`},
		{"after comma", `{"a":1,`, `{"a":1}`},
		{"after value", `{"a":"x"`, `{"a":"x"}`},
		{"after value and space", `{"a":"x" `, `{"a":"x"}`},
		{"string value cut", `{"a":"hel`, `{"a":"hel"}`},
		{"string value just opened", `{"a":"`, `{"a":""}`},
		{"top-level string cut", `"abc`, `"abc"`},
		{"top-level string just opened", `"`, `""`},
		{"escape cut at backslash", `"ab\`, `"ab"`},
		{"escape cut after u", `"ab\u`, `"ab"`},
		{"escape cut in hex", `"ab\u12`, `"ab"`},
		{"escape cut three hex digits", `"ab\u00e`, `"ab"`},
		{"escape whole", `"ab\u00e9`, `"abé"`},
		{"short escape whole", `"a\n`, `"a\n"`},
		{"escaped quote", `"a\"b`, `"a\"b"`},
		{"escaped backslash then cut", `"a\\`, `"a\\"`},
		{"escaped backslash then u", `"a\\u12`, `"a\\u12"`},
		{"high surrogate cut", `"x\ud83d`, `"x"`},
		{"high surrogate and backslash", `"x\ud83d\`, `"x"`},
		{"high surrogate and u", `"x\ud83d\u`, `"x"`},
		{"low surrogate cut", `"x\ud83d\ude0`, `"x"`},
		{"surrogate pair whole", `"x\ud83d\ude00`, `"x😀"`},
		{"lone high surrogate then escape", `"x\ud83d\n`, `"x\ufffd\n"`},
		{"lone high surrogate then text", `"x\ud83dy`, `"x\ufffdy"`},
		{"lone low surrogate", `"x\ude00`, `"x\ufffd"`},
		{"utf8 cut after one of two bytes", "\"caf\xc3", `"caf"`},
		{"utf8 cut after one of three bytes", "\"\xe6", `""`},
		{"utf8 cut after two of three bytes", "\"a\xe6\x97", `"a"`},
		{"utf8 cut after three of four bytes", "\"a\xf0\x9f\x98", `"a"`},
		{"utf8 whole", "\"a\xe6\x97\xa5", `"a日"`},
		{"invalid utf8 kept as replacement", "\"a\xff", `"a\ufffd"`},
		{"invalid utf8 before a cut character", "\"a\xff\xe6", `"a\ufffd"`},
		{"invalid utf8 after escape", "\"a\\n\xff\xe6\x97", `"a\n\ufffd"`},
		{"open array", `[`, `[]`},
		{"array after comma", `[1,`, `[1]`},
		{"array number cut", `[1,2`, `[1]`},
		{"array number cut alone", `[12`, `[]`},
		{"array number ended by space", `[1, 2 `, `[1,2]`},
		{"array string cut", `[1,"ab`, `[1,"ab"]`},
		{"nested", `{"a":[{"b":{"c":["d`, `{"a":[{"b":{"c":["d"]}}]}`},
		{"nested closed inner", `{"a":[{"b":1}],"c":{`, `{"a":[{"b":1}],"c":{}}`},
		{"nested empty", `[[],{},[`, `[[],{},[]]`},
		{"number cut in object", `{"n": 12`, `{}`},
		{"number ended by comma", `{"n": 12,`, `{"n":12}`},
		{"number ended by space", `{"n": 12 `, `{"n":12}`},
		{"number ended by brace", `{"n": 12}`, `{"n":12}`},
		{"minus cut", `[-`, `[]`},
		{"decimal point cut", `[1.`, `[]`},
		{"fraction cut", `[1.5`, `[]`},
		{"exponent cut", `[1e`, `[]`},
		{"exponent sign cut", `[1e+`, `[]`},
		{"exponent digits cut", `[1e5`, `[]`},
		{"zero cut", `[0`, `[]`},
		{"fraction ended", `[1.50,`, `[1.50]`},
		{"top-level number", `12`, ``},
		{"top-level number and space", `12 `, `12`},
		{"top-level minus", `-`, ``},
		{"literal cut t", `[t`, `[]`},
		{"literal cut tru", `{"a":tru`, `{}`},
		{"literal cut fals", `[fals`, `[]`},
		{"literal cut nul", `[1,nul`, `[1]`},
		{"literal whole", `[true`, `[true]`},
		{"literal whole null", `{"a":null`, `{"a":null}`},
		{"top-level literal cut", `nul`, ``},
		{"top-level literal whole", `false`, `false`},
		{"top-level true", `true`, `true`},
		{"whole text with space", ` {"a": [1, 2]} `, `{"a":[1,2]}`},
		{"key order kept", `{"z":1,"a":2,"m":`, `{"z":1,"a":2}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := value.DecodePartial([]byte(tc.in))
			require.NoError(t, err)
			if tc.want == "" {
				assert.Nil(t, got)
				return
			}
			assertValue(t, tc.want, got)
		})
	}
}

// assertValue asserts that got is the value of the JSON text want.
func assertValue(t *testing.T, want string, got any) {
	t.Helper()
	wantValue, err := value.DecodeJSON([]byte(want))
	require.NoError(t, err)
	if !equal(got, wantValue) {
		t.Errorf("got %s, want %s", show(got), want)
	}
}

// show writes a value as compact JSON text, keys in order and numbers as
// their literal.
func show(v any) string {
	return string(appendShown(nil, v))
}

func appendShown(b []byte, v any) []byte {
	switch v := v.(type) {
	case *value.Object:
		b = append(b, '{')
		for i := range v.Len() {
			k, e := v.At(i)
			if i > 0 {
				b = append(b, ',')
			}
			b = appendShown(append(appendShown(b, k), ':'), e)
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendShown(b, e)
		}
		return append(b, ']')
	case value.Number:
		return append(b, v.String()...)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Appendf(b, "%#v", v)
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// A host decodes the arguments a model is streaming on every frame.
func ExampleDecodePartial() {
	for _, frame := range []string{
		`{"path": "/tm`,
		`{"path": "/tmp/notes.txt", "mo`,
		`{"path": "/tmp/notes.txt", "mode": 42`,
		`{"path": "/tmp/notes.txt", "mode": 420, `,
		`{"path": "/tmp/notes.txt", "mode": 420, "content": "caf\u00e`,
		`{"path": "/tmp/notes.txt", "mode": 420, "content": "caf\u00e9\n"}`,
	} {
		v, err := value.DecodePartial([]byte(frame))
		if err != nil {
			panic(err)
		}
		fmt.Println(show(v))
	}
	// Output:
	// {"path":"/tm"}
	// {"path":"/tmp/notes.txt"}
	// {"path":"/tmp/notes.txt"}
	// {"path":"/tmp/notes.txt","mode":420}
	// {"path":"/tmp/notes.txt","mode":420,"content":"caf"}
	// {"path":"/tmp/notes.txt","mode":420,"content":"café\n"}
}

// Partial values decode into the model of DecodeJSON: numbers keep their
// literal, keys their order, cut arrays are empty arrays, not nil.
func TestDecodePartialModel(t *testing.T) {
	v, err := value.DecodePartial([]byte(`{"n":1.50,"e":1E+2,"z":[],"l":[`))
	require.NoError(t, err)
	o := v.(*value.Object)
	assert.Equal(t, []string{"n", "e", "z", "l"}, o.Keys())
	n, _ := o.Get("n")
	assert.Equal(t, num("1.50"), n)
	e, _ := o.Get("e")
	assert.Equal(t, num("1E+2"), e)
	l, _ := o.Get("l")
	assert.Equal(t, []any{}, l)
}

func TestDecodePartialErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"key without colon", `{"a" 1`, `offset 5: unexpected '1' after object key`},
		{"closing bracket", `]`, `offset 0: unexpected ']' looking for a value`},
		{"closing brace", `}`, `offset 0: unexpected '}' looking for a value`},
		{"after whole object", `{"a":1}}`, `offset 7: unexpected '}' after top-level value`},
		{"text after whole object", `{"a":1} x`, `offset 8: unexpected 'x' after top-level value`},
		{"second value", `"a" "b`, `offset 4: unexpected '"' after top-level value`},
		{"key not a string", `{1`, `offset 1: unexpected '1' looking for an object key`},
		{"trailing comma", `{"a":1,}`, `offset 7: unexpected '}' looking for an object key`},
		{"array trailing comma", `[1,]`, `offset 3: unexpected ']' looking for a value`},
		{"array missing comma", `[1 2`, `offset 3: unexpected '2' after array element`},
		{"object missing comma", `{"a":1 "b"`, `offset 7: unexpected '"' after object value`},
		{"leading zero", `01`, `offset 1: unexpected '1' after top-level value`},
		{"leading zero in array", `[01`, `offset 2: unexpected '1' after array element`},
		{"double minus", `[--`, `offset 2: invalid number`},
		{"fraction without digits", `[1.x`, `no digits after decimal point`},
		{"exponent without digits", `[1ex`, `no digits in exponent`},
		{"bad literal", `[tx`, `offset 1: invalid literal, want true`},
		{"bad literal long", `[nulx`, `offset 1: invalid literal, want null`},
		{"bad escape in cut string", `"ab\x`, `offset 4: invalid escape 'x' in string`},
		{"bad escape in cut key", `{"ab\x`, `offset 5: invalid escape 'x' in string`},
		{"bad hex in cut string", `"ab\u12x`, `invalid \u escape`},
		{"bad hex after surrogate", `"\ud83d\u12x`, `invalid \u escape`},
		{"control character in cut string", "\"a\nb", `offset 2: control character 0x0a in string`},
		{"control character escaped in cut string", "\"a\\\x01", `offset 3: invalid escape byte 0x01 in string`},
		{"bad escape in whole string", `{"a":"\x"`, `invalid escape 'x' in string`},
		{"not JSON", `NaN`, `offset 0: unexpected 'N' looking for a value`},
		{"freeform text", "*** Begin Patch\n", `offset 0: unexpected '*' looking for a value`},
		{"nul byte", "\x00", "unexpected byte 0x00 looking for a value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := value.DecodePartial([]byte(tc.in))
			assert.Nil(t, v)
			var syntax *value.SyntaxError
			require.True(t, errors.As(err, &syntax), "%q: %v", tc.in, err)
			assert.ErrorContains(t, err, tc.want)
			// An error before the end is DecodeJSON's.
			if _, jsonErr := value.DecodeJSON([]byte(tc.in)); errors.As(jsonErr, &syntax) && syntax.Offset < len(tc.in) {
				assert.Equal(t, jsonErr.Error(), err.Error())
			}
		})
	}
}

func TestDecodePartialDepth(t *testing.T) {
	ok := strings.Repeat(`[{"a":`, value.MaxDepth/2)
	v, err := value.DecodePartial([]byte(ok))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(show(v), `[{"a":[{"a":[`))
	_, err = value.DecodePartial([]byte(strings.Repeat("[", value.MaxDepth)))
	require.NoError(t, err)
	_, err = value.DecodePartial([]byte(strings.Repeat("[", value.MaxDepth+1)))
	assert.ErrorContains(t, err, "nesting deeper than")
	_, err = value.DecodePartial([]byte(strings.Repeat(`{"a":`, value.MaxDepth+1)))
	assert.ErrorContains(t, err, "nesting deeper than")
}

// Large containers take the decoder's size hints; when the input ends
// inside many nested ones, each is still counted at most once.
func TestDecodePartialLargeContainers(t *testing.T) {
	var b strings.Builder
	for range 50 {
		b.WriteString(`{`)
		for i := range 70 {
			b.WriteString(`"k` + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + `":[1,2],`)
		}
		b.WriteString(`"next":[`)
		for range 70 {
			b.WriteString(`0,`)
		}
	}
	text := b.String()
	for _, cut := range []int{len(text), len(text) - 1, len(text) / 2, len(text) / 3} {
		v, err := value.DecodePartial([]byte(text[:cut]))
		require.NoError(t, err)
		require.IsType(t, &value.Object{}, v)
		assert.Equal(t, 71, v.(*value.Object).Len())
	}
	whole := text + "0" + strings.Repeat(`]}`, 50)
	full, err := value.DecodeJSON([]byte(whole))
	require.NoError(t, err)
	got, err := value.DecodePartial([]byte(whole))
	require.NoError(t, err)
	assert.True(t, equal(got, full))
	checkPrefixes(t, []byte(whole), full, 97)
}

func TestDecodePartialInput(t *testing.T) {
	in := value.DecodePartialInput(`{"command":"ls -la /tm`)
	require.NoError(t, in.Err)
	cmd, _ := in.Object().Get("command")
	assert.Equal(t, "ls -la /tm", cmd)

	in = value.DecodePartialInput([]byte(`{"a":1,"b":`))
	require.NoError(t, in.Err)
	assertValue(t, `{"a":1}`, in.Value)

	in = value.DecodePartialInput(json.RawMessage(`[1,`))
	require.NoError(t, in.Err)
	assertValue(t, `[1]`, in.Value)

	in = value.DecodePartialInput(``)
	assert.Equal(t, value.Input{}, in, "nothing yet")
	assert.Equal(t, 0, in.Object().Len())

	in = value.DecodePartialInput("*** Begin Patch\n*** Add File: a")
	var syntax *value.SyntaxError
	assert.True(t, errors.As(in.Err, &syntax))
	assert.Equal(t, "*** Begin Patch\n*** Add File: a", in.Raw)
	text, ok := in.Object().Text()
	assert.True(t, ok)
	assert.Equal(t, in.Raw, text)

	in = value.DecodePartialInput(map[string]any{"b": 1, "a": 2})
	require.NoError(t, in.Err)
	assertValue(t, `{"a":2,"b":1}`, in.Value)

	in = value.DecodePartialInput(func() {})
	assert.ErrorIs(t, in.Err, value.ErrUnsupported)
}

// Every prefix of every call's input decodes, never to more than the
// whole input holds, and never to less than a shorter prefix.
func TestDecodePartialCalls(t *testing.T) {
	inputs := callInputs(t)
	require.NotEmpty(t, inputs)
	for i, raw := range inputs {
		var indented bytes.Buffer
		require.NoError(t, json.Indent(&indented, raw, "", "\t"))
		for _, text := range [][]byte{raw, indented.Bytes()} {
			full, err := value.DecodeJSON(text)
			require.NoError(t, err, "line %d", i+1)
			if duplicateKeys(text) {
				continue
			}
			checkPrefixes(t, text, full, len(text))
		}
	}
}

// callInputs returns the raw text of the input of each call in
// testdata/calls.jsonl, as the line writes it.
func callInputs(t testing.TB) [][]byte {
	f, err := os.Open("../../testdata/calls.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var inputs [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var call struct {
			Input json.RawMessage `json:"input"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &call))
		if len(call.Input) > 0 {
			inputs = append(inputs, call.Input)
		}
	}
	require.NoError(t, sc.Err())
	return inputs
}

// checkPrefixes checks about n prefixes of text, a valid JSON text whose
// value is full and whose objects repeat no key, evenly spaced and every
// one of the last 16: each decodes within full, and within what each
// longer prefix decodes to.
func checkPrefixes(t testing.TB, text []byte, full any, n int) {
	t.Helper()
	var last any
	for _, cut := range cuts(len(text), n) {
		got, err := value.DecodePartial(text[:cut])
		if err != nil {
			t.Fatalf("DecodePartial(%q): %v; it is a prefix of %q", text[:cut], err, text)
		}
		if !contained(got, full) {
			t.Fatalf("DecodePartial(%q) = %s, more than %s of the whole text %q", text[:cut], show(got), show(full), text)
		}
		if !contained(last, got) {
			t.Fatalf("DecodePartial(%q) = %s, less than %s of a shorter prefix", text[:cut], show(got), show(last))
		}
		last = got
	}
}

// cuts returns the lengths of the prefixes of a text of length size to
// check: all of them when there are at most n, otherwise n evenly spaced
// and the last 16.
func cuts(size, n int) []int {
	if size <= n {
		all := make([]int, size+1)
		for i := range all {
			all[i] = i
		}
		return all
	}
	var out []int
	for i := range n {
		out = append(out, i*size/n)
	}
	for i := max(size-16, out[len(out)-1]+1); i <= size; i++ {
		out = append(out, i)
	}
	return out
}

// contained reports whether a top-level partial value is within full: nil
// is nothing yet, and within everything.
func contained(partial, full any) bool {
	return partial == nil || within(partial, full)
}

// within reports whether partial is what a prefix of the text of full may
// show. Strings: a prefix. Numbers, booleans and null: equal. Arrays: no
// longer, every element equal to the full one's but the last, which is
// within it. Objects: the keys are the first keys of the full object, in
// order, since a prefix of the text shows a prefix of its keys; every
// value equal to the full one's but the last, which is within it.
func within(partial, full any) bool {
	switch p := partial.(type) {
	case string:
		f, ok := full.(string)
		return ok && strings.HasPrefix(f, p)
	case []any:
		f, ok := full.([]any)
		if !ok || len(p) > len(f) {
			return false
		}
		for i := range p {
			if i < len(p)-1 && !equal(p[i], f[i]) || !within(p[i], f[i]) {
				return false
			}
		}
		return true
	case *value.Object:
		f, ok := full.(*value.Object)
		if !ok || p.Len() > f.Len() {
			return false
		}
		for i := range p.Len() {
			k, v := p.At(i)
			fk, fv := f.At(i)
			if k != fk || i < p.Len()-1 && !equal(v, fv) || !within(v, fv) {
				return false
			}
		}
		return true
	case nil, bool, value.Number:
		return partial == full
	}
	return false
}

// equal reports whether two values of the model are the same, numbers by
// their literal.
func equal(a, b any) bool {
	switch a := a.(type) {
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case *value.Object:
		b, ok := b.(*value.Object)
		if !ok || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			ak, av := a.At(i)
			bk, bv := b.At(i)
			if ak != bk || !equal(av, bv) {
				return false
			}
		}
		return true
	case nil, bool, string, value.Number:
		return a == b
	}
	return false
}

// duplicateKeys reports whether an object of text repeats a key, as far as
// text is valid JSON. A later value of a repeated key replaces the earlier
// one, which a prefix cannot know about.
func duplicateKeys(text []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(text))
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		isKey := top != nil && top.object && top.key
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{', '[':
				if top != nil && top.object {
					top.key = true
				}
				stack = append(stack, &frame{object: tok == '{', keys: map[string]bool{}, key: true})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		case string:
			if isKey {
				if top.keys[tok] {
					return true
				}
				top.keys[tok] = true
				top.key = false
				continue
			}
		}
		if top != nil && top.object {
			top.key = true
		}
	}
}

func TestDuplicateKeys(t *testing.T) {
	assert.False(t, duplicateKeys([]byte(`{"a":{"a":1},"b":["a","a"],"c":{"b":1}}`)))
	assert.True(t, duplicateKeys([]byte(`{"a":1,"b":{},"a":2}`)))
	assert.True(t, duplicateKeys([]byte(`[{"x":[{}],"x":1}]`)))
	assert.True(t, duplicateKeys([]byte(`{"a":"a","a"`)))
}

// FuzzDecodePartial checks DecodePartial against DecodeJSON on arbitrary
// bytes: every prefix of valid JSON decodes within the whole value, the
// whole text decodes as DecodeJSON decodes it, longer prefixes never show
// less, errors before the end are DecodeJSON's, and nothing panics.
func FuzzDecodePartial(f *testing.F) {
	for _, in := range callInputs(f) {
		f.Add(in)
	}
	for _, s := range []string{
		``, ` `, `12`, `12 `, `-0.5e-3`, `true`, `nul`, `"`, `{"a":"\ud83d\ude00"}`,
		`"\ud83d\u0041"`, `"\ud83d\n"`, "\"\xe6\x97\xa5\xff\xe6\"", `"\u00e9\\\"\/\b\f\n\r\t"`,
		`{"a":1,"a":2}`, `{"a" 1`, `]`, `{"a":1}}`, `{"a":1} x`, `[01]`, `"\x"`, `"\u12x"`,
		`[[[[[[[[[[[[[[[[{"a":[{"b":[]}]}]]]]]]]]]]]]]]]`, "\"a\x01\"", `[1e+5,-0,1E-0]`,
		`{"k":"` + strings.Repeat(`\n`, 40) + `é"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := value.DecodePartial(data)
		full, jsonErr := value.DecodeJSON(data)
		var syntax *value.SyntaxError
		if err != nil && !errors.As(err, &syntax) {
			t.Fatalf("DecodePartial(%q): %v is not a *SyntaxError", data, err)
		}
		if jsonErr == nil {
			if err != nil {
				t.Fatalf("DecodePartial(%q): %v; DecodeJSON decodes it", data, err)
			}
			_, isNumber := full.(value.Number)
			switch {
			case isNumber && !isSpace(data[len(data)-1]):
				if got != nil {
					t.Fatalf("DecodePartial(%q) = %s, want nil for a number that may continue", data, show(got))
				}
			case !equal(got, full):
				t.Fatalf("DecodePartial(%q) = %s, DecodeJSON gives %s", data, show(got), show(full))
			}
			if !duplicateKeys(data) {
				checkPrefixes(t, data, full, 512)
			}
			return
		}
		// DecodePartial accepts no text DecodeJSON finds wrong before its
		// end, but for a literal the end cuts, and reports the same error.
		if errors.As(jsonErr, &syntax) && syntax.Offset < len(data) {
			switch {
			case err == nil && !cutLiteral(data[syntax.Offset:]):
				t.Fatalf("DecodePartial(%q) = %s, but DecodeJSON says %v", data, show(got), jsonErr)
			case err != nil && err.Error() != jsonErr.Error():
				t.Fatalf("DecodePartial(%q): %v, DecodeJSON says %v", data, err, jsonErr)
			}
		}
		if duplicateKeys(data) {
			return
		}
		// Prefixes that decode never show less than shorter ones.
		var last any
		for _, cut := range cuts(len(data), 64) {
			v, err := value.DecodePartial(data[:cut])
			if err != nil {
				continue
			}
			if !contained(last, v) {
				t.Fatalf("DecodePartial(%q) = %s, less than %s of a shorter prefix", data[:cut], show(v), show(last))
			}
			last = v
		}
	})
}

// cutLiteral reports whether text is a proper prefix of true, false or null.
func cutLiteral(text []byte) bool {
	for _, word := range []string{"true", "false", "null"} {
		if len(text) < len(word) && strings.HasPrefix(word, string(text)) {
			return true
		}
	}
	return false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func BenchmarkDecodePartial(b *testing.B) {
	cases := []struct {
		name string
		data []byte
	}{
		{"write-1MiB-plain", writeCall(1<<20, false)},
		{"write-1MiB-escapes", writeCall(1<<20, true)},
		{"object-64KiB-small-keys", smallKeys(64 << 10)},
	}
	decoders := []struct {
		name   string
		decode func([]byte) (any, error)
	}{
		{"DecodeJSON", value.DecodeJSON},
		{"DecodePartial", value.DecodePartial},
	}
	for _, tc := range cases {
		for _, dec := range decoders {
			b.Run(dec.name+"/"+tc.name, func(b *testing.B) {
				benchDecode(b, dec.decode, tc.data)
			})
		}
		// Two thirds of the text, as a stream has it before it ends.
		b.Run("DecodePartial-cut/"+tc.name, func(b *testing.B) {
			benchDecode(b, value.DecodePartial, tc.data[:len(tc.data)*2/3])
		})
	}
	// Many large arrays nested and all left open: each is counted once.
	var nested strings.Builder
	for nested.Len() < 1<<20 {
		nested.WriteString("[" + strings.Repeat("0,", 100))
	}
	b.Run("DecodePartial-cut/nested-1MiB-open-arrays", func(b *testing.B) {
		benchDecode(b, value.DecodePartial, []byte(nested.String()))
	})
}

func benchDecode(b *testing.B, decode func([]byte) (any, error), data []byte) {
	if _, err := decode(data); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		decode(data)
	}
}
