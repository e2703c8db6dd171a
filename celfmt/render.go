package celfmt

import (
	"fmt"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/permgen/permgen/runtime"
	"github.com/permgen/permgen/runtime/celrt"
	"github.com/permgen/permgen/runtime/value"
)

// The slots of rows and results: the one-line transcript row of a call
// (row), the one-line summary of its result (result) or of its failure
// (error), the lines shown on demand (expand) and the display name of one
// call (title). Result, error and expand see the variable result, the
// call's result.

var (
	_ runtime.Renderer  = (*Formatter)(nil)
	_ runtime.Presenter = (*Formatter)(nil)
	_ runtime.Titler    = (*Formatter)(nil)
)

// varResult is the variable of the result, error and expand slots.
const varResult = "result"

// resultTypeName is the object type of the variable result: content, a
// list of maps such as {"type": "text", "text": "…"}; details, any value;
// isError, a bool; text, the text of the text items (runtime.Result.Text).
// A field the result lacks reads as its zero value, as a declared input
// field does.
const resultTypeName = "permgen.Result"

// resultFields are the fields of the variable result, in order.
var resultFields = []struct {
	name string
	t    *types.Type
}{
	{"content", types.NewListType(types.NewMapType(types.StringType, types.DynType))},
	{"details", types.DynType},
	{"isError", types.BoolType},
	{"text", types.StringType},
}

// ResultType returns the CEL type of the variable result.
func ResultType() *cel.Type { return cel.ObjectType(resultTypeName) }

// declareResult declares the object type of the variable result.
func (p *provider) declareResult() {
	decl := &objectDecl{fields: map[string]*types.FieldType{}}
	for _, f := range resultFields {
		name, t := f.name, f.t
		decl.names = append(decl.names, name)
		decl.fields[name] = objectField(name, t, "result", func(o *value.Object) (any, error) {
			v, _ := o.Get(name)
			if v == nil {
				return zeroValue(t), nil
			}
			c, err := conform(v, t)
			if err != nil {
				return nil, fmt.Errorf("result field %s: %w", name, err)
			}
			return c, nil
		})
	}
	p.objects[resultTypeName] = decl
}

// renderSlot names a slot of rows and results.
type renderSlot int

// The slots of rows and results, in the order the catalog documents them.
const (
	slotRow renderSlot = iota
	slotResult
	slotError
	slotExpand
	// slotTitle is last so that the slots before it keep their places in
	// the tables of generated code.
	slotTitle
	renderSlots
)

var renderSlotNames = [renderSlots]string{"row", "result", "error", "expand", "title"}

func (s renderSlot) String() string { return renderSlotNames[s] }

// seesResult reports whether the slot sees the variable result.
func (s renderSlot) seesResult() bool { return s != slotRow && s != slotTitle }

// source returns the entry's expression of a slot.
func (e *Entry) source(s renderSlot) *Source {
	switch s {
	case slotRow:
		return &e.Row
	case slotResult:
		return &e.Result
	case slotError:
		return &e.Error
	case slotTitle:
		return &e.TitleExpr
	}
	return &e.Expand
}

// hasRender reports whether the entry has any slot of rows and results.
func (e *Entry) hasRender() bool {
	return e.HasRow() || e.HasResult() || e.HasError() || e.HasExpand() || e.HasTitleExpr()
}

// Presentation returns the title, category and icons the entry declares:
// it makes a Formatter a runtime.Presenter. Title is "" when the entry has
// none, and the dispatcher derives one from the tool name.
func (f *Formatter) Presentation() runtime.Presentation { return f.Entry.Presentation() }

// Row renders the transcript row of a call, while its arguments arrive
// (req.Partial) and after: it makes a Formatter a runtime.Renderer with
// Result, ErrorLine and Expand. ok is false when the entry has no row or
// the expression declines. Failures are errors, as for Run.
func (f *Formatter) Row(req runtime.Request) (string, bool, error) {
	return f.renderText(slotRow, req)
}

// Title renders the display name of one call, as Peekaboo's
// formatForTitle does (App Launch: Safari): it makes a Formatter a
// runtime.Titler. ok is false when the entry has no title expression or
// the expression declines; rows then show the entry's static title.
func (f *Formatter) Title(req runtime.Request) (string, bool, error) {
	return f.renderText(slotTitle, req)
}

// Result renders the one-line summary of a finished call from its input
// and req.Result (nil is an empty result).
func (f *Formatter) Result(req runtime.Request) (string, bool, error) {
	return f.renderText(slotResult, req)
}

// ErrorLine renders the one-line summary of a failed call from its input
// and req.Result (nil is an empty result).
func (f *Formatter) ErrorLine(req runtime.Request) (string, bool, error) {
	return f.renderText(slotError, req)
}

// Expand renders the lines of a call's result shown on demand, from its
// input and req.Result (nil is an empty result). ok is false when the
// entry has no expand or the expression declines.
func (f *Formatter) Expand(req runtime.Request) (lines []string, ok bool, err error) {
	lines, ok, _, err = f.expandLines(req.Input, req.Result, req.Tool, req.Limits)
	return lines, ok, err
}

