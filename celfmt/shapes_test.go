package celfmt

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShapesAgreeWithCEL runs expressions with the shapes of shapes.go
// through the free programs, which build them, and the metered ones,
// which keep cel-go's nodes, on inputs that make them take every branch
// and fail every way: results and errors are the same.
func TestShapesAgreeWithCEL(t *testing.T) {
	previews := []string{
		`input.c ? "yes" : "no"`,
		`string(input.c ? input.a : input.b)`,
		`(input.c ? input.m : input.n).k == "mk" ? "k" : "other"`,
		`(input.c ? input.m : {"k": input.a}).?k.orValue("none") == "x" ? "x" : "not x"`,
		`string((input.c ? input.l : [input.a])[0])`,
		`input.c ? (input.d ? "cd" : "c") : (input.d ? "d" : "none")`,
		`string(input.c ? input.m.?k.orValue("none") : input.b)`,
		`type(input.a) == string ? "s" : type(input.a) != list ? "not a list" : "list"`,
		`type(input.a) == double || type(input.a) == map ? "number or map" : "other"`,
		`string(type(input.a) == type(input.b))`,
		`string(type(input.m.k) == null_type)`,
		`[input.a, input.b].exists(x, type(x) == bool && x) ? "some" : "none"`,
		`[input.a, input.b].all(x, type(x) == string) ? "strings" : "not strings"`,
		`[input.a, input.b].filter(x, type(x) == string ? x != "" : false).size() == 1 ? "one" : "other"`,
		`cel.bind(l, type(input.l) == list ? input.l : [], l.size() > 0 ? string(l[0]) : "empty")`,
	}
	inputs := []string{
		`{}`,
		`{"c":true,"d":false,"a":"x","b":"y","m":{"k":"mk"},"n":{"k":"nk"},"l":["l0"]}`,
		`{"c":false,"d":true,"a":1,"b":true,"m":{},"n":{"k":null},"l":[]}`,
		`{"c":"yes","d":null,"a":[1],"b":{"k":1},"m":{"k":[1]},"n":[],"l":"x"}`,
		`{"c":null,"a":null,"b":null,"m":null,"n":{"j":1}}`,
	}
	free := 0
	for i, preview := range previews {
		f := formatter(t, fmt.Sprintf("  - tool: t\n    preview: '%s'\n", preview), Options{})
		if !f.unmetered {
			t.Logf("preview %d is metered", i+1)
			continue
		}
		free++
		for _, js := range inputs {
			in := object(t, js)
			g := meteredTwin(f)
			want, wantOK, wantErr := g.Run(in, "t", defaultLimits)
			text, ok, metered, err := f.run(in, "t", defaultLimits, nil)
			require.False(t, metered)
			name := fmt.Sprintf("preview %d on %s", i+1, js)
			assert.Equal(t, want, text, name)
			assert.Equal(t, wantOK, ok, name)
			assert.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(err), name)
		}
	}
	assert.Greater(t, free, len(previews)/2)
}
