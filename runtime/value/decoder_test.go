package value_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/runtime/value"
)

// decoderInputs are values of every shape a Decoder gathers on its stacks:
// nested containers, containers past sizeHintFrom elements inside small
// ones and the other way round, repeated keys, and invalid text that
// leaves the stacks half full.
func decoderInputs() []string {
	large := func(open, close string, n int, elem func(int) string) string {
		var b strings.Builder
		b.WriteString(open)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(elem(i))
		}
		b.WriteString(close)
		return b.String()
	}
	list := large("[", "]", 200, func(i int) string { return fmt.Sprintf(`{"i":%d,"s":["a",{"b":[]}]}`, i) })
	obj := large("{", "}", 150, func(i int) string { return fmt.Sprintf(`"k%d":[%d,{"x":"y"}]`, i%100, i) })
	return []string{
		`{"tool":"read","input":{"path":"/a","offset":1,"limit":2}}`,
		`[1,[2,[3,[4]]],{"a":{"b":{"c":[5,6]}}}]`,
		`{"a":1,"b":2,"a":3}`,
		`{"list":` + list + `,"obj":` + obj + `,"tail":[1,2,3]}`,
		`[` + obj + `,` + list + `]`,
		`{"a":[1,2,{"b":`, // invalid: stops with pairs on the stacks
		`{}`, `[]`, `"s"`, `42`, `null`,
		`{"edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}],"path":"x"}`,
		`[1,2,3,}`,
	}
}

// A Decoder decodes each value as DecodeJSON does, whatever it decoded
// before.
func TestDecoderMatchesDecodeJSON(t *testing.T) {
	inputs := decoderInputs()
	var dec value.Decoder
	for round := range 3 {
		for i := range inputs {
			in := inputs[(i+round)%len(inputs)]
			want, wantErr := value.DecodeJSON([]byte(in))
			got, err := dec.Decode([]byte(in))
			if wantErr != nil {
				require.EqualError(t, err, wantErr.Error(), in)
				continue
			}
			require.NoError(t, err, in)
			require.True(t, equal(want, got), "%.80s", in)
		}
	}
}

// Reused, a Decoder allocates only what a value holds: each object and
// list once, of its size (DecodeJSON grows them: 30 allocations here), the
// boxes of its strings and the block of its short strings.
func TestDecoderAllocations(t *testing.T) {
	data := []byte(`{"tool":"edit","input":{"path":"/a","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}]}}`)
	var dec value.Decoder
	_, err := dec.Decode(data)
	require.NoError(t, err)
	assert.LessOrEqual(t, testing.AllocsPerRun(100, func() { _, _ = dec.Decode(data) }), 21.0)
}

// FuzzDecoder decodes two texts one after the other, and the first again,
// with one Decoder, and compares each value with DecodeJSON's.
func FuzzDecoder(f *testing.F) {
	inputs := decoderInputs()
	for i := range inputs {
		f.Add([]byte(inputs[i]), []byte(inputs[(i+1)%len(inputs)]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var dec value.Decoder
		for _, in := range [][]byte{a, b, a} {
			want, wantErr := value.DecodeJSON(in)
			got, err := dec.Decode(in)
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("Decode(%q): error %v, DecodeJSON: %v", in, err, wantErr)
			}
			if err == nil && !equal(want, got) {
				t.Fatalf("Decode(%q) differs from DecodeJSON", in)
			}
		}
	})
}
