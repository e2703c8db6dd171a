package celfmt

import (
	"github.com/google/cel-go/cel"
	"github.com/permgen/permgen/runtime"
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
	// Lets says, of a slot expression, which of the formatter's lets it
	// reads, directly or through other lets: the ones the slot computes,
	// in the interpreter as in generated code. It is nil for a let, and
	// for a formatter without lets.
	Lets []bool
}

// Lets returns the formatter's lets, checked, in order.
func (f *Formatter) Lets() []CheckedExpr {
	lets := make([]CheckedExpr, len(f.lets))
	for i, l := range f.lets {
		lets[i] = CheckedExpr{Name: l.name, Source: f.Entry.Lets[i].Expr.Text, AST: l.ast, Estimate: l.estimate}
	}
	return lets
}

// Preview returns the formatter's preview expression, checked; its AST is
// nil when the entry has no preview.
func (f *Formatter) Preview() CheckedExpr {
	return CheckedExpr{Source: f.Entry.Preview.Text, AST: f.preview.ast, Estimate: f.preview.estimate, Lets: f.preview.needs}
}

// UnwrapExpr returns the formatter's unwrap expression, checked, and
// whether the entry has one. Its type is a list of maps or dyn, or an
// optional of one (see celrt.InnerCalls for what its value must be).
func (f *Formatter) UnwrapExpr() (CheckedExpr, bool) {
	return CheckedExpr{Source: f.Entry.Unwrap.Text, AST: f.unwrap.ast, Estimate: f.unwrap.estimate, Lets: f.unwrap.needs}, f.unwrap.ast != nil
}

// TierExpr returns the formatter's tier expression, of type string,
// checked, and whether the entry has one. An entry that names its tier
// has none: see StaticTier.
func (f *Formatter) TierExpr() (CheckedExpr, bool) {
	return CheckedExpr{Source: f.Entry.Tier.Text, AST: f.tierExpr.ast, Estimate: f.tierExpr.estimate, Lets: f.tierExpr.needs}, f.tierExpr.ast != nil
}

// RowExpr returns the formatter's row expression, of type string or
// optional_type(string), checked, and whether the entry has one. It sees
// the variables of the preview.
func (f *Formatter) RowExpr() (CheckedExpr, bool) { return f.renderExpr(slotRow) }

// ResultExpr returns the formatter's result expression, of type string or
// optional_type(string), checked, and whether the entry has one. It also
// sees the variable result (see ResultType).
func (f *Formatter) ResultExpr() (CheckedExpr, bool) { return f.renderExpr(slotResult) }

// ErrorExpr returns the formatter's error expression, as ResultExpr.
func (f *Formatter) ErrorExpr() (CheckedExpr, bool) { return f.renderExpr(slotError) }

// ExpandExpr returns the formatter's expand expression, of type
// list(string) or optional_type(list(string)), checked, and whether the
// entry has one. It also sees the variable result.
func (f *Formatter) ExpandExpr() (CheckedExpr, bool) { return f.renderExpr(slotExpand) }

// TitleExpr returns the formatter's title expression (title.expr),
// of type string or optional_type(string), checked, and whether the entry
// has one. It sees the variables of the preview.
func (f *Formatter) TitleExpr() (CheckedExpr, bool) { return f.renderExpr(slotTitle) }

func (f *Formatter) renderExpr(s renderSlot) (CheckedExpr, bool) {
	c := f.render[s]
	return CheckedExpr{Source: f.Entry.source(s).Text, AST: c.ast, Estimate: c.estimate, Lets: c.needs}, c.ast != nil
}

// StaticTier returns the tier the entry names (tier: read), or
// TierUnknown when it names none.
func (f *Formatter) StaticTier() runtime.Tier { return f.tier }

// InputType returns the CEL type of the formatter's variable input: an
// object type of its declared fields, or map(string, dyn).
func (f *Formatter) InputType() *cel.Type {
	if f.Entry.Input == nil {
		return undeclaredInput
	}
	return cel.ObjectType(inputTypeName(f.Entry.Tool))
}
