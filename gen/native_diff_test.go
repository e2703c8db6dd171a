package gen_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/permgen/permgen/celfmt"
	"github.com/permgen/permgen/generated"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
	"github.com/permgen/permgen/testdata/gen/aliases"
	"github.com/permgen/permgen/testdata/gen/budget"
	"github.com/permgen/permgen/testdata/gen/deploy"
	"github.com/permgen/permgen/testdata/gen/exampleoptions"
	"github.com/permgen/permgen/testdata/gen/mixed"
	"github.com/permgen/permgen/testdata/gen/names"
	"github.com/permgen/permgen/testdata/gen/random"
	"github.com/permgen/permgen/testdata/gen/registered"
	"github.com/permgen/permgen/testdata/gen/rows"
	"github.com/permgen/permgen/testdata/gen/secrets"
	"github.com/permgen/permgen/testdata/gen/shared"
	"github.com/permgen/permgen/testdata/gen/slotlets"
	"github.com/permgen/permgen/testdata/gen/spans"
	"github.com/permgen/permgen/testdata/gen/typed"
	"github.com/permgen/permgen/testdata/gen/wrapped"
)

// nativeCatalogs maps each catalog file (relative to the module root) to the
// registrations of the package generated from it: the golden packages of
// the good test catalogs and the stock catalog's generated package.
var nativeCatalogs = map[string]func() []runtime.Entry{
	"testdata/catalogs/good/aliases.yaml":         aliases.Entries,
	"testdata/catalogs/good/budget.yaml":          budget.Entries,
	"testdata/catalogs/good/deploy.yaml":          deploy.Entries,
	"testdata/catalogs/good/example-options.yaml": exampleoptions.Entries,
	"testdata/catalogs/good/mixed.yaml":           mixed.Entries,
	"testdata/catalogs/good/names.yaml":           names.Entries,
	"testdata/catalogs/good/random.yaml":          random.Entries,
	"testdata/catalogs/good/registered.yaml":      registered.Entries,
	"testdata/catalogs/good/rows.yaml":            rows.Entries,
	"testdata/catalogs/good/secrets.yaml":         secrets.Entries,
	"testdata/catalogs/good/shared.yaml":          shared.Entries,
	"testdata/catalogs/good/slotlets.yaml":        slotlets.Entries,
	"testdata/catalogs/good/spans.yaml":           spans.Entries,
	"testdata/catalogs/good/typed.yaml":           typed.Entries,
	"testdata/catalogs/good/wrapped.yaml":         wrapped.Entries,
	"formatters.yaml":                             generated.Entries,
}

// outcome is what one run of a formatter gave.
type outcome struct {
	Text string
	OK   bool
	Err  error
}

func (o outcome) String() string {
	if o.Err != nil {
		return fmt.Sprintf("failure: %v", o.Err)
	}
	if !o.OK {
		return "decline"
	}
	return fmt.Sprintf("preview %q", o.Text)
}

// slotOutcome is what one run of a formatter's Unwrap or Tier gave: the
// calls, each with its input's Go type and JSON, or the tier.
type slotOutcome struct {
	Value string
	Err   error
}

func (o slotOutcome) String() string {
	if o.Err != nil {
		return fmt.Sprintf("failure: %v", o.Err)
	}
	return o.Value
}

// agreeSlot reports whether the native and interpreted outcomes of Unwrap
// or Tier agree: both fail, or both give the same value.
func agreeSlot(native, interp slotOutcome) bool {
	if (native.Err != nil) != (interp.Err != nil) {
		return false
	}
	if native.Err != nil {
		return sameFailure(native.Err, interp.Err)
	}
	return native.Value == interp.Value
}

// sameFailure reports whether two failures agree: the same message, the
// let that failed and what failed in it, worded alike by both backends.
func sameFailure(native, interp error) bool {
	return native.Error() == interp.Error()
}

