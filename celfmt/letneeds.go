package celfmt

import "github.com/google/cel-go/common/ast"

// Lets a slot reads.
//
// A slot computes the lets its expression reads, directly or through the
// lets those read, and no other: a let only the preview reads cannot make
// the tier unknown, and a row does not pay for what only the preview
// shows. The generated code computes the same lets (CheckedExpr.Lets).

// linkLets records, for each slot expression of the formatter, the lets
// it reads.
func (f *Formatter) linkLets() {
	for _, c := range f.slotExprs() {
		if c.ast != nil {
			c.needs = letsRead(f.lets, c.ast.NativeRep().Expr())
		}
	}
}

// slotExprs are the formatter's slot expressions, present or not.
func (f *Formatter) slotExprs() []*compiled {
	out := []*compiled{&f.preview, &f.unwrap, &f.tierExpr}
	for s := range f.render {
		out = append(out, &f.render[s])
	}
	return out
}

// letsRead reports, for each of lets, whether e reads it, directly or
// through the lets it reads; nil when there are no lets. A name is taken
// to be the let it names wherever it appears, also where a comprehension
// variable of the same name hides the let: that computes a let too many,
// never one too few.
func letsRead(lets []compiled, e ast.Expr) []bool {
	if len(lets) == 0 {
		return nil
	}
	index := make(map[string]int, len(lets))
	for i, l := range lets {
		index[l.name] = i
	}
	reads := make([]bool, len(lets))
	mark := func(e ast.Expr, before int) {
		ast.PostOrderVisit(e, ast.NewExprVisitor(func(e ast.Expr) {
			if e.Kind() != ast.IdentKind {
				return
			}
			if i, ok := index[e.AsIdent()]; ok && i < before {
				reads[i] = true
			}
		}))
	}
	mark(e, len(lets))
	// A let sees only the lets before it, so one pass from the last
	// closes the set.
	for i := len(lets) - 1; i >= 0; i-- {
		if reads[i] {
			mark(lets[i].ast.NativeRep().Expr(), i)
		}
	}
	return reads
}

// reads reports whether the slot expression c computes the i-th let.
func (c *compiled) reads(i int) bool { return i < len(c.needs) && c.needs[i] }