// renderText evaluates a slot of type string or optional_type(string).
func (f *Formatter) renderText(s renderSlot, req runtime.Request) (text string, ok bool, err error) {
	text, ok, _, err = f.renderTextOf(s, req.Input, req.Result, req.Tool, req.Limits)
	return text, ok, err
}

// renderTextOf is renderText, which also reports whether the evaluation
// was metered.
func (f *Formatter) renderTextOf(s renderSlot, input, result *value.Object, tool string, limits Limits) (text string, ok, metered bool, err error) {
	c := &f.render[s]
	if c.ast == nil {
		return "", false, false, nil
	}
	metered, err = f.runSlot(c, f.renderUnmetered[s], input, resultOf(s, result), tool, limits, nil, func(out ref.Val) (err error) {
		text, ok, err = textValue(s.String(), out)
		return err
	})
	if err != nil {
		return "", false, metered, err
	}
	return text, ok, metered, nil
}

// expandLines is Expand, which also reports whether the evaluation was
// metered.
func (f *Formatter) expandLines(input, result *value.Object, tool string, limits Limits) (lines []string, ok, metered bool, err error) {
	c := &f.render[slotExpand]
	if c.ast == nil {
		return nil, false, false, nil
	}
	metered, err = f.runSlot(c, f.renderUnmetered[slotExpand], input, resultOf(slotExpand, result), tool, limits, nil,
		func(out ref.Val) (err error) {
			lines, ok, err = expandValue(out)
			return err
		})
	if err != nil {
		return nil, false, metered, err
	}
	return lines, ok, metered, nil
}

// resultOf is the object the variable result holds in a slot: an empty
// one for a nil result, nil in a slot that does not see it.
func resultOf(s renderSlot, result *value.Object) *value.Object {
	if !s.seesResult() {
		return nil
	}
	return celrt.ResultOf(result)
}

// textValue converts the value of a slot of type string or
// optional_type(string).
func textValue(what string, v ref.Val) (string, bool, error) {
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
	return "", false, fmt.Errorf("%s returned %s, not a string", what, v.Type().TypeName())
}

// expandValue converts the value of an expand expression: a list of
// strings, or an optional of one.
func expandValue(v ref.Val) ([]string, bool, error) {
	if o, ok := v.(*types.Optional); ok {
		if !o.HasValue() {
			return nil, false, nil
		}
		v = o.GetValue()
	}
	l, ok := v.(traits.Lister)
	if !ok {
		return nil, false, fmt.Errorf("expand returned %s, not a list of strings", v.Type().TypeName())
	}
	n, _ := l.Size().(types.Int)
	lines := make([]string, 0, int(n))
	for it := l.Iterator(); it.HasNext() == types.True; {
		s, ok := it.Next().(types.String)
		if !ok {
			return nil, false, fmt.Errorf("expand: line %d is not a string", len(lines)+1)
		}
		lines = append(lines, string(s))
	}
	return lines, true, nil
}

// renderProblem says why the checked type of a slot of rows and results
// is not the slot's, or returns "".
func renderProblem(s renderSlot, c compiled, lets []compiled) string {
	if s != slotExpand {
		_, problem := textTypeProblem(s.String(), c, lets)
		return problem
	}
	out := c.ast.OutputType()
	switch {
	case out.IsExactType(cel.ListType(cel.StringType)), out.IsExactType(cel.OptionalType(cel.ListType(cel.StringType))):
		return ""
	case out.IsExactType(cel.OptionalType(cel.DynType)) && alwaysNone(c.ast.NativeRep().Expr(), lets):
		return ""
	case out.Kind() == types.DynKind:
		return "expand has type dyn: build a list of strings, as in input.lines.map(l, string(l))"
	case out.Kind() == types.ListKind && out.Parameters()[0].Kind() != types.StringKind:
		return fmt.Sprintf("expand must have type list(string) or optional_type(list(string)), got %s: "+
			"convert each line to a string, as in .map(x, string(x))", out)
	}
	return fmt.Sprintf("expand must have type list(string) or optional_type(list(string)), got %s", out)
}

// textTypeProblem checks the type of a slot of text (a preview, a row, a
// result or an error): string or optional_type(string). It reports
// whether the slot may decline, or says why its type is wrong.
func textTypeProblem(what string, c compiled, lets []compiled) (optional bool, problem string) {
	switch out := c.ast.OutputType(); {
	case out.IsExactType(cel.StringType):
	case out.IsExactType(cel.OptionalType(cel.StringType)):
		return true, ""
	case out.Kind() == types.DynKind:
		return false, what + " has type dyn: wrap it in string(...) so that its type is string"
	case out.IsExactType(cel.OptionalType(cel.DynType)) && alwaysNone(c.ast.NativeRep().Expr(), lets):
		// optional.none() is optional_type(dyn) only because it holds no
		// value: it is the documented way to decline, of any optional type.
		return true, ""
	case out.IsExactType(cel.OptionalType(cel.DynType)):
		return false, what + " has type optional_type(dyn): give the optional a string, " +
			"as in optional.of(string(x)); a " + what + " that always declines is optional.none()"
	default:
		return false, fmt.Sprintf("%s must have type string or optional_type(string), got %s", what, out)
	}
	return false, ""
}