// unwrapOutcome runs f's Unwrap, when it has one.
func unwrapOutcome(f runtime.Formatter, req runtime.Request) slotOutcome {
	u, ok := f.(runtime.Unwrapper)
	if !ok {
		return slotOutcome{Value: "[]"}
	}
	calls, err := u.Unwrap(req)
	parts := make([]string, len(calls))
	for i, c := range calls {
		parts[i] = fmt.Sprintf("%s %T %s %s", c.Tool, c.Input, textfmt.CompactJSON(c.Input), c.Kind)
	}
	return slotOutcome{Value: "[" + strings.Join(parts, "; ") + "]", Err: err}
}

// tierOutcome runs f's Tier, when it has one.
func tierOutcome(f runtime.Formatter, req runtime.Request) slotOutcome {
	t, ok := f.(runtime.Tierer)
	if !ok {
		return slotOutcome{Value: runtime.TierUnknown.String()}
	}
	tier, err := t.Tier(req)
	return slotOutcome{Value: tier.String(), Err: err}
}

// renderOutcomes runs f's Row, Result, ErrorLine and Expand, when it is a
// runtime.Renderer (each declines otherwise), named by slot.
func renderOutcomes(f runtime.Formatter, req runtime.Request) map[string]slotOutcome {
	out := map[string]slotOutcome{"title": {Value: "decline"}}
	text := func(s string, ok bool, err error) slotOutcome {
		if !ok {
			return slotOutcome{Value: "decline", Err: err}
		}
		return slotOutcome{Value: fmt.Sprintf("%q", s), Err: err}
	}
	if t, ok := f.(runtime.Titler); ok {
		out["title"] = text(t.Title(req))
	}
	r, ok := f.(runtime.Renderer)
	if !ok {
		for _, slot := range []string{"row", "result", "error", "expand"} {
			out[slot] = slotOutcome{Value: "decline"}
		}
		return out
	}
	out["row"] = text(r.Row(req))
	out["result"] = text(r.Result(req))
	out["error"] = text(r.ErrorLine(req))
	lines, ok, err := r.Expand(req)
	out["expand"] = slotOutcome{Value: "decline", Err: err}
	if ok {
		out["expand"] = slotOutcome{Value: fmt.Sprintf("%q", lines), Err: err}
	}
	return out
}

// presentationOf is f's presentation, when it is a runtime.Presenter.
func presentationOf(f runtime.Formatter) runtime.Presentation {
	if p, ok := f.(runtime.Presenter); ok {
		return p.Presentation()
	}
	return runtime.Presentation{}
}

// resourceFailure reports an interpreter failure caused by its cost
// limit: native code does not count cost units, so such a case is not
// compared. The memory budget is shared.
func resourceFailure(err error) bool {
	return errors.Is(err, celfmt.ErrCostLimit)
}

// agree reports whether the native and interpreted outcomes agree: the
// same failure (see sameFailure), else the same decline, else the same
// text.
func agree(native, interp outcome) bool {
	if (native.Err != nil) != (interp.Err != nil) {
		return false
	}
	if native.Err != nil {
		return sameFailure(native.Err, interp.Err)
	}
	return native.OK == interp.OK && (!native.OK || native.Text == interp.Text)
}

// exampleLimits are the limits the example runner uses: zero fields take
// their defaults, and limits a check rejects give the defaults.
func exampleLimits(l celfmt.Limits) celfmt.Limits {
	d, err := l.WithDefaults()
	if err != nil {
		return celfmt.DefaultLimits
	}
	return d
}

