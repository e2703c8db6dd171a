package celfmt

import (
	"errors"
	"fmt"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// ErrInputTooLarge is returned by Formatter.Format for input beyond the
// bounds of Options.
var ErrInputTooLarge = errors.New("input too large")

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

// Format evaluates the formatter on a call's input. ok is false when the
// expression returns optional.none() (a decline). An error (a runtime error,
// the cost limit, input beyond the bounds or a declared field of another
// type) is a failure the caller must not show.
func (f *Formatter) Format(input *Object, tool string, limits Limits) (text string, ok bool, err error) {
	if input == nil {
		input = &emptyObject
	}
	if err := checkBounds(input, f.opts); err != nil {
		return "", false, err
	}
	a := adapter{base: types.DefaultTypeAdapter}
	vars := map[string]any{
		"input":  objectVal{o: input, a: a},
		"tool":   types.String(tool),
		"limits": limitsVal(limits),
	}
	for _, l := range f.lets {
		v, _, err := l.prg.Eval(vars)
		if err != nil {
			return "", false, fmt.Errorf("let %s: %w", l.name, err)
		}
		vars[l.name] = v
	}
	out, _, err := f.preview.prg.Eval(vars)
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

// checkBounds walks the input once and fails when it holds more text than
// MaxInputBytes or a list or object longer than MaxItems.
func checkBounds(input *Object, o Options) error {
	budget := o.MaxInputBytes
	var walk func(v any, depth int) error
	walk = func(v any, depth int) error {
		if depth > MaxDepth {
			return fmt.Errorf("%w: nested deeper than %d", ErrInputTooLarge, MaxDepth)
		}
		switch v := v.(type) {
		case string:
			budget -= len(v)
		case []any:
			if len(v) > o.MaxItems {
				return fmt.Errorf("%w: a list of %d items, more than %d", ErrInputTooLarge, len(v), o.MaxItems)
			}
			for _, e := range v {
				if err := walk(e, depth+1); err != nil {
					return err
				}
			}
		case *Object:
			if v.Len() > o.MaxItems {
				return fmt.Errorf("%w: an object of %d keys, more than %d", ErrInputTooLarge, v.Len(), o.MaxItems)
			}
			for k, e := range v.All() {
				budget -= len(k)
				if err := walk(e, depth+1); err != nil {
					return err
				}
			}
		default:
			budget -= 8
		}
		if budget < 0 {
			return fmt.Errorf("%w: more than %d bytes", ErrInputTooLarge, o.MaxInputBytes)
		}
		return nil
	}
	return walk(input, 0)
}
