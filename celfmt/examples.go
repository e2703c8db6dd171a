package celfmt

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/cel-go/common/types/ref"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/textfmt"
	"github.com/permgen/permgen/runtime/value"
)

// ExampleResult is the outcome of one example.
type ExampleResult struct {
	Formatter *Formatter
	N         int // 1-based index among the entry's examples
	Example   Example
	Text      string // what the formatter returned
	Declined  bool
	// Calls is what Unwrap returned, when the example states calls.
	Calls []runtime.InnerCall
	// Tier is what Tier returned, when the example states a tier.
	Tier runtime.Tier
	Err  error
	// Problem says what is wrong, or is "" when the example passed.
	Problem string
	// Want and Got say what the example expects and what the formatter
	// returned, when it returned something else: "preview \"x\"", "a
	// decline", "calls [...]", "tier read", "row \"x\"", "a decline of
	// row", "result \"x\"", "error \"x\"", "expand [...]". They are ""
	// otherwise.
	Want, Got string
	at        Pos // where the problem is, when not where Pos says
}

// Pos returns where a failure is reported: the expected calls, tier, row,
// result, error or expand when they are what failed, else the expected
// preview, or the example itself.
func (r ExampleResult) Pos() Pos {
	switch {
	case r.at != (Pos{}):
		return r.at
	case r.Example.Declines || r.Example.PreviewPos == (Pos{}):
		return r.Example.Pos
	}
	return r.Example.PreviewPos
}

// examplesCostFactor is how many evaluations' cost limits the examples of
// a catalog may spend together when it is checked.
const examplesCostFactor = 20

// RunExamples runs the formatter's examples with the default limits.
func (f *Formatter) RunExamples() []ExampleResult {
	left := ^uint64(0)
	return f.runExamples(&left)
}

// runExamples runs the examples, spending at most *left in all.
func (f *Formatter) runExamples(left *uint64) []ExampleResult {
	results := make([]ExampleResult, 0, len(f.Entry.Examples))
	for i, ex := range f.Entry.Examples {
		if ex.mistyped {
			continue // reported where the value is
		}
		r := ExampleResult{Formatter: f, N: i + 1, Example: ex}
		if *left == 0 {
			r.Problem = fmt.Sprintf("example %d not run: the examples of the catalog spent %d, all they may",
				r.N, examplesCostFactor*f.opts.CostLimit)
			results = append(results, r)
			continue
		}
		obj, _ := ex.Input.(*value.Object)
		tool := f.Entry.Tool
		if ex.Tool != "" {
			tool = ex.Tool
		}
		limits := withDefaults(ex.Limits)
		// run evaluates c, when the entry has it, within what is left.
		run := func(c *compiled, use func(ref.Val) error) error {
			return f.runExample(c, obj, nil, tool, limits, left, use)
		}
		if ex.ChecksPreview() {
			r.Declined = true
			err := run(&f.preview, func(out ref.Val) (err error) {
				var ok bool
				r.Text, ok, err = result(out)
				r.Declined = !ok
				return err
			})
			r.checkPreview(err)
		}
		if r.Problem == "" && ex.HasCalls {
			err := run(&f.unwrap, func(out ref.Val) (err error) {
				r.Calls, _, err = innerCalls(out)
				return err
			})
			r.checkCalls(err)
		}
		if r.Problem == "" && ex.Tier != runtime.TierUnknown {
			r.Tier = f.tier
			err := run(&f.tierExpr, func(out ref.Val) (err error) {
				r.Tier, err = tierValue(out)
				return err
			})
			r.checkTier(err)
		}
		if r.Problem == "" {
			f.runRenderExamples(&r, obj, tool, limits, left)
		}
		results = append(results, r)
	}
	return results
}