// TestNativeAgreesWithInterpreterOnExamples runs every example of every good
// catalog and of the stock catalog through the interpreted formatter and
// through the native functions generated from it, and requires the same
// preview, the same decline, the same calls carried, the same tier and the
// same failure class.
func TestNativeAgreesWithInterpreterOnExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "catalogs", "good", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	catalogs := []string{"formatters.yaml"}
	for _, f := range files {
		catalogs = append(catalogs, filepath.ToSlash(filepath.Join("testdata", "catalogs", "good", filepath.Base(f))))
	}
	for _, catalog := range catalogs {
		entries, ok := nativeCatalogs[catalog]
		require.True(t, ok, "%s has no generated package in nativeCatalogs: add its golden package", catalog)
		t.Run(filepath.Base(catalog), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(catalog)))
			require.NoError(t, err)
			// The generated packages were generated from the catalog
			// loaded under its base name.
			checked, err := celfmt.LoadFiles(filepath.Base(catalog), src, celfmt.DirFiles(filepath.Dir(filepath.Join("..", filepath.FromSlash(catalog)))), celfmt.Options{})
			require.NoError(t, err)
			native := map[string]runtime.Formatter{}
			for _, e := range entries() {
				native[e.Key] = e.Formatter
			}
			examples, compared, skipped := 0, 0, 0
			for _, f := range checked.Formatters {
				nf, ok := native[f.Entry.Tool]
				if !assert.True(t, ok, "%s: no native registration for %q", catalog, f.Entry.Tool) {
					continue
				}
				for i, ex := range f.Entry.Examples {
					tool := f.Entry.Tool
					if ex.Tool != "" {
						tool = ex.Tool
					}
					examples++
					limits := exampleLimits(ex.Limits)
					// The example runner gives a non-object input as an
					// empty object; the dispatcher gives Input.Object(),
					// which keeps a string's text: try both.
					inputs := []*value.Object{}
					if obj, ok := ex.Input.(*value.Object); ok && obj != nil {
						inputs = append(inputs, obj)
					} else {
						inputs = append(inputs, value.Input{}.Object(), value.Input{Value: ex.Input}.Object())
					}
					for _, in := range inputs {
						var interp, nat outcome
						interp.Text, interp.OK, interp.Err = f.Run(in, tool, limits)
						if resourceFailure(interp.Err) {
							skipped++
							continue
						}
						req := runtime.Request{Tool: tool, Input: in, Limits: limits}
						nat.Text, nat.OK, nat.Err = nf.Format(req)
						compared++
						assert.True(t, agree(nat, interp),
							"%s example %d of %s at %s\ntool:        %s\ninput:       %s\nnative:      %s\ninterpreted: %s",
							catalog, i+1, f.Entry.Tool, ex.Pos, tool, textfmt.CompactJSON(in), nat, interp)
						for _, slot := range []struct {
							name string
							run  func(runtime.Formatter, runtime.Request) slotOutcome
						}{{"unwrap", unwrapOutcome}, {"tier", tierOutcome}} {
							want, got := slot.run(f, req), slot.run(nf, req)
							if resourceFailure(want.Err) {
								skipped++
								continue
							}
							assert.True(t, agreeSlot(got, want),
								"%s example %d of %s at %s, %s\ntool:        %s\ninput:       %s\nnative:      %s\ninterpreted: %s",
								catalog, i+1, f.Entry.Tool, ex.Pos, slot.name, tool, textfmt.CompactJSON(in), got, want)
						}
						// Rows see the input alone, results also the
						// example's output (an empty result without one).
						req.Result = ex.Output
						want, got := renderOutcomes(f, req), renderOutcomes(nf, req)
						for _, slot := range []string{"row", "result", "error", "expand", "title"} {
							if resourceFailure(want[slot].Err) {
								skipped++
								continue
							}
							assert.True(t, agreeSlot(got[slot], want[slot]),
								"%s example %d of %s at %s, %s\ntool:        %s\ninput:       %s\nnative:      %s\ninterpreted: %s",
								catalog, i+1, f.Entry.Tool, ex.Pos, slot, tool, textfmt.CompactJSON(in), got[slot], want[slot])
						}
						if hasRender(f.Entry) {
							assert.Equal(t, f.Presentation(), presentationOf(nf), "%s: presentation of %s", catalog, f.Entry.Tool)
						}
					}
				}
			}
			t.Logf("%s: %d examples compared in %d runs", catalog, examples, compared)
			assert.Zero(t, skipped, "%s: %d examples hit the interpreter's cost limit or memory budget", catalog, skipped)
			assert.Positive(t, compared, "%s: no example was compared", catalog)
		})
	}
}

