package value_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/permgen/permgen/runtime/value"
)

// writeCall is the input of a write call whose content is about size bytes
// of text: plain lines, or lines full of escapes (quotes, tabs, non-ASCII
// written as \u escapes) as models write code.
func writeCall(size int, escaped bool) []byte {
	line := `line of plain text\n`
	if escaped {
		line = `\tfmt.Println(\"caf\u00e9\", x)\n`
	}
	return []byte(`{"path":"/x","content":"` + strings.Repeat(line, size/len(line)) + `"}`)
}

// smallKeys is an object of many short keys and values, about size bytes.
func smallKeys(size int) []byte {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":`)
		switch i % 3 {
		case 0:
			b.WriteString(strconv.Itoa(i))
		case 1:
			b.WriteString(`"v` + strconv.Itoa(i) + `"`)
		default:
			b.WriteString(`true`)
		}
	}
	b.WriteByte('}')
	return []byte(b.String())
}

func BenchmarkDecodeJSON(b *testing.B) {
	cases := []struct {
		name string
		data []byte
	}{
		{"write-1MiB-plain", writeCall(1<<20, false)},
		{"write-1MiB-escapes", writeCall(1<<20, true)},
		{"object-64KiB-small-keys", smallKeys(64 << 10)},
		{"sql-1MiB-blank-lines", []byte(`{"sql":"SELECT 1;` + strings.Repeat(`\n`, 1<<20) + `DROP TABLE users"}`)},
	}
	for _, tc := range cases {
		if _, err := value.DecodeJSON(tc.data); err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.data)))
			b.ReportAllocs()
			for b.Loop() {
				value.DecodeJSON(tc.data)
			}
		})
	}
}
