package gen_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/value"
)

// evalText evaluates a string expression of the formatter language with
// input, through the interpreter and its CEL bindings.
func evalText(t *testing.T, expr string, input *value.Object) (string, error) {
	t.Helper()
	r, err := celfmt.Eval(expr, input, "t", celfmt.Limits{}, celfmt.Options{})
	if err != nil {
		var list celfmt.ErrorList
		require.NotErrorAs(t, err, &list, "%s does not check", expr)
	}
	return r.Text, err
}

// agreeText requires the interpreter and the celrt function translated
// code calls to give the same text, or both to fail.
func agreeText(t *testing.T, expr string, input *value.Object, got string, gotErr error) {
	t.Helper()
	want, wantErr := evalText(t, expr, input)
	if (wantErr != nil) != (gotErr != nil) {
		t.Errorf("%s with %s: interpreter %q, %v; celrt %q, %v", expr, inputText(input), want, wantErr, got, gotErr)
		return
	}
	assert.Equal(t, want, got, "%s with %s", expr, inputText(input))
}

func inputText(o *value.Object) string {
	var parts []string
	for k, v := range o.All() {
		parts = append(parts, fmt.Sprintf("%s: %#v", k, v))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

var unitDoubles = []float64{
	0, math.Copysign(0, -1), 5e-324, 4e-7, 5e-7, 6e-7, 0.0005, 0.0009996, 0.001, 0.25, 0.5, 0.9996, 1, 1.5, 59.9, 59.96, 60,
	125.9, 1023, 1023.5, 1024, 1536, 3599.9, 3720, 10239, 102399, 1024000, 1<<20 - 1, 1 << 20, 1<<40 - 1, 1 << 50, 1e20, 1e21,
	1e300, math.MaxFloat64, -1, -1.5, -1536, -1e-9, math.NaN(), math.Inf(1), math.Inf(-1),
}

var unitInts = []int64{0, 1, -1, 59, 60, 125, 1023, 1024, 1536, 3720, 1 << 53, 1<<53 + 1, -(1 << 53) - 60, math.MaxInt64, math.MinInt64 + 1}

var unitStrings = []string{
	"", " ", "cmd+shift+a", "ctrl+alt+delete", "cmd + shift + t", "shift+tab", "Cmd,Shift,T", "cmd++", "cmd+,", "+", "++",
	"cmd+shift+", "fn f5", "ſhift+\u212aey", "a\ufffdb+cmd", "/a/b/", "/", "//", `C:\dir\file.txt`, "name", "File > Save As",
	" > > ", "View>>Zoom >", "Help\u00a0>\u3000Search", "e\u0301>👍🏽", "\t\n", strings.Repeat("cmd+", 100) + "a",
}

// TestUnitFunctionsAgreeWithCEL: fileSize, durationText, shortcut,
// baseName, menuPath and dimensions give the same text through the CEL
// bindings as through the celrt functions translated code calls, for
// doubles, ints and values known at run time only.
func TestUnitFunctionsAgreeWithCEL(t *testing.T) {
	for _, d := range unitDoubles {
		in := value.NewObject("x", d, "y", 2.5)
		agreeText(t, "fileSize(input.x)", in, celrt.FileSize(d), nil)
		got, err := celrt.FileSizeDyn(d)
		agreeText(t, "fileSize(dyn(input.x))", in, got, err)
		agreeText(t, "durationText(input.x)", in, celrt.DurationText(d), nil)
		got, err = celrt.DurationTextDyn(value.NumberOf(d))
		agreeText(t, "durationText(dyn(input.x))", in, got, err)
		agreeText(t, "dimensions(input.x, input.y)", in, celrt.Dimensions(d, 2.5), nil)
		got, err = celrt.DimensionsDyn(d, value.NumberOf(2.5))
		agreeText(t, "dimensions(dyn(input.x), dyn(input.y))", in, got, err)
	}
	for _, n := range unitInts {
		in := value.NewObject("s", fmt.Sprint(n))
		agreeText(t, "fileSize(int(input.s))", in, celrt.FileSizeInt(n), nil)
		got, err := celrt.FileSizeDyn(n)
		agreeText(t, "fileSize(dyn(int(input.s)))", in, got, err)
		agreeText(t, "durationText(int(input.s))", in, celrt.DurationTextInt(n), nil)
		got, err = celrt.DurationTextDyn(n)
		agreeText(t, "durationText(dyn(int(input.s)))", in, got, err)
		agreeText(t, "dimensions(int(input.s), 7)", in, celrt.DimensionsInt(n, 7), nil)
		got, err = celrt.DimensionsDyn(n, int64(7))
		agreeText(t, "dimensions(dyn(int(input.s)), dyn(7))", in, got, err)
	}
	for _, s := range unitStrings {
		in := value.NewObject("s", s)
		agreeText(t, "shortcut(input.s)", in, celrt.Shortcut(s), nil)
		agreeText(t, "baseName(input.s)", in, celrt.BaseName(s), nil)
		agreeText(t, "menuPath(input.s)", in, celrt.MenuPath(s), nil)
	}
	// Values of other types fail in both.
	in := value.NewObject("s", "1", "n", 1.0, "b", true)
	for _, c := range []struct {
		expr string
		got  func() (string, error)
	}{
		{"fileSize(dyn(input.s))", func() (string, error) { return celrt.FileSizeDyn("1") }},
		{"durationText(dyn(input.b))", func() (string, error) { return celrt.DurationTextDyn(true) }},
		{"dimensions(dyn(1), dyn(input.n))", func() (string, error) { return celrt.DimensionsDyn(int64(1), value.NumberOf(1)) }},
		{"dimensions(dyn(input.n), dyn(1))", func() (string, error) { return celrt.DimensionsDyn(1.0, int64(1)) }},
		{"dimensions(dyn(input.s), dyn(1))", func() (string, error) { return celrt.DimensionsDyn("1", int64(1)) }},
	} {
		got, err := c.got()
		require.Error(t, err, c.expr)
		agreeText(t, c.expr, in, got, err)
	}
}

// TestResultValueAgreesWithCEL: resultValue removes the same wrappers
// through the CEL binding as through celrt, from the input and from maps
// built in CEL.
func TestResultValueAgreesWithCEL(t *testing.T) {
	docs := []string{
		`{"type": "number", "value": 5}`, `{"value": "x", "type": "string"}`, `{"data": {"app": "Safari"}}`,
		`{"data": [1, 2], "metadata": {"ms": 3}}`, `{"data": {"type": "object", "value": {"data": {"x": 1}, "metadata": null}}}`,
		`{"data": null}`, `{"app": "Safari"}`, `{"type": "t", "value": 1, "unit": "px"}`, `{"type": "t", "data": 1}`,
		`{"data": 1, "error": "x"}`, `{"metadata": 1}`, `{"value": 1}`, `{}`, `[{"data": 1}]`, `"data"`, `1.50`, `null`, `true`,
		strings.Repeat(`{"data": `, 8) + `1` + strings.Repeat(`}`, 8),
		strings.Repeat(`{"data": `, 9) + `1` + strings.Repeat(`}`, 9),
	}
	for _, doc := range docs {
		v, err := value.DecodeJSON([]byte(doc))
		require.NoError(t, err)
		in := value.NewObject("v", v)
		agreeText(t, "json(resultValue(input.v))", in, celrt.JSON(celrt.ResultValue(v)), nil)
		agreeText(t, "type(resultValue(input.v)) == map ? 'map' : 'other'", in, map[bool]string{true: "map", false: "other"}[celrt.TypeOf(celrt.ResultValue(v)) == celrt.MapType], nil)
	}
	inner, err := celrt.NewMap([]any{"type", "value"}, []any{"text", []any{int64(1), "ok"}})
	require.NoError(t, err)
	outer, err := celrt.NewMap([]any{"data", "metadata"}, []any{inner, nil})
	require.NoError(t, err)
	agreeText(t, `json(resultValue({"data": {"type": "text", "value": [1, "ok"]}, "metadata": null}))`, nil, celrt.JSON(celrt.ResultValue(outer)), nil)
	numeric, err := celrt.NewMap([]any{int64(1), int64(2)}, []any{"a", "b"})
	require.NoError(t, err)
	agreeText(t, `json(resultValue({1: "a", 2: "b"}))`, nil, celrt.JSON(celrt.ResultValue(numeric)), nil)
}

// TestFieldsAgreesWithCEL: fields gives the same text through its CEL
// binding as through the celrt function translated code calls, for input
// objects of every shape and for rooms that cut them.
func TestFieldsAgreesWithCEL(t *testing.T) {
	inputs := []string{
		`{"query":"test","numResults":5}`,
		`{"ids":[1,2,3],"filter":{},"nested":{"a":{"b":[{"c":null}]}}}`,
		`{"cmd":"ls \\\", force: true","k.e y":1.50,"":true}`,
		`{"sql":"SELECT 1; ` + strings.Repeat("x", 300) + `; DROP TABLE t","path":"/a"}`,
		`{"a":"` + strings.Repeat("é", 400) + `","b":"\u202e\n"}`,
	}
	for _, in := range inputs {
		v, err := value.DecodeJSON([]byte(in))
		require.NoError(t, err)
		obj := v.(*value.Object)
		for _, n := range []int64{0, 20, 60, 160, 495} {
			agreeText(t, fmt.Sprintf("fields(input, %d)", n), obj, celrt.Fields(obj, n), nil)
		}
	}
}