// TestNativeAgreesOnMistypedInput: a value of another type than its
// declared one, at any depth, fails the call in generated code as in the
// interpreter, and a value of the declared type does not.
func TestNativeAgreesOnMistypedInput(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "catalogs", "good", "typed.yaml"))
	require.NoError(t, err)
	checked, err := celfmt.Load("typed.yaml", src, celfmt.Options{})
	require.NoError(t, err)
	interpreted := checked.Formatters[0]
	native := typed.Entries()[0].Formatter
	for _, js := range []string{
		`{"sizes": [1.5]}`, `{"sizes": ["1"]}`, `{"sizes": [null]}`, `{"sizes": [1e300]}`, `{"sizes": 5}`,
		`{"sizes": [9223372036854775807]}`, `{"sizes": [-9223372036854775808]}`, `{"sizes": [2.0]}`,
		`{"scale": {"x": "y"}}`, `{"scale": {"x": 1.5}}`, `{"scale": {"y": 1}}`, `{"scale": []}`, `{"scale": null}`,
		`{"ratios": ["x"]}`, `{"ratios": [1]}`, `{"ratios": [null]}`, `{"names": [1]}`, `{"names": ["tmp", null]}`,
		`{"sizes": [1, 2], "names": "tmp"}`,
	} {
		v, err := value.DecodeJSON([]byte(js))
		require.NoError(t, err)
		in := v.(*value.Object)
		var want, got outcome
		want.Text, want.OK, want.Err = interpreted.Run(in, "resize", celfmt.DefaultLimits)
		got.Text, got.OK, got.Err = native.Format(runtime.Request{Tool: "resize", Input: in, Limits: celfmt.DefaultLimits})
		assert.Equal(t, want.Err != nil, got.Err != nil, "%s: interpreted error %v, native error %v", js, want.Err, got.Err)
		assert.Equal(t, want.Text, got.Text, js)
		assert.Equal(t, want.OK, got.OK, js)
	}
}

// TestNativeBoundsWhatInputCanCost: a model may send an input far beyond
// the bounds the catalog's cost was checked for. Translated code stops a
// comprehension after celrt.MaxSteps steps, and one whose list or strings
// would take more than celrt.MemoryBudget, failing the call, where it
// would otherwise run on or allocate without bound.
func TestNativeBoundsWhatInputCanCost(t *testing.T) {
	var pairs runtime.Formatter
	for _, e := range typed.Entries() {
		if e.Key == "pairs" {
			pairs = e.Formatter
		}
	}
	require.NotNil(t, pairs)
	run := func(items []any, text string) error {
		in := value.NewObject("items", items, "text", text)
		_, _, err := pairs.Format(runtime.Request{Tool: "pairs", Input: in, Limits: celfmt.DefaultLimits})
		return err
	}
	many := make([]any, 1_100_000) // more than celrt.MaxSteps
	for i := range many {
		many[i] = "a"
	}
	// The list it builds (an interface value an element) passes the
	// budget before the steps pass their limit.
	assert.ErrorIs(t, run(many, ""), celrt.ErrBudget)
	assert.ErrorIs(t, run([]any{"a", "b", "c", "d", "e", "f", "g", "h", "i"}, strings.Repeat("x", 1<<20)), celrt.ErrBudget)
	assert.NoError(t, run([]any{"a", "b"}, strings.Repeat("x", 1<<20)), "within the bounds")
}

