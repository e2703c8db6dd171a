package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/value"
)

// encodingJSON is what --format json wrote before appendResult: one value
// encoded by encoding/json with HTML escaping off.
func encodingJSON(t testing.TB, r *jsonResult) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(r))
	return b.String()
}

// hostileStrings are strings every escape of JSON meets: quotes and
// backslashes, every ASCII control character, HTML's special characters,
// the line separators JavaScript breaks on, invalid and truncated UTF-8,
// an encoded surrogate, and text outside ASCII.
func hostileStrings() []string {
	var controls strings.Builder
	for c := range 0x20 {
		controls.WriteByte(byte(c))
	}
	return []string{
		"", "plain", `"quoted" and \back\slashed\`, controls.String(), "\x7f DEL", "<a href='x'>&amp;</a>",
		"line\u2028separator\u2029paragraph", "\u2027\u202a€ near them", "end \u2028", "\u2029",
		"\xff\xfe invalid", "cut \xe2\x82", "cut \xe2\x80", "\xed\xa0\x80 surrogate", "\xff\u2028\x01 all",
		"é 日本語 👨‍👩‍👧 🇫🇷", "\u202e bidi \u200b zero width", "\\u00e9 typed escape", "tab\tnew\nline\rreturn\bback\fform",
	}
}

// TestJSONOutputMatchesEncodingJSON holds the hand-written encoder to
// encoding/json, byte for byte: on the objects of the realistic corpus and
// on objects whose every string is hostile.
func TestJSONOutputMatchesEncodingJSON(t *testing.T) {
	t.Run("corpus", func(t *testing.T) {
		cli := filepath.Join("..", "..", "testdata", "catalogs", "cli")
		reg, ok := newRegistry("preview", false, false, []string{filepath.Join(cli, "failing.yaml")}, nil, os.Stderr)
		require.True(t, ok)
		var failures failureLog
		d, err := runtime.NewDispatcher(reg, runtime.Options{OnFailure: failures.add})
		require.NoError(t, err)
		corpus, calls := cliCorpus(t, 1)
		failing, err := os.ReadFile(filepath.Join(cli, "failing.jsonl"))
		require.NoError(t, err)
		n, failed, wrapped := 0, 0, 0
		for line := range bytes.Lines(append(corpus, failing...)) {
			call, _, err := parseCallLine(new(value.Decoder), bytes.TrimSpace(line), false)
			if err != nil {
				continue
			}
			desc := d.Describe(call)
			r := newResult(d, call, desc, failures.take(d.Limits().Output))
			require.Equal(t, encodingJSON(t, &r), string(appendResult(nil, &r)), "%s", line)
			n++
			if len(r.Failures) > 0 {
				failed++
			}
			if len(r.Calls) > 0 {
				wrapped++
			}
		}
		require.GreaterOrEqual(t, n, calls)
		require.Positive(t, failed, "some calls report failures")
		require.Positive(t, wrapped, "some calls carry calls")
	})
	t.Run("hostile", func(t *testing.T) {
		for _, s := range hostileStrings() {
			for _, r := range hostileResults(s) {
				require.Equal(t, encodingJSON(t, &r), string(appendResult(nil, &r)), "%q", s)
			}
		}
	})
}

// hostileResults returns objects of every shape whose strings are s.
func hostileResults(s string) []jsonResult {
	inner := jsonCall{Label: s, Preview: s, Formatter: s, Tier: runtime.TierExecute, Hidden: 3}
	calls := []jsonCall{
		{Label: s, Preview: s, Formatter: s, Tier: runtime.TierRead, Calls: []jsonCall{inner, inner}, Hidden: 1},
		{Label: s, Tier: runtime.Tier(9)},
	}
	return []jsonResult{
		{},
		{Tool: s, Preview: s, Prompt: s, Formatter: s},
		{Tool: s, Log: runtime.LogContext{Command: &s, Target: &s, ToolInputPreview: &s, Origin: &s}, Tier: runtime.TierNetwork},
		{Tool: s, Log: runtime.LogContext{Target: &s, Override: &s}, Tier: runtime.TierRead},
		{Tool: s, Log: runtime.LogContext{Target: &s}, Calls: calls, Hidden: 17, Tier: runtime.TierUnknown},
		{Tool: s, Hidden: -2, Failures: []jsonFailure{{Owner: s, Key: s, Error: s}, {}}},
	}
}

// FuzzJSONOutput holds the hand-written encoder to encoding/json on any
// strings, which reach the output from untrusted calls (sanitized first,
// but the encoder does not count on it).
func FuzzJSONOutput(f *testing.F) {
	for _, s := range hostileStrings() {
		f.Add(s, "x", 1, uint8(2))
	}
	f.Fuzz(func(t *testing.T, a, b string, hidden int, tier uint8) {
		rs := append(hostileResults(a), hostileResults(b)...)
		rs = append(rs, jsonResult{Tool: a, Prompt: b, Hidden: hidden, Tier: runtime.Tier(tier),
			Calls: []jsonCall{{Label: b, Preview: a, Hidden: hidden, Tier: runtime.Tier(tier)}}})
		for _, r := range rs {
			if got, want := string(appendResult(nil, &r)), encodingJSON(t, &r); got != want {
				t.Fatalf("got  %q\nwant %q", got, want)
			}
		}
	})
}

// BenchmarkJSONOutput encodes the --format json objects of the realistic
// corpus with encoding/json and with appendResult; ns/op is per object.
func BenchmarkJSONOutput(b *testing.B) {
	reg, ok := newRegistry("preview", false, false, nil, nil, os.Stderr)
	require.True(b, ok)
	d, err := runtime.NewDispatcher(reg, runtime.Options{})
	require.NoError(b, err)
	corpus, _ := cliCorpus(b, 1)
	var results []jsonResult
	for line := range bytes.Lines(corpus) {
		call, _, err := parseCallLine(new(value.Decoder), bytes.TrimSpace(line), false)
		require.NoError(b, err)
		results = append(results, newResult(d, call, d.Describe(call), nil))
	}
	b.Run("encoding-json", func(b *testing.B) {
		enc := json.NewEncoder(io.Discard)
		enc.SetEscapeHTML(false)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			_ = enc.Encode(&results[i%len(results)])
		}
	})
	b.Run("direct", func(b *testing.B) {
		var buf []byte
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			buf = appendResult(buf[:0], &results[i%len(results)])
		}
	})
}
