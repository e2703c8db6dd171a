package generated_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/generated"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// Hand-written Go for the rows and results of hotkey and click, from their
// CEL in formatters.yaml: what the generated code is measured against.

func obj(v any) *value.Object {
	if o, ok := v.(*value.Object); ok {
		return o
	}
	return &value.Object{}
}

func hotkeyChord(in *value.Object) string {
	keys, ok := textfmt.NonEmptyString(get(in, "keys"))
	if !ok {
		return ""
	}
	return textfmt.Shortcut(textfmt.Truncate(textfmt.Collapse(keys), 60))
}

func oracleRowHotkey(in *value.Object) (string, bool) {
	chord := hotkeyChord(in)
	return chord, chord != ""
}

func oracleResultHotkey(in *value.Object) string {
	if chord := hotkeyChord(in); chord != "" {
		return "pressed " + chord
	}
	return "pressed a shortcut"
}

func clickVerb(in *value.Object) string {
	switch {
	case get(in, "right") == true:
		return "right-click"
	case get(in, "double") == true:
		return "double-click"
	}
	return "click"
}

func clickTarget(in *value.Object) (string, bool) {
	if s, ok := textfmt.NonEmptyString(get(in, "coords")); ok {
		return "at " + textfmt.Truncate(textfmt.Collapse(s), 40), true
	}
	if s, ok := textfmt.NonEmptyString(get(in, "on")); ok {
		return "element " + textfmt.Truncate(textfmt.Collapse(s), 40), true
	}
	if s, ok := textfmt.NonEmptyString(get(in, "query")); ok {
		return "'" + textfmt.Truncate(textfmt.Collapse(s), 80) + "'", true
	}
	return "", false
}

func oracleRowClick(in *value.Object) (string, bool) {
	target, ok := clickTarget(in)
	if !ok {
		return "", false
	}
	if verb := clickVerb(in); verb != "click" {
		return verb + " " + target, true
	}
	return target, true
}

func oracleResultClick(in, result *value.Object) string {
	d := obj(textfmt.ResultValue(get(result, "details")))
	s := obj(get(d, "summary"))
	c := obj(get(s, "coordinates"))
	verb := clickVerb(in)
	action, ok := textfmt.NonEmptyString(get(s, "action"))
	if !ok {
		action = "clicked"
		if verb != "click" {
			action = verb + "ed"
		}
	}
	var b strings.Builder
	b.WriteString(strings.ToLower(action))
	x, xok := get(c, "x").(value.Number)
	y, yok := get(c, "y").(value.Number)
	if label, ok := textfmt.NonEmptyString(get(s, "element_label")); ok {
		b.WriteString(" '" + textfmt.Truncate(textfmt.Collapse(label), 60) + "'")
	} else if xok && yok {
		b.WriteString(" at " + strings.ReplaceAll(textfmt.Dimensions(x.Float64(), y.Float64()), "×", ","))
	} else if target, ok := clickTarget(in); ok {
		b.WriteString(" " + target)
	}
	if app, ok := textfmt.NonEmptyString(get(s, "target_app")); ok {
		b.WriteString(" in " + textfmt.Truncate(textfmt.Collapse(app), 40))
	}
	return b.String()
}

func decoded(t testing.TB, js string) *value.Object {
	t.Helper()
	in := value.DecodeInput(js)
	require.NoError(t, in.Err)
	return in.Object()
}

var (
	hotkeyInput = `{"keys":"cmd,shift,t","hold_duration":50}`
	clickInput  = `{"on":"B7","snapshot":"s1","double":true}`
	clickResult = `{"content":[{"type":"text","text":"✅ Clicked"}],"details":{"type":"click","value":{"summary":` +
		`{"action":"Double-clicked","element_label":"Save","target_app":"Safari","coordinates":{"x":412,"y":88}}}},"isError":false}`
)

// TestRowOraclesAgree holds the hand-written Go to the generated code, so
// that the benchmark compares the same work.
func TestRowOraclesAgree(t *testing.T) {
	limits, _ := runtime.Limits{}.WithDefaults()
	for _, js := range []string{hotkeyInput, `{"keys":"ctrl+alt+delete"}`, `{}`, `{"keys":"  "}`} {
		in := decoded(t, js)
		text, ok, err := generated.RowHotkey(in, "hotkey", limits)
		require.NoError(t, err)
		wantText, wantOK := oracleRowHotkey(in)
		assert.Equal(t, wantOK, ok, js)
		assert.Equal(t, wantText, text, js)
		text, _, err = generated.ResultHotkey(in, "hotkey", limits, &value.Object{})
		require.NoError(t, err)
		assert.Equal(t, oracleResultHotkey(in), text, js)
	}
	results := []string{clickResult, `{"content":[],"details":{"summary":{"coordinates":{"x":1,"y":2.5}}}}`, `{"details":null}`, `{}`}
	for _, js := range []string{clickInput, `{"coords":"100,200","right":true}`, `{"query":"Save  button"}`, `{}`} {
		in := decoded(t, js)
		text, ok, err := generated.RowClick(in, "click", limits)
		require.NoError(t, err)
		wantText, wantOK := oracleRowClick(in)
		assert.Equal(t, wantOK, ok, js)
		assert.Equal(t, wantText, text, js)
		for _, rs := range results {
			res := decoded(t, rs)
			text, _, err := generated.ResultClick(in, "click", limits, res)
			require.NoError(t, err)
			assert.Equal(t, oracleResultClick(in, res), text, js+" "+rs)
		}
	}
}

// BenchmarkRows compares the generated row and result functions of hotkey
// and click with hand-written Go doing the same, on decoded input.
func BenchmarkRows(b *testing.B) {
	limits, _ := runtime.Limits{}.WithDefaults()
	hk, click, res := decoded(b, hotkeyInput), decoded(b, clickInput), decoded(b, clickResult)
	for _, bc := range []struct {
		name      string
		generated func()
		oracle    func()
	}{
		{"hotkey/row", func() { generated.RowHotkey(hk, "hotkey", limits) }, func() { oracleRowHotkey(hk) }},
		{"hotkey/result", func() { generated.ResultHotkey(hk, "hotkey", limits, res) }, func() { oracleResultHotkey(hk) }},
		{"click/row", func() { generated.RowClick(click, "click", limits) }, func() { oracleRowClick(click) }},
		{"click/result", func() { generated.ResultClick(click, "click", limits, res) }, func() { oracleResultClick(click, res) }},
	} {
		b.Run(bc.name+"/generated", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bc.generated()
			}
		})
		b.Run(bc.name+"/oracle", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bc.oracle()
			}
		})
	}
}