// TestNativeBoundsWhatUnwrapCanCost: an unwrap over a huge input list
// stops in translated code, as the cost limit stops it in the
// interpreter: after celrt.MaxSteps steps, or here sooner, when the calls
// it built pass celrt.MemoryBudget.
func TestNativeBoundsWhatUnwrapCanCost(t *testing.T) {
	var parallel runtime.Unwrapper
	for _, e := range wrapped.Entries() {
		if e.Key == "multi_tool_use.parallel" {
			parallel = e.Formatter.(runtime.Unwrapper)
		}
	}
	require.NotNil(t, parallel)
	use := value.NewObject("recipient_name", "functions.read", "parameters", map[string]any{"path": "/a"})
	run := func(n int) ([]runtime.InnerCall, error) {
		uses := make([]any, n)
		for i := range uses {
			uses[i] = use
		}
		in := value.ObjectOf([]string{"tool_uses"}, []any{uses})
		return parallel.Unwrap(runtime.Request{Tool: "multi_tool_use.parallel", Input: in, Limits: celfmt.DefaultLimits})
	}
	_, err := run(1_100_000) // more than celrt.MaxSteps
	assert.True(t, errors.Is(err, celrt.ErrSteps) || errors.Is(err, celrt.ErrBudget), "%v", err)
	calls, err := run(3)
	require.NoError(t, err)
	assert.Len(t, calls, 3)
	assert.Equal(t, "read", calls[0].Tool)
}

// hasRender reports whether a catalog entry declares any of rows and
// results, which makes its generated registration a runtime.Presenter.
func hasRender(e *celfmt.Entry) bool {
	return e.HasRow() || e.HasResult() || e.HasError() || e.HasExpand() || e.Category != "" || e.Icon != (celfmt.Icon{})
}

// TestNativeBoundsWhatExpandCanCost: an expand over a huge result stops
// in translated code after celrt.MaxSteps steps or celrt.MemoryBudget bytes,
// as the cost limit stops it in the interpreter.
func TestNativeBoundsWhatExpandCanCost(t *testing.T) {
	var read runtime.Renderer
	for _, e := range rows.Entries() {
		if e.Key == "read" {
			read = e.Formatter.(runtime.Renderer)
		}
	}
	require.NotNil(t, read)
	run := func(n int, text string) ([]string, error) {
		res := runtime.Result{Content: make([]runtime.Content, n)}
		for i := range res.Content {
			res.Content[i] = runtime.Content{Type: "text", Text: text}
		}
		req := runtime.Request{Tool: "read", Input: value.NewObject("path", "/a"), Limits: celfmt.DefaultLimits,
			Result: res.Object()}
		lines, _, err := read.Expand(req)
		return lines, err
	}
	_, err := run(1_100_000, "") // more than celrt.MaxSteps
	assert.True(t, errors.Is(err, celrt.ErrSteps) || errors.Is(err, celrt.ErrBudget), "%v", err)
	_, err = run(9, strings.Repeat("x", 1<<20))
	assert.ErrorIs(t, err, celrt.ErrBudget)
	lines, err := run(2, "a\n")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "a", ""}, lines)
}

