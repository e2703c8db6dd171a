package celfmt

import (
	"github.com/google/cel-go/cel"
)

// CheckedExpr is one checked expression of a formatter, as a code
// generator translates it.
type CheckedExpr struct {
	Name   string // the let's name; "" for the preview
	Source string // the CEL text
	AST    *cel.Ast
	// Estimate is the static worst-case cost of one evaluation on input
	// within the bounds of Options.
	Estimate uint64
}

// Lets returns the formatter's lets, checked, in order.
func (f *Formatter) Lets() []CheckedExpr {
	lets := make([]CheckedExpr, len(f.lets))
	for i, l := range f.lets {
		lets[i] = CheckedExpr{Name: l.name, Source: f.Entry.Lets[i].Expr.Text, AST: l.ast, Estimate: l.estimate}
	}
	return lets
}

// Preview returns the formatter's preview expression, checked.
func (f *Formatter) Preview() CheckedExpr {
	return CheckedExpr{Source: f.Entry.Preview.Text, AST: f.preview.ast, Estimate: f.preview.estimate}
}

// InputType returns the CEL type of the formatter's variable input: an
// object type of its declared fields, or map(string, dyn).
func (f *Formatter) InputType() *cel.Type {
	if f.Entry.Input == nil {
		return undeclaredInput
	}
	return cel.ObjectType(inputTypeName(f.Entry.Tool))
}
