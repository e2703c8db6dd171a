package celfmt

import (
	"fmt"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/permgen/permgen/runtime/value"
)

// Formatter is one checked catalog entry, ready to run. It is safe for
// concurrent use.
type Formatter struct {
	Entry    *Entry
	optional bool
	lets     []compiled
	preview  compiled
	opts     Options
}

// Optional reports whether the preview's type is optional_type(string),
// that is, whether it may decline.
func (f *Formatter) Optional() bool { return f.optional }

// Run evaluates the formatter on a call's input. ok is false when the
// expression returns optional.none() (a decline). An error (a runtime error,
// the cost limit, the memory budget (ErrBudget) or a declared field of
// another type) is a failure the caller must not show.
//
// The input is not measured first: however large it is, a formatter that
// reads a short field stays cheap, and one that reads a long field is
// bounded by the cost limit and the memory budget.
func (f *Formatter) Run(input *value.Object, tool string, limits Limits) (text string, ok bool, err error) {
	return f.format(input, tool, limits, newBudget(f.opts.MemoryBudget, f.opts.CostLimit))
}

// format evaluates the formatter within budget b.
func (f *Formatter) format(input *value.Object, tool string, limits Limits, b *budget) (text string, ok bool, err error) {
	if input == nil {
		input = value.Input{}.Object()
	}
	vars := &activation{
		input:  objectVal{o: input, a: adapter{base: types.DefaultTypeAdapter}},
		tool:   types.String(tool),
		limits: limitsVal(limits),
		budget: b,
	}
	if len(f.lets) > 0 {
		vars.lets = make(map[string]ref.Val, len(f.lets))
	}
	for _, l := range f.lets {
		v, _, err := l.prg.Eval(vars)
		if b.err != nil {
			err = b.err
		}
		if err != nil {
			return "", false, fmt.Errorf("let %s: %w", l.name, err)
		}
		vars.lets[l.name] = v
	}
	out, _, err := f.preview.prg.Eval(vars)
	if b.err != nil {
		err = b.err
	}
	if err != nil {
		return "", false, err
	}
	return result(out)
}

func result(v ref.Val) (string, bool, error) {
	switch v := v.(type) {
	case types.String:
		return string(v), true, nil
	case *types.Optional:
		if !v.HasValue() {
			return "", false, nil
		}
		if s, ok := v.GetValue().(types.String); ok {
			return string(s), true, nil
		}
	}
	return "", false, fmt.Errorf("preview returned %s, not a string", v.Type().TypeName())
}