// TestNativeStopsAtTheInterpretersBudget: an input far beyond a catalog's
// bounds makes a formatter build strings and lists in proportion to it.
// Generated code charges the same calls the same sizes as the
// interpreter, before making them: both stop at the same call, with the
// same error (celrt.ErrBudget, the same message), where generated code
// used to build whatever the input asked for.
func TestNativeStopsAtTheInterpretersBudget(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "catalogs", "good", "budget.yaml"))
	require.NoError(t, err)
	checked, err := celfmt.Load("budget.yaml", src, celfmt.Options{})
	require.NoError(t, err)
	native := map[string]runtime.Formatter{}
	for _, e := range budget.Entries() {
		native[e.Key] = e.Formatter
	}
	mib := func(n float64, s string) string { return strings.Repeat(s, int(n*(1<<20))/len(s)) }
	items := func(n int, s string) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = s
		}
		return out
	}
	cases := []struct {
		tool  string
		input *value.Object
		fails bool
	}{
		{"widen", value.NewObject("a", mib(2, "x")), true},
		{"widen", value.NewObject("a", mib(1.0/16, "x")), false},
		{"widen", value.NewObject("a", mib(1.0/16, "y")), false}, // nothing to replace
		{"repeat", value.NewObject("items", items(9, "i"), "text", mib(1, "t")), true},
		{"repeat", value.NewObject("items", items(3, "i"), "text", mib(1.0/16, "t")), false},
		{"quote", value.NewObject("text", mib(2, "a")), true},
		{"quote", value.NewObject("text", mib(1, "a")), true},
		{"quote", value.NewObject("text", mib(1.0/16, "a")), false},
		{"pieces", value.NewObject("text", mib(1, "a")), true},
		{"pieces", value.NewObject("text", mib(1.0/16, "a")), false},
		{"dump", value.NewObject("a", mib(1, "a")), true},
		{"dump", value.NewObject("a", mib(1.0/16, "a")), false},
		{"dump", value.NewObject("a", mib(1, "\u0001")), true},
		{"absorbed", value.NewObject("text", mib(2, "a")), true},
		{"absorbed", value.NewObject("text", mib(1.0/16, "a")), false},
		{"decided", value.NewObject("n", value.NumberOf(1), "text", mib(2, "a")), false},
		{"decided", value.NewObject("n", value.NumberOf(5), "text", mib(2, "a")), true},
		{"decided", value.NewObject("n", "five", "text", mib(2, "a")), true}, // the left fails: the right runs
	}
	for _, c := range cases {
		f := checked.Formatters[slices.IndexFunc(checked.Formatters, func(f *celfmt.Formatter) bool { return f.Entry.Tool == c.tool })]
		var interp, nat outcome
		interp.Text, interp.OK, interp.Err = f.Run(c.input, c.tool, celfmt.DefaultLimits)
		nat.Text, nat.OK, nat.Err = native[c.tool].Format(runtime.Request{Tool: c.tool, Input: c.input, Limits: celfmt.DefaultLimits})
		if c.fails {
			assert.ErrorIs(t, interp.Err, celfmt.ErrBudget, c.tool)
			assert.ErrorIs(t, nat.Err, celrt.ErrBudget, c.tool)
			if interp.Err != nil && nat.Err != nil {
				assert.Equal(t, interp.Err.Error(), nat.Err.Error(), c.tool)
			}
			continue
		}
		assert.NoError(t, interp.Err, c.tool)
		assert.NoError(t, nat.Err, c.tool)
		assert.Equal(t, interp.Text, nat.Text, c.tool)
	}
}

// A slot computes the lets it reads and no other, in both backends: a let
// only the preview reads fails the preview and leaves the tier and the
// row as they are.
func TestSlotsComputeTheLetsTheyRead(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "catalogs", "good", "slotlets.yaml"))
	require.NoError(t, err)
	checked, err := celfmt.Load("slotlets.yaml", src, celfmt.Options{})
	require.NoError(t, err)
	interp := checked.Formatters[0]
	tier, ok := interp.TierExpr()
	require.True(t, ok)
	assert.Equal(t, []bool{true, false, false}, tier.Lets, "the tier reads name")
	assert.Equal(t, []bool{true, true, true}, interp.Preview().Lets, "the preview reads target, which reads count")
	native := slotlets.Entries()[0].Formatter.(interface {
		runtime.Formatter
		runtime.Tierer
		runtime.Renderer
	})
	req := runtime.Request{Tool: "scale", Input: value.NewObject("name", "prod-db", "replicas", "many"), Limits: celfmt.DefaultLimits}
	for name, f := range map[string]interface {
		runtime.Formatter
		runtime.Tierer
		runtime.Renderer
	}{"interpreter": interp, "generated": native} {
		tier, err := f.Tier(req)
		require.NoError(t, err, name)
		assert.Equal(t, runtime.TierExecute, tier, name)
		row, ok, err := f.Row(req)
		require.NoError(t, err, name)
		assert.True(t, ok, name)
		assert.Equal(t, "scale prod-db", row, name)
		_, _, err = f.Format(req)
		assert.EqualError(t, err, "let count: type conversion error from 'string' to 'int'", name)
	}
}