// runExample evaluates c, when the entry has it, within what is left of
// the examples' cost.
func (f *Formatter) runExample(c *compiled, input, result *value.Object, tool string, limits Limits, left *uint64,
	use func(ref.Val) error) error {
	if c.ast == nil {
		return nil
	}
	if *left == 0 {
		// Spent by the example's earlier slots: a cost limit of 0 would
		// read as if this one had cost too much.
		return fmt.Errorf("not run: the examples of the catalog spent %d, all they may", examplesCostFactor*f.opts.CostLimit)
	}
	b := newBudget(f.opts.MemoryBudget, min(f.opts.CostLimit, *left))
	err := f.format(c, input, result, tool, limits, b, use)
	*left -= min(b.cost, *left)
	return err
}

// runRenderExamples checks what an example expects of the row, result,
// error and expand slots.
func (f *Formatter) runRenderExamples(r *ExampleResult, input *value.Object, tool string, limits Limits, left *uint64) {
	ex := r.Example
	type expectation struct {
		slot  renderSlot
		want  string
		at    Pos
		lines []string
	}
	var checks []expectation
	if ex.ChecksRow() {
		checks = append(checks, expectation{slot: slotRow, want: ex.Row, at: ex.RowPos})
	}
	if ex.TitlePos != (Pos{}) && f.Entry.HasTitleExpr() {
		checks = append(checks, expectation{slot: slotTitle, want: ex.Title, at: ex.TitlePos})
	}
	if ex.Output != nil {
		if ex.ResultPos != (Pos{}) {
			checks = append(checks, expectation{slot: slotResult, want: ex.Result, at: ex.ResultPos})
		}
		if ex.ErrorPos != (Pos{}) {
			checks = append(checks, expectation{slot: slotError, want: ex.Error, at: ex.ErrorPos})
		}
		if ex.ExpandPos != (Pos{}) {
			checks = append(checks, expectation{slot: slotExpand, at: ex.ExpandPos, lines: ex.Expand})
		}
	}
	for _, x := range checks {
		var text string
		var lines []string
		ok := false
		err := f.runExample(&f.render[x.slot], input, resultOf(x.slot, ex.Output), tool, limits, left, func(out ref.Val) (err error) {
			if x.slot == slotExpand {
				lines, ok, err = expandValue(out)
			} else {
				text, ok, err = textValue(x.slot.String(), out)
			}
			return err
		})
		name := x.slot.String()
		got := fmt.Sprintf("%s %q", name, text)
		want := fmt.Sprintf("%s %q", name, x.want)
		if x.slot == slotExpand {
			got, want = name+" "+describeLines(lines), name+" "+describeLines(x.lines)
		}
		if !ok {
			got = "a decline of " + name
		}
		wantDecline := x.slot == slotRow && ex.RowDeclines
		if wantDecline {
			want = "a decline of " + name
		}
		switch {
		case err != nil:
			r.Err, r.Problem = err, fmt.Sprintf("example %d: %s fails: %v", r.N, name, err)
		case wantDecline && ok:
			r.Problem = fmt.Sprintf("example %d: want the %s to decline, got %s", r.N, name, got)
		case wantDecline:
			continue
		case !ok:
			r.Problem = fmt.Sprintf("example %d: %s declines, want %s", r.N, name, want)
		case x.slot == slotExpand && !slices.Equal(lines, x.lines):
			r.Problem = fmt.Sprintf("example %d: %s is %s, want %s", r.N, name, describeLines(lines), describeLines(x.lines))
		case x.slot != slotExpand && text != x.want:
			r.Problem = fmt.Sprintf("example %d: %s is %q, want %q", r.N, name, text, x.want)
		default:
			continue
		}
		if err == nil {
			r.Want, r.Got = want, got
		}
		r.at = x.at
		return
	}
}

// describeLines prints lines as a JSON list for a diagnostic.
func describeLines(lines []string) string {
	return describeList(len(lines), func(i int) string { return strconv.Quote(lines[i]) })
}

// maxDescribed is about how many bytes an example's diagnostic shows of
// a list it describes: a catalog's example can make a list of thousands
// of calls, which a message need not repeat.
const maxDescribed = 2000

// describeList describes a list of n elements, each as part gives it, up
// to about maxDescribed bytes, then counts the rest.
func describeList(n int, part func(i int) string) string {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		if b.Len() > maxDescribed {
			b.WriteString(textfmt.Ellipsis + " " + textfmt.CountPhrase(n-i, "more", "more"))
			break
		}
		b.WriteString(textfmt.Truncate(part(i), maxDescribed))
	}
	b.WriteString("]")
	return b.String()
}

