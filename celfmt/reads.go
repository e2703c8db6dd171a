package celfmt

import (
	"slices"

	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/permgen/permgen/runtime"
)

// Field accounting.
//
// The dispatcher shows, after a formatter's preview, the input fields the
// formatter neither reads nor declares (see runtime.InputFields), so that a
// field no expression looks at cannot go unseen. What an entry reads is
// found in its checked expressions: a field is read where input.NAME,
// input.?NAME, has(input.NAME), input["NAME"] or input[?"NAME"] names it,
// in the preview or the unwrap expression or in a let they use, and so is
// a field of a field (input.options.force reads force of options, and
// nothing else of options), and so is the field that numberText(input,
// "NAME") or mcpValue(input, "NAME") names, and so are those that
// alternatives(input, ["NAME", …]) names; rawText(input) reads no field.
// Any other use of input (passed whole to a function, iterated, indexed
// by a computed key) reads every field.

// inputFields returns the fields a checked formatter accounts for.
func (f *Formatter) inputFields() runtime.InputFields {
	r := reads{lets: f.lets, seen: map[string]bool{}}
	for _, c := range []compiled{f.preview, f.unwrap} {
		if c.ast != nil {
			r.walk(c.ast.NativeRep().Expr(), len(f.lets))
		}
	}
	for _, d := range f.Entry.Input {
		r.paths = append(r.paths, []string{d.Name})
	}
	out := runtime.InputFields{All: r.all, Omitted: slices.Clone(f.Entry.Omits)}
	if !r.all {
		out.Read = runtime.FieldPaths(r.paths)
	}
	return out
}

// reads collects the fields expressions read.
type reads struct {
	paths [][]string
	all   bool
	lets  []compiled
	seen  map[string]bool // the lets walked
}

// walk records the reads of e, which sees the first n lets.
func (r *reads) walk(e ast.Expr, n int) {
	if path, ok := fieldRead(e); ok {
		r.paths = append(r.paths, path)
		return
	}
	switch e.Kind() {
	case ast.IdentKind:
		name := e.AsIdent()
		if name == varInput {
			r.all = true
			return
		}
		for i := n - 1; i >= 0; i-- {
			if r.lets[i].name == name {
				if !r.seen[name] {
					r.seen[name] = true
					r.walk(r.lets[i].ast.NativeRep().Expr(), i)
				}
				return
			}
		}
	case ast.CallKind:
		c := e.AsCall()
		args := c.Args()
		if c.IsMemberFunction() {
			r.walk(c.Target(), n)
		} else if len(args) > 0 && isInput(args[0]) {
			switch c.FunctionName() {
			case "numberText", "mcpValue":
				// A field named by a constant, as input.NAME.
				if len(args) != 2 {
					break
				}
				if name, ok := literalString(args[1]); ok {
					r.paths = append(r.paths, []string{name})
					return
				}
			case "alternatives":
				// Fields named by a list of constants, each as input.NAME.
				if len(args) != 2 || args[1].Kind() != ast.ListKind {
					break
				}
				var names [][]string
				constant := true
				for _, x := range args[1].AsList().Elements() {
					name, ok := literalString(x)
					constant = constant && ok
					names = append(names, []string{name})
				}
				if constant {
					r.paths = append(r.paths, names...)
					return
				}
			case "rawText":
				return // the text of an input that is not an object
			}
		}
		for _, a := range args {
			r.walk(a, n)
		}
	case ast.SelectKind:
		r.walk(e.AsSelect().Operand(), n)
	case ast.ListKind:
		for _, x := range e.AsList().Elements() {
			r.walk(x, n)
		}
	case ast.MapKind:
		for _, x := range e.AsMap().Entries() {
			r.walk(x.AsMapEntry().Key(), n)
			r.walk(x.AsMapEntry().Value(), n)
		}
	case ast.StructKind:
		for _, x := range e.AsStruct().Fields() {
			r.walk(x.AsStructField().Value(), n)
		}
	case ast.ComprehensionKind:
		c := e.AsComprehension()
		for _, x := range []ast.Expr{c.IterRange(), c.AccuInit(), c.LoopCondition(), c.LoopStep(), c.Result()} {
			r.walk(x, n)
		}
	}
}

// fieldRead returns the path of fields e reads from input by name:
// input.a.b is [a b], input["a"].?b too.
func fieldRead(e ast.Expr) ([]string, bool) {
	var path []string
	for {
		var operand ast.Expr
		switch e.Kind() {
		case ast.SelectKind:
			s := e.AsSelect()
			operand, path = s.Operand(), append(path, s.FieldName())
		case ast.CallKind:
			c := e.AsCall()
			switch c.FunctionName() {
			case operators.Index, operators.OptIndex, operators.OptSelect:
			default:
				return nil, false
			}
			args := c.Args()
			if len(args) != 2 {
				return nil, false
			}
			name, ok := literalString(args[1])
			if !ok {
				return nil, false
			}
			operand, path = args[0], append(path, name)
		default:
			return nil, false
		}
		if isInput(operand) {
			slices.Reverse(path)
			return path, true
		}
		e = operand
	}
}

// literalString returns the value of a string literal.
func literalString(e ast.Expr) (string, bool) {
	if e.Kind() != ast.LiteralKind {
		return "", false
	}
	s, ok := e.AsLiteral().Value().(string)
	return s, ok
}

func isInput(e ast.Expr) bool { return e.Kind() == ast.IdentKind && e.AsIdent() == varInput }

// InputFields returns the input fields the formatter accounts for: those
// its preview and unwrap expressions read (with the lets they use), those
// its entry declares, and those it omits. It makes the formatter a
// runtime.FieldReader.
func (f *Formatter) InputFields() runtime.InputFields { return f.fields }