// randomInput is an input for the formatters of the random catalog: its
// fields (s, t, n, m, d, b, tags, nums, meta) of their declared types, of
// others, or absent, as the choice bytes say.
func randomInput(choice []byte) *value.Object {
	next := func(n int) int {
		if len(choice) == 0 {
			return 0
		}
		c := int(choice[0])
		choice = choice[1:]
		return c % n
	}
	strs := []any{"", "a", "alpha", "x,y", "Héllo Wörld", "%", "e\u0301", "  pad  ", strings.Repeat("ab", 40), "a,b,,c"}
	ints := []any{int64(0), int64(1), int64(-1), int64(3), int64(7), int64(40), int64(9223372036854775807), int64(-9223372036854775808)}
	dbls := []any{0.0, 1.5, -0.25, 1e300, math.Copysign(0, -1), 2.0}
	pick := func(kind string) any {
		switch next(6) {
		case 0:
			return nil // null
		case 1:
			return strs[next(len(strs))] // maybe another type
		}
		switch kind {
		case "s":
			return strs[next(len(strs))]
		case "n":
			return ints[next(len(ints))]
		case "d":
			return dbls[next(len(dbls))]
		case "b":
			return next(2) == 0
		case "tags":
			l := make([]any, next(4))
			for i := range l {
				l[i] = strs[next(len(strs))]
			}
			return l
		case "nums":
			l := make([]any, next(4))
			for i := range l {
				l[i] = ints[next(len(ints))]
			}
			return l
		}
		var pairs []any
		seen := map[string]bool{}
		for range next(3) {
			if k := strs[next(len(strs))].(string); !seen[k] {
				seen[k] = true
				pairs = append(pairs, k, strs[next(len(strs))])
			}
		}
		return value.NewObject(pairs...)
	}
	var pairs []any
	for _, f := range [][2]string{{"s", "s"}, {"t", "s"}, {"n", "n"}, {"m", "n"}, {"d", "d"}, {"b", "b"}, {"tags", "tags"}, {"nums", "nums"}, {"meta", "meta"}} {
		if next(5) != 0 {
			pairs = append(pairs, f[0], pick(f[1]))
		}
	}
	return value.NewObject(pairs...)
}

// randomPairs are the formatters of the random catalog, interpreted and
// translated.
func randomPairs(t testing.TB) (interp []*celfmt.Formatter, native map[string]runtime.Formatter) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "catalogs", "good", "random.yaml"))
	require.NoError(t, err)
	checked, err := celfmt.Load("random.yaml", src, celfmt.Options{SkipExamples: true})
	require.NoError(t, err)
	native = map[string]runtime.Formatter{}
	for _, e := range random.Entries() {
		native[e.Key] = e.Formatter
	}
	return checked.Formatters, native
}