func (r *ExampleResult) checkPreview(err error) {
	ex := r.Example
	r.Want, r.Got = fmt.Sprintf("preview %q", ex.Preview), fmt.Sprintf("preview %q", r.Text)
	if ex.Declines {
		r.Want = "a decline"
	}
	if r.Declined {
		r.Got = "a decline"
	}
	switch {
	case err != nil:
		r.Err, r.Problem = err, fmt.Sprintf("example %d fails: %v", r.N, err)
	case ex.Declines && !r.Declined:
		r.Problem = fmt.Sprintf("example %d: want a decline, got preview %q", r.N, r.Text)
	case !ex.Declines && r.Declined:
		r.Problem = fmt.Sprintf("example %d: declines, want preview %q", r.N, ex.Preview)
	case !ex.Declines && r.Text != ex.Preview:
		r.Problem = fmt.Sprintf("example %d: preview is %q, want %q", r.N, r.Text, ex.Preview)
	}
	if r.Problem == "" || err != nil {
		r.Want, r.Got = "", ""
	}
}

func (r *ExampleResult) checkCalls(err error) {
	ex := r.Example
	switch {
	case err != nil:
		r.Err, r.Problem = err, fmt.Sprintf("example %d: unwrap fails: %v", r.N, err)
	case !sameCalls(ex.Calls, r.Calls):
		want, got := describeExampleCalls(ex.Calls), describeCalls(r.Calls)
		r.Want, r.Got = "calls "+want, "calls "+got
		r.Problem = fmt.Sprintf("example %d: unwrap returns %s, want %s", r.N, got, want)
	default:
		return
	}
	r.at = ex.CallsPos
}

func (r *ExampleResult) checkTier(err error) {
	ex := r.Example
	switch {
	case err != nil:
		r.Err, r.Problem = err, fmt.Sprintf("example %d: tier fails: %v", r.N, err)
	case r.Tier != ex.Tier:
		r.Want, r.Got = "tier "+tierName(ex.Tier), "tier "+tierName(r.Tier)
		r.Problem = fmt.Sprintf("example %d: tier is %s, want %s", r.N, tierName(r.Tier), tierName(ex.Tier))
	default:
		return
	}
	r.at = ex.TierPos
}

// tierName names a tier, "unknown" for TierUnknown.
func tierName(t runtime.Tier) string {
	if t == runtime.TierUnknown {
		return "unknown"
	}
	return t.String()
}

// sameCalls compares the calls an example expects with those Unwrap
// returned: the same tools and kinds, and inputs that are equal as CEL's ==
// compares them (objects whatever their key order, numbers by value; a
// string input is compared as a string).
func sameCalls(want []ExampleCall, got []runtime.InnerCall) bool {
	if len(want) != len(got) {
		return false
	}
	for i, w := range want {
		g := got[i]
		if w.Tool != g.Tool || w.Kind != g.Kind || !celrt.Equal(w.Input, g.Input) {
			return false
		}
	}
	return true
}

// describeCalls prints calls as a JSON list for a diagnostic.
func describeCalls(calls []runtime.InnerCall) string {
	return describeList(len(calls), func(i int) string { return describeCall(calls[i].Tool, calls[i].Input, calls[i].Kind) })
}

func describeExampleCalls(calls []ExampleCall) string {
	return describeList(len(calls), func(i int) string { return describeCall(calls[i].Tool, calls[i].Input, calls[i].Kind) })
}

func describeCall(tool string, input any, kind string) string {
	s := `{"tool": ` + strconv.Quote(tool)
	switch in := input.(type) {
	case nil:
	case string:
		s += `, "input": ` + strconv.Quote(in)
	default:
		js := textfmt.CompactJSON(in)
		if js == "" {
			js = "{}"
		}
		s += `, "input": ` + js
	}
	if kind != "" {
		s += `, "kind": ` + strconv.Quote(kind)
	}
	return s + "}"
}