// TestRandomCatalogAgrees runs each formatter of the random catalog (go run
// ./gen/internal/randcat writes it: random well-typed CEL over a declared
// input and over one no schema declares) on inputs of every shape, well
// and ill typed, through the interpreter and through its translation, and
// requires the same text, decline or failure.
func TestRandomCatalogAgrees(t *testing.T) {
	interp, native := randomPairs(t)
	require.NotEmpty(t, interp)
	r := rand.New(rand.NewPCG(1, 2))
	compared, failures := 0, 0
	for _, f := range interp {
		nf := native[f.Entry.Tool]
		require.NotNil(t, nf, f.Entry.Tool)
		for range 60 {
			choice := make([]byte, 48)
			for i := range choice {
				choice[i] = byte(r.IntN(256))
			}
			in := randomInput(choice)
			var want, got outcome
			want.Text, want.OK, want.Err = f.Run(in, f.Entry.Tool, celfmt.DefaultLimits)
			if resourceFailure(want.Err) {
				continue
			}
			got.Text, got.OK, got.Err = nf.Format(runtime.Request{Tool: f.Entry.Tool, Input: in, Limits: celfmt.DefaultLimits})
			compared++
			if want.Err != nil {
				failures++
			}
			if !agree(got, want) {
				t.Errorf("%s disagrees at %s\npreview:     %s\ninput:       %s\nnative:      %v\ninterpreted: %v",
					f.Entry.Tool, f.Entry.Pos, f.Entry.Preview.Text, textfmt.CompactJSON(in), got, want)
			}
			req := runtime.Request{Tool: f.Entry.Tool, Input: in, Limits: celfmt.DefaultLimits}
			if wantTier, gotTier := tierOutcome(f, req), tierOutcome(nf, req); !resourceFailure(wantTier.Err) && !agreeSlot(gotTier, wantTier) {
				t.Errorf("the tier of %s disagrees at %s\ninput:       %s\nnative:      %v\ninterpreted: %v",
					f.Entry.Tool, f.Entry.Pos, textfmt.CompactJSON(in), gotTier, wantTier)
			}
			// The row, and the result line of a result made of the input.
			req.Result = runtime.Result{Content: []runtime.Content{{Type: "text", Text: textfmt.CompactJSON(in)}},
				Details: in, IsError: len(choice) > 0 && choice[0]%2 == 0}.Object()
			for slot, run := range map[string]func(runtime.Renderer) (string, bool, error){
				"row":    func(r runtime.Renderer) (string, bool, error) { return r.Row(req) },
				"result": func(r runtime.Renderer) (string, bool, error) { return r.Result(req) },
			} {
				var want, got outcome
				want.Text, want.OK, want.Err = run(f)
				if resourceFailure(want.Err) {
					continue
				}
				// Generated registrations of entries without rows are no
				// renderers: the dispatcher's default, as the
				// interpreter's declining.
				if gr, ok := nf.(runtime.Renderer); ok {
					got.Text, got.OK, got.Err = run(gr)
				}
				if !agree(got, want) {
					t.Errorf("the %s of %s disagrees at %s\ninput:       %s\nnative:      %v\ninterpreted: %v",
						slot, f.Entry.Tool, f.Entry.Pos, textfmt.CompactJSON(in), got, want)
				}
			}
		}
	}
	t.Logf("%d calls compared, %d of them failures", compared, failures)
	assert.Positive(t, failures, "the inputs make some calls fail")
}

// FuzzRandomCatalog is TestRandomCatalogAgrees on fuzzed inputs.
func FuzzRandomCatalog(f *testing.F) {
	interp, native := randomPairs(f)
	f.Add(uint8(0), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add(uint8(7), []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, idx uint8, choice []byte) {
		fm := interp[int(idx)%len(interp)]
		in := randomInput(choice)
		var want, got outcome
		want.Text, want.OK, want.Err = fm.Run(in, fm.Entry.Tool, celfmt.DefaultLimits)
		if resourceFailure(want.Err) {
			return
		}
		got.Text, got.OK, got.Err = native[fm.Entry.Tool].Format(runtime.Request{Tool: fm.Entry.Tool, Input: in, Limits: celfmt.DefaultLimits})
		if !agree(got, want) {
			t.Fatalf("%s disagrees\npreview:     %s\ninput:       %s\nnative:      %v\ninterpreted: %v",
				fm.Entry.Tool, fm.Entry.Preview.Text, textfmt.CompactJSON(in), got, want)
		}
	})
}
